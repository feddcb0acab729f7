"""Michigan (Boodle), and the two games built on it: Double Stops and Spin.

Michigan is Sequence (fairdeal/rules/sequence.py) with a dead extra hand and
counters. The pack is dealt to the players and to one **extra hand** (it
sits at the dealer's left, so it gets the first card). The dealer looks at
his hand and **keeps** it (the extra hand is then dead), **exchanges** it for
the extra hand (his own is then dead), or puts the extra hand up for
**auction**: each other player, from the dealer's left, bids once or passes;
the highest bid buys it (of equal bids, the first spoken), the buyer pays the
dealer and plays it, and his own hand is dead. Runs go up, ace high, and stop
at the ace or at a card nobody holds (dead, or played earlier).

The **layout** (the pay cards A♥ K♣ Q♦ J♠) carries the counters: before each
deal every player stakes one counter on each layout card; whoever plays the
card its twin in the pack takes all the counters on it; counters on a card
not played stay for the next deal (the match's :class:`MichiganSheet` carries
them). The first player out collects one counter per card from each other
player. At the end of the session the counters still on the layout go back
to the players, who staked them equally.

- **Double Stops** (``double-stops``): 10♥ and 9♥ join the layout as a pair;
  their counters go only to a player who plays both (when he plays the second).
- **Spin** (``spin``): the holder of A♦ may play it with any play of his
  (``then``) to stop the run ("Spin"); he then leads a new suit, or any pay card.

Every counter that moves is a ``chips`` event (spec/record.md), from or to a
seat or a layout card (named by its code, ``"AH"``). spec/games/michigan.md
and its siblings say where the texts were read one way rather than another.

>>> from fairdeal.fairness import game_key, shuffle
>>> key = game_key("00" * 32, "doc", ["", "", ""])
>>> rules = Michigan()
>>> state, events = rules.deal(3, dealer=0, hand=1, shuffle=lambda label, cards: shuffle(key, label, cards))
>>> [len(h) for h in state.hands], len(state.extra), state.phase, state.turn
([13, 13, 13], 13, 'choose', 0)
>>> [(e["from"], e["to"]) for e in events if e["type"] == "chips"][:5]
[(1, 'AH'), (1, 'KC'), (1, 'QD'), (1, 'JS'), (2, 'AH')]
>>> rules.legal_moves(rules.view(state, 0))
[Move.keep(), Move.parse('exchange'), Move.parse('auction')]
"""

from __future__ import annotations

from collections.abc import Sequence as Seq
from dataclasses import dataclass
from dataclasses import replace
from typing import Any
from typing import ClassVar
from typing import NotRequired
from typing import TypedDict

from fairdeal.cards import Card
from fairdeal.cards import codes
from fairdeal.cards import pack
from fairdeal.rules.base import DEALS
from fairdeal.rules.base import Event
from fairdeal.rules.base import Layout
from fairdeal.rules.base import Move
from fairdeal.rules.base import Option
from fairdeal.rules.base import ScoreSheet
from fairdeal.rules.base import Shuffler
from fairdeal.rules.base import stack
from fairdeal.rules.fan_tan import ChipMove
from fairdeal.rules.move import KEEP
from fairdeal.rules.move import PASS
from fairdeal.rules.move import PLAY
from fairdeal.rules.move import PLAY_THEN
from fairdeal.rules.sequence import AUCTION
from fairdeal.rules.sequence import BID
from fairdeal.rules.sequence import EXCHANGE
from fairdeal.rules.sequence import RunGame
from fairdeal.rules.sequence import RunState
from fairdeal.rules.sequence import RunSummary
from fairdeal.rules.sequence import RunTable
from fairdeal.rules.sequence import RunView
from fairdeal.rules.sequence import deal_round
from fairdeal.rules.sequence import replace_state
from fairdeal.rules.summary import SeatNames
from fairdeal.rules.summary import display
from fairdeal.said import Said

