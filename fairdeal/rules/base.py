"""What every Stops game shares: moves, illegal moves, hand results, and the rules protocol.

A rules object is a game with its options. It is pure: it takes a state
and a move and gives the next state (plus the public events the table saw
happen), or raises :class:`IllegalMove`. Randomness enters only through the
``shuffle`` it is handed, a :data:`Shuffler` backed by fairness protocol v1.
"""

from __future__ import annotations

import abc
import json
import sys
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import Protocol
from typing import TypedDict
from typing import TypeVar

from fairdeal.cards import Card
from fairdeal.cards import Rank
from fairdeal.cards import codes
from fairdeal.rules.copying import fast_replace
from fairdeal.rules.copying import fast_update
from fairdeal.rules.move import BASIC
from fairdeal.rules.move import Move
from fairdeal.rules.move import MoveError
from fairdeal.rules.move import MoveKind
from fairdeal.rules.move import declared
from fairdeal.rules.summary import HandResult
from fairdeal.rules.summary import HandSummary
from fairdeal.rules.summary import SeatNames
from fairdeal.rules.summary import describe_chips
from fairdeal.rules.summary import display
from fairdeal.rules.summary import drawn_words
from fairdeal.rules.summary import safe
from fairdeal.said import Said
from fairdeal.said import seats_words
from fairdeal.said import suit_words

__all__ = [
    "fast_replace",  # (fairdeal.rules.copying's: the rules import them from here)
    "fast_update",
    "Event",
    "stream_bytes",
    "HandResult",
    "HandState",
    "SeatView",
    "GameState",
    "GameView",
    "Turn",
    "WHOLE_PACK",
    "check_turn",
    "refuser",
    "deal_hands",
    "lowest_count_wins",
    "seat_fields",
    "seat_to_act",
    "suit_counts",
    "turn_problem",
    "went_out",
    "out_words",
    "not_held",
    "HAND_OVER",
    "NOT_YOUR_TURN",
    "IllegalMove",
    "Layout",
    "Option",
    "Move",
    "MoveError",
    "OptionsError",
    "Rules",
    "ScoreSheet",
    "Secret",
    "TableJSON",
    "Shuffler",
    "Standing",
    "Outcome",
    "standings",
    "standings_json",
]

Shuffler = Callable[[str, Sequence[Card]], list[Card]]
"""``shuffle(label, cards)``: the protocol's shuffle under the game's key."""

Event = dict[str, Any]
"""A public fact for the record, JSON-ready (cards as codes)."""


def suit_counts(cards: Iterable[Card]) -> list[int]:
    """How many of ``cards`` are of each suit, clubs first (a hand's long suit, for a bot or the timer).

    >>> suit_counts([Card.parse(c) for c in ("2H", "5H", "KS")])
    [0, 0, 2, 1]
    """
    counts = [0, 0, 0, 0]
    for card in cards:
        counts[card.suit] += 1
    return counts


