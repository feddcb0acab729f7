"""The Eights games played from a stock with no restock: Crazy Eights by the book, Eights,
Hollywood Eights.

All three play like Crazy Eights at the online table (an eight is wild and
names a suit; any other card matches the top card's suit or rank), with the
book's stock: a seat may draw at its turn whether or not it can play, one
card at a time, for as long as the stock lasts; when the stock is empty, a
seat that cannot play passes, and when every seat still in the hand has
passed in turn the hand is **blocked**. There is no restock and no "keep":
a turn ends with a play or a pass.

- 2 to 8 players; 7 cards each with two, else 5; with six or more two packs
  are shuffled together (protocol v1's pack order, ``pack(2)``).
- In the four-hand game (the ``partners`` option, on by default) the seats
  across the table are partners: seats 0 and 2 against 1 and 3. A seat that
  goes out drops out of the turn; the hand ends when both partners of a side
  are out, and a block compares the sides' totals.

They differ in how a hand is won and scored, and so in how a match ends:

- ``crazy-eights-book`` (Hoyle): going out collects from each other player the
  points left in his hand; a block pays the lowest count the differences, ties
  divide. Scores are settlements (they add up to 0); a session of deals.
- ``eights`` (the Stops chapter): a hand is won by going out, or in a block by
  the fewest cards, and a tie is a tie. A seat scores 1 for a hand it wins; a
  session of deals.
- ``hollywood-eights``: Eights, the winner credited with the points left in
  the losers' hands, scored Hollywood style (:mod:`fairdeal.rules.hollywood`).

spec/games/crazy-eights-book.md, eights.md and hollywood-eights.md say where
the texts were read one way rather than another.

>>> from fairdeal.fairness import game_key, shuffle
>>> key = game_key("00" * 32, "doc", [""] * 6)
>>> rules = BookCrazyEights()
>>> state, events = rules.deal(6, dealer=0, hand=1, shuffle=lambda label, cards: shuffle(key, label, cards))
>>> [len(h) for h in state.hands], len(state.stock) + len(state.pile)   # two packs for six players
([5, 5, 5, 5, 5, 5], 74)
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from typing import ClassVar

from fairdeal.cards import Card
from fairdeal.cards import Rank
from fairdeal.cards import Suit
from fairdeal.rules.base import DEALS
from fairdeal.rules.base import PARTNERS
from fairdeal.rules.base import TARGET
from fairdeal.rules.base import Event
from fairdeal.rules.base import HandResult
from fairdeal.rules.base import IllegalMove
from fairdeal.rules.base import Layout
from fairdeal.rules.base import Move
from fairdeal.rules.base import Option
from fairdeal.rules.base import Shuffler
from fairdeal.rules.base import check_turn
from fairdeal.rules.base import fast_replace
from fairdeal.rules.base import has_turn
from fairdeal.rules.base import not_held
from fairdeal.rules.base import out_words
from fairdeal.rules.base import refuser
from fairdeal.rules.base import turn_problem
from fairdeal.rules.crazy_eights import ONLY_AN_EIGHT_NAMES
from fairdeal.rules.crazy_eights import PileGame
from fairdeal.rules.crazy_eights import PileState
from fairdeal.rules.crazy_eights import StarterSummary
from fairdeal.rules.crazy_eights import StockTable
from fairdeal.rules.crazy_eights import StockView
from fairdeal.rules.crazy_eights import Wanted
from fairdeal.rules.crazy_eights import card_points
from fairdeal.rules.crazy_eights import check_pile
from fairdeal.rules.crazy_eights import draw_from_stock
from fairdeal.rules.crazy_eights import fits
from fairdeal.rules.crazy_eights import moves_on_pile
from fairdeal.rules.crazy_eights import name_a_suit
from fairdeal.rules.crazy_eights import natural_suit_counts
from fairdeal.rules.crazy_eights import pass_but_fits
from fairdeal.rules.crazy_eights import pile_problem
from fairdeal.rules.crazy_eights import play_wild
from fairdeal.rules.crazy_eights import wanted_json
from fairdeal.rules.crazy_eights import why_on_pile
from fairdeal.rules.hollywood import HollywoodScoring
from fairdeal.rules.move import DRAW
from fairdeal.rules.move import PASS
from fairdeal.rules.move import PLAY
from fairdeal.rules.position import PositionError
from fairdeal.rules.position import check_seat
from fairdeal.rules.position import check_seat_list
from fairdeal.rules.position import check_to_act
from fairdeal.rules.summary import SeatNames
from fairdeal.rules.summary import describe_draws
from fairdeal.rules.summary import plays_json
from fairdeal.said import Said
from fairdeal.said import and_words
from fairdeal.said import seats_words

__all__ = [
    "BookCrazyEights",
    "Eights",
    "EightsFamily",
    "EightsState",
    "EightsView",
    "HollywoodEights",
    "hollywood_points",
    "sides_of",
]


def hollywood_points(card: Card, hoyle: bool = False) -> int:
    """What a card left in hand counts in Hollywood Eights.

    The Stops chapter (the default): eight 50; K, Q, J, 10: 10; ace 1; others their
    number. The Hoyle text (``hoyle=True``): eight 20; ace 15; K, Q, J: 10; others their number.

    >>> [hollywood_points(Card.parse(c)) for c in ("8S", "9H", "7D", "AC", "KD")]
    [50, 9, 7, 1, 10]
    >>> [hollywood_points(Card.parse(c), hoyle=True) for c in ("8S", "9H", "7D", "AC", "KD")]
    [20, 9, 7, 15, 10]
    """
    if hoyle:
        if card.rank == Rank.EIGHT:
            return 20
        if card.rank == Rank.ACE:
            return 15
    return card_points(card)


def sides_of(seats: int, partners: bool) -> tuple[tuple[int, ...], ...]:
    """The sides of a hand: partners across the table in the four-hand partnership game
    (seats 0 and 2 against 1 and 3), else every seat for itself.

    >>> sides_of(4, True), sides_of(3, True)
    (((0, 2), (1, 3)), ((0,), (1,), (2,)))
    """
    if partners and seats == 4:
        return ((0, 2), (1, 3))
    return tuple((s,) for s in range(seats))


@dataclass(frozen=True, slots=True)
class EightsState(PileState):
    """One hand of an Eights game, everything included (hidden cards too)."""

    sides: tuple[tuple[int, ...], ...]
    """Partners (``((0, 2), (1, 3))``), or each seat alone."""
    drawn: int = 0
    """Cards the seat to act has drawn this turn."""
    passes: int = 0
    """Passes in a row; as many as there are seats still in the hand block it."""
    out: tuple[int, ...] = ()
    """Seats that have played their last card, in order (a partnership hand goes on)."""
    result: HandResult | None = None
    dealt: tuple[tuple[Card, ...], ...] = ()
    """The hands as dealt, for the report."""
    turned: tuple[Card, ...] = ()
    """Cards turned for the starter: eights sent back into the stock, then the starter."""
    draws: tuple[tuple[int, Card], ...] = ()
    """Every draw of the hand, (seat, card), for the report."""

    @property
    def partnership(self) -> bool:
        return len(self.sides[0]) > 1


_replace: Callable[..., EightsState] = fast_replace(EightsState)


@dataclass(frozen=True, slots=True)
class EightsView(StockView):
    """What one seat sees (``seat`` is ``None`` for a spectator, who sees no hand)."""

    passes: int
    sides: tuple[tuple[int, ...], ...]
    out: tuple[int, ...]
    result: HandResult | None

    @property
    def partners(self) -> tuple[tuple[int, ...], ...] | None:
        return self.sides if len(self.sides[0]) > 1 else None

    def to_json(self) -> dict[str, Any]:
        return {
            **self.stock_json(),
            "passes": self.passes,
            "partners": None if self.partners is None else [list(side) for side in self.partners],
            "out": list(self.out),
            # What the table page shows, as the rules say it: what may go on the pile.
            "next": wanted_json(self.top, self.named),
        }


def _why_not(card: Card, *, hand: Sequence[Card], top: Card, named: Suit | None) -> str | None:
    """Why the seat to act cannot play ``card``, or ``None``; shared by the engine and :meth:`explain`."""
    if card not in hand:
        return not_held(card)
    return pile_problem(card, top, named)


def _remove(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


class EightsTable(StockTable):
    """The public table of an Eights hand: the pile, the stock, the partnerships and who is out."""

    partners: list[list[int]] | None
    out: list[int]
    next: Wanted


class EightsFamily(PileGame[EightsState, EightsView]):
    """What the three games share: the deal, the stock, drawing, passing, partnerships.

    A game says what a hand left counts (:meth:`count`) and who wins and scores what
    when a side goes out (:meth:`settle_out`) or the hand is blocked (:meth:`settle_block`).
    """

    renderer = "eights"
    table_json = EightsTable

    min_seats = 2
    max_seats = 8
    moves = (PLAY, DRAW, PASS)
    layout = Layout(hands="7 cards each with two players, else 5", two_packs_from=6, stock=True, starter=True)

    def sides(self, seats: int) -> tuple[tuple[int, ...], ...]:
        return sides_of(seats, bool(self.options.get("partners", 0)))

    # -- what a hand counts, and who wins ----------------------------------------

    def count(self, hand: Sequence[Card]) -> int:
        """What the cards left in a hand count: the ``counts`` of the hand's result."""
        return sum(map(card_points, hand))

    def settle_out(self, state: EightsState, side: tuple[int, ...], counts: tuple[int, ...]) -> tuple[int, ...]:
        """The scores when ``side`` has gone out."""
        raise NotImplementedError

    def settle_block(self, state: EightsState, counts: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...], str]:
        """The winners, the scores and a reason, when the hand is blocked."""
        raise NotImplementedError

    # -- the position (state JSON, spec/state.md) ------------------------------

    state_type = EightsState

    def check_position(self, state: EightsState) -> None:
        check_pile(state.pile, state.named, state.turned)
        seats = state.seats
        if state.pile[0] is not state.turned[-1]:
            raise PositionError(
                f"the starter {state.turned[-1]} is not at the bottom of the pile (there is no restock)", field="turned"
            )
        if state.sides != self.sides(seats):
            raise PositionError(
                f"the sides at {seats} seats with these options are {[list(side) for side in self.sides(seats)]}",
                field="sides",
            )
        check_seat_list(state.out, seats, "out", distinct=True)
        emptied = [seat for seat, hand in enumerate(state.hands) if not hand]
        if sorted(state.out) != emptied:
            raise PositionError(f"the seats out are those that hold no card: {emptied}", field="out")
        check_to_act(state)
        if not 0 <= state.passes < seats - len(state.out) + (state.result is not None):
            raise PositionError(
                f"{state.passes} passes in a row with {seats - len(state.out)} seats in the hand", field="passes"
            )
        if state.drawn < 0:
            raise PositionError(f"{state.drawn} cards drawn", field="drawn")
        for i, (seat, _) in enumerate(state.draws):
            check_seat(seat, seats, f"draws[{i}][0]")

    # -- dealing ---------------------------------------------------------------

    def deal_fields(self, seats: int) -> dict[str, Any]:
        return {"sides": self.sides(seats)}

    # -- seeing ----------------------------------------------------------------

    def view(self, state: EightsState, seat: int | None) -> EightsView:
        return EightsView(
            **self.stock_fields(state, seat),
            passes=state.passes,
            sides=state.sides,
            out=state.out,
            result=state.result,
        )

    def explain(self, view: EightsView, card: Card) -> str | None:
        return turn_problem(view) or _why_not(card, hand=view.hand, top=view.top, named=view.named)

    def why_legal(self, view: EightsView, move: Move) -> str:
        return why_on_pile(move, view.top, view.named, view.hand) or super().why_legal(view, move)

    def legal_moves(self, view: EightsView) -> list[Move]:
        if view.result is not None or not has_turn(view):
            return []
        return moves_on_pile([c for c in sorted(set(view.hand)) if fits(c, view.top, view.named)], view.stock_size > 0)

    # -- playing ---------------------------------------------------------------

    def apply(self, state: EightsState, seat: int, move: Move, shuffle: Shuffler) -> tuple[EightsState, list[Event]]:
        check_turn(state, seat, move)
        illegal = refuser(move, seat)
        kind = move.kind
        if kind == "play":
            return self._play(state, seat, move, illegal), []
        if kind == "draw":
            if not state.stock:
                raise illegal(Said("the stock is empty: there is nothing to draw"))
            return _replace(state, passes=0, **draw_from_stock(state, seat)), []
        if kind == "pass":
            if state.stock:
                raise illegal(Said("you may pass only when the stock is empty: draw until a card fits"))
            playable = [c for c in state.hands[seat] if fits(c, state.top, state.named)]
            if playable:
                raise illegal(pass_but_fits(playable[0]))
            passes = state.passes + 1
            if passes == state.seats - len(state.out):
                return self._blocked(_replace(state, passes=passes)), []
            return _replace(state, turn=_next_seat(state.hands, seat), drawn=0, passes=passes), []
        raise illegal(Said("{game} has no move {kind}: play a card, draw, or pass", game=self.title, kind=repr(kind)))

    def _play(self, state: EightsState, seat: int, move: Move, illegal: Callable[[str], IllegalMove]) -> EightsState:
        card = move.card
        assert card is not None, "a play names its card (Move refuses one that does not)"
        hand = state.hands[seat]
        problem = _why_not(card, hand=hand, top=state.top, named=state.named)
        if problem:
            raise illegal(problem)
        if card.rank == Rank.EIGHT and move.suit is None:
            raise illegal(name_a_suit(card))
        if card.rank != Rank.EIGHT and move.suit is not None:
            raise illegal(ONLY_AN_EIGHT_NAMES)
        new_hand = _remove(hand, card)
        hands = state.hands[:seat] + (new_hand,) + state.hands[seat + 1 :]
        pile = state.pile + (card,)
        if new_hand:
            # One replace per move: a verifier replays every move of every hand.
            return _replace(
                state, hands=hands, pile=pile, named=move.suit, turn=_next_seat(hands, seat), drawn=0, passes=0
            )
        played = _replace(state, hands=hands, pile=pile, named=move.suit)
        out = state.out + (seat,)
        side = next(side for side in state.sides if seat in side)
        if all(s in out for s in side):
            counts = tuple(self.count(h) for h in hands)
            scores = self.settle_out(played, side, counts)
            result = HandResult("out", side, counts, scores, out_words(side))
            return _replace(played, out=out, turn=None, drawn=0, passes=0, result=result)
        # A partner is still in: the others play on without this seat.
        return _replace(played, out=out, turn=_next_seat(hands, seat), drawn=0, passes=0)

    def _blocked(self, state: EightsState) -> EightsState:
        counts = tuple(self.count(h) for h in state.hands)
        winners, scores, reason = self.settle_block(state, counts)
        result = HandResult("blocked", winners, counts, scores, reason)
        return _replace(state, turn=None, drawn=0, result=result)

    # -- the heuristic bot ------------------------------------------------------

    def heuristic_move(self, view: EightsView, moves: Sequence[Move]) -> Move:
        """The heuristic bot's move: see :func:`eights_choice`."""
        return eights_choice(view, moves)

    # -- the table's timer -------------------------------------------------------

    def may_draw(self, state: EightsState) -> bool:
        """The timer draws while the stock lasts (there is no restock)."""
        return bool(state.stock)

    # -- reporting -----------------------------------------------------------------

    blocked_to_fewest: ClassVar[bool] = False
    """Whether a blocked hand goes to the fewest cards (Eights), not the lowest count."""

    def summary(self, state: EightsState) -> EightsSummary:
        return EightsSummary(
            deal=state.dealt,
            turned=state.turned,
            draws=state.draws,
            partners=state.sides if state.partnership else None,
            out=state.out,
            blocked_to_fewest=self.blocked_to_fewest,
        )


