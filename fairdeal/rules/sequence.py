"""Sequence, and the engine of the run games it is the parent of (Michigan, Double Stops, Spin, Commit).

In the run games the turn follows the cards, not the seats: a seat leads a
card, and whoever holds the next card of that suit must play it, then the
holder of the card after, and so on, until the run **stops**: its top card
was played (the ace in Sequence and Michigan, the king in Commit), or no
seat holds the next card (it lies in Michigan's dead hand, among Commit's
stops, or was played in an earlier run). The player of the last card then
leads again. Each card is one move of the seat that holds it.

- **Sequence** (``sequence``, ../shared/rules/stops-family.txt): 2 to 10
  players, the whole pack dealt, ace high; a lead is the leader's lowest
  card of a suit of his choice; losers lose a point per card.
- **Michigan**, **Double Stops**, **Spin** (fairdeal/rules/michigan.py): a
  dead extra hand, pay cards with counters on them.
- **Commit** (fairdeal/rules/commit.py): the 8♦ out, stops face down, the 9♦.

Where the texts leave a case open, spec/games/sequence.md (and the other
games' pages) say what this module does. The rule every page points to:
after a run stops, the next lead is **another suit** than the one that
stopped, if the leader holds one (Michigan's "begin again with a new
suit"); a leader holding only that suit passes the lead to the left, to the
first seat holding another suit; if no seat does, he leads it again.

>>> from fairdeal.fairness import game_key, shuffle
>>> key = game_key("00" * 32, "doc", ["", "", "", ""])
>>> rules = Sequence()
>>> state, events = rules.deal(4, dealer=3, hand=1, shuffle=lambda label, cards: shuffle(key, label, cards))
>>> [len(h) for h in state.hands], state.turn, events
([13, 13, 13, 13], 0, [{'type': 'deal', 'hand': 1, 'dealer': 3}])
>>> view = rules.view(state, 0)
>>> [m.card.code for m in rules.legal_moves(view)]  # seat 0 leads the lowest card of a suit it holds
['4C', '4D', '3H', '5S']
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Sequence as Seq
from dataclasses import dataclass
from typing import Any
from typing import ClassVar

from fairdeal.cards import Card
from fairdeal.cards import Rank
from fairdeal.cards import Suit
from fairdeal.cards import codes
from fairdeal.rules.base import DEALS
from fairdeal.rules.base import HAND_OVER
from fairdeal.rules.base import NOT_YOUR_TURN
from fairdeal.rules.base import WHOLE_PACK
from fairdeal.rules.base import Event
from fairdeal.rules.base import HandResult
from fairdeal.rules.base import HandState
from fairdeal.rules.base import Layout
from fairdeal.rules.base import Move
from fairdeal.rules.base import Option
from fairdeal.rules.base import Rules
from fairdeal.rules.base import SeatView
from fairdeal.rules.base import Shuffler
from fairdeal.rules.base import TableJSON
from fairdeal.rules.base import check_turn
from fairdeal.rules.base import fast_replace
from fairdeal.rules.base import has_turn
from fairdeal.rules.base import not_held
from fairdeal.rules.base import refuser
from fairdeal.rules.base import seat_fields
from fairdeal.rules.base import seat_to_act
from fairdeal.rules.base import went_out
from fairdeal.rules.fan_tan import ChipMove
from fairdeal.rules.fan_tan import chip_lines
from fairdeal.rules.fan_tan import on_the_table
from fairdeal.rules.move import PLAY
from fairdeal.rules.move import Count
from fairdeal.rules.move import Field
from fairdeal.rules.move import MoveKind
from fairdeal.rules.position import Places
from fairdeal.rules.position import PositionError
from fairdeal.rules.position import check_chip_tally
from fairdeal.rules.position import check_seat
from fairdeal.rules.position import check_to_act
from fairdeal.rules.position import hand_places
from fairdeal.rules.summary import HandSummary
from fairdeal.rules.summary import SeatNames
from fairdeal.rules.summary import display
from fairdeal.said import Said
from fairdeal.said import or_words
from fairdeal.said import suit_word
from fairdeal.said import suit_words

__all__ = ["ACE_HIGH", "ACE_LOW", "RunGame", "RunState", "RunView", "Sequence", "deal_round", "replace_state"]

NOT_BEGUN = Said("the play has not begun")
"""Why no card may be played before the play begins (Michigan's extra hand)."""

ACE_HIGH: tuple[Rank, ...] = tuple(Rank)[1:] + (Rank.ACE,)
"""2, 3, ..., K, A: a suit's order in Sequence and the Michigan games."""
ACE_LOW: tuple[Rank, ...] = tuple(Rank)
"""A, 2, ..., K: a suit's order in Commit."""


# Michigan's sale of the extra hand (the auction games of this family read them: RunGame's bidding).
EXCHANGE = MoveKind(
    "exchange",
    label="Exchange",
    key="X",
    hint="exchanges",
    said="took the extra hand (their own hand is dead)",
    doc="The dealer takes the extra hand for his own.",
)
AUCTION = MoveKind(
    "auction",
    label="Auction",
    key="A",
    hint="auctions",
    said="put the extra hand up for auction",
    doc="The dealer puts the extra hand up for auction.",
)
BID = MoveKind(
    "bid",
    (Field("amount", Count(1, 1_000_000), doc="The counters bid for the extra hand."),),
    label="Bid",
    key="B",
    hint="bids (the amount box)",
    said="bid {amount} for the extra hand",
    doc="Bid counters for the extra hand.",
)


def deal_round(cards: Seq[Card], places: int) -> list[tuple[Card, ...]]:
    """``cards`` dealt one at a time to ``places`` places, the first card to place 0.

    >>> from fairdeal.cards import pack
    >>> [codes(h) for h in deal_round(pack()[:7], 3)]
    [['AC', '4C', '7C'], ['2C', '5C'], ['3C', '6C']]
    """
    return [tuple(cards[i::places]) for i in range(places)]


@dataclass(frozen=True, slots=True)
class RunState(HandState):
    """One deal of a run game, everything included (hidden cards too).

    The cards on the table are ``plays``, in the order played; ``runs`` are the
    indices in ``plays`` where each run began. A lead is due when ``current`` is
    ``None``.
    """

    turn: int | None
    """The seat to act; ``None`` once the deal is over."""
    plays: tuple[tuple[int, Card], ...] = ()
    """(seat, card) for every card played, in order."""
    runs: tuple[int, ...] = ()
    current: Card | None = None
    """The last card of the run going on; ``None`` while a lead is due."""
    last: int | None = None
    """The seat that played the last card."""
    stopped: Suit | None = None
    """The suit of the run that just stopped: the lead must be another suit, if the leader holds one."""
    privilege: bool = False
    """Spin: the spinner leads, and may lead a pay card."""
    fork: Card | None = None
    """Commit: the card the 9♦ was played on; the run goes on from it, or from the 9♦."""
    dead: tuple[Card, ...] = ()
    """Cards out of play: Michigan's dead hand (once the extra hand is settled), Commit's stops."""
    phase: str = "play"
    """``play``; Michigan first ``choose`` (the dealer's say about the extra hand), then maybe ``auction``."""
    extra: tuple[Card, ...] = ()
    """Michigan: the extra hand, while the dealer may still take or sell it."""
    extra_dealt: tuple[Card, ...] = ()
    """Michigan: the extra hand as dealt, for the report."""
    bids: tuple[tuple[int, int | None], ...] = ()
    """Michigan's auction: (seat, counters bid, or ``None`` for a pass), in the order spoken."""
    exchanged: int | None = None
    """Michigan: the seat that took the extra hand (its own hand is then the dead hand)."""
    layout: tuple[int, ...] = ()
    """Michigan: the counters on each layout card, in the game's layout order."""
    net: tuple[int, ...] = ()
    """Each seat's counters won (+) or paid (-) in this deal so far."""
    chips: tuple[ChipMove, ...] = ()
    """Every movement of counters in the deal, in order."""
    result: HandResult | None = None
    dealt: tuple[tuple[Card, ...], ...] = ()
    """The hands as dealt, for the report."""

    def holder(self, card: Card) -> int | None:
        """The seat holding ``card``, or ``None`` (dead, a stop, or on the table)."""
        for seat, hand in enumerate(self.hands):
            if card in hand:
                return seat
        return None

    def on_table(self) -> frozenset[Card]:
        return frozenset(card for _, card in self.plays)

    def run_cards(self) -> list[list[Card]]:
        """The runs so far, each its cards in the order played."""
        bounds = list(self.runs) + [len(self.plays)]
        return [[card for _, card in self.plays[a:b]] for a, b in zip(bounds, bounds[1:])]


@dataclass(frozen=True, slots=True)
class RunView(SeatView):
    """What one seat sees (``seat`` is ``None`` for a spectator, who sees no hand).

    ``runs`` are the cards on the table, run by run; ``turn`` is the seat that acts
    next (while a run goes on: the holder of its next card). Michigan's views add
    the extra hand's phase, the bids and the layout; a seat that took the extra
    hand sees the hand it put aside (``discarded``): it knows those cards are dead.
    """

    runs: tuple[tuple[Card, ...], ...]
    current: Card | None
    stopped: Suit | None
    privilege: bool
    fork: Card | None
    turn: int | None
    last: int | None
    phase: str
    bids: tuple[tuple[int, int | None], ...]
    dead_size: int
    """Cards out of play: Michigan's extra hand (or, once settled, its dead hand), Commit's stops."""
    discarded: tuple[Card, ...]
    layout: dict[str, int]
    net: tuple[int, ...]
    result: HandResult | None
    wanted: tuple[Card, ...] = ()
    """The cards that carry the run on (:meth:`RunGame.wanted`), whoever holds them; none while a lead is due."""
    pair: tuple[Card, ...] = ()
    """Layout cards that pay only together, to a player who plays them all (Double Stops' 10♥ and 9♥)."""

    @property
    def on_table(self) -> frozenset[Card]:
        return frozenset(card for run in self.runs for card in run)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            **self.seat_json(),
            "runs": [codes(run) for run in self.runs],
            "current": None if self.current is None else self.current.code,
            "stopped": None if self.stopped is None else self.stopped.letter,
            "turn": self.turn,
            "dead_size": self.dead_size,
            "net": list(self.net),
            # What the table page shows, as the rules say it: the run's next cards (after Commit's
            # 9♦, one for each way the run may go on).
            "next": codes(self.wanted),
        }
        if self.fork is not None:
            out["fork"] = self.fork.code
        if self.privilege:
            out["privilege"] = True
        if self.layout:
            out.update(
                phase=self.phase,
                bids=[{"seat": s, "bid": a} for s, a in self.bids],
                layout=dict(self.layout),
            )
            if self.pair:
                out["pair"] = codes(self.pair)
            if self.discarded:
                out["discarded"] = codes(self.discarded)
        return out


