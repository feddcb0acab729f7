"""Go Boom and Hollywood Go Boom (../shared/rules/stops-family.txt).

Seven cards each from one pack; the rest is the stock. Play goes in
**rounds**: the leader puts down any card; each next player must match the
previous card in suit or rank, and a player who cannot must draw from the
stock, one card at a time, until he can (then he plays), or pass once the
stock is gone. When everyone has played or passed, the highest card of the
round (A high, K, Q, ..., 2; of equal ranks the first played) leads the next
round. The first player out of cards wins the hand and is credited with the
points left in the other hands: a picture card 10, an ace 1, any other card
its number.

- ``go-boom``: the match ends after a hand in which some total reaches ``target`` (100).
- ``hollywood-go-boom``: scored Hollywood style, three games at once
  (:mod:`fairdeal.rules.hollywood`).

spec/games/go-boom.md and hollywood-go-boom.md say where the text was read one
way rather than another.

>>> from fairdeal.fairness import game_key, shuffle
>>> key = game_key("00" * 32, "doc", ["", "", ""])
>>> rules = GoBoom()
>>> state, events = rules.deal(3, dealer=0, hand=1, shuffle=lambda label, cards: shuffle(key, label, cards))
>>> [len(h) for h in state.hands], len(state.stock), state.turn, state.leader
([7, 7, 7], 31, 1, 1)
>>> len(rules.legal_moves(rules.view(state, 1)))   # the leader may lead any card
7
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from typing import TypedDict

from fairdeal.cards import Card
from fairdeal.cards import Rank
from fairdeal.rules.base import TARGET
from fairdeal.rules.base import Event
from fairdeal.rules.base import HandResult
from fairdeal.rules.base import HandState
from fairdeal.rules.base import IllegalMove
from fairdeal.rules.base import Layout
from fairdeal.rules.base import Move
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
from fairdeal.rules.crazy_eights import draw_from_stock
from fairdeal.rules.hollywood import HollywoodScoring
from fairdeal.rules.move import DRAW
from fairdeal.rules.move import PASS
from fairdeal.rules.move import PLAY
from fairdeal.rules.pile import same_words
from fairdeal.rules.position import Places
from fairdeal.rules.position import PositionError
from fairdeal.rules.position import check_seat
from fairdeal.rules.position import check_seat_list
from fairdeal.rules.position import check_shape
from fairdeal.rules.position import hand_places
from fairdeal.rules.rounds import RoundGame
from fairdeal.rules.rounds import lead_longest_suit
from fairdeal.rules.summary import HandSummary
from fairdeal.rules.summary import SeatNames
from fairdeal.rules.summary import describe_draws
from fairdeal.rules.summary import describe_plays
from fairdeal.rules.summary import plays_from_json
from fairdeal.rules.summary import plays_json
from fairdeal.said import Said

__all__ = ["GoBoom", "GoBoomState", "GoBoomView", "HollywoodGoBoom", "go_boom_points", "round_winner", "strength"]

HAND_SIZE = 7

_STUCK = {
    "draw": Said("no card matches: draws"),
    "pass": Said("no card matches and the stock is empty: passes"),
}
"""Why a seat that holds no card to match drew, or passed (the hand replayer's words)."""


def go_boom_points(card: Card) -> int:
    """What a card left in hand counts: a picture card 10, an ace 1, any other card its number.

    >>> [go_boom_points(Card.parse(c)) for c in ("KS", "JD", "TH", "8C", "AC")]
    [10, 10, 10, 8, 1]
    """
    return min(int(card.rank), 10)


def strength(card: Card) -> int:
    """A card's rank in a round: 2 lowest (2) ... king (13), ace highest (14).

    >>> [strength(Card.parse(c)) for c in ("2C", "KD", "AS")]
    [2, 13, 14]
    """
    return 14 if card.rank == Rank.ACE else int(card.rank)


def round_winner(plays: Sequence[tuple[int, Card]]) -> int:
    """The seat that played the highest card of a round; of equal ranks, the first played.

    >>> round_winner([(1, Card.parse("JD")), (2, Card.parse("JC")), (0, Card.parse("4C"))])
    1
    >>> round_winner([(1, Card.parse("KD")), (2, Card.parse("AD"))])
    2
    """
    best = max(range(len(plays)), key=lambda i: (strength(plays[i][1]), -i))
    return plays[best][0]


def _matches(card: Card, previous: Card | None) -> bool:
    return previous is None or card.suit == previous.suit or card.rank == previous.rank


@dataclass(frozen=True, slots=True)
class GoBoomState(HandState):
    """One hand of Go Boom, everything included (hidden cards too)."""

    stock: tuple[Card, ...]
    """Top first."""
    leader: int
    """The seat that leads the round in play."""
    turn: int | None
    """The seat to act; ``None`` once the hand is over."""
    plays: tuple[tuple[int, Card], ...] = ()
    """The round's cards so far, (seat, card) in the order played."""
    passed: tuple[int, ...] = ()
    """Seats that passed in this round."""
    drawn: int = 0
    """Cards the seat to act has drawn this turn."""
    result: HandResult | None = None
    dealt: tuple[tuple[Card, ...], ...] = ()
    """The hands as dealt, for the report."""
    rounds: tuple[dict[str, Any], ...] = ()
    """Every finished round, for the report (see :meth:`GoBoom.summary`)."""
    draws: tuple[tuple[int, Card], ...] = ()
    """Every draw of the hand, (seat, card), for the report."""

    @property
    def previous(self) -> Card | None:
        """The card to match: the last card played in this round (``None``: the leader's turn)."""
        return self.plays[-1][1] if self.plays else None


_replace: Callable[..., GoBoomState] = fast_replace(GoBoomState)


@dataclass(frozen=True, slots=True)
class GoBoomView(SeatView):
    """What one seat sees (``seat`` is ``None`` for a spectator, who sees no hand)."""

    stock_size: int
    leader: int
    turn: int | None
    plays: tuple[tuple[int, Card], ...]
    passed: tuple[int, ...]
    drawn: int
    result: HandResult | None

    @property
    def previous(self) -> Card | None:
        return self.plays[-1][1] if self.plays else None

    def to_json(self) -> dict[str, Any]:
        return {
            **self.seat_json(),
            "stock_size": self.stock_size,
            "leader": self.leader,
            "turn": self.turn,
            "round": plays_json(self.plays),
            "passed": list(self.passed),
            "previous": None if self.previous is None else self.previous.code,
            "drawn": self.drawn,
        }


def _why_not(card: Card, *, hand: Sequence[Card], previous: Card | None) -> str | None:
    """Why the seat to act cannot play ``card``, or ``None``; shared by the engine and :meth:`explain`."""
    if card not in hand:
        return not_held(card)
    if previous is None or _matches(card, previous):  # (any card leads)
        return None
    return Said("{card} does not match {top} in suit or rank", card=card, top=previous)


def _remove(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


class PlayedBy(TypedDict):
    """A card on the table and the seat that played it."""

    seat: int
    card: Card


class GoBoomTable(TableJSON):
    """The public table of a Go Boom hand: the round's cards, who leads, who passed, the stock."""

    stock_size: int
    leader: int
    round: list[PlayedBy]
    passed: list[int]
    previous: Card | None
    drawn: int


class GoBoom(RoundGame[GoBoomState, GoBoomView]):
    """Go Boom: 2 to 7 players, 7 cards each, rounds led by the highest card, first out wins.

    Options: ``target`` (100: the match ends after a hand in which some total reaches it).
    """

    renderer = "go_boom"
    table_json = GoBoomTable

    name = "go-boom"
    lobby_order = 50
    title = "Go Boom"
    min_seats = 2
    max_seats = 7
    first_dealer_rank = Rank.ACE
    family = "Draw-pile games"
    moves = (PLAY, DRAW, PASS)
    summary_line = "Follow the lead by suit or rank, or draw; the highest card leads the next round."
    OPTIONS = (TARGET,)
    layout = Layout(hands="7 cards each", stock=True)

    @staticmethod
    def hand_size(seats: int) -> int:
        return HAND_SIZE

    # -- the position (state JSON, spec/state.md) ------------------------------

    state_type = GoBoomState

    def card_places(self, state: GoBoomState) -> Places:
        """Where the cards are: the hands, the stock, the round in play, and the finished rounds
        put aside (the round a hand ended in stays in ``plays``; ``dealt`` and ``draws`` are history)."""
        aside = [Card.parse(play["card"]) for r in state.rounds if r["won_by"] is not None for play in r["plays"]]
        return [
            *hand_places(state.hands),
            (Said("in the stock"), state.stock),
            (Said("in the round in play"), [c for _, c in state.plays]),
            (Said("in a finished round"), aside),
        ]

    def check_position(self, state: GoBoomState) -> None:
        seats = state.seats
        check_seat(state.leader, seats, "leader")
        for i, (seat, _) in enumerate(state.plays):
            check_seat(seat, seats, f"plays[{i}][0]")
        check_seat_list(state.passed, seats, "passed", distinct=True)
        for i, (seat, _) in enumerate(state.draws):
            check_seat(seat, seats, f"draws[{i}][0]")
        order = [(state.leader + i) % seats for i in range(seats)]
        acted = [seat for seat, _ in state.plays] + list(state.passed)
        if state.plays and state.plays[0][0] != state.leader:
            raise PositionError(f"the round is led by seat {state.leader}, not seat {state.plays[0][0]}", field="plays")
        if sorted(acted) != sorted(order[: len(acted)]) or len(acted) > seats - (state.result is None):
            raise PositionError(
                f"each seat from the leader's left plays or passes once in a round: not {acted}", field="plays"
            )
        if state.result is None and state.turn != order[len(acted)]:
            raise PositionError(
                f"seat {order[len(acted)]} acts next in this round, not seat {state.turn}", field="turn"
            )
        if state.drawn < 0:
            raise PositionError(f"{state.drawn} cards drawn", field="drawn")
        shape = {"leader": "seat", "plays": [{"seat": "seat", "card": "card"}], "passed": ["seat"], "won_by": "seat?"}
        for i, done in enumerate(state.rounds):
            check_shape(done, shape, f"rounds[{i}]", seats)
            if done["won_by"] is None and (i != len(state.rounds) - 1 or state.result is None):
                raise PositionError(
                    "only the round a hand ended in has no winner, and it is the last", field=f"rounds[{i}].won_by"
                )
        if state.result is not None:
            last = state.rounds[-1] if state.rounds else None
            if (
                last is None
                or last["won_by"] is not None
                or last["plays"] != [{"seat": s, "card": c.code} for s, c in state.plays]
            ):
                raise PositionError("a finished hand's last round is the round in play, with no winner", field="rounds")

    # -- dealing ---------------------------------------------------------------

    def deal(self, seats: int, dealer: int, hand: int, shuffle: Shuffler) -> tuple[GoBoomState, list[Event]]:
        hands, stock = self.deal_cards(seats, dealer, hand, shuffle)
        first = (dealer + 1) % seats
        state = GoBoomState(
            hand=hand, dealer=dealer, hands=hands, stock=tuple(stock), leader=first, turn=first, dealt=hands
        )
        return state, [{"type": "deal", "hand": hand, "dealer": dealer}]

    # -- seeing ----------------------------------------------------------------

    def view(self, state: GoBoomState, seat: int | None) -> GoBoomView:
        return GoBoomView(
            **seat_fields(state, seat),
            stock_size=len(state.stock),
            leader=state.leader,
            turn=state.turn,
            plays=state.plays,
            passed=state.passed,
            drawn=state.drawn,
            result=state.result,
        )

    def explain(self, view: GoBoomView, card: Card) -> str | None:
        return turn_problem(view) or _why_not(card, hand=view.hand, previous=view.previous)

    # -- a round: follow the previous card by suit or rank, or draw ---------------

    lead_due = Said("you lead this round: put down any card")
    moves_hint = Said("play a card, draw, or pass")

    def wanted_by(self, table: GoBoomState | GoBoomView) -> Card | None:
        return table.previous

    def answers(self, card: Card, wanted: Card) -> bool:
        return _matches(card, wanted)

    def stuck_move(self, view: GoBoomView) -> Move:
        return Move.draw() if view.stock_size else Move.pass_()

    def lead_words(self, card: Card) -> str:
        return Said("{card} leads the round: any card may lead", card=card)

    def answer_words(self, card: Card, wanted: Card) -> str:
        return same_words(card, wanted)

    def stuck_words(self, kind: str, wanted: Card | None) -> str | None:
        return _STUCK.get(kind)

    # -- playing ---------------------------------------------------------------

    def play_problem(self, state: GoBoomState, seat: int, move: Move) -> str | None:
        assert move.card is not None, "a play names its card (Move refuses one that does not)"
        problem = _why_not(move.card, hand=state.hands[seat], previous=state.previous)
        return problem or (Said("{game} names no suit", game=self.title) if move.suit is not None else None)

    def must_answer(self, able: Sequence[Card], wanted: Card) -> str:
        return Said("you must play when you can, and {card} matches {wanted}", card=able[0], wanted=wanted)

    def stuck(
        self, state: GoBoomState, seat: int, kind: str, illegal: Callable[[str], IllegalMove]
    ) -> tuple[GoBoomState, list[Event]]:
        if kind == "draw":
            if not state.stock:
                raise illegal(Said("the stock is empty: there is nothing to draw"))
            return _replace(state, **draw_from_stock(state, seat)), []
        if state.stock:
            raise illegal(Said("you may pass only when the stock is empty: draw until a card matches"))
        return self._acted(_replace(state, passed=state.passed + (seat,))), []

    def play(self, state: GoBoomState, seat: int, card: Card) -> tuple[GoBoomState, list[Event]]:
        new_hand = _remove(state.hands[seat], card)
        hands = state.hands[:seat] + (new_hand,) + state.hands[seat + 1 :]
        played = _replace(state, hands=hands, plays=state.plays + ((seat, card),))
        if new_hand:
            return self._acted(played), []
        result = went_out(seat, tuple(sum(map(go_boom_points, h)) for h in hands))
        return _replace(played, turn=None, drawn=0, result=result, rounds=state.rounds + (_round(played, None),)), []

    def _acted(self, state: GoBoomState) -> GoBoomState:
        """The seat to act has played or passed: the next seat acts, or the round is over."""
        if len(state.plays) + len(state.passed) < state.seats:
            assert state.turn is not None, "a seat acts only while the hand is in play"
            return _replace(state, turn=(state.turn + 1) % state.seats, drawn=0)
        leader = round_winner(state.plays)
        return _replace(
            state,
            leader=leader,
            turn=leader,
            plays=(),
            passed=(),
            drawn=0,
            rounds=state.rounds + (_round(state, leader),),
        )

    # -- the heuristic bot ------------------------------------------------------

    def heuristic_move(self, view: GoBoomView, moves: Sequence[Move]) -> Move:
        """The heuristic bot's move: see :func:`go_boom_choice`."""
        return go_boom_choice(view, moves)

    # -- the table's timer -------------------------------------------------------

    def auto_move(self, state: GoBoomState) -> Move:
        """What the table plays for a seat whose timer ran out: its lowest playable card by
        (points, rank, suit) (a leader: its lowest card); else a draw; else a pass."""
        able = self.answering(state.hands[seat_to_act(state)], state.previous)
        if able:
            return Move.play(min(able, key=lambda c: (go_boom_points(c), int(c.rank), int(c.suit))))
        return Move.draw() if state.stock else Move.pass_()

    # -- reporting -----------------------------------------------------------------

    def summary(self, state: GoBoomState) -> GoBoomSummary:
        return GoBoomSummary(
            deal=state.dealt, draws=state.draws, rounds=tuple(GoBoomRound.from_json(r) for r in state.rounds)
        )

    def describe_table(self, before: GoBoomState, after: GoBoomState, names: SeatNames) -> str:
        # The round so far, and who leads when a round was just completed.
        if len(after.rounds) > len(before.rounds):
            return f"; round over, {names.seat(after.leader)} leads"
        return "; round so far: " + ", ".join(f"seat {s} {c.display}" for s, c in after.plays)


@dataclass(frozen=True, slots=True)
class GoBoomRound:
    """A finished round: its ``leader``, its cards in order, who ``passed``, and the seat
    whose highest card won it and leads the next (``won_by``; ``None``: the hand ended in it)."""

    leader: int
    plays: tuple[tuple[int, Card], ...]
    passed: tuple[int, ...]
    won_by: int | None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GoBoomRound:
        return cls(data["leader"], plays_from_json(data["plays"]), tuple(data["passed"]), data["won_by"])

    def to_json(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "plays": plays_json(self.plays),
            "passed": list(self.passed),
            "won_by": self.won_by,
        }

    def describe(self, names: SeatNames) -> str:
        """``seat 0 (Ann) 9♣, seat 1 (Bob) K♣; highest card: seat 1 (Bob) leads next``."""
        shown = describe_plays(self.plays, names)
        if self.passed:
            shown += f"; passed: {names.seats(self.passed)}"
        if self.won_by is not None:
            return shown + f"; highest card: {names.seat(self.won_by)} leads next"
        return shown + "; the hand ended in it"


@dataclass(frozen=True, kw_only=True)
class GoBoomSummary(HandSummary):
    """A Go Boom hand: the deal, every draw in order, and every round.

    >>> from fairdeal.rules.summary import SeatNames
    >>> round_ = GoBoomRound(0, ((0, Card.parse("9C")), (1, Card.parse("KC"))), (), 1)
    >>> GoBoomSummary(deal=((), ()), rounds=(round_,)).lines(SeatNames(("Ann", "Bob")))[2:]
    ['  draws: none', '  round 1: seat 0 (Ann) 9♣, seat 1 (Bob) K♣; highest card: seat 1 (Bob) leads next']
    """

    draws: tuple[tuple[int, Card], ...] = ()
    rounds: tuple[GoBoomRound, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "draws": plays_json(self.draws), "rounds": [r.to_json() for r in self.rounds]}

    def lines(self, names: SeatNames) -> list[str]:
        out = super().lines(names) + [f"  draws: {describe_draws(self.draws, names)}"]
        out.extend(f"  round {number}: {round_.describe(names)}" for number, round_ in enumerate(self.rounds, 1))
        return out


def _round(state: GoBoomState, won_by: int | None) -> dict[str, Any]:
    """A finished round for the report: its leader, its cards in order, who passed and who
    won it (``None``: the hand ended in it)."""
    return {
        "leader": state.plays[0][0],
        "plays": plays_json(state.plays),
        "passed": list(state.passed),
        "won_by": won_by,
    }


class HollywoodGoBoom(HollywoodScoring, GoBoom):
    """Hollywood Go Boom: Go Boom scored Hollywood style, three games to ``target`` at once
    (:class:`~fairdeal.rules.hollywood.HollywoodSheet`); the highest sum of the three wins.

    Options: ``target`` (100: a game closes when some player reaches it).
    """

    name = "hollywood-go-boom"
    lobby_order = 60
    title = "Hollywood Go Boom"
    summary_line = "Go Boom scored Hollywood style: three games at once."


# -- the heuristic bot ----------------------------------------------------------


def go_boom_choice(view: GoBoomView, moves: Sequence[Move]) -> Move:
    """The heuristic bot's move in Go Boom, after the text's "skillful play": play as high a
    card as possible, for the right to lead the next round, and run the others out of a suit.

    - Leading: the highest card of the suit it holds most of (clubs first on ties).
    - Following: the highest card that matches; of equal ranks, the one of its longest suit.
    - Otherwise it draws, or passes, as it must.

    >>> from fairdeal.cards import parse_cards
    >>> rules = GoBoom()
    >>> view = GoBoomView(0, 1, 2, tuple(parse_cards("2S 9S KS 4H AH")), (5, 7, 7), 31, 0, 0, (), (), 0, None)
    >>> go_boom_choice(view, rules.legal_moves(view))   # leads the king of its three spades
    Move.play(Card.parse('KS'))
    """
    plays = [m.card for m in moves if m.kind == "play" and m.card is not None]  # (every play names its card)
    if not plays:
        return moves[0]
    if view.previous is None:
        return lead_longest_suit(view.hand, plays, strength)
    counts = suit_counts(view.hand)
    return Move.play(max(plays, key=lambda c: (strength(c), counts[c.suit], go_boom_points(c), -c.index)))
