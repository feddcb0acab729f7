"""Snip Snap Snorem, The Earl of Coventry and Jig: groups of four put down round the table.

The rule texts are ../shared/rules/hoyle-fan-tan-variants-eleusis-crazy-eights.txt
(Snip Snap Snorem, with its chip) and ../shared/rules/stops-family.txt (all three);
spec/games/snip-snap-snorem.md, earl-of-coventry.md and jig.md say where they
were read one way rather than another.

The whole pack is dealt one card at a time from the dealer's left. The seat on
the dealer's left leads any card; play goes to the left, and each seat in turn
continues the **group** or passes, paying a chip into the pot:

- ``snip-snap-snorem``: a group is the four cards of the led rank; the calls are
  "Snip", "Snap" and "Snorem";
- ``earl-of-coventry``: the same game, called with the young players' verses
  ("There's as good as 5 can be", ... "And there's the Earl of Coventry!");
- ``jig``: a group (a series) is four ranks in sequence from the led card, of any
  suit (5, 6, 7, 8), ace high; it ends early at the ace, or when no card of the next
  rank is left in any hand.

A seat that plays a rank puts down **every card of that rank it holds**: the move
names one of them, and the others go down with it (a ``put-down`` event). Whoever
ends a group leads the next; the first seat out of cards wins the deal and the pot.

>>> from fairdeal.fairness import game_key, shuffle
>>> key = game_key("00" * 32, "doc", ["", "", ""])
>>> rules = SnipSnapSnorem()
>>> state, events = rules.deal(3, dealer=0, hand=1, shuffle=lambda label, cards: shuffle(key, label, cards))
>>> [len(h) for h in state.hands], state.turn, events
([17, 18, 17], 1, [{'type': 'deal', 'hand': 1, 'dealer': 0}])
>>> view = rules.view(state, 1)
>>> len(rules.legal_moves(view))   # the leader may lead any card
18
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from typing import ClassVar
from typing import TypedDict

from fairdeal.cards import Card
from fairdeal.cards import Rank
from fairdeal.cards import Suit
from fairdeal.cards import codes
from fairdeal.cards import pack
from fairdeal.rules.base import DEALS
from fairdeal.rules.base import WHOLE_PACK
from fairdeal.rules.base import Event
from fairdeal.rules.base import HandResult
from fairdeal.rules.base import HandState
from fairdeal.rules.base import IllegalMove
from fairdeal.rules.base import Move
from fairdeal.rules.base import SeatView
from fairdeal.rules.base import Shuffler
from fairdeal.rules.base import TableJSON
from fairdeal.rules.base import fast_replace
from fairdeal.rules.base import not_held
from fairdeal.rules.base import seat_fields
from fairdeal.rules.base import seat_to_act
from fairdeal.rules.base import stack
from fairdeal.rules.base import turn_problem
from fairdeal.rules.base import went_out
from fairdeal.rules.fan_tan import ChipMove
from fairdeal.rules.fan_tan import chip_lines
from fairdeal.rules.fan_tan import on_the_table
from fairdeal.rules.fan_tan import paid
from fairdeal.rules.position import Places
from fairdeal.rules.position import PositionError
from fairdeal.rules.position import check_chip_tally
from fairdeal.rules.position import check_seat
from fairdeal.rules.position import check_shape
from fairdeal.rules.position import check_to_act
from fairdeal.rules.position import hand_places
from fairdeal.rules.rounds import RoundGame
from fairdeal.rules.summary import HandSummary
from fairdeal.rules.summary import SeatNames
from fairdeal.rules.summary import display
from fairdeal.rules.summary import safe
from fairdeal.said import Said

__all__ = [
    "EarlOfCoventry",
    "Jig",
    "SnipSnapFamily",
    "SnipSnapSnorem",
    "SnipSnapState",
    "SnipSnapView",
    "a_rank",
    "earl_verse",
    "strength",
]

_PACK = frozenset(pack())

SNIP_SNAP_CALLS: tuple[str | None, ...] = (None, "Snip", "Snap", "Snorem")
"""The calls of the four places of a group; the first card is put down without one."""


def strength(rank: Rank) -> int:
    """A rank's place in Jig's sequence: 2 lowest (2) ... king (13), ace highest (14).

    >>> [strength(r) for r in (Rank.TWO, Rank.KING, Rank.ACE)]
    [2, 13, 14]
    """
    return 14 if rank == Rank.ACE else int(rank)


def _noun(rank: Rank) -> str:
    """``"5"``, ``"10"``, ``"ace"``, ``"jack"``: how a call names a rank."""
    return rank.word if rank in (Rank.ACE, Rank.JACK, Rank.QUEEN, Rank.KING) else rank.label


def a_rank(rank: Rank) -> str:
    """A rank with its article, as a sentence says it.

    >>> [a_rank(r) for r in (Rank.FIVE, Rank.EIGHT, Rank.ACE, Rank.KING)]
    ['a 5', 'an 8', 'an ace', 'a king']
    """
    return _A_RANK.get(rank) or (
        Said("an {rank}", rank=rank.label) if rank == Rank.EIGHT else Said("a {rank}", rank=rank.label)
    )


def _plural(rank: Rank) -> Said:
    """``"5s"``, ``"aces"``: a seat's cards of ``rank``, as a sentence names them."""
    return _RANKS.get(rank) or Said("{rank}s", rank=rank.label)


