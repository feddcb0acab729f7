"""The log's entries, written with the records they announce (spec/log.md): dense indexes in the
order of the commits however many writers race, each end entry settled by its record's row, and on
PostgreSQL every write that takes the log's lock one statement, so that no transaction holds the
lock while its process (an event loop with other requests to serve) gets round to the next one.
"""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import psycopg
import pytest

from fairdeal.record import canonical
from fairdeal.record import line_hash
from fairdeal.rules import DEFAULT
from fairdeal.service.store import GameRow
from fairdeal.service.store import PostgresStore
from fairdeal.service.store import Store
from fairdeal.service.store import open_store
from fairdeal.tlog import Tree
from fairdeal.tlog import leaf_hash

postgres_only = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)


def _row(game_id: str) -> GameRow:
    return GameRow(game_id, DEFAULT, "2026-01-01T00:00:00Z", "seeding", b"sealed", "hosthash", 20.0, None, 0)


def _header(game_id: str) -> str:
    return canonical(
        {
            "type": "header",
            "game_id": game_id,
            "commitment": "ab" * 32,
            "created": "2026-01-01T00:00:00Z",
            "rules": DEFAULT,
        }
    ).decode()


def _reveal(seq: int) -> str:
    return canonical({"type": "reveal", "seq": seq}).decode()


async def _create(store: Store, game_id: str, on_loop: bool) -> int | None:
    if on_loop and store.async_ready():
        index = await store.create_game_async(_row(game_id), {0: "seathash"}, [_header(game_id)], host="h")
        if index is not None:
            return index
    return await store.call(store.create_game, _row(game_id), {0: "seathash"}, [_header(game_id)], host="h")


async def _end(store: Store, game_id: str, status: str, on_loop: bool) -> None:
    if on_loop and store.async_ready() and await store.append_async(game_id, [_reveal(1)], 1, status=status):
        return
    await store.call(store.append, game_id, [_reveal(1)], 1, status=status)


def _on_a_loop(store: Store, work: Any) -> Any:
    async def run() -> Any:
        await store.open_async()
        try:
            return await work()
        finally:
            await store.close_async()

    # In a thread of its own: a loop may be running in this one (Playwright's, in a full run).
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, run()).result()


def test_records_made_and_ended_at_once_get_dense_entries_in_the_order_of_their_commits(database_url):
    store = open_store(database_url)
    ids = [f"w{n}" for n in range(24)]
    abandoned = {game_id for n, game_id in enumerate(ids) if n % 3 == 0}

    async def one(n: int, game_id: str) -> int | None:
        # Half on the loop's connections, half in worker threads (PostgreSQL; SQLite runs both on the loop).
        index = await _create(store, game_id, on_loop=n % 2 == 0)
        await _end(store, game_id, "abandoned" if game_id in abandoned else "over", on_loop=n % 4 < 2)
        return index

    async def all_at_once() -> list[int | None]:
        return await asyncio.gather(*(one(n, game_id) for n, game_id in enumerate(ids)))

    try:
        starts = _on_a_loop(store, all_at_once)
        rows = store.log_entries(0, 1000)
        assert [index for index, _ in rows] == list(range(2 * len(ids)))
        for game_id, start in zip(ids, starts):
            (first, start_text), (second, end_text) = store.log_of(game_id)
            assert first == start < second
            assert json.loads(start_text)["type"] == "start"
            end = json.loads(end_text)
            assert end == {
                "type": "end",
                "id": game_id,
                "how": "abandoned" if game_id in abandoned else "revealed",
                "seq": 1,
                "head": line_hash(json.loads(_reveal(1))),
            }
        tree = Tree([leaf_hash(text.encode()) for _, text in rows])
        other = open_store(database_url)  # the tree read afresh from the rows (another process, a restart)
        try:
            assert store.log_tree().root() == other.log_tree().root() == tree.root()
        finally:
            other.close()
    finally:
        store.close()


def _writes(query: Any) -> bool:
    """Whether ``query`` is one of the store's writes: not a pool's check of an idle connection
    (an empty query), nor the announcement of a change, sent after its commit."""
    return bool(str(query)) and "pg_notify" not in str(query)


@postgres_only
def test_on_postgresql_a_record_and_its_log_entries_are_written_in_one_statement(database_url, monkeypatch):
    store = PostgresStore(database_url)
    sent: list[str] = []
    transactions: list[str] = []

    def counted(execute: Any) -> Any:
        if asyncio.iscoroutinefunction(execute):

            async def run_async(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
                if _writes(query):
                    sent.append(str(query))
                return await execute(self, query, *args, **kwargs)

            return run_async

        def run(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
            if _writes(query):
                sent.append(str(query))
            return execute(self, query, *args, **kwargs)

        return run

    def noted(transaction: Any) -> Any:
        def open_one(self: Any, *args: Any, **kwargs: Any) -> Any:
            transactions.append(type(self).__name__)
            return transaction(self, *args, **kwargs)

        return open_one

    for cls in (psycopg.Connection, psycopg.AsyncConnection):
        monkeypatch.setattr(cls, "execute", counted(cls.execute))
        monkeypatch.setattr(cls, "transaction", noted(cls.transaction))

    async def on_the_loop() -> list[int]:
        counts = []
        for game_id, status in (("s1", "over"), ("s2", "abandoned")):
            sent.clear()
            assert await store.create_game_async(_row(game_id), {0: "h"}, [_header(game_id)], host="h") is not None
            assert await store.append_async(game_id, [_reveal(1)], 1, status=status)
            counts.append(len(sent))
        return counts

    try:
        assert _on_a_loop(store, on_the_loop) == [2, 2]  # the game made, and ended: a statement each
        for game_id in ("t1", "t2"):  # the same from a worker thread
            sent.clear()
            store.create_game(_row(game_id), {0: "h"}, [_header(game_id)], host="h")
            store.append(game_id, [_reveal(1)], 1, status="over")
            assert len(sent) == 2
        assert transactions == []  # no BEGIN ... COMMIT: each statement is its own transaction
        hows = [json.loads(text).get("how") for _, text in store.log_entries(0, 100)]
        assert hows == [None, "revealed", None, "abandoned", None, "revealed", None, "revealed"]
    finally:
        store.close()
