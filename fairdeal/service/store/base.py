"""The store's common part: the rows, the schema, and :class:`Store`, what every backend
does alike (the appends' checks, the log's entries, the caches); the backends are
:mod:`fairdeal.service.store.sqlite` and :mod:`fairdeal.service.store.postgres`."""

from __future__ import annotations

import abc
import asyncio
import json
import logging
import threading
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import replace
from typing import Any
from typing import TypedDict
from typing import TypeVar
from typing import Unpack

from fairdeal.record import line_hash
from fairdeal.tlog import Tree
from fairdeal.tlog import end_entry
from fairdeal.tlog import entry_bytes
from fairdeal.tlog import leaf_hash
from fairdeal.tlog import start_entry

T = TypeVar("T")

_log = logging.getLogger("fairdeal.service")


CHANNEL = "fairdeal_records"
"""PostgreSQL's ``NOTIFY`` channel of record changes: each append and each change of a game's row
that a live-updates stream shows sends the record's id on it, in the transaction that makes it
(so it is delivered when that commits, and never for one rolled back)."""


class Conflict(Exception):
    """The record is no longer as long as the caller thought: someone else appended first."""

    def __init__(self, record_id: str, expected: int, actual: int | None) -> None:
        self.record_id, self.expected, self.actual = record_id, expected, actual
        have = "an unknown number of" if actual is None else str(actual)
        super().__init__(f"record {record_id} has {have} lines, not {expected}: another action came first")


@dataclass(frozen=True)
class GameRow:
    id: str
    rules: str
    created: str
    status: str
    """``seeding`` (client seeds open), ``playing``, ``between-hands``, ``over`` or ``abandoned``."""
    sealed_seed: bytes
    host_hash: str
    turn_seconds: float
    deadline: float | None
    """Unix time when the seat to act is played for (a bot's move or a timed-out turn)."""
    length: int
    """The record's number of lines: the next line's seq."""
    sealed_secret: bytes | None = None
    """The round's secret the record does not hold yet (a dealer's typed rule), sealed like the
    seed (:attr:`fairdeal.table.Table.secret`); ``None`` when nothing is secret."""
    bot_seconds: float | None = None
    """How long this table's bots wait before they move (``None``: a row made before tables had
    their own pace; the service's setting)."""
    next_hand_seconds: float = 0.0
    """How long the table waits between hands for its people to be ready (0: deals at once)."""
    ready: int = 0
    """Between hands: the seats that said they are ready, as a bitmask (bit ``1 << seat``)."""
    again_id: str | None = None
    """The table "Play again" made from this one, once made."""
    sealed_again: bytes | None = None
    """That table's join tokens for this table's human seats (JSON ``{seat: token}``), sealed."""
    creator: str | None = None
    """Who created it: the pseudonym of the client's address (as the log's host), for the cap on
    running games per client; ``None`` for a row made before, or with no address known."""
    bots_only: int = 0
    """1 for a table of bots alone (no person at it), which expires (see :meth:`Store.expired_bot_games`)."""
    opened: float | None = None
    """Unix time the row was made (``None`` for a row made before it was kept)."""
    touched: float | None = None
    """Unix time someone last looked at the game (its state, record or live updates), at most a little late."""
    claimed: float | None = None
    """Until when a process's turn timer holds the game's due turn (:meth:`Store.claim_due`); ``None``: no one."""


@dataclass(frozen=True)
class SessionRow:
    id: str
    created: str
    status: str
    """``seeding``, ``dealing`` or ``revealed``."""
    sealed_seed: bytes
    owner_hash: str
    seats: int
    length: int


class _Keep:
    def __repr__(self) -> str:
        return "KEEP"


KEEP: Any = _Keep()
"""Leave the deadline as it is."""


class RowChanges(TypedDict, total=False):
    """What an append changes in the record's row beside its length (see :meth:`Store.append`)."""

    status: str | None
    deadline: float | None
    sealed_secret: bytes | None
    ready: int | None
    table: str