def deal_hands(
    order: Sequence[Card], seats: int, dealer: int, size: int | None = None
) -> tuple[tuple[tuple[Card, ...], ...], list[Card]]:
    """Deal ``size`` cards to each seat from the top of ``order``, one at a time, clockwise
    from the dealer's left (protocol v1, step 11); the hands in seat order and the rest.
    Without a ``size`` every card is dealt (the seats first dealt to may get one card more).

    >>> from fairdeal.cards import pack
    >>> hands, rest = deal_hands(pack()[:7], 3, dealer=2, size=2)
    >>> [" ".join(c.code for c in h) for h in hands], rest
    (['AC 4C', '2C 5C', '3C 6C'], [Card.parse('7C')])
    >>> [len(h) for h in deal_hands(pack(), 5, dealer=0)[0]]
    [10, 11, 11, 10, 10]
    """
    if size is None:
        size = -(-len(order) // seats)
    first = (dealer + 1) % seats
    # Card i goes to seat first + i.
    hands = tuple(tuple(order[(seat - first) % seats : size * seats : seats]) for seat in range(seats))
    return hands, list(order[size * seats :])


def stream_bytes(shuffle: Shuffler, label: str, n: int) -> bytes:
    """The first ``n`` bytes of ``label``'s stream from the fair dealer that ``shuffle`` is
    (:class:`fairdeal.fairness.GameShuffle`): how a game draws a secret (an Eleusis round's
    rule nonce) that follows from the seed like every card. A plain shuffle function (a
    test's) has no stream: ``TypeError``.

    >>> from fairdeal.fairness import GameShuffle, game_key
    >>> stream_bytes(GameShuffle(game_key("00" * 32, "demo", [])), "hand/1/rule-nonce", 8).hex()
    'cd054dd52ed5f1ee'
    """
    read: Callable[[str, int], bytes] | None = getattr(shuffle, "stream_bytes", None)
    if read is None:
        raise TypeError("this game draws from the fair dealer's stream: give it a fairdeal.fairness.GameShuffle")
    return read(label, n)


class IllegalMove(ValueError):
    """A move the rules do not allow now, with a reason a person understands (a
    :class:`~fairdeal.said.Said`, to be said in another language too; so is the message).

    >>> error = IllegalMove(Said("it is not your turn"), move=Move.draw(), seat=2)
    >>> str(error), str(error).template
    ('illegal move draw by seat 2: it is not your turn', 'illegal move {move} by seat {seat}: {reason}')
    """

    def __init__(self, reason: str, *, move: Move | None = None, seat: int | None = None) -> None:
        self.reason = reason
        self.move = move
        self.seat = seat
        if move is None:
            said = Said("illegal move: {reason}", reason=reason)
        elif seat is None:
            said = Said("illegal move {move}: {reason}", move=str(move), reason=reason)
        else:
            said = Said("illegal move {move} by seat {seat}: {reason}", move=str(move), seat=seat, reason=reason)
        super().__init__(said)


class OptionsError(ValueError):
    """Rules options or a seat count the game does not support."""


@dataclass(frozen=True, slots=True)
class Option:
    """One option a game takes: a whole number with a default and a range.

    ``choices`` names what each value means when the option is a choice
    (``partners``: 0 every player for himself, 1 partnerships); ``low_means``
    says what the low end of a range stands for.

    >>> DEALS.check(0), DEALS.to_json()["low_means"]
    (0, 'each player deals once')
    >>> Option("passing", 0, 0, 1, choices={0: "play is compulsory", 1: "a pass when able is penalized"}).check(2)
    Traceback (most recent call last):
    ...
    fairdeal.rules.base.OptionsError: passing must be 0 (play is compulsory) or 1 (a pass when able is penalized)
    """

    name: str
    default: int
    low: int
    high: int
    """The most a new table may set (the catalogue's ``max``)."""
    unit: str = ""
    help: str = ""
    low_means: str = ""
    choices: Mapping[int, str] | None = None
    record_high: int | None = None
    """The most a record may hold, when more than ``high``: the maximum of an earlier version,
    kept so that the records it let tables write still verify (``None``: ``high``)."""

    def check(self, value: Any, *, new: bool = False) -> int:
        """``value`` if a record may hold it (``new``: if a new table may set it), else
        :class:`OptionsError` saying why.

        >>> TARGET.check(100_000), TARGET.check(1000, new=True)
        (100000, 1000)
        >>> TARGET.check(100_000, new=True)
        Traceback (most recent call last):
        ...
        fairdeal.rules.base.OptionsError: target must be between 1 and 1000 points
        """
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionsError(f"option {self.name!r} must be an integer, not {value!r}")
        if self.choices is not None:
            if value not in self.choices:
                said = " or ".join(f"{v} ({meaning})" for v, meaning in self.choices.items())
                raise OptionsError(f"{self.name} must be {said}")
        elif not self.low <= value <= self._top(new):
            top = self._top(new)
            bottom = f"{self.low} ({self.low_means})" if self.low_means else str(self.low)
            raise OptionsError(f"{self.name} must be between {bottom} and {top}{' ' + self.unit if self.unit else ''}")
        return value

    def _top(self, new: bool) -> int:
        return self.high if new or self.record_high is None else self.record_high

    def to_json(self) -> dict[str, Any]:
        """The option as the catalogue (``GET /rules``, spec/games.json) shows it."""
        out: dict[str, Any] = {
            "name": self.name,
            "type": "integer",
            "default": self.default,
            "min": self.low,
            "max": self.high,
        }
        if self.unit:
            out["unit"] = self.unit
        if self.help:
            out["help"] = self.help
        if self.low_means:
            out["low_means"] = self.low_means
        if self.choices is not None:
            out["choices"] = {str(v): meaning for v, meaning in self.choices.items()}
        return out


TARGET = Option("target", 100, 1, 1000, "points", help="the total that ends the match", record_high=100_000)
"""The points games' target: the match ends when a total reaches it. A new table's is at most 1000
(ten times the usual 100: a longer match is a table played forever); records of the earlier
maximum, 100000, still verify."""
DEALS = Option("deals", 0, 0, 50, help="deals in the session", low_means="each player deals once", record_high=1000)
"""The session games' length: 0 is one deal per player. A new table's is at most 50 deals; records
of the earlier maximum, 1000, still verify."""
PARTNERS = Option(
    "partners",
    1,
    0,
    1,
    help="partnerships at four seats",
    choices={0: "every player for himself", 1: "four players play as two partnerships"},
)


def stack(unit: str) -> Option:
    """Each seat's chips or counters at the start of a session."""
    return Option("stack", 50, 0, 1_000_000, unit, help=f"each player's {unit} at the start")


@dataclass(frozen=True, slots=True)
class Layout:
    """How a game deals a hand: what the catalogue tells a table or a reader before any card.

    ``packs`` full packs are shuffled together (``two_packs_from``: two from that many seats
    on); ``removed`` cards are taken out first and ``cut_down`` says how a pack is cut to the
    seats; ``hands`` says how many cards each seat gets; ``extra`` names a hand dealt besides
    the seats' (an ``"extra hand"``, a ``"dead hand"``, ``"stops"``); ``stock`` and
    ``starter`` say whether undealt cards make a stock to draw from and one is turned up.
    """

    hands: str
    packs: int = 1
    two_packs_from: int | None = None
    removed: tuple[str, ...] = ()
    cut_down: str = ""
    extra: str | None = None
    stock: bool = False
    starter: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "packs": self.packs,
            "two_packs_from": self.two_packs_from,
            "removed": list(self.removed),
            "cut_down": self.cut_down or None,
            "extra": self.extra,
            "stock": self.stock,
            "starter": self.starter,
        }


WHOLE_PACK = Layout(hands="the whole pack, dealt round (some seats may get one card more)")
"""The layout of the games that deal every card, a seat at a time (:func:`deal_hands` with no
size): the Fan Tan games, the Snip Snap games, Sequence."""


@dataclass(frozen=True, slots=True)
class Secret:
    """What a game commits to in a hand and reveals at its end, declared by the game
    (:attr:`Rules.secret`); the drivers (the table, the service, the verifier) read this and
    know nothing else of it. Eleusis's dealer's rule is the first:
    ``Secret("rule", move="rule", commitment="rule-commitment", reveal="rule-reveal", digest=rule_commitment)``.

    A seat's move of kind :attr:`move` carries the secret as its text; the move's record line
    never does (:meth:`Move.to_json`). The game's own events commit to it, a line of type
    :attr:`commitment` ``{"hand", "commitment"}``, and reveal it, a line of type :attr:`reveal`
    ``{"hand", <noun>: secret, "nonce"}``, whose ``digest(secret, nonce)`` must be the
    commitment. Until the reveal a server keeps the secret sealed beside the record
    (:attr:`fairdeal.table.Table.secret`), and the verifier reads each hand's secret from its
    reveal before it replays the hand's moves.

    >>> from fairdeal.fairness import rule_commitment
    >>> secret = Secret("rule", move="rule", commitment="rule-commitment", reveal="rule-reveal", digest=rule_commitment)
    >>> secret.carried(Move.parse("rule x != y")), secret.carried(Move.draw())
    ('x != y', None)
    >>> secret.restored(Move.parse("rule"), "x != y")
    Move.parse('rule x != y')
    """

    noun: str
    """What the game calls it (``"rule"``): the reveal line's field, and the verifier's word for it."""
    move: str
    """The kind of move that gives it."""
    commitment: str
    """The type of the line that commits to it."""
    reveal: str
    """The type of the line that reveals it."""
    digest: Callable[[str, str], str]
    """``digest(secret, nonce)``: the commitment to a secret with its nonce (64 hex digits)."""

    def carried(self, move: Move) -> str | None:
        """The secret ``move`` gives (its kind's secret field), or ``None`` for a move that gives none."""
        return move.get(self._field()) if move.kind == self.move else None

    def restored(self, move: Move, secret: str) -> Move:
        """``move`` as made, from its record form (without the secret) and the secret."""
        return Move.of(move.kind, {self._field(): secret})

    def _field(self) -> str:
        """The name of the field of :attr:`move` that its declaration marks secret."""
        return next(f.name for f in declared(self.move).fields if f.secret)


