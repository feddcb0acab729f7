"""Commit: the run game with stops face down and the nine of diamonds.

../shared/rules/stops-family.txt: 4 or more players (fairdeal seats 4 to
10); the 8♦ is taken out of the pack; the other 51 cards are dealt one at a
time from the dealer's left as far as they go evenly, and the rest lie face
down as **stops**. The leader plays any card; runs build up in suit, ace
low, to the king, and stop at the king or at a card nobody holds (a stop,
the 8♦, a card played earlier); whoever played the last card then leads any
card.

The **9♦** (it can never be reached by a run: the 8♦ is out) goes down as a
lead, or together with any play of its holder (``then``). Played with a
card, it opens a choice: from the left of its player, round the table, the
first seat holding the 10♦ or the next card of the interrupted run plays
one of them, and the run goes on that way. Its player collects two counters
from every other player; if someone goes out before the 9♦ was played, its
holder pays two counters to every other player. When someone goes out, each
king left in a hand costs its holder one counter to every other player.
spec/games/commit.md says where the text was read one way rather than
another.

>>> from fairdeal.fairness import game_key, shuffle
>>> from fairdeal.rules.move import Move
>>> key = game_key("00" * 32, "doc", ["", "", "", "", ""])
>>> rules = Commit()
>>> state, events = rules.deal(5, dealer=4, hand=1, shuffle=lambda label, cards: shuffle(key, label, cards))
>>> [len(h) for h in state.hands], len(state.dead), Card.parse("8D") in state.dead
([10, 10, 10, 10, 10], 1, False)
>>> len(rules.legal_moves(rules.view(state, 0))) >= 10  # the leader may lead any card
True
"""

from __future__ import annotations

from collections.abc import Sequence as Seq
from dataclasses import dataclass
from typing import Any
from typing import NotRequired

from fairdeal.cards import Card
from fairdeal.cards import Rank
from fairdeal.cards import codes
from fairdeal.rules.base import DEALS
from fairdeal.rules.base import Event
from fairdeal.rules.base import Layout
from fairdeal.rules.base import Shuffler
from fairdeal.rules.base import stack
from fairdeal.rules.fan_tan import ChipMove
from fairdeal.rules.move import PLAY_THEN
from fairdeal.rules.sequence import ACE_LOW
from fairdeal.rules.sequence import RunGame
from fairdeal.rules.sequence import RunState
from fairdeal.rules.sequence import RunSummary
from fairdeal.rules.sequence import RunTable
from fairdeal.rules.summary import SeatNames
from fairdeal.rules.summary import display
from fairdeal.said import Said

__all__ = ["Commit", "NINE", "REMOVED"]

REMOVED = Card.parse("8D")
"""The card taken out of Commit's pack."""
NINE = Card.parse("9D")
"""The nine of diamonds: a lead, or a second card with a play, that pays two counters from each."""
NINE_PAYS = 2
"""What the 9♦'s player collects from, or its holder at the end pays to, every other player."""


class CommitTable(RunTable):
    """Commit's table: a run game's, and the fork (the 9♦ a seat may play with another card) when
    there is one."""

    fork: NotRequired[Card]


