"""Snip Snap Snorem, The Earl of Coventry, Jig and Rolling Stone through the API: one game of each,
a human seat against bots, from the table's creation to a verified record."""

from __future__ import annotations

import json

import pytest
import service_helpers
from service_helpers import CARD_CODE


def play_through(api, rules: str, seats: int, options: dict[str, int]) -> tuple[dict, list[dict], list[dict]]:
    """:func:`service_helpers.play_through`: the game, the views Ann saw, the record."""

    def check(game: dict, view: dict, hands: tuple) -> None:
        # Ann sees no card of another hand; the table shows only cards that were played in the
        # open (Rolling Stone: a trick picked up is in a hand, and everyone saw it).
        others = {card for seat, hand in enumerate(hands) if seat != 0 for card in hand}
        assert not others & set(CARD_CODE.findall(json.dumps({**view, "table": None})))
        record = api.record(game["game_id"])
        played = {line["card"] for line in record if line.get("move") == "play"}
        played |= {card for line in record if line["type"] == "put-down" for card in line["cards"]}
        assert set(CARD_CODE.findall(json.dumps(view["table"]))) <= played

    return service_helpers.play_through(api, rules, seats, options, check)


@pytest.mark.parametrize("rules, seats", [("snip-snap-snorem", 10), ("earl-of-coventry", 3), ("jig", 5)])
def test_a_snip_snap_game_through_the_api(api, rules, seats):
    game, seen, lines = play_through(api, rules, seats, {"deals": 1, "stack": 20})
    assert lines[0]["options"] == {"deals": 1, "stack": 20} and len(lines[0]["seats"]) == seats
    # The table shows the group being put down, each card with its call, and the rank wanted.
    following = [v for v in seen if v["table"]["wanted"] is not None]
    assert following and all(v["table"]["group"] for v in following)
    first_calls = {v["table"]["group"][0]["call"] for v in following}
    if rules == "earl-of-coventry":
        assert all(call.startswith("There's as good as ") for call in first_calls)
    else:
        assert first_calls == {None}
    assert any(line["type"] == "put-down" for line in lines) or any(line["type"] == "chips" for line in lines)
    end = next(line for line in lines if line["type"] == "hand-end")
    assert sum(end["totals"]) == 20 * seats and sum(end["scores"]) == 0


def test_a_rolling_stone_game_through_the_api(api):
    game, seen, lines = play_through(api, "rolling-stone", 4, {"deals": 1})
    assert lines[0]["options"] == {"deals": 1, "trick_limit": 500}
    assert all(len(set(v["hand"])) == len(v["hand"]) for v in seen)
    assert all({c[0] for c in v["hand"]} <= set("789TJQKA") for v in seen)  # four players: 7 to ace
    assert any(v["table"]["trick"] for v in seen) and any(v["table"]["trick"] == [] for v in seen)
    passes = [i for i, line in enumerate(lines) if line.get("move") == "pass"]
    assert all(lines[i + 1]["type"] == "pick-up" for i in passes)
    end = next(line for line in lines if line["type"] == "hand-end")
    assert end["scores"].count(1) >= 1


def test_a_snip_snap_pass_refused_through_the_api_says_why(api):
    game = api.create([("Ann", False), ("Bot 1", True), ("Bot 2", True)], rules="snip-snap-snorem")
    token = api.join(game)[0]
    view = api.view(game["game_id"], 0, token)
    while view["table"]["wanted"] is not None or view["turn"] != 0:
        view = api.ok(
            "POST", f"/games/{game['game_id']}/moves", token, json={"seq": view["seq"], **view["legal_moves"][0]}
        )["view"]
    # Ann leads: a pass is refused with the rules' reason, and nothing is recorded.
    answer = api.call("POST", f"/games/{game['game_id']}/moves", token, json={"seq": view["seq"], "move": "pass"})
    assert answer.status_code in (400, 409, 422) and "you lead: put down any card" in answer.text
    assert api.view(game["game_id"], 0, token)["seq"] == view["seq"]