__all__ = ["DoubleStops", "Michigan", "MichiganSheet", "PAY_CARDS", "Spin"]

_BID_OR_PASS = Said("the extra hand is up for auction: bid for it or pass")
_CHOICES = {
    "keep": Said("the dealer keeps his own hand: the extra hand is dead"),
    "exchange": Said("the dealer takes the extra hand: his own hand is dead"),
    "auction": Said("the dealer puts the extra hand up for auction"),
}
"""What the dealer's choice of each kind does, as the hand replayer says why it was allowed."""

PAY_CARDS: tuple[Card, ...] = tuple(map(Card.parse, ("AH", "KC", "QD", "JS")))
"""Michigan's layout: the pay (boodle) cards, in the order their counters are staked."""
PAIR: tuple[Card, ...] = tuple(map(Card.parse, ("TH", "9H")))
"""Double Stops: the pair added to the layout; its counters go to one player who plays both."""
SPIN_CARD = Card.parse("AD")


@dataclass(frozen=True, slots=True)
class MichiganSheet(ScoreSheet):
    """A Michigan session's sheet: each player's counters (``totals``), and the counters
    left on each layout card (``layout``, in the order of ``cards``) for the next deal.

    >>> sheet = MichiganSheet((50, 50, 50), layout=(3, 0, 0, 6), cards=("AH", "KC", "QD", "JS"))
    >>> sheet.add((-2, 5, -3)).record()
    {'totals': [48, 55, 47], 'layout': {'AH': 3, 'KC': 0, 'QD': 0, 'JS': 6}}
    """

    layout: tuple[int, ...] = ()
    cards: tuple[str, ...] = ()

    def add(self, scores: Seq[int]) -> MichiganSheet:
        return replace(self, totals=tuple(t + s for t, s in zip(self.totals, scores)))

    def record(self) -> dict[str, Any]:
        """``totals``, and ``layout``: the counters left on each layout card after the deal."""
        return {"totals": list(self.totals), "layout": dict(zip(self.cards, self.layout))}

    def describe(self, names: SeatNames) -> list[str]:
        shown = ", ".join(f"{display(code)} {n}" for code, n in zip(self.cards, self.layout))
        return [f"  counters left on the layout: {shown}"]


class Bid(TypedDict):
    """A seat's say in the auction of Michigan's extra hand: its bid, or ``null`` for a pass."""

    seat: int
    bid: int | None


class MichiganTable(RunTable):
    """Michigan's table: a run game's, with the phase, the auction's bids, the counters on the
    layout's pay cards and the cards the dealer put aside (to him only)."""

    phase: str
    bids: list[Bid]
    layout: dict[str, int]
    discarded: NotRequired[list[Card]]


class DoubleStopsTable(MichiganTable):
    """Double Stops' table: Michigan's, and the pair of the layout that pays double."""

    pair: list[Card]


class SpinTable(MichiganTable):
    """Spin's table: Michigan's, and whether the seat to act may spin (A♦) now."""

    privilege: NotRequired[bool]


