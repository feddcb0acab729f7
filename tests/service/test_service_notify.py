"""Live updates across processes on PostgreSQL, by LISTEN/NOTIFY and not by polling.

The store sends the record's id on :data:`~fairdeal.service.store.CHANNEL` after
every change a stream shows is committed (the changes made meanwhile together,
after the store's own name); each server process listens on one connection and
wakes its streams. Checked here: what is announced (and that
a refused append announces nothing), and, with two server processes on one
database, that a move made through one arrives on a stream of the other while
that stream asks the store nothing as it waits, also after the listening
connection was cut. (How fast it arrives is bench/notify.py's to measure.)
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import uvicorn
from helpers import local_client
from service_helpers import choose
from service_helpers import free_port
from test_reliability import Server

import fairdeal.service.app as app_module
from fairdeal.fairness import client_commitment
from fairdeal.rules import DEFAULT
from fairdeal.service import Settings
from fairdeal.service import create_app
from fairdeal.service.store import CHANNEL
from fairdeal.service.store import Conflict
from fairdeal.service.store import GameRow
from fairdeal.service.store import PostgresStore
from fairdeal.service.store import SQLiteStore

postgres_only = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)


def _row(game_id: str) -> GameRow:
    return GameRow(game_id, DEFAULT, "2026-01-01T00:00:00Z", "playing", b"sealed", "hosthash", 20.0, None, 0)


def _ids(payload: str) -> list[str]:
    """The record ids an announcement names (after the announcing store's name, a line each)."""
    return payload.split("\n")[1:]


def _append_on_a_loop(store: PostgresStore, record_id: str, lines: list[str], expected_seq: int) -> None:
    """``store.append_async`` on an event loop of its own, which must make the append there; in a
    thread of its own: a loop may be running in this one (Playwright's, in a full run)."""

    async def on_the_loop() -> None:
        await store.open_async()
        try:
            assert await store.append_async(record_id, lines, expected_seq)
        finally:
            await store.close_async()

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, on_the_loop()).result()


@postgres_only
def test_every_change_a_stream_shows_is_announced_on_commit_and_a_refused_append_is_not(database_url):
    store = PostgresStore(database_url)
    with psycopg.connect(database_url, autocommit=True) as listener:
        listener.execute(f"LISTEN {CHANNEL}")
        for game_id in ("n1", "n2", "n3", "n4"):
            store.create_game(_row(game_id), {}, ['{"seq":0}'])
        store.append("n1", ['{"seq":1}'], 1)  # lines (one statement)
        store.append("n2", [], 1, ready=0b10)  # beside the record: who is ready between hands
        with pytest.raises(Conflict):
            store.append("n3", ['{"seq":1}'], 5)  # refused: nothing changed, nothing to tell
        store.set_again("n4", "n5", b"sealed")  # the old table's views say where the next one is
        _append_on_a_loop(store, "n1", ['{"seq":2}'], 2)
        # The channel is the database's, not the schema's: tests running beside this one, on
        # schemas of their own, announce their games there too. Only this test's are counted.
        heard: list[str] = []
        for notice in listener.notifies(timeout=30):
            heard += [i for i in _ids(notice.payload) if i in ("n1", "n2", "n3", "n4", "n5")]
            if len(heard) >= 4:
                break
    store.close()
    assert heard == ["n1", "n2", "n4", "n1"]


