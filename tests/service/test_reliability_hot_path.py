"""The move's fast path answers what the slow one did, on SQLite and PostgreSQL.

bench/load.py led to four changes on the path of a move: the view a move
answers comes from the state its append left (not from reading the game
again); a game cached in this process tells who a token is without reading
the database; SQLite writers of one process queue on a lock instead of
SQLite's sleeping busy handler; PostgreSQL connections are in autocommit and
checked only after a second unused. Later: Python's full garbage collection
runs on the app's schedule, not when Python decides; and on PostgreSQL a
game is played on the event loop, its reads and appends awaited on async
connections, and through a worker thread only when that fails. These tests hold the
answers to what they were before.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import os
import sys
import threading
import time
import weakref
from pathlib import Path

import psycopg
import pytest
from fastapi.testclient import TestClient
from service_helpers import Api
from service_helpers import choose

from fairdeal.service import create_app
from fairdeal.service.errors import Unauthorized
from fairdeal.service.live import HOST
from fairdeal.service.live import Role
from fairdeal.service.store import PostgresStore

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from load import PG_SERVER
from load import sockets_of
from load import tcp_sockets


def test_the_view_a_move_answers_is_the_view_the_seat_reads_next(api, clock):
    """Through a whole game, with the turn clock moving: receipts, deadlines, bots' replies, hand ends."""
    game = api.create(
        [("Ann", False), ("Bot 1", True), ("Bot 2", True), ("Bot 3", True)], options={"target": 30}, turn_seconds=40
    )
    game_id = game["game_id"]
    token = api.join(game)[0]
    view = api.view(game_id, 0, token)
    moves = 0
    while view["status"] == "playing":
        clock.advance(3)  # a draw keeps the turn's deadline; a play gives the next turn a fresh one
        answer = api.ok("POST", f"/games/{game_id}/moves", token, json={"seq": view["seq"], **choose(view)})
        view = answer["view"]
        assert view == api.view(game_id, 0, token)
        assert answer["receipt"]["seq"] < view["seq"]
        moves += 1
    assert moves > 5 and view["status"] == "over" and view["server_seed"]
    assert view["deadline"] is None and view["legal_moves"] == []


def test_a_cached_game_tells_who_a_token_is_without_reading_the_database(api, monkeypatch):
    game = api.create([("Ann", False), ("Bot", True)])
    game_id, ann = game["game_id"], game["seats"][0]["join_token"]
    games = api.app.state.games
    assert games.authenticate(game_id, ann) == Role(0)  # reads the game, and caches it

    def no_reading(*args):
        raise AssertionError("the database was read")

    monkeypatch.setattr(games.store, "game", no_reading)
    monkeypatch.setattr(games.store, "lines", no_reading)
    assert games.authenticate_cached(game_id, ann) == Role(0)
    assert games.authenticate_cached(game_id, game["host_token"]) == Role(HOST)
    with pytest.raises(Unauthorized):
        games.authenticate_cached(game_id, "not a token")
    with pytest.raises(Unauthorized):
        games.authenticate_cached(game_id, None)
    assert games.authenticate_cached("not-cached-here", ann) is None
    games.drop(game_id)
    assert games.authenticate_cached(game_id, ann) is None  # not cached any more: the slow path reads


def test_another_processs_game_is_authenticated_through_the_thread_pool(settings, clock, new_ids, api):
    """The route answers for a game this process never saw (the dependency falls back to reading it)."""
    game = api.create([("Ann", False), ("Bot", True)])
    other = create_app(settings, clock=clock, new_ids=new_ids)
    with TestClient(other) as client:
        second = Api(client)
        assert other.state.games.authenticate_cached(game["game_id"], game["host_token"]) is None
        assert (
            second.call(
                "POST", f"/games/{game['game_id']}/seats/1/commit", game["host_token"], json={"commitment": "ab" * 32}
            ).status_code
            == 403
        )
        assert second.call("GET", f"/games/{game['game_id']}/seats/0/view", "wrong").status_code == 401
        assert second.view(game["game_id"], 0, game["seats"][0]["join_token"])["seat"] == 0
    other.state.store.close()


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_postgresql_games_are_played_on_the_event_loop(api, monkeypatch):
    """Creating a game, its seeds, its views and its moves need no worker thread: the store reads and
    writes from the loop."""
    games = api.app.state.games
    through_threads = []
    real_call = type(games.store).call

    async def spy(store, fn, /, *args, **kwargs):
        through_threads.append(getattr(fn, "__name__", fn))
        return await real_call(store, fn, *args, **kwargs)

    monkeypatch.setattr(type(games.store), "call", spy)
    game = api.create([("Ann", False), ("Bob", False), ("Bot", True)], options={"target": 30})
    game_id = game["game_id"]
    tokens = api.join(game)
    view = api.view(game_id, 0, tokens[0])
    games.drop(game_id)  # as if another process had made the game: read whole, from the loop
    assert api.view(game_id, 1, tokens[1])["seat"] == 1
    moves = 0
    while view["status"] == "playing" and moves < 30:
        seat = view["turn"]
        if seat != view["seat"]:
            view = api.view(game_id, seat, tokens[seat])
        view = api.ok("POST", f"/games/{game_id}/moves", tokens[seat], json={"seq": view["seq"], **choose(view)})[
            "view"
        ]
        moves += 1
    assert moves > 5 and through_threads == []
    monkeypatch.undo()
    assert view == api.view(game_id, view["seat"], tokens[view["seat"]])