def went_out(seat: int, counts: Sequence[int], scores: Sequence[int] | None = None) -> HandResult:
    """The result of a hand that ``seat`` ended by playing its last card, ``counts`` being what
    each hand holds then: ``seat`` scores ``scores``' share, by default all the points left in
    the other hands (and the others nothing).

    >>> went_out(1, (7, 0, 12))
    HandResult(how='out', winners=(1,), counts=(7, 0, 12), scores=(0, 19, 0), reason='seat 1 went out')
    """
    if scores is None:
        scores = tuple(sum(counts) if s == seat else 0 for s in range(len(counts)))
    return HandResult("out", (seat,), tuple(counts), tuple(scores), out_words((seat,)))


def out_words(seats: Sequence[int]) -> Said:
    """The reason of a hand that ``seats`` ended by going out (a side: both partners).

    >>> out_words((0, 2))
    'seats 0 and 2 went out'
    """
    return Said("{seats} went out", seats=seats_words(seats))


def lowest_count_wins(counts: Sequence[int], reason: str) -> HandResult:
    """The result of a blocked hand that the seats tied on the lowest count win, each scoring
    what all the counts are above that lowest one.

    >>> lowest_count_wins((7, 3, 3, 10), "everyone passed in turn")
    HandResult(how='blocked', winners=(1, 2), counts=(7, 3, 3, 10), scores=(0, 11, 11, 0), reason='everyone passed in turn')
    """
    low = min(counts)
    won = sum(c - low for c in counts)
    winners = tuple(s for s, c in enumerate(counts) if c == low)
    return HandResult("blocked", winners, tuple(counts), tuple(won if c == low else 0 for c in counts), reason)


@dataclass(frozen=True, slots=True)
class HandState:
    """What a game's state of one hand begins with (the first members of its JSON, spec/state.md):
    the hand's number in the match, its dealer, and every seat's cards, hidden ones too. A game's
    state is a frozen, slotted dataclass that adds its own fields to these.

    >>> HandState(hand=1, dealer=0, hands=((), (), ())).seats
    3
    """

    hand: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]

    @property
    def seats(self) -> int:
        return len(self.hands)


class Turn(Protocol):
    """What a game's state and its views both tell: the seat to act (``None`` once the hand is
    over, and in Eleusis while a play awaits the dealer's call) and the hand's result."""

    @property
    def turn(self) -> int | None: ...
    @property
    def result(self) -> HandResult | None: ...


class GameState(Turn, Protocol):
    """What every game's state has, whatever else it holds (:class:`Rules` is generic in its
    state, bound by this): the hand's number, its dealer and every seat's cards. Most states
    begin with :class:`HandState`; a game may build its own (Eleusis does)."""

    @property
    def hand(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]: ...


class GameView(Turn, Protocol):
    """What every game's view has (:class:`Rules` is generic in its view, bound by this): whose
    view it is, that seat's own cards (a spectator's: none) and its JSON form, the seat's own
    members first (:data:`SEAT_OWN`). Most views begin with :class:`SeatView`."""

    @property
    def seat(self) -> int | None: ...
    @property
    def hand(self) -> Sequence[Card]: ...
    def to_json(self) -> dict[str, Any]: ...


StateT = TypeVar("StateT", bound=GameState)
ViewT = TypeVar("ViewT", bound=GameView)


@dataclass(frozen=True, slots=True)
class SeatView:
    """What a game's view of a hand begins with: whose view it is (``seat``; ``None`` for a
    spectator, who sees no hand), the hand's number and dealer, the seat's own cards and how
    many each seat holds. A game's view adds what it shows of the table to these.

    >>> state = HandState(hand=2, dealer=1, hands=((Card.parse("9C"),), ()))
    >>> SeatView(**seat_fields(state, 0)).seat_json()
    {'seat': 0, 'hand_no': 2, 'dealer': 1, 'hand': ['9C'], 'hand_sizes': [1, 0]}
    """

    seat: int | None
    hand_no: int
    dealer: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]

    def seat_json(self) -> dict[str, Any]:
        """The members a view's JSON begins with, cards as codes."""
        return {
            "seat": self.seat,
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "hand": codes(self.hand),
            "hand_sizes": list(self.hand_sizes),
        }


