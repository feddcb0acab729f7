"""Bots that choose a seat's move from that seat's view, and nothing else.

A bot is handed the rules and ``rules.view(state, seat)``: its own hand and
the public table (DESIGN.md, principle 5). It never gets the state, the
match or the table, so it cannot peek at another hand or at the stock; the
rules' :meth:`~fairdeal.rules.Rules.legal_moves` and
:meth:`~fairdeal.rules.Rules.explain` work on a view too.

>>> from fairdeal.cards import parse_cards, Card
>>> from fairdeal.rules import get
>>> from fairdeal.rules.crazy_eights import CrazyEightsView
>>> rules = get("crazy-eights")
>>> view = CrazyEightsView(seat=0, hand_no=1, dealer=1, hand=tuple(parse_cards("8C 2H 5H 9S")),
...     hand_sizes=(4, 7), top=Card.parse("KD"), named=None, stock_size=30, pile_size=1, turn=0,
...     drawn=0, pending=None, passes=0, restocks=0, restock_limit=20, result=None)
>>> make_bot("heuristic").choose(rules, view)  # nothing but the eight fits: name hearts, the suit it holds most of
Move.play(Card.parse('8C'), Suit.HEARTS)
>>> make_bot("random", seed=7).choose(rules, view) in rules.legal_moves(view)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from fairdeal.cards import Card, Rank, Suit
from fairdeal.rules.base import Move, Rules
from fairdeal.rules.crazy_eights import card_points
from fairdeal.rules.eights import EightsFamily
from fairdeal.rules.fan_tan import FanTanFamily, SequenceGame
from fairdeal.rules.go_boom import GoBoom, go_boom_points, strength
from fairdeal.rules.rolling_stone import RollingStone
from fairdeal.rules.rolling_stone import strength as trick_strength
from fairdeal.rules.snip_snap import Jig, SnipSnapFamily
from fairdeal.rules.snip_snap import strength as rank_strength
from fairdeal.rules.sequence import RunGame

__all__ = [
    "Bot",
    "BotError",
    "RandomBot",
    "HeuristicBot",
    "BOT_KINDS",
    "eights_choice",
    "fan_tan_choice",
    "go_boom_choice",
    "make_bot",
    "rolling_stone_choice",
    "snip_snap_choice",
    "run_choice",
]

BOT_KINDS = ("heuristic", "random")
"""The kinds :func:`make_bot` builds."""


class BotError(ValueError):
    """A bot asked for a move it cannot make: not its turn, or a game it does not know.

    >>> str(BotError("it is not this seat's turn", seat=1))
    "bot for seat 1: it is not this seat's turn"
    """

    def __init__(self, reason: str, *, seat: int | None = None) -> None:
        self.reason = reason
        self.seat = seat
        super().__init__(f"bot for seat {seat}: {reason}" if seat is not None else f"bot: {reason}")


class Bot:
    """The bot protocol: :meth:`choose` one move from a seat's view.

    Subclasses must return one of ``rules.legal_moves(view)`` and must not keep
    a reference to anything but what they are given.
    """

    kind: str = "bot"

    def choose(self, rules: Rules, view: Any) -> Move:
        """The move for the seat whose ``view`` this is; raises :class:`BotError` when it has none."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def _legal(rules: Rules, view: Any) -> list[Move]:
    moves = rules.legal_moves(view)
    if not moves:
        raise BotError("the seat has no legal move now (not its turn, or the hand is over)", seat=view.seat)
    return moves


