"""What live games and dealing sessions share: a per-process cache of replayed records, kept current.

The stored record is the truth. A process keeps each record it serves
replayed in memory (a :class:`~fairdeal.table.Table` or a
:class:`~fairdeal.service.dealing.DealingSession`); before every read it
replays the lines other processes appended since. An action runs under the
record's lock, changes the replayed object, and appends exactly the lines
that added, expecting the record's length it started from; if another
process appended first, the append fails, the cached object is dropped (it
went ahead of the truth) and the client gets 409. A move, which names the
length it was chosen on, skips the read: it is tried on the cached record
and, only if that was behind, again on the record read afresh.
"""

from __future__ import annotations

import asyncio
import json
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from fairdeal.record import Signer, canonical
from fairdeal.service.errors import NotFound, Stale, Unauthorized
from fairdeal.service.keys import MAX_TOKEN_CHARS, Sealer, token_matches
from fairdeal.service.store import KEEP, Conflict, Store

__all__ = ["LiveRecords", "Notifier", "Cached", "Role", "HOST"]

R = TypeVar("R")  # the replayed object: Table or DealingSession
T = TypeVar("T")

HOST = -1
"""The :class:`Role` seat of the game's host (or a session's owner)."""


@dataclass(frozen=True)
class Role:
    """Who a token belongs to: the host (``seat == HOST``) or a seat."""

    seat: int

    @property
    def is_host(self) -> bool:
        return self.seat == HOST


@dataclass
class Cached(Generic[R]):
    live: R
    host_hash: str
    seat_hashes: dict[int, str]
    row: Any = None
    """The stored row as this process last read or appended it (it may be behind another process's)."""


