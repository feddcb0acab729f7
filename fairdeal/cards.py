"""Playing cards: suits, ranks, cards, packs, codes and display.

Cards come in the card order of fairness protocol v1: clubs, diamonds,
hearts, spades; within a suit ace, 2, ..., 10, jack, queen, king.

>>> card = Card.parse("10H")
>>> card.code, card.display
('TH', '10♥')
>>> [c.code for c in pack()[:3]]
['AC', '2C', '3C']
>>> Card.parse("AS") > Card.parse("KH")
True
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import ClassVar

__all__ = [
    "Suit",
    "Rank",
    "Card",
    "CardError",
    "pack",
    "parse_cards",
    "codes",
    "ALL_CARDS",
]


class CardError(ValueError):
    """A card code that does not name a card, e.g. ``"1X"``."""

    def __init__(self, code: object, reason: str = "not a card code") -> None:
        self.code = code
        self.reason = reason
        super().__init__(f"{reason}: {code!r}")


class Suit(enum.IntEnum):
    """The four suits, in protocol card order."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """``"C"``, ``"D"``, ``"H"`` or ``"S"``."""
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        """``"♣"``, ``"♦"``, ``"♥"`` or ``"♠"``."""
        return "♣♦♥♠"[self]

    @property
    def plural(self) -> str:
        """``"clubs"``, ``"diamonds"``, ``"hearts"`` or ``"spades"``."""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Suit:
        """A suit from its letter, symbol or name (any case).

        >>> Suit.parse("h"), Suit.parse("♠"), Suit.parse("Clubs")
        (<Suit.HEARTS: 2>, <Suit.SPADES: 3>, <Suit.CLUBS: 0>)
        """
        if isinstance(text, str):
            t = text.strip()
            if len(t) == 1:
                if t.upper() in "CDHS":
                    return cls("CDHS".index(t.upper()))
                if t in "♣♦♥♠":
                    return cls("♣♦♥♠".index(t))
            for suit in cls:
                if t.lower() in (suit.plural, suit.plural[:-1]):
                    return suit
        raise CardError(text, "not a suit")


class Rank(enum.IntEnum):
    """Ranks from ace (1) to king (13); the ace is low in card order."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def letter(self) -> str:
        """The code letter: ``A23456789TJQK``."""
        return "A23456789TJQK"[self - 1]

    @property
    def label(self) -> str:
        """What is printed on the card: ``A``, ``2`` ... ``10``, ``J``, ``Q``, ``K``."""
        return "10" if self is Rank.TEN else self.letter

    @property
    def word(self) -> str:
        """``"ace"``, ``"two"``, ... ``"king"``."""
        return self.name.lower()


class Card:
    """One playing card. Cards compare in protocol card order.

    Cards are interned: ``Card.parse("8H") is Card(Rank.EIGHT, Suit.HEARTS)``.

    >>> Card(Rank.EIGHT, Suit.HEARTS)
    Card.parse('8H')
    >>> str(Card.parse("qs")), Card.parse("QS").name
    ('QS', 'queen of spades')
    """

    __slots__ = ("code", "display", "index", "name", "rank", "suit")

    rank: Rank
    suit: Suit
    index: int
    """Position in a single pack's card order, 0 (AC) to 51 (KS)."""
    code: str
    """Two characters: rank letter and suit letter, ``"TD"``."""
    display: str
    """How a person reads it: ``"10♦"``."""
    name: str
    """Spoken name: ``"ten of diamonds"``."""

    _interned: ClassVar[dict[tuple[int, int], Card]] = {}

    def __new__(cls, rank: Rank | int, suit: Suit | int) -> Card:
        try:
            return cls._interned[(int(rank), int(suit))]
        except KeyError:
            pass
        try:
            rank, suit = Rank(rank), Suit(suit)
        except ValueError:
            raise CardError((rank, suit), "no such card") from None
        card = object.__new__(cls)
        for attr, value in (
            ("rank", rank),
            ("suit", suit),
            ("index", suit * 13 + rank - 1),
            ("code", rank.letter + suit.letter),
            ("display", rank.label + suit.symbol),
            ("name", f"{rank.word} of {suit.plural}"),
        ):
            object.__setattr__(card, attr, value)
        cls._interned[(int(rank), int(suit))] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[Rank, Suit]]:
        return (Card, (self.rank, self.suit))

    @classmethod
    def parse(cls, code: str) -> Card:
        """A card from its code: rank ``A23456789TJQK`` (or ``10``) and suit ``CDHS``.

        Case and surrounding spaces are ignored.

        >>> Card.parse("10h") is Card.parse("TH")
        True
        """
        try:
            return _BY_CODE[code]
        except (KeyError, TypeError):
            pass
        if not isinstance(code, str):
            raise CardError(code)
        text = code.strip().upper()
        if text.startswith("10"):
            text = "T" + text[2:]
        card = _BY_CODE.get(text)
        if card is None:
            raise CardError(code)
        return card

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index >= other.index

    def __hash__(self) -> int:
        return self.index


ALL_CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in Rank)
"""The 52 cards of one pack in protocol card order."""

_BY_CODE: dict[str, Card] = {card.code: card for card in ALL_CARDS}


def pack(decks: int = 1) -> list[Card]:
    """A fresh game pack of ``decks`` packs in protocol card order.

    Pack 1's 52 cards come first, then pack 2's, and so on.

    >>> len(pack(2)), pack(2)[52].code
    (104, 'AC')
    """
    if isinstance(decks, bool) or not isinstance(decks, int) or decks < 1:
        raise CardError(decks, "the number of packs must be a positive integer")
    return list(ALL_CARDS) * decks


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Cards from codes, either a list or a comma- or space-separated string.

    >>> [c.display for c in parse_cards("AS, 10H 8c")]
    ['A♠', '10♥', '8♣']
    """
    if isinstance(text, str):
        parts = text.replace(",", " ").split()
    else:
        parts = list(text)
    return [Card.parse(part) for part in parts]


def codes(cards: Iterable[Card]) -> list[str]:
    """The codes of ``cards``, in order."""
    return [card.code for card in cards]
