"""Crazy Eights by the book (``crazy-eights-book``), as spec/games/crazy-eights-book.md says, and
what it shares with Eights and Hollywood Eights: the deal (two packs for six or more), drawing
until able to play with no restock, passing, blocks, partnerships.

Positions are written as card codes (tests/test_eights_support.py); whole hands use the real
protocol shuffle under fixed seeds.
"""

from __future__ import annotations

import random

import pytest
from helpers import cards
from helpers import play
from test_eights_support import EIGHTS_GAMES
from test_eights_support import check_positions_in_play
from test_eights_support import eights_state
from test_eights_support import fair
from test_eights_support import rigged
from test_eights_support import started

from fairdeal.cards import Card
from fairdeal.cards import pack
from fairdeal.match import Match
from fairdeal.rules import IllegalMove
from fairdeal.rules import Move
from fairdeal.rules import OptionsError
from fairdeal.rules import get
from fairdeal.rules.eights import BookCrazyEights

RULES = BookCrazyEights()
NO_SHUFFLE = None  # these games never shuffle after the deal


def apply(state, seat, move, rules=RULES):
    new, events = rules.apply(state, seat, move, NO_SHUFFLE)
    assert events == []
    return new


# --- players, packs, options ---------------------------------------------------------


def test_registered_with_its_options():
    rules = get("crazy-eights-book")
    assert isinstance(rules, BookCrazyEights) and rules.options == {"deals": 0, "partners": 1}
    assert (rules.min_seats, rules.max_seats) == (2, 8)


@pytest.mark.parametrize("name", EIGHTS_GAMES)
@pytest.mark.parametrize(
    "options, message",
    [
        ({"partners": 2}, "partners must be 0"),
        ({"deals": -1}, "deals must be between"),
        ({"restock_limit": 20}, "has no option 'restock_limit'"),
    ],
)
def test_options_the_games_cannot_play_are_refused(name, options, message):
    if "deals" in options and name == "hollywood-eights":
        options, message = {"target": 0}, "target must be between"
    with pytest.raises(OptionsError, match=message):
        get(name, options)


@pytest.mark.parametrize("name", EIGHTS_GAMES)
def test_two_to_eight_players(name):
    rules = get(name)
    for seats in (2, 8):
        rules.check_seats(seats)
    for seats in (1, 9):
        with pytest.raises(OptionsError, match="is for 2 to 8 players"):
            rules.check_seats(seats)


@pytest.mark.parametrize("seats, size, packs", [(2, 7, 1), (3, 5, 1), (5, 5, 1), (6, 5, 2), (8, 5, 2)])
def test_the_deal_seven_each_for_two_else_five_and_two_packs_for_six_or_more(seats, size, packs):
    calls = []

    def shuffler(label, deck):
        calls.append((label, len(deck)))
        return list(deck)

    state, events = RULES.deal(seats, dealer=0, hand=3, shuffle=shuffler)
    assert calls == [("hand/3/deal", 52 * packs)]
    assert [len(h) for h in state.hands] == [size] * seats
    assert len(state.stock) + len(state.pile) + size * seats == 52 * packs
    assert events == [{"type": "deal", "hand": 3, "dealer": 0, "turned": [c.code for c in state.turned]}]


def test_two_packs_are_protocol_v1_pack_order_and_deal_from_the_dealers_left():
    seen = []
    state, _ = RULES.deal(6, dealer=5, hand=1, shuffle=lambda label, deck: seen.append(list(deck)) or list(deck))
    assert seen == [pack(2)]
    # Unshuffled, card i goes to seat (dealer + 1 + i) mod 6: seat 0 gets AC 7C KC 6D QD.
    assert state.hands[0] == cards("AC 7C KC 6D QD")
    # The 31st card (5H) is turned: the second pack begins 21 cards later in the stock.
    assert state.top == Card.parse("5H") and state.stock[20:22] == cards("KS AC")


