"""A stand-in for Eleusis's secret rules (the real rule language replaces this module).

It has the real module's API: :class:`SecretRule` with ``parse``, ``accepts`` and
``accepts_all``, :class:`RuleError`, ``EXAMPLES``, ``LIBRARY``, ``SYNTAX_HELP`` and
``MAX_RULE_CHARS``. It knows three rules only, each coded by hand; ``parse`` reads
exactly their texts.

>>> rule = SecretRule.parse("card.colour != last.colour")
>>> from fairdeal.cards import parse_cards
>>> rule.accepts(parse_cards("7H"), parse_cards("2S")[0], 0), rule.accepts_all(parse_cards("7H"), parse_cards("2S 3S"), 0)
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from fairdeal.cards import Card, Suit

__all__ = ["EXAMPLES", "LIBRARY", "MAX_RULE_CHARS", "RuleError", "SYNTAX_HELP", "SecretRule"]

MAX_RULE_CHARS = 500
"""The longest rule text a dealer may type."""


class RuleError(ValueError):
    """A rule text that cannot be read: ``position`` (0-based, or ``None``) and ``reason``.

    >>> str(RuleError("unknown word 'foo'", 6))
    "column 7: unknown word 'foo'"
    """

    def __init__(self, reason: str, position: int | None = None) -> None:
        self.reason = reason
        self.position = position
        super().__init__(reason if position is None else f"column {position + 1}: {reason}")


def _red(card: Card) -> bool:
    return card.suit in (Suit.DIAMONDS, Suit.HEARTS)


def _alternate_colours(mainline: Sequence[Card], card: Card, sidelines: int) -> bool:
    return _red(card) != _red(mainline[-1])


def _suit_or_rank(mainline: Sequence[Card], card: Card, sidelines: int) -> bool:
    last = mainline[-1]
    return card.suit == last.suit or card.rank == last.rank


def _odd_black_even_red(mainline: Sequence[Card], card: Card, sidelines: int) -> bool:
    return _red(card) == (int(mainline[-1].rank) % 2 == 0)


_CODED: dict[str, Callable[[Sequence[Card], Card, int], bool]] = {
    "card.colour != last.colour": _alternate_colours,
    "card.suit == last.suit or card.rank == last.rank": _suit_or_rank,
    "if odd(last.rank) then black(card) else red(card)": _odd_black_even_red,
}


@dataclass(frozen=True)
class SecretRule:
    """One secret rule: ``text`` is its canonical form."""

    text: str
    _judge: Callable[[Sequence[Card], Card, int], bool] = field(repr=False, compare=False, default=_alternate_colours)

    @classmethod
    def parse(cls, text: str) -> SecretRule:
        """The rule ``text`` says; :class:`RuleError` if it is not one this stand-in knows."""
        if not isinstance(text, str):
            raise RuleError("a rule is text")
        canonical = " ".join(text.split())
        if len(text) > MAX_RULE_CHARS:
            raise RuleError(f"a rule has at most {MAX_RULE_CHARS} characters", MAX_RULE_CHARS)
        judge = _CODED.get(canonical)
        if judge is None:
            raise RuleError("not a rule this stand-in knows", 0)
        return cls(canonical, judge)

    def accepts(self, mainline: Sequence[Card], card: Card, sidelines: int) -> bool:
        """Whether ``card`` may follow ``mainline`` (starter first) with ``sidelines`` cards rejected so far."""
        return self._judge(mainline, card, sidelines)

    def accepts_all(self, mainline: Sequence[Card], cards: Sequence[Card], sidelines: int) -> bool:
        """Whether each of ``cards`` is accepted after the ones before it (a string)."""
        line = list(mainline)
        for card in cards:
            if not self.accepts(line, card, sidelines):
                return False
            line.append(card)
        return True


LIBRARY: tuple[SecretRule, ...] = tuple(SecretRule.parse(text) for text in _CODED)
"""The rules the server deals from, and a seat-mode dealer may pick."""

EXAMPLES: tuple[SecretRule, ...] = LIBRARY[:2]

SYNTAX_HELP = "Stand-in rule language: type one of the library's rules exactly."
