"""The match driver: hands one after another, from the draw for the first dealer to the standings.

A :class:`Match` runs a game's rules over hands, takes every deal and restock
from the fair dealer's ``shuffle``, rotates the deal, keeps the totals, and
returns the record's events for every step. The live service and the verifier
drive the same class: a game that played is a game that replays.

>>> from fairdeal.fairness import game_key, shuffle
>>> from fairdeal.rules import DEFAULT, get
>>> key = game_key("00" * 32, "doc", ["", "", ""])
>>> match = Match(get(DEFAULT), 3, lambda label, cards: shuffle(key, label, cards))
>>> [event["type"] for event in match.start()]
['draw-for-deal', 'deal']
>>> while not match.over:
...     _ = match.apply(match.turn, match.auto_move(), auto=True)
>>> match.standings[0].total >= 100
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import replace
from typing import Any

from fairdeal.cards import Card
from fairdeal.cards import codes
from fairdeal.cards import pack
from fairdeal.rules.base import HAND_OVER
from fairdeal.rules.base import NOT_YOUR_TURN
from fairdeal.rules.base import Event
from fairdeal.rules.base import GameState
from fairdeal.rules.base import GameView
from fairdeal.rules.base import HandResult
from fairdeal.rules.base import IllegalMove
from fairdeal.rules.base import Move
from fairdeal.rules.base import Rules
from fairdeal.rules.base import ScoreSheet
from fairdeal.rules.base import Shuffler
from fairdeal.rules.base import Standing
from fairdeal.rules.base import standings
from fairdeal.rules.base import standings_json
from fairdeal.rules.position import position_text
from fairdeal.rules.position import read_position
from fairdeal.rules.summary import HandSummary
from fairdeal.said import Said

__all__ = ["Match", "HandReport", "draw_for_deal", "MATCH_OVER"]

MATCH_OVER = Said("the match is over")
NOT_STARTED = Said("the match has not started")

_READ: dict[int, tuple[Move, Any, str | None, dict[str, Any] | None]] = {}
"""Moves read before (:func:`_read_move`), by the move object's id: the move, the rules that
read it (or their class: :func:`_reader`), why they do not (:meth:`Rules.unread`) and its JSON once made. A replay reads a
record's moves as the same few hundred objects; an entry holds its move, so no other object
takes its id while it is kept, and is replaced whole, never changed."""
_READ_KEPT = 4096  # a table's moves are new objects every time: none comes again
_PLAIN = frozenset({str, int})


@dataclass(frozen=True, slots=True)
class HandReport:
    """A finished hand: who dealt, what the rules report of it, how it ended, the totals after it
    (and the whole score sheet, for games that keep more than a total). The report (``summary``)
    is ``None`` once :meth:`Match.forget_summaries` dropped it: the record's lines have it."""

    hand: int
    dealer: int
    summary: HandSummary | None
    result: HandResult
    totals: tuple[int, ...]
    sheet: ScoreSheet | None = None


def draw_for_deal(rules: Rules[Any, Any], seats: int, shuffle: Shuffler) -> tuple[int, list[Card]]:
    """The draw for the first dealer (protocol v1, step 10).

    The full pack, shuffled with label ``draw-for-deal``, is dealt face up one
    card at a time from seat 0 around the table; the first seat to receive a
    card of the game's rank (an ace for Crazy Eights) deals first. Returns that
    seat and the cards turned up to find it.
    """
    order = shuffle("draw-for-deal", pack())
    for i, card in enumerate(order):
        if card.rank == rules.first_dealer_rank:
            return i % seats, order[: i + 1]
    raise AssertionError("a full pack holds every rank")  # pragma: no cover


def _reader(rules: Rules[Any, Any]) -> Any:
    """What :meth:`Rules.unread` answers by: the rules' class when they read moves as every game
    does (by the class's ``reads`` and ``title``), so that one game's records share the answers;
    else the rules themselves."""
    if type(rules).unread is Rules.unread and not {"reads", "title"} & vars(rules).keys():
        return type(rules)
    return rules


def _read_move(
    move: Move, rules: Rules[Any, Any], reader: Any, before: tuple[Move, Any, str | None, dict[str, Any] | None] | None
) -> tuple[Move, Any, str | None, dict[str, Any] | None]:
    """:data:`_READ`'s entry for ``move`` read by ``rules`` (whose :func:`_reader` is ``reader``;
    its JSON kept from ``before``, the same move read by others, if it is that)."""
    fields = before[3] if before is not None and before[0] is move else None
    read = (move, reader, rules.unread(move), fields)
    if len(_READ) >= _READ_KEPT:
        _READ.clear()
    _READ[id(move)] = read
    return read


def _move_json(read: tuple[Move, Any, str | None, dict[str, Any] | None]) -> dict[str, Any]:
    """:meth:`Move.to_json` of ``read``'s move, kept in its entry when every value is text or a
    number (an event gets a shallow copy: no two events share a list)."""
    move = read[0]
    fields = move.to_json()
    if set(map(type, fields.values())) <= _PLAIN and _READ.get(id(move)) is read:
        _READ[id(move)] = (*read[:3], fields)
    return fields