def test_a_turned_eight_goes_back_into_the_middle_of_the_stock():
    order = cards("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AD 8H 8D")
    state, events = RULES.deal(2, dealer=1, hand=1, shuffle=rigged(order))
    # 8H turned: back at index floor(37/2) = 18 of the stock without it; 8D turned likewise; then 2D.
    assert events[0]["turned"] == ["8H", "8D", "2D"]
    assert state.top == Card.parse("2D") and state.stock[16:18] == cards("8H 8D")


# --- drawing from the stock: any time at one's turn, until it is gone ---------------------


def test_a_seat_may_draw_even_when_it_can_play_and_go_on_drawing():
    state = eights_state("9H 2C", "KD 3C", pile="5H", stock="7S 4S QC", turn=0)
    assert RULES.legal_moves(RULES.view(state, 0)) == [play("9H"), Move.draw()]
    state = apply(state, 0, Move.draw())
    state = apply(state, 0, Move.draw())
    assert state.turn == 0 and state.drawn == 2 and state.hands[0] == cards("9H 2C 7S 4S")
    # Drawing a card that fits does not end the turn: there is no "keep"; it plays or draws on.
    assert RULES.legal_moves(RULES.view(state, 0)) == [play("9H"), Move.draw()]
    with pytest.raises(IllegalMove, match="has no move 'keep': play a card, draw, or pass"):
        apply(state, 0, Move.keep())
    state = apply(state, 0, play("9H"))
    assert state.turn == 1 and state.drawn == 0


def test_no_restock_the_stock_once_gone_is_gone():
    state = eights_state("9C 2C", "KD 3C", pile="4H TH 5H", stock="", turn=0)
    with pytest.raises(IllegalMove, match="the stock is empty: there is nothing to draw"):
        apply(state, 0, Move.draw())
    assert RULES.legal_moves(RULES.view(state, 0)) == [Move.pass_()]


def test_pass_only_with_the_stock_gone_and_nothing_that_fits():
    state = eights_state("9C 2C", "KD 3C", pile="5H", stock="7S", turn=0)
    with pytest.raises(IllegalMove, match="you may pass only when the stock is empty: draw until a card fits"):
        apply(state, 0, Move.pass_())
    state = eights_state("9C 5C", "KD 3C", pile="5H", turn=0)
    with pytest.raises(IllegalMove, match="you may pass only when you cannot play, and 5♣ fits"):
        apply(state, 0, Move.pass_())


def test_eights_are_wild_and_name_a_suit():
    state = eights_state("8C 2C", "KD 3C", pile="5H", turn=0)
    with pytest.raises(IllegalMove, match="name a suit for 8♣"):
        apply(state, 0, Move.play(Card.parse("8C")))
    with pytest.raises(IllegalMove, match="only an eight names a suit"):
        apply(eights_state("5C", "KD", pile="5H"), 0, play("5C", "S"))
    state = apply(state, 0, play("8C", "D"))
    assert state.named.letter == "D" and state.turn == 1
    assert RULES.explain(RULES.view(state, 1), Card.parse("3C")) == "3♣ does not match ♦, the suit named with 8♣"
    assert RULES.legal_moves(RULES.view(state, 1)) == [play("KD")]


def test_explain_says_why_a_card_cannot_go():
    state = eights_state("9C 2C", "KD 3C", pile="5H", stock="7S", turn=0)
    view = RULES.view(state, 0)
    assert RULES.explain(view, Card.parse("9C")) == "9♣ does not match 5♥ in suit or rank"
    assert RULES.explain(view, Card.parse("KD")) == "you do not hold K♦"
    assert RULES.explain(RULES.view(state, 1), Card.parse("KD")) == "it is not your turn"
    with pytest.raises(IllegalMove, match=r"illegal move play 9C by seat 0: 9♣ does not match 5♥ in suit or rank"):
        apply(state, 0, play("9C"))
    with pytest.raises(IllegalMove, match="it is not your turn"):
        apply(state, 1, Move.draw())


def test_two_packs_a_hand_may_hold_the_same_card_twice():
    state = eights_state("9H 9H 2C", "KD 3C", pile="5H", turn=0, hand=1)
    assert RULES.legal_moves(RULES.view(state, 0)) == [play("9H")]
    state = apply(state, 0, play("9H"))
    assert state.hands[0] == cards("9H 2C") and state.pile == cards("5H 9H")