replace_state: Callable[..., RunState] = fast_replace(RunState)


def _without(hand: tuple[Card, ...], *cards: Card) -> tuple[Card, ...]:
    return tuple(c for c in hand if c not in cards)


class RunTable(TableJSON):
    """The public table of a run game's hand (Sequence's): the runs played, the card to follow,
    why the run stopped, the dead hand's size, the points won or lost, the cards wanted next."""

    runs: list[list[Card]]
    current: Card | None
    stopped: str | None
    dead_size: int
    net: list[int]
    next: list[Card]


class RunGame(Rules[RunState, RunView]):
    """What the run games share: the deal, leads, runs that stop, the turn that follows the
    cards, counters, the session. A game says how a suit's cards follow each other
    (:attr:`order`), what a lead may be (:meth:`leads`), and what its cards pay."""

    renderer = "sequence"
    table_json: ClassVar[type] = RunTable

    min_seats = 2
    max_seats = 10
    first_dealer_rank = Rank.JACK
    family = "Sequence games"
    moves: ClassVar[tuple[MoveKind, ...]] = (PLAY,)
    OPTIONS: ClassVar[tuple[Option, ...]] = (DEALS,)
    layout: ClassVar[Layout] = WHOLE_PACK

    order: ClassVar[tuple[Rank, ...]] = ACE_HIGH
    """A suit's cards from the lowest to the highest; a run stops after the last."""
    lowest_lead: ClassVar[bool] = True
    """A lead is the leader's lowest card of a suit (Sequence, Michigan); else any card (Commit)."""
    new_suit: ClassVar[bool] = True
    """After a run stops, the next lead is another suit if the leader holds one."""
    uses_chips: ClassVar[bool] = False
    special: ClassVar[Card | None] = None
    """A card that may go down with a play, as its ``then`` (Spin's A♦, Commit's 9♦)."""

    # -- the order of a suit -----------------------------------------------------

    def position(self, card: Card) -> int:
        """Where ``card`` stands in its suit's :attr:`order`, 0 (lowest) to 12."""
        return self.order.index(card.rank)

    def successor(self, card: Card) -> Card | None:
        """The next card of ``card``'s run, or ``None`` after the top card."""
        at = self.position(card)
        return None if at == len(self.order) - 1 else Card(self.order[at + 1], card.suit)

    def lowest(self, cards: Iterable[Card]) -> Card:
        """The lowest of ``cards`` in the game's order; of equal ranks, clubs first."""
        return min(cards, key=lambda c: (self.position(c), c.suit))

    # -- the position (state JSON, spec/state.md) ------------------------------------

    state_type = RunState

    def card_places(self, state: RunState) -> Places:
        """Where the cards are: the hands, the table (``plays``), the cards out of play (``dead``:
        Michigan's dead hand, Commit's stops) and Michigan's extra hand while it is unsettled
        (``dealt`` and ``extra_dealt`` are history)."""
        dead = Said("among the stops") if self.layout.extra == "stops" else Said("in the dead hand")
        return [
            *hand_places(state.hands),
            (Said("on the table"), [c for _, c in state.plays]),
            (dead, state.dead),
            (Said("in the extra hand"), state.extra),
        ]

    def check_position(self, state: RunState) -> None:
        seats = state.seats
        for i, (seat, _) in enumerate(state.plays):
            check_seat(seat, seats, f"plays[{i}][0]")
        runs = list(state.runs)
        if (
            runs != sorted(set(runs))
            or (runs and (runs[0] != 0 or runs[-1] >= len(state.plays)))
            or (state.plays and not runs)
        ):
            raise PositionError(
                f"the runs begin at increasing places in plays, the first at 0, all below {len(state.plays)}",
                field="runs",
            )
        if state.current is not None and (not state.plays or state.plays[-1][1] is not state.current):
            raise PositionError(
                f"{state.current} is not the last card played: a run goes on from its last card", field="current"
            )
        if state.fork is not None and (self.special is None or state.current is not self.special):
            raise PositionError("only Commit's 9D, just played with a card, forks a run", field="fork")
        if state.stopped is not None and (state.current is not None or not self.new_suit):
            raise PositionError(
                "a suit has stopped only while a lead is due, in a game that leads a new suit", field="stopped"
            )
        if state.privilege and (self.special is None or state.current is not None):
            raise PositionError("only Spin's spinner, leading, has the privilege", field="privilege")
        check_seat(state.last, seats, "last", none=True)
        if (state.last is None) != (not state.plays):
            raise PositionError("the seat that played the last card, and none before the first", field="last")
        if state.turn is not None and state.phase == "play":
            check_to_act(state)
            wanted = self.wanted(state.current, state.fork)
            if wanted and not any(card in state.hands[state.turn] for card in wanted):
                raise PositionError(
                    f"seat {state.turn} holds no card that goes on with the run ({' or '.join(map(str, wanted))})",
                    field="turn",
                )
        bidding = "auction" in self.move_kinds
        phases = ("play", "choose", "auction") if bidding else ("play",)
        if state.phase not in phases:
            raise PositionError(f"{state.phase!r} is not a phase of {self.title} ({', '.join(phases)})", field="phase")
        if state.phase != "play":
            if state.plays or not state.extra or state.dead:
                raise PositionError(
                    "before the play the extra hand is unsettled, nothing played, nothing dead", field="phase"
                )
            if state.phase == "choose" and state.turn != state.dealer:
                raise PositionError(f"the dealer, seat {state.dealer}, decides about the extra hand", field="turn")
            if state.phase == "auction" and state.turn == state.dealer:
                raise PositionError("the dealer does not bid for the extra hand", field="turn")
        elif state.extra:
            raise PositionError(
                "the extra hand is settled when the play begins: it is dead, or a seat's", field="extra"
            )
        if not bidding and (state.bids or state.extra_dealt or state.exchanged is not None):
            raise PositionError(
                f"{self.title} has no extra hand",
                field="bids" if state.bids else "extra_dealt" if state.extra_dealt else "exchanged",
            )
        for i, (seat, amount) in enumerate(state.bids):
            check_seat(seat, seats, f"bids[{i}][0]")
            if amount is not None and not 1 <= amount <= self.options["max_bid"]:
                raise PositionError(
                    f"a bid is 1 to {self.options['max_bid']} counters, not {amount}", field=f"bids[{i}][1]"
                )
        check_seat(state.exchanged, seats, "exchanged", none=True)
        boxes = self.layout_cards()
        if len(state.layout) != len(boxes) or any(n < 0 for n in state.layout):
            said = (
                f"0 or more counters on each layout card ({' '.join(map(str, boxes))})"
                if boxes
                else f"{self.title} has no layout"
            )
            raise PositionError(said, field="layout")
        check_chip_tally(state, boxes=[c.code for c in boxes], pot=False)

    # -- dealing -------------------------------------------------------------------

    def deal(self, seats: int, dealer: int, hand: int, shuffle: Shuffler) -> tuple[RunState, list[Event]]:
        # One card at a time, clockwise from the dealer's left, until the pack is gone.
        hands, _ = self.deal_cards(seats, dealer, hand, shuffle)
        state = RunState(
            hand=hand, dealer=dealer, hands=hands, turn=(dealer + 1) % seats, net=(0,) * seats, dealt=hands
        )
        return state, [{"type": "deal", "hand": hand, "dealer": dealer}]

    # -- what may be played ----------------------------------------------------------

    def leads(self, hand: Seq[Card], stopped: Suit | None, privilege: bool) -> list[Card]:
        """The cards a leader holding ``hand`` may lead, in card order, after a run of
        ``stopped`` (``None``: any suit) and with the spin's ``privilege`` or not."""
        if not self.lowest_lead:
            return sorted(hand)
        suits = {c.suit for c in hand}
        allowed = suits - {stopped}
        privileged = self.privileged_leads(hand) if privilege else []
        if not allowed and not privileged:
            # No seat holds another suit (else it would lead): the stopped suit again.
            allowed = suits
        return sorted({self.lowest(c for c in hand if c.suit == suit) for suit in allowed} | set(privileged))

    def privileged_leads(self, hand: Seq[Card]) -> list[Card]:
        """Spin: the pay cards a spinner may lead besides the usual leads."""
        return []

    def wanted(self, current: Card | None, fork: Card | None) -> tuple[Card, ...]:
        """The cards that may go on with the run whose last card is ``current`` (none while a
        lead is due); after Commit's 9♦, also the card after the one it interrupted, ``fork``."""
        if current is None:
            return ()
        options = (self.successor(fork), self.successor(current)) if fork else (self.successor(current),)
        return tuple(c for c in options if c is not None)

    def playable(
        self, hand: Seq[Card], current: Card | None, fork: Card | None, stopped: Suit | None, privilege: bool
    ) -> list[Card]:
        """The cards of ``hand`` the seat to act may play (without a ``then``), in card order."""
        if current is None:
            return self.leads(hand, stopped, privilege)
        return sorted(c for c in self.wanted(current, fork) if c in hand)

    def base_plays(self, state: RunState, seat: int) -> list[Card]:
        """The cards ``seat`` may play now (without a ``then``); none when it is not its turn."""
        if state.result is not None or state.phase != "play" or seat != state.turn:
            return []
        return self.playable(state.hands[seat], state.current, state.fork, state.stopped, state.privilege)

    def _moves(self, hand: Seq[Card], base: Seq[Card]) -> list[Move]:
        moves = [Move.play(c) for c in base]
        special = self.special
        if special is not None and special in hand:
            moves += [Move.play(c, then=special) for c in base if c is not special]
        return moves

    # -- seeing ------------------------------------------------------------------------

    def view(self, state: RunState, seat: int | None) -> RunView:
        return RunView(
            **seat_fields(state, seat),
            runs=tuple(tuple(run) for run in state.run_cards()),
            current=state.current,
            stopped=state.stopped,
            privilege=state.privilege,
            fork=state.fork,
            turn=state.turn,
            last=state.last,
            phase=state.phase,
            bids=state.bids,
            dead_size=len(state.extra) + len(state.dead),
            discarded=state.dead if seat is not None and seat == state.exchanged else (),
            layout=self.layout_json(state.layout),
            net=state.net,
            result=state.result,
            wanted=self.wanted(state.current, state.fork),
            pair=self.layout_pair(),
        )

    def layout_cards(self) -> tuple[Card, ...]:
        """The cards of the layout that counters are staked on (Michigan); none here."""
        return ()

    def layout_pair(self) -> tuple[Card, ...]:
        """The layout cards that pay only together (Double Stops' pair); none here."""
        return ()

    def layout_json(self, layout: Seq[int]) -> dict[str, int]:
        return {card.code: n for card, n in zip(self.layout_cards(), layout)}

    def why_legal(self, view: RunView, move: Move) -> str:
        if move.kind != "play":
            return super().why_legal(view, move)
        card = move.card
        assert card is not None  # a play names its card (every declaration of "play" requires it)
        if view.current is not None and card in self.wanted(view.current, view.fork):
            why = Said("{card} follows {current} in the run", card=card, current=view.current)
        elif (same_suit := [c for c in view.hand if c.suit == card.suit]) and card == self.lowest(same_suit):
            why = Said("{card} starts a new run: the lowest {suit} in hand", card=card, suit=suit_word(card.suit))
        else:
            why = Said("{card} starts a new run", card=card)
        return why if move.then is None else Said("{why}, and {card} goes down with it", why=why, card=move.then)

    def legal_moves(self, view: RunView) -> list[Move]:
        if view.result is not None or not has_turn(view) or view.phase != "play":
            return []
        return self._moves(view.hand, self.playable(view.hand, view.current, view.fork, view.stopped, view.privilege))

    def explain(self, view: RunView, card: Card) -> str | None:
        if view.result is not None:
            return HAND_OVER
        if view.phase != "play":
            return self.explain_phase(view)
        if view.seat is None or view.seat != view.turn:
            return NOT_YOUR_TURN
        hand = view.hand
        if card not in hand:
            if card in view.on_table:
                return on_the_table(card)
            return not_held(card)
        base = self.playable(hand, view.current, view.fork, view.stopped, view.privilege)
        if card in base:
            return None
        if card is self.special:
            return self.why_not_special(base)
        if view.current is not None:
            wanted = [c for c in self.wanted(view.current, view.fork) if c in hand]
            return Said("you must play {cards}, the next card of the run", cards=or_words(wanted))
        if self.new_suit and card.suit == view.stopped and any(c.suit != card.suit for c in hand):
            return Said("begin a new suit: the {suits} run has just stopped", suits=suit_words(card.suit))
        lowest = self.lowest(c for c in hand if c.suit == card.suit)
        return Said(
            "a lead is your lowest card of a suit: your lowest {suit} is {card}", suit=suit_word(card.suit), card=lowest
        )

    def explain_phase(self, view: RunView) -> str:
        """Why no card may be played before the play begins (Michigan's extra hand)."""
        return NOT_BEGUN

    def why_not_special(self, base: Seq[Card]) -> str:
        """Why the :attr:`special` card may not go down alone now."""
        assert self.special is not None  # asked only of a game's special card (explain)
        special = self.special
        if base:
            return Said(
                "{special} goes down only together with a play of yours: play {card} then {special}",
                special=special,
                card=base[0],
            )
        return Said("{special} goes down only together with a play of yours", special=special)

    # -- playing -------------------------------------------------------------------------

    def apply(self, state: RunState, seat: int, move: Move, shuffle: Shuffler) -> tuple[RunState, list[Event]]:
        if state.result is None and state.phase != "play":
            return self.apply_phase(state, seat, move, refuser(move, seat))
        check_turn(state, seat, move)
        illegal = refuser(move, seat)
        if move.kind != "play":
            raise illegal(Said("{game} has no move {kind} now: play a card", game=self.title, kind=repr(move.kind)))
        if move.suit is not None:
            raise illegal(Said("{game} names no suit", game=self.title))
        card, then, hand = move.card, move.then, state.hands[seat]
        assert card is not None  # a play names its card (every declaration of "play" requires it)
        if card not in self.base_plays(state, seat):
            raise illegal(self.explain(self.view(state, seat), card) or "")
        if then is not None and then is not self.special:
            # Only a game with a special card reads a second one (Rules.unread refuses it in the others).
            assert self.special is not None
            raise illegal(Said("only {special} goes down with another card", special=self.special))
        if then is not None and then not in hand:
            raise illegal(not_held(then))
        return self._play(state, seat, card, then)

    def apply_phase(self, state: RunState, seat: int, move: Move, illegal: Any) -> tuple[RunState, list[Event]]:
        raise illegal(NOT_BEGUN)  # pragma: no cover - only Michigan has other phases

    def on_play(self, state: RunState, seat: int, card: Card, plays: Seq[tuple[int, Card]]) -> list[ChipMove]:
        """The counters that move when ``seat`` plays ``card`` (Michigan's pay cards);
        ``plays`` are the cards on the table, this one included."""
        return []

    def _play(self, state: RunState, seat: int, card: Card, then: Card | None) -> tuple[RunState, list[Event]]:
        held = list(state.hands)
        held[seat] = _without(held[seat], card, then) if then else _without(held[seat], card)
        hands = tuple(held)
        plays = state.plays + ((seat, card),) + (((seat, then),) if then else ())
        changes: dict[str, Any] = {
            "hands": hands,
            "plays": plays,
            "runs": state.runs + ((len(state.plays),) if state.current is None else ()),
            "last": seat,
        }
        moves = self.on_play(state, seat, card, plays)
        if then:
            moves += self.on_play(state, seat, then, plays)
        if moves:
            changes.update(self.settled(state, moves))
        if not hands[seat]:
            return self._out(replace_state(state, **changes), seat, moves)
        changes.update(self.next_turn(hands, seat, card, then))
        return replace_state(state, **changes), [m.to_event(state.hand) for m in moves]

    def next_turn(
        self, hands: tuple[tuple[Card, ...], ...], seat: int, card: Card, then: Card | None
    ) -> dict[str, Any]:
        """Who acts after ``seat`` played ``card`` (and ``then``): the holder of the next card,
        or after a stop the next leader (the state's fields that say so)."""
        nxt = self.successor(card)
        if nxt is not None:
            for holder, hand in enumerate(hands):
                if nxt in hand:
                    return {"current": card, "turn": holder, "stopped": None, "privilege": False, "fork": None}
        return self.stop(hands, seat, card.suit)

    def stop(
        self, hands: tuple[tuple[Card, ...], ...], last: int, suit: Suit | None, *, privilege: bool = False
    ) -> dict[str, Any]:
        """The run stopped after ``last``'s card of ``suit``: a lead is due (the state's fields)."""
        stopped = suit if self.new_suit else None
        leader = self.leader(hands, last, stopped, privilege)
        # The spin's privilege is the spinner's own: a seat the lead passes to has none.
        return {
            "current": None,
            "turn": leader,
            "stopped": stopped,
            "privilege": privilege and leader == last,
            "fork": None,
        }

    def leader(self, hands: Seq[Seq[Card]], last: int, stopped: Suit | None, privilege: bool) -> int:
        """Who leads after a stop: the player of the last card, if he holds another suit than
        the one that stopped (or, with the spin's privilege, a pay card he may lead); else
        the first seat to his left that does; if none does, he leads that suit again."""
        if stopped is None:
            return last
        seats = len(hands)
        for i in range(seats):
            seat = (last + i) % seats
            hand = hands[seat]
            if any(c.suit != stopped for c in hand):
                return seat
            if i == 0 and privilege and self.privileged_leads(hand):
                return seat
        return last

    # -- counters --------------------------------------------------------------------------

    def settled(self, state: RunState, moves: Seq[ChipMove]) -> dict[str, Any]:
        """The state's fields after the counters of ``moves`` moved: ``net``, ``layout``, ``chips``."""
        net, layout = list(state.net), list(state.layout)
        boxes = [c.code for c in self.layout_cards()]
        for m in moves:
            for party, sign in ((m.payer, -1), (m.payee, 1)):
                if isinstance(party, str):
                    layout[boxes.index(party)] += sign * m.amount
                elif party is not None:
                    net[party] += sign * m.amount
        return {"net": tuple(net), "layout": tuple(layout), "chips": state.chips + tuple(moves)}

    def settle(self, state: RunState, moves: Seq[ChipMove]) -> RunState:
        """The state with the counters of ``moves`` moved."""
        return replace_state(state, **self.settled(state, moves))

    # -- the end of a deal -----------------------------------------------------------------

    def on_out(self, state: RunState, winner: int) -> list[ChipMove]:
        """The counters that move when ``winner`` has played his last card."""
        return []

    def scores(self, state: RunState, winner: int) -> tuple[int, ...]:
        """A deal's scores: its net counters; Sequence: minus one point per card left."""
        if self.uses_chips:
            return state.net
        return tuple(-len(h) for h in state.hands)

    def _out(self, state: RunState, winner: int, played: Seq[ChipMove]) -> tuple[RunState, list[Event]]:
        """``winner`` played his last card (whose own counters, ``played``, have moved)."""
        moves = self.on_out(state, winner)
        if moves:
            state = self.settle(state, moves)
        result = went_out(winner, tuple(len(h) for h in state.hands), self.scores(state, winner))
        events = [m.to_event(state.hand) for m in (*played, *moves)]
        return replace_state(state, turn=None, current=None, fork=None, privilege=False, result=result), events

    # -- the heuristic bot ------------------------------------------------------

    def heuristic_move(self, view: RunView, moves: Seq[Move]) -> Move:
        """The heuristic bot's move: see :func:`run_choice`."""
        return run_choice(self, view, moves)

    # -- the table's timer -----------------------------------------------------------------

    def auto_move(self, state: RunState) -> Move:
        """What the table plays for a seat whose timer ran out: the card it must play (of two,
        the lower in card order); leading, its lowest lead (lowest rank in the game's order,
        clubs first on ties). It never adds a second card."""
        base = self.base_plays(state, seat_to_act(state))
        if state.current is None:
            return Move.play(self.lowest(base))
        return Move.play(min(base))

    # -- reporting ---------------------------------------------------------------------------

    def summary(self, state: RunState) -> RunSummary:
        return RunSummary(
            deal=state.dealt,
            hand=state.hand,
            runs=tuple(tuple(run) for run in state.run_cards()),
            left=state.hands,
            chips=state.chips if self.uses_chips else None,
        )

    def describe_deal(self, state: RunState, names: SeatNames) -> list[str]:
        lines = super().describe_deal(state, names)
        if state.extra:
            lines.append(f"  extra hand: {display(state.extra)}")  # Michigan
        elif state.dead:
            lines.append(f"  stops: {display(state.dead)}")  # Commit
        return lines

    def describe_table(self, before: RunState, after: RunState, names: SeatNames) -> str:
        # The run going on (or the one that just stopped).
        if not after.plays:
            return ""
        out = f"; run {display(after.run_cards()[-1])}"
        if after.current is None and after.result is None:
            out += f", stopped: {names.seat(after.turn)} leads"
        return out