@postgres_only
def test_changes_made_meanwhile_go_out_together_and_a_store_hears_all_but_its_own(database_url):
    """On the loop, the changes made while an announcement is on its way go out in the next,
    together; a listening store hears another store's announcements, and an earlier version's
    bare id, but not its own (the app woke its own streams already)."""
    store, other = PostgresStore(database_url), PostgresStore(database_url)
    heard: list[str] = []
    ours = ("own-1", "own-2", "own-3", "other-1", "other-2", "bare-1")

    async def on_the_loop() -> list[list[str]]:
        connected = asyncio.Event()
        listening = asyncio.create_task(store.listen(heard.append, lambda on: on and connected.set()))
        await asyncio.wait_for(connected.wait(), 30)
        await store.open_async()
        with psycopg.connect(database_url, autocommit=True) as raw:
            raw.execute(f"LISTEN {CHANNEL}")
            for record_id in ("own-1", "own-2", "own-3"):
                store._changed(record_id)  # three changes, no await between: one announcement
            await store.close_async()
            other._changed("other-1")  # a store with no loop announces at once
            other._changed("other-2")
            raw.execute("SELECT pg_notify(%s, %s)", (CHANNEL, "bare-1"))
            announced: list[list[str]] = []
            for notice in raw.notifies(timeout=30):
                # (The channel is the database's: other tests' announcements are passed over.)
                named = [i for i in notice.payload.split("\n") if i in ours]
                if named:
                    announced.append(named)
                if len(announced) == 4:
                    break
        give_up = time.monotonic() + 30
        while "bare-1" not in heard and time.monotonic() < give_up:
            await asyncio.sleep(0.01)
        listening.cancel()
        return announced

    with ThreadPoolExecutor(1) as pool:
        announced = pool.submit(asyncio.run, on_the_loop()).result()
    store.close()
    other.close()
    assert announced == [["own-1", "own-2", "own-3"], ["other-1"], ["other-2"], ["bare-1"]]
    assert [i for i in heard if i in ours] == ["other-1", "other-2", "bare-1"]


@postgres_only
def test_an_announcement_that_fails_is_logged_and_the_committed_change_stands(database_url, monkeypatch, caplog):
    store = PostgresStore(database_url)
    try:
        store.create_game(_row("f1"), {}, ['{"seq":0}'])
        monkeypatch.setattr(store, "_announcement", lambda ids: ("SELECT pg_notify(", []))  # refused by the server
        with caplog.at_level("WARNING", logger="fairdeal.service"):
            store.append("f1", ['{"seq":1}'], 1)  # no error: the move is made, whatever its announcement
        assert store.length("f1") == 2
        assert "the changes to f1 were not announced" in caplog.text
    finally:
        store.close()


def test_an_announcement_of_many_changes_is_split_below_postgresqls_limit():
    store = PostgresStore.__new__(PostgresStore)  # (no database: only the statement is made)
    store._origin = "0123456789abcdef"
    ids = [f"game-{n:03d}-" + "x" * 90 for n in range(300)]
    sql, payloads = store._announcement(ids)
    assert sql.count("pg_notify") == len(payloads) > 1
    assert all(len(p.encode()) <= PostgresStore.ANNOUNCEMENT_BYTES for p in payloads)
    assert all(p.split("\n")[0] == "0123456789abcdef" for p in payloads)
    assert [i for p in payloads for i in p.split("\n")[1:]] == ids


class InProcessServer:
    """The app served by uvicorn in a thread of the test, so that the test can count its queries."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, name="in-process-server", daemon=True)

    def __enter__(self) -> InProcessServer:
        self.thread.start()
        _until(lambda: self.server.started, "the in-process server did not start")
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


class Counting:
    """Mixed into a store: counts its reads (every query a stream could make is one)."""

    queries = 0
    _count = threading.Lock()

    def _query(self, sql: str, params: Any = ()) -> list[tuple[Any, ...]]:
        with self._count:
            self.queries += 1
        return super()._query(sql, params)  # type: ignore[misc]

    async def _query_async(self, sql: str, params: Any = ()) -> list[tuple[Any, ...]]:
        with self._count:
            self.queries += 1
        return await super()._query_async(sql, params)  # type: ignore[misc]


class CountingPostgres(Counting, PostgresStore):
    pass


class CountingSQLite(Counting, SQLiteStore):
    pass


def _until(condition: Any, message: str, seconds: float = 30.0) -> None:
    give_up = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < give_up, message
        time.sleep(0.01)


def _listening(server: Any, store: Any) -> None:
    """Wait for ``server``'s listener to connect, where ``store`` announces changes (PostgreSQL)."""
    notifier = server.app.state.games.notifier
    _until(lambda: notifier.shared == store.announces, "server one's listener did not connect")