def seat_fields(state: GameState, seat: int | None) -> dict[str, Any]:
    """The :class:`SeatView` fields of ``seat``'s view of ``state`` (``None``: a spectator's), for
    a rules' ``view``; ``ValueError`` for a seat the table does not have (:func:`check_view_seat`)."""
    hands = state.hands
    check_view_seat(seat, len(hands))
    return {
        "seat": seat,
        "hand_no": state.hand,
        "dealer": state.dealer,
        "hand": () if seat is None else hands[seat],
        "hand_sizes": tuple(len(h) for h in hands),
    }


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """A match's running score: what the hands so far have added up to.

    The plain sheet is one total per seat (points, hands won, or chips). A
    game that keeps more (Hollywood scoring keeps three games at once) has a
    sheet of its own that subclasses this one; its ``totals`` are always what
    the standings rank, and :meth:`record` says what a ``hand-end`` line shows
    of it. The rules own the sheet: :meth:`Rules.new_sheet`,
    :meth:`Rules.score_hand` and :meth:`Rules.match_over`.

    >>> sheet = ScoreSheet((0, 0, 0)).add((12, 0, 0))
    >>> sheet.totals, sheet.record()
    ((12, 0, 0), {'totals': [12, 0, 0]})
    """

    totals: tuple[int, ...]

    def add(self, scores: Sequence[int]) -> ScoreSheet:
        """This sheet with a hand's ``scores`` added to the totals."""
        return ScoreSheet(tuple(t + s for t, s in zip(self.totals, scores)))

    def record(self) -> dict[str, Any]:
        """The fields of a ``hand-end`` line that show the sheet after the hand (JSON-ready)."""
        return {"totals": list(self.totals)}

    def describe(self, names: SeatNames) -> list[str]:
        """The text report's lines on what the sheet keeps besides the totals after a hand
        (Michigan: the counters left on the layout); none for a plain sheet."""
        return []

    def table_rows(self) -> list[tuple[str, Sequence[int]]]:
        """Rows by seat the text report shows under the hand's totals (Hollywood scoring:
        each game's scores); none for a plain sheet."""
        return []


class TableJSON(TypedDict):
    """What every game's public table shows (a view's JSON less :data:`SEAT_OWN`); each game's
    own declaration (:attr:`Rules.table_json`) adds its members to these."""

    hand_no: int
    dealer: int
    hand_sizes: list[int]
    turn: int | None


SEAT_OWN = ("seat", "hand", "pending")
"""The members of a view's JSON (``view.to_json()``) that are its seat's own, where a game has
them: ``seat``, ``hand`` (its cards) and ``pending`` (a card it drew and must play or keep, as
a code, or ``null``); the rest is the public table, which a spectator sees too. A game's own
state of the table goes under other names (Eleusis's play awaiting a call is ``awaiting``)."""


def check_view_seat(seat: int | None, seats: int) -> None:
    """For a rules' ``view``: ``seat`` must be a spectator's (``None``) or one of the ``seats``
    (a negative seat would index another seat's hand from the end).

    >>> check_view_seat(4, 4)
    Traceback (most recent call last):
    ...
    ValueError: there is no seat 4 at this 4-seat table
    """
    if seat is not None and not 0 <= seat < seats:
        raise ValueError(f"there is no seat {seat!r} at this {seats}-seat table")


def has_turn(view: GameView) -> bool:
    """Whether a view's seat is the seat to act (a spectator's view never is)."""
    return view.seat is not None and view.seat == view.turn


def turn_problem(view: GameView) -> str | None:
    """Why the seat whose ``view`` this is may make no move now, whatever it holds: the hand is
    over, or it is not its turn; ``None`` when it is its turn (a rules' ``explain`` asks first).

    >>> from types import SimpleNamespace
    >>> turn_problem(SimpleNamespace(seat=0, turn=1, result=None)), turn_problem(SimpleNamespace(seat=1, turn=1, result=None))
    ('it is not your turn', None)
    """
    if view.result is not None:
        return HAND_OVER
    if not has_turn(view):
        return NOT_YOUR_TURN
    return None


HAND_OVER = Said("the hand is over")
NOT_YOUR_TURN = Said("it is not your turn")


def not_held(card: Card) -> Said:
    """Why a seat cannot play ``card``, which it does not hold.

    >>> not_held(Card.parse("TC"))
    'you do not hold 10♣'
    """
    return Said("you do not hold {card}", card=card)


def check_turn(state: Turn, seat: int, move: Move) -> None:
    """For a rules' ``apply``: refuse ``move`` when the hand is over or it is not ``seat``'s turn.

    >>> from types import SimpleNamespace
    >>> check_turn(SimpleNamespace(result=None, turn=2), 0, Move.draw())
    Traceback (most recent call last):
    ...
    fairdeal.rules.base.IllegalMove: illegal move draw by seat 0: it is not your turn
    """
    if state.result is not None:
        raise IllegalMove(HAND_OVER, move=move, seat=seat)
    if seat != state.turn:
        raise IllegalMove(NOT_YOUR_TURN, move=move, seat=seat)


def refuser(move: Move, seat: int) -> Callable[[str], IllegalMove]:
    """The function that makes ``seat``'s :class:`IllegalMove` of ``move`` for a reason (a
    closure: cheaper to make than a ``functools.partial``, and a verifier makes one a move).

    >>> str(refuser(Move.draw(), 2)("the stock is empty"))
    'illegal move draw by seat 2: the stock is empty'
    """

    def illegal(reason: str) -> IllegalMove:
        return IllegalMove(reason, move=move, seat=seat)

    return illegal


def seat_to_act(state: Turn) -> int:
    """The seat whose turn it is, for a rules' ``auto_move``; :class:`IllegalMove` once the hand is over.

    >>> from types import SimpleNamespace
    >>> seat_to_act(SimpleNamespace(result=None, turn=3))
    3
    """
    if state.result is not None or state.turn is None:
        raise IllegalMove(HAND_OVER)
    return state.turn


@dataclass(frozen=True, slots=True)
class Standing:
    """A seat's row of the standings: its total and its place (equal totals share one).

    >>> Standing(seat=1, total=105, place=1).to_json()
    {'seat': 1, 'total': 105, 'place': 1}
    """

    seat: int
    total: int
    place: int

    def to_json(self) -> dict[str, int]:
        """The row as a ``match-end`` line, a report and the HTTP API show it."""
        return {"seat": self.seat, "total": self.total, "place": self.place}


def standings(totals: Sequence[int]) -> tuple[Standing, ...]:
    """Seats by total, highest first; equal totals share a place.

    >>> [(row.seat, row.total, row.place) for row in standings([30, 105, 30])]
    [(1, 105, 1), (0, 30, 2), (2, 30, 2)]
    """
    order = sorted(range(len(totals)), key=lambda s: (-totals[s], s))
    return tuple(Standing(s, totals[s], 1 + sum(1 for t in totals if t > totals[s])) for s in order)


