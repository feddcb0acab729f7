"""Words fairdeal writes for a person, that can be said in another language: :class:`Said`.

A card's why-not note, a blocked hand's reason, a refused move or request, a record that does not
verify: each is English text, a ``str`` (every ``==``, ``in``, f-string and JSON use of it is the
English's, and the English is what a record, a report and the CLI keep), that also holds the
template it was made from and the values put in it, so that
:func:`fairdeal.rules.translations.say` can say it in another language. A template is the English
with ``{name}`` placeholders; a value is text said the same in every language (a name, a number, a
move's text), a :class:`~fairdeal.cards.Card` or cards (shown as the pages show them: ``8♥``), or
another :class:`Said` (said in the same language).

>>> note = Said("{card} does not match {top} in suit or rank", card=Card.parse("9C"), top=Card.parse("8H"))
>>> note, note == "9♣ does not match 8♥ in suit or rank", note.template
('9♣ does not match 8♥ in suit or rank', True, '{card} does not match {top} in suit or rank')
>>> seats_words([0, 2]), seats_words([0, 2]).values["seats"].template
('seats 0 and 2', '{first} and {last}')
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from fairdeal.cards import Card
from fairdeal.cards import Suit

__all__ = ["Said", "shown", "seats_words", "and_words", "or_words", "suit_word", "suit_words", "ordinal_words"]


class Said(str):
    """English words that know their template and values (see the module's docstring).

    ``str(said)`` is the :class:`Said` itself, so an exception's message made of one keeps it.

    >>> said = Said("it is not your turn")
    >>> said.values, str(said) is said, Said("{n} cards", n=3)
    ({}, True, '3 cards')
    """

    template: str
    values: Mapping[str, Any]

    def __new__(cls, template: str, /, **values: Any) -> Said:
        self = super().__new__(cls, template.format_map({name: shown(value) for name, value in values.items()}))
        self.template = template
        self.values = values
        return self

    def __str__(self) -> str:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # (A str subclass pickles as its str: the template and values would be lost.)
        return (_remade, (self.template, dict(self.values)))


def _remade(template: str, values: dict[str, Any]) -> Said:
    return Said(template, **values)


def shown(value: Any) -> str:
    """A value of a :class:`Said` in its English: a card as ``8♥``, cards as ``8♥ 10♣``, other
    values as ``str`` gives them (a :class:`Said`: itself).

    >>> shown(Card.parse("TC")), shown((Card.parse("AS"), Card.parse("2S"))), shown(7)
    ('10♣', 'A♠ 2♠', '7')
    """
    if isinstance(value, Card):
        return value.display
    if isinstance(value, (tuple, list)) and value and all(isinstance(v, Card) for v in value):
        return " ".join(card.display for card in value)
    return str(value)


def and_words(items: Sequence[Any]) -> Any:
    """Items in a list, English's way: ``a``, ``a and b``, ``a and b and c`` (each ``and`` a
    :class:`Said`, said the language's way); an item alone is itself.

    >>> and_words(["Ann", "Bob", "Cy"])
    'Ann and Bob and Cy'
    """
    return functools.reduce(lambda said, item: Said("{first} and {last}", first=said, last=item), items)


def or_words(items: Sequence[Any]) -> Any:
    """Items as choices: ``a``, ``a or b``, ``a or b or c`` (each ``or`` a :class:`Said`).

    >>> or_words([Said("a {rank}", rank="7"), Said("a {rank}", rank="8")])
    'a 7 or a 8'
    """
    return functools.reduce(lambda said, item: Said("{first} or {last}", first=said, last=item), items)


def seats_words(seats: Sequence[int]) -> Said:
    """Seats by number, as a reason names them: ``seat 1``, ``seats 0 and 2`` (the table page
    puts each seat's name in their place).

    >>> seats_words([1]), seats_words([0, 1, 3])
    ('seat 1', 'seats 0 and 1 and 3')
    """
    if len(seats) == 1:
        return Said("seat {seat}", seat=seats[0])
    return Said("seats {seats}", seats=and_words(list(seats)))


_SUITS = {
    Suit.CLUBS: Said("clubs"),
    Suit.DIAMONDS: Said("diamonds"),
    Suit.HEARTS: Said("hearts"),
    Suit.SPADES: Said("spades"),
}


_SUIT = {
    Suit.CLUBS: Said("club"),
    Suit.DIAMONDS: Said("diamond"),
    Suit.HEARTS: Said("heart"),
    Suit.SPADES: Said("spade"),
}


def suit_word(suit: Suit) -> Said:
    """A suit's name, one card's: ``spade`` (``your lowest spade``).

    >>> suit_word(Suit.SPADES)
    'spade'
    """
    return _SUIT[suit]


def suit_words(suit: Suit) -> Said:
    """A suit's name, plural, as a sentence says it: ``spades``.

    >>> suit_words(Suit.SPADES) == Suit.SPADES.plural
    True
    """
    return _SUITS[suit]


def ordinal_words(n: int) -> Said:
    """``1st``, ``2nd``, ``3rd``, ``4th`` ... ``11th`` ... ``21st``.

    >>> [ordinal_words(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st', '111th']
    """
    if n % 100 in (11, 12, 13) or n % 10 not in (1, 2, 3):
        return Said("{n}th", n=n)
    if n % 10 == 1:
        return Said("{n}st", n=n)
    if n % 10 == 2:
        return Said("{n}nd", n=n)
    return Said("{n}rd", n=n)
