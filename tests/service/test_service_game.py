"""A whole game through the API: three bots and one human, from the table's creation to VERIFIED."""

from __future__ import annotations

import json
import logging

import pytest
from service_helpers import CARD_CODE
from service_helpers import choose
from service_helpers import server_hands

from fairdeal.cards import pack
from fairdeal.fairness import commitment
from fairdeal.fairness import game_key
from fairdeal.fairness import shuffle
from fairdeal.record import check_chain
from fairdeal.record import verify_head
from fairdeal.rules import RULES
from fairdeal.verification import verify


def test_a_human_plays_three_bots_to_the_end_and_the_record_verifies(api, caplog):
    caplog.set_level(logging.DEBUG)
    game = api.create([("Ann", False), ("Bot 1", True), ("Bot 2", True), ("Bot 3", True)])
    game_id = game["game_id"]
    assert [s.get("join_token") is not None for s in game["seats"]] == [True, False, False, False]
    key = api.ok("GET", "/.well-known/fairdeal-key")
    assert key == {"key": game["public_key"], "algorithm": "Ed25519", "encoding": "hex, raw 32-byte public key"}

    token = api.join(game, {0: "Ann's lucky seed ✓"})[0]
    view = api.view(game_id, 0, token)
    assert view["status"] == "playing" and view["seats"][1]["bot"]
    first_hand, first_dealer = view["hand"], view["table"]["dealer"]

    moves = 0
    before_reveal = len(api.seen)
    while view["status"] == "playing":
        assert view["your_turn"] and view["turn"] == 0  # bots move at once (bot_delay 0)
        hands = server_hands(api.app, game_id)
        # The seat sees its own hand, exactly, and no card of any other hand.
        assert sorted(view["hand"]) == sorted(hands[0])
        others = {card for seat, hand in enumerate(hands) if seat != 0 for card in hand}
        assert not others & set(CARD_CODE.findall(json.dumps(view)))
        # Every card is explained; the playable ones are those the legal moves play.
        playable = {m["card"] for m in view["legal_moves"] if m["move"] == "play"}
        assert {c["card"] for c in view["cards"] if c["playable"]} == playable
        assert all(c["why_not"] for c in view["cards"] if not c["playable"])
        assert view["deadline"].endswith("Z") and view["seconds_left"] == 20.0
        # A spectator sees the top of the pile and nothing hidden.
        public = api.ok("GET", f"/games/{game_id}")
        assert set(CARD_CODE.findall(json.dumps(public))) <= {public["table"]["top"]}
        assert "hand" not in public and "legal_moves" not in public

        answer = api.ok("POST", f"/games/{game_id}/moves", token, json={"seq": view["seq"], **choose(view)})
        receipt = answer["receipt"]
        assert verify_head(game["public_key"], game_id, receipt["seq"], receipt["hash"], receipt["sig"])
        view = answer["view"]
        moves += 1
        if view["status"] == "playing":
            before_reveal = len(api.seen)
    assert moves > 10
    assert view["status"] == "over" and view["standings"][0]["total"] >= 100
    server_seed = view["server_seed"]
    assert commitment(server_seed) == game["commitment"]

    # The seed was in no response and no log line before the one that revealed it.
    assert not any(server_seed in text for text in api.seen[:before_reveal])
    assert server_seed not in caplog.text
    access = [json.loads(r.getMessage()) for r in caplog.records if r.name == "fairdeal.access"]
    moves_logged = [entry for entry in access if entry["path"] == "/games/{game_id}/moves"]
    assert len(moves_logged) == moves
    assert all(entry.keys() == {"method", "path", "status", "ms", "game_id"} for entry in moves_logged)
    assert moves_logged[-1]["game_id"] == game_id and moves_logged[-1]["status"] == 200
    assert not any(token in r.getMessage() or game["host_token"] in r.getMessage() for r in caplog.records)

    lines = api.record(game_id)
    check_chain(lines, game["public_key"])
    assert lines[0]["server_key"] == game["public_key"] and lines[-1]["type"] == "reveal"
    assert any(line.get("move") == "draw" for line in lines) and not any(
        "card" in line for line in lines if line.get("move") == "draw"
    )
    # Anyone can deal hand 1 again from the revealed seed: Ann got what the seed gave her.
    key_bytes = game_key(server_seed, game_id, ["Ann's lucky seed ✓", "", "", ""])
    order = [card.code for card in shuffle(key_bytes, "hand/1/deal", pack())]
    first = (first_dealer + 1) % 4
    assert first_hand == order[(0 - first) % 4 : 20 : 4]
    deal = next(line for line in lines if line["type"] == "deal")
    assert deal["turned"][0] == order[20]

    report = api.ok("GET", f"/games/{game_id}/verify")
    assert report["verified"] is True and report["error"] is None
    assert report["standings"] == view["standings"]
    assert verify(api.client.get(f"/games/{game_id}/record").text, key=game["public_key"]).verified


