"""The Fan Tan family: Fan Tan with chips, Sjueren, Five or Nine, Play or Pay, Liberty Fan-Tan.

All five deal the whole pack one card at a time from the dealer's left, and
each seat in turn plays one card to the table or passes; the first seat out
of cards wins the deal. They differ in what may be played:

- the **sevens games** (``fan-tan``, ``sjueren``, ``five-or-nine``) lay one
  row per suit, opened by a seven (Five or Nine: by the five or the nine the
  first card fixes) and built one card at a time down and up from it;
- the **sequence games** (``play-or-pay``, ``liberty-fan-tan``) build one
  suit at a time upward from any card, round the corner (J, Q, K, A, 2, ...),
  until all 13 are down; whoever plays the 13th leads a new suit.

Play is compulsory: a seat passes only when it has no card to play (Fan Tan
with ``passing=1`` lets it pass anyway, at a penalty). Every chip that moves
is a public ``chips`` event, ``{"type": "chips", "hand": h, "reason": r,
"from": seat or "pot", "to": seat or "pot", "amount": n}``; a deal's scores
are each seat's net chips. spec/games/fan-tan.md and its siblings say where
the rule texts (../shared/rules/) were read one way rather than another.

>>> from fairdeal.fairness import game_key, shuffle
>>> key = game_key("00" * 32, "doc", ["", "", ""])
>>> rules = FanTan()
>>> state, events = rules.deal(3, dealer=0, hand=1, shuffle=lambda label, cards: shuffle(key, label, cards))
>>> [len(h) for h in state.hands], state.turn, state.pot
([17, 18, 17], 1, 5)
>>> [(e["reason"], e["from"], e["amount"]) for e in events if e["type"] == "chips"]
[('ante', 1, 1), ('ante', 2, 1), ('ante', 0, 1), ('short-hand', 2, 1), ('short-hand', 0, 1)]
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from typing import Any
from typing import ClassVar

from fairdeal.cards import Card
from fairdeal.cards import Rank
from fairdeal.cards import Suit
from fairdeal.cards import codes
from fairdeal.rules.base import DEALS
from fairdeal.rules.base import WHOLE_PACK
from fairdeal.rules.base import Event
from fairdeal.rules.base import HandResult
from fairdeal.rules.base import HandState
from fairdeal.rules.base import Move
from fairdeal.rules.base import Option
from fairdeal.rules.base import Rules
from fairdeal.rules.base import SeatView
from fairdeal.rules.base import Shuffler
from fairdeal.rules.base import TableJSON
from fairdeal.rules.base import check_turn
from fairdeal.rules.base import has_turn
from fairdeal.rules.base import not_held
from fairdeal.rules.base import refuser
from fairdeal.rules.base import seat_fields
from fairdeal.rules.base import seat_to_act
from fairdeal.rules.base import stack
from fairdeal.rules.base import turn_problem
from fairdeal.rules.base import went_out
from fairdeal.rules.move import PASS
from fairdeal.rules.move import PLAY
from fairdeal.rules.position import Places
from fairdeal.rules.position import PositionError
from fairdeal.rules.position import check_chip_tally
from fairdeal.rules.position import check_to_act
from fairdeal.rules.position import hand_places
from fairdeal.rules.summary import HandSummary
from fairdeal.rules.summary import SeatNames
from fairdeal.rules.summary import describe_chips
from fairdeal.rules.summary import display
from fairdeal.rules.summary import safe
from fairdeal.said import Said
from fairdeal.said import or_words
from fairdeal.said import suit_words

__all__ = [
    "ChipMove",
    "FanTan",
    "FanTanFamily",
    "FanTanState",
    "FanTanView",
    "FiveOrNine",
    "LibertyFanTan",
    "PlayOrPay",
    "SequenceGame",
    "SevensGame",
    "Sjueren",
    "hand_sizes",
    "paid",
]

ACE_LOW: tuple[Rank, ...] = tuple(Rank)
"""A, 2, ..., K: a suit's order in Fan Tan, Five or Nine and the sequence games."""
ACE_HIGH: tuple[Rank, ...] = ACE_LOW[1:] + (Rank.ACE,)
"""2, ..., K, A: a suit's order in Sjueren, where the ace is laid after the king."""

POT = "pot"
"""Where chips go in a ``chips`` event, and where the winner takes them from."""