@dataclass(frozen=True, kw_only=True)
class EightsSummary(StarterSummary):
    """A hand of the Eights family: the deal, the starter, every draw in order, and with
    partners the sides (``partners``) and the seats that went out, in order (``out``).

    >>> from fairdeal.cards import parse_cards
    >>> from fairdeal.rules.summary import SeatNames
    >>> summary = EightsSummary(deal=((), (), (), ()), turned=tuple(parse_cards("4D")), draws=((1, Card.parse("7H")),),
    ...                         partners=((0, 2), (1, 3)), out=(2,))
    >>> summary.lines(SeatNames(("A", "B", "C", "D")))[5:]
    ['  partners: seats 0 (A) and 2 (C) against seats 1 (B) and 3 (D)', '  draws: seat 1 (B) 7♥', '  out of cards, in order: seat 2 (C)']
    """

    draws: tuple[tuple[int, Card], ...] = ()
    partners: tuple[tuple[int, ...], ...] | None = None
    """The sides, when four play as two partnerships (``None``: each for himself)."""
    out: tuple[int, ...] = ()
    blocked_to_fewest: bool = False
    """The rules' word (not in the JSON): a block goes to the fewest cards."""

    def to_json(self) -> dict[str, Any]:
        out = {**super().to_json(), "draws": plays_json(self.draws)}
        if self.partners is not None:
            out["partners"] = [list(side) for side in self.partners]
            out["out"] = list(self.out)
        return out

    def lines(self, names: SeatNames) -> list[str]:
        out = super().lines(names)
        if self.partners is not None:
            out.append(f"  partners: {' against '.join(names.side(side) for side in self.partners)}")
        out.append(f"  draws: {describe_draws(self.draws, names)}")
        if self.partners is not None and self.out:
            out.append(f"  out of cards, in order: {names.seats(self.out)}")
        return out

    def blocked_winners(self, winners: Sequence[int], names: SeatNames) -> str:
        if self.partners is not None or self.blocked_to_fewest:
            return f"won by {names.side(winners)}"
        return super().blocked_winners(winners, names)