class Notifier:
    """Wakes the live-update streams of a record when this process appended to it.

    Streams of other processes notice by polling the store; this only makes
    the common case instant. Safe to call from any thread.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiters: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = {}

    @contextmanager
    def listen(self, record_id: str) -> Iterator[asyncio.Event]:
        """An event set whenever ``record_id`` changes; use inside a running event loop."""
        waiter = (asyncio.get_running_loop(), asyncio.Event())
        with self._lock:
            self._waiters.setdefault(record_id, set()).add(waiter)
        try:
            yield waiter[1]
        finally:
            with self._lock:
                waiters = self._waiters.get(record_id)
                if waiters is not None:
                    waiters.discard(waiter)
                    if not waiters:
                        del self._waiters[record_id]

    def notify(self, record_id: str) -> None:
        with self._lock:
            waiters = list(self._waiters.get(record_id, ()))
        for loop, event in waiters:
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:  # that stream's loop has closed
                pass


class LiveRecords(Generic[R]):
    """The cache, locks and append discipline of one kind of record (games or sessions)."""

    table_name = "games"
    what = "game"
    CACHE_SIZE = 1024
    LOCK_STRIPES = 4096

    def __init__(self, store: Store, signer: Signer, sealer: Sealer, notifier: Notifier | None = None) -> None:
        self.store = store
        self.signer = signer
        self.sealer = sealer
        self.notifier = notifier or Notifier()
        self._cache: OrderedDict[str, Cached[R]] = OrderedDict()
        self._cache_lock = threading.Lock()
        # A bounded set of locks: two records may share one, which costs a little waiting (and
        # sends a move off act_async's fast path), never correctness. 4,096: at 32 busy tables,
        # 64 stripes had a third of the moves find their lock taken by another table's.
        self._locks = [threading.Lock() for _ in range(self.LOCK_STRIPES)]

    # -- to be given by subclasses -------------------------------------------

    def _row(self, record_id: str) -> Any:
        """The stored row (with ``length``, ``sealed_seed``, and the host's token hash), or ``None``."""
        raise NotImplementedError

    def _host_hash(self, row: Any) -> str:
        raise NotImplementedError

    def _restore(self, lines: list[dict[str, Any]], server_seed: str) -> R:
        raise NotImplementedError

    # -- the cache -------------------------------------------------------------

    def _lock(self, record_id: str) -> threading.Lock:
        return self._locks[zlib.crc32(record_id.encode()) % self.LOCK_STRIPES]

    @contextmanager
    def locked(self, record_id: str) -> Iterator[None]:
        with self._lock(record_id):
            yield

    def drop(self, record_id: str) -> None:
        with self._cache_lock:
            self._cache.pop(record_id, None)

    def load(self, record_id: str, *, trust_cache: bool = False) -> tuple[Cached[R], Any]:
        """The record replayed up to date, and its row; hold :meth:`locked` while using them.

        ``trust_cache``: a record this process has cached is taken as it left it,
        without reading the row; it is behind if another process appended since,
        which only an append that expects its length can afford (:meth:`act`).
        """
        if trust_cache:
            with self._cache_lock:
                cached = self._cache.get(record_id)
                if cached is not None:
                    self._cache.move_to_end(record_id)
            if cached is not None and cached.row is not None:
                return cached, cached.row
        row = self._row(record_id)
        if row is None:
            raise NotFound(f"there is no {self.what} {record_id!r}")
        with self._cache_lock:
            cached = self._cache.get(record_id)
            if cached is not None:
                self._cache.move_to_end(record_id)
        if cached is not None and row.length < cached.live.seq:
            cached = None  # cannot happen unless the database was rolled back: start again
        if cached is None:
            lines = [json.loads(text) for text in self.store.lines(record_id)]
            live = self._restore(lines, self.sealer.open(record_id, row.sealed_seed))
            cached = Cached(live, self._host_hash(row), self.store.seat_hashes(record_id))
            with self._cache_lock:
                self._cache[record_id] = cached
                while len(self._cache) > self.CACHE_SIZE:
                    self._cache.popitem(last=False)
        elif row.length > cached.live.seq:
            for text in self.store.lines(record_id, cached.live.seq):
                cached.live.replay(json.loads(text))
        cached.row = row
        return cached, row

    # -- who is asking ------------------------------------------------------------

    def authenticate(self, record_id: str, token: str | None) -> Role:
        """The role ``token`` gives at ``record_id``; :class:`Unauthorized` when it gives none."""
        role = self.authenticate_cached(record_id, token)
        if role is None:
            with self.locked(record_id):
                cached, _ = self.load(record_id)
            role = self._role(cached, token)
        return role

    def authenticate_cached(self, record_id: str, token: str | None) -> Role | None:
        """:meth:`authenticate` if this process has the record cached, else ``None``: no I/O, so
        fit for the event loop. (Token hashes never change, and a record is never deleted: a
        cached record needs no reading to tell who a token is.)"""
        with self._cache_lock:
            cached = self._cache.get(record_id)
        return None if cached is None else self._role(cached, token)

    def _role(self, cached: Cached[R], token: str | None) -> Role:
        if not token:
            raise Unauthorized("this needs a token: Authorization: Bearer <token>")
        if len(token) > MAX_TOKEN_CHARS:
            raise Unauthorized(f"that is not a token of this {self.what}")
        role = None
        # Compare with every hash, whatever matched: the time taken tells nothing.
        if token_matches(token, cached.host_hash):
            role = Role(HOST)
        for seat, token_hash in sorted(cached.seat_hashes.items()):
            if token_matches(token, token_hash):
                role = Role(seat)
        if role is None:
            raise Unauthorized(f"that is not a token of this {self.what}")
        return role

    # -- acting -----------------------------------------------------------------

    def act(
        self,
        record_id: str,
        action: Callable[[R, Any], T],
        *,
        expected_seq: int | None = None,
        after: Callable[[R, Any], dict[str, Any]] | None = None,
        then: Callable[[R, Any, T], Any] | None = None,
        fresh: bool = False,
    ) -> Any:
        """Run ``action(live, row)`` and append the lines it added, atomically.

        ``expected_seq`` (a client's view of the record length) must be the
        length now, or :class:`Stale`. ``after(live, row)`` may change more
        (bots, the reveal) and returns extra columns for the append
        (``status``, ``deadline``). Nothing is written when anything raises.

        Returns the action's result; or, with ``then``, what
        ``then(live, row, result)`` returns, called after the append under the
        same lock with the row as the append left it (an answer that needs
        the new state, without reading it back).

        ``fresh``: read the row first even for a move (it failed on the cached record).
        """
        with self.locked(record_id):
            # A move names the length it was chosen on, and the append checks that length
            # anyway: it is tried on the cached record without reading the row first (one
            # round trip less). If that was behind another process's appends, the mismatch,
            # the failed append or the error is not the answer: the action runs again on
            # the record read afresh, as if it had been read first.
            trusting = expected_seq is not None and not fresh
            while True:
                cached, row = self.load(record_id, trust_cache=trusting)
                live, start = cached.live, cached.live.seq
                try:
                    result, columns, lines = self._run(live, row, action, after, expected_seq)
                    if _writes(lines, columns):
                        self.store.append(record_id, lines, start, table=self.table_name, **columns)
                except BaseException as exc:
                    self._undo(record_id, live, start, exc)
                    if trusting and isinstance(exc, Exception):
                        trusting = False
                        continue
                    if isinstance(exc, Conflict):
                        raise Stale("another action reached the record first: fetch the view and try again") from None
                    raise
                answer = self._answer(cached, row, columns, result, then)
                break
        self.notifier.notify(record_id)
        return answer

    async def act_async(
        self,
        record_id: str,
        action: Callable[[R, Any], T],
        *,
        expected_seq: int,
        after: Callable[[R, Any], dict[str, Any]] | None = None,
        then: Callable[[R, Any, T], Any] | None = None,
    ) -> Any:
        """:meth:`act` for a move (``expected_seq`` given), awaited on the event loop.

        When the store appends from the loop (PostgreSQL's async connections)
        and this process has the record cached at ``expected_seq``, the action
        runs right here and only the append is awaited: no hand-off to a
        worker thread and back, and no worker thread contending with the loop
        for the GIL. Anything else (another store, the record not cached or
        behind, its lock held by a thread, an error, a failed append) goes the
        usual way, :meth:`act` through :meth:`Store.call`, which finds the
        right answer from the stored record (nothing was written).
        """
        lock = self._lock(record_id)
        done = tried = False
        if self.store.appends_on_loop() and lock.acquire(blocking=False):
            # Held across the append's await: a thread wanting this record waits in its own
            # thread, and another move of it on this loop finds the lock taken and goes there too.
            try:
                with self._cache_lock:
                    cached = self._cache.get(record_id)
                if cached is not None and cached.row is not None and cached.live.seq == expected_seq:
                    live, row, start = cached.live, cached.row, cached.live.seq
                    tried = True
                    try:
                        result, columns, lines = self._run(live, row, action, after, expected_seq)
                        done = not _writes(lines, columns) or await self.store.append_async(
                            record_id, lines, start, table=self.table_name, **columns
                        )
                    except Exception as exc:
                        self._undo(record_id, live, start, exc)
                    except BaseException as exc:  # cancelled: the append may or may not have been made
                        self._undo(record_id, live, start, exc)
                        raise
                    if done:
                        answer = self._answer(cached, row, columns, result, then)
                    elif live.seq != start:
                        self.drop(record_id)  # an append the store could not make here: made the usual way
            finally:
                lock.release()
        if not done:
            return await self.store.call(
                self.act, record_id, action, expected_seq=expected_seq, after=after, then=then, fresh=tried
            )
        self.notifier.notify(record_id)
        return answer

    def _run(
        self, live: R, row: Any, action: Callable[[R, Any], T], after: Callable[[R, Any], dict[str, Any]] | None,
        expected_seq: int | None,
    ) -> tuple[T, dict[str, Any], list[str]]:
        """The action on ``live``: its result, and the columns and lines for the append."""
        start = live.seq
        if expected_seq is not None and expected_seq != start:
            raise Stale(f"the record is at seq {start}, not {expected_seq}: fetch the view again")
        result = action(live, row)
        columns = after(live, row) if after is not None else {}
        return result, columns, [canonical(line).decode() for line in live.lines[start:]]

    def _undo(self, record_id: str, live: R, start: int, exc: BaseException) -> None:
        """After an action or append that failed: drop the cached record if it went ahead of the stored one."""
        if live.seq != start or isinstance(exc, Conflict):
            self.drop(record_id)

    @staticmethod
    def _answer(cached: Cached[R], row: Any, columns: dict[str, Any], result: T,
                then: Callable[[R, Any, T], Any] | None) -> Any:
        """After the append: the cached row as it left it, and the answer."""
        cached.row = _appended(row, columns, cached.live.seq)
        return result if then is None else then(cached.live, cached.row, result)

    def read(self, record_id: str, reader: Callable[[R, Any], T]) -> T:
        """``reader(live, row)`` on the record brought up to date, under its lock."""
        with self.locked(record_id):
            cached, row = self.load(record_id)
            return reader(cached.live, row)

    def record_text(self, record_id: str) -> str:
        """The stored record as JSON Lines."""
        if self._row(record_id) is None:
            raise NotFound(f"there is no {self.what} {record_id!r}")
        return "".join(text + "\n" for text in self.store.lines(record_id))


def _writes(lines: list[str], columns: dict[str, Any]) -> bool:
    """Whether an action left anything to append: lines, or a change of status or deadline."""
    return bool(lines) or any(value is not None and value is not KEEP for value in columns.values())


def _appended(row: Any, columns: dict[str, Any], length: int) -> Any:
    """``row`` as an append with ``columns`` left it (a ``None`` status and a ``KEEP`` deadline change nothing)."""
    changes: dict[str, Any] = {"length": length}
    for name, value in columns.items():
        if value is not KEEP and not (name == "status" and value is None):
            changes[name] = value
    return replace(row, **changes)