class Match:
    """A whole match of one game, driven move by move."""

    def __init__(self, rules: Rules[Any, Any], seats: int, shuffle: Shuffler, *, hold_deals: bool = False) -> None:
        rules.check_seats(seats)
        self.rules = rules
        self.seats = seats
        self._shuffle = shuffle
        self.state: GameState | None = None
        """The current (or last) hand's state; ``None`` before :meth:`start`."""
        self.sheet: ScoreSheet = rules.new_sheet(seats)
        """The match's running score, as the rules keep it (see :meth:`Rules.score_hand`)."""
        self.hands: list[HandReport] = []
        self.first_dealer: int | None = None
        self.over = False
        self.hold_deals = hold_deals
        """Whether a hand's end waits for :meth:`next_hand` before the next deal (a table with
        people pauses between hands); the record's lines are the same either way, only when
        the deal's lines come changes."""
        self.between_hands = False
        """A hand has ended, the match goes on, and the next deal waits for :meth:`next_hand`."""
        self._summaries_kept_from = 0  # the first hand whose summary forget_summaries has not dropped
        self._reader = (rules, _reader(rules))  # the rules, and what they read moves by (_READ)

    @classmethod
    def from_position(cls, rules: Rules[Any, Any], text: str, shuffle: Shuffler, *, hold_deals: bool = False) -> Match:
        """A match whose hand in play is the position ``text`` (as :meth:`position` writes it;
        spec/state.md), checked: a :class:`~fairdeal.rules.position.PositionError` names what
        is wrong (``turn: 3 is not a seat ...``, ``the pack's 7D is nowhere``). Its seats are
        the position's hands. A position holds the hand, not the match around it (spec/state.md,
        section 5): the totals start from the rules' own, no hand before it is finished, and
        ``shuffle`` makes what comes after (a restock, the next deal).

        >>> from fairdeal.rules import catalogue, get
        >>> rules, in_order = get(catalogue()["default"]), lambda label, cards: list(cards)
        >>> match = Match(rules, 2, in_order)
        >>> _ = match.start()
        >>> again = Match.from_position(rules, match.position(), in_order)
        >>> again.state == match.state, again.turn, again.legal_moves(1) == match.legal_moves(1)
        (True, 1, True)
        >>> Match.from_position(rules, match.position().replace('"turn":1', '"turn":2'), in_order)
        Traceback (most recent call last):
        ...
        fairdeal.rules.position.PositionError: turn: 2 is not a seat of this 2-seat table (seats 0 to 1)
        """
        state = read_position(rules, text)
        match = cls(rules, len(state.hands), shuffle, hold_deals=hold_deals)
        match.state = state
        return match

    def position(self) -> str:
        """The hand in play (the last one, once the match is over) as its exact JSON text
        (spec/state.md): every card where it is, hidden ones too, so a server's alone (a bug
        report, a test, a puzzle), never a seat's. :meth:`from_position` reads it back."""
        if self.state is None:
            raise IllegalMove(Said("the match has not started: there is no position yet"))
        return position_text(self.rules, self.state)

    def __repr__(self) -> str:
        return f"<Match {self.rules.name} seats={self.seats} hand={self.hand_no} totals={list(self.totals)}>"

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's total: what the standings rank."""
        return self.sheet.totals

    @totals.setter
    def totals(self, totals: Sequence[int]) -> None:
        # For tests and tools that start a match from given totals; a sheet that keeps
        # more than totals (Hollywood scoring) cannot be set from totals alone.
        if type(self.sheet) is not ScoreSheet:
            raise TypeError(f"{type(self.sheet).__name__} keeps more than totals: replace match.sheet instead")
        self.sheet = replace(self.sheet, totals=tuple(totals))

    @property
    def hand_no(self) -> int:
        return 0 if self.state is None else self.state.hand

    @property
    def dealer(self) -> int | None:
        return None if self.state is None else self.state.dealer

    @property
    def turn(self) -> int | None:
        """The seat to act, or ``None`` before the start, between hands and after the end."""
        return None if self.state is None or self.over or self.between_hands else self.state.turn

    @property
    def standings(self) -> tuple[Standing, ...]:
        """Seats by total, highest first (equal totals share a place); the final ones once :attr:`over`."""
        return standings(self.totals)

    def forget_summaries(self) -> None:
        """Drop the finished hands' summaries (every card dealt and played, for a report): playing
        on needs none of them, and a server that stores the record keeps a long match's state
        small (see :meth:`~fairdeal.seeding.SeededRecord.forget_written`)."""
        hands = self.hands
        for i in range(self._summaries_kept_from, len(hands)):
            hands[i] = replace(hands[i], summary=None)
        self._summaries_kept_from = len(hands)

    def start(self) -> list[Event]:
        """Draw for the first dealer and deal the first hand."""
        if self.state is not None:
            raise IllegalMove(Said("the match has already started"))
        dealer, turned = draw_for_deal(self.rules, self.seats, self._shuffle)
        self.first_dealer = dealer
        events: list[Event] = [{"type": "draw-for-deal", "cards": codes(turned), "dealer": dealer}]
        events.extend(self._deal(dealer, 1))
        return events

    def _deal(self, dealer: int, hand: int) -> list[Event]:
        self.state, events = self.rules.deal_hand(self.sheet, self.seats, dealer, hand, self._shuffle)
        return events

    def apply(self, seat: int, move: Move, *, auto: bool = False) -> list[Event]:
        """Make ``move`` for ``seat``; returns the move's event and all that follows from it.

        An ``auto`` move must be exactly the rules' :meth:`~Rules.auto_move`.
        Raises :class:`IllegalMove` and changes nothing when the move is not allowed.
        """
        state, rules = self.state, self.rules
        if state is None:
            raise IllegalMove(NOT_STARTED, move=move, seat=seat)
        if self.over:
            raise IllegalMove(MATCH_OVER, move=move, seat=seat)
        if self.between_hands:
            raise IllegalMove(Said("the hand is over and the next one is not dealt yet"), move=move, seat=seat)
        reader = self._reader
        if reader[0] is not rules:  # (rules given another match's way)
            reader = self._reader = (rules, _reader(rules))
        read = _READ.get(id(move))
        if read is None or read[0] is not move or read[1] is not reader[1]:
            read = _read_move(move, rules, reader[1], read)
        if read[2]:
            raise IllegalMove(read[2], move=move, seat=seat)
        if auto:
            expected = rules.auto_move(state)
            if seat != state.turn:
                raise IllegalMove(NOT_YOUR_TURN, move=move, seat=seat)
            if move is not expected and move != expected:  # (moves are mostly shared values: is, before ==)
                raise IllegalMove(Said("the auto-move here is {move}", move=str(expected)), move=move, seat=seat)
        state, derived = rules.apply(state, seat, move, self._shuffle)
        event: Event = {"type": "move", "seat": seat, **(read[3] or _move_json(read))}
        if auto:
            event["auto"] = True
        self.state = state
        if state.result is not None:
            return [event, *derived, *self._end_hand()]
        return [event, *derived] if derived else [event]

    def abandon_events(self) -> list[Event]:
        """What an abandon now must make public first (the rules' :meth:`~Rules.abandon_events`
        for the hand in play: an Eleusis round's secret rule); none before the start or after the end."""
        if self.state is None or self.over or self.state.result is not None:
            return []
        return self.rules.abandon_events(self.state)

    def auto_move(self) -> Move:
        """The move the table would make now for the seat to act."""
        if self.state is None or self.over or self.between_hands:
            raise IllegalMove(Said("no one is to act"))
        return self.rules.auto_move(self.state)

    def _end_hand(self) -> list[Event]:
        state = self.state
        assert state is not None and state.result is not None  # (apply's move has just ended the hand)
        result: HandResult = state.result
        self.sheet = self.rules.score_hand(self.sheet, state)
        self.hands.append(
            HandReport(state.hand, state.dealer, self.rules.summary(state), result, self.totals, self.sheet)
        )
        events: list[Event] = [
            {
                "type": "hand-end",
                "hand": state.hand,
                "how": result.how,
                "winners": list(result.winners),
                "counts": list(result.counts),
                "scores": list(result.scores),
                **self.sheet.record(),
            }
        ]
        if self.rules.match_over(self.sheet, len(self.hands)):
            self.over = True
            events.append({"type": "match-end", "standings": standings_json(self.standings)})
        elif self.hold_deals:
            self.between_hands = True
        else:
            events.extend(self._deal_next())
        return events

    def next_hand(self) -> list[Event]:
        """Deal the next hand of a match that holds its deals (see ``hold_deals``): the deal's
        events, the very ones an unheld match adds right after the ``hand-end``."""
        if not self.between_hands:
            raise IllegalMove(Said("no hand is waiting to be dealt"))
        self.between_hands = False
        return self._deal_next()

    def _deal_next(self) -> list[Event]:
        state = self.state
        assert state is not None  # (a hand has ended: the next one follows it)
        return self._deal((state.dealer + 1) % self.seats, state.hand + 1)

    # -- what seats see ----------------------------------------------------

    def view(self, seat: int | None) -> GameView:
        """``seat``'s view of the current hand (``None``: a spectator's)."""
        if self.state is None:
            raise IllegalMove(NOT_STARTED)
        view: GameView = self.rules.view(self.state, seat)
        return view

    def legal_moves(self, seat: int) -> list[Move]:
        if self.state is None or self.over or self.between_hands:
            return []
        return self.rules.legal_moves(self.view(seat))

    def explain(self, seat: int, card: Card) -> str | None:
        if self.over:
            return MATCH_OVER
        if self.between_hands:
            return HAND_OVER
        return self.rules.explain(self.view(seat), card)