def _next_seat(hands: Sequence[Sequence[Card]], seat: int) -> int:
    """The next seat to the left that still holds cards (a seat that is out drops out of the turn)."""
    n = len(hands)
    for step in range(1, n + 1):
        following = (seat + step) % n
        if hands[following]:
            return following
    raise AssertionError("a hand in play has a seat with cards")  # pragma: no cover


def _side_totals(sides: Sequence[Sequence[int]], values: Sequence[int]) -> list[int]:
    return [sum(values[s] for s in side) for side in sides]


def _fewest(state: EightsState) -> tuple[tuple[int, ...], str]:
    """The side holding the fewest cards in a block (Eights), or none on a tie; and why."""
    totals = _side_totals(state.sides, [len(h) for h in state.hands])
    low = min(totals)
    best = [side for side, total in zip(state.sides, totals) if total == low]
    cards = Said("{n} card", n=low) if low == 1 else Said("{n} cards", n=low)
    if len(best) > 1:
        sides = and_words([seats_words(side) for side in best])
        return (), Said("a tie: {sides} hold the fewest cards ({cards} each)", sides=sides, cards=cards)
    if len(best[0]) > 1:
        return best[0], Said("{seats} hold the fewest cards ({cards})", seats=seats_words(best[0]), cards=cards)
    return best[0], Said("{seats} holds the fewest cards ({cards})", seats=seats_words(best[0]), cards=cards)


