"""Eleusis's round as the rules keep it: the state (:class:`EleusisState`), a play waiting for
the Forecaster's call (:class:`Pending`) and how each play was judged (:class:`Judgement`).

They are in a module of their own because both the rules (:mod:`fairdeal.rules.eleusis`) and
what seats and records see (:mod:`fairdeal.rules.eleusis_views`) use them, and the rules import
the views: the rules' module re-exports them.

>>> player_order(4, 1, False), rejected_cards([[("7H",), ("8H", "9H")], []])
((2, 3, 0), 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fairdeal.cards import Card
from fairdeal.cards import codes
from fairdeal.rules.summary import HandResult

__all__ = [
    "EleusisState",
    "Judgement",
    "NOT_DEALT_BONUS",
    "PHASES",
    "Pending",
    "player_order",
    "rejected_cards",
]

NOT_DEALT_BONUS = 10
"""Seat mode, fewer rounds than seats: each seat that has not dealt gets this at the end."""

PHASES = ("rule", "play", "offer", "call", "over")
"""``rule``: the seat-mode dealer picks the rule; ``play``: a player's turn; ``offer``: the
player who just played may declare himself Forecaster; ``call``: the Forecaster calls the
pending play; ``over``: the round has ended."""


# -- the round's record -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pending:
    """A play waiting for the Forecaster's call: ``play`` is ``"play"``, ``"string"`` or
    ``"no-play"``; ``cards`` the cards played, or for a no-play the hand he showed."""

    seat: int
    play: str
    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "play": self.play, "cards": codes(self.cards)}


@dataclass(frozen=True, slots=True)
class Judgement:
    """How one play was judged, as the whole table saw it.

    ``right``: the card or string was right, or the no-play declaration was (no card of
    the hand fitted). ``mainline_size`` and ``rejected`` are the mainline's length and the
    sideline cards before the play (what the rule was asked with). ``penalty``: cards the
    player drew; ``dealer_card``: the card the dealer (or, on a correct call, the
    Forecaster) put on the mainline from a wrong no-play's hand; ``returned`` and ``fresh``:
    a right no-play's hand gone to the stock and the fresh hand dealt.
    """

    seat: int
    play: str
    cards: tuple[Card, ...]
    right: bool
    mainline_size: int
    rejected: int
    penalty: int = 0
    dealer_card: Card | None = None
    returned: int = 0
    fresh: int = 0
    forecaster: int | None = None
    call: str | None = None
    call_card: Card | None = None
    overthrown: bool = False
    forecaster_penalty: int = 0
    expelled: bool = False

    def to_json(self) -> dict[str, Any]:
        """The judgement as its record line has it: what every play has, then only what
        happened (no Forecaster's call, no dealer's card, nobody expelled: those fields are left
        out, so a line says what a reader needs and nothing more).

        >>> Judgement(2, "play", (Card.parse("7H"),), True, 5, 0).to_json()
        {'seat': 2, 'play': 'play', 'cards': ['7H'], 'right': True, 'mainline_size': 5, 'rejected': 0, 'penalty': 0}
        """
        out: dict[str, Any] = {
            "seat": self.seat,
            "play": self.play,
            "cards": codes(self.cards),
            "right": self.right,
            "mainline_size": self.mainline_size,
            "rejected": self.rejected,
            "penalty": self.penalty,
        }
        for name, value, nothing in (
            ("dealer_card", None if self.dealer_card is None else self.dealer_card.code, None),
            ("returned", self.returned, 0),
            ("fresh", self.fresh, 0),
            ("forecaster", self.forecaster, None),  # a seat: 0 is somebody
            ("call", self.call, None),
            ("call_card", None if self.call_card is None else self.call_card.code, None),
            ("overthrown", self.overthrown, False),
            ("forecaster_penalty", self.forecaster_penalty, 0),
            ("expelled", self.expelled, False),
        ):
            if value is not nothing and value != nothing:
                out[name] = value
        return out


@dataclass(frozen=True, slots=True)
class EleusisState:
    """One round of Eleusis, everything included (hidden cards and the secret rule too)."""

    hand: int
    dealer: int
    server_deals: bool
    """The server deals and holds the rule (every seat plays); else seat ``dealer`` does."""
    hands: tuple[tuple[Card, ...], ...]
    """Each seat's cards (the dealing seat's stays empty)."""
    stock: tuple[Card, ...]
    """Top first."""
    mainline: tuple[Card, ...]
    """The starter first."""
    sidelines: tuple[tuple[tuple[Card, ...], ...], ...]
    """One list per mainline card: the rejected plays put below it, in order, each an entry
    of the cards of one play (a string stays together)."""
    turn: int | None
    phase: str
    rule: str | None
    """The secret rule's canonical text; ``None`` until the seat-mode dealer gives it."""
    nonce: str
    """The rule commitment's nonce (64 hex digits), drawn from the fair dealer's stream."""
    commitment: str | None
    """``rule_commitment(rule, nonce)`` once the rule is given."""
    chosen: int
    """The index in ``LIBRARY`` the server's shuffle picked: its rule, or the seat-mode
    dealer's timed-out choice."""
    first: int
    """The player the count from the starter made first to play."""
    forecaster: int | None = None
    marker: int | None = None
    """The mainline index of the card the Forecaster's marker is on."""
    marker_layout: int = 0
    """Cards on the layout when the marker was put down (those that precede it)."""
    was_forecaster: frozenset[int] = frozenset()
    expelled: frozenset[int] = frozenset()
    pending: Pending | None = None
    restocks: int = 0
    judgements: tuple[Judgement, ...] = ()
    result: HandResult | None = None
    dealt: tuple[tuple[Card, ...], ...] = ()
    """The hands as dealt, for the report."""
    restocked: tuple[tuple[Card, ...], ...] = ()
    """Each restock's pack as shuffled, top first, for the report."""
    dealer_score: int | None = None
    """The dealer's score once the round is over (in server mode no seat gets it)."""
    forecaster_bonus: int = 0
    """The Forecaster's bonus at the round's end (0 without one)."""
    not_dealt: frozenset[int] = frozenset()
    """Seats given the not-dealt bonus in this, the game's last round."""

    @property
    def seats(self) -> int:
        return len(self.hands)

    @property
    def layout_size(self) -> int:
        return len(self.mainline) + rejected_cards(self.sidelines)

    @property
    def players(self) -> tuple[int, ...]:
        return player_order(self.seats, self.dealer, self.server_deals)


def player_order(seats: int, dealer: int, server_deals: bool) -> tuple[int, ...]:
    """The players clockwise from the dealer's left: the dealing seat is left out when a
    seat deals; when the server deals every seat plays, ``dealer`` last.

    >>> player_order(4, 1, False), player_order(4, 1, True)
    ((2, 3, 0), (2, 3, 0, 1))
    """
    order = tuple((dealer + k) % seats for k in range(1, seats + 1))
    return order if server_deals else order[:-1]


def rejected_cards(sidelines: Sequence[Sequence[Sequence[Card]]]) -> int:
    """How many cards the sidelines hold."""
    return sum(len(entry) for column in sidelines for entry in column)
