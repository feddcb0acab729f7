"""Crazy Eights as played at fairdeal's online table, and the base of the games played like it.

The rules are ../shared/rules/crazy-eights-online-table.txt; where that text
leaves a case open, spec/games/crazy-eights.md says what this module does.

The games played onto a pile from a stock build on what this module shares: the
Eights games (fairdeal/rules/eights.py) and a plugin's variants, such as Switch
(examples/switch/), take :class:`PileGame`, :class:`PileState` and :class:`PileView`
(the deal and the starter, the pile, the restock, the replay's words), and its
helpers take the wild rank as a parameter: an eight here, Switch's ace. What fits the
pile, and the hand replayer's words for why a move was allowed there, are in
fairdeal/rules/pile.py (and may be imported from here too, as before).

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
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING
from typing import Any
from typing import ClassVar
from typing import TypedDict
from typing import TypeVar

from fairdeal.cards import ALL_CARDS
from fairdeal.cards import Card
from fairdeal.cards import Rank
from fairdeal.cards import Suit
from fairdeal.cards import codes
from fairdeal.rules.base import TARGET
from fairdeal.rules.base import Event
from fairdeal.rules.base import HandResult
from fairdeal.rules.base import HandState
from fairdeal.rules.base import IllegalMove
from fairdeal.rules.base import Layout
from fairdeal.rules.base import Move
from fairdeal.rules.base import Option
from fairdeal.rules.base import Rules
from fairdeal.rules.base import SeatView
from fairdeal.rules.base import Shuffler
from fairdeal.rules.base import TableJSON
from fairdeal.rules.base import check_turn
from fairdeal.rules.base import deal_hands
from fairdeal.rules.base import fast_replace
from fairdeal.rules.base import fast_update
from fairdeal.rules.base import has_turn
from fairdeal.rules.base import lowest_count_wins
from fairdeal.rules.base import not_held
from fairdeal.rules.base import seat_fields
from fairdeal.rules.base import seat_to_act
from fairdeal.rules.base import turn_problem
from fairdeal.rules.base import went_out
from fairdeal.rules.move import a
from fairdeal.rules.pile import fit_words
from fairdeal.rules.pile import fits
from fairdeal.rules.pile import restock_words
from fairdeal.rules.pile import why_on_pile
from fairdeal.rules.position import Places
from fairdeal.rules.position import PositionError
from fairdeal.rules.position import hand_places
from fairdeal.rules.summary import HandSummary
from fairdeal.rules.summary import SeatNames
from fairdeal.rules.summary import display
from fairdeal.said import Said
from fairdeal.said import ordinal_words

__all__ = [
    "CrazyEights",
    "CrazyEightsState",
    "CrazyEightsSummary",
    "CrazyEightsView",
    "PileGame",
    "PileState",
    "PileView",
    "StockTable",
    "StockView",
    "RESTOCK_LIMIT",
    "StarterSummary",
    "auto_card_order",
    "auto_play",
    "card_points",
    "check_named",
    "check_pile",
    "deal_hands",
    "describe_pile",
    "describe_starter",
    "draw_from_stock",
    "fit_words",
    "fits",
    "keep_or_play",
    "moves_on_pile",
    "most_held_suit",
    "name_a_suit",
    "pass_but_fits",
    "restock_words",
    "ALL_PASSED",
    "NOTHING_TO_DRAW",
    "NOTHING_TO_KEEP",
    "ONLY_AN_EIGHT_NAMES",
    "PASS_WHEN_NOTHING_TO_DRAW",
    "natural_suit_counts",
    "natural_suit_points",
    "pile_problem",
    "pile_top",
    "play_wild",
    "play_or_keep",
    "plays_of",
    "turn_starter",
    "wanted_json",
    "why_on_pile",
    "CrazyEightsTable",
    "Wanted",
]

RESTOCK_LIMIT = Option("restock_limit", 20, 0, 1000, help="run-outs of the stock a hand survives")
"""How often the stock of a game that restocks may run out in a hand (Crazy Eights, Switch)."""


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
class PileState(HandState):
    """What the state of a hand played onto a pile from a stock begins with (after the hand, the
    dealer and the hands): the stock, the pile, the suit a wild card on top of it named, and the
    seat to act. A game's state adds its own fields to these, the hand's ``result`` among them."""

    stock: tuple[Card, ...]
    """Top first."""
    pile: tuple[Card, ...]
    """Bottom first; the last card is the top of the pile."""
    named: Suit | None
    """The suit named by the wild card (Crazy Eights' eight) on top of the pile, if it is one."""
    turn: int | None
    """The seat to act; ``None`` once the hand is over."""

    if TYPE_CHECKING:  # pragma: no cover
        # Every game's state has its hand's result (a GameState). Each pile game's state declares
        # it as a field with a default, after its own fields: so here it is for the type checker only.
        @property
        def result(self) -> HandResult | None: ...

    @property
    def top(self) -> Card:
        return self.pile[-1]

    @property
    def can_draw(self) -> bool:
        """A card can be drawn: from the stock, or (a game that restocks) from a restock of the
        pile under its top card."""
        return bool(self.stock) or len(self.pile) > 1


@dataclass(frozen=True, slots=True)
class CrazyEightsState(PileState):
    """One hand of Crazy Eights, everything included (hidden cards too)."""

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


replace: Callable[..., CrazyEightsState] = fast_replace(CrazyEightsState)
# The two moves of nearly every turn, each setting the same fields every time.
_played = fast_update(CrazyEightsState, "hands", "pile", "named", "turn", "drawn", "pending", "passes")
_drew = fast_update(CrazyEightsState, "hands", "stock", "drawn", "pending", "passes")


@dataclass(frozen=True, slots=True)
class PileView(SeatView):
    """What a seat's view of a hand played onto a pile begins with: the seat's own (a
    :class:`~fairdeal.rules.base.SeatView`), then the pile's top card and the suit a wild
    card there named. A game's view adds its own fields, ``stock_size`` and ``pile_size`` among them."""

    top: Card
    named: Suit | None

    if TYPE_CHECKING:  # pragma: no cover
        # What every pile game's view has too: a GameView's members, and the stock's and the pile's
        # sizes. Each game's view declares them as fields after its other ones: so here they are for
        # the type checker only.
        @property
        def stock_size(self) -> int: ...
        @property
        def pile_size(self) -> int: ...
        @property
        def turn(self) -> int | None: ...
        @property
        def result(self) -> HandResult | None: ...
        def to_json(self) -> dict[str, Any]: ...

    @property
    def can_draw(self) -> bool:
        """A card can be drawn: the stock holds one, or the pile more than its top card."""
        return self.stock_size > 0 or self.pile_size > 1

    def pile_json(self) -> dict[str, Any]:
        """The members a pile game's view JSON begins with: the seat's, then the pile's top card
        and the suit named (cards as codes, suits as letters)."""
        return {**self.seat_json(), "top": self.top.code, "named": None if self.named is None else self.named.letter}


@dataclass(frozen=True, slots=True)
class StockView(PileView):
    """A pile game's view that goes on with the stock and the pile's sizes, the seat to act and
    the cards it has drawn this turn (Crazy Eights', the Eights games')."""

    stock_size: int
    pile_size: int
    turn: int | None
    drawn: int

    def stock_json(self) -> dict[str, Any]:
        """The members such a view's JSON begins with: :meth:`pile_json`'s, then these four."""
        return {
            **self.pile_json(),
            "stock_size": self.stock_size,
            "pile_size": self.pile_size,
            "turn": self.turn,
            "drawn": self.drawn,
        }


@dataclass(frozen=True, slots=True)
class CrazyEightsView(StockView):
    """What one seat sees (``seat`` is ``None`` for a spectator, who sees no hand)."""

    pending: Card | None
    """The fitting card the seat drew, only in its own view."""
    passes: int
    restocks: int
    restock_limit: int
    result: HandResult | None

    def to_json(self) -> dict[str, Any]:
        return {
            **self.stock_json(),
            "pending": None if self.pending is None else self.pending.code,
            "passes": self.passes,
            "restocks": self.restocks,
            "restock_limit": self.restock_limit,
            # What the table page shows, as the rules say it: what may go on the pile.
            "next": wanted_json(self.top, self.named),
        }


def pile_top(pile: Sequence[Card]) -> Card:
    """A position's pile's top card; :class:`PositionError` for an empty pile."""
    if not pile:
        raise PositionError("the pile is empty: it holds at least the starter", field="pile")
    return pile[-1]


def check_named(top: Card, named: Suit | None, wild: Rank = Rank.EIGHT) -> None:
    """A position's named suit: only a card of the ``wild`` rank on top of the pile names one.

    >>> check_named(Card.parse("9C"), Suit.SPADES, wild=Rank.ACE)
    Traceback (most recent call last):
    ...
    fairdeal.rules.position.PositionError: named: S is named, but the top of the pile, 9C, is not an ace
    """
    if named is not None and top.rank != wild:
        raise PositionError(
            f"{named.letter} is named, but the top of the pile, {top}, is not {a(wild.word)}", field="named"
        )


def check_pile(pile: Sequence[Card], named: Suit | None, turned: Sequence[Card], wild: Rank = Rank.EIGHT) -> None:
    """A position's pile (the Eights games share it): a top card, a suit named exactly when that
    top card is of the ``wild`` rank, and the starter's turn-up on record (``turned``: a wild
    card turned goes back into the stock).

    >>> check_pile((Card.parse("9C"),), Suit.SPADES, (Card.parse("9C"),))
    Traceback (most recent call last):
    ...
    fairdeal.rules.position.PositionError: named: S is named, but the top of the pile, 9C, is not an eight
    """
    top = pile_top(pile)
    check_named(top, named, wild)
    if named is None and top.rank == wild:
        raise PositionError(f"the {wild.word} on top of the pile, {top}, names no suit", field="named")
    if not turned or turned[-1].rank == wild:
        raise PositionError(
            f"the cards turned for the starter end with the starter, which is no {wild.word}", field="turned"
        )


def wanted_json(top: Card, named: Suit | None, wild: Rank = Rank.EIGHT) -> dict[str, str | None]:
    """What may go on ``top`` now, as the table page says it: a card of ``suit``, or of
    ``rank`` (``None`` after a wild card names a suit), or any card of the ``wild`` rank. It
    says what :func:`fits` decides, card for card.

    >>> wanted_json(Card.parse("9H"), None), wanted_json(Card.parse("8H"), Suit.CLUBS)
    ({'suit': 'H', 'rank': '9', 'wild': '8'}, {'suit': 'C', 'rank': None, 'wild': '8'})
    >>> from fairdeal.cards import pack
    >>> top = Card.parse("TD")
    >>> all(fits(c, top, None) == (c.suit.letter == "D" or c.rank.letter in ("T", "8")) for c in pack())
    True
    """
    return {
        "suit": (top.suit if named is None else named).letter,
        "rank": None if named is not None else top.rank.letter,
        "wild": wild.letter,
    }


def pile_problem(card: Card, top: Card, named: Suit | None, wild: Rank = Rank.EIGHT) -> str | None:
    """Why ``card`` may not go on ``top`` (:func:`fits`), or ``None`` when it may.

    >>> pile_problem(Card.parse("9C"), Card.parse("8H"), Suit.SPADES)
    '9♣ does not match ♠, the suit named with 8♥'
    """
    if fits(card, top, named, wild):
        return None
    if named is not None:
        return Said("{card} does not match {suit}, the suit named with {top}", card=card, suit=named.symbol, top=top)
    return Said("{card} does not match {top} in suit or rank", card=card, top=top)


def play_or_keep(pending: Card) -> str:
    """Why a seat that drew ``pending``, a card that fits, may do nothing else first.

    >>> play_or_keep(Card.parse("8H"))
    'you must play or keep the card you drew (8♥)'
    """
    return Said("you must play or keep the card you drew ({card})", card=pending)


def _why_not(
    card: Card,
    *,
    hand: Sequence[Card],
    top: Card,
    named: Suit | None,
    pending: Card | None,
    drawn: int,
    can_draw: bool,
) -> str | None:
    """Why the seat to act cannot play ``card``, or ``None``; shared by the engine and :meth:`explain`."""
    if card not in hand:
        return not_held(card)
    if pending is not None and card is not pending:
        return play_or_keep(pending)
    if pending is None and drawn and can_draw:
        return Said("you have started drawing: draw until a card fits")
    return pile_problem(card, top, named)


NOTHING_TO_DRAW = Said("there is nothing to draw: the stock is empty and the pile has only its top card")
NOTHING_TO_KEEP = Said("you can only keep a card you have just drawn that fits")
PASS_WHEN_NOTHING_TO_DRAW = Said("you may pass only when there is nothing to draw")
ALL_PASSED = Said("everyone passed in turn")
ONLY_AN_EIGHT_NAMES = Said("only an eight names a suit")


def pass_but_fits(card: Card) -> Said:
    """Why a seat that holds ``card``, which fits, may not pass.

    >>> pass_but_fits(Card.parse("9C"))
    'you may pass only when you cannot play, and 9♣ fits'
    """
    return Said("you may pass only when you cannot play, and {card} fits", card=card)


def name_a_suit(card: Card) -> Said:
    """Why a play of ``card``, a wild card, that names no suit is refused."""
    return Said("name a suit for {card}", card=card)


def plays_of(card: Card, wild: Rank = Rank.EIGHT) -> list[Move]:
    """The ways to play ``card``: a card of the ``wild`` rank once for each suit it may name,
    clubs first; any other card once.

    >>> plays_of(Card.parse("9C")), len(plays_of(Card.parse("8C")))
    ([Move.play(Card.parse('9C'))], 4)
    """
    if card.rank == wild:
        return [Move.play(card, suit) for suit in Suit]
    return [Move.play(card)]


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


def turn_starter(stock: list[Card], back: Rank | None = Rank.EIGHT) -> tuple[Card, list[Card], list[Card]]:
    """Turn the starter from the top of ``stock``: a card of rank ``back`` (an eight) goes back
    into the middle of the stock (protocol v1, step 11) and the next card is turned; with
    ``back`` ``None`` the first card is the starter. The starter, every card turned (the eights,
    then the starter), and the stock left.

    >>> starter, turned, stock = turn_starter([Card.parse(c) for c in ("8H", "2C", "3C", "4C", "5C")])
    >>> starter, [c.code for c in turned], [c.code for c in stock]
    (Card.parse('2C'), ['8H', '2C'], ['3C', '8H', '4C', '5C'])
    >>> turn_starter([Card.parse(c) for c in ("8H", "2C")], back=None)[0]
    Card.parse('8H')
    """
    stock = list(stock)
    turned = []
    while True:
        starter = stock.pop(0)
        turned.append(starter)
        if starter.rank != back:
            return starter, turned, stock
        stock.insert(len(stock) // 2, starter)


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


def auto_play(card: Card, hand: tuple[Card, ...], wild: Rank = Rank.EIGHT) -> Move:
    """The timer's play of ``card`` from ``hand``: a card of the ``wild`` rank names the suit the
    hand then holds most of (clubs first on ties), or its own suit when it was the last card.

    >>> auto_play(Card.parse("8C"), (Card.parse("8C"), Card.parse("2H"))), auto_play(Card.parse("2H"), ())
    (Move.play(Card.parse('8C'), Suit.HEARTS), Move.play(Card.parse('2H')))
    """
    if card.rank != wild:
        return _PLAYS[card.index]
    return Move.play(card, most_held_suit(_remove(hand, card), card.suit))


def draw_from_stock(state: Any, seat: int) -> dict[str, Any]:
    """The fields that ``seat``'s draw of the stock's top card changes, in a game that counts a
    turn's draws (``drawn``) and keeps every draw for the report (``draws``: the Eights games,
    Go Boom): the seat's hand, the stock, ``drawn`` and ``draws``."""
    card, hands = state.stock[0], state.hands
    return {
        "hands": hands[:seat] + (hands[seat] + (card,),) + hands[seat + 1 :],
        "stock": state.stock[1:],
        "drawn": state.drawn + 1,
        "draws": state.draws + ((seat, card),),
    }


def moves_on_pile(cards: Sequence[Card], may_draw: bool, wild: Rank = Rank.EIGHT) -> list[Move]:
    """The moves of a seat whose ``cards`` fit the pile (in card order): each way to play them
    (:func:`plays_of`), then a draw if it ``may_draw``, else a pass if nothing fits.

    >>> moves_on_pile([], may_draw=False), moves_on_pile([Card.parse("9C")], may_draw=True)
    ([Move.pass_()], [Move.play(Card.parse('9C')), Move.draw()])
    """
    moves = [move for card in cards for move in plays_of(card, wild)]
    if may_draw:
        moves.append(Move.draw())
    elif not moves:
        moves.append(Move.pass_())
    return moves


PileStateT = TypeVar("PileStateT", bound=PileState)
"""A pile game's state: a :class:`PileState` with the game's own fields."""
PileViewT = TypeVar("PileViewT", bound=PileView)
"""A pile game's view: a :class:`PileView` with the game's own fields."""


class PileGame(Rules[PileStateT, PileViewT]):
    """What the games played onto a pile from a stock share (Crazy Eights, the Eights games, a
    plugin's Switch): the deal and the starter turned from the stock, where the cards are, the
    pile's part of a view, the stock rebuilt from the pile, the timer's move, the replay's words.

    A game says which rank is :attr:`wild`, how many cards a seat gets (:meth:`hand_size`), what
    its state adds at the deal (:meth:`deal_fields`), and how its moves play and score. Its state
    is a :class:`PileState` and its view a :class:`PileView` (the class is generic in both:
    ``class CrazyEights(PileGame[CrazyEightsState, CrazyEightsView])``); a game that restocks has
    ``pending``, ``passes``, ``restocks`` and ``restocked`` fields too (see :meth:`restock`). The
    methods that read fields a :class:`PileState` does not declare take a state of any type.
    """

    family = "Draw-pile games"
    first_dealer_rank = Rank.ACE

    wild: ClassVar[Rank] = Rank.EIGHT
    """The rank that goes on any card and names the suit to follow."""
    turned_back: ClassVar[Rank | None] = Rank.EIGHT
    """A starter of this rank goes back into the stock and the next card is turned (``None``:
    the first card turned is the starter, whatever it is)."""

    @staticmethod
    def hand_size(seats: int) -> int:
        """The cards each seat is dealt: 7 each with two players, else 5."""
        return 7 if seats == 2 else 5

    # -- the position (state JSON, spec/state.md) ----------------------------

    def card_places(self, state: PileStateT) -> Places:
        """Where the cards are: the hands, the stock, the pile (a drawn card that fits is in its
        drawer's hand; ``dealt``, ``turned`` and the records of draws and restocks are history)."""
        return [*hand_places(state.hands), (Said("in the stock"), state.stock), (Said("on the pile"), state.pile)]

    def fits_pile(self, card: Card, state: PileStateT) -> bool:
        """Whether ``card`` may go on the pile of ``state`` now (:func:`fits` with the :attr:`wild` rank)."""
        return fits(card, state.top, state.named, self.wild)

    def check_passes(self, state: Any) -> None:
        """A position's passes in a row: fewer than the seats, as many only once they blocked the hand."""
        seats = state.seats
        if not 0 <= state.passes < seats + (state.result is not None):
            raise PositionError(
                f"{state.passes} passes in a row at {seats} seats (as many block the hand)", field="passes"
            )

    def check_restocks(self, state: Any) -> None:
        """A position's restocks: one new stock on record for each, and no more than ``restock_limit``."""
        if state.restocks != len(state.restocked):
            raise PositionError(
                f"{state.restocks} restocks, but restocked lists {len(state.restocked)}", field="restocks"
            )
        if state.restocks > self.options["restock_limit"]:
            raise PositionError(
                f"{state.restocks} restocks, more than the restock_limit {self.options['restock_limit']}",
                field="restocks",
            )

    def check_pending(self, state: Any, drew: bool = True) -> None:
        """A position's pending card: the last card of the hand of the seat to act, which has just
        drawn it (``drew``), and a card that fits the pile."""
        pending = state.pending
        if pending is not None:
            hand = () if state.turn is None else state.hands[state.turn]
            if not hand or hand[-1] is not pending or not drew:
                raise PositionError(
                    f"{pending} is not the card the seat to act has just drawn (the last of its hand)", field="pending"
                )
            if not self.fits_pile(pending, state):
                raise PositionError(
                    f"{pending}, the card just drawn, does not fit the pile: it is no pending card", field="pending"
                )

    # -- dealing ---------------------------------------------------------

    def deal_fields(self, seats: int) -> dict[str, Any]:
        """The fields of the game's own state at the deal, besides a pile game's (Eights: the sides)."""
        return {}

    def deal(self, seats: int, dealer: int, hand: int, shuffle: Shuffler) -> tuple[PileStateT, list[Event]]:
        hands, stock = self.deal_cards(seats, dealer, hand, shuffle)
        starter, turned, stock = turn_starter(stock, self.turned_back)
        state: PileStateT = self.state_type(
            hand=hand,
            dealer=dealer,
            hands=hands,
            stock=tuple(stock),
            pile=(starter,),
            named=None,
            turn=(dealer + 1) % seats,
            dealt=hands,
            turned=tuple(turned),
            **self.deal_fields(seats),
        )
        return state, [{"type": "deal", "hand": hand, "dealer": dealer, "turned": codes(turned)}]

    # -- seeing ----------------------------------------------------------

    def pile_fields(self, state: PileStateT, seat: int | None) -> dict[str, Any]:
        """The :class:`PileView` fields of ``seat``'s view of ``state``."""
        return {**seat_fields(state, seat), "top": state.top, "named": state.named}

    def stock_fields(self, state: Any, seat: int | None) -> dict[str, Any]:
        """The :class:`StockView` fields of ``seat``'s view of ``state``."""
        return {
            **self.pile_fields(state, seat),
            "stock_size": len(state.stock),
            "pile_size": len(state.pile),
            "turn": state.turn,
            "drawn": state.drawn,
        }

    def restock_fields(self, state: Any, seat: int | None) -> dict[str, Any]:
        """The fields a restocking game's view ends with (Crazy Eights', Switch's): the card the
        seat to act drew and must play or keep (in its own view only), the passes in a row, the
        restocks so far and their limit, and the hand's result."""
        own = seat is not None and seat == state.turn
        return {
            "pending": state.pending if own else None,
            "passes": state.passes,
            "restocks": state.restocks,
            "restock_limit": self.options["restock_limit"],
            "result": state.result,
        }

    # -- playing ---------------------------------------------------------

    def restock(self, state: Any, shuffle: Shuffler) -> tuple[Any, list[Event]]:
        """The stock has run out: it is rebuilt from the pile under its top card, gathered in card
        order and shuffled with the label ``hand/{h}/restock/{r}`` (protocol v1, steps 9 and 10; r
        counts the hand's restocks); or, once it has run out ``restock_limit`` times, the hand is
        over (:meth:`out_of_stock`). The state and its events."""
        if state.restocks >= self.options["restock_limit"]:
            return self.out_of_stock(state), []
        r = state.restocks + 1
        gathered = sorted(state.pile[:-1], key=_card_index)  # (card order: by index, without Card.__lt__)
        stock = tuple(shuffle(f"hand/{state.hand}/restock/{r}", gathered))
        # (state.__class__, not type(state): to mypy no class is Hashable, as fast_replace's cache asks)
        state = fast_replace(state.__class__)(
            state, stock=stock, pile=state.pile[-1:], restocks=r, restocked=state.restocked + (stock,)
        )
        return state, [{"type": "restock", "hand": state.hand, "restock": r, "cards": len(stock)}]

    def out_of_stock(self, state: Any) -> Any:
        """The hand when its stock runs out once more than ``restock_limit`` allows (blocked)."""
        raise NotImplementedError(f"{self.title} does not restock")

    def ready_to_draw(self, state: Any, shuffle: Shuffler) -> tuple[Any, list[Event]]:
        """``state`` with a card to draw, and its events: as it is while the stock holds one,
        else after a :meth:`restock`, which may end the hand instead (its ``result`` says so)."""
        return (state, []) if state.stock else self.restock(state, shuffle)

    # -- the table's timer -------------------------------------------------

    auto_order = staticmethod(_auto_card_order)
    """The order in which a timed-out turn picks its lowest fitting card (:func:`auto_card_order`)."""

    def forced_move(self, state: PileStateT) -> Move | None:
        """The timer's move when the seat to act has but one kind of move (Crazy Eights: play the
        card it drew, or draw on), or ``None``."""
        return None

    def may_draw(self, state: PileStateT) -> bool:
        """Whether the seat to act may draw now (from the stock, or a restock of the pile)."""
        return state.can_draw

    def auto_move(self, state: PileStateT) -> Move:
        """What the table plays for a seat whose timer ran out: its :meth:`forced_move`, if any;
        else its lowest fitting card by :attr:`auto_order` (points, rank, suit: wild cards last),
        a wild card naming the suit the seat then holds most of (clubs first on ties), or its own
        suit when it was the last card; else a draw; else a pass."""
        hand = state.hands[seat_to_act(state)]
        forced = self.forced_move(state)
        if forced is not None:
            return forced
        top, named, wild = state.pile[-1], state.named, self.wild
        playable = [c for c in hand if fits(c, top, named, wild)]
        if playable:
            return auto_play(min(playable, key=self.auto_order), hand, wild)
        return Move.draw() if self.may_draw(state) else Move.pass_()

    # -- reporting --------------------------------------------------------

    def summary(self, state: Any) -> StarterSummary:
        """A restocking game's hand: the deal, the starter and every restock's new stock
        (:class:`CrazyEightsSummary`; a game that does not restock says its own)."""
        return CrazyEightsSummary(deal=state.dealt, turned=state.turned, restocks=state.restocked)

    def describe_deal(self, state: PileStateT, names: SeatNames) -> list[str]:
        return describe_starter(state, super().describe_deal(state, names))

    def describe_table(self, before: PileStateT, after: PileStateT, names: SeatNames) -> str:
        return describe_pile(after)

    def describe_event(self, event: Event, names: SeatNames) -> str:
        if event.get("type") == "restock":
            return f"the stock ran out: restock {event['restock']}, {event['cards']} cards"
        return super().describe_event(event, names)


class Wanted(TypedDict):
    """What may go on the pile next, as the rules say it: the suit, the rank (``null`` after a
    named suit) and the wild rank."""

    suit: Suit | None
    rank: Rank | None
    wild: Rank | None


class StockTable(TableJSON):
    """The public table of a game played onto a pile from a stock, as a :class:`StockView`
    shows it (Crazy Eights', the Eights games'): the pile's top and the suit a wild card named,
    the stock's and the pile's sizes, the cards drawn this turn and the passes in a row."""

    top: Card
    named: Suit | None
    stock_size: int
    pile_size: int
    drawn: int
    passes: int


class CrazyEightsTable(StockTable):
    """The public table of a Crazy Eights hand: the pile's top, the suit an eight named, the stock."""

    restocks: int
    restock_limit: int
    next: Wanted


class CrazyEights(PileGame[CrazyEightsState, CrazyEightsView]):
    """Crazy Eights at the online table: 2 to 6 players, one pack, to 100 points.

    Options: ``target`` (points that end the match, default 100) and
    ``restock_limit`` (run-outs of the stock a hand survives, default 20).
    """

    renderer = "crazy_eights"
    table_json = CrazyEightsTable

    name = "crazy-eights"
    lobby_order = 10
    title = "Crazy Eights"
    min_seats = 2
    max_seats = 6
    summary_line = "Match the top card by suit or rank; eights are wild. First out scores the others' cards."
    OPTIONS = (TARGET, RESTOCK_LIMIT)
    layout = Layout(hands="7 cards each with two players, else 5", stock=True, starter=True)

    # -- the position (state JSON, spec/state.md) ----------------------------

    state_type = CrazyEightsState

    def check_position(self, state: CrazyEightsState) -> None:
        check_pile(state.pile, state.named, state.turned)
        self.check_passes(state)
        if state.drawn < 0:
            raise PositionError(f"{state.drawn} cards drawn", field="drawn")
        self.check_restocks(state)
        self.check_pending(state, drew=bool(state.drawn))

    # -- seeing ----------------------------------------------------------

    def view(self, state: CrazyEightsState, seat: int | None) -> CrazyEightsView:
        return CrazyEightsView(**self.stock_fields(state, seat), **self.restock_fields(state, seat))

    def explain(self, view: CrazyEightsView, card: Card) -> str | None:
        return turn_problem(view) or _why_not(
            card,
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
                return Said("keeps the card drawn, {card}, though it fits", card=view.pending)
            if move.kind == "play" and move.card == view.pending:
                return Said("plays the card just drawn ({why})", why=why_on_pile(move, view.top, view.named, ()))
        if move.kind == "draw":
            why = (
                Said("still no fit: draws again") if view.drawn else why_on_pile(move, view.top, view.named, view.hand)
            )
            assert why is not None  # (the pile's words say why of every draw)
            # An empty stock: the draw shuffles the pile under its top card into a new one.
            return why if view.stock_size else restock_words(why)
        return why_on_pile(move, view.top, view.named, view.hand) or super().why_legal(view, move)

    def legal_moves(self, view: CrazyEightsView) -> list[Move]:
        if view.result is not None or not has_turn(view):
            return []
        if view.pending is not None:
            return [*plays_of(view.pending), Move.keep()]
        if view.drawn and view.can_draw:
            return [Move.draw()]
        return moves_on_pile([c for c in sorted(set(view.hand)) if fits(c, view.top, view.named)], view.can_draw)

    # -- playing ---------------------------------------------------------

    def apply(
        self, state: CrazyEightsState, seat: int, move: Move, shuffle: Shuffler
    ) -> tuple[CrazyEightsState, list[Event]]:
        if state.result is not None or seat != state.turn:
            check_turn(state, seat, move)  # (it says which; the test is here, as a verifier makes it every move)
        kind = move.kind
        if kind == "play":
            return self._play(state, seat, move), []
        if kind == "draw":
            if state.pending is not None:
                raise IllegalMove(play_or_keep(state.pending), move=move, seat=seat)
            if not state.stock and len(state.pile) < 2:  # (not state.can_draw, spelt out: this runs every draw)
                raise IllegalMove(NOTHING_TO_DRAW, move=move, seat=seat)
            return self._draw(state, seat, shuffle)
        if kind == "keep":
            if state.pending is None:
                raise IllegalMove(NOTHING_TO_KEEP, move=move, seat=seat)
            return self._next_turn(state, passes=0), []
        if kind == "pass":
            if state.pending is not None:
                raise IllegalMove(play_or_keep(state.pending), move=move, seat=seat)
            if state.can_draw:
                raise IllegalMove(PASS_WHEN_NOTHING_TO_DRAW, move=move, seat=seat)
            top, named = state.top, state.named
            playable = [c for c in state.hands[seat] if fits(c, top, named)]
            if playable:
                raise IllegalMove(pass_but_fits(playable[0]), move=move, seat=seat)
            passes = state.passes + 1
            if passes == state.seats:
                return self._blocked(replace(state, passes=passes), ALL_PASSED), []
            return self._next_turn(state, passes=passes), []
        raise IllegalMove(self.no_move(kind), move=move, seat=seat)

    def _play(self, state: CrazyEightsState, seat: int, move: Move) -> CrazyEightsState:
        card = move.card
        assert card is not None, "a play names its card (Move refuses one that does not)"
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
                hand=hand,
                top=top,
                named=named,
                pending=pending,
                drawn=state.drawn,
                can_draw=state.can_draw,
            )
            assert problem is not None, "_why_not makes the tests above, and one failed"
            raise IllegalMove(problem, move=move, seat=seat)
        if card.rank == Rank.EIGHT:
            if move.suit is None:
                raise IllegalMove(name_a_suit(card), move=move, seat=seat)
        elif move.suit is not None:
            raise IllegalMove(ONLY_AN_EIGHT_NAMES, move=move, seat=seat)
        new_hand = hand[:at] + hand[at + 1 :]
        hands = hands[:seat] + (new_hand,) + hands[seat + 1 :]
        pile = pile + (card,)
        if not new_hand:
            result = went_out(seat, tuple(sum(map(card_points, h)) for h in hands))
            return replace(
                state,
                hands=hands,
                pile=pile,
                named=move.suit,
                turn=None,
                drawn=0,
                pending=None,
                passes=0,
                result=result,
            )
        # The play and the next turn in one new state (a verifier replays every move).
        return _played(state, hands, pile, move.suit, (seat + 1) % len(hands), 0, None, 0)

    def _draw(self, state: CrazyEightsState, seat: int, shuffle: Shuffler) -> tuple[CrazyEightsState, list[Event]]:
        events: list[Event] = []
        if not state.stock:  # (ready_to_draw's test, here: a verifier replays every draw)
            state, events = self.ready_to_draw(state, shuffle)
            if state.result is not None:
                return state, events
        stock, hands = state.stock, state.hands
        card = stock[0]
        hands = hands[:seat] + (hands[seat] + (card,),) + hands[seat + 1 :]
        fitting = fits(card, state.pile[-1], state.named)
        return _drew(state, hands, stock[1:], state.drawn + 1, card if fitting else None, 0), events

    def out_of_stock(self, state: CrazyEightsState) -> CrazyEightsState:
        return self._blocked(state, Said("the stock ran out for the {nth} time", nth=ordinal_words(state.restocks + 1)))

    def _next_turn(self, state: CrazyEightsState, passes: int) -> CrazyEightsState:
        assert state.turn is not None, "a turn ends only while the hand is in play"
        return replace(state, turn=(state.turn + 1) % state.seats, drawn=0, pending=None, passes=passes)

    def _blocked(self, state: CrazyEightsState, reason: Said) -> CrazyEightsState:
        result = lowest_count_wins(tuple(sum(map(card_points, h)) for h in state.hands), reason)
        return replace(state, turn=None, drawn=0, pending=None, result=result)

    # -- the heuristic bot ------------------------------------------------------

    def heuristic_move(self, view: CrazyEightsView, moves: Sequence[Move]) -> Move:
        """The heuristic bot's move: see :func:`crazy_eights_choice`."""
        return crazy_eights_choice(view, moves)

    # -- the table's timer -------------------------------------------------

    def forced_move(self, state: CrazyEightsState) -> Move | None:
        """The card the seat drew and must play or keep is played; while drawing it draws on
        (spec/games/crazy-eights.md); then :meth:`PileGame.auto_move` plays its lowest card."""
        if state.pending is not None:
            assert state.turn is not None, "a seat holds a drawn card to play or keep only at its turn"
            return auto_play(state.pending, state.hands[state.turn])
        if state.drawn and (state.stock or len(state.pile) > 1):  # (state.can_draw: a timed-out turn asks every time)
            return Move.draw()
        return None


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
            f"  starter {self.starter.display}"
            + (f" (eights turned back into the stock: {display(back)})" if back else "")
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
        return {
            **super().to_json(),
            "restocks": [{"restock": r, "stock": codes(s)} for r, s in enumerate(self.restocks, 1)],
        }

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


def natural_suit_counts(cards: Sequence[Card], wild: Rank = Rank.EIGHT) -> list[int]:
    """How many cards of each suit, the ``wild`` rank's left out: an eight is wild, it belongs to no suit.

    >>> natural_suit_counts([Card.parse(c) for c in ("8H", "2H", "KS")])
    [0, 0, 1, 1]
    """
    counts = [0, 0, 0, 0]
    for card in cards:
        if card.rank != wild:
            counts[card.suit] += 1
    return counts


def natural_suit_points(
    cards: Sequence[Card], points: Callable[[Card], int] = card_points, wild: Rank = Rank.EIGHT
) -> list[int]:
    """What the cards of each suit count (``points``), the ``wild`` rank's left out.

    >>> natural_suit_points([Card.parse(c) for c in ("8H", "2H", "KS")])
    [0, 0, 2, 10]
    """
    counted = [0, 0, 0, 0]
    for card in cards:
        if card.rank != wild:
            counted[card.suit] += points(card)
    return counted


def play_wild(
    hand: Sequence[Card], card: Card, wild: Rank = Rank.EIGHT, points: Callable[[Card], int] = card_points
) -> Move:
    """The heuristic bot's play of ``card``, of the ``wild`` rank, from ``hand``: it names the
    suit it then holds most of (wild cards aside), then the suit worth most ``points``, then clubs first.

    >>> play_wild([Card.parse(c) for c in ("8C", "2H", "KS")], Card.parse("8C"))
    Move.play(Card.parse('8C'), Suit.SPADES)
    """
    rest = list(hand)
    rest.remove(card)
    counts, counted = natural_suit_counts(rest, wild), natural_suit_points(rest, points, wild)
    suit = max(Suit, key=lambda s: (counts[s], counted[s], -s))
    return Move.play(card, suit)


def keep_or_play(
    view: Any,
    wild: Rank = Rank.EIGHT,
    points: Callable[[Card], int] = card_points,
    close: int = KEEP_EIGHT_UNLESS_OPPONENT_HOLDS,
) -> Move:
    """The heuristic bot's move with a card it drew that fits (``view.pending``): it plays it,
    except a card of the ``wild`` rank, which it keeps for a turn unless an opponent holds
    ``close`` cards or fewer (then its ``points`` are about to count against it, and it plays
    it: :func:`play_wild`)."""
    card = view.pending
    if card.rank != wild:
        return Move.play(card)
    opponents = [n for seat, n in enumerate(view.hand_sizes) if seat != view.seat]
    if min(opponents, default=99) <= close:
        return play_wild(view.hand, card, wild, points)
    return Move.keep()


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
        return keep_or_play(view) if plays else Move.keep()
    if plays:
        return _best_play(view.hand, plays)
    # No card fits: draw if the stock (or a restock) allows, else the rules leave only a pass.
    for kind in ("draw", "pass"):
        for move in moves:
            if move.kind == kind:
                return move
    return moves[0]  # pragma: no cover - Crazy Eights always offers one of the above


def _best_play(hand: Sequence[Card], plays: list[Move]) -> Move:
    cards = [m.card for m in plays if m.card is not None]  # (every play names its card)
    naturals = [c for c in cards if c.rank != Rank.EIGHT]
    if naturals:
        counts = natural_suit_counts(hand)
        best = max(naturals, key=lambda c: (counts[c.suit], card_points(c), -c.index))
        return Move.play(best)
    eight = min(cards)
    return play_wild(hand, eight)
