"""Helpers for the tests of the draw-pile Stops games (crazy-eights-book, eights, hollywood-eights,
go-boom, hollywood-go-boom): positions written as card codes, rigged and fair shufflers, and a
check that ``legal_moves``, ``apply`` and ``explain`` agree.

Not a test module of its own (it holds one self-check); the games' tests import it.
"""

from __future__ import annotations

from collections.abc import Sequence

from helpers import cards
from helpers import pile_state
from helpers import protocol_shuffler

from fairdeal.cards import ALL_CARDS
from fairdeal.cards import Card
from fairdeal.cards import Suit
from fairdeal.match import Match
from fairdeal.rules import IllegalMove
from fairdeal.rules import Move
from fairdeal.rules import Rules
from fairdeal.rules import get
from fairdeal.rules.eights import EightsState
from fairdeal.rules.eights import sides_of
from fairdeal.rules.go_boom import GoBoomState

DRAW_PILE_GAMES = ("crazy-eights-book", "eights", "hollywood-eights", "go-boom", "hollywood-go-boom")
EIGHTS_GAMES = DRAW_PILE_GAMES[:3]
GO_BOOM_GAMES = DRAW_PILE_GAMES[3:]
SEED = "00" * 32


def eights_state(*hands: str, pile: str, partners: bool = False, out: Sequence[int] = (), **position) -> EightsState:
    """An Eights hand in progress (:func:`helpers.pile_state`); ``pile`` is bottom first (its last
    card is the top, its first the starter), ``stock`` top first."""
    return pile_state(
        EightsState,
        *hands,
        pile=pile,
        sides=sides_of(len(hands), partners),
        out=tuple(out),
        dealt=tuple(cards(h) for h in hands),
        turned=cards(pile)[:1],
        **position,
    )


def go_boom_state(
    *hands: str,
    stock: str = "",
    turn: int = 0,
    plays: str = "",
    passed: Sequence[int] = (),
    leader: int | None = None,
    hand: int = 1,
) -> GoBoomState:
    """A Go Boom hand in progress; ``plays`` is the round so far as ``"seat:card ..."``."""
    round_ = tuple((int(seat), Card.parse(code)) for seat, code in (p.split(":") for p in plays.split()))
    return GoBoomState(
        hand=hand,
        dealer=(turn - 1) % len(hands),
        hands=tuple(cards(h) for h in hands),
        stock=cards(stock),
        leader=round_[0][0] if round_ else (turn if leader is None else leader),
        turn=turn,
        plays=round_,
        passed=tuple(passed),
        dealt=tuple(cards(h) for h in hands),
    )


def rigged(order: Sequence[Card]):
    """A shuffler that deals ``order`` (then the rest of the pack it was given) for every hand,
    and leaves the draw for the first dealer in card order (seat 0 gets the ace of clubs)."""

    def shuffler(label: str, deck: Sequence[Card]) -> list[Card]:
        if label == "draw-for-deal":
            return list(deck)
        rest = list(deck)
        for card in order:
            rest.remove(card)
        return list(order) + rest

    return shuffler


def fair(game_id: str, seats: int):
    return protocol_shuffler(game_id, seats, SEED)[1]


def started(name: str, seats: int, options=None, game_id: str = "t", shuffler=None) -> Match:
    match = Match(get(name, options), seats, shuffler or fair(game_id, seats))
    match.start()
    return match


ALL_MOVES = [Move.draw(), Move.keep(), Move.pass_()] + [
    Move.play(card, suit) for card in ALL_CARDS for suit in (None, *Suit)
]


def check_position(rules: Rules, state) -> None:
    """Every seat's ``legal_moves`` are exactly the moves ``apply`` accepts, and a card's
    ``explain`` is ``None`` exactly when some play of it is legal."""
    for seat in range(state.seats):
        view = rules.view(state, seat)
        legal = rules.legal_moves(view)
        accepted = []
        for move in ALL_MOVES:
            try:
                rules.apply(state, seat, move, lambda label, deck: list(deck))
            except IllegalMove:
                continue
            accepted.append(move)
        assert sorted(map(str, legal)) == sorted(map(str, accepted)), (seat, state)
        for card in set(state.hands[seat]):
            playable = any(m.kind == "play" and m.card == card for m in legal)
            assert (rules.explain(view, card) is None) == playable, (seat, card)


def check_positions_in_play(rules: Rules, match: Match, rng, chance: float, most: int) -> int:
    """Start ``match`` and play it with random legal moves, checking :func:`check_position`
    before a move with probability ``chance``, until it is over or ``most`` positions are
    checked: how many were."""
    match.start()
    checked = 0
    while not match.over and checked < most:
        if rng.random() < chance:
            check_position(rules, match.state)
            checked += 1
        seat = match.turn
        match.apply(seat, rng.choice(match.legal_moves(seat)))
    return checked


def test_the_helpers_build_what_they_say():
    state = eights_state("5S", "KD 8H 3C", pile="2S 5H", stock="AC", turn=1)
    assert state.top == Card.parse("5H") and state.dealer == 0 and state.stock == cards("AC")
    boom = go_boom_state("5S", "KD", "4C", plays="2:4C 0:5S", turn=1)
    assert boom.leader == 2 and boom.previous == Card.parse("5S")
    match = started("eights", 3, shuffler=rigged(cards("KS QS JS 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 9D")))
    assert match.dealer == 0 and match.state.hands[1][:3] == cards("KS 2C 5C")
