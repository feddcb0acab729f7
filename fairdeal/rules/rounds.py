"""What the games played round by round share: Go Boom's rounds, Rolling Stone's tricks, the Snip
Snap games' groups.

In each, a leader puts down any card; each seat after him in turn puts down a card that answers
what is on the table (Go Boom: the previous card's suit or rank; Rolling Stone: the suit led;
Snip Snap Snorem: the rank wanted next) or, holding none, passes (Go Boom: draws while the
stock lasts). A game says what the table wants (:meth:`RoundGame.wanted_by`), what answers it
(:meth:`RoundGame.answers`), and the words for each; :class:`RoundGame` gives the moves a seat
has, the replayer's reasons, and the checks of a play and of a pass, in that order.

>>> from fairdeal.rules import get
>>> rules = get("rolling-stone")
>>> rules.answering([Card.parse(c) for c in ("7H", "AS", "9H")], Card.parse("KH"))
[Card.parse('7H'), Card.parse('9H')]
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Sequence
from typing import Any
from typing import ClassVar
from typing import Protocol
from typing import TypeVar

from fairdeal.cards import Card
from fairdeal.cards import Suit
from fairdeal.rules.base import Event
from fairdeal.rules.base import GameState
from fairdeal.rules.base import GameView
from fairdeal.rules.base import IllegalMove
from fairdeal.rules.base import Move
from fairdeal.rules.base import Rules
from fairdeal.rules.base import Shuffler
from fairdeal.rules.base import check_turn
from fairdeal.rules.base import has_turn
from fairdeal.rules.base import refuser
from fairdeal.rules.base import suit_counts
from fairdeal.rules.move import PASS
from fairdeal.rules.move import PLAY
from fairdeal.rules.move import MoveKind
from fairdeal.rules.summary import SeatNames
from fairdeal.rules.summary import display
from fairdeal.said import Said

__all__ = ["RoundGame", "RoundView", "lead_longest_suit"]


class RoundView(GameView, Protocol):
    """What a round game's view has besides every game's: the seat's own cards, which the
    moves it has are made of (a spectator's: none)."""

    @property
    def hand(self) -> tuple[Card, ...]: ...


RoundStateT = TypeVar("RoundStateT", bound=GameState)
RoundViewT = TypeVar("RoundViewT", bound=RoundView)


class RoundGame(Rules[RoundStateT, RoundViewT]):
    """A game played round by round: what :mod:`fairdeal.rules.rounds` says they share.

    A game says what the cards on the table want next (:meth:`wanted_by`; ``None`` while a
    lead is due), which cards answer it (:meth:`answers`), why a play is refused
    (:meth:`play_problem`) and what a play and a pass do (:meth:`play`, :meth:`stuck`),
    with the words of each. Each game gives its own state and view:
    ``class RollingStone(RoundGame[RollingStoneState, RollingStoneView])``.
    """

    moves: ClassVar[tuple[MoveKind, ...]] = (PLAY, PASS)

    lead_due: ClassVar[str] = Said("you lead: put down any card")
    """Why a leader may not pass (nor draw)."""
    moves_hint: ClassVar[str] = Said("play a card or pass")
    """The moves the game has, as a refusal of another kind of move names them."""
    table_word: ClassVar[str] = "round"
    """What the replay calls the cards on the table (``"; trick 9♣ K♣"``, ``"; trick over"``)."""

    # -- what a game says ---------------------------------------------------------------

    def wanted_by(self, table: RoundStateT | RoundViewT) -> Any:
        """What the next card must answer on ``table`` (a state or a seat's view of it), or
        ``None`` while a lead is due."""
        raise NotImplementedError

    def answers(self, card: Card, wanted: Any) -> bool:
        """Whether ``card`` may go down on what is ``wanted``."""
        raise NotImplementedError

    def play_problem(self, state: RoundStateT, seat: int, move: Move) -> str | None:
        """Why the seat to act may not make the play ``move``, or ``None``."""
        raise NotImplementedError

    def play(self, state: RoundStateT, seat: int, card: Card) -> tuple[RoundStateT, list[Event]]:
        """The state after ``seat`` put down ``card`` (a legal play), and its events."""
        raise NotImplementedError

    def stuck(
        self, state: RoundStateT, seat: int, kind: str, illegal: Callable[[str], IllegalMove]
    ) -> tuple[RoundStateT, list[Event]]:
        """The state after ``seat``, holding no card that answers the table, made its move of
        ``kind`` (a pass; Go Boom: a draw too), and its events; ``illegal`` refuses it."""
        raise NotImplementedError

    def must_answer(self, able: Sequence[Card], wanted: Any) -> str:
        """Why a seat holding ``able`` (in hand order), which answer the table, may not pass."""
        raise NotImplementedError

    def lead_words(self, card: Card) -> str:
        """Why a lead of ``card`` was legal, for the hand replayer."""
        raise NotImplementedError

    def answer_words(self, card: Card, wanted: Any) -> str:
        """Why ``card`` answered what was ``wanted``, for the hand replayer."""
        raise NotImplementedError

    def stuck_words(self, kind: str, wanted: Any) -> str | None:
        """Why a move of ``kind`` other than a play was legal (``None``: the default words)."""
        return None

    def in_play(self, state: RoundStateT) -> Sequence[Card]:
        """The cards on the table in the round going on, for the replay."""
        raise NotImplementedError

    # -- what they share ------------------------------------------------------------------

    def answering(self, hand: Iterable[Card], wanted: Any) -> list[Card]:
        """The cards of ``hand`` that may go down on what is ``wanted`` (all of them while a lead
        is due), in hand order."""
        return [c for c in hand if wanted is None or self.answers(c, wanted)]

    def stuck_move(self, view: RoundViewT) -> Move:
        """The move of a seat that holds no card to play: a pass (Go Boom: a draw while it may)."""
        return Move.pass_()

    def legal_moves(self, view: RoundViewT) -> list[Move]:
        if view.result is not None or not has_turn(view):
            return []
        plays = sorted(self.answering(view.hand, self.wanted_by(view)))
        return [Move.play(c) for c in plays] if plays else [self.stuck_move(view)]

    def why_legal(self, view: RoundViewT, move: Move) -> str:
        wanted = self.wanted_by(view)
        if move.kind == "play":
            assert move.card is not None  # a play names its card (every declaration of "play" requires it)
            return self.lead_words(move.card) if wanted is None else self.answer_words(move.card, wanted)
        return self.stuck_words(move.kind, wanted) or super().why_legal(view, move)

    def apply(self, state: RoundStateT, seat: int, move: Move, shuffle: Shuffler) -> tuple[RoundStateT, list[Event]]:
        check_turn(state, seat, move)
        if move.kind == "play":
            assert move.card is not None  # a play names its card (every declaration of "play" requires it)
            problem = self.play_problem(state, seat, move)
            if problem:
                raise IllegalMove(problem, move=move, seat=seat)
            return self.play(state, seat, move.card)
        illegal = refuser(move, seat)
        if move.kind in self.move_kinds:
            wanted = self.wanted_by(state)
            if wanted is None:
                raise illegal(self.lead_due)
            able = self.answering(state.hands[seat], wanted)
            if able:
                raise illegal(self.must_answer(able, wanted))
            return self.stuck(state, seat, move.kind, illegal)
        raise illegal(
            Said("{game} has no move {kind}: {moves}", game=self.title, kind=repr(move.kind), moves=self.moves_hint)
        )

    def describe_table(self, before: RoundStateT, after: RoundStateT, names: SeatNames) -> str:
        cards = self.in_play(after)
        return f"; {self.table_word} {display(cards)}" if cards else f"; {self.table_word} over"


def lead_longest_suit(hand: Sequence[Card], plays: Iterable[Card], strength: Callable[[Card], int]) -> Move:
    """The heuristic bots' lead in Go Boom and Rolling Stone: of ``plays``, the highest card by
    ``strength`` of the suit the hand holds most of (clubs first on ties), to win the lead back.

    >>> lead_longest_suit([Card.parse(c) for c in ("2S", "9S", "AH")], [Card.parse("2S"), Card.parse("9S")], lambda c: c.rank)
    Move.play(Card.parse('9S'))
    """
    counts = suit_counts(hand)
    suit = max(Suit, key=lambda s: (counts[s], -s))
    return Move.play(max((c for c in plays if c.suit == suit), key=strength))
