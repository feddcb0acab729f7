"""How a finished hand is described: its typed summary, and the text helpers every report shares.

A game's :meth:`~fairdeal.rules.base.Rules.summary` returns a :class:`HandSummary`,
a frozen dataclass of its family (Crazy Eights: the deal, the cards turned for the
starter, the restocks). Its :meth:`~HandSummary.to_json` is the hand's fields in the
verifier's JSON report (and what the browser reads); its :meth:`~HandSummary.lines`
are the text report's lines for the hand, with seats named by a :class:`SeatNames`.

The text helpers (:func:`safe`, :func:`display`, :class:`SeatNames`) live here so that
the rules describe their hands and moves with the same words the verifier prints.

>>> from fairdeal.cards import parse_cards
>>> names = SeatNames(("Ann", "Bob\\nVERIFIED"))
>>> names.seat(1), names.seat(5), names.side((0, 1))
("seat 1 ('Bob\\\\nVERIFIED')", 'seat 5', "seats 0 (Ann) and 1 ('Bob\\\\nVERIFIED')")
>>> summary = HandSummary(deal=(tuple(parse_cards("8H TC")), tuple(parse_cards("2S"))))
>>> summary.to_json()
{'deal': [['8H', 'TC'], ['2S']]}
>>> summary.lines(SeatNames(("Ann", "Bob")))
['  seat 0 Ann  8♥ 10♣', '  seat 1 Bob  2♠']
>>> summary.deal[1][0].display
'2♠'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fairdeal.cards import Card
from fairdeal.cards import CardError
from fairdeal.cards import codes

__all__ = [
    "HandResult",
    "HandSummary",
    "SeatNames",
    "safe",
    "display",
    "describe_chips",
    "describe_draws",
    "describe_plays",
    "drawn_words",
    "plays_json",
    "plays_from_json",
]


# Here rather than in base: a summary describes how its hand ended, and base imports this
# module (base re-exports it, so ``fairdeal.rules.base.HandResult`` still works).
@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended and what each seat scored in it.

    ``how`` is ``"out"`` (``winners`` is the one seat that went out) or
    ``"blocked"`` (``winners`` are the seats tied on the lowest count).
    ``counts`` are the points left in each hand.
    """

    how: str
    winners: tuple[int, ...]
    counts: tuple[int, ...]
    scores: tuple[int, ...]
    reason: str = ""


def safe(text: Any) -> str:
    """``text`` as it may be printed: quoted and escaped if it holds anything unprintable
    (a record cannot print a verdict of its own).

    >>> safe("Ann"), safe("Ann\\nVERIFIED")
    ('Ann', "'Ann\\\\nVERIFIED'")
    """
    text = str(text)
    return text if text.isprintable() else repr(text)


def display(cards: Sequence[Card | str] | Card | str) -> str:
    """Cards (or card codes) as a person reads them: ``['8H', 'TC']`` -> ``'8♥ 10♣'``;
    a code that is not a card is shown :func:`safe`.

    >>> display(["8H", "TC"]), display(Card.parse("AS")), display("XX")
    ('8♥ 10♣', 'A♠', 'XX')
    """
    if isinstance(cards, (str, Card)):
        cards = [cards]
    out = []
    for card in cards:
        if isinstance(card, Card):
            out.append(card.display)
            continue
        try:
            out.append(Card.parse(card).display)
        except CardError:
            out.append(safe(card))
    return " ".join(out)


@dataclass(frozen=True, slots=True)
class SeatNames:
    """How a report names the seats: ``seat 1 (Bob)``, the names escaped with :func:`safe`.

    >>> names = SeatNames(("Ann", "Bob", "Cy"))
    >>> names.seats([2, 0]), names.side([1]), names.label(2)
    ('seat 2 (Cy), seat 0 (Ann)', 'seat 1 (Bob)', 'seat 2 Cy')
    """

    names: tuple[str, ...]

    @classmethod
    def of(cls, seats: Sequence[Mapping[str, Any]]) -> SeatNames:
        """The names of a record header's ``seats`` (``[{"name": ..., "bot": ...}, ...]``)."""
        return cls(tuple(str(seat["name"]) for seat in seats))

    def seat(self, seat: Any) -> str:
        """``seat 1 (Bob)``; a seat the table does not have is only ``seat 9``."""
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return f"seat {seat} ({safe(self.names[seat])})"
        return f"seat {seat}"

    def seats(self, seats: Sequence[int]) -> str:
        """Several seats, comma-separated."""
        return ", ".join(self.seat(s) for s in seats)

    def side(self, seats: Sequence[int]) -> str:
        """``seat 1 (Bob)``, or ``seats 0 (Ann) and 2 (Cy)`` for partners."""
        if len(seats) == 1:
            return self.seat(seats[0])
        return "seats " + " and ".join(self.seat(s).removeprefix("seat ") for s in seats)

    def label(self, seat: int) -> str:
        """``seat 2 Cy``: how a deal's line names its seat."""
        return f"seat {seat} {safe(self.names[seat])}" if seat < len(self.names) else f"seat {seat}"

    def who(self, payer: Any) -> str:
        """A seat by :meth:`seat`, or anything else (the pot, a layout card) :func:`safe`."""
        return self.seat(payer) if isinstance(payer, int) else safe(payer)