class BookCrazyEights(EightsFamily):
    """Crazy Eights by the book (Hoyle): 2 to 8 players, two packs for six or more,
    partnerships in the four-hand game, draw until able to play, no restock.

    Going out collects from each other player the points left in his hand (eight 50;
    K, Q, J, 10: 10; ace 1; others their number). In a block the lowest count collects
    from each other player the difference; tied lowest counts divide the winnings. With
    partners, a side collects from the other side (both partners score the side's amount).
    Scores are settlements: they add up to 0.

    Options: ``deals`` (0, the default: each player deals once) and ``partners``
    (1, the default: four players play as two partnerships; 0: each for himself).

    >>> rules = BookCrazyEights()
    >>> state = EightsState(hand=1, dealer=2, hands=tuple(tuple(map(Card.parse, h)) for h in (["5S"], ["KD", "8H", "3C"], ["AH", "QC", "2D"])),
    ...                     stock=(), pile=(Card.parse("5H"),), named=None, turn=0, sides=sides_of(3, True))
    >>> state, _ = rules.apply(state, 0, Move.play(Card.parse("5S")), None)
    >>> state.result.counts, state.result.scores
    ((0, 63, 13), (76, -63, -13))
    """

    name = "crazy-eights-book"
    lobby_order = 20
    title = "Crazy Eights (book)"
    summary_line = "Hoyle's Crazy Eights: draw until you can play, partners at four, settle in points."
    OPTIONS = (DEALS, PARTNERS)

    def settle_out(self, state: EightsState, side: tuple[int, ...], counts: tuple[int, ...]) -> tuple[int, ...]:
        if not state.partnership:
            won = sum(counts)
            return tuple(won if s in side else -counts[s] for s in range(state.seats))
        won = sum(counts[s] for s in range(state.seats) if s not in side)
        return tuple(won if s in side else -won for s in range(state.seats))

    def settle_block(self, state: EightsState, counts: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...], str]:
        if state.partnership:
            totals = _side_totals(state.sides, counts)
            if totals[0] == totals[1]:
                return (), (0,) * state.seats, Said("the sides' counts are equal ({count} each)", count=totals[0])
            win = 0 if totals[0] < totals[1] else 1
            won = abs(totals[0] - totals[1])
            side = state.sides[win]
            scores = tuple(won if s in side else -won for s in range(state.seats))
            lower = Said(
                "{seats} have the lower count ({low} to {high})",
                seats=seats_words(side),
                low=totals[win],
                high=totals[1 - win],
            )
            return side, scores, lower
        low = min(counts)
        # Round the table from the dealer's left: the order in which odd points are shared out.
        around = [(state.dealer + 1 + i) % state.seats for i in range(state.seats)]
        winners = tuple(s for s in around if counts[s] == low)
        pot = sum(c - low for c in counts)
        share, odd = divmod(pot, len(winners))
        settled = [low - c for c in counts]
        for i, s in enumerate(winners):
            settled[s] = share + (1 if i < odd else 0)
        reason = Said("the lowest count is {low}", low=low)
        if len(winners) > 1:
            reason = Said(
                "the lowest count is {low}, held by {n} players, who divide {pot}", low=low, n=len(winners), pot=pot
            )
        return tuple(sorted(winners)), tuple(settled), reason


