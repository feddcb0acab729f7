"""Replay a fairdeal record and check everything in it: the header, the chain and
its signatures, the client seeds' commit-reveal, the server seed, and every
deal, move, restock and score against the rules.

:func:`fairdeal.verification.verify` reads a record (its text, or its lines
already parsed) and returns a :class:`Report`; a game's record is checked here
(:func:`verify_game`). It stops at the first failure, which it names by
its 1-based line number and a reason a person understands; the hands played
before the failure are still reported, for auditors.

>>> from fairdeal.record import Signer
>>> from fairdeal.verification import verify
>>> from fairdeal.rules import DEFAULT, get
>>> from fairdeal.table import Seat, Table
>>> table = Table.new("doc", get(DEFAULT, {"target": 20}), [Seat("Ann", bot=True), Seat("Bob", bot=True)],
...                   Signer.from_seed(bytes(32)), created="2026-01-01T00:00:00Z", server_seed="00" * 32)
>>> while not table.match.over:
...     _ = table.move(table.match.turn, table.match.auto_move(), auto=True)
>>> _ = table.reveal()
>>> report = verify(table.writer.text())
>>> report.verified, report.error, len(report.hands) >= 1
(True, None, True)
>>> table.lines[7]["card"] = "KD"   # a move nobody made
>>> print(verify(table.lines).error)
line 8: illegal move play KD by seat 0: the auto-move here is play TS
"""

from __future__ import annotations

import functools
import operator
import re
from collections import deque
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import TypeGuard

from fairdeal.cards import codes
from fairdeal.fairness import PROTOCOL
from fairdeal.fairness import SEED_LINES
from fairdeal.fairness import FairnessError
from fairdeal.fairness import GameShuffle
from fairdeal.fairness import SeedError
from fairdeal.fairness import SeedPhase
from fairdeal.fairness import check_game_id
from fairdeal.fairness import commitment
from fairdeal.fairness import game_key
from fairdeal.match import Match
from fairdeal.record import FORMAT
from fairdeal.record import FORMAT_1
from fairdeal.record import FORMATS
from fairdeal.record import SIGNED_TYPES
from fairdeal.record import ChainError
from fairdeal.record import RecordError
from fairdeal.record import at_ms
from fairdeal.record import check_at
from fairdeal.record import check_chain
from fairdeal.record import check_created
from fairdeal.record import format_at
from fairdeal.record import line_hash
from fairdeal.rules import HandResult
from fairdeal.rules import IllegalMove
from fairdeal.rules import Move
from fairdeal.rules import MoveError
from fairdeal.rules import OptionsError
from fairdeal.rules import Outcome
from fairdeal.rules import Rules
from fairdeal.rules import ScoreSheet
from fairdeal.rules import Standing
from fairdeal.rules import get
from fairdeal.rules.base import GameState
from fairdeal.rules.base import standings_json
from fairdeal.rules.move import members as move_members
from fairdeal.rules.move import secret_members
from fairdeal.rules.summary import HandSummary
from fairdeal.said import Said
from fairdeal.said import and_words
from fairdeal.verification.lines import Failure
from fairdeal.verification.lines import read_lines

__all__ = [
    "verify_game",
    "read_record",
    "read_lines",
    "Report",
    "Hand",
    "Failure",
    "Step",
    "RecordError",
    "NOT_REVEALED",
]

MAX_SEAT_NAME = 40
"""A seat name is 1 to 40 characters (fairdeal.table's limit)."""

_HEX64 = re.compile(r"[0-9a-f]{64}")
_SIG = re.compile(r"[0-9a-f]{128}")

# Lines whose fields follow from the seed alone: a mismatch there is the deal's, not a player's.
_SEED_LINES = frozenset({"draw-for-deal", "deal", "restock"})
# The fields every line may carry besides its event (``at``: format 2's, checked by _check_times).
_CHAIN_FIELDS = frozenset({"seq", "prev", "sig", "at"})
_TIMING = ("turn_ms", "bot_ms", "next_hand_ms")
"""The header's ``timing`` (format 2), each a whole number of milliseconds from 0."""


@dataclass(frozen=True, slots=True)
class Hand:
    """One finished hand as the seed and the rules give it.

    ``summary`` is what the rules report of the hand, its family's typed
    :class:`~fairdeal.rules.summary.HandSummary` (for Crazy Eights: ``deal``
    by seat, ``turned`` and the starter, and ``restocks``, each new stock top
    first); the rest is how it ended. ``sheet`` holds what a game's score
    sheet keeps besides the totals (Hollywood scoring: ``games``, each game's
    scores by seat), as its ``hand-end`` line shows it; ``score_sheet`` is
    that sheet itself, which describes itself in the text report.
    """

    hand: int
    dealer: int
    summary: HandSummary
    how: str
    winners: tuple[int, ...]
    counts: tuple[int, ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    reason: str = ""
    sheet: dict[str, Any] = field(default_factory=dict)
    score_sheet: ScoreSheet | None = field(default=None, repr=False, compare=False)
    dealt_at: str | None = None
    """When its ``deal`` line was written (format 2; ``None`` in a format 1 record)."""
    ended_at: str | None = None
    """When its ``hand-end`` line was written (format 2)."""

    @property
    def deal(self) -> list[list[str]]:
        return [codes(cards) for cards in self.summary.deal]

    @property
    def result(self) -> HandResult:
        """How the hand ended, as the rules gave it."""
        return HandResult(self.how, self.winners, self.counts, self.scores, self.reason)

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "dealer": self.dealer,
            **self.summary.to_json(),
            "result": {
                "how": self.how,
                "winners": list(self.winners),
                "counts": list(self.counts),
                "reason": self.reason,
            },
            "scores": list(self.scores),
            "totals": list(self.totals),
            **self.sheet,
            **({} if self.dealt_at is None else {"dealt_at": self.dealt_at, "ended_at": self.ended_at}),
        }