class RandomBot(Bot):
    """Picks uniformly among the legal moves, with its own seeded generator.

    Each way of playing an eight (one per named suit) is a move of its own, so
    an eight is four times as likely as any other single card. Two bots with
    the same seed given the same views choose the same moves.

    >>> from fairdeal.rules import get
    >>> from fairdeal.rules.crazy_eights import CrazyEightsView
    >>> from fairdeal.cards import parse_cards, Card
    >>> view = CrazyEightsView(0, 1, 1, tuple(parse_cards("9C 9H KS")), (3, 7), Card.parse("9D"),
    ...     None, 30, 1, 0, 0, None, 0, 0, 20, None)
    >>> rules = get("crazy-eights")
    >>> [RandomBot(1).choose(rules, view) for _ in range(2)] == [RandomBot(1).choose(rules, view)] * 2
    True
    """

    kind = "random"

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"RandomBot({self.seed!r})"

    def choose(self, rules: Rules, view: Any) -> Move:
        return self._rng.choice(_legal(rules, view))


def _suit_counts(cards: Sequence[Card]) -> list[int]:
    """How many cards of each suit, eights left out: an eight is wild, it belongs to no suit."""
    counts = [0, 0, 0, 0]
    for card in cards:
        if card.rank != Rank.EIGHT:
            counts[card.suit] += 1
    return counts


def _suit_points(cards: Sequence[Card]) -> list[int]:
    points = [0, 0, 0, 0]
    for card in cards:
        if card.rank != Rank.EIGHT:
            points[card.suit] += card_points(card)
    return points


class HeuristicBot(Bot):
    """A deterministic Crazy Eights player that plays like a careful person.

    - It plays a card other than an eight when one fits: the one of the suit it
      holds most of (so it can follow on its next turn), then the one worth
      most points (so less is left to count against it), then the lowest in
      card order.
    - It saves eights: it plays an eight only when nothing else fits (which
      includes an eight among its last cards), rather than drawing; and it
      names the suit it then holds most of (eights aside), then the suit worth
      most points, then clubs first.
    - When the card it drew fits, it plays it, except a drawn eight, which it
      keeps for a turn when nothing fits, unless an opponent is down to two
      cards or fewer: then the eight's 50 points are about to count against
      it, and it plays it. (The rules leave this choice to the player.)
    - It draws when it cannot play, and passes only when that is its only
      legal move.

    >>> from fairdeal.rules import get
    >>> from fairdeal.rules.crazy_eights import CrazyEightsView
    >>> from fairdeal.cards import parse_cards, Card
    >>> rules = get("crazy-eights")
    >>> view = CrazyEightsView(0, 1, 1, tuple(parse_cards("8S 9C 9H KH")), (4, 7), Card.parse("9D"),
    ...     None, 30, 1, 0, 0, None, 0, 0, 20, None)
    >>> HeuristicBot().choose(rules, view)  # 9H: two hearts in hand; the eight waits
    Move.play(Card.parse('9H'))

    For the Fan Tan family, the Eights games played from a stock with no restock and Go
    Boom it follows the rule texts' advice (see :func:`fan_tan_choice`,
    :func:`eights_choice`, :func:`go_boom_choice`).
    """

    kind = "heuristic"
    games = (
        "crazy-eights",
        "fan-tan",
        "sjueren",
        "five-or-nine",
        "play-or-pay",
        "liberty-fan-tan",
        "crazy-eights-book",
        "eights",
        "hollywood-eights",
        "go-boom",
        "hollywood-go-boom",
        "snip-snap-snorem",
        "earl-of-coventry",
        "jig",
        "rolling-stone",
        "sequence",
        "michigan",
        "double-stops",
        "spin",
        "commit",
    )

    KEEP_EIGHT_UNLESS_OPPONENT_HOLDS = 2
    """A drawn eight is kept unless some opponent holds this many cards or fewer."""

    def choose(self, rules: Rules, view: Any) -> Move:
        if rules.name not in self.games:
            raise BotError(f"the heuristic bot plays {', '.join(self.games)}, not {rules.name}", seat=view.seat)
        moves = _legal(rules, view)
        if isinstance(rules, FanTanFamily):
            return fan_tan_choice(rules, view, moves)
        if isinstance(rules, EightsFamily):
            return eights_choice(view, moves)
        if isinstance(rules, GoBoom):
            return go_boom_choice(view, moves)
        if isinstance(rules, SnipSnapFamily):
            return snip_snap_choice(rules, view, moves)
        if isinstance(rules, RollingStone):
            return rolling_stone_choice(view, moves)
        if isinstance(rules, RunGame):
            return run_choice(rules, view, moves)
        plays = [m for m in moves if m.kind == "play"]
        if view.pending is not None:
            return self._drawn(view, plays) if plays else Move.keep()
        if plays:
            return self._best_play(view.hand, plays)
        # No card fits: draw if the stock (or a restock) allows, else the rules leave only a pass.
        for kind in ("draw", "pass"):
            for move in moves:
                if move.kind == kind:
                    return move
        return moves[0]  # pragma: no cover - Crazy Eights always offers one of the above

    def _drawn(self, view: Any, plays: list[Move]) -> Move:
        card = view.pending
        if card.rank != Rank.EIGHT:
            return plays[0]
        opponents = [n for seat, n in enumerate(view.hand_sizes) if seat != view.seat]
        if min(opponents, default=99) <= self.KEEP_EIGHT_UNLESS_OPPONENT_HOLDS:
            return self._eight(view.hand, card)
        return Move.keep()

    def _best_play(self, hand: Sequence[Card], plays: list[Move]) -> Move:
        naturals = [m.card for m in plays if m.card.rank != Rank.EIGHT]
        if naturals:
            counts = _suit_counts(hand)
            best = max(naturals, key=lambda c: (counts[c.suit], card_points(c), -c.index))
            return Move.play(best)
        eight = min(m.card for m in plays)
        return self._eight(hand, eight)

    @staticmethod
    def _eight(hand: Sequence[Card], eight: Card) -> Move:
        rest = list(hand)
        rest.remove(eight)
        counts, points = _suit_counts(rest), _suit_points(rest)
        suit = max(Suit, key=lambda s: (counts[s], points[s], -s))
        return Move.play(eight, suit)


