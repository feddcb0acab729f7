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

The cache keeps each record's state at its last line, not its lines (the
store has them: :meth:`~fairdeal.seeding.SeededRecord.forget_written` once
they are stored), and is bounded by memory, not a count: each entry's size
is estimated (:func:`deep_size`) when it is stored and again every
:attr:`LiveRecords.RESIZE_EVERY` appends, and the least recently used are
dropped while the total is over :attr:`LiveRecords.cache_bytes`. A record
that was dropped is read and replayed once when it is next touched;
:attr:`LiveRecords.restores` counts those replays, :attr:`LiveRecords.catch_ups`
the lines of other processes applied to a cached record.

Each of these has an ``_async`` twin for the routes. On a store that reads
and writes from the event loop (PostgreSQL) it runs there, awaiting its
database calls; otherwise, or when the record is busy or the loop's
connection fails, it runs the plain method through :meth:`Store.call`.
"""

from __future__ import annotations

import asyncio
import enum
import gc
import json
import sys
import threading
import time
import types
import zlib
from collections import OrderedDict
from collections.abc import Awaitable
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import replace
from typing import Any
from typing import Generic
from typing import TypedDict
from typing import TypeVar
from typing import Unpack

from fairdeal.cards import ALL_CARDS
from fairdeal.record import Signer
from fairdeal.record import canonical
from fairdeal.said import Said
from fairdeal.seeding import SeededRecord
from fairdeal.service.errors import NotFound
from fairdeal.service.errors import Stale
from fairdeal.service.errors import Unauthorized
from fairdeal.service.keys import MAX_TOKEN_CHARS
from fairdeal.service.keys import Sealer
from fairdeal.service.keys import token_matches
from fairdeal.service.store import KEEP
from fairdeal.service.store import Conflict
from fairdeal.service.store import Store

__all__ = ["LiveRecords", "Acting", "Notifier", "Cached", "Role", "HOST", "deep_size", "DEFAULT_CACHE_BYTES"]

R = TypeVar("R", bound=SeededRecord)  # the replayed object: Table or DealingSession
T = TypeVar("T")
U = TypeVar("U")


class Acting(TypedDict, Generic[R, T, U], total=False):
    """How :meth:`LiveRecords.act` runs an action, besides the action itself: each may be left out."""

    expected_seq: int | None
    """A client's view of the record's length, which must be its length now (else :class:`Stale`)."""
    after: Callable[[R, Any], dict[str, Any]] | None
    """``after(live, row)``, once the action ran: what follows it (bots, the reveal); returns the
    append's extra columns (``status``, ``deadline``)."""
    then: Callable[[R, Any, T], U] | None
    """``then(live, row, result)``, after the append, under the same lock, with the row as the
    append left it: the answer instead of the action's result (one that needs the new state,
    without reading it back)."""


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
    size: int = 0
    """The estimate of the bytes this entry holds (:func:`deep_size`), as the cache counts it."""
    appends: int = 0
    """Actions stored since :attr:`size` was estimated."""


