"""The SQLite store: one file, one writer at a time, the default."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence
from contextlib import contextmanager
from contextlib import suppress
from pathlib import Path
from typing import Any

from fairdeal.service.store.base import _ADD_COLUMN
from fairdeal.service.store.base import _ADDED_COLUMNS
from fairdeal.service.store.base import _LIMIT_INDEXES
from fairdeal.service.store.base import _SCHEMA
from fairdeal.service.store.base import Store
from fairdeal.service.store.base import T
from fairdeal.service.store.base import _nothing


class SQLiteStore(Store):
    """SQLite in WAL mode: one connection per thread, ``BEGIN IMMEDIATE`` for every write.

    SQLite takes one writer at a time. The threads of one process queue for
    it on a lock of their own: left to SQLite's busy handler, a waiting
    writer sleeps in growing steps (up to 100 ms) and under load the slowest
    moves took a second. Writers of other processes still meet the busy
    timeout.

    Durability: a write is on disk before the call that made it returns, so a
    receipt's move survives a power cut, not only a killed process (a lost
    receipted move would look like a rewritten record). SQLite's own way,
    ``synchronous = FULL``, flushes the WAL inside every commit, which on the
    event loop would stop every request for a disk flush (0.6 ms here).
    Commits are made with ``synchronous = NORMAL`` instead, and then the WAL
    file is flushed: at once for a call from a thread; for a call on the loop
    (:meth:`call`), by a worker thread that the call awaits, one flush for all
    the commits made before it began (a group commit).
    """

    kind = "sqlite"
    _unique_violation = sqlite3.IntegrityError

    def __init__(self, path: str) -> None:
        self.path = path
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._shared: sqlite3.Connection | None = None
        self._commits = 0  # commits made through this store's connections
        self._synced = 0  # how many of them are known to be on disk
        self._count_lock = threading.Lock()
        self._flush_lock = threading.Lock()  # one flush at a time: whoever waits is covered by the next
        self._wal_fd: int | None = None
        self._deferred = threading.local()  # .on: this thread's commits are flushed by call(), not at once
        self._flushing: asyncio.Future[None] | None = None
        conn = self._conn()
        conn.execute("PRAGMA journal_mode=WAL")
        with self._transaction() as cur:
            for statement in _SCHEMA:
                cur.execute(statement.format(blob="BLOB", real="REAL"))
            have = {row[1] for row in cur.execute("PRAGMA table_info(games)")}
            for name, kind in _ADDED_COLUMNS.items():
                if name not in have:
                    cur.execute(
                        _ADD_COLUMN.format(if_not_exists="", name=name, kind=kind.format(blob="BLOB", real="REAL"))
                    )
            for statement in _LIMIT_INDEXES:
                cur.execute(statement)
        self._closing = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if path != ":memory:":
            self._checkpointer = threading.Thread(
                target=self._checkpoint_now_and_then, name="fairdeal-checkpoint", daemon=True
            )
            self._checkpointer.start()

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            if self.path == ":memory:":
                # One in-memory database: every thread shares one connection (doctests only).
                if self._shared is None:
                    self._shared = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
                return self._shared
            conn = sqlite3.connect(self.path, isolation_level=None, timeout=30, check_same_thread=False)
            conn.execute("PRAGMA busy_timeout = 30000")
            # NORMAL: a commit does not flush the WAL; this store does, after it (see the class).
            conn.execute("PRAGMA synchronous = NORMAL")
            # Copying the WAL into the database (a checkpoint) takes milliseconds and a flush of
            # the database file; inside a commit on the event loop it held up every request.
            # A thread of its own does it (see _checkpoint_now_and_then).
            conn.execute("PRAGMA wal_autocheckpoint = 0")
            self._local.conn = conn
            with self._lock:
                self._all.append(conn)
        return conn

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Cursor]:
        conn = self._conn()
        with self._lock if conn is self._shared else self._write_lock:
            cur = conn.cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                yield cur
            except BaseException:
                conn.rollback()
                raise
            conn.commit()
            with self._count_lock:
                self._commits += 1
                made = self._commits
        if conn is not self._shared and not getattr(self._deferred, "on", False):
            self._flush(made)

    # -- durability ----------------------------------------------------------------

    async def call(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` on the event loop; returns once its commits are on disk.

        On the loop because a statement on a local file in WAL mode takes
        microseconds, a move's whole append well under a millisecond: less than
        handing the call to a worker thread and back (measured: 0.5 ms of CPU a
        request, and a tail of GIL hand-offs). Only the flush goes to a thread,
        while the loop serves other requests; requests that committed meanwhile
        share the next flush.
        """
        if self.path == ":memory:":
            return fn(*args, **kwargs)
        gate = self._flushing
        if gate is not None and not gate.done() and gate.get_loop() is asyncio.get_running_loop():
            # Arrived while a flush is going: wait for it, so that the answers it releases go
            # out before this request is served (and this one joins the next flush's group).
            with suppress(Exception):  # its own waiters hear of a failed flush
                await asyncio.shield(gate)
        self._deferred.on = True
        try:
            return fn(*args, **kwargs)
        finally:
            self._deferred.on = False
            with self._count_lock:
                made = self._commits if self._commits > self._synced else 0
            if made:
                await self._flushed(made)

    async def _flushed(self, upto: int) -> None:
        """Wait until the commits up to number ``upto`` are on disk, starting a flush if none is going."""
        loop = asyncio.get_running_loop()
        while self._synced < upto:
            flushing = self._flushing
            if flushing is None or flushing.done() or flushing.get_loop() is not loop:
                flushing = self._flushing = asyncio.ensure_future(asyncio.to_thread(self._flush, upto))
            # Shielded: a request that goes away must not cancel the flush others wait for.
            await asyncio.shield(flushing)

    def _flush(self, upto: int) -> None:
        """Flush the WAL to disk unless the commits up to number ``upto`` are there already."""
        with self._flush_lock:
            with self._count_lock:
                if self._synced >= upto:
                    return
                target = self._commits  # every commit counted here has written its WAL frames
            os.fsync(self._wal())
            with self._count_lock:
                self._synced = max(self._synced, target)

    def _wal(self) -> int:
        """A descriptor of the WAL file, opened at the first flush (and again if the file was replaced)."""
        if self._wal_fd is not None and os.fstat(self._wal_fd).st_nlink == 0:
            os.close(self._wal_fd)
            self._wal_fd = None
        if self._wal_fd is None:
            self._wal_fd = os.open(self.path + "-wal", os.O_RDONLY)
            # The WAL file's name must be on disk too, the first time.
            directory = os.open(os.path.dirname(os.path.abspath(self.path)), os.O_RDONLY)
            try:
                os.fsync(directory)
            finally:
                os.close(directory)
        return self._wal_fd

    CHECKPOINT_SECONDS = 0.5

    def _checkpoint_now_and_then(self) -> None:
        """Copy the WAL into the database every half second, beside the writers (a passive
        checkpoint waits for no one and stops no one; SQLite releases the GIL meanwhile)."""
        while not self._closing.wait(self.CHECKPOINT_SECONDS):
            try:
                self._conn().execute("PRAGMA wal_checkpoint(PASSIVE)")
            except sqlite3.Error:
                pass  # busy or closing: the next round does it

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        conn = self._conn()
        with self._lock if conn is self._shared else _nothing():
            return conn.execute(sql, tuple(params)).fetchall()

    def close(self) -> None:
        self._closing.set()
        if self._checkpointer is not None and self._checkpointer is not threading.current_thread():
            self._checkpointer.join()
        with self._lock:
            for conn in self._all:
                conn.close()
            self._all.clear()
            if self._wal_fd is not None:
                os.close(self._wal_fd)
                self._wal_fd = None
            if self._shared is not None:
                self._shared.close()
        self._local = threading.local()


__all__ = ["SQLiteStore"]