def fan_tan_choice(rules: FanTanFamily, view: Any, moves: Sequence[Move]) -> Move:
    """The heuristic bot's move in a Fan Tan game, after the texts' "skillful play".

    - It passes only when it cannot play (even where a pass is allowed at a penalty).
    - Sevens games: it plays the card that brings the table nearest its own far
      cards: the one with most of its cards of that suit beyond it, on the side it
      builds (an opening card counts the whole suit); middle cards wait. Ties: the
      lowest card in card order.
    - Sequence games, leading: its longest suit (clubs first on ties), starting with
      the higher of two touching cards so that it plays the suit's 13th card itself
      and leads again; with none, its lowest card of that suit.

    >>> from fairdeal.cards import parse_cards
    >>> from fairdeal.rules import get
    >>> from fairdeal.rules.fan_tan import FanTanView
    >>> rules = get("liberty-fan-tan")  # the text's example: with K-9-8-2 of spades, lead the 9
    >>> view = FanTanView(0, 1, 3, tuple(parse_cards("KS 9S 8S 2S 3H 5D")), (6, 6, 6, 6),
    ...     (None,) * 4, None, 0, 0, (0,) * 4, None)
    >>> fan_tan_choice(rules, view, rules.legal_moves(view))
    Move.play(Card.parse('9S'))
    """
    plays = [m.card for m in moves if m.kind == "play"]
    if not plays:
        return moves[0]
    hand = view.hand
    if isinstance(rules, SequenceGame):
        if len(plays) == 1:
            return Move.play(plays[0])
        counts = [0, 0, 0, 0]
        for card in hand:
            counts[card.suit] += 1
        suit = max(Suit, key=lambda s: (counts[s], -s))
        cards = sorted(c for c in hand if c.suit == suit)
        # Led with x, a suit ends with the card before x: hold that one, and the 13th is yours.
        touching = [c for c in cards if Card(c.rank - 1 or Rank.KING, suit) in hand]
        return Move.play((touching or cards)[0])

    def reach(card: Card) -> int:
        mine = [rules.position(c.rank) for c in hand if c.suit == card.suit and c is not card]
        if view.rows[card.suit] is None:
            return len(mine)
        here, opening = rules.position(card.rank), rules.position(view.opening)
        return sum(1 for p in mine if (p > here if here > opening else p < here))

    return Move.play(max(plays, key=lambda c: (reach(c), -c.index)))