_A_RANK = {Rank.ACE: Said("an ace"), Rank.JACK: Said("a jack"), Rank.QUEEN: Said("a queen"), Rank.KING: Said("a king")}
_RANKS = {Rank.ACE: Said("aces"), Rank.JACK: Said("jacks"), Rank.QUEEN: Said("queens"), Rank.KING: Said("kings")}


def earl_verse(rank: Rank, place: int) -> str:
    """The young players' verse for the card at ``place`` (0 to 3) of a group of ``rank``.

    >>> for place in range(4):
    ...     print(earl_verse(Rank.FIVE, place))
    There's as good as 5 can be
    There's a 5 as good as he
    There's the best 5 of all the three
    And there's the Earl of Coventry!
    >>> earl_verse(Rank.KING, 0)
    "There's as good as a king can be"
    """
    bare = rank.label if _noun(rank) == rank.label else a_rank(rank)
    return (
        f"There's as good as {bare} can be",
        f"There's {a_rank(rank)} as good as he",
        f"There's the best {_noun(rank)} of all the three",
        "And there's the Earl of Coventry!",
    )[place]


Turn = tuple[int, tuple[Card, ...]]
"""One turn in a group: the seat and the cards it put down (none: it passed)."""


@dataclass(frozen=True, slots=True)
class SnipSnapState(HandState):
    """One deal of a Snip Snap Snorem game, everything included (hidden cards too)."""

    turn: int | None
    """The seat to act; ``None`` once the deal is over."""
    turns: tuple[Turn, ...] = ()
    """The group being put down, turn by turn, passes included; empty: the seat to act leads."""
    pot: int = 0
    net: tuple[int, ...] = ()
    """Each seat's chips won (+) or paid (-) in this deal so far."""
    chips: tuple[ChipMove, ...] = ()
    """Every chip movement of the deal, in order."""
    groups: tuple[dict[str, Any], ...] = ()
    """Every finished group, for the report (see :meth:`SnipSnapFamily.summary`)."""
    result: HandResult | None = None
    dealt: tuple[tuple[Card, ...], ...] = ()
    """The hands as dealt, for the report."""

    @property
    def group(self) -> tuple[tuple[int, Card], ...]:
        """The cards of the group so far, (seat, card) in the order they went down."""
        return tuple((seat, card) for seat, cards in self.turns for card in cards)


_replace: Callable[..., SnipSnapState] = fast_replace(SnipSnapState)


