"""Where games live: their append-only records, sealed seeds and hashed tokens, in SQLite or PostgreSQL.

A record is its lines, one row each, keyed by (game_id, seq). An append
adds one action's lines in one transaction, and only if the record still
has the length the caller saw (``expected_seq``); otherwise it raises
:class:`Conflict`, and the primary key is the last guard: two racing
actions can never fork a record. Nothing else in a game ever changes but
its status and its turn deadline, which move with the appends.

>>> from fairdeal.rules import DEFAULT
>>> store = open_store("sqlite:///:memory:")
>>> store.create_game(GameRow("g1", DEFAULT, "2026-01-01T00:00:00Z", "seeding", b"sealed", "hosthash", 20.0, None, 0),
...                   {0: "seathash"}, ['{"seq":0}'])
>>> store.append("g1", ['{"seq":1}'], expected_seq=1, status="playing", deadline=123.0)
>>> store.append("g1", ['{"seq":1}'], expected_seq=1)
Traceback (most recent call last):
...
fairdeal.service.store.base.Conflict: record g1 has 2 lines, not 1: another action came first
>>> store.lines("g1", 1), store.game("g1").deadline, store.next_deadline(now=200.0)
(['{"seq":1}'], 123.0, 123.0)
"""

from __future__ import annotations

from fairdeal.service.store.base import CHANNEL
from fairdeal.service.store.base import KEEP
from fairdeal.service.store.base import Conflict
from fairdeal.service.store.base import GameRow
from fairdeal.service.store.base import SessionRow
from fairdeal.service.store.base import Store
from fairdeal.service.store.postgres import PostgresStore
from fairdeal.service.store.sqlite import SQLiteStore

__all__ = [
    "Store",
    "GameRow",
    "SessionRow",
    "Conflict",
    "open_store",
    "SQLiteStore",
    "PostgresStore",
    "KEEP",
    "CHANNEL",
]


def open_store(url: str) -> Store:
    """The store a database URL names: ``sqlite:///path`` or ``postgresql://...``."""
    if url.startswith("sqlite:///"):
        return SQLiteStore(url[len("sqlite:///") :])
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStore(url)
    raise ValueError("a database URL starts with sqlite:/// or postgresql://")