class Michigan(RunGame):
    """Michigan: 3 to 8 players, a dead extra hand the dealer may take or sell, pay cards
    A♥ K♣ Q♦ J♠ with counters on them, runs up to the ace or to a dead card.

    Options: ``deals`` (0, the default: each player deals once), ``stack`` (each player's
    counters at the start, default 50), ``max_bid`` (the most a bid for the extra hand may
    be, default 10).

    The text's advice on the play: knowing the 9♠ is in the dead hand, begin spades with
    the 8♠: the run stops at it, and the one who played it leads again.

    >>> rules = Michigan()
    >>> hands = (tuple(map(Card.parse, ("8S", "3D"))), (Card.parse("4D"),), (Card.parse("5D"),))
    >>> state = RunState(hand=1, dealer=2, hands=hands, turn=0, dead=(Card.parse("9S"),), net=(0, 0, 0),
    ...                  layout=(3, 3, 3, 3))
    >>> state, _ = rules.apply(state, 0, Move.play(Card.parse("8S")), None)
    >>> state.turn, state.stopped, rules.legal_moves(rules.view(state, 0))
    (0, <Suit.SPADES: 3>, [Move.play(Card.parse('3D'))])
    """

    renderer = "michigan"

    name = "michigan"
    table_json: ClassVar[type] = MichiganTable
    lobby_order = 130
    title = "Michigan"
    min_seats = 3
    max_seats = 8
    summary_line = "Runs up to the ace with counters on the pay cards; the dealer may sell the extra hand."
    OPTIONS = (
        DEALS,
        stack("counters"),
        Option("max_bid", 10, 1, 1000, "counters", help="the highest bid for the extra hand"),
    )
    unit = "counters"
    layout = Layout(hands="the whole pack, dealt round with an extra hand at the dealer's left", extra="extra hand")
    moves = (PLAY, KEEP, PASS, EXCHANGE, AUCTION, BID)
    uses_chips = True
    pay_cards: tuple[Card, ...] = PAY_CARDS

    def layout_cards(self) -> tuple[Card, ...]:
        return self.pay_cards

    # -- the session's sheet: counters carried on the layout -------------------------

    def new_sheet(self, seats: int) -> MichiganSheet:
        return MichiganSheet(
            self.initial_totals(seats), layout=(0,) * len(self.pay_cards), cards=tuple(codes(self.pay_cards))
        )

    def score_hand(self, sheet: ScoreSheet, state: RunState) -> MichiganSheet:
        assert state.result is not None, "score_hand is asked of a finished hand"
        totals = tuple(t + n for t, n in zip(sheet.totals, state.result.scores))
        return MichiganSheet(totals, layout=state.layout, cards=tuple(codes(self.pay_cards)))

    def deal_hand(
        self, sheet: ScoreSheet, seats: int, dealer: int, hand: int, shuffle: Shuffler
    ) -> tuple[RunState, list[Event]]:
        carried = sheet.layout if isinstance(sheet, MichiganSheet) and sheet.layout else (0,) * len(self.pay_cards)
        return self._deal(seats, dealer, hand, shuffle, carried)

    def deal(self, seats: int, dealer: int, hand: int, shuffle: Shuffler) -> tuple[RunState, list[Event]]:
        return self._deal(seats, dealer, hand, shuffle, (0,) * len(self.pay_cards))

    def _deal(
        self, seats: int, dealer: int, hand: int, shuffle: Shuffler, carried: tuple[int, ...]
    ) -> tuple[RunState, list[Event]]:
        self.check_seats(seats)
        order = shuffle(f"hand/{hand}/deal", pack())
        first = (dealer + 1) % seats
        # The extra hand sits at the dealer's left: it gets the first card, then the players.
        places = deal_round(order, seats + 1)
        hands = tuple(places[1 + (seat - first) % seats] for seat in range(seats))
        state = RunState(
            hand=hand,
            dealer=dealer,
            hands=hands,
            turn=dealer,
            phase="choose",
            extra=places[0],
            extra_dealt=places[0],
            layout=carried,
            net=(0,) * seats,
            dealt=hands,
        )
        stakes = [ChipMove("stake", (first + i) % seats, card.code, 1) for i in range(seats) for card in self.pay_cards]
        state = self.settle(state, stakes)
        return state, [{"type": "deal", "hand": hand, "dealer": dealer}, *(m.to_event(hand) for m in stakes)]

    # -- the extra hand ------------------------------------------------------------------

    def phase_moves(self, phase: str, seat: int | None, turn: int | None) -> list[Move]:
        if seat is None or seat != turn:
            return []
        if phase == "choose":
            return [Move.keep(), EXCHANGE(), AUCTION()]
        return [Move.pass_()] + [BID(n) for n in range(1, self.options["max_bid"] + 1)]

    def why_legal(self, view: RunView, move: Move) -> str:
        if view.phase == "choose":
            return _CHOICES.get(move.kind) or super().why_legal(view, move)
        if view.phase == "auction":
            if move.kind == "bid":
                return Said(
                    "bids {amount} for the extra hand (a bid is 1 to {most} counters)",
                    amount=move.amount,
                    most=self.options["max_bid"],
                )
            if move.kind == "pass":
                return Said("makes no bid for the extra hand")
        return super().why_legal(view, move)

    def legal_moves(self, view: RunView) -> list[Move]:
        if view.result is None and view.phase != "play":
            return self.phase_moves(view.phase, view.seat, view.turn)
        return super().legal_moves(view)

    def explain_phase(self, view: RunView) -> str:
        if view.phase == "choose":
            if view.seat == view.dealer:
                return Said(
                    "first say what becomes of the extra hand: keep your own hand, exchange it for the extra hand, "
                    "or auction the extra hand"
                )
            return Said("the dealer is deciding about the extra hand")
        if view.seat == view.turn:
            return _BID_OR_PASS
        return Said("the extra hand is being auctioned")

    def apply_phase(self, state: RunState, seat: int, move: Move, illegal: Any) -> tuple[RunState, list[Event]]:
        if seat != state.turn:
            who = (
                Said("the dealer decides about the extra hand")
                if state.phase == "choose"
                else Said("seat {seat} bids next", seat=state.turn)
            )
            raise illegal(Said("it is not your turn: {who}", who=who))
        first = (state.dealer + 1) % state.seats
        if state.phase == "choose":
            if move.kind == "keep":
                return replace_state(state, phase="play", turn=first, dead=state.extra, extra=()), []
            if move.kind == "exchange":
                return self._exchange(state, seat, first), []
            if move.kind == "auction":
                return replace_state(state, phase="auction", turn=first), []
            raise illegal(
                Said("first the dealer keeps his hand, exchanges it for the extra hand, or auctions the extra hand")
            )
        if move.kind == "bid":
            amount = move.amount
            assert amount is not None  # a bid names its amount (BID requires it)
            if amount > self.options["max_bid"]:
                raise illegal(Said("a bid is at most {n} counters", n=self.options["max_bid"]))
        elif move.kind == "pass":
            amount = None
        else:
            raise illegal(_BID_OR_PASS)
        state = replace_state(state, bids=state.bids + ((seat, amount),))
        after = (seat + 1) % state.seats
        if after != state.dealer:
            return replace_state(state, turn=after), []
        return self._sold(state, first)

    def _exchange(self, state: RunState, seat: int, first: int) -> RunState:
        hands = list(state.hands)
        dead, hands[seat] = hands[seat], state.extra
        return replace_state(state, phase="play", turn=first, hands=tuple(hands), dead=dead, extra=(), exchanged=seat)

    def _sold(self, state: RunState, first: int) -> tuple[RunState, list[Event]]:
        """The auction is over: the highest bid buys the extra hand, the first of equal bids."""
        bids = [(amount, seat) for seat, amount in state.bids if amount is not None]
        if not bids:
            # The dealer may not change his mind: unsold, the extra hand is dead.
            return replace_state(state, phase="play", turn=first, dead=state.extra, extra=()), []
        best = max(amount for amount, _ in bids)
        buyer = next(seat for amount, seat in bids if amount == best)
        price = ChipMove("auction", buyer, state.dealer, best)
        state = self.settle(self._exchange(state, buyer, first), [price])
        return state, [price.to_event(state.hand)]

    # -- counters ------------------------------------------------------------------------

    def on_play(self, state: RunState, seat: int, card: Card, plays: Seq[tuple[int, Card]]) -> list[ChipMove]:
        if card in PAY_CARDS:
            at = self.pay_cards.index(card)
            if state.layout[at]:
                return [ChipMove("pay-card", card.code, seat, state.layout[at])]
        return []

    def on_out(self, state: RunState, winner: int) -> list[ChipMove]:
        around = [(winner + i) % state.seats for i in range(1, state.seats)]
        moves = [ChipMove("cards-left", s, winner, len(state.hands[s])) for s in around if state.hands[s]]
        if state.hand >= self.deals_in_session(state.seats):
            # The session's last deal: the counters left on the layout go back to the
            # players, who staked them one each per deal.
            first = (state.dealer + 1) % state.seats
            for card, counters in zip(self.pay_cards, state.layout):
                share = counters // state.seats
                if share:
                    moves += [
                        ChipMove("return", card.code, (first + i) % state.seats, share) for i in range(state.seats)
                    ]
        return moves

    def scores(self, state: RunState, winner: int) -> tuple[int, ...]:
        return state.net

    # -- the table's timer -----------------------------------------------------------------

    def auto_move(self, state: RunState) -> Move:
        """Besides the play's auto-move: the dealer keeps his hand; a bidder passes."""
        if state.result is None and state.phase == "choose":
            return Move.keep()
        if state.result is None and state.phase == "auction":
            return Move.pass_()
        return super().auto_move(state)

    # -- reporting ---------------------------------------------------------------------------

    def summary(self, state: RunState) -> MichiganSummary:
        exchange = None
        if state.exchanged is not None:
            price = next((a for s, a in state.bids if s == state.exchanged and a is not None), 0)
            exchange = (state.exchanged, price)
        return MichiganSummary(
            **super().summary(state).fields(),
            extra=state.extra_dealt,
            exchange=exchange,
            bids=state.bids,
            dead=state.dead or state.extra,
        )


