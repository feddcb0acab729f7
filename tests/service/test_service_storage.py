"""What the database holds: records, hashed tokens, sealed seeds; and what a restart or a second process sees."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sqlite3
import stat
import threading
import time

import psycopg
import pytest
from fastapi.testclient import TestClient
from service_helpers import Api
from service_helpers import choose

from fairdeal.rules import Move
from fairdeal.service import create_app
from fairdeal.service.errors import Stale
from fairdeal.service.keys import Sealer
from fairdeal.service.store import Conflict
from fairdeal.service.store import GameRow
from fairdeal.service.store import SQLiteStore
from fairdeal.service.store import open_store


def dump_database(settings) -> str:
    """Every row of every table, as text: what a stolen database dump would show."""
    tables = ["games", "sessions", "seat_tokens", "lines"]
    rows = []
    if settings.store_kind == "sqlite":
        with sqlite3.connect(settings.database_url[len("sqlite:///") :]) as conn:
            for table in tables:
                rows += conn.execute(f"SELECT * FROM {table}").fetchall()
    else:
        with psycopg.connect(settings.database_url) as conn:
            for table in tables:
                rows += conn.execute(f"SELECT * FROM {table}").fetchall()
    return "\n".join(
        repr(tuple(bytes(v).hex() if isinstance(v, (bytes, memoryview)) else v for v in row)) for row in rows
    )


def a_game_both_see(a: Api, b: Api) -> tuple[str, str, dict]:
    """A game of Ann and a bot made through ``a``, Ann's seed revealed: its id, Ann's token, and
    Ann's view as ``b`` reads it (so ``b`` has the game cached from here)."""
    game = a.create([("Ann", False), ("Bot", True)])
    token = a.join(game)[0]
    return game["game_id"], token, b.view(game["game_id"], 0, token)


def test_tokens_are_stored_hashed_and_seeds_sealed(api, settings):
    game = api.create([("Ann", False), ("Bob", False), ("Bot", True)])
    session = api.ok("POST", "/sessions", status=201, json={"seats": 2})
    tokens = [game["host_token"], session["owner_key"]]
    tokens += [s["join_token"] for s in game["seats"] if "join_token" in s]
    tokens += [s["token"] for s in session["seats"]]
    seeds = [
        api.app.state.games.read(game["game_id"], lambda t, r: t.dealer._server_seed),
        api.app.state.sessions.read(session["session_id"], lambda s, r: s.dealer._server_seed),
    ]
    dump = dump_database(settings)
    assert game["game_id"] in dump and game["commitment"] in dump
    for token in tokens:
        assert token not in dump
        assert hashlib.sha256(token.encode()).hexdigest() in dump
    for seed in seeds:
        assert seed not in dump and seed.upper() not in dump
    # The seal key is the data directory's, readable by its owner alone; a seed sealed for
    # one game does not open as another's.
    seal_key = settings.data_dir / "seal.key"
    assert stat.S_IMODE(seal_key.stat().st_mode) == 0o600
    assert stat.S_IMODE((settings.data_dir / "server-key.pem").stat().st_mode) == 0o600
    sealer = Sealer(seal_key.read_bytes())
    sealed = sealer.seal("game-a", seeds[0])
    assert sealer.open("game-a", sealed) == seeds[0]
    try:
        sealer.open("game-b", sealed)
    except ValueError as exc:
        assert seeds[0] not in str(exc)
    else:
        raise AssertionError("a seed sealed for game-a opened as game-b's")