@dataclass
class Report:
    """What :func:`fairdeal.verification.verify` found. ``verified`` is true only when ``error`` is ``None``."""

    verified: bool = False
    error: Failure | None = None
    kind: str = "game"
    """``"game"``, or ``"session"`` for a dealing session's record (spec/sessions.md)."""
    game_id: str | None = None
    rules: str | None = None
    options: dict[str, int] = field(default_factory=dict)
    seats: list[dict[str, Any]] = field(default_factory=list)
    created: str | None = None
    format: str | None = None
    """The header's record format (``fairdeal-record/1`` or ``/2``), once read."""
    timing: dict[str, int] | None = None
    """A format 2 header's ``timing``: the timer every auto-move is checked against."""
    server_key: str | None = None
    """The key the signatures were checked with (the pinned one, or the header's)."""
    commitment: str | None = None
    client_seeds: list[str] | None = None
    bots: list[int] | None = None
    server_seed: str | None = None
    first_dealer: int | None = None
    draw: list[str] = field(default_factory=list)
    """The cards turned face up in the draw for the first dealer."""
    hands: list[Hand] = field(default_factory=list)
    standings: tuple[Standing, ...] | None = None
    """The final standings, once the match is over."""
    totals: list[int] | None = None
    """The totals after the last finished hand."""
    abandoned: str | None = None
    """The reason given when the game was abandoned."""
    label_prefix: str | None = None
    shuffles: list[dict[str, Any]] | None = None
    """A session's shuffles: label, count, cards, and the derived ``order`` once the seed is known."""
    lines: int = 0
    moves: int = 0
    record: list[dict[str, Any]] = field(default_factory=list, repr=False, compare=False)
    """The lines read (up to the first unreadable one): what receipts are checked against."""
    unread_from: int | None = None
    """The first line that could not be read (nothing from there on was checked)."""
    hashes: list[str] | None = field(default=None, repr=False, compare=False)
    """Their hashes, when the record was read from its text."""

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, as the record shows it: the final standings, or the reason it was
        abandoned; ``None`` while the record leaves the game in play. The same as the table's
        (:attr:`Table.outcome <fairdeal.table.Table.outcome>`)."""
        if self.abandoned is not None:
            return Outcome(None, self.abandoned)
        return None if self.standings is None else Outcome(self.standings)

    @property
    def verdict(self) -> str:
        """``VERIFIED``, or ``NOT VERIFIED: line N: <reason>`` (the report's last line, unescaped)."""
        return "VERIFIED" if self.verified else f"NOT VERIFIED: {self.error}"

    def line_hash(self, seq: int) -> str:
        """The hash of the record's line ``seq`` (0 is the header)."""
        return self.hashes[seq] if self.hashes is not None else line_hash(self.record[seq])

    def fail(self, line: int, reason: str) -> None:
        """Record a failure unless an earlier one is known (receipts add theirs after the replay)."""
        if self.error is None or line < self.error.line:
            self.error = Failure(line, reason)
        self.verified = False

    def to_json(self) -> dict[str, Any]:
        if self.kind == "session":
            return {
                "verified": self.verified,
                "kind": "session",
                "game_id": self.game_id,
                "rules": None,
                "seats": len(self.seats),
                "label_prefix": self.label_prefix,
                "shuffles": [{k: v for k, v in s.items() if k != "line"} for s in self.shuffles or []],
                "hands": [],
                "standings": None,
                "error": None if self.error is None else self.error.to_json(),
            }
        return {
            "verified": self.verified,
            "game_id": self.game_id,
            "rules": self.rules,
            "options": self.options,
            "seats": self.seats,
            "hands": [hand.to_json() for hand in self.hands],
            "standings": standings_json(self.standings),
            "abandoned": self.abandoned,
            **({"timing": self.timing} if self.timing is not None else {}),
            "error": None if self.error is None else self.error.to_json(),
        }


@dataclass(frozen=True, slots=True)
class Step:
    """One line of the replay, for a caller that watches it (``fairdeal-verify --moves``).

    ``before`` is the hand's state before the line (``None`` for the start)
    and ``match`` the match after it; ``events`` are what the engine produced
    for it; ``report`` holds the header's facts (seats and their names).
    """

    line: int
    record: dict[str, Any]
    events: list[dict[str, Any]]
    before: GameState | None
    match: Match
    report: Report


class _Fail(Exception):
    def __init__(self, index: int, reason: str) -> None:
        self.index = index
        self.reason = reason


_KEPT: dict[tuple[str, ...], dict[tuple[Any, ...], tuple[Move, int]]] = {}
"""Moves read before, for each game's own members (:func:`_own_members`): by the values of those
members, the move and how many members it writes back. A replay reads thousands of moves that are
the same few hundred. A move is kept only if it writes back (:meth:`Move.to_json`) exactly the
members it was read from, from a line whose members are text or absent (never a JSON ``true``,
which equals 1) and carry no secret (a dealer's rule, in a seat's own move). So a line that finds
a move here and holds nothing else (its type, seat, seq, prev, at, auto and that many members) is
the move's event, member for member, and :meth:`Move.from_json` would read it as that move; any
other line is read afresh, and compared with its event."""
_KEPT_MOST = 4096  # a record's moves repeat (a deck's cards); text from a record is not kept without end


def _own_members(rules: Rules[Any, Any]) -> tuple[str, ...]:
    """The JSON members of the moves ``rules`` declare, ``move`` first, in :func:`move_members`' order.

    >>> from fairdeal.rules import catalogue, get
    >>> own = _own_members(get(catalogue()["default"]))
    >>> own[0], set(own) < set(move_members())
    ('move', True)
    """
    own = {f.member for kind in rules.moves for f in kind.fields}
    return tuple(m for m in move_members() if m == "move" or m in own)


@functools.cache
def _values_of(own: tuple[str, ...]) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    """The function that gives a line's values of the members ``own`` (``None`` for one it lacks),
    as ``tuple(map(line.get, own))`` does, in a third of its time: a replay asks it of every move.
    It is written for ``own`` (each name a string literal, as ``repr`` writes it).

    >>> _values_of(("move", "card", "suit"))({"move": "play", "card": "9C", "seat": 1})
    ('play', '9C', None)
    """
    # (The source holds nothing but the members as string literals: a game's names cannot be code.)
    values: Callable[[dict[str, Any]], tuple[Any, ...]] = eval(
        "lambda line: (" + "".join(f"line.get({member!r}), " for member in own) + ")", {}
    )
    return values


def _read_move(line: dict[str, Any], own: tuple[str, ...], kept: dict[tuple[Any, ...], tuple[Move, int]]) -> Move:
    """:meth:`Move.from_json` of a move line (raising :class:`MoveError` as it does), kept in
    ``kept`` by the values of the members ``own`` if it may be (see :data:`_KEPT`)."""
    move = Move.from_json(line)
    fields = tuple(map(line.get, own))
    if (
        len(kept) < _KEPT_MOST
        and all(f is None or type(f) is str for f in fields)
        and all(line.get(m) is None for m in secret_members())
        and (written := move.to_json()) == {m: f for m, f in zip(own, fields) if f is not None}
    ):
        kept[fields] = (move, len(written))
    return move


def _show(value: Any) -> str:
    return repr(value)


def _same(a: Any, b: Any) -> bool:
    """Equal, and of the same JSON types all the way down (``true`` is not ``1``)."""
    if type(a) is not type(b):
        return False
    if type(a) is list:
        if a == b and set(map(type, a)) <= _FLAT and set(map(type, b)) <= _FLAT:
            return True  # (lists of text and integers, as cards or counts: text equals only text)
        return len(a) == len(b) and all(map(_same, a, b))
    if type(a) is dict:
        return a.keys() == b.keys() and all(_same(v, b[k]) for k, v in a.items())
    equal: bool = a == b  # (two values of one JSON type: == gives a bool)
    return equal


_MISSING = object()
_FLAT = frozenset({str, int})  # (not bool: a JSON true equals 1)


def _compare(index: int, line: dict[str, Any], expected: dict[str, Any]) -> None:
    """Raise :class:`_Fail` naming the first field where ``line`` differs from the engine's event."""
    if "sig" not in line:
        chained = {**expected, "seq": line.get("seq"), "prev": line.get("prev")}
        if "at" in line:
            chained["at"] = line["at"]
        # Equal as Python values. A move's fields were type-checked before it was
        # applied; elsewhere an integer could still be a JSON true or false.
        if chained == line and (
            expected["type"] == "move" or all(map(_same, expected.values(), map(line.get, expected)))
        ):
            return
    kind = expected["type"]
    got = line.get("type")
    seeded = kind in _SEED_LINES
    if got != kind:
        if seeded:
            raise _Fail(index, Said("a {got} line, but the seed gives a {kind} line here", got=str(got), kind=kind))
        raise _Fail(index, Said("a {got} line, but the rules give a {kind} line here", got=str(got), kind=kind))
    for key, value in expected.items():
        found = line.get(key, _MISSING)
        if found is _MISSING or not _same(value, found):
            if found is _MISSING:
                if seeded:
                    raise _Fail(
                        index,
                        Said("{kind} has no {key}, but the seed gives {value}", kind=kind, key=key, value=_show(value)),
                    )
                raise _Fail(
                    index,
                    Said("{kind} has no {key}, but the rules give {value}", kind=kind, key=key, value=_show(value)),
                )
            values = {"kind": kind, "key": key, "found": _show(found), "value": _show(value)}
            if seeded:
                raise _Fail(index, Said("{kind} {key} {found} but the seed gives {value}", **values))
            raise _Fail(index, Said("{kind} {key} {found} but the rules give {value}", **values))
    _no_extra(index, line, expected.keys())


def _no_extra(index: int, line: dict[str, Any], allowed: Any) -> None:
    for key in line:
        if key not in allowed and key not in _CHAIN_FIELDS:
            raise _Fail(
                index,
                Said(
                    "{kind} has a field {key} that the format does not give", kind=str(line.get("type")), key=repr(key)
                ),
            )


def _created(created: Any) -> str:
    """The header's ``created``, if it is written as spec/record.md gives it (``YYYY-MM-DDTHH:MM:SSZ``)."""
    try:
        return check_created(created)
    except ValueError as exc:
        raise _Fail(0, Said("header {reason}", reason=str(exc))) from None


def _instant(ms: int) -> str:
    """``ms`` as an ``at`` spells it, or in milliseconds where no ``at`` can (past the year 9999:
    a header's ``turn_ms`` has no maximum, so a deadline may be there)."""
    try:
        return format_at(ms)
    except OverflowError:
        return f"{ms} ms after 1970 (past 9999-12-31)"


def _timing(timing: Any) -> dict[str, int]:
    """A format 2 game header's ``timing``: exactly turn_ms, bot_ms and next_hand_ms, each a
    whole number of milliseconds from 0."""
    if (
        not isinstance(timing, dict)
        or sorted(timing) != sorted(_TIMING)
        or not all(type(timing[k]) is int and timing[k] >= 0 for k in _TIMING)
    ):
        raise _Fail(
            0,
            Said(
                "header timing {timing} is not {{turn_ms, bot_ms, next_hand_ms}}, each whole milliseconds from 0",
                timing=_show(timing),
            ),
        )
    return dict(timing)


def _read_times(lines: Sequence[dict[str, Any]], report: Report) -> list[int | None]:
    """Each line's ``at`` in milliseconds for a format 2 record (``None`` where it is not well
    formed: :func:`_check_times` says so); nothing for format 1."""
    if report.format != FORMAT:
        return []
    ats = [line.get("at") for line in lines]
    try:
        # Each time read once: the lines of one move (its events), and moves made in the same
        # millisecond (a bot's), share one.
        read = dict.fromkeys(ats)
    except TypeError:  # an at that is no JSON text or number (a list, say)
        return list(map(at_ms, ats))
    for at in read:
        read[at] = at_ms(at)
    return list(map(read.__getitem__, ats))


def _check_times(
    lines: Sequence[dict[str, Any]], end: int, report: Report, times: Sequence[int | None] | None = None
) -> None:
    """Report the first of the first ``end`` lines whose time is wrong: in format 2 an ``at``
    not well formed or before the line before's; in format 1 any ``at`` (its lines have none).
    It runs after the replay, so that a line the replay refuses first keeps the replay's reason.
    ``times`` are the lines' times as :func:`_read_times` read them, if it did."""
    end = min(end, len(lines))
    if report.format == FORMAT and times and len(times) >= end:
        read = times[:end]
        if _all_read(read) and all(map(operator.le, read, read[1:])):
            return  # every time well formed, none before the one before: the loop finds nothing
    last: int | None = None
    for index in range(end):
        line = lines[index]
        if report.format != FORMAT:
            if "at" in line:
                report.fail(
                    index + 1, Said("a field 'at' in a {format} record (its lines have no time)", format=FORMAT_1)
                )
                return
            continue
        ms = times[index] if times else None
        if ms is None:  # not read yet, or not well formed: check_at says why
            try:
                ms = check_at(line.get("at"))
            except ValueError as exc:
                report.fail(index + 1, str(exc))
                return
        if last is not None and ms < last:
            report.fail(
                index + 1,
                Said(
                    "at {at} is before the line before's ({before}): times never go backwards",
                    at=str(line["at"]),
                    before=format_at(last),
                ),
            )
            return
        last = ms


def _all_read(times: Sequence[int | None]) -> TypeGuard[Sequence[int]]:
    """Whether every one of ``times`` was read (none is ``None``)."""
    return None not in times


def _seed_line(index: int, phase: SeedPhase, line: dict[str, Any]) -> None:
    """A line of the client seeds' commit-reveal, read by the one seed phase the server runs too."""
    try:
        phase.read(line)
    except SeedError as exc:
        raise _Fail(index, exc.reason) from None


def _header_keys(line: dict[str, Any], report: Report, key: str | None) -> None:
    """The header's time, commitment and server key (checked against a pinned ``key``), into ``report``."""
    report.created = _created(line.get("created"))
    report.format = line.get("format")
    if report.format == FORMAT:
        try:
            at = format_at(check_at(line.get("at")))
        except ValueError as exc:
            raise _Fail(0, Said("header {reason}", reason=str(exc))) from None
        if at[:19] + "Z" != report.created:
            raise _Fail(
                0,
                Said(
                    "header at {at} is not its created {created} (the same time to the second)",
                    at=repr(at),
                    created=repr(report.created),
                ),
            )
    report.commitment = line.get("commitment")
    if not isinstance(report.commitment, str) or not _HEX64.fullmatch(report.commitment):
        raise _Fail(0, Said("header commitment is not 64 lowercase hex digits"))
    server_key = line.get("server_key")
    if not isinstance(server_key, str) or not _HEX64.fullmatch(server_key):
        raise _Fail(0, Said("header server_key is not 64 lowercase hex digits (an Ed25519 public key)"))
    if key is not None and server_key != key:
        raise _Fail(
            0,
            Said(
                "the header's server_key {header}... is not the key you gave ({key}...)",
                header=server_key[:16],
                key=key[:16],
            ),
        )
    report.server_key = key or server_key


class _Replay:
    """The state of one verification, line by line."""

    def __init__(self, lines: Sequence[dict[str, Any]], report: Report, watch: Callable[[Step], None] | None):
        self.lines = lines
        self.report = report
        self.watch = watch
        self.rules: Rules[Any, Any] | None = None
        self.match: Match | None = None
        self.phase: SeedPhase | None = None
        self.revealed: dict[int, str] = {}
        """Each hand's secret (a game's :class:`~fairdeal.rules.base.Secret`), by hand number, as its reveal line gives it."""
        self.times: list[int | None] = []
        """Each line's ``at`` in milliseconds (format 2; ``None`` where it is not well formed)."""
        self.hand_times: dict[int | None, list[str | None]] = {}
        """Each hand's deal and end times (format 2), by hand number (``None`` for a game whose lines name none)."""
        self.types: list[Any] | None = None
        """Each line's ``type`` (:meth:`line_types`)."""

    # -- the header --------------------------------------------------------

    def header(self, key: str | None) -> None:
        report, line = self.report, self.lines[0]
        if line.get("type") != "header":
            raise _Fail(0, NOT_A_HEADER)
        fmt, protocol = line.get("format"), line.get("protocol")
        if fmt not in FORMATS:
            raise _Fail(0, unknown_format(fmt))
        if protocol != PROTOCOL:
            raise _Fail(0, unknown_protocol(protocol))
        if "kind" in line:
            raise _Fail(
                0,
                Said("unknown record kind {kind}: this verifier reads games and sessions", kind=repr(line["kind"])),
            )
        try:
            report.game_id = check_game_id(line.get("game_id"))
        except FairnessError as exc:
            raise _Fail(0, Said("header game_id: {reason}", reason=str(exc))) from None
        name: Any = line.get("rules")  # (as the line has it, None if absent: get refuses an unknown game)
        options = line.get("options")
        if not isinstance(options, dict):
            raise _Fail(0, Said("header options {options} is not a JSON object", options=_show(options)))
        try:
            self.rules = get(name, options)
        except OptionsError as exc:
            raise _Fail(0, Said("header: {reason}", reason=str(exc))) from None
        missing = [k for k in self.rules.options if k not in options]
        if missing:
            # Defaults may change between versions: a record names every option it was played with.
            raise _Fail(
                0,
                Said(
                    "header options do not give {option} (a record lists every option of {game})",
                    option=repr(missing[0]),
                    game=self.rules.name,
                ),
            )
        report.rules, report.options = self.rules.name, dict(self.rules.options)
        seats = line.get("seats")
        if not isinstance(seats, list):
            raise _Fail(0, Said("header seats is not a list"))
        for n, seat in enumerate(seats):
            if not isinstance(seat, dict) or type(seat.get("bot")) is not bool:
                raise _Fail(0, Said("header seat {n} needs a name and whether a bot plays it", n=n))
            seat_name = seat.get("name")
            if not isinstance(seat_name, str) or not 1 <= len(seat_name) <= MAX_SEAT_NAME:
                raise _Fail(0, Said("header seat {n}: a seat name is 1 to {most} characters", n=n, most=MAX_SEAT_NAME))
        try:
            self.rules.check_seats(len(seats))
        except OptionsError as exc:
            raise _Fail(0, Said("header seats: {reason}", reason=str(exc))) from None
        report.seats = [{"name": s["name"], "bot": s["bot"]} for s in seats]
        _header_keys(line, report, key)
        if fmt == FORMAT:
            report.timing = _timing(line.get("timing"))

    # -- the server seed ---------------------------------------------------

    def server_seed(self) -> str | None:
        """The revealed seed, checked against the header's commitment (``None`` before the reveal)."""
        types = self.line_types()
        if "reveal" not in types:
            return None
        index = types.index("reveal")  # the first reveal line
        line = self.lines[index]
        _no_extra(index, line, ("type", "server_seed"))
        seed = line.get("server_seed")
        if not isinstance(seed, str) or not _HEX64.fullmatch(seed):
            raise _Fail(index, Said("reveal server_seed is not 64 lowercase hex digits"))
        if commitment(seed) != self.report.commitment:
            raise _Fail(index, Said("the revealed server seed does not match the commitment in the header"))
        self.report.server_seed = seed
        return seed

    def line_types(self) -> list[Any]:
        """Every line's ``type``, in order: what the passes over the whole record before the
        replay look for (one list, searched in C, rather than a loop over the lines each)."""
        if self.types is None:
            self.types = [line.get("type") for line in self.lines]
        return self.types

    # -- a game's committed secrets -------------------------------------------

    def secrets(self, end: int) -> int:
        """Check every hand's revealed secret against its commitment, for a game that declares
        one (:class:`fairdeal.rules.base.Secret`; spec/fairness.md, "Secret rules"), as a player
        can at the hand's end without the server seed. Returns where the replay must stop:
        before a hand whose reveal fails, else ``end``. The secrets are kept for the replay,
        which needs a seat's secret before the hand's moves can be judged.
        """
        declared = self.rules.secret if self.rules is not None else None
        if declared is None:
            return end  # a game with no secret: its record's lines are its events', compared in the replay
        types = self.line_types()
        if declared.commitment not in types and declared.reveal not in types:
            return end
        noun = declared.noun
        # By the hand a commitment line gives, whatever it is: a reveal's hand is checked (an int).
        committed: dict[int, tuple[int, Any]] = {}
        for index in range(end):
            line = self.lines[index]
            kind = line.get("type")
            if kind == declared.commitment:
                hand = line.get("hand")
                if type(hand) is int:  # another hand is no round's: the replay finds the line unlike its event
                    committed.setdefault(hand, (index, line.get("commitment")))
            elif kind == declared.reveal:
                hand, secret, nonce = line.get("hand"), line.get(noun), line.get("nonce")
                if type(hand) is not int or hand in self.revealed:
                    self.report.fail(
                        index + 1,
                        Said(
                            "{kind} hand {hand} is not a round whose {noun} is still secret",
                            kind=kind,
                            hand=_show(hand),
                            noun=noun,
                        ),
                    )
                    return index
                if not isinstance(secret, str) or not isinstance(nonce, str) or not _HEX64.fullmatch(nonce):
                    self.report.fail(
                        index + 1,
                        Said(
                            "{kind} gives the {noun} as text and its nonce as 64 lowercase hex digits",
                            kind=kind,
                            noun=noun,
                        ),
                    )
                    return committed.get(hand, (index,))[0]
                if hand not in committed:
                    self.report.fail(
                        index + 1,
                        Said(
                            "the {noun} of round {hand} is revealed, but no line before commits to it",
                            noun=noun,
                            hand=hand,
                        ),
                    )
                    return index
                at, expected = committed[hand]
                if declared.digest(secret, nonce) != expected:
                    self.report.fail(
                        index + 1,
                        Said(
                            "the {noun} and nonce revealed for round {hand} do not match the commitment on line {line}",
                            noun=noun,
                            hand=hand,
                            line=at + 1,
                        ),
                    )
                    # Replay no move of that round (here and above): judged by a secret it was
                    # not committed to, they would fail first and hide which line is false.
                    return at
                self.revealed[hand] = secret
        return end

    def _secret_move(self, index: int, line: dict[str, Any], move: Move, hand: int) -> Move | None:
        """A move that gives the game's secret, as the record has it (without the secret), with
        the secret its hand revealed; ``None`` when that reveal is false (already reported, on
        its later line): the hand cannot be judged, and the replay stops here."""
        declared = self.rules.secret if self.rules is not None else None
        if declared is None or move.kind != declared.move:
            return move
        noun = declared.noun
        if noun in line:
            raise _Fail(
                index,
                Said(
                    "move has a field {field}: a secret {noun} is never written in its move "
                    "(only its round's {reveal} gives it)",
                    field=repr(noun),
                    noun=noun,
                    reveal=declared.reveal,
                ),
            )
        if hand in self.revealed:
            return declared.restored(move, self.revealed[hand])
        if self.report.error is not None:
            return None
        raise _Fail(
            index,
            Said(
                "the {noun} committed to here is never revealed (round {hand} has no {reveal} line)",
                noun=noun,
                hand=hand,
                reveal=declared.reveal,
            ),
        )

    # -- client seeds and the start ----------------------------------------

    def seeds(self, end: int) -> int:
        """Check the commit-reveal lines up to the start line; returns the start line's index."""
        report = self.report
        phase = self.phase = SeedPhase(len(report.seats), [s for s, seat in enumerate(report.seats) if not seat["bot"]])
        for index in range(1, end):
            line = self.lines[index]
            kind = line.get("type")
            if kind in SEED_LINES:
                _seed_line(index, phase, line)
                if kind == "start":
                    report.client_seeds, report.bots = phase.seat_seeds(), phase.bots()
                    return index
            elif kind in ("abandon", "reveal"):
                return index
            elif kind == "header":
                raise _Fail(index, Said("a second header"))
            else:
                raise _Fail(index, Said("a {kind} line before the start (client seeds come first)", kind=str(kind)))
        return end

    # -- the match ---------------------------------------------------------

    def play(self, start: int, end: int, seed: str) -> int:
        """Replay the lines from the start line to ``end``; returns the reveal's index (or ``end``)."""
        report, lines, rules = self.report, self.lines, self.rules
        assert (
            rules is not None
            and report.game_id is not None
            and report.client_seeds is not None
            and self.phase is not None
        )
        key = game_key(seed, report.game_id, report.client_seeds)
        match = self.match = Match(rules, len(report.seats), GameShuffle(key))
        pending: deque[dict[str, Any]] = deque(match.start())
        report.first_dealer = match.first_dealer
        if self.watch:
            self.watch(Step(start + 1, lines[start], list(pending), None, match, report))
        apply, watch, own = match.apply, self.watch, _own_members(rules)
        known, values = _KEPT.setdefault(own, {}), _values_of(own)
        secret_move = None if rules.secret is None else rules.secret.move
        plain = _CHAIN_FIELDS.isdisjoint(move_members())  # (no move has a member seq, prev, sig or at)
        # The turn's deadline (format 2): the time of the line after which the seat got the
        # turn (a move's last line, its events included) plus the turn times the rules' factor.
        # A draw that leaves the turn with its seat does not start it again (spec/record.md).
        # Only an auto-move's line needs the deadline: ``began`` is where the turn began (its
        # line, the state and whether the match was over then), read into one when it does.
        began = (start + len(pending), match.state, match.over)
        moves = 0
        closed = False  # the round's secrets revealed for an abandon that must follow
        index = start + 1
        try:
            while index < end:
                line = lines[index]
                if pending:
                    _compare(index, line, pending.popleft())
                    if line["type"] == "draw-for-deal":
                        report.draw = line["cards"]
                    elif line["type"] in ("deal", "hand-end"):
                        times = self.hand_times.setdefault(line.get("hand"), [None, None])
                        times[line["type"] == "hand-end"] = line.get("at")
                    index += 1
                    continue
                kind = line.get("type")
                if kind == "reveal":
                    if not match.over and report.abandoned is None:
                        raise _Fail(index, REVEALED_TOO_SOON)
                    return index
                if match.over or report.abandoned is not None:
                    ending = "abandon" if report.abandoned is not None else "match-end"
                    raise _Fail(
                        index,
                        Said(
                            "a {kind} line after the {ending}: only the reveal may follow",
                            kind=str(kind),
                            ending=ending,
                        ),
                    )
                if kind == "move":
                    seat = line.get("seat")
                    if type(seat) is not int:
                        raise _Fail(index, Said("move seat {seat} is not a seat number", seat=_show(seat)))
                    auto = line.get("auto", False)
                    if auto is not True and "auto" in line:
                        raise _Fail(index, Said("move auto {auto}: auto is true when present", auto=_show(auto)))
                    # A kept move, if the line holds nothing but what its event holds and the chain
                    # fields: type, seat, seq, prev, at, auto and the members it writes (see _KEPT).
                    try:
                        move, written = known[values(line)]
                        kept = (
                            plain
                            and len(line) == written + 4 + ("at" in line) + auto
                            and "seq" in line
                            and "prev" in line
                        )
                    except (KeyError, TypeError):
                        kept = False
                    if not kept:
                        try:
                            move = _read_move(line, own, known)
                        except MoveError as exc:
                            raise _Fail(index, str(exc)) from None
                    if move.kind == secret_move:  # (a game with a secret: no call for every other move)
                        restored = self._secret_move(index, line, move, match.hand_no)
                        if restored is None:
                            return end  # nothing from here on can be judged; the failure is reported
                        move, kept = restored, False
                    # (A line without a well-formed time is _check_times's to report.)
                    if auto:
                        turn = self._turn_from(*began)
                        if turn is not None and (at := self.times[index]) is not None and at < turn[0]:
                            due, first, factor = turn
                            assert report.timing is not None  # (a turn has a deadline only with a timing)
                            allowed = f"{report.timing['turn_ms']} ms" + (f" x {factor}" if factor != 1 else "")
                            raise _Fail(
                                index,
                                Said(
                                    "an auto-move at {at}, before its turn's deadline {due} "
                                    "(the turn began at line {first}, {began}, plus {allowed})",
                                    at=str(line["at"]),
                                    due=_instant(due),
                                    first=first + 1,
                                    began=str(lines[first]["at"]),
                                    allowed=allowed,
                                ),
                            )
                    # (Any, as after is: a started match's state, never None, which the loop does
                    # not test again.)
                    before: Any = match.state
                    try:
                        events = apply(seat, move, auto=auto)
                    except IllegalMove as exc:
                        raise _Fail(index, str(exc)) from None
                    # (match.hand_no, match.turn) before and after, read from the states: before a
                    # move the match is started, not over and (no held deals here) not between hands.
                    after: Any = match.state
                    if (
                        move.kind != "draw"
                        or after.hand != before.hand
                        or (None if match.over else after.turn) != before.turn
                    ):
                        began = (index + len(events) - 1, after, match.over)
                    # _compare's first test, here (nearly every line passes it), without the copy it
                    # makes: the line is the event and its seq, prev and at (the event has none of
                    # them when no move has such a member); _compare says why not. A kept move's
                    # line passed it before the move was made.
                    event = events[0]
                    if not kept and not (
                        plain
                        and "seq" in line
                        and "prev" in line
                        and "sig" not in line
                        and len(line) == len(event) + 2 + ("at" in line)
                        and line.items() >= event.items()
                    ):
                        _compare(index, line, event)
                    if len(events) > 1:
                        pending.extend(events[1:])
                    moves += 1
                    if watch:
                        watch(Step(index + 1, line, events, before, match, report))
                elif kind == "abandon":
                    if match.abandon_events() and not closed:
                        raise _Fail(index, Said("the game is abandoned before the round's secret rule is revealed"))
                    self.abandon(index, line)
                elif (closing := match.abandon_events()) and kind == closing[0]["type"] and not closed:
                    # An abandon in the middle of a round reveals what the round kept secret first.
                    pending.extend(closing)
                    closed = True
                    abandon_at = index + len(closing)
                    if abandon_at >= end or lines[abandon_at].get("type") != "abandon":
                        raise _Fail(
                            min(abandon_at, end - 1),
                            Said("the round's {kind} for an abandon must be followed by the abandon line", kind=kind),
                        )
                    continue
                elif kind in SEED_LINES:
                    _seed_line(index, self.phase, line)  # the phase is over: it says why not
                else:
                    raise _Fail(index, Said("a {kind} line where the rules expect a move", kind=str(kind)))
                index += 1
        finally:
            report.moves = moves
        return index

    def _turn_from(self, last: int, state: GameState | None, over: bool) -> tuple[int, int, int] | None:
        """The turn that starts after line ``last`` (0-based) in ``state`` (``over``: the match
        was over then): its deadline in milliseconds, that line, and the rules' factor; ``None``
        when no time is checked (format 1, no turn)."""
        timing = self.report.timing
        if timing is None or last >= len(self.times) or (last_ms := self.times[last]) is None:
            return None
        if over or state is None:
            return None
        assert self.rules is not None  # (the header read them before the replay)
        factor = self.rules.turn_factor(state)
        return last_ms + timing["turn_ms"] * factor, last, factor

    def abandon(self, index: int, line: dict[str, Any]) -> None:
        _no_extra(index, line, ("type", "reason"))
        reason = line.get("reason")
        if not isinstance(reason, str) or len(reason) > 200:
            raise _Fail(index, Said("abandon reason is text of at most 200 characters"))
        self.report.abandoned = reason

    def finish(self) -> None:
        """Copy the hands (and the standings, once the match is over) into the report."""
        match, report = self.match, self.report
        if match is None:
            return
        report.hands = []
        for h in match.hands:
            assert h.summary is not None  # (a replay's match never forgets them)
            report.hands.append(
                Hand(
                    h.hand,
                    h.dealer,
                    h.summary,
                    h.result.how,
                    h.result.winners,
                    h.result.counts,
                    h.result.scores,
                    h.totals,
                    h.result.reason,
                    _sheet_fields(h.sheet),
                    h.sheet,
                    *self.hand_times.get(h.hand, (None, None)),
                )
            )
        if match.hands:
            report.totals = list(match.totals)
        if match.over:
            report.standings = match.standings


def _sheet_fields(sheet: ScoreSheet | None) -> dict[str, Any]:
    """What a score sheet shows in a hand-end line besides the totals (``{}`` for a plain sheet)."""
    if sheet is None:
        return {}
    return {key: value for key, value in sheet.record().items() if key != "totals"}


NOT_REVEALED = Said(
    "the record ends here and the server seed is not revealed (a game in progress, or a truncated record)"
)
REVEALED_TOO_SOON = Said("the server seed is revealed before the game is over")
NOT_A_HEADER = Said("the first line is not a header")


def unknown_format(fmt: Any) -> Said:
    """Why a header of the record format ``fmt`` is not read (a game's or a session's)."""
    return Said(
        "unknown record format {format}: this verifier reads {formats}", format=repr(fmt), formats=and_words(FORMATS)
    )


def unknown_protocol(protocol: Any) -> Said:
    """Why a header of the fairness protocol ``protocol`` is not read."""
    return Said(
        "unknown fairness protocol {protocol}: this verifier knows {known} only",
        protocol=repr(protocol),
        known=PROTOCOL,
    )


def read_record(
    lines: str | bytes | Sequence[dict[str, Any]], key: str | None
) -> tuple[list[dict[str, Any]], list[str] | None, Report, str | None]:
    """The start of every check, a game's or a session's: the record's lines, their hashes
    (``None`` for lines given parsed), its report so far (failed at the first line that cannot
    be read, or for an empty record) and ``key`` as it is compared (lowercase).

    Raises ``ValueError`` for a ``key`` that is not 64 hex digits, and
    :class:`~fairdeal.record.RecordError` for text that is not a fairdeal record at all.

    >>> lines, hashes, report, key = read_record([], None)
    >>> lines, hashes, str(report.error)
    ([], None, 'line 1: the record is empty')
    """
    if key is not None:
        key = key.strip().lower()
        if not _HEX64.fullmatch(key):
            raise ValueError("a server key is 64 hex digits (the raw Ed25519 public key)")
    unreadable: Failure | None = None
    hashes: list[str] | None = None
    if isinstance(lines, (str, bytes)):
        lines, hashes, unreadable = read_lines(lines)
    lines = list(lines)
    report = Report(lines=len(lines), record=lines, hashes=hashes)
    if unreadable is not None:
        report.fail(unreadable.line, unreadable.reason)
        report.unread_from = unreadable.line
    if not lines:
        report.fail(1, Said("the record is empty"))
    return lines, hashes, report, key


def verify_game(
    lines: Sequence[dict[str, Any]],
    hashes: list[str] | None,
    report: Report,
    key: str | None,
    watch: Callable[[Step], None] | None = None,
) -> Report:
    """Check a game's record (not empty), as :func:`read_record` gave it; ``report`` filled in.
    :func:`fairdeal.verification.verify` reads a record and hands a game's here (a dealing
    session's to :func:`fairdeal.verification.session.verify_session`).

    ``key`` pins the server's published public key instead of trusting the header's.
    ``watch`` is called with a :class:`Step` for the start and every move, as the replay goes.
    """
    replay = _Replay(lines, report, watch)
    # The checks run in this order: the header, the chain and its signatures, the
    # server seed against its commitment, the client seeds, then the replay (only
    # of lines before any failure found so far). The earliest failing line wins.
    end = _header_and_chain(lambda: replay.header(key), lines, report, hashes)
    if end is None:
        return report
    replay.times = _read_times(lines, report)
    end = replay.secrets(end)
    try:
        seed = replay.server_seed()
        start = replay.seeds(end)
        if start < end:
            kind = lines[start]["type"]
            if kind == "reveal":
                raise _Fail(start, REVEALED_TOO_SOON)
            if kind == "abandon":
                replay.abandon(start, lines[start])
                reveal = start + 1
                if reveal < end and lines[reveal].get("type") != "reveal":
                    raise _Fail(
                        reveal,
                        Said(
                            "a {kind} line after the {ending}: only the reveal may follow",
                            kind=str(lines[reveal].get("type")),
                            ending="abandon",
                        ),
                    )
            elif seed is None:
                reveal = end
            else:
                reveal = replay.play(start, end, seed)
            if reveal + 1 < end:
                raise _Fail(
                    reveal + 1,
                    Said(
                        "a {kind} line after the reveal: the reveal is the last line",
                        kind=str(lines[reveal + 1].get("type")),
                    ),
                )
        if report.error is None and lines[-1].get("type") != "reveal":
            # Finished or not, a record without its reveal proves nothing yet.
            raise _Fail(end - 1, NOT_REVEALED)
    except _Fail as failure:
        report.fail(failure.index + 1, failure.reason)
    finally:
        replay.finish()
    _check_times(lines, len(lines) if report.error is None else report.error.line, report, replay.times)
    report.verified = report.error is None
    return report


def _header_and_chain(
    header: Callable[[], None], lines: Sequence[dict[str, Any]], report: Report, hashes: list[str] | None
) -> int | None:
    """Check the header (``header()``, which raises :class:`_Fail`), then the chain and its
    signatures: how many lines come before the first failure found, or ``None`` when the header
    fails (nothing after it can be checked; the report says why). A game's and a session's alike."""
    try:
        header()
    except _Fail as failure:
        report.fail(failure.index + 1, failure.reason)
        return None
    try:
        _chain(lines, report.server_key, hashes)
    except ChainError as exc:
        report.fail(exc.line, exc.reason)
    return len(lines) if report.error is None else report.error.line - 1


def _chain(lines: Sequence[dict[str, Any]], key: str | None, hashes: list[str] | None) -> None:
    """:func:`fairdeal.record.check_chain`, except for an unsigned last line of an unfinished record.

    A record that stops before its reveal (a game in progress) ends on a line
    the server did not sign; it does not verify anyway, and "not revealed"
    says why better than "not signed".
    """
    # A sig not written as the format writes it fails, even one that would check (in capitals, say);
    # the chain is checked up to that line, so that a line before it that breaks the chain is the verdict.
    signed = [index for index, line in enumerate(lines) if "sig" in line]
    unwritten = next(
        (
            index
            for index in signed
            if not (isinstance(lines[index]["sig"], str) and _SIG.fullmatch(lines[index]["sig"]))
        ),
        None,
    )
    end = len(lines) if unwritten is None else unwritten + 1
    unwritten_sig = Said("sig is not 128 lowercase hex digits (an Ed25519 signature)")
    try:
        check_chain(lines[:end], key, hashes=None if hashes is None else hashes[:end])
    except ChainError as exc:
        if exc.line == end and unwritten is not None:
            raise ChainError(end, unwritten_sig) from None
        last = lines[-1]
        unfinished_tail = (
            exc.line == len(lines) > 1
            and "sig" not in last
            and not (type(last.get("type")) is str and last["type"] in SIGNED_TYPES)  # (a list is unhashable)
            and last.get("seq") == len(lines) - 1
            and last.get("prev") == (line_hash(lines[-2]) if hashes is None else hashes[-2])
        )
        if not unfinished_tail:
            raise
    if unwritten is not None:
        raise ChainError(end, unwritten_sig)
