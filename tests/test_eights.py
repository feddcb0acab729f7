"""Eights from the Stops chapter (``eights``), as spec/games/eights.md says: Crazy Eights by the
book's play (tests/test_crazy_eights_book.py), but a hand is simply won: by going out, or in a
block by the fewest cards, and a tie is a tie. A session counts hands won.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import play
from test_eights_support import eights_state
from test_eights_support import started

from fairdeal.cards import Card
from fairdeal.rules import Move
from fairdeal.rules import get
from fairdeal.rules.eights import Eights

RULES = Eights()


def apply(state, seat, move):
    return RULES.apply(state, seat, move, None)[0]


def passes(state, *seats):
    for seat in seats:
        state = apply(state, seat, Move.pass_())
    return state


def test_registered_with_its_options():
    rules = get("eights")
    assert isinstance(rules, Eights) and rules.options == {"deals": 0, "partners": 1}


def test_the_first_player_out_wins_the_hand_and_scores_one():
    state = apply(eights_state("KD 8H 3C", "5S", "AH QC 2D", pile="5H", turn=1), 1, play("5S"))
    result = state.result
    # Counts are the cards left: Eights keeps no points.
    assert (result.how, result.winners, result.counts, result.scores) == ("out", (1,), (3, 0, 3), (0, 1, 0))


def test_a_block_is_won_by_the_fewest_cards_not_the_lowest_points():
    # Seat 0 holds two cards worth 20, seat 1 three cards worth 6: seat 0 wins the block.
    state = passes(eights_state("KD QD", "2C 3C AH", "4C 5C 6C 7C", pile="9S", turn=0), 0, 1, 2)
    result = state.result
    assert (result.how, result.winners, result.counts, result.scores) == ("blocked", (0,), (2, 3, 4), (1, 0, 0))
    assert result.reason == "seat 0 holds the fewest cards (2 cards)"


def test_a_tie_for_the_fewest_cards_is_a_tie_and_nobody_wins():
    state = passes(eights_state("KD QD", "2C 3C", "4C 5C 6C", pile="9S", turn=0), 0, 1, 2)
    result = state.result
    assert (result.how, result.winners, result.scores) == ("blocked", (), (0, 0, 0))
    assert result.reason == "a tie: seat 0 and seat 1 hold the fewest cards (2 cards each)"


def test_partners_win_together():
    state = eights_state("5S", "KD 3C", "5D", "AH QC", pile="5H", turn=0, partners=True)
    state = apply(state, 0, play("5S"))
    state = apply(state, 1, Move.pass_())
    state = apply(state, 2, play("5D"))
    assert state.result.winners == (0, 2) and state.result.scores == (1, 0, 1, 0)


def test_a_partnership_block_compares_the_sides_cards():
    # Sides: seats 0 and 2 hold 1 + 3 = 4 cards, seats 1 and 3 hold 2 + 1 = 3: seats 1 and 3 win.
    state = eights_state("KD", "2C 3C", "4C 5C 6C", "7C", pile="9S", turn=0, partners=True)
    state = passes(state, 0, 1, 2, 3)
    assert state.result.winners == (1, 3) and state.result.scores == (0, 1, 0, 1)
    assert state.result.reason == "seats 1 and 3 hold the fewest cards (3 cards)"
    tie = passes(eights_state("KD", "2C 3C", "4C 5C", "7C", pile="9S", turn=0, partners=True), 0, 1, 2, 3)
    assert (
        tie.result.winners == ()
        and tie.result.reason == "a tie: seats 0 and 2 and seats 1 and 3 hold the fewest cards (3 cards each)"
    )


@pytest.mark.parametrize("seats", [2, 4, 5])
def test_a_session_is_one_deal_per_player_and_counts_hands_won(seats):
    match = started("eights", seats, game_id=f"eights-session-{seats}")
    while not match.over:
        match.apply(match.turn, match.auto_move(), auto=True)
    assert len(match.hands) == seats
    won = [0] * seats
    for hand in match.hands:
        for seat in hand.result.winners:
            won[seat] += 1
    assert list(match.totals) == won


def test_the_deals_option():
    match = started("eights", 2, {"deals": 3}, game_id="eights-three")
    while not match.over:
        match.apply(match.turn, match.auto_move(), auto=True)
    assert len(match.hands) == 3


def test_a_starter_eight_is_buried_in_eights_too():
    from helpers import cards
    from test_eights_support import rigged

    state, events = RULES.deal(
        3, dealer=0, hand=1, shuffle=rigged(cards("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AD 2D 8S"))
    )
    assert events[0]["turned"] == ["8S", "3D"] and state.top == Card.parse("3D")


# --- the heuristic bot ---------------------------------------------------------------------


def bot_move(state, seat=0, name="eights"):
    from fairdeal.bots import HeuristicBot

    rules = get(name)
    return HeuristicBot().choose(rules, rules.view(state, seat))


def test_the_heuristic_bot_saves_its_eights_and_follows_its_long_suit():
    # A natural card fits: the one of the suit it holds most of, the eight waits.
    assert bot_move(eights_state("8S 9C 4C 4H", "KD", pile="4D", stock="2C")) == play("4C")
    # Only the eight fits and it holds four cards: "better to draw a few cards" ...
    assert bot_move(eights_state("8S 9C 4C 2H", "KD", pile="QD", stock="2C 3C 4S")) == Move.draw()
    # ... but not more than three in a turn.
    state = replace(eights_state("8S 9C 4C 2H 2C 3C 4S", "KD", pile="QD", stock="5S"), drawn=3)
    assert bot_move(state) == play("8S", "C")
    # With two cards or fewer, or the stock gone, the eight goes (naming the suit it holds).
    assert bot_move(eights_state("8S 9H", "KD", pile="QD", stock="2C")) == play("8S", "H")
    assert bot_move(eights_state("8S 9C 4C 2H", "KD", pile="QD")) == play("8S", "C")
    # Nothing fits: draw; nothing to draw: pass.
    assert bot_move(eights_state("9C 4C", "KD", pile="QD", stock="2C")) == Move.draw()
    assert bot_move(eights_state("9C 4C", "KD", pile="QD")) == Move.pass_()


@pytest.mark.parametrize("name", ["crazy-eights-book", "eights", "hollywood-eights", "go-boom", "hollywood-go-boom"])
def test_the_heuristic_bot_beats_the_random_bot(name):
    from test_eights_support import fair

    from fairdeal.bots import HeuristicBot
    from fairdeal.bots import RandomBot
    from fairdeal.match import Match

    rules = get(name, {"target": 60} if "target" in get(name).options else {"partners": 0, "deals": 8})
    margin = 0
    for game in range(16):
        match = Match(rules, 2, fair(f"bots-{name}-{game}", 2))
        match.start()
        smart = game % 2  # the heuristic bot sits at seat 0 and 1 in turn
        bots = {smart: HeuristicBot(), 1 - smart: RandomBot(game)}
        while not match.over:
            seat = match.turn
            match.apply(seat, bots[seat].choose(rules, match.view(seat)))
        margin += match.totals[smart] - match.totals[1 - smart]
    assert margin > 0