def test_a_table_of_bots_alone_plays_itself_out_when_it_is_created(api):
    game = api.create([("A", True), ("B", True), ("C", True)], options={"target": 30})
    assert game["status"] == "over"
    state = api.ok("GET", f"/games/{game['game_id']}")
    assert state["status"] == "over" and state["standings"][0]["total"] >= 30 and state["server_seed"]
    assert api.ok("GET", f"/games/{game['game_id']}/verify")["verified"]


def test_the_host_starts_early_and_the_silent_seat_becomes_a_marked_bot(api):
    game = api.create([("Ann", False), ("Bob", False)], options={"target": 20})
    game_id = game["game_id"]
    ann, bob = (s["join_token"] for s in game["seats"])
    api.ok("POST", f"/games/{game_id}/seats/0/commit", ann, json={"commitment": "ab" * 32})
    state = api.ok("POST", f"/games/{game_id}/start", game["host_token"])
    assert [s["bot"] for s in state["seats"]] == [True, True]  # neither had revealed a seed
    # Bots move at once here, up to a cap per request; the timer plays the rest.
    for _ in range(100):
        if state["status"] == "over":
            break
        assert api.app.state.games.run_due() == 1
        state = api.ok("GET", f"/games/{game_id}")
    assert state["status"] == "over"
    lines = api.record(game_id)
    start = next(line for line in lines if line["type"] == "start")
    assert start == {**start, "client_seeds": ["", ""], "bots": [0, 1]}
    assert api.ok("GET", f"/games/{game_id}/verify")["verified"]


def test_the_host_abandons_and_the_seed_is_revealed(api):
    game = api.create([("Ann", False), ("Bot", True)])
    game_id = game["game_id"]
    api.join(game)
    state = api.ok("POST", f"/games/{game_id}/abandon", game["host_token"], json={"reason": "closing time"})
    assert state["status"] == "abandoned" and commitment(state["server_seed"]) == game["commitment"]
    lines = api.record(game_id)
    assert [line["type"] for line in lines[-2:]] == ["abandon", "reveal"] and lines[-2]["reason"] == "closing time"
    report = api.ok("GET", f"/games/{game_id}/verify")
    assert report["verified"] and report["abandoned"] == "closing time"
    again = api.call("POST", f"/games/{game_id}/abandon", game["host_token"])
    assert again.status_code == 409 and "over" in again.json()["detail"]


@pytest.mark.parametrize("rules", sorted(RULES))
def test_every_game_fairdeal_knows_plays_through_the_api(api, rules):
    bots = max(2, RULES[rules].min_seats - 1)  # three seats, or as many as the game needs (Commit: 4)
    game = api.create([("Ann", False)] + [(f"Bot {i}", True) for i in range(1, bots + 1)], rules=rules)
    token = api.join(game)[0]
    view = api.view(game["game_id"], 0, token)
    for _ in range(5000):
        if view["status"] != "playing":
            break
        assert view["your_turn"], "bots move at once, so it is always Ann's turn"
        public = api.ok("GET", f"/games/{game['game_id']}")
        assert "hand" not in public and public["seq"] == view["seq"]
        view = api.ok(
            "POST", f"/games/{game['game_id']}/moves", token, json={"seq": view["seq"], **view["legal_moves"][0]}
        )["view"]
    assert view["status"] == "over" and view["rules"] == rules
    assert api.ok("GET", f"/games/{game['game_id']}/verify")["verified"]