def _events(response: httpx.Response) -> Iterator[tuple[str, str]]:
    """(event, data) of a text/event-stream, in order."""
    kind, data = None, []
    for text in response.iter_lines():
        if text.startswith("event: "):
            kind = text[len("event: ") :]
        elif text.startswith("data: "):
            data.append(text[len("data: ") :])
        elif text == "" and kind is not None:
            yield kind, "\n".join(data)
            kind, data = None, []


def _two_seat_table(client: httpx.Client, url: str, **body: Any) -> tuple[str, dict[int, str]]:
    """A table of two people, both joined: nothing moves on it until one of them does."""
    seats = [{"name": "Ann", "bot": False}, {"name": "Bo", "bot": False}]
    answer = client.post(f"{url}/games", json={"seats": seats, **body})
    assert answer.status_code == 201, answer.text
    game = answer.json()
    tokens = {s["seat"]: s["join_token"] for s in game["seats"]}
    for step in ("commit", "reveal"):
        for seat, token in tokens.items():
            body = {"commitment": client_commitment(f"seed {seat}")} if step == "commit" else {"seed": f"seed {seat}"}
            answer = client.post(
                f"{url}/games/{game['game_id']}/seats/{seat}/{step}",
                json=body,
                headers={"Authorization": f"Bearer {token}"},
            )
            assert answer.status_code == 200, answer.text
    return game["game_id"], tokens


@contextmanager
def _watched(
    client: httpx.Client, one: Any, two: Any
) -> Iterator[tuple[str, dict[int, str], Iterator[tuple[str, str]]]]:
    """A table of two people made through server ``two`` (:func:`_two_seat_table`), and the live
    updates of it that server ``one`` streams: its id, tokens and the stream's events, the first
    (the table's state) read."""
    game_id, tokens = _two_seat_table(client, two.url)
    with client.stream("GET", f"{one.url}/games/{game_id}/events?wait=120") as response:
        events = _events(response)
        assert next(events)[0] == "state"
        yield game_id, tokens, events


def _move(client: httpx.Client, url: str, game_id: str, tokens: dict[int, str]) -> int:
    """The seat to act plays, through ``url``; the seq of its line."""
    for seat, token in tokens.items():
        auth = {"Authorization": f"Bearer {token}"}
        view = client.get(f"{url}/games/{game_id}/seats/{seat}/view", headers=auth).json()
        if view["your_turn"]:
            answer = client.post(
                f"{url}/games/{game_id}/moves", json={"seq": view["seq"], **choose(view)}, headers=auth
            )
            assert answer.status_code == 200, answer.text
            return int(answer.json()["receipt"]["seq"])
    raise AssertionError(f"no seat has the turn: the table is {view['status']}")


@pytest.fixture
def two_servers(tmp_path: Path, database_url: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch):
    """Server two, a ``fairdeal serve`` process; server one, the app in this process on a counting store."""
    two = Server(tmp_path / "data", database_url, tmp_path, "two").start()  # (it makes the keys)
    stores: list[Any] = []

    def counting(url: str) -> Any:
        sqlite = url.startswith("sqlite:///")
        stores.append(CountingSQLite(url[len("sqlite:///") :]) if sqlite else CountingPostgres(url))
        return stores[-1]

    monkeypatch.setattr(app_module, "open_store", counting)
    settings = Settings(
        data_dir=tmp_path / "data",
        database_url=database_url,
        tick_seconds=0,
        live_updates=getattr(request, "param", "notify"),
    )
    try:
        with InProcessServer(create_app(settings)) as one:
            yield one, stores[0], two
    finally:
        two.stop()


