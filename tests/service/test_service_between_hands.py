"""The pause between hands, each table's pace, and "Play again" (SQLite and PostgreSQL)."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

import psycopg
import pytest
from fastapi.testclient import TestClient
from service_helpers import Api
from service_helpers import choose

from fairdeal.service import create_app
from fairdeal.service.store import open_store
from verifier import verify

HIGH = {"target": 1000}  # a match that goes on after its first hand (the most a new table may set)


def _play_to_the_pause(api: Api, game_id: str, tokens: dict[int, str]) -> dict:
    """Every person plays the first legal move until the hand ends; the view of seat 0 then."""
    for _ in range(500):
        state = api.ok("GET", f"/games/{game_id}")
        if state["status"] != "playing":
            return api.view(game_id, 0, tokens[0])
        seat = state["turn"]
        view = api.view(game_id, seat, tokens[seat])
        api.ok("POST", f"/games/{game_id}/moves", tokens[seat], json={"seq": view["seq"], **choose(view)})
    raise AssertionError("the hand did not end")


def _table(api: Api, seats, **body) -> tuple[str, str, dict[int, str]]:
    game = api.create(seats, rules="crazy-eights", options=HIGH, **body)
    return game["game_id"], game["host_token"], api.join(game)


def test_a_table_with_people_waits_until_every_person_is_ready(api):
    game_id, host, tokens = _table(api, [("Ann", False), ("Bob", False), ("Bot", True)], next_hand_seconds=30)
    view = _play_to_the_pause(api, game_id, tokens)
    record = api.record(game_id)
    assert record[-1]["type"] == "hand-end"  # the deal waits: no line yet
    assert view["status"] == "between-hands" and view["turn"] is None and view["legal_moves"] == []
    assert view["deadline"] is None and view["seconds_left"] is None  # no one's turn runs out
    pause = view["next_hand"]
    assert pause["hand"] == 2 and pause["ready"] == [] and pause["waiting"] == [0, 1]
    assert pause["seconds_left"] == 30.0
    # Every seat's cards left, shown to be counted; the counts, scores and totals are the hand's.
    assert (
        len(pause["cards_left"]) == 3 and any(pause["cards_left"]) and not pause["cards_left"][record[-1]["winners"][0]]
    )
    assert view["hands"][-1]["scores"] == record[-1]["scores"] and view["totals"] == record[-1]["totals"]
    public = api.ok("GET", f"/games/{game_id}")
    assert public["status"] == "between-hands" and public["next_hand"] == pause

    refused = api.call("POST", f"/games/{game_id}/moves", tokens[0], json={"seq": view["seq"], "move": "draw"})
    assert refused.status_code == 409
    assert api.call("POST", f"/games/{game_id}/ready", host).status_code == 403
    assert api.call("POST", f"/games/{game_id}/ready").status_code == 401

    view = api.ok("POST", f"/games/{game_id}/ready", tokens[0])
    assert view["status"] == "between-hands" and view["next_hand"]["ready"] == [0]
    assert view["next_hand"]["waiting"] == [1] and api.record(game_id)[-1]["type"] == "hand-end"
    again = api.ok("POST", f"/games/{game_id}/ready", tokens[0])  # said twice: still one person
    assert again["next_hand"]["waiting"] == [1]
    assert api.view(game_id, 1, tokens[1])["next_hand"]["ready"] == [0]  # read from the row

    view = api.ok("POST", f"/games/{game_id}/ready", tokens[1])  # the last one: dealt in this request
    assert view["status"] == "playing" and view["hand_no"] == 2 and "next_hand" not in view
    assert api.record(game_id)[len(record)]["type"] == "deal"
    late = api.call("POST", f"/games/{game_id}/ready", tokens[0])
    assert late.status_code == 409 and "no hand is waiting" in late.json()["detail"]


def test_the_countdown_deals_when_it_runs_out_and_plays_no_one(api, clock, settings, new_ids):
    game_id, host, tokens = _table(api, [("Ann", False), ("Bot", True)], next_hand_seconds=12)
    view = _play_to_the_pause(api, game_id, tokens)
    assert view["next_hand"]["seconds_left"] == 12.0
    games = api.app.state.games
    clock.advance(11.9)
    assert games.run_due() == 0 and api.view(game_id, 0, tokens[0])["next_hand"]["seconds_left"] == 0.1
    length = len(api.record(game_id))

    # A restarted server (another process) finds the table between hands, with its countdown.
    restarted = create_app(settings, clock=clock, new_ids=new_ids)
    with TestClient(restarted) as client:
        other = Api(client)
        assert other.view(game_id, 0, tokens[0])["status"] == "between-hands"
        clock.advance(0.2)
        assert restarted.state.games.run_due() == 1
    restarted.state.store.close()
    new = api.record(game_id)[length:]
    assert new[0]["type"] == "deal"
    assert not [line for line in new if line["type"] == "move" and line.get("auto")]  # Ann was not played for
    view = api.view(game_id, 0, tokens[0])
    assert view["status"] == "playing" and view["hand_no"] == 2
    assert view["seconds_left"] == 20.0 or view["turn"] != 0  # a fresh turn, if it is Ann's


def test_an_abandon_between_hands_deals_first_and_the_record_verifies(api):
    game_id, host, tokens = _table(api, [("Ann", False), ("Bot", True)], next_hand_seconds=30)
    _play_to_the_pause(api, game_id, tokens)
    api.ok("POST", f"/games/{game_id}/abandon", host)
    record = api.record(game_id)
    kinds = [line["type"] for line in record]
    assert kinds[-2:] == ["abandon", "reveal"] and kinds[kinds.index("hand-end") + 1] == "deal"
    assert verify(api.call("GET", f"/games/{game_id}/record").text).verified


def test_each_table_keeps_its_pace(settings, clock, new_ids):
    app = create_app(dataclasses.replace(settings, bot_delay=1.5, next_hand_seconds=20), clock=clock, new_ids=new_ids)
    with TestClient(app) as client:
        api = Api(client)
        people = api.create([("Ann", False), ("Bot", True)])
        bots = api.create([("B1", True), ("B2", True)])
        own = api.create([("Ann", False), ("Bot", True)], bot_seconds=2.5, next_hand_seconds=0)
        store = app.state.store
        paces = {
            g["game_id"]: (r.bot_seconds, r.next_hand_seconds)
            for g in (people, bots, own)
            for r in [store.game(g["game_id"])]
        }
        assert paces[people["game_id"]] == (1.5, 20.0)  # the service's, for a table with a person
        assert paces[bots["game_id"]] == (0.0, 0.0)  # bots alone: at once, no pause
        assert paces[own["game_id"]] == (2.5, 0.0)
        assert api.ok("GET", f"/games/{bots['game_id']}")["seq"] > 200  # bots alone play within the create
        state = api.ok("GET", f"/games/{own['game_id']}")
        assert state["bot_seconds"] == 2.5 and state["next_hand_seconds"] == 0.0
        for bad in ({"bot_seconds": 11}, {"bot_seconds": -1}, {"next_hand_seconds": 121}):
            assert api.call("POST", "/games", json={"seats": [{"name": "Ann"}], **bad}).status_code == 422

        # The bot's wait is the row's: due 2.5 s after it got the turn, not the service's 1.5.
        tokens = api.join(own)
        game_id = own["game_id"]
        for _ in range(100):
            view = api.view(game_id, 0, tokens[0])
            if view["turn"] == 1:
                break
            api.ok("POST", f"/games/{game_id}/moves", tokens[0], json={"seq": view["seq"], **choose(view)})
        assert store.game(game_id).deadline == clock() + 2.5
        length = store.length(game_id)
        clock.advance(1.5)
        app.state.games.run_due()
        assert store.length(game_id) == length
        clock.advance(1.0)
        app.state.games.run_due()
        assert store.length(game_id) > length
    app.state.store.close()


def test_play_again_makes_the_same_table_and_tells_each_seat_its_own_link(api):
    game_id, host, tokens = _table(
        api, [("Ann", False), ("Bot", True), ("Cy", False)], next_hand_seconds=15, bot_seconds=0, turn_seconds=40
    )
    assert api.call("POST", f"/games/{game_id}/again", host).status_code == 409  # still being played
    assert api.call("POST", f"/games/{game_id}/again", tokens[0]).status_code == 403
    api.ok("POST", f"/games/{game_id}/abandon", host)

    made = api.ok("POST", f"/games/{game_id}/again", host, status=201)
    new_id = made["game_id"]
    assert new_id != game_id and made["host_token"] and made["status"] == "seeding"
    assert [(s["name"], s["bot"], "join_token" in s) for s in made["seats"]] == [
        ("Ann", False, True),
        ("Bot", True, False),
        ("Cy", False, True),
    ]
    state = api.ok("GET", f"/games/{new_id}")
    assert (state["rules"], state["options"]["target"]) == ("crazy-eights", 1000)
    assert (state["turn_seconds"], state["bot_seconds"], state["next_hand_seconds"]) == (40.0, 0.0, 15.0)

    # Each seat's own view of the old table names its own seat and token there; no one else's.
    new_tokens = {s["seat"]: s["join_token"] for s in made["seats"] if "join_token" in s}
    for seat in (0, 2):
        assert api.view(game_id, seat, tokens[seat])["again"] == {
            "game_id": new_id,
            "seat": seat,
            "token": new_tokens[seat],
        }
        assert api.view(new_id, seat, new_tokens[seat])["seat"] == seat  # the token is that seat's there
    public = api.ok("GET", f"/games/{game_id}")
    assert public["again"] == {"game_id": new_id}
    assert not any(token in text for text in [str(public)] for token in new_tokens.values())

    second = api.call("POST", f"/games/{game_id}/again", host)
    assert second.status_code == 409 and new_id in second.json()["detail"]


OLD_GAMES = """CREATE TABLE games (id TEXT PRIMARY KEY, rules TEXT NOT NULL, created TEXT NOT NULL,
    status TEXT NOT NULL, sealed_seed {blob} NOT NULL, host_hash TEXT NOT NULL,
    turn_seconds {real} NOT NULL, deadline {real}, length INTEGER NOT NULL, sealed_secret {blob})"""
OLD_ROW = "INSERT INTO games VALUES ('old', 'crazy-eights', '2026-01-01T00:00:00Z', 'over', '\\x00', 'h', 20.0, NULL, 0, NULL)"


def test_a_database_made_before_tables_had_their_own_pace_gets_the_columns(database_url):
    # The games table as versions before this one made it, on either store.
    if database_url.startswith("sqlite:///"):
        path = Path(database_url[len("sqlite:///") :])
        path.parent.mkdir(parents=True, exist_ok=True)
        with sqlite3.connect(path) as conn:
            conn.execute(OLD_GAMES.format(blob="BLOB", real="REAL"))
            conn.execute(OLD_ROW)
    else:
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(OLD_GAMES.format(blob="BYTEA", real="DOUBLE PRECISION"))
            conn.execute(OLD_ROW)
    store = open_store(database_url)
    try:
        row = store.game("old")
        assert (row.bot_seconds, row.next_hand_seconds, row.ready, row.again_id, row.sealed_again) == (
            None,
            0.0,
            0,
            None,
            None,
        )
        assert store.set_again("old", "new", b"sealed") and not store.set_again("old", "newer", b"sealed")
        assert store.game("old").again_id == "new"
    finally:
        store.close()
    store = open_store(database_url)  # opened again: the columns are there already
    store.close()


def test_the_settings_read_the_pace_from_the_environment():
    from fairdeal.service.settings import Settings
    from fairdeal.service.settings import SettingsError

    defaults = Settings.from_env({})
    assert (defaults.bot_delay, defaults.next_hand_seconds) == (1.0, 20.0)
    settings = Settings.from_env({"FAIRDEAL_NEXT_HAND_SECONDS": "5", "FAIRDEAL_BOT_DELAY": "0"})
    assert (settings.bot_delay, settings.next_hand_seconds) == (0.0, 5.0)
    assert Settings.from_env(settings.to_env()) == settings
    with pytest.raises(SettingsError, match="FAIRDEAL_NEXT_HAND_SECONDS"):
        Settings.from_env({"FAIRDEAL_NEXT_HAND_SECONDS": "121"})