EIGHTS_DRAWS_BEFORE_AN_EIGHT = 3
"""Eights games: cards drawn in a turn to find a natural card before playing an eight."""


def eights_choice(view: Any, moves: Sequence[Move]) -> Move:
    """The heuristic bot's move in Crazy Eights by the book, Eights and Hollywood Eights, after
    the Stops chapter's "skillful play".

    - A card other than an eight that fits is played: of the suit it holds most of (to come
      back to its long suit), then the one worth most points, then the lowest in card order.
    - It saves its eights ("not to play an 8 too quickly"; "to play an 8 with more than 2 cards
      in your hand is seldom wise ... better to draw a few cards"): with only an eight to play
      it draws, up to three cards a turn, unless it holds two cards or fewer or the stock is
      empty. An eight names the suit it then holds most of.
    - Otherwise it draws while it can, and passes only when that is its only move.

    >>> from fairdeal.cards import parse_cards, Card
    >>> from fairdeal.rules import get
    >>> from fairdeal.rules.eights import EightsView, sides_of
    >>> rules = get("eights")
    >>> view = EightsView(0, 1, 1, tuple(parse_cards("8S 9C 4C KH")), (4, 5, 5), Card.parse("QD"), None,
    ...     20, 3, 0, 0, 0, sides_of(3, True), (), None)
    >>> eights_choice(view, rules.legal_moves(view))   # only the eight fits, with four cards: draw
    Move.draw()
    """
    plays = [m for m in moves if m.kind == "play"]
    naturals = [m.card for m in plays if m.card.rank != Rank.EIGHT]
    if naturals:
        counts = _suit_counts(view.hand)
        return Move.play(max(naturals, key=lambda c: (counts[c.suit], card_points(c), -c.index)))
    can_draw = any(m.kind == "draw" for m in moves)
    if plays:
        if can_draw and len(view.hand) > 2 and view.drawn < EIGHTS_DRAWS_BEFORE_AN_EIGHT:
            return Move.draw()
        return HeuristicBot._eight(view.hand, min(m.card for m in plays))
    return Move.draw() if can_draw else moves[0]


def go_boom_choice(view: Any, moves: Sequence[Move]) -> Move:
    """The heuristic bot's move in Go Boom, after the text's "skillful play": play as high a
    card as possible, for the right to lead the next round, and run the others out of a suit.

    - Leading: the highest card of the suit it holds most of (clubs first on ties).
    - Following: the highest card that matches; of equal ranks, the one of its longest suit.
    - Otherwise it draws, or passes, as it must.

    >>> from fairdeal.cards import parse_cards, Card
    >>> from fairdeal.rules import get
    >>> from fairdeal.rules.go_boom import GoBoomView
    >>> rules = get("go-boom")
    >>> view = GoBoomView(0, 1, 2, tuple(parse_cards("2S 9S KS 4H AH")), (5, 7, 7), 31, 0, 0, (), (), 0, None)
    >>> go_boom_choice(view, rules.legal_moves(view))   # leads the king of its three spades
    Move.play(Card.parse('KS'))
    """
    plays = [m.card for m in moves if m.kind == "play"]
    if not plays:
        return moves[0]
    counts = [0, 0, 0, 0]
    for card in view.hand:
        counts[card.suit] += 1
    if view.previous is None:
        suit = max(Suit, key=lambda s: (counts[s], -s))
        return Move.play(max((c for c in plays if c.suit == suit), key=strength))
    return Move.play(max(plays, key=lambda c: (strength(c), counts[c.suit], go_boom_points(c), -c.index)))