class Notifier:
    """Wakes the live-update streams of a record when it changed.

    This process's changes call :meth:`notify` themselves. Where the store
    announces every process's changes (PostgreSQL's ``NOTIFY``, see
    :meth:`Store.listen`), the app's listener calls it for the other processes'
    changes and :attr:`shared` is true while it listens: streams then wait for it alone.
    Otherwise a stream also looks at the store now and then, for changes made
    by another process. Safe to call from any thread.

    >>> notifier = Notifier()
    >>> async def woken() -> bool:
    ...     with notifier.listen("g1") as changed:
    ...         notifier.notify("g1")
    ...         await asyncio.wait_for(changed.wait(), 1)
    ...         return changed.is_set()
    >>> asyncio.run(woken())
    True
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiters: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = {}
        self.shared = False
        """Whether other processes' changes reach :meth:`notify` (the store's listener is connected)."""

    def set_shared(self, shared: bool) -> None:
        """The listener connected (``True``) or lost its connection (``False``): every stream is
        woken once, to look at its record (a change may have come while no one listened) and to
        wait the right way from now on."""
        self.shared = shared
        self.notify_all()

    def notify_all(self) -> None:
        with self._lock:
            waiters = [waiter for waiters in self._waiters.values() for waiter in waiters]
        self._wake(waiters)

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
        """Wake the streams of ``record_id``: after this process changed it, or when another
        process's change is announced. (The store announces this process's changes to the
        others, and its listener does not hand this process its own announcements back.)"""
        with self._lock:
            waiters = list(self._waiters.get(record_id, ()))
        self._wake(waiters)

    @staticmethod
    def _wake(waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]]) -> None:
        for loop, event in waiters:
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:  # that stream's loop has closed
                pass


class LiveRecords(Generic[R]):
    """The cache, locks and append discipline of one kind of record (games or sessions)."""

    table_name = "games"
    what = "game"
    LOCK_STRIPES = 4096
    RESIZE_EVERY = 32
    """Actions stored on a cached record between two estimates of its size: a game's state
    changes little in 32 of them (a hand's cards come and go; a finished hand adds a kilobyte),
    and the estimate, a walk of the objects it holds (0.1 ms for a Crazy Eights table, a move
    takes 0.6), then costs a few microseconds a move."""

    def __init__(
        self,
        store: Store,
        signer: Signer,
        sealer: Sealer,
        notifier: Notifier | None = None,
        *,
        clock: Callable[[], float] = time.time,
        cache_bytes: int | None = None,
    ) -> None:
        self.store = store
        self.signer = signer
        self.sealer = sealer
        self.notifier = notifier or Notifier()
        self.clock = clock
        """The service's one clock (the games' and the sessions'): every line's ``at``."""
        self._cache_bytes = DEFAULT_CACHE_BYTES if cache_bytes is None else cache_bytes
        self.cache_used = 0
        """The cached records' estimated bytes in all."""
        self.restores = 0
        """Records this process read whole and replayed: the first touch of a record not cached (a
        restart, another process's game, one the cache dropped). In steady state it stays put."""
        self.catch_ups = 0
        """Times a cached record was brought up to date with lines another process appended."""
        self.evictions = 0
        """Records the cache dropped for its budget."""
        self._cache: OrderedDict[str, Cached[R]] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._shared: set[int] | None = None  # see _size
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

    def _restore(self, lines: list[dict[str, Any]], server_seed: str, row: Any) -> R:
        raise NotImplementedError

    def _catch_up(self, cached: Cached[R], row: Any, texts: list[str]) -> None:
        """Apply the lines another process appended since this one cached the record; ``row``
        is the stored row as of the last of them."""
        _replay(cached, texts)

    # -- the cache -------------------------------------------------------------

    @property
    def cache_bytes(self) -> int:
        """The cache's budget: records replayed in memory, in bytes as :func:`deep_size` estimates
        them; past it the least recently used are dropped (to be read and replayed when next
        touched). The record in use stays, however large (0: it alone is kept)."""
        return self._cache_bytes

    @cache_bytes.setter
    def cache_bytes(self, budget: int) -> None:
        with self._cache_lock:
            self._cache_bytes = budget
            self._evict()

    def counts(self) -> dict[str, int]:
        """What the cache holds and has done, for a log line: records cached, their estimated
        bytes, and since the process started the :attr:`restores`, :attr:`catch_ups` and
        :attr:`evictions`."""
        with self._cache_lock:
            cached = len(self._cache)
        return {
            "cached": cached,
            "bytes": self.cache_used,
            "restores": self.restores,
            "catch_ups": self.catch_ups,
            "evictions": self.evictions,
        }

    def _lock(self, record_id: str) -> threading.Lock:
        return self._locks[zlib.crc32(record_id.encode()) % self.LOCK_STRIPES]

    @contextmanager
    def locked(self, record_id: str) -> Iterator[None]:
        with self._lock(record_id):
            yield

    def drop(self, record_id: str) -> None:
        with self._cache_lock:
            cached = self._cache.pop(record_id, None)
            if cached is not None:
                self.cache_used -= cached.size

    def load(self, record_id: str, *, trust_cache: bool = False) -> tuple[Cached[R], Any]:
        """The record replayed up to date, and its row; hold :meth:`locked` while using them.

        ``trust_cache``: a record this process has cached is taken as it left it,
        without reading the row; it is behind if another process appended since,
        which only an append that expects its length can afford (:meth:`act`).
        """
        cached = self._trusted(record_id) if trust_cache else None
        if cached is not None:
            return cached, cached.row
        row = self._found(record_id, self._row(record_id))
        cached = self._cached(record_id, row)
        if cached is None:
            cached = self._keep(record_id, row, self.store.lines(record_id), self.store.seat_hashes(record_id))
        elif row.length > cached.live.seq:
            start = cached.live.seq
            self._caught_up(record_id, cached, row, self._as_of(row, start, self.store.lines(record_id, start)))
        cached.row = row
        return cached, row

    @staticmethod
    def _as_of(row: Any, start: int, texts: list[str]) -> list[str]:
        """The lines from ``start`` that ``row`` counts, no more: lines another process appended
        after the row was read belong to a row not read yet (a later deadline, status, secret),
        and a record replayed past its row would act on the older row's deadline."""
        return texts[: max(0, row.length - start)]

    async def _load_async(self, record_id: str, *, trust_cache: bool = False) -> tuple[Cached[R], Any]:
        """:meth:`load`, its reads awaited on the event loop (when the store :meth:`~Store.async_ready`)."""
        cached = self._trusted(record_id) if trust_cache else None
        if cached is not None:
            return cached, cached.row
        row = self._found(record_id, await self._row_async(record_id))
        cached = self._cached(record_id, row)
        if cached is None:
            lines, hashes = await self.store.lines_async(record_id), await self.store.seat_hashes_async(record_id)
            cached = self._keep(record_id, row, lines, hashes)
        elif row.length > cached.live.seq:
            start = cached.live.seq
            self._caught_up(
                record_id, cached, row, self._as_of(row, start, await self.store.lines_async(record_id, start))
            )
        cached.row = row
        return cached, row

    async def _row_async(self, record_id: str) -> Any:
        """:meth:`_row`, read from the event loop."""
        raise NotImplementedError

    def _trusted(self, record_id: str) -> Cached[R] | None:
        """The cached record with the row this process last saw, if any (see :meth:`load`)."""
        with self._cache_lock:
            cached = self._cache.get(record_id)
            if cached is not None:
                self._cache.move_to_end(record_id)
        return cached if cached is not None and cached.row is not None else None

    def _found(self, record_id: str, row: Any) -> Any:
        if row is None:
            raise NotFound(self._no_such(record_id))
        return row

    def _no_such(self, record_id: str) -> Said:
        if self.what == "session":
            return Said("there is no session {id}", id=repr(record_id))
        return Said("there is no game {id}", id=repr(record_id))

    def _not_a_token(self) -> Said:
        if self.what == "session":
            return Said("that is not a token of this session")
        return Said("that is not a token of this game")

    def _cached(self, record_id: str, row: Any) -> Cached[R] | None:
        """The cached record, to be brought up to ``row``; ``None`` when it has to be read whole."""
        with self._cache_lock:
            cached = self._cache.get(record_id)
            if cached is not None:
                self._cache.move_to_end(record_id)
        if cached is not None and row.length < cached.live.seq:
            return None  # cannot happen unless the database was rolled back: start again
        return cached

    def _keep(self, record_id: str, row: Any, texts: list[str], seat_hashes: dict[int, str]) -> Cached[R]:
        """A record read whole, replayed and cached."""
        texts = self._as_of(row, 0, texts)
        live = self._restore([json.loads(text) for text in texts], self.sealer.open(record_id, row.sealed_seed), row)
        with self._cache_lock:
            self.restores += 1
        return self._keep_new(record_id, Cached(live, self._host_hash(row), seat_hashes))

    def _keep_new(self, record_id: str, cached: Cached[R]) -> Cached[R]:
        """Cache ``cached``, whose lines are stored: its record keeps the state, not the lines."""
        cached.live.forget_written()
        cached.size, cached.appends = self._size(cached), 0
        with self._cache_lock:
            old = self._cache.pop(record_id, None)
            if old is not None:
                self.cache_used -= old.size
            self._cache[record_id] = cached
            self.cache_used += cached.size
            self._evict()
        return cached

    def _caught_up(self, record_id: str, cached: Cached[R], row: Any, texts: list[str]) -> None:
        """:meth:`_catch_up`, counted, and the lines it applied forgotten (they are stored)."""
        self._catch_up(cached, row, texts)
        with self._cache_lock:
            self.catch_ups += 1
        self._stored(record_id, cached)

    def _stored(self, record_id: str, cached: Cached[R]) -> None:
        """The cached record's new lines are stored: forget them, and now and then estimate it again."""
        cached.live.forget_written()
        cached.appends += 1
        if cached.appends < self.RESIZE_EVERY:
            return
        size = self._size(cached)
        with self._cache_lock:
            cached.appends = 0
            if self._cache.get(record_id) is cached:
                self.cache_used += size - cached.size
                cached.size = size
                self._evict()

    def _size(self, cached: Cached[R]) -> int:
        if self._shared is None:  # once the subclass has set its clock
            # Objects every cached record refers to and none owns: not counted in its size.
            self._shared = _shared_ids(self)
        return deep_size(cached, self._shared)

    def _evict(self) -> None:
        """Drop the least recently used records while over budget (hold ``_cache_lock``); the
        last one stays, however large: it is the one in use."""
        while self.cache_used > self._cache_bytes and len(self._cache) > 1:
            _, cached = self._cache.popitem(last=False)
            self.cache_used -= cached.size
            self.evictions += 1

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
            raise Unauthorized(Said("this needs a token: Authorization: Bearer <token>"))
        if len(token) > MAX_TOKEN_CHARS:
            raise Unauthorized(self._not_a_token())
        role = None
        # Compare with every hash, whatever matched: the time taken tells nothing.
        if token_matches(token, cached.host_hash):
            role = Role(HOST)
        for seat, token_hash in sorted(cached.seat_hashes.items()):
            if token_matches(token, token_hash):
                role = Role(seat)
        if role is None:
            raise Unauthorized(self._not_a_token())
        return role

    # -- acting -----------------------------------------------------------------

    def act(self, record_id: str, action: Callable[[R, Any], T], **acting: Unpack[Acting[R, T, U]]) -> T | U:
        """Run ``action(live, row)`` and append the lines it added, atomically.

        ``expected_seq`` (a client's view of the record length) must be the
        length now, or :class:`Stale`. ``after(live, row)`` may change more
        (bots, the reveal) and returns extra columns for the append
        (``status``, ``deadline``). Nothing is written when anything raises.

        Returns the action's result; or, with ``then``, what
        ``then(live, row, result)`` returns, called after the append under the
        same lock with the row as the append left it (an answer that needs
        the new state, without reading it back).
        """
        with self.locked(record_id):
            # A move names the length it was chosen on, and the append checks that length
            # anyway: it is tried on the cached record without reading the row first (one
            # round trip less). If that was behind another process's appends, the mismatch,
            # the failed append or the error is not the answer: the action runs again on
            # the record read afresh, as if it had been read first.
            trusting = acting.get("expected_seq") is not None
            answer: T | U
            while True:
                cached, row = self.load(record_id, trust_cache=trusting)
                live, start = cached.live, cached.live.seq
                try:
                    result, columns, lines = self._run(live, row, action, acting)
                    if _writes(lines, columns):
                        self.store.append(record_id, lines, start, table=self.table_name, **columns)
                except BaseException as exc:
                    if not self._retried(record_id, live, start, exc, trusting):
                        raise
                    trusting = False
                    continue
                answer = self._answer(record_id, cached, row, columns, result, acting.get("then"))
                break
        self.notifier.notify(record_id)
        return answer

    async def act_async(
        self, record_id: str, action: Callable[[R, Any], T], **acting: Unpack[Acting[R, T, U]]
    ) -> T | U:
        """:meth:`act`, awaited.

        When the store talks to its database from the event loop (PostgreSQL's
        async connections), all of it runs right here, its reads and append
        awaited: no hand-off to a worker thread and back, and no worker
        thread contending with the loop for the GIL. Otherwise, or when the
        record's lock is held (by a thread, or by another action awaiting
        its append), or when the store cannot make the append this way: the
        usual way, :meth:`act` through :meth:`Store.call`.
        """
        lock = self._lock(record_id)
        if not self.store.async_ready() or not lock.acquire(blocking=False):
            return await self.store.call(self.act, record_id, action, **acting)
        # Held across the awaits: a thread wanting this record waits in its own thread, and
        # another action on this loop finds the lock taken and goes that way too.
        answer: T | U
        try:
            trusting = acting.get("expected_seq") is not None  # as in act(): a move is tried on the cached record first
            while True:
                try:
                    cached, row = await self._load_async(record_id, trust_cache=trusting)
                except self.store.loop_errors:
                    answer = _THE_USUAL_WAY  # the loop's connection failed: the threads' pool may not
                    break
                live, start = cached.live, cached.live.seq
                try:
                    result, columns, lines = self._run(live, row, action, acting)
                    made = not _writes(lines, columns) or await self.store.append_async(
                        record_id, lines, start, table=self.table_name, **columns
                    )
                except self.store.loop_errors:
                    self.drop(record_id)  # whether the append was made is not known: read it again
                    answer = _THE_USUAL_WAY
                    break
                except BaseException as exc:  # a cancelled append may or may not have been made: dropped
                    if not self._retried(record_id, live, start, exc, trusting):
                        raise
                    trusting = False
                    continue
                if made:
                    answer = self._answer(record_id, cached, row, columns, result, acting.get("then"))
                else:  # an append it cannot make here (no lines, or too many)
                    self._undo(record_id, live, start, Conflict(record_id, start, None))
                    answer = _THE_USUAL_WAY
                break
        finally:
            lock.release()
        if answer is _THE_USUAL_WAY:
            return await self.store.call(self.act, record_id, action, **acting)
        self.notifier.notify(record_id)
        return answer

    async def read_async(self, record_id: str, reader: Callable[[R, Any], T]) -> T:
        """:meth:`read`, awaited: on the event loop where the store allows (see :meth:`act_async`)."""
        return await self._loaded_async(
            record_id,
            lambda cached, row: reader(cached.live, row),
            lambda: self.store.call(self.read, record_id, reader),
        )

    async def authenticate_async(self, record_id: str, token: str | None) -> Role:
        """:meth:`authenticate`, awaited: on the event loop where the store allows (see :meth:`act_async`)."""
        role = self.authenticate_cached(record_id, token)
        if role is not None:
            return role
        return await self._loaded_async(
            record_id,
            lambda cached, row: self._role(cached, token),
            lambda: self.store.call(self.authenticate, record_id, token),
        )

    async def _loaded_async(
        self, record_id: str, use: Callable[[Cached[R], Any], T], otherwise: Callable[[], Awaitable[T]]
    ) -> T:
        """``use(cached, row)`` on the record loaded from the loop, under its lock; or ``otherwise()``
        when the store cannot read from the loop, the lock is held, or the loop's connection failed."""
        lock = self._lock(record_id)
        if not self.store.async_ready() or not lock.acquire(blocking=False):
            return await otherwise()
        try:
            cached, row = await self._load_async(record_id)
            return use(cached, row)
        except self.store.loop_errors:
            pass  # the loop's connection failed: the threads' pool may not
        finally:
            lock.release()
        return await otherwise()

    def _run(
        self, live: R, row: Any, action: Callable[[R, Any], T], acting: Acting[R, T, U]
    ) -> tuple[T, dict[str, Any], list[str]]:
        """The action on ``live``: its result, and the columns and lines for the append."""
        start = live.seq
        expected_seq, after = acting.get("expected_seq"), acting.get("after")
        if expected_seq is not None and expected_seq != start:
            raise Stale(
                Said(
                    "the record is at seq {seq}, not {expected}: fetch the view again", seq=start, expected=expected_seq
                )
            )
        result = action(live, row)
        columns = after(live, row) if after is not None else {}
        return result, columns, [canonical(line).decode() for line in live.lines_since(start)]

    def _retried(self, record_id: str, live: R, start: int, exc: BaseException, trusting: bool) -> bool:
        """After an action or its append failed with ``exc``: :meth:`_undo`; whether to run the
        action again on the record read afresh (it ran on the cached record, trusted: a move, see
        :meth:`act`), else the caller raises ``exc``; a lost race to the append is :class:`Stale`."""
        self._undo(record_id, live, start, exc)
        if trusting and isinstance(exc, Exception):
            return True
        if isinstance(exc, Conflict):
            raise Stale(Said("another action reached the record first: fetch the view and try again")) from None
        return False

    def _undo(self, record_id: str, live: R, start: int, exc: BaseException) -> None:
        """After an action or append that failed: drop the cached record if it went ahead of the stored one."""
        if live.seq != start or isinstance(exc, Conflict):
            self.drop(record_id)

    def _answer(
        self,
        record_id: str,
        cached: Cached[R],
        row: Any,
        columns: dict[str, Any],
        result: T,
        then: Callable[[R, Any, T], Any] | None,
    ) -> Any:
        """After the append: the cached row as it left it, the lines forgotten, and the answer."""
        cached.row = _appended(row, columns, cached.live.seq)
        self._stored(record_id, cached)
        return result if then is None else then(cached.live, cached.row, result)

    def read(self, record_id: str, reader: Callable[[R, Any], T]) -> T:
        """``reader(live, row)`` on the record brought up to date, under its lock."""
        with self.locked(record_id):
            cached, row = self.load(record_id)
            return reader(cached.live, row)

    def record_text(self, record_id: str) -> str:
        """The stored record as JSON Lines."""
        if self._row(record_id) is None:
            raise NotFound(self._no_such(record_id))
        return "".join(text + "\n" for text in self.store.lines(record_id))


_THE_USUAL_WAY: Any = object()  # act_async's answer when it leaves the action to act() in a thread


def _replay(cached: Cached[Any], texts: list[str]) -> None:
    for text in texts:
        cached.live.replay(json.loads(text))


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


DEFAULT_CACHE_BYTES = 512 * 1024 * 1024
"""The cache's budget unless the operator sets one (``FAIRDEAL_CACHE_MB``)."""

# Objects that are never a record's own: classes, functions, modules, code, descriptors.
_NOT_OWNED = (
    type,
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.CodeType,
    types.MethodDescriptorType,
    types.WrapperDescriptorType,
    types.GetSetDescriptorType,
)


def _shared_ids(service: Any) -> set[int]:
    """The ids of objects a cached record refers to that the whole process shares: the service's
    signer, sealer and clock, the cards (interned), ``None`` and the booleans."""
    shared: list[Any] = [None, True, False, service.signer, service.sealer, service.clock, *ALL_CARDS]
    return {id(obj) for obj in shared}


def deep_size(root: Any, shared: Iterable[int] = ()) -> int:
    """An estimate of the bytes ``root`` holds: ``sys.getsizeof`` of every object reachable from
    it, once each, not counting classes, functions, modules, enum members, and the objects in
    ``shared`` (ids) and what only they reach. It counts small shared objects (interned strings,
    small ints) as the root's own, so it errs high, by little.

    >>> deep_size([]) < deep_size([[1, 2, 3], "four"]) < deep_size([[1, 2, 3], "four" * 1000])
    True
    """
    seen = set(shared)
    stack = [root]
    total = 0
    getsizeof, referents = sys.getsizeof, gc.get_referents
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, (*_NOT_OWNED, enum.Enum)):
            continue
        total += getsizeof(obj)
        stack.extend(referents(obj))
    return total