def standings_json(rows: Sequence[Standing] | None) -> list[dict[str, int]] | None:
    """``rows`` as the JSON the record and the reports hold (``None`` stays ``None``)."""
    return None if rows is None else [row.to_json() for row in rows]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the final :attr:`standings` of a match played to its end, or the
    reason it was :attr:`abandoned` (then there are no final standings: nobody won).

    >>> outcome = Outcome(standings([30, 105, 105]))
    >>> outcome.winners, outcome.to_json()["standings"][0]
    ((1, 2), {'seat': 1, 'total': 105, 'place': 1})
    >>> Outcome(None, abandoned="abandoned by the host").to_json()
    {'standings': None, 'abandoned': 'abandoned by the host'}
    """

    standings: tuple[Standing, ...] | None
    abandoned: str | None = None

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats in first place (more than one on equal totals); none when abandoned."""
        return tuple(row.seat for row in self.standings or () if row.place == 1)

    def to_json(self) -> dict[str, Any]:
        """As a verifier's report (``fairdeal-verify --json``) shows it: ``standings`` and ``abandoned``."""
        return {"standings": standings_json(self.standings), "abandoned": self.abandoned}


class Rules(abc.ABC, Generic[StateT, ViewT]):
    """A game and its options. Subclasses are pure: no I/O, no clock, no randomness
    but the :data:`Shuffler` they are given.

    The state a subclass uses must have ``hand``, ``dealer``, ``turn`` (the
    seat to act, ``None`` once the hand is over) and ``result``
    (a :class:`HandResult` once the hand is over).
    """

    name: ClassVar[str]
    title: ClassVar[str]
    family: ClassVar[str]
    """The group of games it belongs to, as the lobby lists them ("Draw-pile games")."""
    renderer: ClassVar[str] = "generic"
    """The browser's renderer of the game, ``web/js/games/<renderer>.js`` (the catalogue's
    ``renderer``): fairdeal's own families each have one; a game without (a plugin's) is drawn
    by ``generic.js`` from its view: hands, stock, pile, rows, chips and the score sheet."""
    lobby_order: ClassVar[int] = 1000
    """Where the catalogue lists the game: games sort by this, then by name. fairdeal's own
    games take 10, 20, ... 210 (family by family); a plugin's default puts it after them."""
    secret: ClassVar[Secret | None] = None
    """What the game commits to in a hand and reveals at its end (:class:`Secret`), if anything."""
    table_json: ClassVar[type] = TableJSON
    """What a seat's view shows of the public table, as a :class:`TypedDict` (a view's JSON less
    :data:`SEAT_OWN`): its JSON Schema (:meth:`table_schema`) types the game's views in the
    service's OpenAPI document. The default, :class:`TableJSON`, lists only what every game has."""
    summary_line: ClassVar[str] = ""
    """One sentence for the lobby: what the game is about."""
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    first_dealer_rank: ClassVar[Rank]
    """The draw for the first dealer: the first seat dealt a card of this rank deals."""
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    """The options the game takes, in the order the lobby shows them."""
    defaults: ClassVar[Mapping[str, int]] = {}
    """Each option's default, by name (made from :attr:`OPTIONS`)."""
    unit: ClassVar[str] = "points"
    """What the standings count: ``points``, ``chips``, ``counters`` or ``deals`` (won)."""
    layout: ClassVar[Layout]
    moves: ClassVar[tuple[MoveKind, ...]] = BASIC
    """The kinds of move a seat of this game can make (what its legal moves are made of), as
    the game declares them (:class:`MoveKind`: fields, text form, JSON Schema): the catalogue's
    ``moves`` and ``move_forms``, the service's move body, the table's buttons. A game also
    reads the basic four (:data:`~fairdeal.rules.move.BASIC`), to refuse them with its reasons."""
    move_kinds: ClassVar[tuple[str, ...]]
    """The names of :attr:`moves`, in order (made from it)."""
    reads: ClassVar[Mapping[str, MoveKind]]
    """Each kind the game reads, by name: the basic four and :attr:`moves` (made from them)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.defaults = {option.name: option.default for option in cls.OPTIONS}
        cls.move_kinds = tuple(kind.name for kind in cls.moves)
        cls.reads = {**{kind.name: kind for kind in BASIC}, **{kind.name: kind for kind in cls.moves}}

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        options = dict(options or {})
        unknown = sorted(set(options) - set(self.defaults))
        if unknown:
            raise OptionsError(f"{self.name} has no option {unknown[0]!r}; options: {', '.join(self.defaults)}")
        merged = {**self.defaults, **options}
        for key, value in merged.items():
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionsError(f"option {key!r} must be an integer, not {value!r}")
        for option in self.OPTIONS:
            option.check(merged[option.name])
        self.options: dict[str, int] = merged
        self.check_options()

    @classmethod
    def declaration(cls) -> dict[str, Any]:
        """The game's entry in the catalogue (``GET /rules/{name}``, spec/games.json).

        >>> from fairdeal.rules import get
        >>> entry = type(get("go-boom")).declaration()
        >>> entry["name"], entry["seats"], entry["unit"], [o["name"] for o in entry["options"]]
        ('go-boom', {'min': 2, 'max': 7}, 'points', ['target'])
        """
        return {
            "name": cls.name,
            "title": cls.title,
            "family": cls.family,
            "module": cls.module(),
            "renderer": cls.renderer,
            "summary": cls.summary_line,
            "seats": {"min": cls.min_seats, "max": cls.max_seats},
            "options": [option.to_json() for option in cls.OPTIONS],
            "unit": cls.unit,
            "layout": cls.layout.to_json(),
            "first_dealer_rank": cls.first_dealer_rank.letter,
            "moves": list(cls.move_kinds),
            "move_forms": [kind.form() for kind in cls.moves],
            "two_card_plays": any(field.name == "then" for kind in cls.moves for field in kind.fields),
            "bots": list(cls.bot_kinds()),
            **({"table": labels} if (labels := cls.table_labels()) else {}),
        }

    @classmethod
    def table_labels(cls) -> dict[str, Any]:
        """What a page calls the members of the game's table that :attr:`table_json` labels
        (:func:`~fairdeal.rules.schema.labels_of`), the catalogue entry's ``table`` (none: no member).

        >>> from fairdeal.rules import RULES
        >>> RULES["crazy-eights"].table_labels()   # its own renderer knows its table
        {}
        """
        from fairdeal.rules.schema import labels_of

        return labels_of(cls.table_json)

    @classmethod
    def bot_kinds(cls) -> tuple[str, ...]:
        """The bots that can play a seat of this game: ``random`` always, and ``heuristic``
        when the game has its own :meth:`heuristic_move` (its catalogue entry's ``bots``).

        >>> from fairdeal.rules import get
        >>> type(get("jig")).bot_kinds()
        ('heuristic', 'random')
        """
        return ("heuristic", "random") if cls.heuristic_move is not Rules.heuristic_move else ("random",)

    def heuristic_move(self, view: ViewT, moves: Sequence[Move]) -> Move:
        """The heuristic bot's choice among ``moves``, the legal moves (never none) of the seat
        whose ``view`` this is. A game that offers the heuristic bot overrides this with its
        rule text's advice; it sees the view and nothing else (DESIGN.md, principle 5)."""
        raise NotImplementedError(f"{self.title} has no heuristic bot")

    @classmethod
    def module(cls) -> str:
        """The rules module the game lives in (``fan_tan``): its family's renderer in the
        browser is ``web/js/games/<module>.js``."""
        return cls.__module__.rsplit(".", 1)[-1]

    @classmethod
    def table_schema(cls) -> dict[str, Any]:
        """The JSON Schema of the public table a seat's view shows, from :attr:`table_json`:
        closed (a member it does not declare is an error) for a game that declares its own,
        open for one that keeps the default.

        >>> from fairdeal.rules import get
        >>> schema = type(get("go-boom")).table_schema()
        >>> schema["title"], schema["additionalProperties"], "previous" in schema["required"]
        ('GoBoomTable', False, True)
        """
        from fairdeal.rules.schema import schema_of

        schema = schema_of(cls.table_json)
        if cls.table_json is TableJSON:
            schema["additionalProperties"] = True
        return schema

    @classmethod
    def package(cls) -> str:
        """The package the game's rules module is in, which carries its texts: ``help/`` and
        ``i18n/`` (fairdeal's own: ``fairdeal.rules``; a plugin's: its own).

        >>> from fairdeal.rules import get
        >>> type(get("michigan")).package()
        'fairdeal.rules'
        """
        module = sys.modules[cls.__module__]
        spec = module.__spec__
        package = module.__name__ if spec is not None and spec.submodule_search_locations else module.__package__
        return package or module.__name__

    @classmethod
    def help_text(cls) -> str:
        """The game's "How to play" for players: ``help/<name>.md`` in its :meth:`package`
        (fairdeal's own: ``fairdeal/rules/help/``; a plugin's: its own package), a small markdown
        of paragraphs, ``- `` bullet lists and ``**bold**``. In another language:
        :func:`fairdeal.rules.translations.help_in`.

        >>> from fairdeal.rules import get
        >>> type(get("michigan")).help_text().startswith("**Goal.**")
        True
        """
        return resources.files(cls.package()).joinpath("help", f"{cls.name}.md").read_text(encoding="utf-8")

    def state_to_json(self, state: StateT) -> dict[str, Any]:
        """``state`` as a JSON object: one member per field, cards as codes, suits and ranks as
        letters (spec/state.md); :meth:`state_from_json` reads it back into the same state.

        >>> from fairdeal.rules import get
        >>> rules = get("go-boom")
        >>> state, _ = rules.deal(2, dealer=1, hand=1, shuffle=lambda label, cards: list(cards))
        >>> data = rules.state_to_json(state)
        >>> data["hands"][0], data["leader"], data["turn"]
        (['AC', '3C', '5C', '7C', '9C', 'JC', 'KC'], 0, 0)
        """
        from fairdeal.rules import position

        return position.state_to_json(self, state)

    def state_from_json(self, data: Mapping[str, Any]) -> StateT:
        """The state a JSON object describes (as :meth:`state_to_json` writes it), checked: a
        malformed field or an impossible position (a card in two places, a card missing, a
        turn that is not a seat, ...) is a :class:`~fairdeal.rules.position.PositionError`
        that names it. A position set up by hand is then played on with :meth:`apply`.

        >>> from fairdeal.rules import get
        >>> rules = get("go-boom")
        >>> state, _ = rules.deal(2, dealer=1, hand=1, shuffle=lambda label, cards: list(cards))
        >>> rules.state_from_json(rules.state_to_json(state)) == state
        True
        >>> data = rules.state_to_json(state)
        >>> data["stock"].remove("7D")
        >>> rules.state_from_json(data)
        Traceback (most recent call last):
        ...
        fairdeal.rules.position.PositionError: the pack's 7D is nowhere
        """
        from fairdeal.rules import position

        state: StateT = position.state_from_json(self, data)
        return state

    # -- a position (spec/state.md): what state_from_json needs of a game ---------------

    state_type: ClassVar[type]
    """The game's state class: a frozen dataclass whose type hints the JSON codec follows."""

    def card_places(self, state: StateT) -> list[tuple[str, Iterable[Card]]]:
        """Where every card of the pack is now, as ``(place, cards)`` pairs (``("seat 1's hand",
        ...)``, ``("in the stock", ...)``): checked against the game's pack, each card once.
        History (cards dealt, runs played) is not a place. A place besides the hands is named
        by a :class:`~fairdeal.said.Said`: the hand replayer shows it in the page's language."""
        raise NotImplementedError(f"{self.title} does not say where its cards are")

    def check_position(self, state: StateT) -> None:
        """Raise :class:`~fairdeal.rules.position.PositionError` for what else a position of
        this game must hold true (a run's next card, Fan Tan's rows); nothing by default."""

    def check_options(self) -> None:
        """Raise :class:`OptionsError` for option values the game cannot play together
        (each option's own range is checked by its :class:`Option`)."""

    def deals_in_session(self, seats: int) -> int:
        """How many deals a session has: the ``deals`` option, or (0) one per player."""
        return self.options["deals"] or seats

    def check_new(self) -> None:
        """:class:`OptionsError` unless a new table may be played with these options: each in the
        range the catalogue shows (a record may hold an earlier version's larger one, see
        :attr:`Option.record_high`; the service asks this of every table it opens).

        >>> from fairdeal.rules import get
        >>> get("crazy-eights", {"target": 100_000}).check_new()
        Traceback (most recent call last):
        ...
        fairdeal.rules.base.OptionsError: target must be between 1 and 1000 points
        """
        for option in self.OPTIONS:
            option.check(self.options[option.name], new=True)

    def check_seats(self, seats: int) -> None:
        if isinstance(seats, bool) or not isinstance(seats, int) or not self.min_seats <= seats <= self.max_seats:
            raise OptionsError(f"{self.title} is for {self.min_seats} to {self.max_seats} players, not {seats!r}")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.options!r})"

    def unread(self, move: Move) -> str | None:
        """Why ``move`` is not a move of this game at all (a kind or a field it does not
        read), or ``None``. The match asks before :meth:`apply`, so a game never
        silently ignores a field a record carries.

        >>> from fairdeal.rules import get
        >>> rules = get("crazy-eights")
        >>> rules.unread(Move.parse("bid 2")), rules.unread(Move.parse("play 9C then AD"))
        ("Crazy Eights has no move 'bid'", 'Crazy Eights plays one card at a time')
        """
        own = self.reads.get(move.kind)
        if own is None:
            return self.no_move(move.kind)
        widest = declared(move.kind)
        if widest is not own:
            for field in widest.fields:
                if move.get(field.name) is not None and field not in own.fields:
                    return f"{self.title} {field.unread}"
        return None

    def no_move(self, kind: str) -> Said:
        """Why a move of ``kind`` is none of this game's.

        >>> from fairdeal.rules import get
        >>> get("eights").no_move("bid")
        "Eights has no move 'bid'"
        """
        return Said("{game} has no move {kind}", game=self.title, kind=repr(kind))

    @abc.abstractmethod
    def deal(self, seats: int, dealer: int, hand: int, shuffle: Shuffler) -> tuple[StateT, list[Event]]:
        """Shuffle and deal hand number ``hand``; the new state and its public events."""

    @staticmethod
    def hand_size(seats: int) -> int | None:
        """The cards each seat is dealt at ``seats`` seats (:meth:`deal_cards`); ``None``: every
        card of the pack, round the table (some seats may get one card more)."""
        return None

    def deal_cards(
        self, seats: int, dealer: int, hand: int, shuffle: Shuffler, *, evenly: bool = False
    ) -> tuple[tuple[tuple[Card, ...], ...], list[Card]]:
        """The hands of deal number ``hand`` and the cards left, for a :meth:`deal`: the game's pack
        at ``seats`` seats, as its :attr:`layout` says (:func:`~fairdeal.rules.position.game_pack`,
        the pack its positions are checked against), shuffled with the label ``hand/{hand}/deal``,
        then :meth:`hand_size` cards each (``evenly``: as far as they go evenly) dealt one at a time
        from the dealer's left (protocol v1, steps 9 to 11: :func:`deal_hands`).
        :class:`OptionsError` first for a number of seats the game is not for.

        >>> from fairdeal.rules import get
        >>> hands, rest = get("go-boom").deal_cards(2, 1, 1, lambda label, cards: list(cards))
        >>> [[c.code for c in h][:3] for h in hands], len(rest)
        ([['AC', '3C', '5C'], ['2C', '4C', '6C']], 38)
        """
        from fairdeal.rules.position import game_pack

        self.check_seats(seats)
        order = shuffle(f"hand/{hand}/deal", game_pack(self, seats))
        return deal_hands(order, seats, dealer, len(order) // seats if evenly else self.hand_size(seats))

    @abc.abstractmethod
    def apply(self, state: StateT, seat: int, move: Move, shuffle: Shuffler) -> tuple[StateT, list[Event]]:
        """The state after ``seat`` makes ``move``, and what the table saw happen besides the move.

        Raises :class:`IllegalMove` with the reason, leaving ``state`` as it was.
        """

    @abc.abstractmethod
    def view(self, state: StateT, seat: int | None) -> ViewT:
        """What ``seat`` sees: its own hand and the public table (``None``: a spectator)."""

    @abc.abstractmethod
    def legal_moves(self, view: ViewT) -> list[Move]:
        """The moves the viewing seat may make now (none when it is not its turn)."""

    @abc.abstractmethod
    def explain(self, view: ViewT, card: Card) -> str | None:
        """Why ``card`` cannot be played now, or ``None`` when it can."""

    @abc.abstractmethod
    def auto_move(self, state: StateT) -> Move:
        """The move the table makes for a seat whose turn timer ran out."""

    @abc.abstractmethod
    def summary(self, state: StateT) -> HandSummary:
        """A finished hand for the verifier's report: its family's typed summary (the deal
        by seat, and what else it showed), whose ``to_json`` the JSON report holds."""

    # -- the move-by-move replay (fairdeal-verify --moves) ---------------------------

    def describe_deal(self, state: StateT, names: SeatNames) -> list[str]:
        """The replay's lines for a new deal: the hand's header and each seat's cards.

        >>> from fairdeal.rules import get
        >>> rules = get("sequence")
        >>> state = rules.deal(2, 1, 1, lambda label, cards: list(cards))[0]
        >>> lines = rules.describe_deal(state, SeatNames(("Ann", "Bob")))
        >>> lines[0], lines[1][:27], len(lines)
        ('hand 1, dealer seat 1 (Bob)', '  seat 0 (Ann): A♣ 3♣ 5♣ 7♣', 3)
        """
        lines = [f"hand {state.hand}, dealer {names.seat(state.dealer)}"]
        lines.extend(f"  {names.seat(s)}: {display(cards)}" for s, cards in enumerate(state.hands))
        return lines

    def describe_move(
        self, before: StateT, seat: int, move: Move, after: StateT | None, names: SeatNames, *, auto: bool = False
    ) -> str:
        """The replay's words for ``seat``'s ``move`` from ``before``: the move, what a draw
        drew, the table after it (:meth:`describe_table`) and every hand. ``after`` is
        ``None`` when the move ended the hand (the next hand's deal is not this hand's)."""
        text = self.move_words(before, seat, move, after)
        if auto:
            text += " (auto)"
        if after is not None:
            text += self.describe_table(before, after, names)
            text += " | " + " | ".join(f"{s}: {display(cards)}" for s, cards in enumerate(after.hands))
        return text

    def move_words(self, before: StateT, seat: int, move: Move, after: StateT | None) -> str:
        """The replay's words for the move itself (``"play 9♣"``, ``"draw -> 7♦"``), before
        the table and the hands after it that :meth:`describe_move` adds."""
        text = move.kind
        if move.card is not None:
            text += " " + move.card.display
        if move.suit is not None:
            text += " naming " + move.suit.symbol
        if move.then is not None:
            text += " then " + move.then.display
        if move.amount is not None:
            text += f" {move.amount}"
        if move.kind == "draw" and after is not None and len(after.hands[seat]) - len(before.hands[seat]) in (0, 1):
            text += " -> " + drawn_words(before.hands[seat], after.hands[seat])
        return text

    def why_legal(self, view: ViewT, move: Move) -> str:
        """The rule that allowed ``move``, in a short sentence for the hand replayer
        (``"8♥ on 8♣: same rank"``, ``"no card fits: draws"``), a :class:`~fairdeal.said.Said`
        that the page says in its language. ``view`` is the moving seat's view before the move,
        and the move was legal there. This default reads the legal moves; each family says its
        own rule where a player would want more.

        >>> from fairdeal.rules import get
        >>> rules = get("go-boom")
        >>> state = rules.deal(2, 1, 1, lambda label, cards: list(cards))[0]
        >>> Rules.why_legal(rules, rules.view(state, 0), Move.play(Card.parse("3C")))
        '3♣ may be played now'
        """
        moves = self.legal_moves(view)
        plays = any(m.kind == "play" for m in moves)
        kind = move.kind
        if kind == "play" and move.card is not None:
            text = Said("{card} may be played now", card=move.card)
            if move.suit is not None:
                text = Said("{play}, naming {suits}", play=text, suits=suit_words(move.suit))
            if move.then is not None:
                text = Said("{play}, then {card} with it", play=text, card=move.then)
            return text
        if kind == "draw":
            return Said("draws a card") if plays else Said("no card fits: draws")
        if kind == "pass":
            return Said("passes") if plays else Said("no card can be played: passes")
        if kind == "keep":
            return Said("keeps the card")
        if kind == "bid":
            return Said("bids {amount}", amount=move.amount)
        return Said("{kind}: one of the moves the rules allow now", kind=kind)

    def describe_table(self, before: StateT, after: StateT, names: SeatNames) -> str:
        """What the replay shows of the table after a move, before the hands
        (``"; pile 9♣"``); nothing by default."""
        return ""

    def describe_event(self, event: Event, names: SeatNames) -> str:
        """The replay's line (without its indent) for an event a move or a deal produced."""
        kind = event.get("type")
        if kind == "hand-end":
            return f"hand {event['hand']} ends ({event['how']}): scores {event['scores']}, totals {event['totals']}"
        if kind == "chips":
            return describe_chips(event, names)
        if kind == "match-end":
            places = ", ".join(f"{r['place']}. seat {r['seat']} {r['total']}" for r in event["standings"])
            return f"the match is over: {places}"
        return safe(json.dumps(event, ensure_ascii=False))

    # -- the match's score: the rules own the sheet --------------------------------

    def initial_totals(self, seats: int) -> tuple[int, ...]:
        """Each seat's total before the first hand: a chip game's ``stack`` option (:func:`stack`),
        else 0 (points games, and chip games played without chips, such as Sjueren)."""
        return (self.options.get("stack", 0),) * seats

    def new_sheet(self, seats: int) -> ScoreSheet:
        """The score sheet before the first hand; a plain sheet of :meth:`initial_totals`."""
        return ScoreSheet(self.initial_totals(seats))

    def score_hand(self, sheet: ScoreSheet, state: StateT) -> ScoreSheet:
        """The sheet after the finished hand ``state`` (its ``result``): by default each
        seat's score for the hand is added to its total."""
        assert state.result is not None, "score_hand is asked of a finished hand"
        return sheet.add(state.result.scores)

    def match_over(self, sheet: ScoreSheet, hands_played: int) -> bool:
        """Whether the match ends after ``hands_played`` hands that left this sheet.

        A game with a ``deals`` option is a session of that many deals (:meth:`deals_in_session`);
        points games end when a total reaches the ``target`` option.
        """
        if "deals" in self.options:
            return hands_played >= self.deals_in_session(len(sheet.totals))
        return max(sheet.totals) >= self.options["target"]

    def turn_factor(self, state: StateT) -> int:
        """How many turns' time the seat to act has for its decision in ``state``: 1, except
        for what takes longer (Eleusis: the dealer writing the round's rule). The table's timer
        multiplies its turn by it; the rules know no clock."""
        return 1

    def abandon_events(self, state: StateT) -> list[Event]:
        """What the table makes public when the game is abandoned in the middle of hand
        ``state`` (Eleusis reveals the round's secret rule, so the record still verifies);
        written before the ``abandon`` line. Nothing by default."""
        return []

    def deal_hand(
        self, sheet: ScoreSheet, seats: int, dealer: int, hand: int, shuffle: Shuffler
    ) -> tuple[StateT, list[Event]]:
        """Deal hand number ``hand`` of a match whose sheet is ``sheet``: what the match calls.

        Only :meth:`deal` by default. A game whose deal depends on the match so far
        (counters left over from the last deal, say) overrides this and keeps what
        carries over in its sheet.
        """
        return self.deal(seats, dealer, hand, shuffle)
