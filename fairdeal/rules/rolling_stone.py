"""Rolling Stone (../shared/rules/stops-family.txt): follow suit, or pick up the trick.

4 to 6 players and a pack cut down so that each gets 8 cards: A K Q J 10 9 8 7 of
each suit for four, the sixes and fives added for five, the fours and threes too
for six. The leader puts down any card; each next seat must follow suit if it can,
high or low as it pleases. When all have followed, the trick is put aside and the
highest card leads the next. A seat that cannot follow **picks up** the trick (its
move is a ``pass``; a ``pick-up`` event lists the cards) and leads the next. The
first seat out of cards wins the deal. spec/games/rolling-stone.md says where the
text was read one way rather than another.

>>> from fairdeal.fairness import game_key, shuffle
>>> key = game_key("00" * 32, "doc", ["", "", "", ""])
>>> rules = RollingStone()
>>> state, events = rules.deal(4, dealer=0, hand=1, shuffle=lambda label, cards: shuffle(key, label, cards))
>>> [len(h) for h in state.hands], state.turn, sorted({c.rank.label for h in state.hands for c in h})
([8, 8, 8, 8], 1, ['10', '7', '8', '9', 'A', 'J', 'K', 'Q'])
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from typing import TypedDict

from fairdeal.cards import Card
from fairdeal.cards import Rank
from fairdeal.cards import Suit
from fairdeal.cards import codes
from fairdeal.cards import pack
from fairdeal.rules.base import DEALS
from fairdeal.rules.base import Event
from fairdeal.rules.base import HandResult
from fairdeal.rules.base import HandState
from fairdeal.rules.base import IllegalMove
from fairdeal.rules.base import Layout
from fairdeal.rules.base import Move
from fairdeal.rules.base import Option
from fairdeal.rules.base import SeatView
from fairdeal.rules.base import Shuffler
from fairdeal.rules.base import TableJSON
from fairdeal.rules.base import fast_replace
from fairdeal.rules.base import not_held
from fairdeal.rules.base import seat_fields
from fairdeal.rules.base import seat_to_act
from fairdeal.rules.base import suit_counts
from fairdeal.rules.base import turn_problem
from fairdeal.rules.base import went_out
from fairdeal.rules.position import Places
from fairdeal.rules.position import PositionError
from fairdeal.rules.position import check_seat
from fairdeal.rules.position import check_shape
from fairdeal.rules.position import check_to_act
from fairdeal.rules.position import hand_places
from fairdeal.rules.rounds import RoundGame
from fairdeal.rules.rounds import lead_longest_suit
from fairdeal.rules.snip_snap import strength as rank_strength
from fairdeal.rules.summary import HandSummary
from fairdeal.rules.summary import SeatNames
from fairdeal.rules.summary import describe_plays
from fairdeal.rules.summary import display
from fairdeal.rules.summary import plays_from_json
from fairdeal.rules.summary import plays_json
from fairdeal.rules.summary import safe
from fairdeal.said import Said
from fairdeal.said import suit_words

__all__ = [
    "RollingStone",
    "RollingStoneState",
    "RollingStoneView",
    "position",
    "rolling_stone_pack",
    "strength",
    "trick_winner",
]

HAND_SIZE = 8

LOWEST = {4: Rank.SEVEN, 5: Rank.FIVE, 6: Rank.THREE}
"""The lowest rank in the pack, by the number of players (the ace is above the king)."""


def strength(card: Card) -> int:
    """A card's rank in a trick: the ace above the king.

    >>> [strength(Card.parse(c)) for c in ("7C", "KD", "AS")]
    [7, 13, 14]
    """
    return rank_strength(card.rank)


def rolling_stone_pack(seats: int) -> list[Card]:
    """The pack for ``seats`` players, in card order: eight cards a player.

    >>> [len(rolling_stone_pack(n)) for n in (4, 5, 6)]
    [32, 40, 48]
    >>> " ".join(c.code for c in rolling_stone_pack(4)[:8])
    'AC 7C 8C 9C TC JC QC KC'
    """
    low = rank_strength(LOWEST[seats])
    return [card for card in pack() if strength(card) >= low]


def position(leader: int, hands: Sequence[Sequence[Card]]) -> tuple[int, ...]:
    """What a trick begins from: the seat to lead and the cards in each hand (in any order),
    each hand as a bit mask of card indices.

    >>> position(2, [[Card.parse("AC"), Card.parse("7C")], [Card.parse("AD")]])
    (2, 65, 8192)
    """
    return (leader, *(sum(1 << card.index for card in hand) for hand in hands))


def trick_winner(plays: Sequence[tuple[int, Card]]) -> int:
    """The seat that played the highest card of a trick everyone followed (A high).

    >>> trick_winner([(1, Card.parse("JD")), (2, Card.parse("AD")), (3, Card.parse("7D"))])
    2
    """
    return max(plays, key=lambda play: strength(play[1]))[0]


@dataclass(frozen=True, slots=True)
class RollingStoneState(HandState):
    """One deal of Rolling Stone, everything included (hidden cards too)."""

    turn: int | None
    """The seat to act; ``None`` once the deal is over."""
    trick: tuple[tuple[int, Card], ...] = ()
    """The trick in play, (seat, card) in order; empty: the seat to act leads."""
    aside: int = 0
    """Cards of tricks everyone followed, turned over and put aside."""
    tricks: tuple[dict[str, Any], ...] = ()
    """Every finished trick, for the report (see :meth:`RollingStone.summary`)."""
    seen: frozenset[tuple[int, ...]] = frozenset()
    """Every position a trick has begun from (see :func:`position`)."""
    result: HandResult | None = None
    dealt: tuple[tuple[Card, ...], ...] = ()
    """The hands as dealt, for the report."""

    @property
    def led(self) -> Card | None:
        return self.trick[0][1] if self.trick else None


_replace: Callable[..., RollingStoneState] = fast_replace(RollingStoneState)


@dataclass(frozen=True, slots=True)
class RollingStoneView(SeatView):
    """What one seat sees (``seat`` is ``None`` for a spectator, who sees no hand).

    ``tricks`` is how many tricks the deal has had; ``last`` the one before the trick in
    play, as the report shows it (``None`` before the first ends)."""

    turn: int | None
    trick: tuple[tuple[int, Card], ...]
    aside: int
    tricks: int
    last: dict[str, Any] | None
    result: HandResult | None

    @property
    def led(self) -> Card | None:
        return self.trick[0][1] if self.trick else None

    def to_json(self) -> dict[str, Any]:
        return {
            **self.seat_json(),
            "turn": self.turn,
            "trick": plays_json(self.trick),
            "led": None if self.led is None else self.led.suit.letter,
            "aside": self.aside,
            "tricks": self.tricks,
            "last": self.last,
        }


def _why_not(card: Card, *, hand: Sequence[Card], led: Card | None) -> str | None:
    """Why the seat to act cannot play ``card``, or ``None``; shared by the engine and :meth:`explain`."""
    if card not in hand:
        return not_held(card)
    if led is None or card.suit == led.suit:
        return None
    follow = tuple(sorted(c for c in hand if c.suit == led.suit))
    if follow:
        return Said(
            "you must follow suit: {suits} were led and you hold {cards}", suits=suit_words(led.suit), cards=follow
        )
    return Said("you hold no {suits}: you cannot follow, so you pick up the trick (pass)", suits=suit_words(led.suit))


class Played(TypedDict):
    """A card of a trick and the seat that played it."""

    seat: int
    card: Card


class LastTrick(TypedDict):
    """The trick before this one: its cards, how it ended and by whom."""

    plays: list[Played]
    end: str
    by: int


class RollingStoneTable(TableJSON):
    """The public table of a Rolling Stone hand: the trick in play, the suit led, the tricks."""

    trick: list[Played]
    led: Suit | None
    aside: int
    tricks: int
    last: LastTrick | None


class RollingStone(RoundGame[RollingStoneState, RollingStoneView]):
    """Rolling Stone: 4 to 6 players, 8 cards each; follow suit or pick up the trick; first out wins.

    Options: ``deals`` (deals in the session; 0, the default: each player deals once; a
    deal won scores 1) and ``trick_limit`` (500: a deal still going after that many tricks
    is blocked, and the seats with the fewest cards win it; so is a deal that goes round in
    a circle, see :meth:`_limit`).

    >>> from fairdeal.cards import parse_cards
    >>> rules = RollingStone()
    >>> hands = tuple(tuple(parse_cards(h)) for h in ("AS 7H", "9S 8D", "KD QD", "TS JH"))
    >>> state = RollingStoneState(hand=1, dealer=3, hands=hands, turn=0)
    >>> state, _ = rules.apply(state, 0, Move.play(Card.parse("AS")), None)
    >>> state, _ = rules.apply(state, 1, Move.play(Card.parse("9S")), None)
    >>> rules.explain(rules.view(state, 2), Card.parse("KD"))
    'you hold no spades: you cannot follow, so you pick up the trick (pass)'
    >>> state, events = rules.apply(state, 2, Move.pass_(), None)
    >>> events, state.turn, [c.code for c in state.hands[2]]
    ([{'type': 'pick-up', 'hand': 1, 'seat': 2, 'cards': ['AS', '9S']}], 2, ['KD', 'QD', 'AS', '9S'])
    """

    renderer = "rolling_stone"
    table_json = RollingStoneTable

    name = "rolling-stone"
    lobby_order = 200
    title = "Rolling Stone"
    min_seats = 4
    max_seats = 6
    first_dealer_rank = Rank.ACE
    family = "Groups and tricks"
    summary_line = "Follow suit or pick up the trick; the first out wins the deal."
    OPTIONS = (DEALS, Option("trick_limit", 500, 1, 10_000, "tricks", help="tricks after which a deal is blocked"))
    unit = "deals"
    layout = Layout(
        hands="8 cards each",
        cut_down="ace and the high cards: 8 a player (from the 7s at four, the 6s at five, the 5s at six)",
    )

    @staticmethod
    def hand_size(seats: int) -> int:
        return HAND_SIZE

    # -- the position (state JSON, spec/state.md) --------------------------------------

    state_type = RollingStoneState

    def pack_for(self, seats: int) -> list[Card]:
        """The cut-down pack a position at ``seats`` seats is checked against."""
        return rolling_stone_pack(seats)

    def card_places(self, state: RollingStoneState) -> Places:
        """Where the cards are: the hands, the trick in play, the tricks put aside, and the trick
        a deal ended in (a trick picked up went into a hand; ``dealt`` is history)."""

        def cards(end: str) -> list[Card]:
            return [
                Card.parse(play["card"]) for trick in state.tricks if trick["end"] == end for play in trick["plays"]
            ]

        return [
            *hand_places(state.hands),
            (Said("in the trick"), [c for _, c in state.trick]),
            (Said("in a trick put aside"), cards("aside")),
            (Said("in the trick the deal ended in"), cards("out")),
        ]

    def check_position(self, state: RollingStoneState) -> None:
        seats = state.seats
        for i, (seat, card) in enumerate(state.trick):
            check_seat(seat, seats, f"trick[{i}][0]")
            if seat != (state.trick[0][0] + i) % seats:
                raise PositionError(
                    f"seat {(state.trick[0][0] + i) % seats} plays after seat {state.trick[i - 1][0]}, not seat {seat}",
                    field=f"trick[{i}]",
                )
            if card.suit != state.trick[0][1].suit:
                raise PositionError(
                    f"{card} does not follow {state.trick[0][1]}: a seat that cannot follow picks up the trick",
                    field=f"trick[{i}]",
                )
        if len(state.trick) >= seats:
            raise PositionError(f"a trick that all {seats} seats followed is put aside", field="trick")
        if state.trick and state.result is None and state.turn != (state.trick[-1][0] + 1) % seats:
            raise PositionError(
                f"seat {(state.trick[-1][0] + 1) % seats} plays next, not seat {state.turn}", field="turn"
            )
        check_to_act(state)
        shape = {"plays": [{"seat": "seat", "card": "card"}], "end": ("aside", "picked-up", "out"), "by": "seat"}
        aside = 0
        for i, trick in enumerate(state.tricks):
            cards = check_shape(trick, shape, f"tricks[{i}]", seats)
            aside += len(cards) if trick["end"] == "aside" else 0
            if trick["end"] == "out" and (i != len(state.tricks) - 1 or state.result is None):
                raise PositionError("only the last trick of a finished deal ends it", field=f"tricks[{i}].end")
        if state.aside != aside:
            raise PositionError(f"the tricks put aside hold {aside} cards, not {state.aside}", field="aside")
        for seen in state.seen:
            if len(seen) != seats + 1:
                raise PositionError(
                    f"a position is the seat to lead and a mask per hand: {seats + 1} numbers, not {len(seen)}",
                    field="seen",
                )

    # -- dealing -----------------------------------------------------------------------

    def deal(self, seats: int, dealer: int, hand: int, shuffle: Shuffler) -> tuple[RollingStoneState, list[Event]]:
        hands, _ = self.deal_cards(seats, dealer, hand, shuffle)
        first = (dealer + 1) % seats
        state = RollingStoneState(
            hand=hand, dealer=dealer, hands=hands, turn=first, seen=frozenset((position(first, hands),)), dealt=hands
        )
        return state, [{"type": "deal", "hand": hand, "dealer": dealer}]

    # -- seeing ----------------------------------------------------------------------------

    def view(self, state: RollingStoneState, seat: int | None) -> RollingStoneView:
        return RollingStoneView(
            **seat_fields(state, seat),
            turn=state.turn,
            trick=state.trick,
            aside=state.aside,
            tricks=len(state.tricks),
            last=state.tricks[-1] if state.tricks else None,
            result=state.result,
        )

    def explain(self, view: RollingStoneView, card: Card) -> str | None:
        return turn_problem(view) or _why_not(card, hand=view.hand, led=view.led)

    # -- a trick: follow suit, or pick it up -----------------------------------------------

    moves_hint = Said("play a card, or pass to pick up the trick")
    table_word = "trick"

    def wanted_by(self, table: RollingStoneState | RollingStoneView) -> Card | None:
        return table.led

    def answers(self, card: Card, wanted: Card) -> bool:
        return card.suit == wanted.suit

    def lead_words(self, card: Card) -> str:
        return Said("{card} leads the trick: any card may lead", card=card)

    def answer_words(self, card: Card, wanted: Card) -> str:
        return Said("{card} follows suit: {suits} were led", card=card, suits=suit_words(wanted.suit))

    def stuck_words(self, kind: str, wanted: Card | None) -> str | None:
        if kind == "pass" and wanted is not None:
            return Said("holds no {suits}: cannot follow, picks up the trick", suits=suit_words(wanted.suit))
        return None

    def in_play(self, state: RollingStoneState) -> list[Card]:
        return [c for _, c in state.trick]

    # -- playing ---------------------------------------------------------------------------

    def play_problem(self, state: RollingStoneState, seat: int, move: Move) -> str | None:
        if move.suit is not None:
            return Said("{game} names no suit", game=self.title)
        assert move.card is not None  # a play names its card (every declaration of "play" requires it)
        return _why_not(move.card, hand=state.hands[seat], led=state.led)

    def must_answer(self, able: Sequence[Card], wanted: Card) -> str:
        return Said("you must follow suit when you can, and {card} follows", card=min(able))

    def stuck(
        self, state: RollingStoneState, seat: int, kind: str, illegal: Callable[[str], IllegalMove]
    ) -> tuple[RollingStoneState, list[Event]]:
        return self._pick_up(state, seat)

    def play(self, state: RollingStoneState, seat: int, card: Card) -> tuple[RollingStoneState, list[Event]]:
        return self._play(state, seat, card), []

    def _play(self, state: RollingStoneState, seat: int, card: Card) -> RollingStoneState:
        i = state.hands[seat].index(card)
        hand = state.hands[seat][:i] + state.hands[seat][i + 1 :]
        hands = state.hands[:seat] + (hand,) + state.hands[seat + 1 :]
        trick = state.trick + ((seat, card),)
        if not hand:
            result = went_out(seat, tuple(len(h) for h in hands), tuple(int(s == seat) for s in range(state.seats)))
            done = _trick(trick, "out", seat)
            return _replace(state, hands=hands, trick=(), turn=None, tricks=state.tricks + (done,), result=result)
        if len(trick) < state.seats:
            return _replace(state, hands=hands, trick=trick, turn=(seat + 1) % state.seats)
        # Everyone followed: the trick is put aside and its highest card leads.
        leader = trick_winner(trick)
        state = _replace(
            state,
            hands=hands,
            trick=(),
            turn=leader,
            aside=state.aside + len(trick),
            tricks=state.tricks + (_trick(trick, "aside", leader),),
        )
        return self._limit(state)

    def _pick_up(self, state: RollingStoneState, seat: int) -> tuple[RollingStoneState, list[Event]]:
        cards = tuple(card for _, card in state.trick)
        hands = state.hands[:seat] + (state.hands[seat] + cards,) + state.hands[seat + 1 :]
        state = _replace(
            state, hands=hands, trick=(), turn=seat, tricks=state.tricks + (_trick(state.trick, "picked-up", seat),)
        )
        return self._limit(state), [{"type": "pick-up", "hand": state.hand, "seat": seat, "cards": codes(cards)}]

    def _limit(self, state: RollingStoneState) -> RollingStoneState:
        """A new trick begins. The text has no end but going out, and play can go round in a
        circle (a seat leads the last card of a suit, the next picks it up and leads it on, ...);
        so a deal is **blocked** when a trick begins from a position an earlier trick began from
        (the same cards in the same hands, the same seat to lead), or after ``trick_limit``
        tricks. The seats holding the fewest cards win a blocked deal."""
        assert state.turn is not None, "a trick begins with a seat to lead"
        here = position(state.turn, state.hands)
        if here in state.seen:
            reason = Said("the play went round in a circle: the same cards in the same hands, the same seat to lead")
        elif len(state.tricks) >= self.options["trick_limit"]:
            reason = Said("no one went out in {n} tricks", n=len(state.tricks))
        else:
            return _replace(state, seen=state.seen | {here})
        counts = tuple(len(h) for h in state.hands)
        low = min(counts)
        winners = tuple(s for s, n in enumerate(counts) if n == low)
        scores = tuple(int(n == low) for n in counts)
        return _replace(state, turn=None, result=HandResult("blocked", winners, counts, scores, reason))

    # -- the heuristic bot ------------------------------------------------------

    def heuristic_move(self, view: RollingStoneView, moves: Sequence[Move]) -> Move:
        """The heuristic bot's move: see :func:`rolling_stone_choice`."""
        return rolling_stone_choice(view, moves)

    # -- the table's timer ---------------------------------------------------------------

    def auto_move(self, state: RollingStoneState) -> Move:
        """What the table plays for a seat whose timer ran out: following, its lowest card of the
        suit led (ace high); leading, its lowest card of the suit it holds fewest of (the others
        are likeliest to follow it, so the trick is put aside; ties: clubs, diamonds, hearts,
        spades); unable to follow, a pass (it picks up the trick)."""
        hand = state.hands[seat_to_act(state)]
        led = state.led
        if led is None:
            counts = suit_counts(hand)
            suit = counts.index(min(n for n in counts if n))
            return Move.play(min((c for c in hand if c.suit == suit), key=strength))
        follow = [c for c in hand if c.suit == led.suit]
        return Move.play(min(follow, key=strength)) if follow else Move.pass_()

    # -- reporting -----------------------------------------------------------------------

    def summary(self, state: RollingStoneState) -> RollingStoneSummary:
        return RollingStoneSummary(deal=state.dealt, tricks=tuple(Trick.from_json(t) for t in state.tricks))

    def describe_event(self, event: Event, names: SeatNames) -> str:
        if event.get("type") == "pick-up":
            return f"{names.seat(event['seat'])} picks up the trick: {display(event['cards'])}"
        return super().describe_event(event, names)


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: its cards in order, how it ended (``aside``: everyone followed;
    ``picked-up``; ``out``: the deal ended in it) and the seat that ended it (``by``)."""

    plays: tuple[tuple[int, Card], ...]
    end: str
    by: int

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Trick:
        return cls(plays_from_json(data["plays"]), data["end"], data["by"])

    def to_json(self) -> dict[str, Any]:
        return {"plays": plays_json(self.plays), "end": self.end, "by": self.by}

    def describe(self, names: SeatNames) -> str:
        """``seat 0 (Ann) 9♣, seat 1 (Bob) K♣; all followed: put aside, seat 1 (Bob) leads``."""
        shown = describe_plays(self.plays, names)
        who = names.who(self.by)
        if self.end == "aside":
            return f"{shown}; all followed: put aside, {who} leads"
        if self.end == "picked-up":
            return f"{shown}; {who} cannot follow and picks it up"
        if self.end == "out":
            return f"{shown}; {who} went out"
        return f"{shown}; {safe(self.end)}"


@dataclass(frozen=True, kw_only=True)
class RollingStoneSummary(HandSummary):
    """A Rolling Stone hand: the deal and every trick. A blocked hand goes to the fewest cards.

    >>> from fairdeal.rules.summary import SeatNames
    >>> trick = Trick(((0, Card.parse("9C")), (1, Card.parse("KC"))), "aside", 1)
    >>> RollingStoneSummary(deal=((), ()), tricks=(trick,)).lines(SeatNames(("Ann", "Bob")))[2]
    '  trick 1: seat 0 (Ann) 9♣, seat 1 (Bob) K♣; all followed: put aside, seat 1 (Bob) leads'
    """

    tricks: tuple[Trick, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "tricks": [t.to_json() for t in self.tricks]}

    def lines(self, names: SeatNames) -> list[str]:
        return super().lines(names) + [
            f"  trick {n}: {trick.describe(names)}" for n, trick in enumerate(self.tricks, 1)
        ]

    def blocked_winners(self, winners: Sequence[int], names: SeatNames) -> str:
        return f"won by {names.side(winners)}"


def _trick(trick: Sequence[tuple[int, Card]], end: str, seat: int) -> dict[str, Any]:
    """A finished trick for the report: its cards in order, how it ended (``aside``: everyone
    followed; ``picked-up``; ``out``: the deal ended in it) and the seat that ended it (the
    highest card, the seat that picked it up, the seat that went out)."""
    return {"plays": plays_json(trick), "end": end, "by": seat}


# -- the heuristic bot ----------------------------------------------------------


def rolling_stone_choice(view: RollingStoneView, moves: Sequence[Move]) -> Move:
    """The heuristic bot's move in Rolling Stone. A seat that cannot follow picks up the trick,
    which is what a leader hopes for; a trick everyone follows is won by its highest card,
    whose player leads the next.

    - Leading: the highest card of the suit it holds most of (the suit the others are likeliest
      to be short of; and if they all follow, the high card wins the lead back). Ties: clubs,
      diamonds, hearts, spades.
    - Following: its highest card of the suit led, to win the lead.
    - Unable to follow, it passes (picks up), its only move.

    >>> from fairdeal.cards import parse_cards
    >>> rules = RollingStone()
    >>> view = RollingStoneView(0, 1, 3, tuple(parse_cards("7S 9S KS 8H AD")), (5, 8, 8, 8), 0, (), 0, 0, None, None)
    >>> rolling_stone_choice(view, rules.legal_moves(view))
    Move.play(Card.parse('KS'))
    """
    plays = [m.card for m in moves if m.kind == "play" and m.card is not None]
    if not plays:
        return moves[0]
    if view.trick:
        return Move.play(max(plays, key=strength))
    return lead_longest_suit(view.hand, plays, strength)