def test_a_restarted_server_continues_the_game_with_the_same_key(settings, clock, new_ids):
    app = create_app(settings, clock=clock, new_ids=new_ids)
    with TestClient(app) as client:
        api = Api(client)
        game = api.create([("Ann", False), ("Bot", True), ("Bot 2", True)])
        token = api.join(game)[0]
        for _ in range(3):
            view = api.view(game["game_id"], 0, token)
            api.ok("POST", f"/games/{game['game_id']}/moves", token, json={"seq": view["seq"], **choose(view)})
        before = api.view(game["game_id"], 0, token)
        key = api.ok("GET", "/.well-known/fairdeal-key")["key"]

    restarted = create_app(settings, clock=clock, new_ids=new_ids)  # a new process: nothing cached, the same data dir
    with TestClient(restarted) as client:
        api = Api(client)
        assert api.ok("GET", "/.well-known/fairdeal-key")["key"] == key
        view = api.view(game["game_id"], 0, token)
        assert view == before  # hand, seq, deadline and all
        while view["status"] == "playing":
            view = api.ok("POST", f"/games/{game['game_id']}/moves", token, json={"seq": view["seq"], **choose(view)})[
                "view"
            ]
        assert api.ok("GET", f"/games/{game['game_id']}/verify")["verified"]
    restarted.state.store.close()
    app.state.store.close()


def test_two_processes_on_one_database_serve_the_same_game(two_processes):
    a, b = two_processes
    gid, token, view = a_game_both_see(a, b)  # the second process learns the game from the database
    turn = 0
    while view["status"] == "playing":
        # Interleave: each process in turn takes the move, from a view that may be stale in its cache.
        api = (a, b)[turn % 2]
        view = api.ok("POST", f"/games/{gid}/moves", token, json={"seq": view["seq"], **choose(view)})["view"]
        turn += 1
    assert turn > 5
    assert b.record(gid) == a.record(gid)
    assert a.ok("GET", f"/games/{gid}/verify")["verified"]


def test_a_record_read_while_another_process_appends_is_replayed_only_as_far_as_its_row(two_processes):
    # The row (deadline, status) and the lines are two reads: lines appended in between belong to a
    # row not read yet. Replayed past its row, a table took an old deadline for the new turn's (a
    # bot's due time for the person's turn after it) and played an "auto" move a moment into it.
    a, b = two_processes
    gid, token, view = a_game_both_see(a, b)  # b has the game cached
    view = a.ok("POST", f"/games/{gid}/moves", token, json={"seq": view["seq"], **choose(view)})["view"]
    games = b.client.app.state.games  # now behind the database: its next read catches up
    read_lines = games.store.lines

    def lines_after_another_append(record_id, *args, **kwargs):
        games.store.lines = read_lines  # once
        a.ok("POST", f"/games/{gid}/moves", token, json={"seq": view["seq"], **choose(view)})
        return read_lines(record_id, *args, **kwargs)

    games.store.lines = lines_after_another_append
    with games.locked(gid):
        cached, row = games.load(gid)
        assert cached.live.seq == row.length == view["seq"]  # as of its row: the second move is not in it
    with games.locked(gid):
        cached, row = games.load(gid)
        assert cached.live.seq == row.length > view["seq"]  # the next read brings both up to date
    assert b.record(gid) == a.record(gid)


def test_racing_submissions_of_one_move_make_one_record(api):
    game = api.create([("Ann", False), ("Bot", True)])
    gid = game["game_id"]
    token = api.join(game)[0]
    view = api.view(gid, 0, token)
    body = {"seq": view["seq"], **choose(view)}
    statuses = []
    barrier = threading.Barrier(12)

    def submit():
        barrier.wait()
        statuses.append(
            api.client.post(f"/games/{gid}/moves", json=body, headers={"Authorization": f"Bearer {token}"}).status_code
        )

    threads = [threading.Thread(target=submit) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200] + [409] * 11
    moves = [line for line in api.record(gid) if line["type"] == "move" and line["seq"] == view["seq"]]
    assert len(moves) == 1 and moves[0]["seat"] == 0


def test_a_lost_race_between_processes_is_409_and_the_loser_catches_up(two_processes):
    a, b = two_processes
    gid, token, view = a_game_both_see(a, b)
    body = {"seq": view["seq"], **choose(view)}
    a.ok("POST", f"/games/{gid}/moves", token, json=body)
    late = b.call("POST", f"/games/{gid}/moves", token, json=body)
    assert late.status_code == 409
    assert json.loads(late.text)["detail"].startswith("the record is at seq ")
    assert b.view(gid, 0, token) == a.view(gid, 0, token)