@postgres_only
def test_a_move_made_through_one_server_reaches_a_stream_of_the_other_which_asks_the_store_nothing_meanwhile(
    two_servers,
):
    one, store, two = two_servers
    _listening(one, store)
    notifier = one.app.state.games.notifier
    with local_client(timeout=30) as client, _watched(client, one, two) as (game_id, tokens, events):
        before = store.queries
        time.sleep(0.6)  # more than two of the old polling intervals: not one query
        assert store.queries == before
        seq = _move(client, two.url, game_id, tokens)
        kind, data = next(events)
        assert (kind, json.loads(data)["seq"]) == ("line", seq)
        assert next(events)[0] == "state"
        assert store.queries > before  # woken, the stream read the line and the state
        before = store.queries
        time.sleep(0.6)
        assert store.queries == before

        # The listening connection is cut: it connects again, and every stream looks once.
        old = store.listener_pid
        with psycopg.connect(store._url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (old,))
        _until(lambda: store.listener_pid not in (None, old) and notifier.shared, "the listener did not come back")
        assert next(events)[0] == "state"
        seq = _move(client, two.url, game_id, tokens)
        kinds = []
        for kind, data in events:
            kinds.append(kind)
            if kind == "line":
                assert json.loads(data)["seq"] == seq
                break
        assert set(kinds) <= {"state", "line"}


@pytest.mark.parametrize("two_servers", ["poll"], indirect=True)
def test_a_polling_stream_asks_the_store_and_gets_the_other_servers_move(two_servers):
    # PostgreSQL with FAIRDEAL_LIVE_UPDATES=poll; SQLite, which has no announcements, always.
    one, store, two = two_servers
    assert not one.app.state.games.notifier.shared
    with local_client(timeout=30) as client, _watched(client, one, two) as (game_id, tokens, events):
        before = store.queries
        _until(lambda: store.queries > before, "the polling stream asked nothing")
        seq = _move(client, two.url, game_id, tokens)
        kind, data = next(events)
        assert (kind, json.loads(data)["seq"]) == ("line", seq)


def test_who_is_ready_between_hands_reaches_a_stream_of_the_other_server(two_servers):
    # PostgreSQL: announced (the ready append writes no line); SQLite: the stream sees the row change.
    one, store, two = two_servers
    _listening(one, store)
    with local_client(timeout=30) as client:
        # The server deals from a seed of its own: a target no first hand reaches keeps the match going.
        game_id, tokens = _two_seat_table(client, two.url, next_hand_seconds=60, options={"target": 1000})
        auth = {seat: {"Authorization": f"Bearer {token}"} for seat, token in tokens.items()}
        view = client.get(f"{two.url}/games/{game_id}/seats/0/view", headers=auth[0]).json()
        while view["status"] != "between-hands":
            _move(client, two.url, game_id, tokens)
            view = client.get(f"{two.url}/games/{game_id}/seats/0/view", headers=auth[0]).json()
        with client.stream("GET", f"{one.url}/games/{game_id}/events?wait=120") as response:
            events = _events(response)
            kind, data = next(events)
            assert kind == "state" and json.loads(data)["next_hand"]["ready"] == []
            answer = client.post(f"{two.url}/games/{game_id}/ready", headers=auth[1])
            assert answer.status_code == 200, answer.text
            kind, data = next(events)
            assert kind == "state" and json.loads(data)["next_hand"]["ready"] == [1]


@postgres_only
def test_a_store_whose_processes_poll_announces_nothing(database_url, tmp_path):
    # FAIRDEAL_LIVE_UPDATES=poll: no process listens, so no commit pays for NOTIFY's lock.
    app = create_app(
        Settings(data_dir=tmp_path / "data", database_url=database_url, tick_seconds=0, live_updates="poll")
    )
    quiet, loud = app.state.store, PostgresStore(database_url)
    assert not quiet.announces and loud.announces
    with psycopg.connect(database_url, autocommit=True) as listener:
        listener.execute(f"LISTEN {CHANNEL}")
        for game_id in ("q1", "q2"):
            quiet.create_game(_row(game_id), {}, ['{"seq":0}'])
        quiet.append("q1", ['{"seq":1}'], 1)
        quiet.append("q2", [], 1, ready=0b10)
        quiet.set_again("q2", "q3", b"sealed")
        _append_on_a_loop(quiet, "q1", ['{"seq":2}'], 2)
        loud.create_game(_row("q9"), {}, ['{"seq":0}'])
        loud.append("q9", ['{"seq":1}'], 1)  # announced, after all of the quiet store's changes
        heard = next(
            i for notice in listener.notifies(timeout=30) for i in _ids(notice.payload) if i in ("q1", "q2", "q3", "q9")
        )
    quiet.close()
    loud.close()
    assert heard == "q9"