@dataclass(frozen=True)
class _Append:
    """One append's writes, as every backend makes them: the row of ``table`` moves on from
    ``expected_seq`` (its ``SET`` clauses ``sets`` and their ``params``), the ``lines`` go with
    it, and the log's ``end`` entry (its ``how`` still to be settled) when they end the record."""

    table: str
    record_id: str
    lines: Sequence[str]
    expected_seq: int
    sets: list[str]
    params: list[Any]
    end: dict[str, Any] | None


def _appending(
    record_id: str,
    lines: Sequence[str],
    expected_seq: int,
    *,
    status: str | None = None,
    deadline: float | None = KEEP,
    sealed_secret: bytes | None = KEEP,
    ready: int | None = KEEP,
    table: str = "games",
) -> _Append:
    """The writes of an append that adds ``lines`` to a row of ``table`` (see :meth:`Store.append`)."""
    if table not in ("games", "sessions"):
        raise ValueError(f"no table {table!r}")
    sets: list[str] = ["length = ?"]
    params: list[Any] = [expected_seq + len(lines)]
    if table == "games":
        sets.append("claimed = NULL")  # whoever claimed its due turn acted, or finds the row moved on
    if status is not None:
        sets.append("status = ?")
        params.append(status)
    for column, value, only in (
        ("deadline", deadline, "have deadlines"),
        ("sealed_secret", sealed_secret, "keep a secret"),
        ("ready", ready, "wait between hands"),
    ):
        if value is not KEEP:
            if table != "games":
                raise ValueError(f"only games {only}")
            sets.append(f"{column} = ?")
            params.append(value)
    return _Append(table, record_id, lines, expected_seq, sets, params, _end_of(record_id, lines))