class Eights(EightsFamily):
    """Eights (the Stops chapter): Crazy Eights by the book's play, but a hand is simply won:
    by going out, or in a block by the fewest cards (a tie is a tie, and nobody wins). The
    winner (with partners, both) scores 1; a session counts hands won.

    Options: ``deals`` (0, the default: each player deals once) and ``partners``
    (1, the default: four players play as two partnerships; 0: each for himself).
    """

    name = "eights"
    lobby_order = 30
    title = "Eights"
    summary_line = "Crazy Eights for hands won: out first, or fewest cards when blocked."
    blocked_to_fewest = True
    OPTIONS = (DEALS, PARTNERS)
    unit = "deals"

    def count(self, hand: Sequence[Card]) -> int:
        return len(hand)

    def settle_out(self, state: EightsState, side: tuple[int, ...], counts: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(int(s in side) for s in range(state.seats))

    def settle_block(self, state: EightsState, counts: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...], str]:
        side, reason = _fewest(state)
        return side, tuple(int(s in side) for s in range(state.seats)), reason


class HollywoodEights(HollywoodScoring, EightsFamily):
    """Hollywood Eights: Eights in which the winner of a hand is credited with the points
    left in the losers' hands, scored Hollywood style: three games to ``target`` at once
    (:class:`~fairdeal.rules.hollywood.HollywoodSheet`); the highest sum of the three wins.

    Options: ``target`` (100: a game closes when some player reaches it), ``partners``
    (as in Eights) and ``hoyle_values`` (0, the default: the Stops chapter's card values,
    eight 50 and ace 1; 1: the Hoyle text's, eight 20 and ace 15).

    >>> rules = HollywoodEights()
    >>> rules.count([Card.parse(c) for c in ("8D", "9C", "7S")])
    66
    >>> HollywoodEights({"hoyle_values": 1}).count([Card.parse(c) for c in ("8D", "9C", "7S")])
    36
    """

    name = "hollywood-eights"
    lobby_order = 40
    title = "Hollywood Eights"
    summary_line = "Eights where the winner takes the losers' points, three games scored at once."
    blocked_to_fewest = True
    OPTIONS = (
        TARGET,
        PARTNERS,
        Option(
            "hoyle_values",
            0,
            0,
            1,
            help="which card values count",
            choices={0: "the Stops chapter's card values", 1: "the Hoyle text's"},
        ),
    )

    def count(self, hand: Sequence[Card]) -> int:
        hoyle = bool(self.options["hoyle_values"])
        return sum(hollywood_points(card, hoyle) for card in hand)

    def _credit(self, state: EightsState, side: tuple[int, ...], counts: tuple[int, ...]) -> tuple[int, ...]:
        won = sum(counts[s] for s in range(state.seats) if s not in side)
        return tuple(won if s in side else 0 for s in range(state.seats))

    def settle_out(self, state: EightsState, side: tuple[int, ...], counts: tuple[int, ...]) -> tuple[int, ...]:
        return self._credit(state, side, counts)

    def settle_block(self, state: EightsState, counts: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...], str]:
        side, reason = _fewest(state)
        return side, self._credit(state, side, counts) if side else (0,) * state.seats, reason