def own_ports() -> list[int]:
    """The local ports of this process's TCP connections (bench/load.py reads them from /proc)."""
    return [local for local, _ in sockets_of(os.getpid(), tcp_sockets())]


def close_loop_connections() -> None:
    """The server ends every connection of the app's event-loop pool (a restart, a network cut).

    Only this process's (the other test worker's apps have loop connections too). The pool opens
    its connections again in the background after the last cut: this waits (up to 10 s) until it
    holds one again, so that there is something to cut."""
    with psycopg.connect(PG_SERVER, autocommit=True) as admin:
        give_up = time.monotonic() + 10
        while True:
            closed = admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name = 'fairdeal-loop' AND client_port = ANY(%s)",
                (own_ports(),),
            ).fetchall()
            if closed or time.monotonic() > give_up:
                break
            time.sleep(0.05)
    assert closed, "the app had no event-loop connection to close"


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_a_move_whose_loop_connection_broke_is_made_through_a_thread(api):
    """The server closed the event loop's connections: the next move is made the usual way, once."""
    game_id, token = api.ann_and_a_bot()
    first = api.view(game_id, 0, token)
    view = api.ok("POST", f"/games/{game_id}/moves", token, json={"seq": first["seq"], **choose(first)})["view"]
    close_loop_connections()
    body = {"seq": view["seq"], **choose(view)}
    answer = api.ok("POST", f"/games/{game_id}/moves", token, json=body)
    assert answer["receipt"]["seq"] == view["seq"]
    record = api.record(game_id)
    assert [line["seq"] for line in record] == list(range(len(record)))
    assert sum(1 for line in record if line["type"] == "move" and line["seq"] == view["seq"]) == 1
    assert answer["view"] == api.view(game_id, 0, token)


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
@pytest.mark.parametrize("broke", ["before its commit", "after its commit"])
def test_a_new_game_whose_loop_connection_broke_is_made_once(api, monkeypatch, broke):
    # A connection cut mid-request (the server restarted): the game is made through a thread, or,
    # if the commit got through, found made; a 201 either way, never a 500 nor a second game.
    store = api.app.state.store
    made = type(store).create_game_async

    async def cut(self, *args, **kwargs):
        if broke == "after its commit":
            await made(self, *args, **kwargs)
        raise psycopg.OperationalError("consuming input failed: server closed the connection unexpectedly")

    monkeypatch.setattr(type(store), "create_game_async", cut)
    game = api.create([("Ann", False), ("Bot", True)])
    monkeypatch.undo()
    game_id = game["game_id"]
    entries = api.ok("GET", f"/games/{game_id}/log")["entries"]
    assert [entry["index"] for entry in entries] == [game["log"]["index"]] and store.log_size() == 1
    token = api.join(game)[0]
    assert api.view(game_id, 0, token)["seat"] == 0


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_a_read_whose_loop_connection_broke_is_made_through_a_thread(api):
    game_id, token = api.ann_and_a_bot()
    before = api.view(game_id, 0, token)
    api.app.state.games.drop(game_id)  # the next view reads the game
    close_loop_connections()
    assert api.view(game_id, 0, token) == before
    close_loop_connections()
    assert api.ok("GET", "/health") == {"status": "ok", "store": "postgresql"}


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_sqlite_writers_of_one_process_queue_and_all_get_in(api):
    """Forty threads appending to forty games at once: every append lands, none meets 'database is locked'."""
    store = api.app.state.store
    ids = [api.create([("Ann", False), ("Bot", True)])["game_id"] for _ in range(40)]
    start = threading.Barrier(len(ids))
    errors = []

    def append(game_id: str) -> None:
        try:
            length = store.length(game_id)
            start.wait()
            for n in range(5):
                store.append(game_id, [f'{{"n":{n}}}'], length + n)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=append, args=(game_id,)) for game_id in ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert all(store.lines(game_id)[-5:] == [f'{{"n":{n}}}' for n in range(5)] for game_id in ids)


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_postgresql_checks_a_connection_only_when_it_was_unused_for_a_while(database_url, monkeypatch):
    from psycopg_pool import ConnectionPool

    checks = []
    real_check = ConnectionPool.check_connection
    monkeypatch.setattr(
        ConnectionPool, "check_connection", staticmethod(lambda conn: (checks.append(conn), real_check(conn)))
    )
    store = PostgresStore(database_url)
    try:
        store.CHECK_IDLE_SECONDS = 60.0
        store.ping()
        checks.clear()
        for _ in range(20):
            store.ping()
        assert checks == []  # in steady use: no extra round trip

        # A connection whose server went away while it sat in the pool is found out and replaced.
        backend = store._query("SELECT pg_backend_pid()")[0][0]
        with psycopg.connect(PG_SERVER, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (backend,))
        store.CHECK_IDLE_SECONDS = 0.0  # as if it had been unused for longer than the limit
        assert store._query("SELECT pg_backend_pid()")[0][0] != backend
        assert checks
        store.ping()
    finally:
        store.close()