_SCHEMA = [
    """CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        rules TEXT NOT NULL,
        created TEXT NOT NULL,
        status TEXT NOT NULL,
        sealed_seed {blob} NOT NULL,
        host_hash TEXT NOT NULL,
        turn_seconds {real} NOT NULL,
        deadline {real},
        length INTEGER NOT NULL,
        sealed_secret {blob},
        bot_seconds {real},
        next_hand_seconds {real} NOT NULL DEFAULT 0,
        ready INTEGER NOT NULL DEFAULT 0,
        again_id TEXT,
        sealed_again {blob}
    )""",
    "CREATE INDEX IF NOT EXISTS games_due ON games (deadline) WHERE deadline IS NOT NULL",
    """CREATE TABLE IF NOT EXISTS sessions (
        id TEXT PRIMARY KEY,
        created TEXT NOT NULL,
        status TEXT NOT NULL,
        sealed_seed {blob} NOT NULL,
        owner_hash TEXT NOT NULL,
        seats INTEGER NOT NULL,
        length INTEGER NOT NULL
    )""",
    # Games and dealing sessions share the next two tables; their ids never collide
    # because creating either inserts its header line (game_id, 0) first.
    """CREATE TABLE IF NOT EXISTS seat_tokens (
        game_id TEXT NOT NULL,
        seat INTEGER NOT NULL,
        token_hash TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    )""",
    """CREATE TABLE IF NOT EXISTS lines (
        game_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        line TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    )""",
    # The transparency log (spec/log.md): append-only, idx is the entry's place in the tree,
    # assigned inside the transaction that writes the record (see Store._insert_log).
    """CREATE TABLE IF NOT EXISTS log_entries (
        idx INTEGER PRIMARY KEY,
        record_id TEXT NOT NULL,
        entry TEXT NOT NULL,
        leaf {blob} NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS log_entries_record ON log_entries (record_id)",
]

_GAME_COLUMNS = (
    "id, rules, created, status, sealed_seed, host_hash, turn_seconds, deadline, length, sealed_secret, "
    "bot_seconds, next_hand_seconds, ready, again_id, sealed_again, creator, bots_only, opened, touched, claimed"
)
# A database made before games kept a secret, or their own pace, or a table played again, gets
# the columns: NULL, nothing secret; NULL bot_seconds, the service's setting; 0, deals at once.
_ADDED_COLUMNS = {
    "sealed_secret": "{blob}",
    "bot_seconds": "{real}",
    "next_hand_seconds": "{real} NOT NULL DEFAULT 0",
    "ready": "INTEGER NOT NULL DEFAULT 0",
    "again_id": "TEXT",
    "sealed_again": "{blob}",
    # The operator's limits: who created a game, and when a table of bots alone expires. A row made
    # before has no creator (counts for no client) and is no table of bots alone (never expires).
    "creator": "TEXT",
    "bots_only": "INTEGER NOT NULL DEFAULT 0",
    "opened": "{real}",
    "touched": "{real}",
    # The turn timer's claim on a due game (see Store.claim_due): NULL, or until when a process has it.
    "claimed": "{real}",
}
_RUNNING = "status NOT IN ('over', 'abandoned')"
# After the columns they index (a database made before has them only once _ADDED_COLUMNS ran).
_LIMIT_INDEXES = [
    f"CREATE INDEX IF NOT EXISTS games_running ON games (creator) WHERE {_RUNNING}",
    f"CREATE INDEX IF NOT EXISTS games_bots_only ON games (opened) WHERE bots_only = 1 AND {_RUNNING}",
]
_ADD_COLUMN = "ALTER TABLE games ADD COLUMN {if_not_exists}{name} {kind}"
_SESSION_COLUMNS = "id, created, status, sealed_seed, owner_hash, seats, length"
_READ_GAME = f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?"
_READ_SESSION = f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE id = ?"
_READ_SEAT_HASHES = "SELECT seat, token_hash FROM seat_tokens WHERE game_id = ?"
_READ_LINES = "SELECT line FROM lines WHERE game_id = ? AND seq >= ? ORDER BY seq"
_REVEAL = '"type":"reveal"'  # in a line's canonical JSON; checked by parsing it (_end_of)


def _count_running(creator: str | None) -> tuple[str, tuple[Any, ...]]:
    if creator is None:
        return f"SELECT COUNT(*) FROM games WHERE {_RUNNING}", ()
    return f"SELECT COUNT(*) FROM games WHERE creator = ? AND {_RUNNING}", (creator,)


@dataclass(frozen=True)
class _NewRecord:
    """A new game's or session's writes, as every backend makes them: its row (``values`` of
    ``columns`` in ``table``), seat token hashes and first lines, and the ``host`` its start
    entry in the log names."""

    table: str
    columns: str
    values: list[Any]
    record_id: str
    seat_hashes: dict[int, str]
    lines: Sequence[str]
    host: str

    @classmethod
    def of(cls, row: GameRow | SessionRow, seat_hashes: dict[int, str], lines: Sequence[str], host: str) -> _NewRecord:
        """``row`` (its ``length`` that of ``lines``) with its seat token hashes and first lines."""
        table, columns = ("games", _GAME_COLUMNS) if isinstance(row, GameRow) else ("sessions", _SESSION_COLUMNS)
        values = [getattr(replace(row, length=len(lines)), column) for column in columns.split(", ")]
        return cls(table, columns, values, row.id, seat_hashes, lines, host)


def _start_of(header_text: str, host: str) -> dict[str, Any] | None:
    """The log's start entry for a record whose header is ``header_text``; ``None`` for a first
    line that is no record header (the stand-in lines of the store's own tests)."""
    header = json.loads(header_text)
    if header.get("type") != "header":
        return None
    kind = "session" if header.get("kind") == "session" else "game"
    return start_entry(
        kind, header["game_id"], header["commitment"], header["created"], host, rules=header.get("rules")
    )


def _settle(end: dict[str, Any], row: tuple[Any, ...] | None) -> dict[str, Any] | None:
    if row is None or not row[1]:
        return None
    if row[0] == "abandoned":
        return end_entry(end["id"], "abandoned", end["seq"], end["head"])
    return end


def _end_of(record_id: str, lines: Sequence[str]) -> dict[str, Any] | None:
    """The log's end entry (``how`` still to be settled) when ``lines`` end with the record's reveal."""
    if not lines or _REVEAL not in lines[-1]:
        return None
    last = json.loads(lines[-1])
    if last.get("type") != "reveal":
        return None
    return end_entry(record_id, "revealed", last["seq"], line_hash(last))


class Store(abc.ABC):
    """The storage of games and dealing sessions. SQL is written with ``?`` placeholders."""

    kind: str
    _unique_violation: type[Exception]
    announces = False
    """Whether every process's changes to a record are announced to :meth:`listen` (PostgreSQL)."""

    def announce(self, on: bool) -> None:
        """Announce changes to :meth:`listen` (where the store can) or not: off where no process
        listens (``FAIRDEAL_LIVE_UPDATES=poll``), since an announcement takes a turn at a lock of
        the whole database server (PostgreSQL's ``NOTIFY``)."""

    def _changed(self, record_id: str) -> None:
        """A change to ``record_id`` was committed (an append, a table played again): where
        the store announces changes, it tells the other processes (nothing to do here)."""

    _tree: Tree | None = None
    _tree_lock = threading.Lock()  # (one for every store of a process: they are few, and it is held for microseconds)

    async def call(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)``, a function that uses this store, from async code.

        In a worker thread, so that the loop serves other requests while this
        one waits on the database (:class:`SQLiteStore` runs it on the loop).
        """
        return await asyncio.to_thread(fn, *args, **kwargs)

    @abc.abstractmethod
    @contextmanager
    def _transaction(self) -> Iterator[Any]:
        """A cursor inside one write transaction, committed on success."""

    @contextmanager
    def _statement(self) -> Iterator[Any]:
        """A cursor for a write of one statement, committed on success: :meth:`_transaction`,
        or where a statement is a transaction of its own (PostgreSQL's autocommit), no more
        (no ``BEGIN`` and ``COMMIT`` round trips, with the statement's row locks held between)."""
        with self._transaction() as cur:
            yield cur

    @abc.abstractmethod
    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Rows of one read."""

    def close(self) -> None:
        """Release connections."""

    def ping(self) -> None:
        self._query("SELECT 1")

    async def ping_async(self) -> None:
        """:meth:`ping` from async code: from the event loop where the store allows."""
        if self.async_ready():
            try:
                await self._query_async("SELECT 1")
                return
            except self.loop_errors:
                pass  # the threads' pool may still reach the database
        await self.call(self.ping)

    # -- creating ------------------------------------------------------------

    def _create(self, new: _NewRecord) -> int | None:
        marks = ", ".join("?" * len(new.values))
        start = _start_of(new.lines[0], new.host)
        try:
            with self._transaction() as cur:
                # The header first: an id already taken by a game or session fails here.
                self._insert_lines(cur, new.record_id, 0, new.lines)
                cur.execute(f"INSERT INTO {new.table} ({new.columns}) VALUES ({marks})", tuple(new.values))
                for seat, token_hash in new.seat_hashes.items():
                    cur.execute(
                        "INSERT INTO seat_tokens (game_id, seat, token_hash) VALUES (?, ?, ?)",
                        (new.record_id, seat, token_hash),
                    )
                index = None if start is None else self._insert_log(cur, new.record_id, start)
                end = _end_of(new.record_id, new.lines)  # a table of bots alone may be over at once
                if start is not None and end is not None:
                    self._insert_log(cur, new.record_id, end)  # (not abandoned: nothing came between)
                return index
        except self._unique_violation:
            raise Conflict(new.record_id, 0, None) from None

    def create_game(
        self, row: GameRow, seat_hashes: dict[int, str], lines: Sequence[str], *, host: str = "-"
    ) -> int | None:
        """Store a new game: its row, seat token hashes, and first lines (``row.length`` is their
        number), and its start entry in the log (``host`` as spec/log.md says); the entry's index
        (``None`` when the first line is no record header: then nothing is logged)."""
        return self._create(_NewRecord.of(row, seat_hashes, lines, host))

    def create_session(
        self, row: SessionRow, seat_hashes: dict[int, str], lines: Sequence[str], *, host: str = "-"
    ) -> int | None:
        return self._create(_NewRecord.of(row, seat_hashes, lines, host))

    # -- the transparency log ----------------------------------------------------------

    def _lock_log(self, cur: Any) -> None:
        """Make this transaction the log's only writer until it ends (SQLite's ``BEGIN IMMEDIATE``
        is that already)."""

    def _insert_log(self, cur: Any, record_id: str, entry: dict[str, Any]) -> int:
        """Append ``entry`` to the log inside the transaction of ``cur``; its index.

        The index is the log's size as this transaction sees it, under a lock that no other writer
        of the log gets until this transaction ends: so indexes follow the commits, no two
        transactions take one index (the primary key is the last guard) and no reader ever sees a
        gap. Called last in a transaction, so the lock is held for as short a time as can be.
        """
        self._lock_log(cur)
        cur.execute("SELECT COALESCE(MAX(idx) + 1, 0) FROM log_entries")
        (index,) = cur.fetchone()
        data = entry_bytes(entry)
        cur.execute(
            "INSERT INTO log_entries (idx, record_id, entry, leaf) VALUES (?, ?, ?, ?)",
            (index, record_id, data.decode(), leaf_hash(data)),
        )
        return int(index)

    _SETTLE = "SELECT status, EXISTS (SELECT 1 FROM log_entries WHERE record_id = ?) FROM {table} WHERE id = ?"

    @classmethod
    def _settled(cls, cur: Any, table: str, end: dict[str, Any]) -> dict[str, Any] | None:
        """``end`` with its ``how`` (the row's status as this transaction left it says whether the
        game was abandoned); ``None`` for a record the log never announced (made before the log)."""
        cur.execute(cls._SETTLE.format(table=table), (end["id"], end["id"]))
        return _settle(end, cur.fetchone())

    def log_size(self) -> int:
        """How many entries the log has."""
        return int(self._query("SELECT COALESCE(MAX(idx) + 1, 0) FROM log_entries")[0][0])

    def log_entries(self, start: int, end: int) -> list[tuple[int, str]]:
        """Entries ``start`` to ``end`` (exclusive): (index, canonical JSON text)."""
        return [
            (int(i), text)
            for i, text in self._query(
                "SELECT idx, entry FROM log_entries WHERE idx >= ? AND idx < ? ORDER BY idx", (start, end)
            )
        ]

    _LOG_OF = "SELECT idx, entry FROM log_entries WHERE record_id = ? ORDER BY idx"

    def log_of(self, record_id: str) -> list[tuple[int, str]]:
        """A game's or session's entries: (index, canonical JSON text), in log order."""
        return [(int(i), text) for i, text in self._query(self._LOG_OF, (record_id,))]

    async def log_of_async(self, record_id: str) -> list[tuple[int, str]]:
        """:meth:`log_of`, from the event loop where the store allows."""
        if not self.async_ready():
            return await self.call(self.log_of, record_id)
        return [(int(i), text) for i, text in await self._query_async(self._LOG_OF, (record_id,))]

    _READ_LEAVES = "SELECT idx, leaf FROM log_entries WHERE idx >= ? ORDER BY idx"

    def log_tree(self) -> Tree:
        """The log's Merkle tree as stored now: kept in memory, the leaves appended since read on
        each call (after a restart the first call reads them all)."""
        return self._grown(self._query(self._READ_LEAVES, (self._known(),)))

    async def log_tree_async(self) -> Tree:
        """:meth:`log_tree`, from the event loop where the store allows."""
        if not self.async_ready():
            return await self.call(self.log_tree)
        return self._grown(await self._query_async(self._READ_LEAVES, (self._known(),)))

    def _known(self) -> int:
        with self._tree_lock:
            if self._tree is None:
                self._tree = Tree()
            return len(self._tree)

    def _grown(self, rows: Sequence[tuple[Any, ...]]) -> Tree:
        with self._tree_lock:
            tree = self._tree
            assert tree is not None
            for index, leaf in rows:
                if index < len(tree):
                    continue  # another thread read it first
                if index != len(tree):  # cannot happen while indexes follow the commits
                    raise RuntimeError(f"the log has no entry {len(tree)} but has {index}")
                tree.append(bytes(leaf))
            return tree

    INSERT_ROWS = 100
    """Lines per INSERT statement: one statement (one round trip) for a move and its bots' replies."""

    @classmethod
    def _insert_lines(cls, cur: Any, record_id: str, start: int, lines: Sequence[str]) -> None:
        rows = [(record_id, seq, text) for seq, text in enumerate(lines, start)]
        for at in range(0, len(rows), cls.INSERT_ROWS):
            chunk = rows[at : at + cls.INSERT_ROWS]
            cur.execute(
                "INSERT INTO lines (game_id, seq, line) VALUES " + ", ".join(["(?, ?, ?)"] * len(chunk)),
                [value for row in chunk for value in row],
            )

    # -- reading ---------------------------------------------------------------

    def game(self, game_id: str) -> GameRow | None:
        rows = self._query(_READ_GAME, (game_id,))
        return GameRow(*rows[0]) if rows else None

    def session(self, session_id: str) -> SessionRow | None:
        rows = self._query(_READ_SESSION, (session_id,))
        return SessionRow(*rows[0]) if rows else None

    def seat_hashes(self, record_id: str) -> dict[int, str]:
        rows = self._query(_READ_SEAT_HASHES, (record_id,))
        return {seat: token_hash for seat, token_hash in rows}

    def lines(self, record_id: str, start: int = 0) -> list[str]:
        """The record's lines from ``seq = start`` on, as stored (canonical JSON)."""
        rows = self._query(_READ_LINES, (record_id, start))
        return [text for (text,) in rows]

    def length(self, record_id: str) -> int:
        """How many lines the record has (0 for an unknown id): cheap, for live updates."""
        rows = self._query("SELECT COALESCE(MAX(seq) + 1, 0) FROM lines WHERE game_id = ?", (record_id,))
        return int(rows[0][0])

    CLAIM_SECONDS = 10.0
    """How long a claim on a due game holds (:meth:`claim_due`): a process that died holding
    one delays that game's turn by this much at most, and one that acts takes far less."""

    _SKIP_LOCKED = ""
    """What a store adds to the claim's row selection so that processes claiming at once skip
    each other's rows instead of waiting for them (PostgreSQL); SQLite writes one at a time."""

    def claim_due(self, now: float, limit: int = 64, *, due_by: float | None = None) -> list[tuple[str, float]]:
        """Claim up to ``limit`` games due by ``due_by`` (default ``now``) that no other process
        holds, most overdue first; their ids and deadlines, in that order.

        A claimed game is this process's to play until its next append, which lifts the claim,
        or for :attr:`CLAIM_SECONDS` from ``now``: two processes never both play one due turn
        (the append's expected length would stop the second, but only after it did the work).

        >>> from fairdeal.service.store import open_store
        >>> store = open_store("sqlite:///:memory:")
        >>> store.create_game(GameRow("g1", "{}", "2026-01-01T00:00:00Z", "playing", b"s", "h", 20.0, 100.0, 0),
        ...                   {}, ['{"seq":0}'])
        >>> store.claim_due(now=150.0), store.claim_due(now=151.0), store.next_deadline(now=151.0)
        ([('g1', 100.0)], [], None)
        >>> store.claim_due(now=160.0)  # the claim ran out: the process that held it did not act
        [('g1', 100.0)]
        """
        sql = (
            "UPDATE games SET claimed = ? WHERE id IN (SELECT id FROM games WHERE deadline IS NOT NULL"
            " AND deadline <= ? AND (claimed IS NULL OR claimed <= ?) ORDER BY deadline LIMIT ?"
            f"{self._SKIP_LOCKED}) RETURNING id, deadline"
        )
        with self._statement() as cur:
            cur.execute(sql, (now + self.CLAIM_SECONDS, now if due_by is None else due_by, now, limit))
            rows = cur.fetchall()
        return sorted(((game_id, float(deadline)) for game_id, deadline in rows), key=lambda row: row[1])

    def next_deadline(self, now: float) -> float | None:
        """The earliest deadline of a game no process holds a claim on (``None``: none)."""
        rows = self._query(
            "SELECT MIN(deadline) FROM games WHERE deadline IS NOT NULL AND (claimed IS NULL OR claimed <= ?)", (now,)
        )
        return None if rows[0][0] is None else float(rows[0][0])

    # -- the operator's limits ----------------------------------------------------

    def running_games(self, creator: str | None = None) -> int:
        """How many games are running (not over nor abandoned): all, or ``creator``'s (an index each)."""
        return int(self._query(*_count_running(creator))[0][0])

    async def running_games_async(self, creator: str | None = None) -> int:
        """:meth:`running_games` from async code: from the event loop where the store allows."""
        if self.async_ready():
            try:
                return int((await self._query_async(*_count_running(creator)))[0][0])
            except self.loop_errors:
                pass  # the threads' pool may still reach the database
        return await self.call(self.running_games, creator)

    def expired_bot_games(self, opened_before: float, touched_before: float, limit: int = 50) -> list[str]:
        """Running tables of bots alone made before ``opened_before``, or looked at last before
        ``touched_before`` (pass ``-inf`` for either that does not apply): the oldest first."""
        rows = self._query(
            f"SELECT id FROM games WHERE bots_only = 1 AND {_RUNNING} AND (opened < ? OR touched < ?) ORDER BY opened LIMIT ?",
            (opened_before, touched_before, limit),
        )
        return [game_id for (game_id,) in rows]

    def touch(self, game_id: str, now: float) -> None:
        """Someone looked at ``game_id`` at ``now`` (see :attr:`GameRow.touched`)."""
        with self._statement() as cur:
            cur.execute("UPDATE games SET touched = ? WHERE id = ? AND bots_only = 1", (now, game_id))

    def set_bots_only(self, game_id: str, now: float) -> None:
        """``game_id`` became a table of bots alone (started with no person's seed): from ``now`` it may expire."""
        with self._statement() as cur:
            cur.execute(
                "UPDATE games SET bots_only = 1, touched = ?, opened = COALESCE(opened, ?) WHERE id = ?",
                (now, now, game_id),
            )

    # -- appending ---------------------------------------------------------------

    def append(self, record_id: str, lines: Sequence[str], expected_seq: int, **changes: Unpack[RowChanges]) -> None:
        """Add one action's ``lines`` at ``expected_seq``, atomically, or raise :class:`Conflict`.

        The ``changes`` (:class:`RowChanges`) ``status``, ``deadline``, ``sealed_secret`` and
        ``ready`` change with the lines (``None`` status, ``KEEP`` otherwise: unchanged), in the
        row of ``table`` (``"games"``, or ``"sessions"``). No lines at all: only the row changes.
        """
        try:
            self._append(_appending(record_id, lines, expected_seq, **changes))
        except self._unique_violation:
            raise Conflict(record_id, expected_seq, None) from None
        except Conflict:
            raise Conflict(record_id, expected_seq, self.length(record_id)) from None
        self._changed(record_id)

    def set_again(self, game_id: str, again_id: str, sealed_again: bytes) -> bool:
        """Note the table "Play again" made from ``game_id``, unless one is noted already;
        whether this call noted it (a second, racing one does not)."""
        with self._statement() as cur:
            cur.execute(
                "UPDATE games SET again_id = ?, sealed_again = ? WHERE id = ? AND again_id IS NULL",
                (again_id, sealed_again, game_id),
            )
            noted: bool = cur.rowcount == 1
        if noted:
            self._changed(game_id)
        return noted

    # Awaited on the event loop, for stores that can talk to their database from it
    # (PostgreSQL): a game's reads, an append, a new game. The app opens this side on its loop
    # when it starts, and closes it when it stops. Used only when async_ready() says so.

    async def listen(self, changed: Callable[[str], None], connected: Callable[[bool], None]) -> None:
        """Call ``changed(record_id)`` whenever another process (another store on the same
        database) commits a change to a record, until cancelled; ``connected(False)`` when
        announcements may be missed from now on (the listening connection dropped),
        ``connected(True)`` once they reach this again.

        Returns at once where changes are not announced (:attr:`announces` is false).
        """

    async def open_async(self) -> None:
        """Get ready for the ``*_async`` methods on the running loop (nothing to do for most stores)."""

    async def close_async(self) -> None:
        """Undo :meth:`open_async`."""

    def async_ready(self) -> bool:
        """Whether the ``*_async`` methods can be awaited on the running loop, with no worker thread."""
        return False

    loop_errors: tuple[type[Exception], ...] = ()
    """What the ``*_async`` methods raise when their connection fails (the threads' pool may still work)."""

    async def append_async(
        self, record_id: str, lines: Sequence[str], expected_seq: int, **changes: Unpack[RowChanges]
    ) -> bool:
        """:meth:`append`, awaited, when :meth:`async_ready`; ``False`` (nothing written) for
        an append it cannot make that way, which :meth:`append` must make. (Its :class:`Conflict`
        does not say how long the record is: it asks nothing more of the database.)"""
        made = await self._append_async(_appending(record_id, lines, expected_seq, **changes))
        if made:
            self._changed(record_id)
        return made

    async def _append_async(self, append: _Append) -> bool:
        """The writes of :meth:`append_async`, where the store can make them on the loop."""
        return False

    async def game_async(self, game_id: str) -> GameRow | None:
        rows = await self._query_async(_READ_GAME, (game_id,))
        return GameRow(*rows[0]) if rows else None

    async def session_async(self, session_id: str) -> SessionRow | None:
        rows = await self._query_async(_READ_SESSION, (session_id,))
        return SessionRow(*rows[0]) if rows else None

    async def seat_hashes_async(self, record_id: str) -> dict[int, str]:
        return {seat: token_hash for seat, token_hash in await self._query_async(_READ_SEAT_HASHES, (record_id,))}

    async def lines_async(self, record_id: str, start: int = 0) -> list[str]:
        return [text for (text,) in await self._query_async(_READ_LINES, (record_id, start))]

    async def _query_async(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError(f"{type(self).__name__} does not read on the event loop")

    async def create_game_async(
        self, row: GameRow, seat_hashes: dict[int, str], lines: Sequence[str], *, host: str = "-"
    ) -> int | None:
        """:meth:`create_game`, awaited: the log index; ``None`` (nothing written) when it cannot be made that way."""
        return None

    def _append(self, append: _Append) -> None:
        """The append's writes: the row moves on only from ``expected_seq``, the lines go with it,
        and the log's ``end`` entry when they end the record."""
        with self._transaction() as cur:
            # The row lock taken here orders racing appends; the loser sees the new length.
            cur.execute(
                f"UPDATE {append.table} SET {', '.join(append.sets)} WHERE id = ? AND length = ?",
                (*append.params, append.record_id, append.expected_seq),
            )
            if cur.rowcount != 1:
                raise Conflict(append.record_id, append.expected_seq, None)
            self._insert_lines(cur, append.record_id, append.expected_seq, append.lines)
            settled = None if append.end is None else self._settled(cur, append.table, append.end)
            if settled is not None:
                self._insert_log(cur, append.record_id, settled)


@contextmanager
def _nothing() -> Iterator[None]:
    """A context that does nothing (where a backend has no lock to take)."""
    yield


__all__ = ["Store", "GameRow", "SessionRow", "Conflict", "KEEP", "CHANNEL"]
