"""The run games at the service's tables: one game of each through the API, a human seat making
every kind of move these games have (the dealer's say about the extra hand, a bid, a spin, a
play with the 9♦), and a ten-seat table. SQLite only: the stores are tested in tests/service/.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from helpers import service_settings

warnings.filterwarnings("ignore", message=".*httpx.*")
from fastapi.testclient import TestClient  # noqa: E402

from fairdeal.fairness import client_commitment  # noqa: E402
from fairdeal.service import create_app  # noqa: E402
from fairdeal.service.models import MAX_SEATS  # noqa: E402
from fairdeal.verification import verify  # noqa: E402

CARD = re.compile(r'"([A2-9TJQK][CDHS])"')


@pytest.fixture
def client(tmp_path: Any, request: pytest.FixtureRequest) -> Iterator[TestClient]:
    count = itertools.count(1)

    def new_ids() -> tuple[str, str]:
        digest = hashlib.sha256(f"{request.node.name}/{next(count)}".encode()).digest()
        return f"run-{digest[:6].hex()}", digest.hex()

    settings = service_settings(tmp_path / "data", f"sqlite:///{tmp_path / 'db.sqlite'}")
    app = create_app(settings, new_ids=new_ids)
    with TestClient(app) as client:
        yield client
    app.state.store.close()


def ok(client: TestClient, method: str, url: str, token: str | None = None, status: int = 200, **kwargs: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = client.request(method, url, headers=headers, **kwargs)
    assert response.status_code == status, response.text
    return response.json()


def start(client: TestClient, rules: str, seats: int, options: dict | None = None) -> tuple[str, str, dict]:
    """A table of ``seats`` with Ann (seat 0) the one human; returns the game id, her token, her view."""
    body = {
        "rules": rules,
        "seats": [{"name": "Ann", "bot": False}] + [{"name": f"Bot {i}", "bot": True} for i in range(1, seats)],
    }
    if options:
        body["options"] = options
    game = ok(client, "POST", "/games", status=201, json=body)
    gid, token = game["game_id"], game["seats"][0]["join_token"]
    ok(client, "POST", f"/games/{gid}/seats/0/commit", token, json={"commitment": client_commitment("ann")})
    ok(client, "POST", f"/games/{gid}/seats/0/reveal", token, json={"seed": "ann"})
    return gid, token, ok(client, "GET", f"/games/{gid}/seats/0/view", token)


PREFERRED = ("exchange", "bid", "play-then")
"""What Ann chooses when she may: the extra hand, a bid, a play with a second card."""


def ann_chooses(view: dict) -> dict:
    moves = view["legal_moves"]
    for kind in PREFERRED:
        for move in moves:
            if move["move"] == kind or (kind == "play-then" and "then" in move):
                return move
    return moves[0]


@pytest.mark.parametrize(
    "rules, seats", [("sequence", 3), ("michigan", 4), ("double-stops", 3), ("spin", 5), ("commit", 4)]
)
def test_one_game_of_each_plays_through_the_api_and_verifies(client, rules, seats):
    gid, token, view = start(client, rules, seats, {"deals": 2})
    made: set[str] = set()
    for _ in range(2000):
        if view["status"] != "playing":
            break
        assert view["your_turn"], "bots move at once, so it is always Ann's turn"
        table = view["table"]
        # Ann sees her hand and the public table: no card of another hand, nor of the dead hand
        # unless it is the one she put aside.
        hidden = _hidden(client, gid) - set(table.get("discarded", []))
        assert not hidden & shown(view)
        public = ok(client, "GET", f"/games/{gid}")
        assert not (hidden | set(table.get("discarded", []))) & shown(public)
        playable = {m["card"] for m in view["legal_moves"] if m["move"] == "play"}
        assert {c["card"] for c in view["cards"] if c["playable"]} == playable
        assert all(c["why_not"] for c in view["cards"] if not c["playable"])
        move = ann_chooses(view)
        made.add(move["move"] + ("-then" if "then" in move else ""))
        view = ok(client, "POST", f"/games/{gid}/moves", token, json={"seq": view["seq"], **move})["view"]
    assert view["status"] == "over" and view["rules"] == rules
    assert len(view["hands"]) == 2
    report = ok(client, "GET", f"/games/{gid}/verify")
    assert report["verified"] is True and report["hands"][0]["runs"]
    assert verify(client.get(f"/games/{gid}/record").text).verified
    if rules in ("michigan", "double-stops", "spin"):
        assert report["hands"][0]["layout"].keys() >= {"AH", "KC", "QD", "JS"}


# Keys that name cards by the rules, not by where they lie: the layout's pay cards (from another pack),
# Double Stops' pair among them, and the cards a run wants next (anyone can tell them from the run).
RULE_NAMED = ("layout", "pair", "next")


def shown(view: dict) -> set[str]:
    """The card codes in a view, but for the cards the rules name (:data:`RULE_NAMED`), wherever
    they are shown (the table, the score sheet)."""

    def without_layouts(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: without_layouts(v) for k, v in value.items() if k not in RULE_NAMED}
        if isinstance(value, list):
            return [without_layouts(v) for v in value]
        return value

    return set(CARD.findall(json.dumps(without_layouts(view))))


def _hidden(client: TestClient, gid: str) -> set[str]:
    """The cards Ann may not see: the other seats' hands, the extra (or dead) hand, the stops."""

    def hidden(table: Any, row: Any) -> set[str]:
        state = table.match.state
        cards = [c for hand in state.hands[1:] for c in hand] + list(state.extra) + list(state.dead)
        return {c.code for c in cards}

    return client.app.state.games.read(gid, hidden)


