"""A generic dealing session: protocol v1's commit-reveal and shuffles by label, for games fairdeal does not know.

An operator's server opens a session, lets its players commit to and reveal
client seeds, then asks for shuffles of any card list under labels of its
choosing; at the end the server seed is revealed and anyone can derive every
shuffle again. The record (spec/sessions.md) keeps what was shuffled under
which label, never the order: the orders are hidden cards until the reveal.

Like :class:`~fairdeal.table.Table` it needs no web server: this class is
the whole session, and the service only stores its lines.

>>> from fairdeal.record import Signer
>>> session = DealingSession.new("s1", 1, Signer.generate(), created="2026-01-01T00:00:00Z")
>>> _ = session.commit(0, client_commitment("my seed"))
>>> _ = session.reveal_client_seed(0, "my seed")
>>> order, receipt = session.shuffle("round/1", parse_cards("AS KS QS JS"))
>>> sorted(codes(order))
['AS', 'JS', 'KS', 'QS']
>>> session.reveal()["type"], codes(session.order("round/1")) == codes(order)
('reveal', True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fairdeal.cards import Card
from fairdeal.cards import codes
from fairdeal.cards import parse_cards
from fairdeal.fairness import PROTOCOL
from fairdeal.fairness import Dealer
from fairdeal.fairness import FairnessError
from fairdeal.fairness import check_label
from fairdeal.fairness import client_commitment
from fairdeal.fairness import new_server_seed
from fairdeal.record import FORMAT
from fairdeal.record import Clock
from fairdeal.record import RecordWriter
from fairdeal.record import Signer
from fairdeal.seeding import SeededRecord
from fairdeal.seeding import new_writer
from fairdeal.seeding import restored_clock

__all__ = ["DealingSession", "SessionError", "MAX_SESSION_SEATS", "MAX_SHUFFLE_CARDS", "client_commitment"]

MAX_SESSION_SEATS = 16
MAX_SHUFFLE_CARDS = 1024
"""Twenty packs: more than any card game deals from."""


class SessionError(ValueError):
    """A session step out of order: shuffling before the key is fixed, after the reveal, or
    under a label that has dealt already. (Input the protocol refuses, such as a bad label,
    is a :class:`~fairdeal.fairness.FairnessError`.)"""


class DealingSession(SeededRecord):
    """One dealing session: header, client seeds, shuffles by label, the reveal; every step a record line."""

    error = SessionError
    what = "session"

    def __init__(self, dealer: Dealer, writer: RecordWriter, label_prefix: str = "") -> None:
        super().__init__(dealer, writer)
        self.label_prefix = label_prefix
        self.shuffles: dict[str, tuple[Card, ...]] = {}
        """Each label's input cards, in the order given."""

    @classmethod
    def new(
        cls,
        session_id: str,
        seats: int,
        signer: Signer,
        *,
        created: str | None = None,
        clock: Clock | None = None,
        label_prefix: str = "",
        server_seed: str | None = None,
    ) -> DealingSession:
        """A new session for ``seats`` client seeds and its header line.

        A server that deals for no player opens one seat and starts at once:
        that seat's seed is then the empty string.
        """
        if isinstance(seats, bool) or not isinstance(seats, int) or not 1 <= seats <= MAX_SESSION_SEATS:
            raise SessionError(f"a session has 1 to {MAX_SESSION_SEATS} seats")
        if label_prefix:
            check_label(label_prefix)
        writer, created, at = new_writer(signer, created, clock, SessionError)
        dealer = Dealer(session_id, seats, server_seed or new_server_seed())
        writer.append(
            {
                "type": "header",
                "format": FORMAT,
                "protocol": PROTOCOL,
                "kind": "session",
                "game_id": session_id,
                "rules": None,
                "seats": seats,
                "label_prefix": label_prefix,
                "commitment": dealer.commitment,
                "server_key": signer.public_hex,
                "created": created,
                "at": at,
            }
        )
        return cls(dealer, writer, label_prefix)

    @classmethod
    def restore(
        cls, lines: Sequence[dict[str, Any]], server_seed: str, signer: Signer, *, clock: Clock | None = None
    ) -> DealingSession:
        """Rebuild a session from its stored record and sealed seed; ``clock`` stamps the lines to come."""
        header = lines[0]
        dealer = Dealer(header["game_id"], header["seats"], server_seed)
        writer = RecordWriter(signer, lines[:1], clock=restored_clock(header, clock))
        session = cls(dealer, writer, header.get("label_prefix", ""))
        for line in lines[1:]:
            session.replay(line)
        return session

    def _replay_other(self, line: dict[str, Any]) -> None:
        if line["type"] == "shuffle":
            self.shuffles[line["label"]] = tuple(parse_cards(line["cards"]))

    @property
    def session_id(self) -> str:
        return self.dealer.game_id

    @property
    def seats(self) -> int:
        return self.dealer.seats

    def shuffle(self, label: str, cards: Sequence[Card]) -> tuple[list[Card], dict[str, Any]]:
        """Shuffle ``cards`` by ``label``: the order (top first) and the signed receipt of its line.

        The line records the label and the input cards, not the order.
        """
        if not self.started:
            raise SessionError("the client seeds are still open: the session has not started")
        if self.revealed:
            raise SessionError("the server seed is revealed: this session deals no more")
        check_label(label)
        if not label.startswith(self.label_prefix):
            raise FairnessError(f"this session's labels start with {self.label_prefix!r}, not {label!r}")
        if not 1 <= len(cards) <= MAX_SHUFFLE_CARDS:
            raise FairnessError(f"a shuffle takes 1 to {MAX_SHUFFLE_CARDS} cards, not {len(cards)}")
        if label in self.shuffles:
            raise SessionError(f"label {label!r} has already dealt in this session")
        order = self.dealer.shuffle(label, cards)
        self.shuffles[label] = tuple(cards)
        line = {"type": "shuffle", "label": label, "cards": codes(cards), "count": len(cards)}
        return order, self.writer.append(line, sign=True, receipt=True)

    def order(self, label: str) -> list[Card]:
        """The order ``label`` dealt, derived again (the key must be fixed)."""
        if label not in self.shuffles:
            raise SessionError(f"label {label!r} has not dealt in this session")
        return self.dealer.shuffle(label, self.shuffles[label])
