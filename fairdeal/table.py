"""A live game from its header to the reveal: the fair dealer, the match and the record in step.

:class:`Table` is what a server (fairdeal's own service, ``fairdeal
simulate``, or an operator's server) runs: each call checks the action,
applies it, and appends its lines to the signed record. It is also rebuilt
from a stored record plus the sealed server seed (:meth:`Table.restore`),
by applying the record's lines again; so a game that played is a game that
verifies.

>>> from fairdeal.record import Signer
>>> from fairdeal.rules import get
>>> table = Table.new("t1", get("crazy-eights"), [Seat("Ann"), Seat("Bot", bot=True)], Signer.generate(),
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

from fairdeal.fairness import PROTOCOL, Dealer, FairnessError, client_commitment, new_server_seed
from fairdeal.match import Match
from fairdeal.record import FORMAT, RecordWriter, Signer, line_hash
from fairdeal.rules import Move, Rules, get

__all__ = ["Seat", "Table", "TableError", "client_commitment"]

MAX_NAME_CHARS = 40


class TableError(ValueError):
    """An action the table cannot take now (out of order, unknown seat, already done)."""


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat's public description: its name and whether a bot plays it."""

    name: str
    bot: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot}


class Table:
    """One game: header, client seeds, the match, the reveal; every step a record line."""

    def __init__(self, dealer: Dealer, rules: Rules, seats: Sequence[Seat], writer: RecordWriter) -> None:
        self.dealer = dealer
        self.rules = rules
        self.seats = list(seats)
        self.writer = writer
        self.match = Match(rules, len(self.seats), dealer.shuffle)
        self.bots: set[int] = {i for i, s in enumerate(self.seats) if s.bot}
        self.started = False
        self.revealed = False
        self.abandoned = False

    @classmethod
    def new(
        cls,
        game_id: str,
        rules: Rules,
        seats: Sequence[Seat],
        signer: Signer,
        *,
        created: str,
        server_seed: str | None = None,
        extra: dict[str, Any] | None = None,
    ) -> Table:
        """A new table and its header line. ``extra`` adds header fields (e.g. the table's timer)."""
        rules.check_seats(len(seats))
        for seat in seats:
            if not isinstance(seat.name, str) or not 1 <= len(seat.name) <= MAX_NAME_CHARS:
                raise TableError(f"a seat name is 1 to {MAX_NAME_CHARS} characters")
        humans = [i for i, s in enumerate(seats) if not s.bot]
        dealer = Dealer(game_id, len(seats), server_seed or new_server_seed(), humans)
        writer = RecordWriter(signer)
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
            **(extra or {}),
        }
        writer.append(header)
        table = cls(dealer, rules, seats, writer)
        if not humans:
            table.start()
        return table

    @classmethod
    def restore(cls, lines: Sequence[dict[str, Any]], server_seed: str, signer: Signer) -> Table:
        """Rebuild a table from its stored record and sealed seed by applying every line again."""
        header = lines[0]
        seats = [Seat(s["name"], s["bot"]) for s in header["seats"]]
        rules = get(header["rules"], header["options"])
        humans = [i for i, s in enumerate(seats) if not s.bot]
        dealer = Dealer(header["game_id"], len(seats), server_seed, humans)
        table = cls(dealer, rules, seats, RecordWriter(signer, lines[:1]))
        for line in lines[1:]:
            table._replay(line)
        return table

    def replay(self, line: dict[str, Any]) -> None:
        """Apply one more stored line, e.g. one that another server process appended."""
        self._replay(line)

    def _replay(self, line: dict[str, Any]) -> None:
        kind = line["type"]
        if kind == "client-commit":
            self.dealer.commit(line["seat"], line["commitment"])
        elif kind == "client-reveal":
            self.dealer.reveal_client_seed(line["seat"], line["seed"])
        elif kind == "start":
            if not self.dealer.key_fixed:
                self.dealer.start()
            self.bots = set(line["bots"])
            self.match.start()
            self.started = True
        elif kind == "move":
            self.match.apply(line["seat"], Move.from_json(line), auto=line.get("auto", False))
        elif kind == "abandon":
            self.abandoned = True
        elif kind == "reveal":
            self.revealed = True
        # draw-for-deal, deal, restock, hand-end, match-end follow from the lines above.
        self.writer.lines.append(line)
        self.writer.head = line_hash(line)

    # -- the header's facts ------------------------------------------------

    @property
    def game_id(self) -> str:
        return self.dealer.game_id

    @property
    def lines(self) -> list[dict[str, Any]]:
        return self.writer.lines

    @property
    def seq(self) -> int:
        """The sequence number the next line will get."""
        return len(self.writer.lines)

    @property
    def finished(self) -> bool:
        return self.match.over or self.abandoned

    # -- client seeds ------------------------------------------------------

    def _seed_step(self, seat: int) -> None:
        if not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise TableError(f"there is no seat {seat!r}")
        if self.started:
            raise TableError("the game has started: client seeds are closed")
        if seat in self.bots:
            raise TableError(f"seat {seat} is played by a bot and brings no client seed")

    def commit(self, seat: int, commitment_hex: str) -> dict[str, Any]:
        """Record ``seat``'s client-seed commitment; returns its receipt."""
        self._seed_step(seat)
        try:
            self.dealer.commit(seat, commitment_hex)
        except FairnessError as exc:
            raise TableError(str(exc)) from None
        return self.writer.append(
            {"type": "client-commit", "seat": seat, "commitment": self.dealer.client_commitments[seat]},
            receipt=True,
        )

    def reveal_client_seed(self, seat: int, seed: str) -> dict[str, Any]:
        """Record ``seat``'s client seed; the game starts when the last human seat has revealed."""
        self._seed_step(seat)
        try:
            self.dealer.reveal_client_seed(seat, seed)
        except FairnessError as exc:
            raise TableError(str(exc)) from None
        receipt = self.writer.append({"type": "client-reveal", "seat": seat, "seed": seed}, receipt=True)
        if self.dealer.key_fixed:
            self._start()
        return receipt

    def start(self) -> dict[str, Any]:
        """Start now (the host's call): seats that have not revealed a seed are played by bots."""
        if self.started:
            raise TableError("the game has already started")
        self.dealer.start()
        return self._start()

    def _start(self) -> dict[str, Any]:
        self.bots |= {s for s in self.dealer.humans if s not in self.dealer.client_seeds}
        line = self.writer.append(
            {"type": "start", "client_seeds": self.dealer.seat_seeds(), "bots": sorted(self.bots)}
        )
        self.started = True
        self.writer.extend(self.match.start())
        return line

    # -- play --------------------------------------------------------------

    def move(self, seat: int, move: Move, *, auto: bool = False) -> dict[str, Any]:
        """Apply ``seat``'s move (rules' ``IllegalMove`` if not allowed); returns the move's receipt."""
        if not self.started:
            raise TableError("the game has not started")
        if self.abandoned:
            raise TableError("the game was abandoned")
        events = self.match.apply(seat, move, auto=auto)
        receipt = self.writer.append(events[0], receipt=True)
        self.writer.extend(events[1:])
        return receipt

    def abandon(self, reason: str = "abandoned by the host") -> dict[str, Any]:
        if self.finished:
            raise TableError("the game is already over")
        self.abandoned = True
        return self.writer.append({"type": "abandon", "reason": reason[:200]})

    def reveal(self) -> dict[str, Any]:
        """Append the server seed; only once the match is over or abandoned."""
        if self.revealed:
            raise TableError("the server seed is already revealed")
        if not self.finished:
            raise TableError("the server seed is revealed only when the game is over")
        self.revealed = True
        return self.writer.append({"type": "reveal", "server_seed": self.dealer.reveal()})