@dataclass(frozen=True, kw_only=True)
class RunSummary(HandSummary):
    """A hand of the run games: the deal, every run in the order played, the cards left in
    each hand, and in the counter games every chip movement (``chips``; ``None``: Sequence).

    >>> from fairdeal.rules.summary import SeatNames
    >>> summary = RunSummary(deal=((), ()), hand=1, runs=((Card.parse("4S"), Card.parse("5S")),), left=((), (Card.parse("KD"),)))
    >>> summary.to_json()["runs"], summary.lines(SeatNames(("Ann", "Bob")))[2:]
    ([['4S', '5S']], ['  run 1: 4♠ 5♠', '  left in hand: seat 1 (Bob) K♦'])
    """

    hand: int
    runs: tuple[tuple[Card, ...], ...]
    left: tuple[tuple[Card, ...], ...]
    chips: tuple[ChipMove, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out = {**super().to_json(), "runs": [codes(run) for run in self.runs], "left": [codes(h) for h in self.left]}
        if self.chips is not None:
            out["chips"] = [m.to_event(self.hand) for m in self.chips]
        return out

    def lines(self, names: SeatNames) -> list[str]:
        out = super().lines(names) + chip_lines(self.hand, self.chips or (), names) + self.layout_lines(names)
        out.extend(f"  run {number}: {display(run)}" for number, run in enumerate(self.runs, 1))
        held = [f"{names.seat(s)} {display(cards)}" for s, cards in enumerate(self.left) if cards]
        out.append(f"  left in hand: {'; '.join(held) if held else 'nothing'}")
        return out

    def layout_lines(self, names: SeatNames) -> list[str]:
        """The lines on the cards dealt besides the seats' (Michigan's extra hand, Commit's
        stops), shown before the runs; none in Sequence."""
        return []


class Sequence(RunGame):
    """Sequence: 2 to 10 players, the whole pack dealt, ace high. The leader plays his
    lowest card of a suit he chooses; the holder of the next higher card of that suit must
    play it, and so on up to the ace (or to a card already played); whoever played the last
    card leads a new suit. The first out wins the deal; every other player loses a point
    per card he holds.

    Options: ``deals`` (deals in the session; 0, the default: each player deals once).

    The text's example: holding 4♠ (others hold 2♠ and 3♠), a player may lead 4♠, his
    lowest spade; then 5♠ must follow:

    >>> rules = Sequence()
    >>> hands = (tuple(map(Card.parse, ("4S", "9S", "KD"))), tuple(map(Card.parse, ("5S", "2S"))), (Card.parse("3S"),))
    >>> state = RunState(hand=1, dealer=2, hands=hands, turn=0, net=(0, 0, 0), dealt=hands)
    >>> rules.legal_moves(rules.view(state, 0))
    [Move.play(Card.parse('KD')), Move.play(Card.parse('4S'))]
    >>> rules.explain(rules.view(state, 0), Card.parse("9S"))
    'a lead is your lowest card of a suit: your lowest spade is 4♠'
    >>> state, _ = rules.apply(state, 0, Move.play(Card.parse("4S")), None)
    >>> state.turn, rules.legal_moves(rules.view(state, 1))
    (1, [Move.play(Card.parse('5S'))])
    """

    name = "sequence"
    lobby_order = 120
    title = "Sequence"
    summary_line = "Play the next card of the run whoever holds it; a point lost for every card left."


# -- the heuristic bot ----------------------------------------------------------


RUN_LOW_CARDS = (Rank.TWO, Rank.THREE)
"""Michigan: the "very low cards" that make a hand bad, and that are hard to get rid of."""
RUN_MOST_BID = 4
"""Michigan: the most the bot bids for the extra hand ("up to 3 or 4 counters")."""


def run_choice(rules: RunGame, view: RunView, moves: Seq[Move]) -> Move:
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
    >>> rules = Sequence()
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
            return EXCHANGE() if bad else AUCTION()
        best = max((a for _, a in view.bids if a is not None), default=0)
        offer = BID(best + 1)
        return offer if bad and best < RUN_MOST_BID and offer in moves else Move.pass_()
    plays = [m for m in moves if m.kind == "play"]
    base = sorted({m.card for m in plays if m.then is None and m.card is not None})
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

        card = min(
            base,
            key=lambda c: (
                c.suit not in pay_suits,
                not stops_for_me(c.suit),
                rules.position(c),
                -counts[c.suit],
                c.suit,
            ),
        )
    special = rules.special
    if special is not None and card is not special and Move.play(card, then=special) in moves:
        spin_to_pay = [c for c in hand if c.code in view.layout and c is not card]
        if rules.name == "commit" or spin_to_pay:
            return Move.play(card, then=special)
    return Move.play(card)
