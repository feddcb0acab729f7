"""What every recorded deal shares: the client seeds' commit-reveal and the server seed's reveal, as record lines.

A live :class:`~fairdeal.table.Table` and a generic
:class:`~fairdeal.service.dealing.DealingSession` both run protocol v1's
sequence (spec/fairness.md): every seat that brings a client seed commits,
then reveals; the key is fixed when the last one has revealed (or when the
host starts early); the server seed is revealed at the end. The sequence is
the dealer's :class:`~fairdeal.fairness.SeedPhase`, the one the verifier
reads records with; this base class turns its steps into lines, and a
subclass says what follows the ``start`` line.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any
from typing import ClassVar

from fairdeal.fairness import Dealer
from fairdeal.fairness import FairnessError
from fairdeal.fairness import SeedError
from fairdeal.record import FORMAT
from fairdeal.record import Clock
from fairdeal.record import RecordWriter
from fairdeal.record import Signer
from fairdeal.record import check_created
from fairdeal.record import fixed_clock
from fairdeal.record import format_at
from fairdeal.said import Said

__all__ = ["SeededRecord", "new_writer", "restored_clock"]


def new_writer(
    signer: Signer, created: str | None, clock: Clock | None, error: type[ValueError]
) -> tuple[RecordWriter, str, str]:
    """A format 2 record's writer, its header's ``created`` and ``at``: the ``clock``'s time
    (``created`` is ``at`` to the second, and must agree when both are given). A ``created``
    without a clock stamps the record ``created`` throughout: reproducible (tests, seeded
    simulations); neither: the wall clock (:func:`time.time`). Bad input is ``error``."""
    try:
        if clock is None:
            # created alone is the time of every line (and must be one); without it a live record
            # reads the wall clock, as a server passing clock=time.time would.
            clock = time.time if created is None else fixed_clock(check_created(created))
        writer = RecordWriter(signer, clock=clock)
        at = format_at(writer.now_ms())
        if created is None:
            created = at[:19] + "Z"
        check_created(created)
        if created != at[:19] + "Z":
            raise ValueError(f"created {created!r} is not the clock's time {at!r} to the second")
    except ValueError as exc:
        raise error(str(exc)) from None
    return writer, created, at


def restored_clock(header: dict[str, Any], clock: Clock | None) -> Clock | None:
    """The clock a restored record goes on with: none for a format 1 record (no line of it has
    a time: it ends as it began); for format 2 the one given, else the last line's time again
    (the writer never stamps a line before the one before it)."""
    if header.get("format") != FORMAT:
        return None
    return clock if clock is not None else (lambda: 0.0)


class SeededRecord:
    """A record whose hidden cards follow from a :class:`~fairdeal.fairness.Dealer`'s seeds."""

    error: ClassVar[type[ValueError]] = ValueError
    """The error a step out of order raises (a subclass of ``ValueError``)."""
    what: ClassVar[str] = "game"
    """What to call it in messages: ``"the game has started"``."""

    def __init__(self, dealer: Dealer, writer: RecordWriter) -> None:
        self.dealer = dealer
        self.writer = writer
        self.started = False
        self.revealed = False

    @property
    def game_id(self) -> str:
        return self.dealer.game_id

    @property
    def lines(self) -> list[dict[str, Any]]:
        """The record's lines: all of them, unless :meth:`forget_written` dropped those before the last."""
        return self.writer.lines

    @property
    def seq(self) -> int:
        """The sequence number the next line will get."""
        return self.writer.seq

    def lines_since(self, seq: int) -> list[dict[str, Any]]:
        """The lines from number ``seq`` on: what the calls since the record was ``seq`` lines long added."""
        return self.writer.since(seq)

    def forget_written(self) -> int:
        """Keep the state at the last line, not the lines: a server calls it once it has stored
        them (the store keeps the record; a long game's lines would otherwise stay in memory
        twice). Every call goes on as before, except :attr:`lines`, which then holds the last
        line and those after it, and the record's whole text (read it from the store). Returns
        how many lines were dropped. A caller that keeps the record here never calls it.

        >>> from fairdeal.record import Signer
        >>> from fairdeal.rules import DEFAULT, get
        >>> from fairdeal.table import Seat, Table
        >>> signer = Signer.generate()
        >>> table = Table.new("t1", get(DEFAULT), [Seat("Bot 1", bot=True), Seat("Bot 2", bot=True)], signer,
        ...                   created="2026-01-01T00:00:00Z", server_seed="00" * 32)
        >>> stored = list(table.lines)                  # the server stores the lines...
        >>> table.forget_written() == len(stored) - 1   # ...and keeps the last alone
        True
        >>> _ = table.move(table.match.turn, table.match.auto_move(), auto=True)
        >>> stored += table.lines_since(len(stored))    # what the move added, to store
        >>> table.forget_written() > 0, Table.restore(stored, "00" * 32, signer).lines == stored
        (True, True)
        """
        return self.writer.forget()

    @property
    def server_seed(self) -> str:
        """The server seed: store it sealed beside the record (:meth:`Table.restore
        <fairdeal.table.Table.restore>` needs both). It is the secret of the game until the
        reveal: whoever reads it can derive every hidden card. Reading it reveals nothing and
        closes nothing (unlike :meth:`reveal`, which writes it into the record)."""
        return self.dealer.server_seed

    @property
    def revealed_seed(self) -> str | None:
        """The server seed once the record reveals it (a line of it may be forgotten since); else ``None``."""
        return self.dealer.reveal() if self.revealed else None

    # -- client seeds ------------------------------------------------------
    # The sequence itself is the dealer's SeedPhase (fairdeal.fairness), the same one the
    # verifier reads records with; here each step it takes becomes a line.

    def _seeding(self, step: Callable[..., None], *args: Any) -> None:
        """Take a step of the dealer's seed phase. A step out of order is this record's
        :attr:`error`; a value that is wrong in itself (a seed that does not match its
        commitment) stays a :class:`~fairdeal.fairness.SeedError`, a ``FairnessError``."""
        if self.started:
            if self.what == "session":
                raise self.error(Said("the session has started: client seeds are closed"))
            raise self.error(Said("the game has started: client seeds are closed"))
        try:
            step(*args)
        except SeedError as exc:
            if not exc.out_of_order:
                raise
            raise self.error(exc.reason) from None
        except FairnessError as exc:
            raise self.error(str(exc)) from None

    def commit(self, seat: int, commitment_hex: str) -> dict[str, Any]:
        """Record ``seat``'s client-seed commitment; returns its receipt."""
        self._seeding(self.dealer.commit, seat, commitment_hex)
        line = {"type": "client-commit", "seat": seat, "commitment": self.dealer.client_commitments[seat]}
        return self.writer.append(line, receipt=True)

    def reveal_client_seed(self, seat: int, seed: str) -> dict[str, Any]:
        """Record ``seat``'s client seed; it starts when the last seat has revealed. Returns its receipt."""
        self._seeding(self.dealer.reveal_client_seed, seat, seed)
        receipt = self.writer.append({"type": "client-reveal", "seat": seat, "seed": seed}, receipt=True)
        if self.dealer.key_fixed:
            self._start()
        return receipt

    def start(self) -> dict[str, Any]:
        """Fix the key now: seats that have not revealed a seed use the empty string."""
        session = self.what == "session"
        if self.started:
            raise self.error(
                Said("the session has already started") if session else Said("the game has already started")
            )
        if self.revealed:
            if session:
                raise self.error(Said("the server seed is revealed: this session deals no more"))
            raise self.error(Said("the server seed is revealed: this game deals no more"))
        self.dealer.start()
        return self._start()

    def _start(self) -> dict[str, Any]:
        """Append the ``start`` line (and whatever follows at once); returns the start line."""
        self.started = True
        return self.writer.append(self.dealer.start_line())

    # -- the end -----------------------------------------------------------

    def _check_reveal(self) -> None:
        """Raise :attr:`error` when the server seed may not be revealed yet."""

    def reveal(self) -> dict[str, Any]:
        """Append the server seed: after it anyone can derive every hidden card."""
        if self.revealed:
            raise self.error(Said("the server seed is already revealed"))
        self._check_reveal()
        self.revealed = True
        return self.writer.append({"type": "reveal", "server_seed": self.dealer.reveal()})

    # -- rebuilding from a stored record -------------------------------------

    def replay(self, line: dict[str, Any]) -> None:
        """Apply one more stored line again, e.g. one that another server process appended."""
        kind = line["type"]
        if kind == "client-commit":
            self.dealer.commit(line["seat"], line["commitment"])
        elif kind == "client-reveal":
            self.dealer.reveal_client_seed(line["seat"], line["seed"])
        elif kind == "start":
            if not self.dealer.key_fixed:
                self.dealer.start()
            self.started = True
            self._replay_start(line)
        elif kind == "reveal":
            self.revealed = True
        else:
            self._replay_other(line)
        self.writer.replayed(line)

    def _replay_start(self, line: dict[str, Any]) -> None:
        """What a stored ``start`` line sets besides the key."""

    def _replay_other(self, line: dict[str, Any]) -> None:
        """Apply a stored line of the subclass's own types (others follow from the lines before)."""