@dataclass(frozen=True, slots=True)
class SnipSnapView(SeatView):
    """What one seat sees (``seat`` is ``None`` for a spectator, who sees no hand).

    ``group`` is the group being put down with each card's call; ``wanted`` the rank that
    continues it (``None``: the seat to act leads any card); ``laid`` every card already
    put down in the deal. The chips a seat holds are its match total plus ``net[seat]``.
    """

    turn: int | None
    group: tuple[tuple[int, Card, str | None], ...]
    wanted: Rank | None
    laid: frozenset[Card]
    pot: int
    net: tuple[int, ...]
    result: HandResult | None

    def to_json(self) -> dict[str, Any]:
        return {
            **self.seat_json(),
            "turn": self.turn,
            "group": [{"seat": seat, "card": card.code, "call": call} for seat, card, call in self.group],
            "wanted": None if self.wanted is None else self.wanted.label,
            "laid": codes(sorted(self.laid)),
            "pot": self.pot,
            "net": list(self.net),
        }


def _without(hand: tuple[Card, ...], cards: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(c for c in hand if c not in cards)


class Matched(TypedDict):
    """A card of the group being matched, who laid it and what was called."""

    seat: int
    card: Card
    call: str | None


class SnipSnapTable(TableJSON):
    """The public table of a Snip Snap Snorem hand: the group being matched, the rank wanted next,
    every card laid, the pot and the chips won or lost."""

    group: list[Matched]
    wanted: str | None
    """The rank wanted next, as a word: "7", "10", "jack"."""
    laid: list[Card]
    pot: int
    net: list[int]


class SnipSnapFamily(RoundGame[SnipSnapState, SnipSnapView]):
    """What the three games share: the deal of the whole pack, groups, passes and chips, the session.

    A game says which rank continues a group (:meth:`wanted`), when a group is over
    (:meth:`ended`), and what is called as each card goes down (:meth:`calls`).

    Options: ``deals`` (deals in the session; 0, the default: each player deals once) and
    ``stack`` (each player's chips at the start, default 50).
    """

    renderer = "snip_snap"
    table_json = SnipSnapTable

    min_seats = 3
    max_seats = 10
    first_dealer_rank = Rank.JACK
    family = "Groups and tricks"
    OPTIONS = (DEALS, stack("chips"))
    unit = "chips"
    layout = WHOLE_PACK

    # -- what a game says ------------------------------------------------------------

    def wanted(self, group: Sequence[tuple[int, Card]]) -> Rank:
        """The rank that continues the group (never empty, never over)."""
        raise NotImplementedError

    def ended(self, group: Sequence[tuple[int, Card]], hands: Sequence[Sequence[Card]]) -> str | None:
        """Why the group is over after its last card went down (``"four"``, ...), or ``None``."""
        raise NotImplementedError

    def calls(self, group: Sequence[tuple[int, Card]]) -> list[str | None]:
        """What is called as each card of the group goes down, in order (``None``: nothing)."""
        raise NotImplementedError

    # -- the position (state JSON, spec/state.md) --------------------------------------

    state_type = SnipSnapState

    def card_places(self, state: SnipSnapState) -> Places:
        """Where the cards are: the hands, the group being put down, the finished groups
        (``dealt`` is history)."""
        done = [Card.parse(code) for group in state.groups for turn in group["turns"] for code in turn["cards"]]
        return [
            *hand_places(state.hands),
            (Said("in the group being put down"), [c for _, c in state.group]),
            (Said("in a finished group"), done),
        ]

    def check_position(self, state: SnipSnapState) -> None:
        seats = state.seats
        for i, (seat, cards) in enumerate(state.turns):
            check_seat(seat, seats, f"turns[{i}][0]")
            if len({card.rank for card in cards}) > 1:
                raise PositionError("a seat puts down cards of one rank", field=f"turns[{i}][1]")
        if state.turns and not state.turns[0][1]:
            raise PositionError("a group begins with the leader's card, not a pass", field="turns[0]")
        group: list[tuple[int, Card]] = []
        for i, (seat, cards) in enumerate(state.turns):
            if group:
                # Whether the group was over here: the hands then held the cards put down since.
                later = [card for _, put in state.turns[i:] for card in put]
                why = self.ended(group, [*state.hands, later])
                if why is not None:
                    raise PositionError(
                        f"the group was over ({why}) before this turn: a finished group is in groups",
                        field=f"turns[{i}]",
                    )
                if cards and cards[0].rank != self.wanted(group):
                    raise PositionError(
                        f"{cards[0]} does not continue the group: the next card is {a_rank(self.wanted(group))}",
                        field=f"turns[{i}]",
                    )
            group += [(seat, card) for card in cards]
        if group and state.result is None and self.ended(group, state.hands) is not None:
            raise PositionError(
                f"the group is over ({self.ended(group, state.hands)}): a finished group is in groups", field="turns"
            )
        if state.turns and state.result is None and state.turn != (state.turns[-1][0] + 1) % seats:
            raise PositionError(
                f"seat {(state.turns[-1][0] + 1) % seats} acts after seat {state.turns[-1][0]}, not seat {state.turn}",
                field="turn",
            )
        check_to_act(state)
        check_chip_tally(state)
        if state.pot < 0:
            raise PositionError(f"{state.pot} chips", field="pot")
        shape = {
            "turns": [{"seat": "seat", "cards": ["card"], "calls?": ["str?"]}],
            "end": ("four", "ace", "stopped", "out"),
        }
        for i, finished in enumerate(state.groups):
            check_shape(finished, shape, f"groups[{i}]", seats)

    # -- dealing -----------------------------------------------------------------------

    def deal(self, seats: int, dealer: int, hand: int, shuffle: Shuffler) -> tuple[SnipSnapState, list[Event]]:
        # One card at a time, clockwise from the dealer's left, until the pack is gone.
        hands, _ = self.deal_cards(seats, dealer, hand, shuffle)
        state = SnipSnapState(
            hand=hand, dealer=dealer, hands=hands, turn=(dealer + 1) % seats, net=(0,) * seats, dealt=hands
        )
        return state, [{"type": "deal", "hand": hand, "dealer": dealer}]

    # -- what may be played --------------------------------------------------------------

    def _why_not(self, card: Card, *, hand: Sequence[Card], wanted: Rank | None, laid: frozenset[Card]) -> str | None:
        """Why the seat to act cannot play ``card``, or ``None``; shared by the engine and :meth:`explain`."""
        if card not in hand:
            return on_the_table(card) if card in laid else not_held(card)
        if wanted is None or card.rank == wanted:
            return None
        held = tuple(sorted(c for c in hand if c.rank == wanted))
        if held:
            return Said(
                "you must put down your {ranks} ({cards}): the next card is {rank}",
                ranks=_plural(wanted),
                cards=held,
                rank=a_rank(wanted),
            )
        return Said("the next card is {rank}, and you hold none: pass", rank=a_rank(wanted))

    def _wanted_of(self, state: SnipSnapState) -> Rank | None:
        return self.wanted(state.group) if state.turns else None

    # -- seeing ----------------------------------------------------------------------------

    def view(self, state: SnipSnapState, seat: int | None) -> SnipSnapView:
        group = state.group
        return SnipSnapView(
            **seat_fields(state, seat),
            turn=state.turn,
            group=tuple((s, c, call) for (s, c), call in zip(group, self.calls(group))),
            wanted=self._wanted_of(state),
            laid=_PACK.difference(*state.hands),
            pot=state.pot,
            net=state.net,
            result=state.result,
        )

    def explain(self, view: SnipSnapView, card: Card) -> str | None:
        return turn_problem(view) or self._why_not(card, hand=view.hand, wanted=view.wanted, laid=view.laid)

    # -- a group: the rank wanted, or a pass that pays a chip --------------------------------

    table_word = "group"

    def wanted_by(self, table: SnipSnapState | SnipSnapView) -> Rank | None:
        return table.wanted if isinstance(table, SnipSnapView) else self._wanted_of(table)

    def answers(self, card: Card, wanted: Rank) -> bool:
        return card.rank == wanted

    def lead_words(self, card: Card) -> str:
        return Said("{card} starts a new group: any card may lead", card=card)

    def answer_words(self, card: Card, wanted: Rank) -> str:
        return Said("{card} carries the group on: the next card is {rank}", card=card, rank=a_rank(wanted))

    def stuck_words(self, kind: str, wanted: Rank | None) -> str | None:
        if kind == "pass" and wanted is not None:
            return Said("cannot carry the group on (the next card is {rank}): passes", rank=a_rank(wanted))
        return None

    def in_play(self, state: SnipSnapState) -> list[Card]:
        return [c for _, c in state.group]

    # -- playing ---------------------------------------------------------------------------

    def play_problem(self, state: SnipSnapState, seat: int, move: Move) -> str | None:
        hand = state.hands[seat]
        if move.suit is not None:
            return Said("{game} names no suit", game=self.title)
        assert move.card is not None  # a play names its card (every declaration of "play" requires it)
        if move.card not in hand:
            held = any(move.card in h for h in state.hands)
            return not_held(move.card) if held else on_the_table(move.card)
        return self._why_not(move.card, hand=hand, wanted=self._wanted_of(state), laid=frozenset())

    def must_answer(self, able: Sequence[Card], wanted: Rank) -> str:
        return Said("you must play when you can, and {card} can be played", card=min(able))

    def stuck(
        self, state: SnipSnapState, seat: int, kind: str, illegal: Callable[[str], IllegalMove]
    ) -> tuple[SnipSnapState, list[Event]]:
        payment = ChipMove("pass", seat, None, 1)
        state = _replace(
            state, turn=(seat + 1) % state.seats, turns=state.turns + ((seat, ()),), **paid(state, [payment])
        )
        return state, [payment.to_event(state.hand)]

    def play(self, state: SnipSnapState, seat: int, card: Card) -> tuple[SnipSnapState, list[Event]]:
        # Every card of the rank goes down with the one named, the rest in card order.
        others = sorted(c for c in state.hands[seat] if c.rank == card.rank and c is not card)
        cards = (card, *others)
        events: list[Event] = []
        if others:
            events.append({"type": "put-down", "hand": state.hand, "seat": seat, "cards": codes(others)})
        hand = _without(state.hands[seat], cards)
        hands = state.hands[:seat] + (hand,) + state.hands[seat + 1 :]
        turns = state.turns + ((seat, cards),)
        if not hand:
            return self._out(_replace(state, hands=hands, turns=turns), seat, events)
        group = tuple((s, c) for s, cs in turns for c in cs)
        why = self.ended(group, hands)
        if why is None:
            return _replace(state, hands=hands, turns=turns, turn=(seat + 1) % state.seats), events
        # Whoever ends a group leads the next.
        done = self._finished(state, turns, why)
        return _replace(state, hands=hands, turns=(), turn=seat, groups=state.groups + (done,)), events

    def _finished(self, state: SnipSnapState, turns: tuple[Turn, ...], end: str) -> dict[str, Any]:
        """A group for the report: each turn with its cards and their calls, and how it ended."""
        group = tuple((s, c) for s, cs in turns for c in cs)
        calls = iter(self.calls(group))
        return {
            "turns": [
                {"seat": seat, "cards": codes(cards), **({"calls": [next(calls) for _ in cards]} if cards else {})}
                for seat, cards in turns
            ],
            "end": end,
        }

    def _out(self, state: SnipSnapState, winner: int, events: list[Event]) -> tuple[SnipSnapState, list[Event]]:
        counts = tuple(len(h) for h in state.hands)
        moves = [ChipMove("pot", None, winner, state.pot)] if state.pot else []
        changes = paid(state, moves)
        result = went_out(winner, counts, changes.get("net", state.net))
        done = self._finished(state, state.turns, "out")
        state = _replace(state, turn=None, turns=(), groups=state.groups + (done,), result=result, **changes)
        return state, events + [m.to_event(state.hand) for m in moves]

    # -- the heuristic bot ------------------------------------------------------

    def heuristic_move(self, view: SnipSnapView, moves: Sequence[Move]) -> Move:
        """The heuristic bot's move: see :func:`snip_snap_choice`."""
        return snip_snap_choice(self, view, moves)

    # -- the table's timer ---------------------------------------------------------------

    def auto_move(self, state: SnipSnapState) -> Move:
        """What the table plays for a seat whose timer ran out: its lowest card in card order
        (clubs A to K, then diamonds, hearts, spades) of those it may play, else a pass.
        The cards of the same rank go down with it, as with any play."""
        able = sorted(self.answering(state.hands[seat_to_act(state)], self._wanted_of(state)))
        return Move.play(able[0]) if able else Move.pass_()

    # -- reporting -----------------------------------------------------------------------

    group_word: ClassVar[str] = "group"
    """What the report calls a group (Jig: a series)."""

    def summary(self, state: SnipSnapState) -> SnipSnapSummary:
        return SnipSnapSummary(
            deal=state.dealt,
            hand=state.hand,
            groups=tuple(Group.from_json(g) for g in state.groups),
            chips=state.chips,
            word=self.group_word,
        )

    def describe_event(self, event: Event, names: SeatNames) -> str:
        if event.get("type") == "put-down":
            return f"and with it: {display(event['cards'])}"
        return super().describe_event(event, names)


@dataclass(frozen=True, slots=True)
class GroupTurn:
    """One seat's turn in a group: the cards it put down (none: it passed) and their calls."""

    seat: int
    cards: tuple[Card, ...]
    calls: tuple[str | None, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "cards": codes(self.cards), **({"calls": list(self.calls)} if self.cards else {})}

    def describe(self, names: SeatNames) -> str:
        """``seat 0 (Ann) 6♦ "Snip", 6♠ "Snap"``, or ``seat 2 (Cy) passes``."""
        calls = list(self.calls) + [None] * len(self.cards)
        said = [card.display + (f' "{safe(call)}"' if call else "") for card, call in zip(self.cards, calls)]
        return f"{names.seat(self.seat)} " + (", ".join(said) if said else "passes")


_GROUP_ENDS = {
    "four": "",
    "ace": " (ends at the ace)",
    "stopped": " (stopped: no card of the next rank is left in any hand)",
    "out": " (the deal ends in it)",
}


@dataclass(frozen=True, slots=True)
class Group:
    """A finished group (Jig: series), turn by turn, and how it ended: ``four``, ``ace``,
    ``stopped`` (no card of the next rank is left in any hand) or ``out`` (the deal ended in it)."""

    turns: tuple[GroupTurn, ...]
    end: str

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Group:
        turns = tuple(
            GroupTurn(t["seat"], tuple(Card.parse(c) for c in t["cards"]), tuple(t.get("calls", ())))
            for t in data["turns"]
        )
        return cls(turns, data["end"])

    def to_json(self) -> dict[str, Any]:
        return {"turns": [turn.to_json() for turn in self.turns], "end": self.end}

    def describe(self, names: SeatNames) -> str:
        return "; ".join(turn.describe(names) for turn in self.turns) + _GROUP_ENDS.get(
            self.end, f" ({safe(self.end)})"
        )


@dataclass(frozen=True, kw_only=True)
class SnipSnapSummary(HandSummary):
    """A hand of the Snip Snap family: the deal, every group (``word``: what the report
    calls one, "group" or Jig's "series"), every chip movement.

    >>> from fairdeal.rules.summary import SeatNames
    >>> group = Group((GroupTurn(1, (Card.parse("6H"),), (None,)), GroupTurn(2, ()), GroupTurn(0, (Card.parse("6D"),), ("Snip",))), "out")
    >>> SnipSnapSummary(deal=((), (), ()), hand=1, groups=(group,)).lines(SeatNames(("Ann", "Bob", "Cy")))[3]
    '  group 1: seat 1 (Bob) 6♥; seat 2 (Cy) passes; seat 0 (Ann) 6♦ "Snip" (the deal ends in it)'
    """

    hand: int
    groups: tuple[Group, ...] = ()
    chips: tuple[ChipMove, ...] = ()
    word: str = "group"

    def to_json(self) -> dict[str, Any]:
        return {
            **super().to_json(),
            "groups": [g.to_json() for g in self.groups],
            "chips": [m.to_event(self.hand) for m in self.chips],
        }

    def lines(self, names: SeatNames) -> list[str]:
        out = super().lines(names) + chip_lines(self.hand, self.chips, names)
        out.extend(f"  {self.word} {number}: {group.describe(names)}" for number, group in enumerate(self.groups, 1))
        return out


class SnipSnapSnorem(SnipSnapFamily):
    """Snip Snap Snorem: the leader puts down any card; each next seat puts down the same rank
    ("Snip", "Snap", "Snorem") or passes and pays a chip into the pot; the seat that puts
    down the fourth leads again. The first seat out of cards takes the pot.

    The text's example: 6♥ led; the next seat has no 6 and passes; the next puts down 6♦,
    "Snip"; the next has both other sixes and puts them down, "Snap", "Snorem".

    >>> from fairdeal.cards import parse_cards
    >>> rules = SnipSnapSnorem()
    >>> hands = tuple(tuple(parse_cards(h)) for h in ("6H 2C", "3C 4C", "6D 5C", "6C 6S 7C 8C"))
    >>> state = SnipSnapState(hand=1, dealer=3, hands=hands, turn=0, net=(0,) * 4)
    >>> for seat, move in [(0, Move.play(Card.parse("6H"))), (1, Move.pass_()), (2, Move.play(Card.parse("6D"))),
    ...                    (3, Move.play(Card.parse("6C")))]:
    ...     state, events = rules.apply(state, seat, move, None)
    >>> events   # the other six went down with the one named
    [{'type': 'put-down', 'hand': 1, 'seat': 3, 'cards': ['6S']}]
    >>> [turn["calls"] for turn in state.groups[0]["turns"] if turn["cards"]]
    [[None], ['Snip'], ['Snap', 'Snorem']]
    >>> state.turn, state.pot   # the Snorem leads again; the pass paid one chip
    (3, 1)
    """

    name = "snip-snap-snorem"
    lobby_order = 170
    title = "Snip Snap Snorem"
    summary_line = "Match the rank led: Snip, Snap, Snorem, and pay the chips."
    words: ClassVar[tuple[str | None, ...]] = SNIP_SNAP_CALLS

    def wanted(self, group: Sequence[tuple[int, Card]]) -> Rank:
        return group[0][1].rank

    def ended(self, group: Sequence[tuple[int, Card]], hands: Sequence[Sequence[Card]]) -> str | None:
        return "four" if len(group) == 4 else None

    def calls(self, group: Sequence[tuple[int, Card]]) -> list[str | None]:
        return [self.words[i] for i in range(len(group))]


class EarlOfCoventry(SnipSnapSnorem):
    """The Earl of Coventry: Snip Snap Snorem called with the young players' verses, which the
    table says for every player (no rhyme of one's own is judged, so no lead is forfeited).

    >>> rules = EarlOfCoventry()
    >>> rules.calls([(1, Card.parse("5H")), (2, Card.parse("5C"))])
    ["There's as good as 5 can be", "There's a 5 as good as he"]
    """

    name = "earl-of-coventry"
    lobby_order = 180
    title = "The Earl of Coventry"
    summary_line = "Snip Snap Snorem with rhymes: the fourth of a rank is the Earl of Coventry."

    def calls(self, group: Sequence[tuple[int, Card]]) -> list[str | None]:
        return [earl_verse(card.rank, i) for i, (_, card) in enumerate(group)]


class Jig(SnipSnapFamily):
    """Jig: a series of four ranks in sequence of any suit (5, 6, 7, 8), ace high, instead of
    four of a kind; called "Snip", "Snap", "Snorem". A series also ends at the ace, or when no
    card of the next rank is left in any hand (all four are on the table); whoever put down
    its last card leads the next. A seat that plays a rank puts down all its cards of that
    rank, which count as one step of the series.

    >>> from fairdeal.cards import parse_cards
    >>> rules = Jig()
    >>> group = [(1, Card.parse("5H")), (2, Card.parse("6C")), (2, Card.parse("6S"))]
    >>> rules.wanted(group), rules.calls(group)
    (<Rank.SEVEN: 7>, [None, 'Snip', 'Snip'])
    >>> rules.ended(group + [(3, Card.parse("7D")), (0, Card.parse("8D"))], [[]])
    'four'
    >>> rules.ended([(1, Card.parse("KH")), (2, Card.parse("AC"))], [[]])
    'ace'
    >>> rules.ended([(1, Card.parse("5H"))], [parse_cards("2C 7S"), parse_cards("9D")])   # no six in any hand
    'stopped'
    """

    name = "jig"
    lobby_order = 190
    title = "Jig"
    summary_line = "Series in suit, one rank up each time: four cards and the series ends."
    group_word = "series"

    def wanted(self, group: Sequence[tuple[int, Card]]) -> Rank:
        last = strength(group[-1][1].rank)
        return Rank.ACE if last == 13 else Rank(last + 1)

    def ended(self, group: Sequence[tuple[int, Card]], hands: Sequence[Sequence[Card]]) -> str | None:
        last = group[-1][1].rank
        if len({card.rank for _, card in group}) == 4:
            return "four"
        if last == Rank.ACE:
            return "ace"
        wanted = self.wanted(group)
        if not any(card.rank == wanted for hand in hands for card in hand):
            return "stopped"
        return None

    def calls(self, group: Sequence[tuple[int, Card]]) -> list[str | None]:
        steps: list[Rank] = []
        out: list[str | None] = []
        for _, card in group:
            if card.rank not in steps:
                steps.append(card.rank)
            out.append(SNIP_SNAP_CALLS[len(steps) - 1])
        return out


# -- the heuristic bot ----------------------------------------------------------


def snip_snap_choice(rules: SnipSnapFamily, view: SnipSnapView, moves: Sequence[Move]) -> Move:
    """The heuristic bot's move in Snip Snap Snorem, The Earl of Coventry and Jig. Only a
    leader has a choice (a follower puts down its cards of the rank, or passes):

    - Snip Snap Snorem and The Earl of Coventry: the rank it holds most of (all of them go
      down, and with all four it leads again); ties: the lowest card in card order.
    - Jig: first a lead that ends the series at once, so that it leads again: an ace, or a
      rank whose next rank no other seat can hold (every card of it is on the table or in
      its own hand); then the rank it holds most of; then the higher rank.

    >>> from fairdeal.cards import parse_cards
    >>> rules = Jig()
    >>> view = SnipSnapView(0, 1, 2, tuple(parse_cards("5C 5D 9S AH")), (4, 5, 5), 0, (), None,
    ...     frozenset(), 0, (0, 0, 0), None)
    >>> snip_snap_choice(rules, view, rules.legal_moves(view))   # the ace ends the series: lead again
    Move.play(Card.parse('AH'))
    """
    plays = [m.card for m in moves if m.kind == "play" and m.card is not None]
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

    best = max(plays, key=lambda c: (at_once(c.rank), held[c.rank], strength(c.rank), -c.index))
    return Move.play(best)