class Commit(RunGame):
    """Commit: 4 to 10 players, a 51-card pack (no 8♦) dealt evenly, the rest face down as
    stops; any card leads; runs go up to the king or a stop; the 9♦ goes down as a lead or
    with a play and opens a choice; counters for the 9♦ and for kings left.

    Options: ``deals`` (0, the default: each player deals once) and ``stack`` (each
    player's counters at the start, default 50).

    The text's example: a run begun with 3♠; the next player plays 4♠ then 9♦; the player
    at his left may go on with 10♦ or with 5♠:

    >>> from fairdeal.rules.move import Move
    >>> rules = Commit()
    >>> cards = lambda text: tuple(map(Card.parse, text.split()))
    >>> hands = (cards("KC"), cards("4S 9D 2H"), cards("TD 5S"), cards("JD QC"))
    >>> state = RunState(hand=1, dealer=3, hands=hands, turn=1, plays=((0, Card.parse("3S")),), runs=(0,),
    ...                  current=Card.parse("3S"), net=(0, 0, 0, 0))
    >>> state, events = rules.apply(state, 1, Move.play(Card.parse("4S"), then=NINE), None)
    >>> [(e["from"], e["to"], e["amount"]) for e in events]
    [(2, 1, 2), (3, 1, 2), (0, 1, 2)]
    >>> state.turn, rules.legal_moves(rules.view(state, 2))
    (2, [Move.play(Card.parse('TD')), Move.play(Card.parse('5S'))])
    """

    renderer = "commit"

    name = "commit"
    table_json = CommitTable
    lobby_order = 160
    title = "Commit"
    min_seats = 4
    max_seats = 10
    summary_line = "Runs up in suit to the king or a stop; the 9♦ pays two from each."
    OPTIONS = (DEALS, stack("counters"))
    unit = "counters"
    layout = Layout(hands="as far as the cards go evenly; the rest face down", removed=("8D",), extra="stops")
    moves = (PLAY_THEN,)
    order = ACE_LOW
    lowest_lead = False
    new_suit = False
    uses_chips = True
    special = NINE

    def deal(self, seats: int, dealer: int, hand: int, shuffle: Shuffler) -> tuple[RunState, list[Event]]:
        # The 8♦ out (the layout's removed card), as far as the cards go evenly; the rest are the
        # stops, face down.
        hands, stops = self.deal_cards(seats, dealer, hand, shuffle, evenly=True)
        state = RunState(
            hand=hand,
            dealer=dealer,
            hands=hands,
            turn=(dealer + 1) % seats,
            dead=tuple(stops),
            net=(0,) * seats,
            dealt=hands,
        )
        return state, [{"type": "deal", "hand": hand, "dealer": dealer}]

    def on_play(self, state: RunState, seat: int, card: Card, plays: Seq[tuple[int, Card]]) -> list[ChipMove]:
        if card is not NINE:
            return []
        return [ChipMove("nine-of-diamonds", (seat + i) % state.seats, seat, NINE_PAYS) for i in range(1, state.seats)]

    def next_turn(
        self, hands: tuple[tuple[Card, ...], ...], seat: int, card: Card, then: Card | None
    ) -> dict[str, Any]:
        if then is not NINE:
            return super().next_turn(hands, seat, card, then)
        # The 9♦ interrupts the run of ``card``: it goes on from either, round the table
        # from the left of the 9♦'s player (he comes last).
        wanted = self.wanted(NINE, card)
        seats = len(hands)
        for i in range(1, seats + 1):
            holder = (seat + i) % seats
            if any(c in hands[holder] for c in wanted):
                return {"current": NINE, "fork": card, "turn": holder, "stopped": None, "privilege": False}
        return self.stop(hands, seat, None)

    def why_not_special(self, base: Seq[Card]) -> str:
        if base:
            return Said("9♦ goes down as a lead, or together with a play of yours: play {card} then 9♦", card=base[0])
        return Said("9♦ goes down as a lead, or together with a play of yours")

    def on_out(self, state: RunState, winner: int) -> list[ChipMove]:
        seats = state.seats
        moves = []
        holder = state.holder(NINE)
        if holder is not None:
            # Someone went out before the 9♦ was played: its holder pays each other player.
            moves += [ChipMove("held-nine", holder, (holder + i) % seats, NINE_PAYS) for i in range(1, seats)]
        for payer in ((winner + i) % seats for i in range(1, seats)):
            kings = sum(1 for c in state.hands[payer] if c.rank == Rank.KING)
            if kings:
                moves += [ChipMove("held-king", payer, (payer + i) % seats, kings) for i in range(1, seats)]
        return moves

    def summary(self, state: RunState) -> CommitSummary:
        return CommitSummary(**super().summary(state).fields(), stops=tuple(sorted(state.dead)))


@dataclass(frozen=True, kw_only=True)
class CommitSummary(RunSummary):
    """A Commit hand: the run games' summary with the ``stops``, the cards dealt face down.

    >>> from fairdeal.rules.summary import SeatNames
    >>> summary = CommitSummary(deal=((),), hand=1, runs=(), left=((),), chips=(), stops=(Card.parse("9S"),))
    >>> summary.to_json()["stops"], summary.lines(SeatNames(("Ann",)))[1]
    (['9S'], '  stops (face down): 9♠')
    """

    stops: tuple[Card, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "stops": codes(self.stops)}

    def layout_lines(self, names: SeatNames) -> list[str]:
        return [f"  stops (face down): {display(self.stops)}"]