RUN_LOW_CARDS = (Rank.TWO, Rank.THREE)
"""Michigan: the "very low cards" that make a hand bad, and that are hard to get rid of."""
RUN_MOST_BID = 4
"""Michigan: the most the bot bids for the extra hand ("up to 3 or 4 counters")."""


def run_choice(rules: RunGame, view: Any, moves: Sequence[Move]) -> Move:
    """The heuristic bot's move in Sequence, Michigan, Double Stops, Spin and Commit, after the
    texts' "skillful play".

    - Michigan's extra hand: a hand with no pay card and two or more 2s and 3s is bad. The
      dealer exchanges a bad hand for the extra hand, and otherwise auctions the extra hand;
      a bidder with a bad hand bids one more than the best bid so far, up to 4; else passes.
    - Leading: Sequence, its lowest card (a deuce, if it has one); Michigan, a suit in which
      it holds a pay card, then a suit in which a card it knows is dead (the hand it put
      aside) stops the run right after one of its own cards, then its lowest card; Commit,
      its lowest card of its longest suit. Of equal choices, the suit it holds most of.
    - Spin: it spins when that lets it lead a pay card it holds. Commit: it plays the 9♦ at
      the first chance (two counters from each; held at the end it costs two to each).

    >>> from fairdeal.cards import parse_cards
    >>> from fairdeal.rules import get
    >>> from fairdeal.rules.sequence import RunState
    >>> rules = get("sequence")
    >>> hands = (tuple(parse_cards("KS 4S 9H 2H 3D")), (), ())
    >>> view = rules.view(RunState(1, 2, hands, 0, net=(0, 0, 0)), 0)
    >>> run_choice(rules, view, rules.legal_moves(view))   # a deuce, as the text advises
    Move.play(Card.parse('2H'))
    """
    kinds = {m.kind for m in moves}
    hand = view.hand
    if "exchange" in kinds or "bid" in kinds:
        pays = [c for c in hand if c.code in view.layout]
        bad = not pays and sum(1 for c in hand if c.rank in RUN_LOW_CARDS) >= 2
        if "exchange" in kinds:
            return Move.exchange() if bad else Move.auction()
        best = max((a for _, a in view.bids if a is not None), default=0)
        offer = Move.bid(best + 1)
        return offer if bad and best < RUN_MOST_BID and offer in moves else Move.pass_()
    plays = [m for m in moves if m.kind == "play"]
    base = sorted({m.card for m in plays if m.then is None})
    counts = [0, 0, 0, 0]
    for card in hand:
        counts[card.suit] += 1
    if view.current is not None or len(base) == 1:
        card = min(base)
    elif rules.name == "sequence":
        card = min(base, key=lambda c: (rules.position(c), -counts[c.suit], c.suit))
    elif rules.name == "commit":
        card = min(base, key=lambda c: (-counts[c.suit], rules.position(c), c.suit))
    elif view.privilege and any(c.code in view.layout for c in base):
        card = next(c for c in base if c.code in view.layout)  # what the spin was for
    else:
        dead = set(view.discarded)
        pay_suits = {c.suit for c in hand if c.code in view.layout}

        def stops_for_me(suit: Suit) -> bool:
            return any(rules.successor(c) in dead for c in hand if c.suit == suit)

        card = min(base, key=lambda c: (c.suit not in pay_suits, not stops_for_me(c.suit), rules.position(c), -counts[c.suit], c.suit))
    special = rules.special
    if special is not None and card is not special and Move.play(card, then=special) in moves:
        spin_to_pay = [c for c in hand if c.code in view.layout and c is not card]
        if rules.name == "commit" or spin_to_pay:
            return Move.play(card, then=special)
    return Move.play(card)