def test_the_human_seat_makes_every_kind_of_move_these_games_have(client):
    seen: set[str] = set()
    for rules, seats in (("michigan", 3), ("spin", 3), ("commit", 4)):
        for deal in range(6):
            gid, token, view = start(client, rules, seats, {"deals": 1})
            while view["status"] == "playing":
                move = ann_chooses(view)
                seen.add(move["move"] + ("-then" if "then" in move else ""))
                if view["table"].get("phase") == "choose" and deal % 2:
                    move = {"move": "auction"}  # every other deal, Ann sells the extra hand
                    seen.add("auction")
                view = ok(client, "POST", f"/games/{gid}/moves", token, json={"seq": view["seq"], **move})["view"]
            assert ok(client, "GET", f"/games/{gid}/verify")["verified"]
    assert seen >= {"exchange", "auction", "bid", "play", "play-then"}


def test_a_move_with_a_bid_or_a_second_card_is_read_from_the_body(client):
    gid, token, view = start(client, "michigan", 3)
    dealer = view["table"]["dealer"]
    if dealer == 0:
        view = ok(client, "POST", f"/games/{gid}/moves", token, json={"seq": view["seq"], "move": "auction"})["view"]
    assert view["your_turn"] and view["table"]["phase"] in ("auction", "play")
    if view["table"]["phase"] == "auction":
        bad = client.post(
            f"/games/{gid}/moves",
            headers={"Authorization": f"Bearer {token}"},
            json={"seq": view["seq"], "move": "bid", "amount": 0},
        )
        assert bad.status_code == 422
        too_much = client.post(
            f"/games/{gid}/moves",
            headers={"Authorization": f"Bearer {token}"},
            json={"seq": view["seq"], "move": "bid", "amount": 11},
        )
        assert too_much.status_code in (409, 422) and "at most 10 counters" in too_much.text
        view = ok(client, "POST", f"/games/{gid}/moves", token, json={"seq": view["seq"], "move": "bid", "amount": 3})[
            "view"
        ]
        assert {"seat": 0, "bid": 3} in view["table"]["bids"] or view["table"]["phase"] == "play"
    wrong = client.post(
        f"/games/{gid}/moves",
        headers={"Authorization": f"Bearer {token}"},
        json={"seq": view["seq"], "move": "play", "card": "2C", "then": "AD"},
    )
    assert wrong.status_code in (409, 422) and "Michigan plays one card at a time" in wrong.text


def test_a_table_seats_up_to_ten(client):
    assert MAX_SEATS == 10
    gid, token, view = start(client, "sequence", 10, {"deals": 1})
    table = view["table"]
    assert len(view["seats"]) == 10 and sum(table["hand_sizes"]) + sum(map(len, table["runs"])) == 52
    while view["status"] == "playing":
        view = ok(client, "POST", f"/games/{gid}/moves", token, json={"seq": view["seq"], **view["legal_moves"][0]})[
            "view"
        ]
    assert ok(client, "GET", f"/games/{gid}/verify")["verified"]
    eleven = client.post("/games", json={"rules": "sequence", "seats": [{"name": f"P{i}"} for i in range(11)]})
    assert eleven.status_code == 422