def test_a_move_on_a_record_cached_behind_is_judged_on_the_stored_record(two_processes):
    """A process tries a move on its cached record without reading the row first; when another
    process appended since, the answer comes from the stored record, not from the stale cache."""
    a, b = two_processes
    gid, token, old = a_game_both_see(a, b)  # b caches the game at this length
    new = a.ok("POST", f"/games/{gid}/moves", token, json={"seq": old["seq"], **choose(old)})["view"]
    assert new["seq"] > old["seq"]
    # On b's cached (old) record this card is not in the hand: 422 there, but the move is stale.
    foreign = next(code for code in ("AS", "2C", "KH", "7D", "QS") if code not in old["hand"])
    stale = b.call("POST", f"/games/{gid}/moves", token, json={"seq": old["seq"], "move": "play", "card": foreign})
    assert stale.status_code == 409
    # A move chosen on the new state is taken by b, whose cache was behind.
    if new["status"] == "playing":
        after = b.ok("POST", f"/games/{gid}/moves", token, json={"seq": new["seq"], **choose(new)})["view"]
        assert after["seq"] > new["seq"]
    record = a.record(gid)
    assert b.record(gid) == record
    assert [line["seq"] for line in record] == list(range(len(record)))


def test_an_append_that_lost_the_race_inside_the_store_writes_nothing(two_processes):
    """Both processes passed the seq check; the second append finds the record longer and fails."""
    a, b = two_processes
    gid, token, view = a_game_both_see(a, b)
    body = {"seq": view["seq"], **choose(view)}

    def move_after_the_other_process(table, row):
        a.ok("POST", f"/games/{gid}/moves", token, json=body)  # gets in between b's check and b's append
        return table.move(0, Move.from_json(body))

    with pytest.raises(Stale, match="another action reached the record first"):
        b.app.state.games.act(gid, move_after_the_other_process)
    record = a.record(gid)
    assert [line["seq"] for line in record] == list(range(len(record)))
    assert sum(1 for line in record if line["type"] == "move" and line["seq"] == view["seq"]) == 1
    assert b.view(gid, 0, token) == a.view(gid, 0, token)  # the loser dropped its cache and caught up


def test_the_store_refuses_an_append_at_a_stale_length(app):
    store = app.state.store
    game = Api(TestClient(app)).create([("Ann", False), ("Bot", True)])
    length = store.length(game["game_id"])
    store.append(game["game_id"], ['{"x":1}'], length)
    with pytest.raises(Conflict) as caught:
        store.append(game["game_id"], ['{"x":2}'], length)
    assert caught.value.actual == length + 1
    assert store.lines(game["game_id"], length) == ['{"x":1}']