def hand_sizes(seats: int) -> list[int]:
    """How many cards each seat gets when the whole pack is dealt from the dealer's left,
    listed from the first seat dealt to (the dealer's left) to the dealer.

    >>> for seats in range(3, 7):
    ...     print(seats, hand_sizes(seats))
    3 [18, 17, 17]
    4 [13, 13, 13, 13]
    5 [11, 11, 10, 10, 10]
    6 [9, 9, 9, 9, 8, 8]
    """
    return [52 // seats + (1 if i < 52 % seats else 0) for i in range(seats)]


@dataclass(frozen=True, slots=True)
class ChipMove:
    """Chips that changed hands: from a seat (or the pot) to the pot (or a seat).

    The Michigan games keep their counters on layout cards instead of a pot: there
    a payer or payee may also be a layout card, named by its code.

    >>> ChipMove("pass", 2, None, 1).to_event(hand=3)
    {'type': 'chips', 'hand': 3, 'reason': 'pass', 'from': 2, 'to': 'pot', 'amount': 1}
    >>> ChipMove("pay-card", "AH", 0, 12).to_event(hand=1)["from"]
    'AH'
    """

    reason: str
    """``ante``, ``short-hand`` (the extra ante of a seat dealt fewer cards), ``pass``,
    ``penalty`` (passing though able to play), ``held-seven`` (paid to the holder of
    the withheld seven's six or eight), ``cards-left`` (one chip per card at the end),
    ``pot`` (the pot to the seat that went out)."""
    payer: int | str | None
    """The seat that pays, ``None`` for the pot, or a layout card's code (``"AH"``)."""
    payee: int | str | None
    """The seat that is paid, ``None`` for the pot, or a layout card's code."""
    amount: int

    def to_event(self, hand: int) -> Event:
        return {
            "type": "chips",
            "hand": hand,
            "reason": self.reason,
            "from": POT if self.payer is None else self.payer,
            "to": POT if self.payee is None else self.payee,
            "amount": self.amount,
        }


Row = tuple[Card, Card]
"""A suit's cards on the table, by its two ends: sevens games (low end, high end)
in the suit's order; sequence games (first card, last card), which may wrap past the king."""


@dataclass(frozen=True, slots=True)
class FanTanState(HandState):
    """One deal of a Fan Tan game, everything included (hidden cards too)."""

    rows: tuple[Row | None, ...]
    """One per suit, clubs first; ``None`` while no card of the suit is down."""
    opening: Rank | None
    """The rank that opens a row: 7; Five or Nine: ``None`` until the first card fixes it;
    the sequence games: ``None`` (any card leads)."""
    turn: int | None
    """The seat to act; ``None`` once the deal is over."""
    pot: int = 0
    net: tuple[int, ...] = ()
    """Each seat's chips won (+) or paid (-) in this deal so far."""
    chips: tuple[ChipMove, ...] = ()
    """Every chip movement of the deal, in order."""
    leads: tuple[Card, ...] = ()
    """Sequence games: the card that began each suit, in order."""
    result: HandResult | None = None
    dealt: tuple[tuple[Card, ...], ...] = ()
    """The hands as dealt, for the report."""


@dataclass(frozen=True, slots=True)
class FanTanView(SeatView):
    """What one seat sees (``seat`` is ``None`` for a spectator, who sees no hand).

    The chips a seat holds are its match total plus ``net[seat]``.
    """

    rows: tuple[Row | None, ...]
    opening: Rank | None
    turn: int | None
    pot: int
    net: tuple[int, ...]
    result: HandResult | None
    rules: FanTanFamily | None = field(default=None, compare=False, repr=False)
    """The rules that made the view: they say what its rows hold and what may go on, when asked."""

    # Worked out only when asked (the table page's JSON): a bot's or the verifier's view never needs them.
    @property
    def row_cards(self) -> tuple[tuple[Card, ...], ...]:
        """Each suit's row, every card of it from one end to the other (:meth:`FanTanFamily.row_cards`)."""
        if self.rules is None:
            return ()
        return tuple(() if row is None else self.rules.row_cards(row) for row in self.rows)

    @property
    def wanted(self) -> tuple[Card, ...] | None:
        """The cards that may go to the table now, whoever holds them (the rows' open ends); ``None``: any card leads."""
        if self.rules is None:
            return ()
        return self.rules.wanted(self.rows, self.opening)

    def to_json(self) -> dict[str, Any]:
        return {
            **self.seat_json(),
            "rows": _rows_json(self.rows),
            "opening": None if self.opening is None else self.opening.label,
            "turn": self.turn,
            "pot": self.pot,
            "net": list(self.net),
            # What the table page shows, as the rules say it: the cards of each row, and what may go on.
            "row_cards": {suit.letter: codes(cards) for suit, cards in zip(Suit, self.row_cards)},
            "next": None if self.wanted is None else codes(self.wanted),
        }


def _rows_json(rows: Sequence[Row | None]) -> dict[str, list[str] | None]:
    return {suit.letter: None if row is None else codes(row) for suit, row in zip(Suit, rows)}


def needs(card: Card, needed: Card) -> Said:
    """Why ``card`` cannot go down yet: ``needed`` must be on the table first.

    >>> needs(Card.parse("9H"), Card.parse("8H"))
    '9♥ needs 8♥ on the table'
    """
    return Said("{card} needs {needed} on the table", card=card, needed=needed)


def on_the_table(card: Card) -> Said:
    """What is said of ``card``, already played to the table."""
    return Said("{card} is already on the table", card=card)


def _remove(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


class FanTanTable(TableJSON):
    """The public table of a Fan Tan hand: each suit's row (its low and high card, by suit letter),
    the pot, the chips won or lost, and the cards that may be played next."""

    rows: dict[str, list[Card] | None]
    opening: Rank | None
    pot: int
    net: list[int]
    row_cards: dict[str, list[Card]]
    next: list[Card] | None


class FanTanFamily(Rules[FanTanState, FanTanView]):
    """What the family shares: the deal of the whole pack, turns, passes, chips, the session.

    A game says what may be played (:meth:`playable`, :meth:`why_not`) and how a card
    lies on the table (:meth:`place`); the rest is common.
    """

    renderer = "fan_tan"
    table_json: ClassVar[type] = FanTanTable

    min_seats = 3
    max_seats = 8
    first_dealer_rank = Rank.JACK
    family = "Fan Tan family"
    moves = (PLAY, PASS)
    OPTIONS: ClassVar[tuple[Option, ...]] = (DEALS, stack("chips"))
    unit = "chips"
    layout = WHOLE_PACK

    uses_chips: ClassVar[bool] = True
    antes: ClassVar[bool] = False
    """Each seat antes one chip per deal, and one more if dealt fewer cards (Fan Tan's chips)."""
    pays_cards_left: ClassVar[bool] = True
    """When a seat goes out, every other seat pays the pot one chip per card it holds."""

    # -- the position (state JSON, spec/state.md) ----------------------------

    state_type = FanTanState

    def card_places(self, state: FanTanState) -> Places:
        """Where the cards are: the hands and the rows on the table (``dealt`` is history)."""
        rows = [
            (Said("in the {suits} row", suits=suit_words(suit)), self.row_cards(row))
            for suit, row in zip(Suit, state.rows)
            if row is not None
        ]
        return [*hand_places(state.hands), *rows]

    def check_rows(self, state: FanTanState) -> None:
        """Raise :class:`PositionError` for rows (and an opening rank, leads) no deal can lay."""
        raise NotImplementedError

    def check_position(self, state: FanTanState) -> None:
        if len(state.rows) != 4:
            raise PositionError(f"one row per suit, clubs first: 4 entries, not {len(state.rows)}", field="rows")
        for suit, row in zip(Suit, state.rows):
            if row is not None and (row[0].suit != suit or row[1].suit != suit):
                raise PositionError(
                    f"the {suit.plural} row holds {row[0] if row[0].suit != suit else row[1]}", field=f"rows[{suit}]"
                )
        self.check_rows(state)
        check_chip_tally(state)
        if state.pot < 0:
            raise PositionError(f"{state.pot} chips", field="pot")
        check_to_act(state)

    # -- dealing -------------------------------------------------------------

    def initial_opening(self) -> Rank | None:
        return None

    def deal(self, seats: int, dealer: int, hand: int, shuffle: Shuffler) -> tuple[FanTanState, list[Event]]:
        # One card at a time, clockwise from the dealer's left, until the pack is gone.
        hands, _ = self.deal_cards(seats, dealer, hand, shuffle)
        first = (dealer + 1) % seats
        state = FanTanState(
            hand=hand,
            dealer=dealer,
            hands=hands,
            rows=(None,) * 4,
            opening=self.initial_opening(),
            turn=first,
            net=(0,) * seats,
            dealt=hands,
        )
        moves: list[ChipMove] = []
        if self.antes:
            # Round the table from the dealer's left, as the cards went.
            around = [(first + i) % seats for i in range(seats)]
            most = max(map(len, hands))
            moves += [ChipMove("ante", seat, None, 1) for seat in around]
            moves += [ChipMove("short-hand", seat, None, 1) for seat in around if len(hands[seat]) < most]
        state = replace(state, **paid(state, moves))
        return state, [{"type": "deal", "hand": hand, "dealer": dealer}, *(m.to_event(hand) for m in moves)]

    # -- what may be played ----------------------------------------------------

    def playable(self, rows: Sequence[Row | None], opening: Rank | None) -> frozenset[Card] | None:
        """The cards that may go to the table now, whoever holds them (``None``: any card)."""
        raise NotImplementedError

    def why_not(self, card: Card, rows: Sequence[Row | None], opening: Rank | None, hand: Sequence[Card]) -> str:
        """Why ``card``, held and not in :meth:`playable`, cannot be played."""
        raise NotImplementedError

    def _why_not(
        self, card: Card, *, hand: Sequence[Card], rows: Sequence[Row | None], opening: Rank | None
    ) -> str | None:
        """Why the seat to act cannot play ``card``, or ``None``; shared by the engine and :meth:`explain`."""
        if card not in hand:
            on_table = self.on_table(card, rows)
            return on_table or not_held(card)
        allowed = self.playable(rows, opening)
        if allowed is None or card in allowed:
            return None
        return self.why_not(card, rows, opening, hand)

    def on_table(self, card: Card, rows: Sequence[Row | None]) -> str | None:
        """What to say of a card already on the table, or ``None`` when it is not."""
        return None

    def _playable_in(self, hand: Iterable[Card], rows: Sequence[Row | None], opening: Rank | None) -> list[Card]:
        allowed = self.playable(rows, opening)
        return sorted(c for c in hand if allowed is None or c in allowed)

    # -- seeing ----------------------------------------------------------------

    def view(self, state: FanTanState, seat: int | None) -> FanTanView:
        return FanTanView(
            **seat_fields(state, seat),
            rows=state.rows,
            opening=state.opening,
            turn=state.turn,
            pot=state.pot,
            net=state.net,
            result=state.result,
            rules=self,
        )

    def row_cards(self, row: Row) -> tuple[Card, ...]:
        """Every card of ``row`` (its two ends), from the first end to the second."""
        raise NotImplementedError

    def wanted(self, rows: Sequence[Row | None], opening: Rank | None) -> tuple[Card, ...] | None:
        """The cards :meth:`playable` now, in card order (``None``: any card)."""
        allowed = self.playable(rows, opening)
        return None if allowed is None else tuple(sorted(allowed))

    def explain(self, view: FanTanView, card: Card) -> str | None:
        return turn_problem(view) or self._why_not(card, hand=view.hand, rows=view.rows, opening=view.opening)

    def why_legal(self, view: FanTanView, move: Move) -> str:
        if move.kind == "play":
            card = move.card
            assert card is not None  # a play names its card (every declaration of "play" requires it)
            row, suits = view.rows[card.suit], suit_words(card.suit)
            if row is None:
                return Said("{card} starts the {suits} row", card=card, suits=suits)
            end = next((e for e in row if abs(e.rank - card.rank) in (1, 12)), None)
            if end is None:
                return Said("{card} goes on the {suits} row", card=card, suits=suits)
            return Said("{card} goes next to {end} on the {suits} row", card=card, end=end, suits=suits)
        if move.kind == "pass":
            if self._playable_in(view.hand, view.rows, view.opening):
                why = Said("passes though a card could go down (passing is allowed, at a penalty)")
            else:
                why = Said("cannot play: passes")
            return Said("{why} and pays 1 chip", why=why) if self.uses_chips else why
        return super().why_legal(view, move)

    def may_pass(self, able: bool) -> bool:
        """Whether a seat may pass: only when it cannot play, unless passes are penalized."""
        return not able or self.options.get("passing", 0) == 1

    def legal_moves(self, view: FanTanView) -> list[Move]:
        if view.result is not None or not has_turn(view):
            return []
        moves = [Move.play(c) for c in self._playable_in(view.hand, view.rows, view.opening)]
        if self.may_pass(bool(moves)):
            moves.append(Move.pass_())
        return moves

    # -- playing -----------------------------------------------------------------

    def apply(self, state: FanTanState, seat: int, move: Move, shuffle: Shuffler) -> tuple[FanTanState, list[Event]]:
        check_turn(state, seat, move)
        illegal = refuser(move, seat)
        hand = state.hands[seat]
        if move.kind == "play":
            assert move.card is not None  # a play names its card (every declaration of "play" requires it)
            problem = self._why_not(move.card, hand=hand, rows=state.rows, opening=state.opening)
            if problem:
                raise illegal(problem)
            if move.suit is not None:
                raise illegal(Said("{game} names no suit", game=self.title))
            return self._play(state, seat, move.card)
        if move.kind == "pass":
            able = self._playable_in(hand, state.rows, state.opening)
            if not self.may_pass(bool(able)):
                raise illegal(Said("you must play when you can, and {card} can be played", card=able[0]))
            moves = [ChipMove("pass", seat, None, 1)] if self.uses_chips else []
            if able:
                moves += self.pass_penalties(state, seat)
            state = replace(state, turn=(seat + 1) % state.seats, **paid(state, moves))
            return state, [m.to_event(state.hand) for m in moves]
        raise illegal(Said("{game} has no move {kind}: play a card or pass", game=self.title, kind=repr(move.kind)))

    def pass_penalties(self, state: FanTanState, seat: int) -> list[ChipMove]:
        """What a seat pays for passing when it could have played (only with ``passing=1``)."""
        return []

    def place(self, state: FanTanState, card: Card) -> tuple[dict[str, Any], bool]:
        """The state's fields that change when ``card`` is put down, and whether its
        player acts again (to lead a new suit)."""
        raise NotImplementedError

    def _play(self, state: FanTanState, seat: int, card: Card) -> tuple[FanTanState, list[Event]]:
        hands = state.hands[:seat] + (_remove(state.hands[seat], card),) + state.hands[seat + 1 :]
        changes, again = self.place(state, card)
        # One replace per move: the engine replays whole sessions in the verifier.
        if hands[seat]:
            return replace(state, hands=hands, turn=seat if again else (seat + 1) % state.seats, **changes), []
        return self._out(replace(state, hands=hands, **changes), seat)

    def _out(self, state: FanTanState, winner: int) -> tuple[FanTanState, list[Event]]:
        counts = tuple(len(h) for h in state.hands)
        moves: list[ChipMove] = []
        if self.uses_chips:
            if self.pays_cards_left:
                around = [(winner + i) % state.seats for i in range(1, state.seats)]
                moves += [ChipMove("cards-left", s, None, counts[s]) for s in around if counts[s]]
            pot = state.pot + sum(m.amount for m in moves)
            if pot:
                moves.append(ChipMove("pot", None, winner, pot))
        changes = paid(state, moves)
        scores = (
            changes.get("net", state.net) if self.uses_chips else tuple(int(s == winner) for s in range(state.seats))
        )
        return replace(state, turn=None, result=went_out(winner, counts, scores), **changes), [
            m.to_event(state.hand) for m in moves
        ]

    # -- the heuristic bot ------------------------------------------------------

    def heuristic_move(self, view: FanTanView, moves: Sequence[Move]) -> Move:
        """The heuristic bot's move: see :func:`fan_tan_choice`."""
        return fan_tan_choice(self, view, moves)

    # -- the table's timer -------------------------------------------------------

    def auto_move(self, state: FanTanState) -> Move:
        """What the table plays for a seat whose timer ran out: its lowest playable card
        in card order (clubs A to K, then diamonds, hearts, spades), else a pass.
        A timed-out seat never passes when it could play."""
        able = self._playable_in(state.hands[seat_to_act(state)], state.rows, state.opening)
        return Move.play(able[0]) if able else Move.pass_()

    # -- reporting -----------------------------------------------------------------

    def summary(self, state: FanTanState) -> FanTanSummary:
        return FanTanSummary(
            deal=state.dealt,
            hand=state.hand,
            rows=state.rows,
            chips=state.chips,
            opening=state.opening,
            leads=state.leads,
        )

    def describe_table(self, before: FanTanState, after: FanTanState, names: SeatNames) -> str:
        return f"; rows {describe_rows(after.rows)}"


def describe_rows(rows: Sequence[Row | None]) -> str:
    """A Fan Tan table, each suit's row by its two end cards: ``♣ 2♣-Q♣, ♦ none, ...``."""
    return ", ".join(
        f"{suit.symbol} {'none' if row is None else '-'.join(card.display for card in row)}"
        for suit, row in zip(Suit, rows)
    )


def chip_lines(hand: int, chips: Sequence[ChipMove], names: SeatNames) -> list[str]:
    """The report's lines for a hand's chip movements, in order (the chip games)."""
    return [f"  {describe_chips(m.to_event(hand), names)}" for m in chips]


@dataclass(frozen=True, kw_only=True)
class FanTanSummary(HandSummary):
    """A hand of the Fan Tan family: the deal, the rows at the end, every chip movement,
    the rank that opened the rows (Five or Nine), the cards that began each suit (the
    sequence games).

    >>> from fairdeal.rules.summary import SeatNames
    >>> row = (Card.parse("2C"), Card.parse("QC"))
    >>> summary = FanTanSummary(deal=((),), hand=1, rows=(row, None, None, None), chips=(ChipMove("pass", 0, None, 1),))
    >>> summary.lines(SeatNames(("Ann",)))[1:]
    ['  chips: pass: 1 from seat 0 (Ann) to pot', '  rows at the end: ♣ 2♣-Q♣, ♦ none, ♥ none, ♠ none']
    """

    hand: int
    rows: tuple[Row | None, ...]
    chips: tuple[ChipMove, ...] = ()
    opening: Rank | None = None
    leads: tuple[Card, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out = {**super().to_json(), "rows": _rows_json(self.rows), "chips": [m.to_event(self.hand) for m in self.chips]}
        if self.opening is not None:
            out["opening"] = self.opening.label
        if self.leads:
            out["leads"] = codes(self.leads)
        return out

    def lines(self, names: SeatNames) -> list[str]:
        out = super().lines(names) + chip_lines(self.hand, self.chips, names)
        if self.opening is not None:
            out.append(f"  opening rank: {safe(self.opening.label)}")
        if self.leads:
            out.append(f"  suits begun with: {display(self.leads)}")
        out.append(f"  rows at the end: {describe_rows(self.rows)}")
        return out


def paid(state: Any, moves: Sequence[ChipMove]) -> dict[str, Any]:
    """The fields of a state with a pot (the Fan Tan and Snip Snap games') that the chip
    movements ``moves`` change: the seats' ``net``, the ``pot``, the list of ``chips``.

    >>> state = FanTanState(1, 0, ((), ()), (None,) * 4, None, 0, net=(0, 0))
    >>> paid(state, [ChipMove("ante", 0, None, 1), ChipMove("pot", None, 1, 1)])["net"]
    (-1, 1)
    """
    if not moves:
        return {}
    net, pot = list(state.net), state.pot
    for m in moves:
        # A pot game's chips go between the seats and the pot: no layout card pays or is paid.
        assert not isinstance(m.payer, str) and not isinstance(m.payee, str)
        if m.payer is None:
            pot -= m.amount
        else:
            net[m.payer] -= m.amount
        if m.payee is None:
            pot += m.amount
        else:
            net[m.payee] += m.amount
    return {"net": tuple(net), "pot": pot, "chips": state.chips + tuple(moves)}


# -- the sevens games: a row per suit, built both ways from its opening card ---------


@functools.lru_cache(maxsize=4096)
def _sevens_playable(
    order: tuple[Rank, ...], openers: tuple[Rank, ...], rows: tuple[Row | None, ...], opening: Rank | None
) -> frozenset[Card]:
    # Cached: a replay asks this of the same table for legal_moves, apply and explain.
    cards: set[Card] = set()
    for suit, row in zip(Suit, rows):
        if row is None:
            cards.update(Card(r, suit) for r in ((opening,) if opening else openers))
            continue
        low, high = order.index(row[0].rank), order.index(row[1].rank)
        if low > 0:
            cards.add(Card(order[low - 1], suit))
        if high < len(order) - 1:
            cards.add(Card(order[high + 1], suit))
    return frozenset(cards)


class SevensGame(FanTanFamily):
    """Fan Tan, Sjueren, Five or Nine: a row per suit, opened by the opening rank and built
    one card at a time down and up from it, in the game's :attr:`order`."""

    order: ClassVar[tuple[Rank, ...]] = ACE_LOW
    """A suit's cards from the lowest end of a row to the highest."""
    openers: ClassVar[tuple[Rank, ...]] = (Rank.SEVEN,)
    """The ranks the first card of the deal may have; it fixes the opening rank."""

    def initial_opening(self) -> Rank | None:
        return self.openers[0] if len(self.openers) == 1 else None

    def check_rows(self, state: FanTanState) -> None:
        opening = state.opening
        if opening is None:
            if len(self.openers) == 1:
                raise PositionError(f"the rows of {self.title} open with {self.openers[0].letter}", field="opening")
            begun = [suit for suit, row in zip(Suit, state.rows) if row is not None]
            if begun:
                raise PositionError("no opening rank, yet a row is begun: the first card fixes it", field="opening")
        elif opening not in self.openers:
            raise PositionError(
                f"{opening.letter} does not open the rows of {self.title}: {', '.join(r.letter for r in self.openers)}",
                field="opening",
            )
        for suit, row in zip(Suit, state.rows):
            if row is None:
                continue
            low, high = self.position(row[0].rank), self.position(row[1].rank)
            if low > high:
                raise PositionError(
                    f"a row is given by its low end, then its high end: {row[0]} lies above {row[1]}",
                    field=f"rows[{suit}]",
                )
            if opening is not None and not low <= self.position(opening) <= high:
                raise PositionError(
                    f"the {suit.plural} row {row[0]}-{row[1]} does not hold its opening card {Card(opening, suit)}",
                    field=f"rows[{suit}]",
                )
        if state.leads:
            raise PositionError(f"{self.title} has no leads (rows open with their opening card)", field="leads")

    def position(self, rank: Rank) -> int:
        """Where ``rank`` stands in the game's :attr:`order`, 0 (the lowest end) to 12."""
        return self.order.index(rank)

    def playable(self, rows: Sequence[Row | None], opening: Rank | None) -> frozenset[Card]:
        return _sevens_playable(self.order, self.openers, tuple(rows), opening)

    def row_cards(self, row: Row) -> tuple[Card, ...]:
        """The row's cards from its low end up, in the game's :attr:`order` (Sjueren's ace last).

        >>> [c.code for c in Sjueren().row_cards((Card.parse("QH"), Card.parse("AH")))]
        ['QH', 'KH', 'AH']
        """
        low, high = self.position(row[0].rank), self.position(row[1].rank)
        return tuple(Card(rank, row[0].suit) for rank in self.order[low : high + 1])

    def why_not(self, card: Card, rows: Sequence[Row | None], opening: Rank | None, hand: Sequence[Card]) -> str:
        if opening is None:
            ranks = or_words([Said("a {rank}", rank=rank.label) for rank in self.openers])
            return Said("the first card must be {ranks}", ranks=ranks)
        row = rows[card.suit]
        # The card waits for its neighbour on the side of the row's opening card.
        step = 1 if self.position(card.rank) < self.position(opening) else -1
        needed = Card(self.order[self.position(card.rank) + step], card.suit)
        if row is None and needed.rank != opening:
            return Said(
                "{card} needs {needed} on the table (the {suit} row opens with {opener})",
                card=card,
                needed=needed,
                suit=suit_words(card.suit),
                opener=Card(opening, card.suit),
            )
        return needs(card, needed)

    def on_table(self, card: Card, rows: Sequence[Row | None]) -> str | None:
        row = rows[card.suit]
        if row is None:
            return None
        low, high = self.position(row[0].rank), self.position(row[1].rank)
        if not low <= self.position(card.rank) <= high:
            return None
        last = len(self.order) - 1
        if (card is row[1] and high == last) or (card is row[0] and low == 0):
            return Said("the {suit} row is closed at {card}", suit=suit_words(card.suit), card=card)
        return on_the_table(card)

    def place(self, state: FanTanState, card: Card) -> tuple[dict[str, Any], bool]:
        row = state.rows[card.suit]
        if row is None:
            row = (card, card)
        elif self.position(card.rank) < self.position(row[0].rank):
            row = (card, row[1])
        else:
            row = (row[0], card)
        rows = state.rows[: card.suit] + (row,) + state.rows[card.suit + 1 :]
        return {"rows": rows, "opening": state.opening or card.rank}, False


class FanTan(SevensGame):
    """Fan Tan (Parliament) with chips: 3 to 8 players, K high and A low, sevens open the rows.

    Options: ``deals`` (deals in the session; 0, the default: each player deals once),
    ``stack`` (each player's chips at the start, default 50) and ``passing``
    (0, the default: play is compulsory; 1: a seat may pass though able to play,
    and pays the irregularity penalties).

    The Hoyle text's penalty: passing when able costs the pass chip and three more;
    holding a seven then costs five chips to the holder of its six and five to the
    holder of its eight.

    >>> rules = FanTan({"passing": 1})
    >>> unshuffled = lambda label, cards: list(cards)
    >>> state, _ = rules.deal(3, dealer=0, hand=1, shuffle=unshuffled)
    >>> [c.code for c in state.hands[1] if c.rank == Rank.SEVEN], state.turn
    (['7C', '7S'], 1)
    >>> state, events = rules.apply(state, 1, Move.pass_(), unshuffled)
    >>> [(e["reason"], e["from"], e["to"], e["amount"]) for e in events]
    [('pass', 1, 'pot', 1), ('penalty', 1, 'pot', 3), ('held-seven', 1, 0, 5), ('held-seven', 1, 2, 5), ('held-seven', 1, 0, 5), ('held-seven', 1, 2, 5)]
    """

    name = "fan-tan"
    lobby_order = 70
    title = "Fan Tan"
    summary_line = "Build the suits out from the sevens; pay a chip for every pass."
    OPTIONS = (
        DEALS,
        stack("chips"),
        Option(
            "passing",
            0,
            0,
            1,
            help="whether a seat that can play may pass",
            choices={0: "play is compulsory", 1: "a pass when able is penalized"},
        ),
    )
    antes = True

    def pass_penalties(self, state: FanTanState, seat: int) -> list[ChipMove]:
        moves = [ChipMove("penalty", seat, None, 3)]
        holder = {card: s for s, hand in enumerate(state.hands) for card in hand}
        for seven in sorted(c for c in state.hands[seat] if c.rank == Rank.SEVEN):
            for rank in (Rank.SIX, Rank.EIGHT):
                other = holder[Card(rank, seven.suit)]
                if other != seat:
                    moves.append(ChipMove("held-seven", seat, other, 5))
        return moves


class FiveOrNine(SevensGame):
    """Five or Nine: Fan Tan where the first card played, a five or a nine, fixes the rank
    that opens every row of the deal; rows build from it down to the ace and up to the king.

    Options: ``deals`` and ``stack`` as in Fan Tan; play is compulsory.
    """

    name = "five-or-nine"
    lobby_order = 90
    title = "Five or Nine"
    summary_line = "Fan Tan opened by a five or a nine, built up and down from it."
    antes = True
    openers = (Rank.FIVE, Rank.NINE)


class Sjueren(SevensGame):
    """Sjueren, the Norwegian Fan Tan: 3 to 6 players, the ace above the king, no chips;
    the first out wins the round, and a session counts rounds won.

    Options: ``deals`` (rounds in the session; 0, the default: each player deals once).

    >>> rules = Sjueren()
    >>> row = (Card.parse("6H"), Card.parse("9H"))
    >>> sorted(c.code for c in rules.playable((None, None, row, None), Rank.SEVEN))
    ['5H', '7C', '7D', '7S', 'TH']
    """

    name = "sjueren"
    lobby_order = 80
    title = "Sjueren"
    summary_line = "The Norwegian sevens: rows built from the sevens, aces high; rounds won, no chips."
    max_seats = 6
    OPTIONS = (DEALS,)
    unit = "deals"
    uses_chips = False
    order = ACE_HIGH


# -- the sequence games: one suit at a time, upward from any card, round the corner ----


def _row_length(row: Row) -> int:
    return (row[1].rank - row[0].rank) % 13 + 1


def _following(card: Card) -> Card:
    """The card after ``card`` in its suit's continuous order: ..., Q, K, A, 2, ..."""
    return Card(card.rank % 13 + 1, card.suit)


@functools.lru_cache(maxsize=4096)
def _sequence_playable(rows: tuple[Row | None, ...]) -> frozenset[Card] | None:
    row = SequenceGame.current(rows)
    return None if row is None else frozenset((_following(row[1]),))


class SequenceGame(FanTanFamily):
    """Play or Pay and Liberty Fan-Tan: no new suit until all 13 cards of the current one are down."""

    def check_rows(self, state: FanTanState) -> None:
        if state.opening is not None:
            raise PositionError(f"{self.title} has no opening rank: any card leads a suit", field="opening")
        begun = [row for row in state.rows if row is not None]
        firsts = sorted(row[0] for row in begun)
        if sorted(state.leads) != firsts or len(set(state.leads)) != len(state.leads):
            raise PositionError(
                f"the leads are the first cards of the rows begun ({' '.join(map(str, firsts)) or 'none'}), in the order led",
                field="leads",
            )
        building = [row for row in begun if _row_length(row) < 13]
        if len(building) > 1:
            raise PositionError(
                f"two suits are being built ({building[0][0].suit.plural} and {building[1][0].suit.plural}): no new suit until all 13 are down",
                field="rows",
            )
        if building and state.leads[-1] is not building[0][0]:
            raise PositionError(
                f"the suit being built, {building[0][0].suit.plural}, was not the last led", field="leads"
            )

    @staticmethod
    def current(rows: Sequence[Row | None]) -> Row | None:
        """The row being built: begun and not yet 13 cards long (``None``: the next card leads)."""
        for row in rows:
            if row is not None and _row_length(row) < 13:
                return row
        return None

    def playable(self, rows: Sequence[Row | None], opening: Rank | None) -> frozenset[Card] | None:
        return _sequence_playable(tuple(rows))

    def row_cards(self, row: Row) -> tuple[Card, ...]:
        """The row's cards from the one led, round the corner (..., K, A, 2, ...).

        >>> [c.code for c in PlayOrPay().row_cards((Card.parse("QH"), Card.parse("2H")))]
        ['QH', 'KH', 'AH', '2H']
        """
        cards = [row[0]]
        while len(cards) < _row_length(row):
            cards.append(_following(cards[-1]))
        return tuple(cards)

    def why_not(self, card: Card, rows: Sequence[Row | None], opening: Rank | None, hand: Sequence[Card]) -> str:
        row = self.current(rows)
        assert row is not None
        wanted = _following(row[1])
        if wanted in hand:
            return Said("you must follow with {card}", card=wanted)
        if card.suit != wanted.suit:
            return Said(
                "no new suit until all 13 {suits} are down: the next card is {card}",
                suits=suit_words(wanted.suit),
                card=wanted,
            )
        return needs(card, wanted)

    def on_table(self, card: Card, rows: Sequence[Row | None]) -> str | None:
        row = rows[card.suit]
        if row is None or (card.rank - row[0].rank) % 13 >= _row_length(row):
            return None
        if _row_length(row) == 13:
            return Said("all 13 {suits} are down", suits=suit_words(card.suit))
        return on_the_table(card)

    def place(self, state: FanTanState, card: Card) -> tuple[dict[str, Any], bool]:
        row = state.rows[card.suit]
        leads = state.leads
        if row is None:
            row, leads = (card, card), leads + (card,)
        else:
            row = (row[0], card)
        rows = state.rows[: card.suit] + (row,) + state.rows[card.suit + 1 :]
        # Whoever puts down a suit's 13th card begins the next suit.
        return {"rows": rows, "leads": leads}, _row_length(row) == 13


class PlayOrPay(SequenceGame):
    """Play or Pay: the first player leads any card; each next player plays the next card
    of that suit (..., K, A, 2, ...) or pays a chip; whoever plays a suit's 13th card leads
    a new suit. When a player goes out, every other player pays a chip per card left and
    the winner takes the pot.

    Options: ``deals`` and ``stack`` as in Fan Tan.
    """

    name = "play-or-pay"
    lobby_order = 100
    title = "Play or Pay"
    summary_line = "Lead any card; each suit goes on in sequence. Pay a chip when you cannot play."


class LibertyFanTan(SequenceGame):
    """Liberty Fan-Tan: Play or Pay's play, but the winner takes only the chips paid for passes.

    Options: ``deals`` and ``stack`` as in Fan Tan.
    """

    name = "liberty-fan-tan"
    lobby_order = 110
    title = "Liberty Fan-Tan"
    summary_line = "Play or Pay's runs round the suit, with the skill of the lead."
    pays_cards_left = False


# -- the heuristic bot ----------------------------------------------------------


def fan_tan_choice(rules: FanTanFamily, view: FanTanView, moves: Sequence[Move]) -> Move:
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
    >>> rules = get("liberty-fan-tan")  # the text's example: with K-9-8-2 of spades, lead the 9
    >>> view = FanTanView(0, 1, 3, tuple(parse_cards("KS 9S 8S 2S 3H 5D")), (6, 6, 6, 6),
    ...     (None,) * 4, None, 0, 0, (0,) * 4, None)
    >>> fan_tan_choice(rules, view, rules.legal_moves(view))
    Move.play(Card.parse('9S'))
    """
    plays = [m.card for m in moves if m.kind == "play" and m.card is not None]
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
    if not isinstance(rules, SevensGame):  # a game of the family that is neither (a plugin's): its lowest card
        return Move.play(min(plays))
    # The sevens games' rows build out from the opening rank.

    def reach(card: Card) -> int:
        mine = [rules.position(c.rank) for c in hand if c.suit == card.suit and c is not card]
        if view.rows[card.suit] is None:
            return len(mine)
        assert view.opening is not None  # a row is begun: its card fixed the opening rank
        here, opening = rules.position(card.rank), rules.position(view.opening)
        return sum(1 for p in mine if (p > here if here > opening else p < here))

    return Move.play(max(plays, key=lambda c: (reach(c), -c.index)))