def snip_snap_choice(rules: SnipSnapFamily, view: Any, moves: Sequence[Move]) -> Move:
    """The heuristic bot's move in Snip Snap Snorem, The Earl of Coventry and Jig. Only a
    leader has a choice (a follower puts down its cards of the rank, or passes):

    - Snip Snap Snorem and The Earl of Coventry: the rank it holds most of (all of them go
      down, and with all four it leads again); ties: the lowest card in card order.
    - Jig: first a lead that ends the series at once, so that it leads again: an ace, or a
      rank whose next rank no other seat can hold (every card of it is on the table or in
      its own hand); then the rank it holds most of; then the higher rank.

    >>> from fairdeal.cards import parse_cards
    >>> from fairdeal.rules import get
    >>> from fairdeal.rules.snip_snap import SnipSnapView
    >>> rules = get("jig")
    >>> view = SnipSnapView(0, 1, 2, tuple(parse_cards("5C 5D 9S AH")), (4, 5, 5), 0, (), None,
    ...     frozenset(), 0, (0, 0, 0), None)
    >>> snip_snap_choice(rules, view, rules.legal_moves(view))   # the ace ends the series: lead again
    Move.play(Card.parse('AH'))
    """
    plays = [m.card for m in moves if m.kind == "play"]
    if not plays or view.wanted is not None:
        return moves[0]
    held: dict[Rank, int] = {}
    for card in view.hand:
        held[card.rank] = held.get(card.rank, 0) + 1
    if not isinstance(rules, Jig):
        return Move.play(min(plays, key=lambda c: (-held[c.rank], c.index)))
    mine = set(view.hand)

    def at_once(rank: Rank) -> bool:
        if rank == Rank.ACE:
            return True
        following = Rank.ACE if rank == Rank.KING else Rank(rank + 1)
        return all(c in view.laid or c in mine for c in (Card(following, suit) for suit in Suit))

    best = max(plays, key=lambda c: (at_once(c.rank), held[c.rank], rank_strength(c.rank), -c.index))
    return Move.play(best)


def rolling_stone_choice(view: Any, moves: Sequence[Move]) -> Move:
    """The heuristic bot's move in Rolling Stone. A seat that cannot follow picks up the trick,
    which is what a leader hopes for; a trick everyone follows is won by its highest card,
    whose player leads the next.

    - Leading: the highest card of the suit it holds most of (the suit the others are likeliest
      to be short of; and if they all follow, the high card wins the lead back). Ties: clubs,
      diamonds, hearts, spades.
    - Following: its highest card of the suit led, to win the lead.
    - Unable to follow, it passes (picks up), its only move.

    >>> from fairdeal.cards import parse_cards
    >>> from fairdeal.rules import get
    >>> from fairdeal.rules.rolling_stone import RollingStoneView
    >>> rules = get("rolling-stone")
    >>> view = RollingStoneView(0, 1, 3, tuple(parse_cards("7S 9S KS 8H AD")), (5, 8, 8, 8), 0, (), 0, 0, None, None)
    >>> rolling_stone_choice(view, rules.legal_moves(view))
    Move.play(Card.parse('KS'))
    """
    plays = [m.card for m in moves if m.kind == "play"]
    if not plays:
        return moves[0]
    if view.trick:
        return Move.play(max(plays, key=trick_strength))
    counts = [0, 0, 0, 0]
    for card in view.hand:
        counts[card.suit] += 1
    suit = max(Suit, key=lambda s: (counts[s], -s))
    return Move.play(max((c for c in plays if c.suit == suit), key=trick_strength))


def make_bot(kind: str, seed: int | str | None = None) -> Bot:
    """A bot of ``kind`` (``"heuristic"`` or ``"random"``); ``seed`` seeds a random bot.

    >>> make_bot("random", 3), make_bot("heuristic")
    (RandomBot(3), HeuristicBot())
    >>> try:
    ...     make_bot("clever")
    ... except BotError as error:
    ...     print(error)
    bot: unknown bot kind 'clever'; known: heuristic, random
    """
    if kind == "random":
        return RandomBot(seed)
    if kind == "heuristic":
        return HeuristicBot()
    raise BotError(f"unknown bot kind {kind!r}; known: {', '.join(BOT_KINDS)}")