def describe_chips(event: Mapping[str, Any], names: SeatNames) -> str:
    """A ``chips`` event in words: ``chips: pass: 1 from seat 2 (Cy) to pot``.

    >>> describe_chips({"type": "chips", "reason": "pass", "from": 2, "to": "pot", "amount": 1}, SeatNames(("A", "B", "Cy")))
    'chips: pass: 1 from seat 2 (Cy) to pot'
    """
    payer, payee = names.who(event.get("from")), names.who(event.get("to"))
    return f"chips: {safe(event.get('reason'))}: {safe(event.get('amount'))} from {payer} to {payee}"


def describe_draws(draws: Sequence[tuple[int, Card]], names: SeatNames) -> str:
    """Every draw in order, a seat's draws in a row together: ``seat 1 (Bob) 7♥ 7♣, seat 2 (Cy) 9♣``.

    >>> describe_draws([(1, Card.parse("7H")), (1, Card.parse("7C")), (2, Card.parse("9C"))], SeatNames(("A", "Bob", "Cy")))
    'seat 1 (Bob) 7♥ 7♣, seat 2 (Cy) 9♣'
    """
    if not draws:
        return "none"
    runs: list[tuple[int, list[Card]]] = []
    for seat, card in draws:
        if runs and runs[-1][0] == seat:
            runs[-1][1].append(card)
        else:
            runs.append((seat, [card]))
    return ", ".join(f"{names.seat(seat)} {display(cards)}" for seat, cards in runs)


def describe_plays(plays: Sequence[tuple[int, Card]], names: SeatNames) -> str:
    """Cards played in a round or a trick, in order, each with its seat: ``seat 0 (Ann) 9♣, seat 1 (Bob) K♣``.

    >>> describe_plays([(0, Card.parse("9C")), (1, Card.parse("KC"))], SeatNames(("Ann", "Bob")))
    'seat 0 (Ann) 9♣, seat 1 (Bob) K♣'
    """
    return ", ".join(f"{names.seat(seat)} {card.display}" for seat, card in plays)


def drawn_words(before: Sequence[Card], after: Sequence[Card]) -> str:
    """What a draw took, as the replay says it: the cards it added to the end of a hand that
    held ``before`` and holds ``after`` (a penalty may draw several), or ``no card``.

    >>> drawn_words((Card.parse("KD"),), (Card.parse("KD"), Card.parse("4C"), Card.parse("6C"))), drawn_words((), ())
    ('4♣ 6♣', 'no card')
    """
    taken = after[len(before) :]
    return display(taken) if taken else "no card"


def plays_json(plays: Sequence[tuple[int, Card]]) -> list[dict[str, Any]]:
    """Cards played by seat, as a summary's JSON lists them: ``[{"seat": 0, "card": "9C"}]``."""
    return [{"seat": seat, "card": card.code} for seat, card in plays]


def plays_from_json(plays: Sequence[Mapping[str, Any]]) -> tuple[tuple[int, Card], ...]:
    """The inverse of :func:`plays_json`."""
    return tuple((play["seat"], Card.parse(play["card"])) for play in plays)


# Not slotted: a slotted dataclass is a new class, and the families' summaries call
# super() from their methods, which a slotted class breaks before Python 3.14.
@dataclass(frozen=True, kw_only=True)
class HandSummary:
    """What a finished hand showed, as a game's :meth:`~fairdeal.rules.base.Rules.summary`
    gives it: ``deal``, each seat's cards as dealt; a family's subclass adds the rest
    (a frozen, keyword-only dataclass: ``to_json`` and ``lines`` say how it reads).
    Code reads the typed fields; ``to_json()`` is the JSON report's form.
    """

    deal: tuple[tuple[Card, ...], ...]

    def to_json(self) -> dict[str, Any]:
        """The hand's fields in the verifier's JSON report, JSON-ready (cards as codes)."""
        return {"deal": [codes(cards) for cards in self.deal]}

    def lines(self, names: SeatNames) -> list[str]:
        """The text report's lines for the hand, between its header and how it ended."""
        labels = [names.label(s) for s in range(len(self.deal))]
        width = max(len(label) for label in labels) if labels else 0
        return [f"  {label.ljust(width)}  {display(cards)}" for label, cards in zip(labels, self.deal)]

    def ended(self, result: HandResult, names: SeatNames) -> str:
        """How the hand ended, for the report's ``ended:`` line."""
        if result.how == "out":
            return f"{names.side(result.winners)} went out"
        if not result.winners:
            return f"{result.how} ({safe(result.reason)}); nobody wins"
        return f"{result.how} ({safe(result.reason)}); {self.blocked_winners(result.winners, names)}"

    def blocked_winners(self, winners: Sequence[int], names: SeatNames) -> str:
        """Who a hand that did not end by a seat going out went to: by default the seats
        tied on the lowest count (a game whose block goes to the fewest cards, or to a
        side, says ``won by``)."""
        return f"lowest count: {names.seats(winners)}"

    def fields(self) -> dict[str, Any]:
        """The summary's fields by name (for a subclass's summary built on this one)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