# --- going out and blocks: settlements -------------------------------------------------


def test_going_out_collects_from_each_other_player_the_points_in_his_hand():
    # Seat 0 holds K♦ 8♥ 3♣ (63), seat 2 A♥ Q♣ 2♦ (13): seat 1 goes out and collects 76.
    state = eights_state("KD 8H 3C", "5S", "AH QC 2D", pile="5H", turn=1)
    state = apply(state, 1, play("5S"))
    result = state.result
    assert (result.how, result.winners, result.counts, result.scores) == ("out", (1,), (63, 0, 13), (-63, 76, -13))
    assert state.turn is None and result.reason == "seat 1 went out"


def test_a_block_pays_the_lowest_count_the_differences():
    # Everyone passes in turn with the stock gone: counts 6, 10, 23: seat 0 collects 4 + 17.
    state = eights_state("4D 2C", "JH", "3C KH QD", pile="5S 9S", turn=0)
    for seat in (0, 1):
        state = apply(state, seat, Move.pass_())
        assert state.result is None and state.passes == seat + 1
    state = apply(state, 2, Move.pass_())
    result = state.result
    assert (result.how, result.winners, result.counts, result.scores) == ("blocked", (0,), (6, 10, 23), (21, -4, -17))
    assert result.reason == "the lowest count is 6"


def test_a_play_after_passes_starts_the_count_again():
    state = eights_state("4D 2C", "JH 9H", "3C KH", pile="5S 9S", turn=0)
    state = apply(state, 0, Move.pass_())
    state = apply(state, 1, play("9H"))
    assert state.passes == 0


def test_tied_lowest_counts_divide_the_winnings_odd_points_from_the_dealers_left():
    # Counts 6, 6, 17, 8: the pot is 11 + 2 = 13; seats 0 and 1 divide it, 7 and 6. With the
    # dealer at seat 0 the first tied winner round from his left is seat 1: it takes the odd point.
    state = eights_state("4D 2C", "3D 3H", "JH 7D", "5C 3D", pile="9S", turn=1, dealer=0)
    for seat in (1, 2, 3, 0):
        state = apply(state, seat, Move.pass_())
    assert state.result.winners == (0, 1) and state.result.counts == (6, 6, 17, 8)
    assert state.result.scores == (6, 7, -11, -2) and sum(state.result.scores) == 0
    assert state.result.reason == "the lowest count is 6, held by 2 players, who divide 13"


# --- the four-hand partnership game ------------------------------------------------------


def test_partners_sit_across_and_a_seat_that_is_out_drops_out_of_the_turn():
    state = eights_state("5S", "KD 3C", "5D 9D", "AH QC", pile="5H", turn=0, partners=True)
    state = apply(state, 0, play("5S"))
    # Seat 0 is out, but its partner (seat 2) is not: the other three play on.
    assert state.result is None and state.out == (0,) and state.turn == 1
    state = apply(state, 1, Move.pass_())
    state = apply(state, 2, play("5D"))
    state = apply(state, 3, Move.pass_())
    assert state.turn == 1, "seat 0's turn is skipped"
    assert RULES.view(state, 0).hand == () and RULES.legal_moves(RULES.view(state, 0)) == []


def test_a_partnership_goes_out_together_and_collects_from_the_other_side():
    state = eights_state("5S", "KD 3C", "5D", "AH QC", pile="5H", turn=0, partners=True)
    state = apply(state, 0, play("5S"))
    assert state.turn == 1
    with pytest.raises(IllegalMove, match="it is not your turn"):
        apply(state, 0, Move.pass_())
    # Seat 1 cannot follow 5♠ (K♦ 3♣), the stock is gone: it passes; seat 2 goes out with 5♦.
    state = apply(state, 1, Move.pass_())
    assert state.turn == 2
    state = apply(state, 2, play("5D"))
    result = state.result
    assert result.how == "out" and result.winners == (0, 2) and result.reason == "seats 0 and 2 went out"
    # The side collects the other side's points, 13 + 11 = 24; each partner shows the side's score.
    assert result.counts == (0, 13, 0, 11) and result.scores == (24, -24, 24, -24)
    assert state.out == (0, 2)


