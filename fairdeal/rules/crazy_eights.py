"""Crazy Eights as played at fairdeal's online table.

The rules are ../shared/rules/crazy-eights-online-table.txt; where that text
leaves a case open, spec/games/crazy-eights.md says what this module does.

>>> from fairdeal.fairness import game_key, shuffle
>>> key = game_key("00" * 32, "doc", ["", ""])
>>> rules = CrazyEights()
>>> state, events = rules.deal(2, dealer=0, hand=1, shuffle=lambda label, cards: shuffle(key, label, cards))
>>> len(state.hands[0]), len(state.hands[1]), len(state.stock), state.turn
(7, 7, 37, 1)
>>> view = rules.view(state, 1)
>>> all(rules.explain(view, m.card) is None for m in rules.legal_moves(view) if m.kind == "play")
True
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fairdeal.cards import ALL_CARDS, Card, Rank, Suit, codes, pack
from fairdeal.rules.base import (
    check_view_seat,
    Event,
    fast_replace,
    fast_update,
    HandResult,
    has_turn,
    IllegalMove,
    Layout,
    Move,
    Option,
    Rules,
    Shuffler,
    TARGET,
)
from fairdeal.rules.position import Places, PositionError, hand_places
from fairdeal.rules.summary import HandSummary, SeatNames, display

__all__ = [
    "CrazyEights",
    "CrazyEightsState",
    "CrazyEightsView",
    "auto_card_order",
    "card_points",
    "check_pile",
    "deal_hands",
    "fits",
    "most_held_suit",
    "turn_starter",
    "wanted_json",
]


def card_points(card: Card) -> int:
    """What a card left in hand counts: eight 50; K, Q, J, 10: 10; ace 1; others their number.

    >>> [card_points(Card.parse(c)) for c in ("8S", "KH", "TD", "AC", "7C")]
    [50, 10, 10, 1, 7]
    """
    if card.rank == Rank.EIGHT:
        return 50
    return min(int(card.rank), 10)


def auto_card_order(card: Card) -> tuple[int, int, int]:
    """The order in which a timed-out turn picks "your lowest card": by points,
    then rank, then suit (clubs first). Eights, worth 50, come last.

    >>> min(map(Card.parse, ["8C", "KS", "TH", "AD"]), key=auto_card_order)
    Card.parse('AD')
    """
    return (card_points(card), int(card.rank), int(card.suit))


_card_index = operator.attrgetter("index")

_AUTO_CARD_ORDER = tuple(auto_card_order(card) for card in ALL_CARDS)
"""auto_card_order of every card, by its index (the table's timer asks it of every playable card)."""


def _auto_card_order(card: Card) -> tuple[int, int, int]:
    return _AUTO_CARD_ORDER[card.index]


_PLAYS = tuple(Move.play(card) for card in ALL_CARDS)
"""The play of every card naming no suit, by the card's index: the timer's move, made once
(a move is a value; a verifier checks thousands of timed-out turns)."""


@dataclass(frozen=True, slots=True)
class CrazyEightsState:
    """One hand of Crazy Eights, everything included (hidden cards too)."""

    hand: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    """Top first."""
    pile: tuple[Card, ...]
    """Bottom first; the last card is the top of the pile."""
    named: Suit | None
    """The suit named by the eight on top of the pile, if it is an eight."""
    turn: int | None
    """The seat to act; ``None`` once the hand is over."""
    drawn: int = 0
    """Cards the seat to act has drawn this turn."""
    pending: Card | None = None
    """The card just drawn that fits: the seat must play it or keep it."""
    passes: int = 0
    """Passes in a row; as many as there are seats block the hand."""
    restocks: int = 0
    result: HandResult | None = None
    dealt: tuple[tuple[Card, ...], ...] = ()
    """The hands as dealt, for the report."""
    turned: tuple[Card, ...] = ()
    """Cards turned for the starter: eights sent back into the stock, then the starter."""
    restocked: tuple[tuple[Card, ...], ...] = ()
    """Each restock's new stock, top first, for the report."""

    @property
    def seats(self) -> int:
        return len(self.hands)

    @property
    def top(self) -> Card:
        return self.pile[-1]

    @property
    def can_draw(self) -> bool:
        """A card can be drawn: from the stock, or from a restock of the pile under its top card."""
        return bool(self.stock) or len(self.pile) > 1


replace = fast_replace(CrazyEightsState)
# The two moves of nearly every turn, each setting the same fields every time.
_played = fast_update(CrazyEightsState, "hands", "pile", "named", "turn", "drawn", "pending", "passes")
_drew = fast_update(CrazyEightsState, "hands", "stock", "drawn", "pending", "passes")


@dataclass(frozen=True, slots=True)
class CrazyEightsView:
    """What one seat sees (``seat`` is ``None`` for a spectator, who sees no hand)."""

    seat: int | None
    hand_no: int
    dealer: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    top: Card
    named: Suit | None
    stock_size: int
    pile_size: int
    turn: int | None
    drawn: int
    pending: Card | None
    """The fitting card the seat drew, only in its own view."""
    passes: int
    restocks: int
    restock_limit: int
    result: HandResult | None

    @property
    def can_draw(self) -> bool:
        return self.stock_size > 0 or self.pile_size > 1

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "hand": codes(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "top": self.top.code,
            "named": None if self.named is None else self.named.letter,
            "stock_size": self.stock_size,
            "pile_size": self.pile_size,
            "turn": self.turn,
            "drawn": self.drawn,
            "pending": None if self.pending is None else self.pending.code,
            "passes": self.passes,
            "restocks": self.restocks,
            "restock_limit": self.restock_limit,
            # What the table page shows, as the rules say it: what may go on the pile.
            "next": wanted_json(self.top, self.named),
        }


def fits(card: Card, top: Card, named: Suit | None) -> bool:
    """Whether ``card`` may go on ``top``: an eight always; after an eight, the suit it
    named; else the top card's suit or rank. The Eights games share it.

    >>> fits(Card.parse("9C"), Card.parse("9H"), None), fits(Card.parse("9C"), Card.parse("8H"), Suit.SPADES)
    (True, False)
    """
    if card.rank == Rank.EIGHT:
        return True
    if named is not None:
        return card.suit == named
    return card.suit == top.suit or card.rank == top.rank


def check_pile(pile: Sequence[Card], named: Suit | None, turned: Sequence[Card]) -> None:
    """A position's pile (the Eights games share it): a top card, a suit named exactly when that
    top card is an eight, and the starter's turn-up on record (``turned``).

    >>> check_pile((Card.parse("9C"),), Suit.SPADES, (Card.parse("9C"),))
    Traceback (most recent call last):
    ...
    fairdeal.rules.position.PositionError: named: S is named, but the top of the pile, 9C, is not an eight
    """
    if not pile:
        raise PositionError("the pile is empty: it holds at least the starter", field="pile")
    top = pile[-1]
    if named is not None and top.rank != Rank.EIGHT:
        raise PositionError(f"{named.letter} is named, but the top of the pile, {top}, is not an eight", field="named")
    if named is None and top.rank == Rank.EIGHT:
        raise PositionError(f"the eight on top of the pile, {top}, names no suit", field="named")
    if not turned or turned[-1].rank == Rank.EIGHT:
        raise PositionError("the cards turned for the starter end with the starter, which is no eight", field="turned")


def why_on_pile(move: Move, top: Card, named: Suit | None, hand: Sequence[Card]) -> str | None:
    """Why a play fits the pile, or why a draw or a pass was the move, for the hand replayer
    (:meth:`Rules.why_legal`); ``None`` for a move the pile games leave to their own words.
    The Eights games share it.

    >>> eight, nine = Card.parse("8H"), Card.parse("9C")
    >>> why_on_pile(Move.play(eight, Suit.SPADES), nine, None, [eight])
    'an eight is wild: names spades'
    >>> why_on_pile(Move.play(Card.parse("9H")), nine, None, []), why_on_pile(Move.play(Card.parse("4C")), nine, None, [])
    ('9♥ on 9♣: same rank', '4♣ on 9♣: same suit')
    >>> why_on_pile(Move.draw(), nine, None, [Card.parse("KD")])
    'no card fits: draws'
    """
    if move.kind == "play":
        card = move.card
        if card.rank == Rank.EIGHT:
            return f"an eight is wild: names {move.suit.plural}" if move.suit is not None else "an eight is wild"
        if named is not None:
            return f"{card.display} on {top.display}: {named.plural} were named"
        if card.suit == top.suit:
            return f"{card.display} on {top.display}: same suit"
        return f"{card.display} on {top.display}: same rank"
    fitting = any(fits(c, top, named) for c in hand)
    if move.kind == "draw":
        return "a card fits, but drawing is allowed: draws" if fitting else "no card fits: draws"
    if move.kind == "pass":
        return "no card fits and there is nothing to draw: passes"
    return None


def wanted_json(top: Card, named: Suit | None) -> dict[str, str | None]:
    """What may go on ``top`` now, as the table page says it: a card of ``suit``, or of
    ``rank`` (``None`` after an eight names a suit), or any ``wild`` card. It says what
    :func:`fits` decides, card for card.

    >>> wanted_json(Card.parse("9H"), None), wanted_json(Card.parse("8H"), Suit.CLUBS)
    ({'suit': 'H', 'rank': '9', 'wild': '8'}, {'suit': 'C', 'rank': None, 'wild': '8'})
    >>> top = Card.parse("TD")
    >>> all(fits(c, top, None) == (c.suit.letter == "D" or c.rank.letter in ("T", "8")) for c in pack())
    True
    """
    return {
        "suit": (top.suit if named is None else named).letter,
        "rank": None if named is not None else top.rank.letter,
        "wild": Rank.EIGHT.letter,
    }


def _why_not(
    card: Card,
    *,
    is_turn: bool,
    over: bool,
    hand: Sequence[Card],
    top: Card,
    named: Suit | None,
    pending: Card | None,
    drawn: int,
    can_draw: bool,
) -> str | None:
    """Why ``card`` cannot be played now, or ``None``; shared by the engine and :meth:`explain`."""
    if over:
        return "the hand is over"
    if not is_turn:
        return "it is not your turn"
    if card not in hand:
        return f"you do not hold {card.display}"
    if pending is not None and card is not pending:
        return f"you must play or keep the card you drew ({pending.display})"
    if pending is None and drawn and can_draw:
        return "you have started drawing: draw until a card fits"
    if fits(card, top, named):
        return None
    if named is not None:
        return f"{card.display} does not match {named.symbol}, the suit named with {top.display}"
    return f"{card.display} does not match {top.display} in suit or rank"


def most_held_suit(hand: Sequence[Card], fallback: Suit) -> Suit:
    """The suit a timed-out eight names: the one the hand holds most of (clubs first on ties).

    >>> most_held_suit([Card.parse(c) for c in ("2H", "5H", "KS")], Suit.CLUBS).name
    'HEARTS'
    """
    if not hand:
        return fallback
    counts = [0, 0, 0, 0]
    for card in hand:
        counts[card.suit] += 1
    return Suit(counts.index(max(counts)))


def deal_hands(
    order: Sequence[Card], seats: int, dealer: int, size: int
) -> tuple[tuple[tuple[Card, ...], ...], list[Card]]:
    """Deal ``size`` cards to each seat from the top of ``order``, one at a time, clockwise
    from the dealer's left (protocol v1, step 11); the hands in seat order and the rest.

    >>> hands, rest = deal_hands(pack()[:7], 3, dealer=2, size=2)
    >>> [" ".join(c.code for c in h) for h in hands], rest
    (['AC 4C', '2C 5C', '3C 6C'], [Card.parse('7C')])
    """
    first = (dealer + 1) % seats
    # Card i goes to seat first + i.
    hands = tuple(tuple(order[(seat - first) % seats : size * seats : seats]) for seat in range(seats))
    return hands, list(order[size * seats :])


def turn_starter(stock: list[Card]) -> tuple[Card, list[Card], list[Card]]:
    """Turn the starter from the top of ``stock``: an eight goes back into the middle of the
    stock (protocol v1, step 11) and the next card is turned. The starter, every card turned
    (the eights, then the starter), and the stock left.

    >>> starter, turned, stock = turn_starter([Card.parse(c) for c in ("8H", "2C", "3C", "4C", "5C")])
    >>> starter, [c.code for c in turned], [c.code for c in stock]
    (Card.parse('2C'), ['8H', '2C'], ['3C', '8H', '4C', '5C'])
    """
    stock = list(stock)
    turned = []
    while True:
        starter = stock.pop(0)
        turned.append(starter)
        if starter.rank != Rank.EIGHT:
            return starter, turned, stock
        stock.insert(len(stock) // 2, starter)


def _ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` ... ``11th`` ... ``21st``.

    >>> [_ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st', '111th']
    """
    if n % 100 in (11, 12, 13):
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def _find(hand: tuple[Card, ...], card: Card) -> int:
    """Where ``card`` is in ``hand``, or -1.

    Cards are interned, so a card equals only itself: ``is`` answers what ``in``
    and ``index`` do, without the comparison they make for every other card held
    (through Card's ordering methods, written in Python, twice a card).

    >>> from fairdeal.cards import parse_cards
    >>> hand = tuple(parse_cards("9C 8H KD"))
    >>> _find(hand, Card.parse("KD")), _find(hand, Card.parse("2S"))
    (2, -1)
    """
    for i, held in enumerate(hand):
        if held is card:
            return i
    return -1


def _remove(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = _find(hand, card)
    if i < 0:
        raise ValueError(f"{card} is not in the hand")
    return hand[:i] + hand[i + 1 :]


class CrazyEights(Rules):
    """Crazy Eights at the online table: 2 to 6 players, one pack, to 100 points.

    Options: ``target`` (points that end the match, default 100) and
    ``restock_limit`` (run-outs of the stock a hand survives, default 20).
    """

    renderer = "crazy_eights"

    name = "crazy-eights"
    lobby_order = 10
    title = "Crazy Eights"
    min_seats = 2
    max_seats = 6
    first_dealer_rank = Rank.ACE
    family = "Draw-pile games"
    summary_line = "Match the top card by suit or rank; eights are wild. First out scores the others' cards."
    OPTIONS = (TARGET, Option("restock_limit", 20, 0, 1000, help="run-outs of the stock a hand survives"))
    layout = Layout(hands="7 cards each with two players, else 5", stock=True, starter=True)

    @staticmethod
    def hand_size(seats: int) -> int:
        return 7 if seats == 2 else 5

    # -- the position (state JSON, spec/state.md) ----------------------------

    state_type = CrazyEightsState

    def card_places(self, state: CrazyEightsState) -> Places:
        """Where the cards are: the hands, the stock, the pile (the drawn card that fits is in its
        drawer's hand; ``dealt``, ``turned`` and ``restocked`` are history)."""
        return [*hand_places(state.hands), ("in the stock", state.stock), ("on the pile", state.pile)]

    def check_position(self, state: CrazyEightsState) -> None:
        check_pile(state.pile, state.named, state.turned)
        seats = state.seats
        if not 0 <= state.passes < seats + (state.result is not None):
            raise PositionError(f"{state.passes} passes in a row at {seats} seats (as many block the hand)", field="passes")
        if state.drawn < 0:
            raise PositionError(f"{state.drawn} cards drawn", field="drawn")
        if state.restocks != len(state.restocked):
            raise PositionError(f"{state.restocks} restocks, but restocked lists {len(state.restocked)}", field="restocks")
        if state.restocks > self.options["restock_limit"]:
            raise PositionError(f"{state.restocks} restocks, more than the restock_limit {self.options['restock_limit']}", field="restocks")
        if state.pending is not None:
            hand = () if state.turn is None else state.hands[state.turn]
            if not hand or hand[-1] is not state.pending or not state.drawn:
                raise PositionError(f"{state.pending} is not the card the seat to act has just drawn (the last of its hand)", field="pending")
            if not fits(state.pending, state.top, state.named):
                raise PositionError(f"{state.pending}, the card just drawn, does not fit the pile: it is no pending card", field="pending")

    # -- dealing ---------------------------------------------------------

    def deal(self, seats: int, dealer: int, hand: int, shuffle: Shuffler) -> tuple[CrazyEightsState, list[Event]]:
        self.check_seats(seats)
        order = shuffle(f"hand/{hand}/deal", pack())
        first = (dealer + 1) % seats
        hands, stock = deal_hands(order, seats, dealer, self.hand_size(seats))
        starter, turned, stock = turn_starter(stock)
        state = CrazyEightsState(
            hand=hand,
            dealer=dealer,
            hands=hands,
            stock=tuple(stock),
            pile=(starter,),
            named=None,
            turn=first,
            dealt=hands,
            turned=tuple(turned),
        )
        event = {"type": "deal", "hand": hand, "dealer": dealer, "turned": codes(turned)}
        return state, [event]

    # -- seeing ----------------------------------------------------------

    def view(self, state: CrazyEightsState, seat: int | None) -> CrazyEightsView:
        check_view_seat(seat, state.seats)
        own = seat is not None and seat == state.turn
        return CrazyEightsView(
            seat=seat,
            hand_no=state.hand,
            dealer=state.dealer,
            hand=() if seat is None else state.hands[seat],
            hand_sizes=tuple(len(h) for h in state.hands),
            top=state.top,
            named=state.named,
            stock_size=len(state.stock),
            pile_size=len(state.pile),
            turn=state.turn,
            drawn=state.drawn,
            pending=state.pending if own else None,
            passes=state.passes,
            restocks=state.restocks,
            restock_limit=self.options["restock_limit"],
            result=state.result,
        )

    def explain(self, view: CrazyEightsView, card: Card) -> str | None:
        return _why_not(
            card,
            is_turn=has_turn(view),
            over=view.result is not None,
            hand=view.hand,
            top=view.top,
            named=view.named,
            pending=view.pending,
            drawn=view.drawn,
            can_draw=view.can_draw,
        )

    def why_legal(self, view: CrazyEightsView, move: Move) -> str:
        if view.pending is not None:
            if move.kind == "keep":
                return f"keeps the card drawn, {view.pending.display}, though it fits"
            if move.kind == "play" and move.card == view.pending:
                return f"plays the card just drawn ({why_on_pile(move, view.top, view.named, ())})"
        if move.kind == "draw":
            # An empty stock: the draw shuffles the pile under its top card into a new one.
            restock = "" if view.stock_size else " from a new stock (the pile under its top card, shuffled)"
            if view.drawn:
                return f"still no fit: draws again{restock}"
            return (why_on_pile(move, view.top, view.named, view.hand) or "draws") + restock
        return why_on_pile(move, view.top, view.named, view.hand) or super().why_legal(view, move)

    def legal_moves(self, view: CrazyEightsView) -> list[Move]:
        if view.result is not None or not has_turn(view):
            return []
        if view.pending is not None:
            return [*self._plays(view.pending), Move.keep()]
        if view.drawn and view.can_draw:
            return [Move.draw()]
        moves = []
        for card in sorted(set(view.hand)):
            if fits(card, view.top, view.named):
                moves.extend(self._plays(card))
        if view.can_draw:
            moves.append(Move.draw())
        elif not moves:
            moves.append(Move.pass_())
        return moves

    @staticmethod
    def _plays(card: Card) -> list[Move]:
        if card.rank == Rank.EIGHT:
            return [Move.play(card, suit) for suit in Suit]
        return [Move.play(card)]

    # -- playing ---------------------------------------------------------

    def apply(
        self, state: CrazyEightsState, seat: int, move: Move, shuffle: Shuffler
    ) -> tuple[CrazyEightsState, list[Event]]:
        if state.result is not None:
            raise IllegalMove("the hand is over", move=move, seat=seat)
        if seat != state.turn:
            raise IllegalMove("it is not your turn", move=move, seat=seat)
        kind = move.kind
        if kind == "play":
            return self._play(state, seat, move), []
        if kind == "draw":
            if state.pending is not None:
                raise IllegalMove(f"you must play or keep the card you drew ({state.pending.display})", move=move, seat=seat)
            if not state.stock and len(state.pile) < 2:  # (not state.can_draw, spelt out: this runs every draw)
                raise IllegalMove("there is nothing to draw: the stock is empty and the pile has only its top card", move=move, seat=seat)
            return self._draw(state, seat, shuffle)
        if kind == "keep":
            if state.pending is None:
                raise IllegalMove("you can only keep a card you have just drawn that fits", move=move, seat=seat)
            return self._next_turn(state, passes=0), []
        if kind == "pass":
            if state.pending is not None:
                raise IllegalMove(f"you must play or keep the card you drew ({state.pending.display})", move=move, seat=seat)
            if state.can_draw:
                raise IllegalMove("you may pass only when there is nothing to draw", move=move, seat=seat)
            top, named = state.top, state.named
            playable = [c for c in state.hands[seat] if fits(c, top, named)]
            if playable:
                raise IllegalMove(f"you may pass only when you cannot play, and {playable[0].display} fits", move=move, seat=seat)
            passes = state.passes + 1
            if passes == state.seats:
                return self._blocked(replace(state, passes=passes), "everyone passed in turn"), []
            return self._next_turn(state, passes=passes), []
        raise IllegalMove(f"Crazy Eights has no move {kind!r}", move=move, seat=seat)

    def _play(self, state: CrazyEightsState, seat: int, move: Move) -> CrazyEightsState:
        card = move.card
        hands = state.hands
        hand, pile, named, pending = hands[seat], state.pile, state.named, state.pending
        top = pile[-1]
        at = _find(hand, card)
        # A legal play passes these four tests (a verifier replays every move, so they are
        # spelt out here); _why_not, which makes them in the same order, says which one failed.
        if (
            at < 0
            or (card is not pending if pending is not None else state.drawn and (state.stock or len(pile) > 1))
            or not fits(card, top, named)
        ):
            problem = _why_not(
                card,
                is_turn=True,
                over=False,
                hand=hand,
                top=top,
                named=named,
                pending=pending,
                drawn=state.drawn,
                can_draw=state.can_draw,
            )
            raise IllegalMove(problem, move=move, seat=seat)
        if card.rank == Rank.EIGHT:
            if move.suit is None:
                raise IllegalMove(f"name a suit for {card.display}", move=move, seat=seat)
        elif move.suit is not None:
            raise IllegalMove("only an eight names a suit", move=move, seat=seat)
        new_hand = hand[:at] + hand[at + 1 :]
        hands = hands[:seat] + (new_hand,) + hands[seat + 1 :]
        pile = pile + (card,)
        seats = len(hands)
        if not new_hand:
            counts = tuple(sum(map(card_points, h)) for h in hands)
            scores = tuple(sum(counts) if s == seat else 0 for s in range(seats))
            result = HandResult("out", (seat,), counts, scores, f"seat {seat} went out")
            return replace(state, hands=hands, pile=pile, named=move.suit, turn=None, drawn=0, pending=None,
                           passes=0, result=result)
        # The play and the next turn in one new state (a verifier replays every move).
        return _played(state, hands, pile, move.suit, (seat + 1) % seats, 0, None, 0)

    def _draw(self, state: CrazyEightsState, seat: int, shuffle: Shuffler) -> tuple[CrazyEightsState, list[Event]]:
        events: list[Event] = []
        if not state.stock:
            # The stock ran out: rebuild it from the pile under its top card, unless
            # it already has run out as often as the table allows.
            if state.restocks >= self.options["restock_limit"]:
                reason = f"the stock ran out for the {_ordinal(state.restocks + 1)} time"
                return self._blocked(state, reason), []
            r = state.restocks + 1
            gathered = sorted(state.pile[:-1], key=_card_index)  # (card order: by index, without Card.__lt__)
            stock = tuple(shuffle(f"hand/{state.hand}/restock/{r}", gathered))
            state = replace(
                state,
                stock=stock,
                pile=state.pile[-1:],
                restocks=r,
                restocked=state.restocked + (stock,),
            )
            events.append({"type": "restock", "hand": state.hand, "restock": r, "cards": len(stock)})
        stock, hands = state.stock, state.hands
        card = stock[0]
        hands = hands[:seat] + (hands[seat] + (card,),) + hands[seat + 1 :]
        fitting = fits(card, state.pile[-1], state.named)
        return _drew(state, hands, stock[1:], state.drawn + 1, card if fitting else None, 0), events

    def _next_turn(self, state: CrazyEightsState, passes: int) -> CrazyEightsState:
        return replace(state, turn=(state.turn + 1) % state.seats, drawn=0, pending=None, passes=passes)

    def _blocked(self, state: CrazyEightsState, reason: str) -> CrazyEightsState:
        counts = tuple(sum(map(card_points, h)) for h in state.hands)
        low = min(counts)
        winners = tuple(s for s, c in enumerate(counts) if c == low)
        won = sum(c - low for c in counts)
        scores = tuple(won if c == low else 0 for c in counts)
        result = HandResult("blocked", winners, counts, scores, reason)
        return replace(state, turn=None, drawn=0, pending=None, result=result)

    # -- the heuristic bot ------------------------------------------------------

    def heuristic_move(self, view: CrazyEightsView, moves: Sequence[Move]) -> Move:
        """The heuristic bot's move: see :func:`crazy_eights_choice`."""
        return crazy_eights_choice(view, moves)

    # -- the table's timer -------------------------------------------------

    def auto_move(self, state: CrazyEightsState) -> Move:
        """What the table plays for a seat whose timer ran out (spec/games/crazy-eights.md):

        the card it drew and must play or keep is played; while drawing it
        draws on; otherwise it plays its lowest playable card (by points, rank,
        suit; so eights last), else draws, else passes. A timed-out eight names
        the suit the seat then holds most of (clubs first on ties), or its own
        suit when it was the last card.
        """
        if state.result is not None or state.turn is None:
            raise IllegalMove("the hand is over")
        seat = state.turn
        hand = state.hands[seat]
        if state.pending is not None:
            return self._auto_play(state.pending, hand)
        can_draw = bool(state.stock) or len(state.pile) > 1  # (state.can_draw: a timed-out turn asks every time)
        if state.drawn and can_draw:
            return Move.draw()
        top, named = state.pile[-1], state.named
        playable = [c for c in hand if fits(c, top, named)]
        if playable:
            return self._auto_play(min(playable, key=_auto_card_order), hand)
        if can_draw:
            return Move.draw()
        return Move.pass_()

    @staticmethod
    def _auto_play(card: Card, hand: tuple[Card, ...]) -> Move:
        if card.rank != Rank.EIGHT:
            return _PLAYS[card.index]
        return Move.play(card, most_held_suit(_remove(hand, card), card.suit))

    # -- reporting --------------------------------------------------------

    def summary(self, state: CrazyEightsState) -> CrazyEightsSummary:
        return CrazyEightsSummary(deal=state.dealt, turned=state.turned, restocks=state.restocked)

    def describe_deal(self, state: CrazyEightsState, names: SeatNames) -> list[str]:
        return describe_starter(state, super().describe_deal(state, names))

    def describe_table(self, before: CrazyEightsState, after: CrazyEightsState, names: SeatNames) -> str:
        return describe_pile(after)

    def describe_event(self, event: Event, names: SeatNames) -> str:
        if event.get("type") == "restock":
            return f"the stock ran out: restock {event['restock']}, {event['cards']} cards"
        return super().describe_event(event, names)


@dataclass(frozen=True, kw_only=True)
class StarterSummary(HandSummary):
    """A hand of the draw-pile games with a starter: ``turned``, the cards turned up for
    the starter (an eight goes back into the stock; the last is the starter)."""

    turned: tuple[Card, ...]

    @property
    def starter(self) -> Card:
        return self.turned[-1]

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "starter": self.starter.code, "turned": codes(self.turned)}

    def lines(self, names: SeatNames) -> list[str]:
        back = self.turned[:-1]
        return super().lines(names) + [
            f"  starter {self.starter.display}" + (f" (eights turned back into the stock: {display(back)})" if back else "")
        ]


@dataclass(frozen=True, kw_only=True)
class CrazyEightsSummary(StarterSummary):
    """A Crazy Eights hand: the deal, the starter, and each ``restocks``' new stock, top first.

    >>> from fairdeal.cards import parse_cards
    >>> from fairdeal.rules.summary import SeatNames
    >>> summary = CrazyEightsSummary(deal=(tuple(parse_cards("9C")),), turned=tuple(parse_cards("8S 4D")),
    ...                              restocks=(tuple(parse_cards("KH 2C")),))
    >>> summary.to_json()["restocks"], summary.lines(SeatNames(("Ann",)))[1:]
    ([{'restock': 1, 'stock': ['KH', '2C']}], ['  starter 4♦ (eights turned back into the stock: 8♠)', '  restock 1: 2 cards, new stock (top first) K♥ 2♣'])
    """

    restocks: tuple[tuple[Card, ...], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "restocks": [{"restock": r, "stock": codes(s)} for r, s in enumerate(self.restocks, 1)]}

    def lines(self, names: SeatNames) -> list[str]:
        return super().lines(names) + [
            f"  restock {r}: {len(stock)} cards, new stock (top first) {display(stock)}"
            for r, stock in enumerate(self.restocks, 1)
        ]


def describe_starter(state: Any, lines: list[str]) -> list[str]:
    """A deal's replay lines with the starter (the pile's top) named in the header."""
    if state.pile:
        lines[0] += f", starter {state.pile[-1].display}"
    return lines


def describe_pile(state: Any) -> str:
    """The replay's note on the pile after a move: its top card, and the suit an eight named."""
    if not state.pile:
        return ""
    return f"; pile {state.pile[-1].display}" + (f" ({state.named.symbol} named)" if state.named is not None else "")


# -- the heuristic bot ----------------------------------------------------------


KEEP_EIGHT_UNLESS_OPPONENT_HOLDS = 2
"""A drawn eight is kept unless some opponent holds this many cards or fewer."""


def natural_suit_counts(cards: Sequence[Card]) -> list[int]:
    """How many cards of each suit, eights left out: an eight is wild, it belongs to no suit.

    >>> natural_suit_counts([Card.parse(c) for c in ("8H", "2H", "KS")])
    [0, 0, 1, 1]
    """
    counts = [0, 0, 0, 0]
    for card in cards:
        if card.rank != Rank.EIGHT:
            counts[card.suit] += 1
    return counts


def _natural_suit_points(cards: Sequence[Card]) -> list[int]:
    points = [0, 0, 0, 0]
    for card in cards:
        if card.rank != Rank.EIGHT:
            points[card.suit] += card_points(card)
    return points


def play_eight(hand: Sequence[Card], eight: Card) -> Move:
    """The heuristic bot's play of ``eight`` from ``hand``: it names the suit it then holds most
    of (eights aside), then the suit worth most points, then clubs first.

    >>> play_eight([Card.parse(c) for c in ("8C", "2H", "KS")], Card.parse("8C"))
    Move.play(Card.parse('8C'), Suit.SPADES)
    """
    rest = list(hand)
    rest.remove(eight)
    counts, points = natural_suit_counts(rest), _natural_suit_points(rest)
    suit = max(Suit, key=lambda s: (counts[s], points[s], -s))
    return Move.play(eight, suit)


def crazy_eights_choice(view: CrazyEightsView, moves: Sequence[Move]) -> Move:
    """The heuristic bot's move in Crazy Eights at the online table: it plays like a careful person.

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

    >>> rules = CrazyEights()
    >>> view = CrazyEightsView(0, 1, 1, tuple(Card.parse(c) for c in ("8S", "9C", "9H", "KH")), (4, 7),
    ...     Card.parse("9D"), None, 30, 1, 0, 0, None, 0, 0, 20, None)
    >>> crazy_eights_choice(view, rules.legal_moves(view))  # 9H: two hearts in hand; the eight waits
    Move.play(Card.parse('9H'))
    >>> view = CrazyEightsView(seat=0, hand_no=1, dealer=1, hand=tuple(Card.parse(c) for c in ("8C", "2H", "5H", "9S")),
    ...     hand_sizes=(4, 7), top=Card.parse("KD"), named=None, stock_size=30, pile_size=1, turn=0,
    ...     drawn=0, pending=None, passes=0, restocks=0, restock_limit=20, result=None)
    >>> crazy_eights_choice(view, rules.legal_moves(view))  # nothing but the eight fits: name hearts
    Move.play(Card.parse('8C'), Suit.HEARTS)
    """
    plays = [m for m in moves if m.kind == "play"]
    if view.pending is not None:
        return _drawn(view, plays) if plays else Move.keep()
    if plays:
        return _best_play(view.hand, plays)
    # No card fits: draw if the stock (or a restock) allows, else the rules leave only a pass.
    for kind in ("draw", "pass"):
        for move in moves:
            if move.kind == kind:
                return move
    return moves[0]  # pragma: no cover - Crazy Eights always offers one of the above


def _drawn(view: CrazyEightsView, plays: list[Move]) -> Move:
    card = view.pending
    if card.rank != Rank.EIGHT:
        return plays[0]
    opponents = [n for seat, n in enumerate(view.hand_sizes) if seat != view.seat]
    if min(opponents, default=99) <= KEEP_EIGHT_UNLESS_OPPONENT_HOLDS:
        return play_eight(view.hand, card)
    return Move.keep()


def _best_play(hand: Sequence[Card], plays: list[Move]) -> Move:
    naturals = [m.card for m in plays if m.card.rank != Rank.EIGHT]
    if naturals:
        counts = natural_suit_counts(hand)
        best = max(naturals, key=lambda c: (counts[c.suit], card_points(c), -c.index))
        return Move.play(best)
    eight = min(m.card for m in plays)
    return play_eight(hand, eight)
