"""Switch: Crazy Eights with power cards, as a fairdeal game plugin.

A card goes on the pile when it matches the top card's suit or rank, as in Crazy
Eights; four ranks have powers:

- a **2** makes the next player draw two cards, unless he answers with a 2 of his
  own, which passes the penalty on, two cards larger (2s stack);
- an **8** skips the next player;
- a **jack** reverses the direction of play (with two players: the same player
  plays again);
- an **ace** is wild and names the suit to follow (``play AS naming H``).

Only fairdeal's four basic moves are used: a seat facing a 2's penalty plays a 2
or ``draw``\\ s, taking every penalty card at once; otherwise a ``draw`` takes one
card, which the seat plays or ``keep``\\ s if it fits, and the turn ends if it
does not. spec/switch.md (beside this package) says every rule exactly;
help/switch.md is the "How to play" for players. fairdeal finds the game
through the entry point ``fairdeal.games`` (``switch = "fairdeal_switch:Switch"``).

It builds on what fairdeal's draw-pile games share (:class:`~fairdeal.rules.crazy_eights.PileGame`
and its state and view): the deal and the starter, the restock of the pile, the checks of a
position, the timer's move and the replay's words come from there, the ace as the wild rank.

>>> from fairdeal.fairness import game_key, shuffle
>>> key = game_key("00" * 32, "doc", ["", "", ""])
>>> rules = Switch()
>>> state, events = rules.deal(3, dealer=0, hand=1, shuffle=lambda label, cards: shuffle(key, label, cards))
>>> [len(h) for h in state.hands], len(state.stock), state.turn, state.direction
([7, 7, 7], 30, 1, 1)
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import fields
from typing import Annotated
from typing import Any
from typing import Literal

from fairdeal.cards import Card
from fairdeal.cards import Rank
from fairdeal.cards import Suit
from fairdeal.rules import crazy_eights
from fairdeal.rules.base import TARGET
from fairdeal.rules.base import Event
from fairdeal.rules.base import HandResult
from fairdeal.rules.base import IllegalMove
from fairdeal.rules.base import Layout
from fairdeal.rules.base import Move
from fairdeal.rules.base import Shuffler
from fairdeal.rules.base import TableJSON
from fairdeal.rules.base import check_turn
from fairdeal.rules.base import fast_replace
from fairdeal.rules.base import has_turn
from fairdeal.rules.base import lowest_count_wins
from fairdeal.rules.base import not_held
from fairdeal.rules.base import out_words
from fairdeal.rules.base import turn_problem
from fairdeal.rules.base import went_out
from fairdeal.rules.crazy_eights import ALL_PASSED
from fairdeal.rules.crazy_eights import NOTHING_TO_DRAW
from fairdeal.rules.crazy_eights import NOTHING_TO_KEEP
from fairdeal.rules.crazy_eights import PASS_WHEN_NOTHING_TO_DRAW
from fairdeal.rules.crazy_eights import RESTOCK_LIMIT
from fairdeal.rules.crazy_eights import PileGame
from fairdeal.rules.crazy_eights import PileState
from fairdeal.rules.crazy_eights import PileView
from fairdeal.rules.crazy_eights import Wanted
from fairdeal.rules.crazy_eights import auto_play
from fairdeal.rules.crazy_eights import check_named
from fairdeal.rules.crazy_eights import keep_or_play
from fairdeal.rules.crazy_eights import moves_on_pile
from fairdeal.rules.crazy_eights import name_a_suit
from fairdeal.rules.crazy_eights import natural_suit_counts
from fairdeal.rules.crazy_eights import pass_but_fits
from fairdeal.rules.crazy_eights import pile_problem
from fairdeal.rules.crazy_eights import pile_top
from fairdeal.rules.crazy_eights import play_or_keep
from fairdeal.rules.crazy_eights import play_wild
from fairdeal.rules.crazy_eights import plays_of
from fairdeal.rules.crazy_eights import restock_words
from fairdeal.rules.position import PositionError
from fairdeal.rules.schema import Label
from fairdeal.rules.summary import SeatNames
from fairdeal.rules.summary import drawn_words
from fairdeal.said import Said

__all__ = [
    "Switch",
    "SwitchState",
    "SwitchView",
    "card_points",
    "fits",
    "switch_choice",
    "wanted_json",
]

POWER_RANKS = frozenset({Rank.ACE, Rank.TWO, Rank.EIGHT, Rank.JACK})
"""The ranks with a power; each counts 20 in a hand left at the end."""

PENALTY_PER_TWO = 2
"""Cards a 2 adds to the penalty the next seat faces."""

CLOSE_TO_OUT = 2
"""The heuristic bot turns its 2s, 8s and jacks on a next player holding this many cards or fewer."""


def card_points(card: Card) -> int:
    """What a card left in hand counts: ace, 2, 8 and jack (the power cards) 20; king, queen
    and 10: 10; the others their number.

    >>> [card_points(Card.parse(c)) for c in ("AS", "2H", "8D", "JC", "KH", "TD", "7C")]
    [20, 20, 20, 20, 10, 10, 7]
    """
    if card.rank in POWER_RANKS:
        return 20
    return min(int(card.rank), 10)


def auto_order(card: Card) -> tuple[int, int, int]:
    """The order in which a timed-out turn picks "the lowest card": by points, then rank
    (ace 1 ... king 13), then suit (clubs first). The power cards, worth 20, come last.

    >>> sorted(map(Card.parse, ["JC", "2S", "KH", "AD", "3C"]), key=auto_order)
    [Card.parse('3C'), Card.parse('KH'), Card.parse('AD'), Card.parse('2S'), Card.parse('JC')]
    """
    return (card_points(card), int(card.rank), int(card.suit))


def fits(card: Card, top: Card, named: Suit | None, penalty: int = 0) -> bool:
    """Whether ``card`` may go on ``top``: facing a 2's ``penalty``, only a 2; else an ace
    always; after an ace, the suit it named; else the top card's suit or rank.

    >>> nine, two = Card.parse("9H"), Card.parse("2C")
    >>> [fits(Card.parse(c), nine, None) for c in ("AS", "9C", "4H", "5C")]
    [True, True, True, False]
    >>> fits(Card.parse("2H"), two, None, penalty=2), fits(Card.parse("AC"), two, None, penalty=2)
    (True, False)
    >>> fits(Card.parse("9H"), Card.parse("AH"), Suit.SPADES)
    False
    """
    if penalty:
        return card.rank == Rank.TWO
    return crazy_eights.fits(card, top, named, wild=Rank.ACE)


def wanted_json(top: Card, named: Suit | None, penalty: int) -> dict[str, str | None]:
    """What may go on the pile now, in the shape Crazy Eights' view gives it: a card of
    ``suit``, or of ``rank``, or the ``wild`` rank; ``None`` where nothing of that kind fits.

    >>> wanted_json(Card.parse("9H"), None, 0), wanted_json(Card.parse("AH"), Suit.CLUBS, 0)
    ({'suit': 'H', 'rank': '9', 'wild': 'A'}, {'suit': 'C', 'rank': None, 'wild': 'A'})
    >>> wanted_json(Card.parse("2D"), None, 4)   # only a 2 answers a 2's penalty
    {'suit': None, 'rank': '2', 'wild': None}
    """
    if penalty:
        return {"suit": None, "rank": Rank.TWO.letter, "wild": None}
    return crazy_eights.wanted_json(top, named, wild=Rank.ACE)


@dataclass(frozen=True, slots=True)
class SwitchState(PileState):
    """One hand of Switch, everything included (hidden cards too). Its first fields are a pile
    game's (:class:`~fairdeal.rules.crazy_eights.PileState`): ``named`` is the suit named by the
    ace on top of the pile (``None`` under any other card, and under an ace turned as the starter)."""

    direction: int = 1
    """1: play goes to the left (seat + 1); -1: to the right, after an odd number of jacks."""
    penalty: int = 0
    """Cards the seat to act must draw unless it plays a 2: 2 for each 2 on top of the pile."""
    pending: Card | None = None
    """The card just drawn that fits: the seat must play it or keep it."""
    passes: int = 0
    """Passes in a row; as many as there are seats block the hand."""
    restocks: int = 0
    result: HandResult | None = None
    dealt: tuple[tuple[Card, ...], ...] = ()
    """The hands as dealt, for the report."""
    turned: tuple[Card, ...] = ()
    """The starter (Switch turns exactly one card), for the report."""
    restocked: tuple[tuple[Card, ...], ...] = ()
    """Each restock's new stock, top first, for the report."""

    def seat_after(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` seats on from ``seat`` in the direction of play."""
        return (seat + steps * self.direction) % len(self.hands)


replace: Callable[..., SwitchState] = fast_replace(SwitchState)


@dataclass(frozen=True, slots=True)
class SwitchView(PileView):
    """What one seat sees (``seat`` is ``None`` for a spectator, who sees no hand): its own
    hand, every hand's size, and the public table (a pile game's view: the top card and the
    suit named, then Switch's own fields)."""

    penalty: int
    direction: int
    stock_size: int
    pile_size: int
    turn: int | None
    pending: Card | None
    """The card the seat to act drew and must play or keep: only in that seat's own view."""
    passes: int
    restocks: int
    restock_limit: int
    result: HandResult | None

    def to_json(self) -> dict[str, Any]:
        """The view as the HTTP API shows it: one member per field but the result (the match
        reports that), cards as codes, suits as letters, the direction in words, and ``next``,
        what may go on the pile. A table page without a renderer of Switch's own shows each
        member by its name and value (fairdeal's generic renderer).

        >>> view = Switch().view(Switch().deal(2, 0, 1, lambda label, cards: list(cards))[0], 1)
        >>> data = view.to_json()
        >>> data["hand"][:3], data["top"], data["direction"], data["penalty"], data["next"]
        (['AC', '3C', '5C'], '2D', 'clockwise', 0, {'suit': 'D', 'rank': '2', 'wild': 'A'})
        """
        out = {f.name: _plain(getattr(self, f.name)) for f in fields(self) if f.name != "result"}
        # Said as a person reads it: seats are numbered clockwise, and 1 is to the next seat.
        out["direction"] = "clockwise" if self.direction == 1 else "counterclockwise"
        # What the table page shows, as the rules say it: what may go on the pile.
        out["next"] = wanted_json(self.top, self.named, self.penalty)
        return out


def _plain(value: Any) -> Any:
    """A view's field as JSON: cards as codes, suits as letters, tuples as arrays."""
    if isinstance(value, Card):
        return value.code
    if isinstance(value, Suit):
        return value.letter
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _replaced(hands: tuple[tuple[Card, ...], ...], seat: int, hand: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    return hands[:seat] + (hand,) + hands[seat + 1 :]


def _without(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    at = hand.index(card)
    return hand[:at] + hand[at + 1 :]


def _why_not(
    card: Card, *, hand: Sequence[Card], top: Card, named: Suit | None, penalty: int, pending: Card | None
) -> str | None:
    """Why the seat to act cannot play ``card``, or ``None``; the engine and :meth:`Switch.explain` share it."""
    if card not in hand:
        return not_held(card)
    if pending is not None and card is not pending:
        return play_or_keep(pending)
    if penalty:
        if card.rank == Rank.TWO:
            return None
        return Said("only a 2 answers the 2 on the pile: play a 2 or draw {penalty}", penalty=penalty)
    return pile_problem(card, top, named, wild=Rank.ACE)


def _fit_words(card: Card, suit: Suit | None, top: Card, named: Suit | None, penalty: int) -> str:
    """Why a legal play of ``card`` fits, for the hand replayer."""
    if penalty:
        return Said("{card} answers {top}: the penalty grows to {n}", card=card, top=top, n=penalty + PENALTY_PER_TWO)
    if card.rank == Rank.ACE and suit is None:
        return Said("an ace is wild: names a suit")
    return crazy_eights.fit_words(card, suit, top, named, wild=Rank.ACE)


def _power_words(card: Card, seats: int, penalty: int) -> str | None:
    """What a played card's power does, for the hand replayer (``None``: it has none here)."""
    if card.rank == Rank.TWO:
        return None if penalty else Said("the next player draws {n} unless he plays a 2", n=PENALTY_PER_TWO)
    if card.rank == Rank.EIGHT:
        return Said("the other player is skipped: plays again") if seats == 2 else Said("skips the next player")
    if card.rank == Rank.JACK:
        if seats == 2:
            return Said("a jack is a skip at two players: plays again")
        return Said("reverses the direction of play")
    return None


class SwitchTable(TableJSON):
    """The public table of a Switch hand: the pile's top and the suit an ace named, the penalty a
    2 left for the next seat, the direction of play, the stock, and what may go on the pile.
    Each member says what a page calls it (a :class:`~fairdeal.rules.schema.Label`): fairdeal's
    table page draws Switch with its generic renderer, which knows no game's words."""

    top: Annotated[Card, Label("Top of the pile")]
    named: Annotated[Suit | None, Label("Suit named")]
    penalty: Annotated[int, Label("Cards to draw")]
    direction: Annotated[
        Literal["clockwise", "counterclockwise"],
        Label("Direction of play", values={"clockwise": "clockwise", "counterclockwise": "counterclockwise"}),
    ]
    stock_size: Annotated[int, Label("Stock")]
    pile_size: Annotated[int, Label("Pile")]
    passes: Annotated[int, Label("Passes in a row")]
    restocks: Annotated[int, Label("New stocks")]
    restock_limit: Annotated[int, Label("New stocks allowed")]
    next: Annotated[
        Wanted,
        Label("What may go on the pile", fields={"suit": Label("suit"), "rank": Label("rank"), "wild": Label("wild")}),
    ]


class Switch(PileGame[SwitchState, SwitchView]):
    """Switch: 2 to 7 players, one pack, to 100 points. 2s make the next player draw two
    (and stack), 8s skip the next player, jacks reverse the play, aces are wild.

    Options: ``target`` (points that end the match, default 100) and ``restock_limit``
    (run-outs of the stock a hand survives, default 20).

    >>> from fairdeal.cards import parse_cards
    >>> rules = Switch()
    >>> state = SwitchState(hand=1, dealer=2, hands=tuple(tuple(parse_cards(h)) for h in ("2H 9C", "KD 3S", "5H")),
    ...                     stock=tuple(parse_cards("4C 6C 7C")), pile=tuple(parse_cards("TH")), named=None, turn=0,
    ...                     turned=tuple(parse_cards("TH")))
    >>> state, _ = rules.apply(state, 0, Move.play(Card.parse("2H")), None)
    >>> state.turn, state.penalty, [str(m) for m in rules.legal_moves(rules.view(state, 1))]
    (1, 2, ['draw'])
    >>> state, _ = rules.apply(state, 1, Move.draw(), None)
    >>> state.hands[1], state.turn, state.penalty
    ((Card.parse('KD'), Card.parse('3S'), Card.parse('4C'), Card.parse('6C')), 2, 0)
    """

    name = "switch"
    table_json = SwitchTable
    title = "Switch"
    summary_line = "Crazy Eights with power cards: 2s make the next player draw, 8s skip, jacks reverse, aces are wild."
    min_seats = 2
    max_seats = 7
    unit = "points"
    OPTIONS = (TARGET, RESTOCK_LIMIT)
    layout = Layout(hands="7 cards each with two to four players, else 5", stock=True, starter=True)
    wild = Rank.ACE
    # The starter is whatever card tops the stock: its power does not apply (spec/switch.md, Decisions).
    turned_back = None

    @staticmethod
    def hand_size(seats: int) -> int:
        """7 cards each with two to four players; 5 from five on, so that seven leave a stock of 16."""
        return 7 if seats <= 4 else 5

    # -- the position (state JSON, spec/state.md) ----------------------------

    state_type = SwitchState

    def fits_pile(self, card: Card, state: SwitchState) -> bool:
        return fits(card, state.top, state.named, state.penalty)

    def check_position(self, state: SwitchState) -> None:
        """What a Switch position holds true besides its cards (spec/switch.md, "What a position holds").

        >>> from fairdeal.cards import parse_cards
        >>> data = Switch().state_to_json(Switch().deal(2, 0, 1, lambda label, cards: list(cards))[0])
        >>> data["penalty"] = 4   # the starter 2D is one 2: a penalty of 2 at most
        >>> Switch().state_from_json(data)
        Traceback (most recent call last):
        ...
        fairdeal.rules.position.PositionError: penalty: a penalty of 4 is 2 for each of the 2s on top of the pile, which are played, not turned
        """
        pile = state.pile
        top = pile_top(pile)
        if len(state.turned) != 1:
            raise PositionError("Switch turns exactly one card, the starter", field="turned")
        check_named(top, state.named, wild=Rank.ACE)
        if state.named is None and top.rank == Rank.ACE and pile != state.turned:
            raise PositionError(
                f"the ace on top of the pile, {top}, names no suit (only an ace turned as the starter names none)",
                field="named",
            )
        if state.direction not in (1, -1):
            raise PositionError(f"{state.direction!r} is not 1 (to the left) or -1 (to the right)", field="direction")
        twos = state.penalty // PENALTY_PER_TWO
        # The 2s that made a penalty are still on the pile: only a draw rebuilds the stock, and the
        # one draw allowed against a penalty takes it (the starter's power does not apply).
        if (
            state.penalty < 0
            or state.penalty % PENALTY_PER_TWO
            or len(pile) - 1 < twos
            or any(card.rank != Rank.TWO for card in pile[len(pile) - twos :])
        ):
            raise PositionError(
                f"a penalty of {state.penalty} is 2 for each of the 2s on top of the pile, "
                "which are played, not turned",
                field="penalty",
            )
        self.check_pending(state)
        self.check_passes(state)
        self.check_restocks(state)

    # -- seeing ----------------------------------------------------------

    def view(self, state: SwitchState, seat: int | None) -> SwitchView:
        return SwitchView(
            **self.pile_fields(state, seat),
            penalty=state.penalty,
            direction=state.direction,
            stock_size=len(state.stock),
            pile_size=len(state.pile),
            turn=state.turn,
            **self.restock_fields(state, seat),
        )

    def legal_moves(self, view: SwitchView) -> list[Move]:
        """The moves :meth:`apply` accepts now: with a card drawn that fits, its plays and
        ``keep``; else the plays of the fitting cards in card order, then ``draw`` (always
        against a penalty), or ``pass`` when nothing fits and nothing can be drawn."""
        if view.result is not None or not has_turn(view):
            return []
        if view.pending is not None:
            return [*plays_of(view.pending, Rank.ACE), Move.keep()]
        fitting = [card for card in sorted(view.hand) if fits(card, view.top, view.named, view.penalty)]
        return moves_on_pile(fitting, bool(view.penalty) or view.can_draw, Rank.ACE)

    def explain(self, view: SwitchView, card: Card) -> str | None:
        return turn_problem(view) or _why_not(
            card, hand=view.hand, top=view.top, named=view.named, penalty=view.penalty, pending=view.pending
        )

    def why_legal(self, view: SwitchView, move: Move) -> str:
        """The rule that allowed ``move``, for the hand replayer.

        >>> rules = Switch()
        >>> view = rules.view(rules.deal(3, 2, 1, lambda label, cards: list(cards))[0], 0)   # 9D on the pile
        >>> rules.why_legal(view, Move.play(Card.parse("JD"))), rules.why_legal(view, Move.play(Card.parse("AC"), Suit.HEARTS))
        ('J♦ on 9♦: same suit; reverses the direction of play', 'an ace is wild: names hearts')
        """
        kind = move.kind
        if kind == "keep" and view.pending is not None:
            return Said("keeps the card drawn, {card}, though it fits", card=view.pending)
        if kind == "play" and move.card is not None:
            text = _fit_words(move.card, move.suit, view.top, view.named, view.penalty)
            power = _power_words(move.card, len(view.hand_sizes), view.penalty)
            if power is not None and len(view.hand) > 1:  # (a last card's power does not apply)
                text = Said("{fit}; {power}", fit=text, power=power)
            return text if view.pending is None else Said("plays the card just drawn: {why}", why=text)
        if kind == "draw":
            if view.penalty:
                why = Said("takes the penalty: draws {n}", n=view.penalty)
            elif any(fits(c, view.top, view.named) for c in view.hand):
                why = Said("a card fits, but drawing is allowed: draws one")
            else:
                why = Said("no card fits: draws one")
            # An empty stock: the draw shuffles the pile under its top card into a new one.
            return why if view.stock_size else restock_words(why)
        if kind == "pass":
            return Said("no card fits and there is nothing to draw: passes")
        return super().why_legal(view, move)

    # -- playing ---------------------------------------------------------

    def apply(self, state: SwitchState, seat: int, move: Move, shuffle: Shuffler) -> tuple[SwitchState, list[Event]]:
        check_turn(state, seat, move)
        kind = move.kind
        if kind == "play":
            return self._play(state, seat, move), []
        refused = self._refusal(state, seat, kind)
        if refused is not None:
            raise IllegalMove(refused, move=move, seat=seat)
        if kind == "draw":
            return self._take_penalty(state, seat, shuffle) if state.penalty else self._draw(state, seat, shuffle)
        if kind == "keep":
            return replace(state, turn=state.seat_after(seat), pending=None, passes=0), []
        passes = state.passes + 1  # a pass: the only kind left
        if passes == state.seats:
            return self._end(replace(state, passes=passes), None, ALL_PASSED), []
        return replace(state, turn=state.seat_after(seat), passes=passes), []

    def _refusal(self, state: SwitchState, seat: int, kind: str) -> str | None:
        """Why a ``draw``, ``keep`` or ``pass`` is refused now (or another kind at all), or ``None``."""
        pending, penalty = state.pending, state.penalty
        must = None if pending is None else play_or_keep(pending)
        if kind == "draw":
            if must:
                return must
            # Against a penalty the draw is always allowed: it takes what there is.
            if penalty or state.can_draw:
                return None
            return NOTHING_TO_DRAW
        if kind == "keep":
            return None if pending is not None else NOTHING_TO_KEEP
        if kind == "pass":
            if must:
                return must
            if penalty:
                return Said("a 2's penalty cannot be passed: play a 2 or draw {penalty}", penalty=penalty)
            if state.can_draw:
                return PASS_WHEN_NOTHING_TO_DRAW
            playable = [c for c in state.hands[seat] if fits(c, state.top, state.named)]
            return pass_but_fits(playable[0]) if playable else None
        return self.no_move(kind)

    def _play(self, state: SwitchState, seat: int, move: Move) -> SwitchState:
        card, hand = move.card, state.hands[seat]
        assert card is not None, "a play names its card (Move refuses one that does not)"
        problem = _why_not(
            card, hand=hand, top=state.top, named=state.named, penalty=state.penalty, pending=state.pending
        )
        if problem is None and (card.rank == Rank.ACE) != (move.suit is not None):
            problem = name_a_suit(card) if move.suit is None else Said("only an ace names a suit")
        if problem is not None:
            raise IllegalMove(problem, move=move, seat=seat)
        hands = _replaced(state.hands, seat, _without(hand, card))
        played = replace(state, hands=hands, pile=state.pile + (card,), named=move.suit, pending=None, passes=0)
        if not hands[seat]:
            # Going out ends the hand at once: a last card's power does not apply.
            return self._end(played, seat, out_words((seat,)))
        direction, steps = state.direction, 1
        if card.rank == Rank.JACK:
            direction = -direction
            # Reversed, two seats would hand the turn over as usual: there a jack is a skip.
            steps = 0 if state.seats == 2 else 1
        elif card.rank == Rank.EIGHT:
            steps = 2
        penalty = state.penalty + PENALTY_PER_TWO if card.rank == Rank.TWO else 0
        return replace(played, direction=direction, turn=(seat + steps * direction) % state.seats, penalty=penalty)

    def _draw(self, state: SwitchState, seat: int, shuffle: Shuffler) -> tuple[SwitchState, list[Event]]:
        """One card: it becomes the pending card if it fits, else the turn ends."""
        state, events = self.ready_to_draw(state, shuffle)
        if state.result is not None:
            return state, events
        card = state.stock[0]
        state = replace(
            state, hands=_replaced(state.hands, seat, state.hands[seat] + (card,)), stock=state.stock[1:], passes=0
        )
        if fits(card, state.top, state.named):
            return replace(state, pending=card), events
        return replace(state, turn=state.seat_after(seat)), events

    def _take_penalty(self, state: SwitchState, seat: int, shuffle: Shuffler) -> tuple[SwitchState, list[Event]]:
        """Every penalty card at once, restocking as often as needed; the turn ends."""
        events: list[Event] = []
        for _ in range(state.penalty):
            if not state.stock:
                if len(state.pile) < 2:
                    break  # nothing is left to draw anywhere: the rest of the penalty lapses
                state, restocked = self.restock(state, shuffle)
                events += restocked
                if state.result is not None:
                    return state, events  # blocked: the cards drawn so far count in the hand
            hands = _replaced(state.hands, seat, state.hands[seat] + state.stock[:1])
            state = replace(state, hands=hands, stock=state.stock[1:])
        return replace(state, turn=state.seat_after(seat), penalty=0, passes=0), events

    def out_of_stock(self, state: SwitchState) -> SwitchState:
        """The stock ran out once more than ``restock_limit`` allows: the hand is blocked."""
        limit = self.options["restock_limit"]
        if limit == 1:
            return self._end(state, None, Said("the stock ran out again after 1 restock"))
        return self._end(state, None, Said("the stock ran out again after {n} restocks", n=limit))

    @staticmethod
    def _end(state: SwitchState, out: int | None, reason: str) -> SwitchState:
        """The hand over: ``out`` went out and scores every other hand's count; or (``None``) it
        is blocked, and each seat on the lowest count scores what every count is above it."""
        counts = tuple(sum(map(card_points, h)) for h in state.hands)
        result = lowest_count_wins(counts, reason) if out is None else went_out(out, counts)
        return replace(state, turn=None, pending=None, penalty=0, result=result)

    # -- the bots and the timer ------------------------------------------

    def heuristic_move(self, view: SwitchView, moves: Sequence[Move]) -> Move:
        """The heuristic bot's move: see :func:`switch_choice`."""
        return switch_choice(view, moves)

    auto_order = staticmethod(auto_order)

    def forced_move(self, state: SwitchState) -> Move | None:
        """What the table plays for a seat whose timer ran out (spec/switch.md): the card it
        drew and must play or keep is played; a penalty is taken (drawn); otherwise (``None``)
        its lowest fitting card by (points, rank, suit), so the power cards last; else a draw;
        else a pass (:meth:`~fairdeal.rules.crazy_eights.PileGame.auto_move`). A timed-out ace
        names the suit the seat then holds most of (clubs first on ties), or its own suit when
        it was the last card.

        >>> from fairdeal.cards import parse_cards
        >>> state = SwitchState(hand=1, dealer=1, hands=(tuple(parse_cards("2H 9C AS")), tuple(parse_cards("KD"))),
        ...                     stock=tuple(parse_cards("4C")), pile=tuple(parse_cards("9H")), named=None, turn=0,
        ...                     turned=tuple(parse_cards("9H")))
        >>> Switch().forced_move(state), Switch().auto_move(state)
        (None, Move.play(Card.parse('9C')))
        """
        if state.pending is not None:
            assert state.turn is not None, "a seat holds a drawn card to play or keep only at its turn"
            return auto_play(state.pending, state.hands[state.turn], Rank.ACE)
        return Move.draw() if state.penalty else None

    # -- reporting --------------------------------------------------------

    def move_words(self, before: SwitchState, seat: int, move: Move, after: SwitchState | None) -> str:
        """The replay's words for a move; a penalty draw names every card it took.

        >>> from fairdeal.cards import parse_cards
        >>> rules = Switch()
        >>> before = SwitchState(hand=1, dealer=1, hands=(tuple(parse_cards("KD")), tuple(parse_cards("3S"))),
        ...     stock=tuple(parse_cards("4C 6C 7C")), pile=tuple(parse_cards("TH 2H")), named=None, turn=0, penalty=2,
        ...     turned=tuple(parse_cards("TH")))
        >>> after, _ = rules.apply(before, 0, Move.draw(), None)
        >>> rules.move_words(before, 0, Move.draw(), after)
        'draw 2 (penalty) -> 4♣ 6♣'
        """
        if move.kind != "draw" or not before.penalty or after is None:
            return super().move_words(before, seat, move, after)
        # The penalty's cards go to the end of the hand, as any draw's.
        return f"draw {before.penalty} (penalty) -> " + drawn_words(before.hands[seat], after.hands[seat])

    def describe_table(self, before: SwitchState, after: SwitchState, names: SeatNames) -> str:
        text = super().describe_table(before, after, names)
        if after.penalty:
            text += f", {after.penalty} to draw"
        if after.direction != before.direction:
            text += "; play now goes " + ("left" if after.direction == 1 else "right")
        return text


# -- the heuristic bot ----------------------------------------------------------


def switch_choice(view: SwitchView, moves: Sequence[Move]) -> Move:
    """The heuristic bot's move in Switch: it plays like a careful person.

    - Facing a 2's penalty it answers with a 2 when it holds one (the penalty moves on, two
      cards larger), else it takes the penalty.
    - It plays a card other than an ace when one fits. First a card that stops the next
      player when he is close to going out (two cards or fewer): a 2 (he draws), an 8 (he is
      skipped), or with three or more players a jack (play turns away from him, unless the
      player on the other side is as close); with two players an 8 or a jack first whenever it
      holds another card, since the same player then plays again. Then the card of the suit it
      holds most of, then the one worth most points (power cards count 20 against it), then the
      lowest in card order.
    - It saves its aces: it plays an ace only when nothing else fits, naming the suit it then
      holds most of (aces aside), then the suit worth most points.
    - A card it drew that fits it plays, except an ace, which it keeps unless some opponent
      is close to going out (then the ace's 20 points are about to count against it).
    - Otherwise it draws, and passes only when that is its only move.

    >>> from fairdeal.cards import parse_cards
    >>> def view(hand, top, sizes, penalty=0):
    ...     return SwitchView(0, 1, 1, tuple(parse_cards(hand)), sizes, Card.parse(top), None, penalty, 1, 20, 3,
    ...                       0, None, 0, 0, 20, None)
    >>> rules = Switch()
    >>> v = view("AS 9H 8H KH 3C", "9C", (5, 6, 6))
    >>> switch_choice(v, rules.legal_moves(v))   # 9H: of its long suit, hearts; the ace waits
    Move.play(Card.parse('9H'))
    >>> v = view("AS 9H 8C KH 3C", "9C", (5, 2, 6))
    >>> switch_choice(v, rules.legal_moves(v))   # seat 1 holds two cards: skip him
    Move.play(Card.parse('8C'))
    >>> v = view("AS 2H KC", "2C", (3, 6), penalty=2)
    >>> switch_choice(v, rules.legal_moves(v))   # pass the penalty on
    Move.play(Card.parse('2H'))
    """
    plays = [m.card for m in moves if m.kind == "play" and m.card is not None]  # (every play names its card)
    seats = len(view.hand_sizes)
    if view.pending is not None:
        return keep_or_play(view, Rank.ACE, card_points, close=CLOSE_TO_OUT)
    naturals = [c for c in plays if c.rank != Rank.ACE]
    if naturals:
        counts = natural_suit_counts(view.hand, Rank.ACE)
        me = view.seat if view.seat is not None else 0
        after = view.hand_sizes[(me + view.direction) % seats]
        before = view.hand_sizes[(me - view.direction) % seats]

        def stops(card: Card) -> bool:
            if seats == 2:
                # The same player plays again: a free card, if it has another to play.
                return card.rank in (Rank.EIGHT, Rank.JACK) and len(view.hand) > 1
            if after > CLOSE_TO_OUT:
                return False
            return card.rank in (Rank.TWO, Rank.EIGHT) or (card.rank == Rank.JACK and before > CLOSE_TO_OUT)

        return Move.play(max(naturals, key=lambda c: (stops(c), counts[c.suit], card_points(c), -c.index)))
    if plays:
        return play_wild(view.hand, min(plays), Rank.ACE, card_points)
    return moves[0]  # nothing to play: the one move left is a draw, or a pass
