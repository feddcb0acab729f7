"""The PostgreSQL store: psycopg 3, a small pool per process, the log appended in the server."""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
import weakref
from collections.abc import AsyncIterator
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence
from contextlib import asynccontextmanager
from contextlib import contextmanager
from typing import Any

from fairdeal.service.store.base import _ADD_COLUMN
from fairdeal.service.store.base import _ADDED_COLUMNS
from fairdeal.service.store.base import _LIMIT_INDEXES
from fairdeal.service.store.base import _SCHEMA
from fairdeal.service.store.base import CHANNEL
from fairdeal.service.store.base import Conflict
from fairdeal.service.store.base import GameRow
from fairdeal.service.store.base import Store
from fairdeal.service.store.base import _Append
from fairdeal.service.store.base import _end_of
from fairdeal.service.store.base import _log
from fairdeal.service.store.base import _NewRecord
from fairdeal.service.store.base import _settle
from fairdeal.service.store.base import _start_of
from fairdeal.tlog import entry_bytes
from fairdeal.tlog import leaf_hash


class PostgresStore(Store):
    """PostgreSQL through psycopg 3 and a small connection pool per process.

    Connections are in autocommit mode: a read is one round trip, and only
    writes open a transaction. A connection is checked (one more round trip)
    when it is taken from the pool after a second or more unused, which is
    when the server may have gone away under it; one in steady use is not.

    Beside the pool that worker threads use, a second pool of async
    connections serves the ``*_async`` methods on the app's event loop
    (opened by :meth:`open_async` when the app starts): creating, reading
    and playing a game then needs no worker thread at all. An append of a
    few lines is one statement (one round trip) on either pool.
    """

    kind = "postgresql"
    announces = True
    ANNOUNCEMENT_BYTES = 7900
    """An announcement's payload at most (PostgreSQL takes less than 8,000 bytes): the ids of
    more changes than fit go in several."""
    _SKIP_LOCKED = " FOR UPDATE SKIP LOCKED"
    CHECK_IDLE_SECONDS = 1.0
    listener_pid: int | None = None
    """The server process of :meth:`listen`'s connection while it listens (for an operator's
    ``pg_stat_activity``, and tests)."""
    LISTEN_BACKOFF = (0.05, 5.0)
    """:meth:`listen`'s wait before connecting again after its connection failed: the first, and
    the most (each failure doubles it)."""
    ASYNC_CONNECTIONS = 32
    """At most this many async connections (opened as needed). A move holds its connection until
    the loop gets round to reading the answer, which under load is most of the move's time: with
    8, moves queued for connections (bench/load.py at 32 tables, when only moves ran on the loop:
    p99 60 ms with 8, 44-53 ms with 32). With the threads' 8, a process opens up to 40."""

    def __init__(self, url: str, max_connections: int = 8) -> None:
        import psycopg
        from psycopg_pool import ConnectionPool

        self._unique_violation = psycopg.errors.UniqueViolation
        # Not IntegrityError or DataError: those are answers (a unique violation is a Conflict).
        self.loop_errors = (psycopg.OperationalError, psycopg.InterfaceError)
        self._url = url
        self._returned: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()
        self._async_pool: Any = None  # see open_async
        self._async_loop: asyncio.AbstractEventLoop | None = None
        # Announcements (see _changed): this store's own name on the channel, the records changed
        # since the last one was sent, and whether a task on the loop is sending them.
        self._origin = secrets.token_hex(8)
        self._unannounced: dict[str, None] = {}
        # The task, or True while a worker thread's call to start it waits for the loop.
        self._announcing: asyncio.Task[None] | bool = False
        self._announce_lock = threading.Lock()
        self._pool = ConnectionPool(
            url,
            kwargs={"autocommit": True, "application_name": "fairdeal"},
            min_size=1,
            max_size=max_connections,
            timeout=30,
            check=self._check,
            # No reset callback: with one, the pool hands every returned connection to its
            # worker thread (a thread hand-off per query); the last use is noted in _connection.
            open=True,
            name="fairdeal",
        )
        with self._transaction() as cur:
            # Two servers starting together must not both create the tables.
            cur.execute("SELECT pg_advisory_xact_lock(?)", (0x66616972,))
            for statement in _SCHEMA:
                cur.execute(statement.format(blob="BYTEA", real="DOUBLE PRECISION"))
            for name, kind in _ADDED_COLUMNS.items():
                cur.execute(
                    _ADD_COLUMN.format(
                        if_not_exists="IF NOT EXISTS ",
                        name=name,
                        kind=kind.format(blob="BYTEA", real="DOUBLE PRECISION"),
                    )
                )
            for statement in _LIMIT_INDEXES:
                cur.execute(statement)
            cur.execute(self._LOG_FUNCTION)

    _LOG_FUNCTION = """CREATE OR REPLACE FUNCTION fairdeal_log_append(p_record TEXT, p_entries TEXT[], p_leaves BYTEA[])
RETURNS INTEGER LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    at_index INTEGER;
BEGIN
    -- EXCLUSIVE: no other transaction inserts into the log until this one ends; readers go on.
    LOCK TABLE log_entries IN EXCLUSIVE MODE;
    -- A VOLATILE function's statements each take a new snapshot (READ COMMITTED): this one sees
    -- what the lock's last holder committed.
    SELECT COALESCE(MAX(idx) + 1, 0) INTO at_index FROM log_entries;
    INSERT INTO log_entries (idx, record_id, entry, leaf)
        SELECT at_index + n::integer - 1, p_record, e, l FROM unnest(p_entries, p_leaves) WITH ORDINALITY AS u (e, l, n);
    RETURN at_index;
END $$"""
    """Appends entries to the log, numbered on from its size, in the statement that calls it: so
    the log's lock (see :meth:`Store._insert_log`) is taken inside the last statement of its
    transaction, in autocommit one statement from start to commit, and never held while a
    process (an event loop with other requests to serve, a thread waiting for the GIL) gets
    round to sending the next. Made, or replaced, with the tables."""

    def announce(self, on: bool) -> None:
        self.announces = on

    # -- announcing changes to the other processes ----------------------------------------
    #
    # A change is announced after its commit, not by a pg_notify inside its transaction:
    # PostgreSQL commits every transaction that notified under one lock of the whole server,
    # held through the commit's flush to disk, so that with NOTIFY in every move's statement
    # the moves' commits took turns (bench/load.py with two workers: four or five backends
    # waiting on it at any moment). Announced from the event loop, the changes made meanwhile
    # go out together, one commit under that lock for all of them. A payload is this store's
    # origin and then the ids, one a line (an id holds no control character); the listener
    # skips its own store's, whose streams the app woke already (Notifier.notify).

    def _changed(self, record_id: str) -> None:
        if not self.announces:
            return
        with self._announce_lock:
            self._unannounced[record_id] = None
            if self._announcing:
                return  # the task on the loop sends it with the rest
            loop = self._async_loop
            if loop is not None:
                try:
                    if _running_loop() is loop:
                        self._announcing = loop.create_task(self._announce_async())
                    else:  # from a worker thread
                        loop.call_soon_threadsafe(self._start_announcing, loop)
                        self._announcing = True
                    return
                except RuntimeError:  # the loop has closed: announced from here
                    pass
            ids, self._unannounced = list(self._unannounced), {}
        self._announce_now(ids)  # no loop (a store used without the app): at once, from this thread

    def _start_announcing(self, loop: asyncio.AbstractEventLoop) -> None:
        with self._announce_lock:
            self._announcing = loop.create_task(self._announce_async())

    def _announcement(self, ids: list[str]) -> tuple[str, list[str]]:
        """The statement that announces ``ids``: one ``pg_notify`` a payload of at most
        :data:`ANNOUNCEMENT_BYTES`."""
        payloads, ids_in = [], [self._origin]
        size = len(self._origin)
        for record_id in ids:
            more = len(record_id.encode()) + 1
            if size + more > self.ANNOUNCEMENT_BYTES and len(ids_in) > 1:
                payloads.append("\n".join(ids_in))
                ids_in, size = [self._origin], len(self._origin)
            ids_in.append(record_id)
            size += more
        payloads.append("\n".join(ids_in))
        sql = "SELECT " + ", ".join(f"pg_notify('{CHANNEL}', ?)" for _ in payloads)
        return self._sql(sql), payloads

    async def _announce_async(self) -> None:
        """Send what changed until nothing more did, on the loop."""
        try:
            while True:
                with self._announce_lock:
                    ids, self._unannounced = list(self._unannounced), {}
                    if not ids or self._async_pool is None:
                        self._unannounced.update(dict.fromkeys(ids))  # (a closing store sends them itself)
                        self._announcing = False
                        return
                try:
                    async with self._async_connection() as conn:
                        await conn.execute(*self._announcement(ids))
                except self.loop_errors:  # the loop's connection failed: the threads' pool may not
                    await asyncio.to_thread(self._announce_now, ids)
                except Exception as exc:  # noqa: BLE001 (see _announce_now)
                    _not_announced(ids, exc)
        except BaseException:
            with self._announce_lock:  # (cancelled: the next change starts another task)
                self._announcing = False
            raise

    def _announce_now(self, ids: list[str]) -> None:
        """Announce ``ids`` from this thread. A failure is logged, never raised: the changes are
        committed, and the streams elsewhere see them at their record's next announced change
        (or at once when their listener connects again, as after any cut)."""
        try:
            with self._statement() as cur:
                cur.execute(*self._announcement(ids))
        except Exception as exc:  # noqa: BLE001
            _not_announced(ids, exc)

    @staticmethod
    def _sql(sql: str) -> str:
        return sql.replace("?", "%s")

    def _check(self, conn: Any) -> None:
        if time.monotonic() - self._returned.get(conn, 0.0) >= self.CHECK_IDLE_SECONDS:
            type(self._pool).check_connection(conn)

    @contextmanager
    def _connection(self) -> Iterator[Any]:
        """A connection of the pool, its last use noted when it goes back."""
        with self._pool.connection() as conn:
            try:
                yield conn
            finally:
                self._returned[conn] = time.monotonic()

    @contextmanager
    def _transaction(self) -> Iterator[Any]:
        with self._connection() as conn:
            with conn.transaction():  # commits on success, rolls back on an exception
                with conn.cursor() as cur:
                    yield _PgCursor(cur)

    @contextmanager
    def _statement(self) -> Iterator[Any]:
        with self._connection() as conn, conn.cursor() as cur:  # autocommit: the statement commits itself
            yield _PgCursor(cur)

    ONE_STATEMENT_LINES = 1000
    """Appends of up to this many lines are one statement (two parameters a line; PostgreSQL takes 65,535)."""

    def _one_statement(self, append: _Append) -> tuple[str, list[Any]] | None:
        """An append as one statement, so one round trip and its own transaction (the connections
        are in autocommit mode) instead of four (BEGIN, UPDATE, INSERT, COMMIT): the lines are
        inserted only if the row moved on from ``expected_seq``, whose lock orders racing appends.
        ``None`` for no lines, or too many.

        With the record's ``end``, the statement also appends the log's end entry (settled by the
        row's status as the statement left it, for a record the log announced), last: its answer
        is then one row, the lines inserted and the entry's index (``NULL`` for none). Otherwise
        the rowcount is the lines inserted."""
        lines, end = append.lines, append.end
        if not 0 < len(lines) <= self.ONE_STATEMENT_LINES:
            return None
        moved = (
            f"moved AS (UPDATE {append.table} SET {', '.join(append.sets)} WHERE id = ? AND length = ?"
            " RETURNING id, status)"
        )
        insert = (
            "INSERT INTO lines (game_id, seq, line) SELECT moved.id, new.seq, new.line FROM moved, (VALUES "
            + ", ".join(["(?::integer, ?::text)"] * len(lines))
            + ") AS new (seq, line)"
        )
        params = [*append.params, append.record_id, append.expected_seq]
        params += [value for seq, text in enumerate(lines, append.expected_seq) for value in (seq, text)]
        if end is None:
            return self._sql(f"WITH {moved} {insert}"), params
        abandoned = _settle(end, ("abandoned", True))
        assert abandoned is not None
        texts = [entry_bytes(abandoned), entry_bytes(end)]
        sql = (
            f"WITH {moved}, new_lines AS ({insert} RETURNING 1) "
            # In this order: the lines (a taken seq fails here, before the log's lock), then the entry.
            "SELECT (SELECT COUNT(*) FROM new_lines), (SELECT fairdeal_log_append(moved.id,"
            " ARRAY[CASE WHEN moved.status = 'abandoned' THEN ? ELSE ? END],"
            " ARRAY[CASE WHEN moved.status = 'abandoned' THEN ?::bytea ELSE ?::bytea END])"
            " FROM moved WHERE EXISTS (SELECT 1 FROM log_entries WHERE record_id = moved.id))"
        )
        return self._sql(sql), [*params, *(data.decode() for data in texts), *(leaf_hash(data) for data in texts)]

    def _create_statement(self, new: _NewRecord) -> tuple[str, list[Any]] | None:
        """A new game or session as one statement (every part of a data-modifying ``WITH`` runs,
        all or nothing): its lines (the header first), row and seat token hashes, then its start
        entry in the log (and its end entry when the lines end the record: a table of bots alone
        may be over at once). Its answer is the start entry's index. ``None`` for no lines or too
        many, or a first line that is no record header (nothing logged)."""
        record_id, lines, seat_hashes = new.record_id, new.lines, new.seat_hashes
        if not 0 < len(lines) <= self.ONE_STATEMENT_LINES:
            return None
        start = _start_of(lines[0], new.host)
        if start is None:
            return None
        end = _end_of(record_id, lines)
        texts = [entry_bytes(entry) for entry in (start, end) if entry is not None]
        parts: list[str] = []
        params: list[Any] = []
        parts.append(
            "new_lines AS (INSERT INTO lines (game_id, seq, line) VALUES "
            + ", ".join(["(?, ?::integer, ?::text)"] * len(lines))
            + " RETURNING 1)"
        )
        params += [value for seq, text in enumerate(lines) for value in (record_id, seq, text)]
        counted = "(SELECT COUNT(*) FROM new_lines)"
        if seat_hashes:
            parts.append(
                "new_tokens AS (INSERT INTO seat_tokens (game_id, seat, token_hash) VALUES "
                + ", ".join(["(?, ?::integer, ?)"] * len(seat_hashes))
                + " RETURNING 1)"
            )
            params += [value for seat, token_hash in seat_hashes.items() for value in (record_id, seat, token_hash)]
            counted += ", (SELECT COUNT(*) FROM new_tokens)"
        parts.append(
            f"new_row AS (INSERT INTO {new.table} ({new.columns}) VALUES ("
            + ", ".join("?" * len(new.values))
            + ") RETURNING id)"
        )
        params += new.values
        # The log's entries last (see Store._insert_log): after the lines, whose header's key is the
        # id's uniqueness, the tokens and the row.
        sql = (
            f"WITH {', '.join(parts)} SELECT {counted}, fairdeal_log_append(new_row.id, ARRAY["
            + ", ".join(["?"] * len(texts))
            + "]::text[], ARRAY["
            + ", ".join(["?::bytea"] * len(texts))
            + "]) FROM new_row"
        )
        params += [data.decode() for data in texts] + [leaf_hash(data) for data in texts]
        return self._sql(sql), params

    def _create(self, new: _NewRecord) -> int | None:
        statement = self._create_statement(new)
        if statement is None:
            return super()._create(new)
        try:
            with self._connection() as conn:
                return int(conn.execute(*statement).fetchone()[-1])
        except self._unique_violation:
            raise Conflict(new.record_id, 0, None) from None

    def _insert_log(self, cur: Any, record_id: str, entry: dict[str, Any]) -> int:
        # One round trip, the lock and the index taken in it (see _LOG_FUNCTION).
        data = entry_bytes(entry)
        cur.execute(
            "SELECT fairdeal_log_append(?, ARRAY[?], ARRAY[?::bytea])", (record_id, data.decode(), leaf_hash(data))
        )
        (index,) = cur.fetchone()
        return int(index)

    def _append(self, append: _Append) -> None:
        statement = self._one_statement(append)
        if statement is None:
            super()._append(append)
            return
        with self._connection() as conn:
            cursor = conn.execute(*statement)
            added = cursor.rowcount if append.end is None else cursor.fetchone()[0]
            if added != len(append.lines):
                raise Conflict(append.record_id, append.expected_seq, None)

    async def open_async(self) -> None:
        from psycopg_pool import AsyncConnectionPool

        await self.close_async()
        pool = AsyncConnectionPool(
            self._url,
            kwargs={"autocommit": True, "application_name": "fairdeal-loop"},
            min_size=1,
            max_size=self.ASYNC_CONNECTIONS,
            timeout=30,
            check=self._check_async,
            open=False,
            name="fairdeal-async",
        )
        await pool.open()
        self._async_pool, self._async_loop = pool, asyncio.get_running_loop()

    async def listen(self, changed: Callable[[str], None], connected: Callable[[bool], None]) -> None:
        import psycopg

        # One connection of its own, outside the pools: LISTEN belongs to a session, and a
        # pooled connection would be handed to a query meanwhile.
        wait, most = self.LISTEN_BACKOFF
        while True:
            try:
                # Keepalives: a connection cut without a word (a dead peer) must fail, not wait forever.
                conn = await psycopg.AsyncConnection.connect(
                    self._url,
                    autocommit=True,
                    application_name="fairdeal-listen",
                    connect_timeout=10,
                    keepalives=1,
                    keepalives_idle=10,
                    keepalives_interval=5,
                    keepalives_count=3,
                )
            except psycopg.Error:  # the server is away: try again, later and later
                await asyncio.sleep(wait)
                wait = min(most, wait * 2)
                continue
            try:
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listener_pid = conn.info.backend_pid
                    wait = self.LISTEN_BACKOFF[0]
                    connected(True)
                    async for notice in conn.notifies():
                        origin, _, ids = notice.payload.partition("\n")
                        if not ids:
                            changed(origin)  # a bare id: announced by an earlier version's process
                        elif origin != self._origin:
                            for record_id in ids.split("\n"):
                                changed(record_id)
            except Exception as exc:  # noqa: BLE001 (dropped: a restart, a network cut; connect again)
                _log.warning(
                    "live updates: the listening connection failed (%s); streams look at the database until it is back",
                    type(exc).__name__,
                )
            finally:
                self.listener_pid = None
                connected(False)
            await asyncio.sleep(wait)
            wait = min(most, wait * 2)

    async def close_async(self) -> None:
        announcing = self._announcing
        if isinstance(announcing, asyncio.Task):
            # What changed is announced before the loop's connections close. (A task that was
            # cancelled ended there: gather hands its CancelledError back rather than raise it.)
            await asyncio.gather(announcing, return_exceptions=True)
        pool, self._async_pool, self._async_loop = self._async_pool, None, None
        if pool is not None:
            await pool.close()
        with self._announce_lock:
            ids, self._unannounced, self._announcing = list(self._unannounced), {}, False
        if ids:
            await asyncio.to_thread(self._announce_now, ids)

    def async_ready(self) -> bool:
        return self._async_pool is not None and self._async_loop is asyncio.get_running_loop()

    async def _append_async(self, append: _Append) -> bool:
        statement = self._one_statement(append)
        if statement is None or self._async_pool is None:
            # Not in a worker thread from here: the caller may hold a record's lock that all of them wait for.
            return False
        try:
            async with self._async_connection() as conn:
                # One statement, its own transaction: the record's end and its log entry with it,
                # so no lock is held while the loop serves other requests.
                cursor = await conn.execute(*statement)
                added = cursor.rowcount if append.end is None else (await cursor.fetchone())[0]
        except self._unique_violation:
            raise Conflict(append.record_id, append.expected_seq, None) from None
        if added != len(append.lines):
            raise Conflict(append.record_id, append.expected_seq, None)
        return True

    async def _query_async(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        async with self._async_connection() as conn:
            cursor = await conn.execute(self._sql(sql), tuple(params))
            rows = await cursor.fetchall()
        return [tuple(bytes(v) if isinstance(v, memoryview) else v for v in row) for row in rows]

    async def create_game_async(
        self, row: GameRow, seat_hashes: dict[int, str], lines: Sequence[str], *, host: str = "-"
    ) -> int | None:
        statement = self._create_statement(_NewRecord.of(row, seat_hashes, lines, host))
        if self._async_pool is None or statement is None:
            return None
        try:
            async with self._async_connection() as conn:
                cursor = await conn.execute(*statement)
                return int((await cursor.fetchone())[-1])
        except self._unique_violation:
            raise Conflict(row.id, 0, None) from None

    @asynccontextmanager
    async def _async_connection(self) -> AsyncIterator[Any]:
        """A connection of the async pool, its last use noted when it goes back."""
        async with self._async_pool.connection() as conn:
            try:
                yield conn
            finally:
                self._returned[conn] = time.monotonic()

    async def _check_async(self, conn: Any) -> None:
        if time.monotonic() - self._returned.get(conn, 0.0) >= self.CHECK_IDLE_SECONDS:
            await type(self._async_pool).check_connection(conn)

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._connection() as conn:
            rows = conn.execute(self._sql(sql), tuple(params)).fetchall()
        return [tuple(bytes(v) if isinstance(v, memoryview) else v for v in row) for row in rows]

    def close(self) -> None:
        self._pool.close()


class _PgCursor:
    """A psycopg cursor that takes the ``?`` placeholders the store's SQL is written with."""

    def __init__(self, cur: Any) -> None:
        self._cur = cur

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._cur.execute(PostgresStore._sql(sql), tuple(params))

    @property
    def rowcount(self) -> int:
        count: int = self._cur.rowcount
        return count

    def fetchone(self) -> Any:
        return self._cur.fetchone()

    def fetchall(self) -> list[Any]:
        rows: list[Any] = self._cur.fetchall()
        return rows


def _running_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop running in this thread, or ``None`` (a worker thread)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _not_announced(ids: list[str], exc: Exception) -> None:
    """Log that the changes to ``ids`` were committed but not announced (never raised)."""
    shown = ", ".join(ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
    _log.warning("live updates: the changes to %s were not announced (%s)", shown, type(exc).__name__)


__all__ = ["PostgresStore"]