class Knot:
    """An object in a reference cycle of its own: only a collection that walks it frees it."""

    def __init__(self) -> None:
        self.me = self


def after_collections(client, count: int) -> None:
    """Wait (up to 10 s) until the app has made ``count`` more collections."""
    start = gc.get_stats()[2]["collections"]
    for _ in range(200):
        if gc.get_stats()[2]["collections"] >= start + count:
            return
        client.portal.call(asyncio.sleep, 0.05)
    raise AssertionError(f"the app made fewer than {count} collections in 10 s")


def collected_lines(caplog) -> list[dict]:
    return [
        json.loads(r.getMessage().removeprefix("collected: "))
        for r in caplog.records
        if r.getMessage().startswith("collected: ")
    ]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_garbage_is_collected_on_the_apps_schedule_in_short_pauses(settings, monkeypatch, caplog):
    import fairdeal.service.app as app_module

    monkeypatch.setattr(app_module, "COLLECTION_SECONDS", 0.05)
    monkeypatch.setattr(app_module, "COLLECTION_LOG_SECONDS", 0.2)
    caplog.set_level(logging.INFO, logger="fairdeal.service")
    before = gc.get_threshold()
    app = create_app(settings)
    with TestClient(app) as client:
        assert client.post("/games", json={"seats": [{"name": "A", "bot": True}, {"name": "B"}]}).status_code == 201
        # Python would not start a full collection by itself, and what startup made is out of every collection...
        assert gc.get_threshold()[2] >= 1_000_000 and gc.get_freeze_count() > 0
        collections = gc.get_stats()[2]["collections"]
        young = weakref.ref(Knot())  # garbage made since the app's last collection...
        for _ in range(200):
            if young() is None and any(not line["full"] for line in collected_lines(caplog)):
                break
            client.portal.call(asyncio.sleep, 0.05)
        # ...is freed by the app's next one, and so often a line tells of them.
        assert young() is None and gc.get_stats()[2]["collections"] > collections
        # What lived through a collection is frozen: the next ones do not walk it. A cycle of it
        # waits for a full collection (the memory has not grown half as much again).
        kept = Knot()
        old = weakref.ref(kept)
        after_collections(client, 2)  # it lived through one: frozen
        del kept
        after_collections(client, 2)
        assert old() is not None
        assert not any(line["full"] for line in collected_lines(caplog))
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
    lines = collected_lines(caplog)
    assert lines[-1]["pause_ms"] >= 0 and lines[-1]["collections"] >= 2
    # Each line tells what the caches hold: the new game, never replayed.
    assert lines[-1]["games"]["cached"] == 1 and lines[-1]["games"]["restores"] == 0 and lines[-1]["games"]["bytes"] > 0
    assert set(lines[-1]["sessions"]) == {"cached", "bytes", "restores", "catch_ups", "evictions"}
    gc.collect()


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_full_collection_frees_frozen_cycles_once_the_memory_has_grown(settings, monkeypatch, caplog):
    import fairdeal.service.app as app_module

    monkeypatch.setattr(app_module, "COLLECTION_SECONDS", 0.05)
    caplog.set_level(logging.INFO, logger="fairdeal.service")
    with TestClient(create_app(settings)) as client:
        kept = Knot()
        old = weakref.ref(kept)
        after_collections(client, 2)  # it lived through one: frozen
        del kept
        monkeypatch.setattr(app_module, "FULL_COLLECTION_GROWTH", 0.0)  # as if the memory had grown
        for _ in range(200):
            if old() is None:
                break
            client.portal.call(asyncio.sleep, 0.05)
        assert old() is None
    full = [line for line in collected_lines(caplog) if line["full"]]
    assert full and full[0]["unreachable"] >= 1 and full[0]["pause_ms"] > 0


@pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)
def test_a_game_dropped_from_the_cache_is_freed_at_once(api):
    # No cycle: the objects of a game the cache lets go of are freed by reference counting, frozen
    # or not (the app's collections never walk what they froze: a cycle would wait for a full one).
    game_id, token = api.ann_and_a_bot()
    view = api.view(game_id, 0, token)
    api.ok("POST", f"/games/{game_id}/moves", token, json={"seq": view["seq"], **choose(view)})
    games = api.app.state.games
    table = games._cache[game_id].live
    parts = [weakref.ref(o) for o in (table, table.writer, table.match, games._cache[game_id])]
    del table
    gc.disable()
    try:
        games.drop(game_id)
        assert [part() for part in parts] == [None] * len(parts)
    finally:
        gc.enable()
