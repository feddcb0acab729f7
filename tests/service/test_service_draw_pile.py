"""The draw-pile Stops games through the API (crazy-eights-book, eights, hollywood-eights, go-boom,
hollywood-go-boom): a human seat against bots from the table's creation to a verified record; what
the views show (and hide); Hollywood's three games in the public state."""

from __future__ import annotations

import json

import pytest
import service_helpers
from service_helpers import CARD_CODE


def play_through(api, rules: str, seats: int, options: dict[str, int]) -> tuple[dict, list[dict], list[dict]]:
    """:func:`service_helpers.play_through`: the game, Ann's views, the record."""
    return service_helpers.play_through(api, rules, seats, options, _shows_no_other_hand)


def _shows_no_other_hand(game: dict, view: dict, hands: tuple) -> None:
    assert view["table"]["hand_sizes"] == [len(h) for h in hands]
    # No card of another hand anywhere in what Ann sees but the table's open cards.
    others = {card for seat, hand in enumerate(hands) if seat != 0 for card in hand} - set(hands[0])
    assert not others & set(CARD_CODE.findall(json.dumps({**view, "table": None, "hands": None})))


def test_a_hollywood_go_boom_game_shows_its_three_games(api):
    game, seen, lines = play_through(api, "hollywood-go-boom", 3, {"target": 30})
    public = api.ok("GET", f"/games/{game['game_id']}")
    games = public["sheet"]["games"]
    assert len(games) == 3 and all(max(scores) >= 30 for scores in games)
    assert public["totals"] == public["sheet"]["totals"] == [sum(g[s] for g in games) for s in range(3)]
    ends = [line for line in lines if line["type"] == "hand-end"]
    assert [h["games"] for h in public["hands"]] == [end["games"] for end in ends]
    # Go Boom's table: the round so far and the card to match.
    assert any(v["table"]["round"] == [] and v["table"]["previous"] is None for v in seen)
    assert any(v["table"]["previous"] is not None for v in seen)


@pytest.mark.parametrize(
    "rules, options",
    [
        ("eights", {"deals": 1}),
        ("crazy-eights-book", {"deals": 1}),
        ("hollywood-eights", {"target": 20}),
    ],
)
def test_a_four_hand_partnership_game(api, rules, options):
    game, seen, lines = play_through(api, rules, 4, options)
    assert all(v["table"]["partners"] == [[0, 2], [1, 3]] for v in seen)
    for end in (line for line in lines if line["type"] == "hand-end"):
        assert end["winners"] in ([0, 2], [1, 3], [])
        assert end["scores"][0] == end["scores"][2] and end["scores"][1] == end["scores"][3]
    public = api.ok("GET", f"/games/{game['game_id']}")
    assert public["totals"][0] == public["totals"][2] and public["totals"][1] == public["totals"][3]
    assert "games" not in public["sheet"] or rules == "hollywood-eights"


def test_six_players_of_crazy_eights_by_the_book_use_two_packs(api):
    game, seen, lines = play_through(api, "crazy-eights-book", 6, {"deals": 1})
    first = seen[0]["table"]
    assert sum(first["hand_sizes"]) + first["stock_size"] + first["pile_size"] == 104