def test_a_commit_is_on_disk_before_its_receipt_is_sent(app, monkeypatch):
    # A receipted move must survive a power cut, not only a killed process.
    store = app.state.store
    if store.kind == "postgresql":
        assert store._query("SHOW synchronous_commit") == [("on",)]  # a commit returns once flushed
        return
    import fairdeal.service.store.sqlite as store_module

    flushed: list[tuple[str, int]] = []
    real_fsync = store_module.os.fsync

    def fsync(fd: int) -> None:
        flushed.append((os.readlink(f"/proc/self/fd/{fd}"), store._commits))
        real_fsync(fd)

    monkeypatch.setattr(store_module.os, "fsync", fsync)
    api = Api(TestClient(app))
    game = api.create([("Ann", False), ("Bot", True)])
    token = api.join(game)[0]
    view = api.view(game["game_id"], 0, token)
    flushed.clear()
    before = store._commits
    answer = api.ok(
        "POST", f"/games/{game['game_id']}/moves", token, json={"seq": view["seq"], **view["legal_moves"][0]}
    )
    # The move's commit, then a flush of the WAL that covers it, then the answer.
    assert answer["receipt"] and store._commits == before + 1
    assert flushed and flushed[-1][0].endswith(".db-wal") and flushed[-1][1] == store._commits
    assert store._synced == store._commits

    flushed.clear()
    store.append(game["game_id"], ['{"x":1}'], store.length(game["game_id"]))  # from a thread: flushed at once
    assert flushed and store._synced == store._commits


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_commits_made_before_a_flush_share_it(app, monkeypatch):
    # A group commit: eight requests' commits, then their eight waits: one flush covers them all.
    store = app.state.store
    import fairdeal.service.store.sqlite as store_module

    api = Api(TestClient(app))
    ids = [api.create([("Ann", False), ("Bot", True)])["game_id"] for _ in range(8)]
    flushes = []
    real_fsync = store_module.os.fsync
    monkeypatch.setattr(store_module.os, "fsync", lambda fd: (flushes.append(fd), real_fsync(fd))[1])

    async def eight() -> None:
        store._deferred.on = True  # as inside Store.call: the commit does not flush by itself
        try:
            made = []
            for game_id in ids:
                store.append(game_id, ['{"x":1}'], store.length(game_id))
                made.append(store._commits)
        finally:
            store._deferred.on = False
        await asyncio.gather(*(store._flushed(n) for n in made))

    # A thread of its own: the browser tests' Playwright keeps an event loop running in this one.
    thread = threading.Thread(target=asyncio.run, args=(eight(),))
    thread.start()
    thread.join()
    assert len(flushes) == 1 and store._synced == store._commits


def test_the_sqlite_wal_is_copied_into_the_database_by_a_thread_of_its_own(tmp_path):
    # Not inside a commit on the event loop, where it held every request up.
    store = SQLiteStore(str(tmp_path / "db.sqlite"))
    store.CHECKPOINT_SECONDS = 0.01
    try:
        assert store._query("PRAGMA wal_autocheckpoint") == [(0,)]
        game = GameRow("g1", "crazy-eights", "2026-01-01T00:00:00Z", "seeding", b"sealed", "host", 20.0, None, 0)
        store.create_game(game, {}, ['{"seq":0}'])
        # The database file itself, without its WAL: what a checkpoint has copied so far.
        on_file = f"file:{tmp_path / 'db.sqlite'}?immutable=1"
        for _ in range(1000):
            try:
                with sqlite3.connect(on_file, uri=True) as conn:
                    tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master")}
                    if "lines" in tables and conn.execute("SELECT count(*) FROM lines").fetchone() == (1,):
                        break
            except sqlite3.DatabaseError:
                pass  # read while the checkpoint was writing pages ("malformed"): immutable=1 takes no lock
            time.sleep(0.01)
        else:
            raise AssertionError("no checkpoint in 10 s")
    finally:
        store.close()
    assert not store._checkpointer.is_alive()


def test_a_database_made_before_games_kept_a_secret_gets_the_column(tmp_path):
    # The games table as versions before Eleusis made it: no sealed_secret.
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:
        conn.execute("""CREATE TABLE games (id TEXT PRIMARY KEY, rules TEXT NOT NULL, created TEXT NOT NULL,
            status TEXT NOT NULL, sealed_seed BLOB NOT NULL, host_hash TEXT NOT NULL,
            turn_seconds REAL NOT NULL, deadline REAL, length INTEGER NOT NULL)""")
        conn.execute(
            "INSERT INTO games VALUES ('old', 'crazy-eights', '2026-01-01T00:00:00Z', 'over', x'00', 'h', 20.0, NULL, 0)"
        )
    store = open_store(f"sqlite:///{path}")
    try:
        row = store.game("old")
        assert row.sealed_secret is None and row.rules == "crazy-eights"
    finally:
        store.close()
    with sqlite3.connect(path) as conn:
        assert "sealed_secret" in {r[1] for r in conn.execute("PRAGMA table_info(games)")}
