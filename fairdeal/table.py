"""A live game from its header to the reveal: the fair dealer, the match and the record in step.

:class:`Table` is what a server (fairdeal's own service, ``fairdeal
simulate``, or an operator's server) runs: each call checks the action,
applies it, and appends its lines to the signed record. It is also rebuilt
from a stored record plus the sealed server seed (:meth:`Table.restore`),
by applying the record's lines again; so a game that played is a game that
verifies.

>>> from fairdeal.record import Signer
>>> from fairdeal.rules import DEFAULT, get
>>> table = Table.new("t1", get(DEFAULT), [Seat("Ann"), Seat("Bot", bot=True)], Signer.generate(),
...                   created="2026-01-01T00:00:00Z")
>>> _ = table.commit(0, client_commitment("ann's seed"))
>>> _ = table.reveal_client_seed(0, "ann's seed")
>>> table.started
True
>>> while not table.match.over:
...     _ = table.move(table.match.turn, table.match.auto_move(), auto=True)
>>> table.reveal()["type"]
'reveal'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fairdeal.fairness import PROTOCOL
from fairdeal.fairness import Dealer
from fairdeal.fairness import client_commitment
from fairdeal.fairness import new_server_seed
from fairdeal.match import Match
from fairdeal.record import FORMAT
from fairdeal.record import Clock
from fairdeal.record import RecordWriter
from fairdeal.record import Signer
from fairdeal.record import time_ms
from fairdeal.rules import Move
from fairdeal.rules import Outcome
from fairdeal.rules import Rules
from fairdeal.rules import Standing
from fairdeal.rules import get
from fairdeal.rules.base import GameView
from fairdeal.said import Said
from fairdeal.seeding import SeededRecord
from fairdeal.seeding import new_writer
from fairdeal.seeding import restored_clock

__all__ = ["Seat", "Table", "TableError", "Timing", "client_commitment"]

MAX_NAME_CHARS = 40


class TableError(ValueError):
    """An action the table cannot take now (out of order, unknown seat, already done)."""


ABANDONED = Said("the game was abandoned")
NO_HAND_WAITING = Said("no hand is waiting to be dealt")


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat's public description: its name and whether a bot plays it."""

    name: str
    bot: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot}


@dataclass(frozen=True, slots=True)
class Timing:
    """The table's timer as its header gives it (``"timing"``, spec/record.md), in whole
    milliseconds: a person's turn (times the rules' ``turn_factor``), a bot's wait, and the
    longest pause between hands. All 0: no timer (a simulation: the auto-moves come at once).

    >>> Timing.of_seconds(20, 1, 20).to_json()
    {'turn_ms': 20000, 'bot_ms': 1000, 'next_hand_ms': 20000}
    """

    turn_ms: int = 0
    bot_ms: int = 0
    next_hand_ms: int = 0

    @classmethod
    def of_seconds(cls, turn: float, bot: float = 0.0, next_hand: float = 0.0) -> Timing:
        return cls(time_ms(turn), time_ms(bot), time_ms(next_hand))

    def to_json(self) -> dict[str, int]:
        return {"turn_ms": self.turn_ms, "bot_ms": self.bot_ms, "next_hand_ms": self.next_hand_ms}


