"""What may go on the pile of the games played onto a pile from a stock (Crazy Eights, the Eights
games, a plugin's variants such as Switch), and the hand replayer's words for why a move was
allowed there (:meth:`~fairdeal.rules.Rules.why_legal`): each a :class:`~fairdeal.said.Said`, said
in the page's language. Each function takes the wild rank as a parameter: an eight, Switch's ace.

>>> nine = Card.parse("9C")
>>> fits(Card.parse("9H"), nine, None), fit_words(Card.parse("9H"), None, nine, None)
(True, '9♥ on 9♣: same rank')
"""

from __future__ import annotations

from collections.abc import Sequence

from fairdeal.cards import Card
from fairdeal.cards import Rank
from fairdeal.cards import Suit
from fairdeal.rules.move import Move
from fairdeal.said import Said
from fairdeal.said import suit_words

__all__ = ["fits", "fit_words", "same_words", "why_on_pile", "restock_words"]


def fits(card: Card, top: Card, named: Suit | None, wild: Rank = Rank.EIGHT) -> bool:
    """Whether ``card`` may go on ``top``: a card of the ``wild`` rank (an eight) always; after
    a wild card, the suit it named; else the top card's suit or rank. The Eights games share it.

    >>> fits(Card.parse("9C"), Card.parse("9H"), None), fits(Card.parse("9C"), Card.parse("8H"), Suit.SPADES)
    (True, False)
    >>> fits(Card.parse("AC"), Card.parse("9H"), None, wild=Rank.ACE)
    True
    """
    if card.rank == wild:
        return True
    if named is not None:
        return card.suit == named
    return card.suit == top.suit or card.rank == top.rank


def fit_words(card: Card, suit: Suit | None, top: Card, named: Suit | None, wild: Rank = Rank.EIGHT) -> Said:
    """Why a legal play of ``card`` (naming ``suit``) fits the pile, for the hand replayer.

    >>> fit_words(Card.parse("AH"), Suit.SPADES, Card.parse("9C"), None, wild=Rank.ACE)
    'an ace is wild: names spades'
    >>> fit_words(Card.parse("9H"), None, Card.parse("9C"), None), fit_words(Card.parse("4C"), None, Card.parse("9C"), None)
    ('9♥ on 9♣: same rank', '4♣ on 9♣: same suit')
    """
    if card.rank == wild:
        is_wild = Said("{rank} is wild", rank=_WILD.get(wild) or Said("a {rank}", rank=wild.label))
        return is_wild if suit is None else Said("{wild}: names {suits}", wild=is_wild, suits=suit_words(suit))
    if named is not None:
        return Said("{card} on {top}: {suits} were named", card=card, top=top, suits=suit_words(named))
    return same_words(card, top)


_WILD = {Rank.EIGHT: Said("an eight"), Rank.ACE: Said("an ace")}


def same_words(card: Card, top: Card) -> Said:
    """Why ``card`` may go on ``top``, which it matches in suit or else in rank.

    >>> same_words(Card.parse("4C"), Card.parse("9C")), same_words(Card.parse("9H"), Card.parse("9C"))
    ('4♣ on 9♣: same suit', '9♥ on 9♣: same rank')
    """
    if card.suit == top.suit:
        return Said("{card} on {top}: same suit", card=card, top=top)
    return Said("{card} on {top}: same rank", card=card, top=top)


def why_on_pile(
    move: Move, top: Card, named: Suit | None, hand: Sequence[Card], wild: Rank = Rank.EIGHT
) -> Said | None:
    """Why a play fits the pile (:func:`fit_words`), or why a draw or a pass was the move, for the
    hand replayer (:meth:`Rules.why_legal`); ``None`` for a move the pile games leave to their
    own words. The Eights games share it.

    >>> eight, nine = Card.parse("8H"), Card.parse("9C")
    >>> why_on_pile(Move.play(eight, Suit.SPADES), nine, None, [eight])
    'an eight is wild: names spades'
    >>> why_on_pile(Move.draw(), nine, None, [Card.parse("KD")])
    'no card fits: draws'
    """
    if move.kind == "play" and move.card is not None:
        return fit_words(move.card, move.suit, top, named, wild)
    fitting = any(fits(c, top, named, wild) for c in hand)
    if move.kind == "draw":
        return Said("a card fits, but drawing is allowed: draws") if fitting else Said("no card fits: draws")
    if move.kind == "pass":
        return Said("no card fits and there is nothing to draw: passes")
    return None


def restock_words(why: str) -> Said:
    """``why`` a draw was the move, said of a draw from an empty stock: the draw shuffles the
    pile under its top card into a new stock first.

    >>> restock_words(Said("no card fits: draws"))
    'no card fits: draws from a new stock (the pile under its top card, shuffled)'
    """
    return Said("{why} from a new stock (the pile under its top card, shuffled)", why=why)