# -- the heuristic bot ----------------------------------------------------------


EIGHTS_DRAWS_BEFORE_AN_EIGHT = 3
"""Eights games: cards drawn in a turn to find a natural card before playing an eight."""


def eights_choice(view: EightsView, moves: Sequence[Move]) -> Move:
    """The heuristic bot's move in Crazy Eights by the book, Eights and Hollywood Eights, after
    the Stops chapter's "skillful play".

    - A card other than an eight that fits is played: of the suit it holds most of (to come
      back to its long suit), then the one worth most points, then the lowest in card order.
    - It saves its eights ("not to play an 8 too quickly"; "to play an 8 with more than 2 cards
      in your hand is seldom wise ... better to draw a few cards"): with only an eight to play
      it draws, up to three cards a turn, unless it holds two cards or fewer or the stock is
      empty. An eight names the suit it then holds most of.
    - Otherwise it draws while it can, and passes only when that is its only move.

    >>> from fairdeal.rules import get
    >>> rules = get("eights")
    >>> view = EightsView(0, 1, 1, tuple(Card.parse(c) for c in ("8S", "9C", "4C", "KH")), (4, 5, 5),
    ...     Card.parse("QD"), None, 20, 3, 0, 0, 0, sides_of(3, True), (), None)
    >>> eights_choice(view, rules.legal_moves(view))   # only the eight fits, with four cards: draw
    Move.draw()
    """
    plays = [m.card for m in moves if m.kind == "play" and m.card is not None]  # (every play names its card)
    naturals = [c for c in plays if c.rank != Rank.EIGHT]
    if naturals:
        counts = natural_suit_counts(view.hand)
        return Move.play(max(naturals, key=lambda c: (counts[c.suit], card_points(c), -c.index)))
    can_draw = any(m.kind == "draw" for m in moves)
    if plays:
        if can_draw and len(view.hand) > 2 and view.drawn < EIGHTS_DRAWS_BEFORE_AN_EIGHT:
            return Move.draw()
        return play_wild(view.hand, min(plays))
    return Move.draw() if can_draw else moves[0]