class Table(SeededRecord):
    """One game: header, client seeds, the match, the reveal; every step a record line."""

    error = TableError

    def __init__(
        self,
        dealer: Dealer,
        rules: Rules[Any, Any],
        seats: Sequence[Seat],
        writer: RecordWriter,
        *,
        hold_deals: bool = False,
    ) -> None:
        super().__init__(dealer, writer)
        self.rules = rules
        self.seats = list(seats)
        # hold_deals: a hand's end waits for next_hand() (the pause between hands of a table
        # with people); the record's lines are the same, only the deal's come later.
        self.match = Match(rules, len(self.seats), dealer.shuffler, hold_deals=hold_deals)
        self.readied: set[int] = set()
        """The people who said they are ready for the next deal (not a record line: a server
        keeps it beside the record, and sets it back here before :meth:`ready`)."""
        self.bots: set[int] = {i for i, s in enumerate(self.seats) if s.bot}
        self.abandoned = False
        self._abandon_reason: str | None = None
        self._secret: str | None = None
        self._revealed: dict[int, str] = {}  # restore: each finished hand's secret, by hand

    def __repr__(self) -> str:
        # The commitment, never the seed: a repr ends up in logs and tracebacks.
        return (
            f"<Table {self.game_id!r} {self.rules.name} seats={len(self.seats)} seq={self.seq} "
            f"commitment={self.commitment[:16]}...>"
        )

    @classmethod
    def new(
        cls,
        game_id: str,
        rules: Rules[Any, Any],
        seats: Sequence[Seat],
        signer: Signer,
        *,
        created: str | None = None,
        clock: Clock | None = None,
        timing: Timing = Timing(),
        server_seed: str | None = None,
        extra: dict[str, Any] | None = None,
        hold_deals: bool = False,
    ) -> Table:
        """A new table and its header line. ``extra`` adds header fields;
        ``hold_deals``: the table pauses between hands (see :meth:`next_hand`).

        Every line gets the ``clock``'s time (``at``), the wall clock's when neither ``clock``
        nor ``created`` is given; the header's ``created`` is its time to the second. A
        ``created`` without a clock stamps the record ``created`` throughout (reproducible:
        tests, seeded simulations); a clock and a ``created`` must agree. ``timing`` is the
        timer the server runs (the verifier checks every auto-move against it). Without a
        ``server_seed`` the table draws a fresh one: store :attr:`server_seed`.
        """
        rules.check_seats(len(seats))
        writer, created, at = new_writer(signer, created, clock, TableError)
        for seat in seats:
            if not isinstance(seat.name, str) or not 1 <= len(seat.name) <= MAX_NAME_CHARS:
                raise TableError(f"a seat name is 1 to {MAX_NAME_CHARS} characters")
        humans = [i for i, s in enumerate(seats) if not s.bot]
        dealer = Dealer(game_id, len(seats), server_seed or new_server_seed(), humans)
        header = {
            "type": "header",
            "format": FORMAT,
            "protocol": PROTOCOL,
            "game_id": game_id,
            "rules": rules.name,
            "options": dict(rules.options),
            "seats": [s.to_json() for s in seats],
            "commitment": dealer.commitment,
            "server_key": signer.public_hex,
            "created": created,
            "timing": timing.to_json(),
            "at": at,
            **(extra or {}),
        }
        writer.append(header)
        table = cls(dealer, rules, seats, writer, hold_deals=hold_deals)
        if not humans:
            table.start()
        return table

    @classmethod
    def restore(
        cls,
        lines: Sequence[dict[str, Any]],
        server_seed: str,
        signer: Signer,
        *,
        secret: str | None = None,
        hold_deals: bool = False,
        clock: Clock | None = None,
    ) -> Table:
        """Rebuild a table from its stored record and sealed seed by applying every line again.

        ``secret`` is what :attr:`secret` was after the last line: the secret a seat gave in the
        hand in play, which no line holds yet (a finished hand's is in its reveal).
        ``hold_deals`` as the table was made: a record that ends on a ``hand-end`` (and no
        ``match-end``) is then a table between hands. ``clock`` stamps the lines to come (the
        stored ones keep their times); a format 1 record goes on without times, as it began.
        """
        header = lines[0]
        seats = [Seat(s["name"], s["bot"]) for s in header["seats"]]
        rules = get(header["rules"], header["options"])
        humans = [i for i, s in enumerate(seats) if not s.bot]
        dealer = Dealer(header["game_id"], len(seats), server_seed, humans)
        writer = RecordWriter(signer, lines[:1], clock=restored_clock(header, clock))
        table = cls(dealer, rules, seats, writer, hold_deals=hold_deals)
        table.catch_up(lines[1:], secret=secret)
        return table

    def catch_up(self, lines: Sequence[dict[str, Any]], *, secret: str | None = None) -> None:
        """Apply ``lines`` that follow this table's last one (another process appended them);
        ``secret`` is :attr:`secret` as of their last line (see :meth:`restore`)."""
        declared = self.rules.secret
        if declared is not None:
            self._revealed.update(
                (line["hand"], line[declared.noun]) for line in lines if line.get("type") == declared.reveal
            )
        self._secret = secret
        for line in lines:
            self.replay(line)

    def forget_written(self) -> int:
        """:meth:`SeededRecord.forget_written <fairdeal.seeding.SeededRecord.forget_written>`, and
        the finished hands' summaries too (:meth:`Match.forget_summaries
        <fairdeal.match.Match.forget_summaries>`: the record has them)."""
        self.match.forget_summaries()
        return super().forget_written()

    @property
    def secret(self) -> str | None:
        """The secret a server must keep, sealed, to :meth:`restore` this table: what a seat gave
        in the hand in play of a game that declares a :class:`~fairdeal.rules.base.Secret` (an
        Eleusis dealer's rule), until the hand's reveal; else ``None``. It is never a record
        line's, and never shown to another seat."""
        return self._secret

    def _replay_start(self, line: dict[str, Any]) -> None:
        self.bots = set(line["bots"])
        self.match.start()

    def _replay_other(self, line: dict[str, Any]) -> None:
        if self.match.between_hands and line["type"] != "hand-end":
            # A held table writes the next deal's lines after the pause; this is the first of them.
            self._deal_next_hand()
        if line["type"] == "move":
            move = Move.from_json(line)
            declared = self.rules.secret
            if declared is not None and move.kind == declared.move:
                # The record keeps the secret out of the move: its hand's reveal has it, or the sealed secret.
                text = self._revealed.get(self.match.hand_no, self._secret)
                if text is None:
                    raise TableError(
                        f"line {line['seq']}: the {declared.noun} is neither revealed nor given as the secret"
                    )
                move = declared.restored(move, text)
            self._apply(line["seat"], move, auto=line.get("auto", False))
        elif line["type"] == "abandon":
            self.abandoned = True
            self._abandon_reason = line["reason"]
        # draw-for-deal, deal, restock, hand-end, match-end follow from the lines before.

    @property
    def finished(self) -> bool:
        return self.match.over or self.abandoned

    # -- the face a server plays through -----------------------------------

    @property
    def over(self) -> bool:
        """Whether the game has ended: the match is over, or it was abandoned."""
        return self.finished

    @property
    def commitment(self) -> str:
        """The SHA-256 of the server seed: publish it before any client seed is taken."""
        return self.dealer.commitment

    @property
    def turn(self) -> int | None:
        """The seat to act, or ``None`` before the start and once the game is over."""
        return None if not self.started or self.finished else self.match.turn

    @property
    def standings(self) -> tuple[Standing, ...]:
        """Seats by total, highest first (equal totals share a place); the final ones once :attr:`over`."""
        return self.match.standings

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, once it is :attr:`over` (``None`` until then): the final
        standings and their :attr:`~fairdeal.rules.base.Outcome.winners`, or the reason it was
        abandoned. The verifier's report of the record says the same (``report.outcome``)."""
        if self.abandoned:
            return Outcome(None, self._abandon_reason)
        return Outcome(self.match.standings) if self.match.over else None

    def position(self) -> str:
        """The hand in play (the last hand, once over) as its exact JSON text (spec/state.md):
        every card where it is, the turn, the hand's counts. It holds every hidden card: keep it
        on the server (a bug report, a test, a puzzle), never show it to a seat. Read it back
        with :meth:`Match.from_position <fairdeal.match.Match.from_position>` or
        ``rules.state_from_json``; a table is never made from one (its record is the truth)."""
        if not self.started:
            raise TableError(Said("the game has not started: there is no position yet"))
        return self.match.position()

    def record_text(self) -> str:
        """The record so far as JSON Lines: what to store, serve and hand to :func:`fairdeal.verify`
        (a :class:`~fairdeal.record.RecordError` once :meth:`forget_written` dropped lines: the
        store has them)."""
        return self.writer.text()

    def legal_moves(self, seat: int) -> list[Move]:
        """The moves ``seat`` may make now: none when it is not its turn or the game is not in play."""
        if not self.started or self.finished:
            return []
        return self.match.legal_moves(seat)

    def is_legal(self, seat: int, move: Move) -> bool:
        """Whether ``seat`` may make ``move`` now (:meth:`move` would accept it)."""
        return move in self.legal_moves(seat)

    def view(self, seat: int | None) -> GameView:
        """What ``seat`` may see now (its own hand and the public table; ``None``: a spectator).

        Its ``to_json()`` is what fairdeal's HTTP API shows that seat.
        """
        if not self.started:
            raise TableError(Said("the game has not started: there are no cards to see yet"))
        return self.match.view(seat)

    # -- client seeds ------------------------------------------------------

    def start(self) -> dict[str, Any]:
        """Start now (the host's call): seats that have not revealed a seed are played by bots."""
        return super().start()

    def _start(self) -> dict[str, Any]:
        line = super()._start()
        self.bots = set(line["bots"])  # the header's bots, and every human seat that revealed no seed
        self.writer.extend(self.match.start())
        return line

    # -- play --------------------------------------------------------------

    def move(self, seat: int, move: Move, *, auto: bool = False, receipt: bool = True) -> dict[str, Any]:
        """Apply ``seat``'s move (rules' ``IllegalMove`` if not allowed); returns the move's signed receipt.

        ``receipt=False`` (a bot's move, or the timer's, that no client waits for) returns the
        move's record line instead and spares the signature.
        """
        if not self.started:
            raise TableError(Said("the game has not started"))
        if self.abandoned:
            raise TableError(ABANDONED)
        events = self._apply(seat, move, auto=auto)
        answer = self.writer.append(events[0], receipt=receipt)
        self.writer.extend(events[1:])
        return answer

    def _apply(self, seat: int, move: Move, *, auto: bool) -> list[dict[str, Any]]:
        """The match's events for ``move``, keeping :attr:`secret` in step with them."""
        events = self.match.apply(seat, move, auto=auto)
        declared = self.rules.secret
        if declared is not None:
            given = declared.carried(move)
            if given is not None:
                self._secret = given
            if any(event["type"] == declared.reveal for event in events):
                self._secret = None
        return events

    def abandon(self, reason: str = "abandoned by the host") -> dict[str, Any]:
        """End the game now: the hand's secrets are revealed first (so the record still
        verifies), then the ``abandon`` line, which is returned."""
        if self.finished:
            raise TableError(Said("the game is already over"))
        if self.between_hands:
            # Every hand-end that does not end the match is followed by the next deal, in every
            # record: the verifier reads a paused table's record as any other.
            self.next_hand()
        self.writer.extend(self.match.abandon_events())
        self._secret = None
        self.abandoned = True
        self._abandon_reason = reason[:200]
        return self.writer.append({"type": "abandon", "reason": self._abandon_reason})

    # -- between hands -----------------------------------------------------

    @property
    def between_hands(self) -> bool:
        """A hand has ended, the match goes on, and the next deal waits (a table that holds its deals)."""
        return self.started and not self.finished and self.match.between_hands

    @property
    def people(self) -> list[int]:
        """The seats a person plays: human seats the host did not hand to a bot."""
        return [i for i in range(len(self.seats)) if i not in self.bots]

    @property
    def waiting(self) -> list[int]:
        """The people the next deal still waits for (empty unless :attr:`between_hands`)."""
        return [i for i in self.people if i not in self.readied] if self.between_hands else []

    def ready(self, seat: int) -> bool:
        """``seat``'s person is ready for the next deal; whether every person is now. It writes no
        line: the server deals (:meth:`next_hand`) when all are ready or its countdown ends."""
        if not self.between_hands:
            raise TableError(NO_HAND_WAITING)
        if seat not in self.people:
            raise TableError(Said("seat {seat} is not played by a person", seat=seat))
        self.readied.add(seat)
        return not self.waiting

    def next_hand(self) -> list[dict[str, Any]]:
        """Deal the next hand now (everyone is ready, or the countdown ran out); returns its lines."""
        if not self.between_hands:
            raise TableError(NO_HAND_WAITING)
        start = self.seq
        self.writer.extend(self._deal_next_hand())
        return self.lines_since(start)

    def _deal_next_hand(self) -> list[dict[str, Any]]:
        self.readied = set()
        return self.match.next_hand()

    def _check_reveal(self) -> None:
        # Before the end the seed would show every hidden card of a game still in play.
        if not self.finished:
            raise TableError(Said("the server seed is revealed only when the game is over"))