@dataclass(frozen=True, kw_only=True)
class MichiganSummary(RunSummary):
    """A hand of the Michigan games: the run games' summary with the ``extra`` hand as
    dealt, the auction's ``bids`` (``None``: a pass), who played the extra hand and for
    how many counters (``exchange``: seat and price), and the ``dead`` hand.

    >>> from fairdeal.rules.summary import SeatNames
    >>> summary = MichiganSummary(deal=((), ()), hand=1, runs=(), left=((), ()), chips=(), extra=(Card.parse("2C"),),
    ...                           exchange=(1, 3), bids=((0, None), (1, 3)), dead=(Card.parse("5D"),))
    >>> summary.to_json()["exchange"], summary.lines(SeatNames(("Ann", "Bob")))[3:5]
    ({'seat': 1, 'price': 3}, ['  the extra hand is auctioned: seat 0 (Ann) passes, seat 1 (Bob) bids 3', '  seat 1 (Bob) plays the extra hand, for 3 counters'])
    """

    extra: tuple[Card, ...]
    exchange: tuple[int, int] | None = None
    bids: tuple[tuple[int, int | None], ...] = ()
    dead: tuple[Card, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out = {**super().to_json(), "extra": codes(self.extra)}
        if self.exchange is not None:
            out["exchange"] = {"seat": self.exchange[0], "price": self.exchange[1]}
        if self.bids:
            out["bids"] = [{"seat": s, "bid": a} for s, a in self.bids]
        out["dead"] = codes(self.dead)
        return out

    def layout_lines(self, names: SeatNames) -> list[str]:
        out = [f"  extra hand (dealt at the dealer's left): {display(self.extra)}"]
        if self.bids:
            said = [f"{names.seat(s)} " + ("passes" if a is None else f"bids {a}") for s, a in self.bids]
            out.append(f"  the extra hand is auctioned: {', '.join(said)}")
        if self.exchange is not None:
            seat, price = self.exchange
            out.append(
                f"  {names.seat(seat)} plays the extra hand"
                + (f", for {price} counter{'' if price == 1 else 's'}" if price else "")
            )
        out.append(f"  dead hand: {display(self.dead)}")
        return out


class DoubleStops(Michigan):
    """Double Stops: Michigan with 10♥ and 9♥ added to the layout as a pair. Every player
    stakes a counter on each of the six layout cards; the pair's counters go only to a
    player who plays both its cards, when he plays the second.

    >>> rules = DoubleStops()
    >>> hands = (tuple(map(Card.parse, ("9H", "TH", "2C"))), (Card.parse("JH"),), (Card.parse("3C"),))
    >>> state = RunState(hand=1, dealer=2, hands=hands, turn=0, net=(0, 0, 0), layout=(0, 0, 0, 0, 6, 3))
    >>> state, events = rules.apply(state, 0, Move.play(Card.parse("9H")), None)
    >>> events, state.turn
    ([], 0)
    >>> state, events = rules.apply(state, 0, Move.play(Card.parse("TH")), None)
    >>> [(e["reason"], e["from"], e["to"], e["amount"]) for e in events]
    [('pair', 'TH', 0, 6), ('pair', '9H', 0, 3)]
    """

    name = "double-stops"
    table_json = DoubleStopsTable
    lobby_order = 140
    title = "Double Stops"
    summary_line = "Michigan with the 10♥ and 9♥ as a pair on the layout."
    pay_cards = PAY_CARDS + PAIR

    def layout_pair(self) -> tuple[Card, ...]:
        return PAIR

    def on_play(self, state: RunState, seat: int, card: Card, plays: Seq[tuple[int, Card]]) -> list[ChipMove]:
        if card not in PAIR:
            return super().on_play(state, seat, card, plays)
        other = PAIR[1] if card is PAIR[0] else PAIR[0]
        if (seat, other) not in plays:
            return []
        return [
            ChipMove("pair", pair_card.code, seat, state.layout[self.pay_cards.index(pair_card)])
            for pair_card in PAIR
            if state.layout[self.pay_cards.index(pair_card)]
        ]


class Spin(Michigan):
    """Spin: Michigan where the holder of A♦ may play it together with any play of his
    (``then``: "Spin"), which stops the run; he then leads a new suit, or any pay card he
    holds.

    The text's example: the run has reached 8♣; holding 9♣ and A♦, play both:

    >>> rules = Spin()
    >>> hands = (tuple(map(Card.parse, ("9C", "AD", "KC", "2S"))), (Card.parse("TC"),), (Card.parse("3S"),))
    >>> state = RunState(hand=1, dealer=2, hands=hands, turn=0, plays=((1, Card.parse("8C")),), runs=(0,),
    ...                  current=Card.parse("8C"), net=(0, 0, 0), layout=(4, 4, 4, 4))
    >>> rules.legal_moves(rules.view(state, 0))
    [Move.play(Card.parse('9C')), Move.play(Card.parse('9C'), then=Card.parse('AD'))]
    >>> state, _ = rules.apply(state, 0, Move.play(Card.parse("9C"), then=Card.parse("AD")), None)
    >>> state.turn, rules.legal_moves(rules.view(state, 0))  # the 10♣ waits; a pay card may lead
    (0, [Move.play(Card.parse('KC')), Move.play(Card.parse('2S'))])
    """

    name = "spin"
    table_json = SpinTable
    lobby_order = 150
    title = "Spin"
    summary_line = "Michigan where the A♦ may go down with any play: Spin!"
    moves = (PLAY_THEN, *Michigan.moves[1:])
    special = SPIN_CARD

    def privileged_leads(self, hand: Seq[Card]) -> list[Card]:
        return [c for c in hand if c in self.pay_cards]

    def next_turn(
        self, hands: tuple[tuple[Card, ...], ...], seat: int, card: Card, then: Card | None
    ) -> dict[str, Any]:
        if then is SPIN_CARD:
            return self.stop(hands, seat, card.suit, privilege=True)
        return super().next_turn(hands, seat, card, then)

    def why_not_special(self, base: Seq[Card]) -> str:
        if base:
            return Said(
                "A♦ goes down only with a play of yours, to stop the run (Spin): play {card} then A♦", card=base[0]
            )
        return Said("A♦ goes down only with a play of yours, to stop the run (Spin)")