def test_an_out_seat_is_skipped_and_a_block_needs_only_the_seats_still_in():
    state = eights_state("", "KD 3C", "4D 9D", "AH QC", pile="5S", turn=1, partners=True, out=(0,))
    state = apply(state, 1, Move.pass_())
    assert state.turn == 2
    state = apply(state, 2, Move.pass_())
    assert state.turn == 3
    state = apply(state, 3, Move.pass_())
    # Three passes in a row from the three seats still in: blocked. The sides' counts are
    # 0 + 13 = 13 against 13 + 11 = 24: seats 0 and 2 collect the difference, 11.
    result = state.result
    assert result.how == "blocked" and result.winners == (0, 2)
    assert result.scores == (11, -11, 11, -11)
    assert result.reason == "seats 0 and 2 have the lower count (13 to 24)"


def test_sides_with_equal_counts_tie_and_nobody_collects():
    state = eights_state("3D", "KD", "TD", "3C", pile="5S", turn=0, partners=True)
    for seat in range(4):
        state = apply(state, seat, Move.pass_())
    assert state.result.winners == () and state.result.scores == (0, 0, 0, 0)
    assert state.result.reason == "the sides' counts are equal (13 each)"


def test_partners_zero_plays_four_players_each_for_himself():
    rules = get("crazy-eights-book", {"partners": 0})
    state, _ = rules.deal(4, dealer=0, hand=1, shuffle=lambda label, deck: list(deck))
    assert state.sides == ((0,), (1,), (2,), (3,)) and not state.partnership
    partners, _ = RULES.deal(4, dealer=0, hand=1, shuffle=lambda label, deck: list(deck))
    assert partners.sides == ((0, 2), (1, 3))
    # Partnerships are for four players only.
    three, _ = RULES.deal(3, dealer=0, hand=1, shuffle=lambda label, deck: list(deck))
    assert three.sides == ((0,), (1,), (2,))


# --- the match: a session of deals ----------------------------------------------------------


def test_a_session_is_one_deal_per_player_and_the_settlements_add_up_to_nothing():
    match = started("crazy-eights-book", 3, game_id="book-session")
    while not match.over:
        match.apply(match.turn, match.auto_move(), auto=True)
    assert [h.dealer for h in match.hands] == [(match.first_dealer + i) % 3 for i in range(3)]
    assert sum(match.totals) == 0
    assert match.standings[0].total == max(match.totals)
    match = started("crazy-eights-book", 2, {"deals": 5}, game_id="book-five")
    while not match.over:
        match.apply(match.turn, match.auto_move(), auto=True)
    assert len(match.hands) == 5


def test_the_timer_plays_the_lowest_card_saving_eights_else_draws_else_passes():
    state = eights_state("8C KH 3H 2S", "QD", pile="5H", stock="4C", turn=0)
    assert RULES.auto_move(state) == play("3H")
    state = eights_state("8C 2S 3S", "QD", pile="5H", stock="4C", turn=0)
    assert RULES.auto_move(state) == play("8C", "S")
    state = eights_state("2S 3S", "QD", pile="5H", stock="4C", turn=0)
    assert RULES.auto_move(state) == Move.draw()
    state = eights_state("2S 3S", "QD", pile="5H", turn=0)
    assert RULES.auto_move(state) == Move.pass_()


@pytest.mark.parametrize("name", EIGHTS_GAMES)
@pytest.mark.parametrize("seats, options", [(2, {}), (4, {}), (4, {"partners": 0}), (6, {})])
def test_legal_moves_are_exactly_what_apply_accepts(name, seats, options):
    rules = get(name, options)
    rng = random.Random(f"{name}/{seats}/{options}")
    match = Match(rules, seats, fair(f"legal-{name}-{seats}-{options}", seats))
    assert check_positions_in_play(rules, match, rng, 0.3, 60) >= 20
