"""Commit: every rule of spec/games/commit.md, with the text's example of the nine of diamonds.

Positions are built by hand; deals use a shuffler that leaves the pack in card order, or the
real protocol shuffle under a fixed seed.
"""

from __future__ import annotations

import random
from functools import partial

import helpers
import pytest
from helpers import cards
from helpers import chips
from helpers import play_session
from helpers import run_position

from fairdeal.cards import ALL_CARDS
from fairdeal.cards import Card
from fairdeal.fairness import game_key
from fairdeal.fairness import shuffle
from fairdeal.match import Match
from fairdeal.rules import Move
from fairdeal.rules import OptionsError
from fairdeal.rules import get
from fairdeal.rules.commit import NINE
from fairdeal.rules.commit import REMOVED
from fairdeal.rules.sequence import BID
from fairdeal.rules.sequence import EXCHANGE
from fairdeal.rules.sequence import RunState
from fairdeal.rules.sequence import run_choice

NO_SHUFFLE = helpers.in_order  # the pack stays in card order
COMMIT = get("commit")


def position(*hands: str, turn: int = 0, runs: str = "", current: str | None = None, stops: str = "") -> RunState:
    return run_position(*hands, turn=turn, runs=runs, current=current, dead=cards(stops))


legal = partial(helpers.legal, COMMIT)


def act(state: RunState, seat: int, code: str, then: str | None = None) -> tuple[RunState, list[dict]]:
    move = Move.play(Card.parse(code), then=None if then is None else Card.parse(then))
    return COMMIT.apply(state, seat, move, NO_SHUFFLE)


refusal = partial(helpers.refusal, COMMIT)


# --- players, the pack, the deal ---------------------------------------------------------


def test_commit_reads_a_second_card_but_no_bid():
    assert COMMIT.unread(BID(1)) == "Commit has no move 'bid'"
    assert COMMIT.unread(EXCHANGE()) == "Commit has no move 'exchange'"
    assert COMMIT.unread(Move.play(Card.parse("4S"), then=NINE)) is None


def test_four_or_more_players_and_options():
    assert (COMMIT.min_seats, COMMIT.max_seats) == (4, 10)
    with pytest.raises(OptionsError, match="Commit is for 4 to 10 players, not 3"):
        COMMIT.check_seats(3)
    assert COMMIT.options == {"deals": 0, "stack": 50}


@pytest.mark.parametrize(
    "seats, each, stops", [(4, 12, 3), (5, 10, 1), (6, 8, 3), (7, 7, 2), (8, 6, 3), (9, 5, 6), (10, 5, 1)]
)
def test_without_the_eight_of_diamonds_dealt_evenly_and_the_rest_are_stops(seats, each, stops):
    state, events = COMMIT.deal(seats, seats - 1, 1, NO_SHUFFLE)
    assert events == [{"type": "deal", "hand": 1, "dealer": seats - 1}]
    assert [len(h) for h in state.hands] == [each] * seats and len(state.dead) == stops
    everything = sorted(state.dead + sum(state.hands, ()))
    assert everything == [c for c in ALL_CARDS if c is not REMOVED]
    # The stops are the cards left after the even deal: the end of the 51-card order.
    assert state.dead == tuple(c for c in ALL_CARDS if c is not REMOVED)[each * seats :]
    assert COMMIT.view(state, 0).dead_size == stops


def test_the_deal_shuffles_the_51_card_pack_in_card_order():
    key = game_key("66" * 32, "commit-deal", [""] * 5)
    state, _ = COMMIT.deal(5, 4, 2, lambda label, cards: shuffle(key, label, cards))
    order = shuffle(key, "hand/2/deal", [c for c in ALL_CARDS if c is not REMOVED])
    assert state.hands[0] == tuple(order[0:50:5]) and state.dead == (order[50],)


# --- runs -------------------------------------------------------------------------------------


def test_the_leader_plays_any_card_and_the_run_builds_up_in_suit_to_the_king():
    state = position("7C KS 2H", "8C 9C 4D", "TC JC QC KC AS")
    assert legal(state) == ["play 7C", "play 2H", "play KS"]
    state, _ = act(state, 0, "7C")
    assert state.turn == 1 and legal(state) == ["play 8C"]
    for seat, code in [(1, "8C"), (1, "9C"), (2, "TC"), (2, "JC"), (2, "QC")]:
        state, _ = act(state, seat, code)
    state, _ = act(state, 2, "KC")
    # The king ends the run; its player begins a new one with any card (the ace is below the two).
    assert state.current is None and state.turn == 2 and legal(state) == ["play AS"]


def test_a_stop_face_down_or_the_missing_eight_of_diamonds_stops_the_run():
    state = position("4H 9S", "5H KD", "6S", stops="6H")
    state, _ = act(state, 0, "4H")
    state, _ = act(state, 1, "5H")
    assert state.current is None and state.turn == 1
    # Any card leads, the same suit too (no "new suit" rule in Commit).
    assert legal(state) == ["play KD"]
    state = position("7D 2S", "3S", "4S")
    state, _ = act(state, 0, "7D")
    assert state.current is None and state.turn == 0


def test_explain_says_which_card_must_follow():
    state = position("5S 2C", "3C", "4S", turn=0, runs="3S 4S", current="4S")
    assert COMMIT.explain(COMMIT.view(state, 0), Card.parse("2C")) == "you must play 5♠, the next card of the run"
    assert refusal(state, 0, Move.play(Card.parse("2C"))) == "you must play 5♠, the next card of the run"


# --- the nine of diamonds ----------------------------------------------------------------------


def test_the_texts_example_the_nine_of_diamonds_opens_a_choice():
    # "somebody begins a sequence with the 3 of spades. The next player puts down the 4 of spades
    # and then follows it with a 9 of diamonds. This gives a choice to the player at his left:
    # he may continue with a 10 of diamonds or with the 5 of spades."
    state = position("3S KC", "4S 9D 2H", "TD 5S QH", "JD 6S", turn=0)
    state, _ = act(state, 0, "3S")
    assert state.turn == 1 and legal(state) == ["play 4S", "play 4S then 9D"]
    state, events = act(state, 1, "4S", then="9D")
    assert chips(events) == [
        ("nine-of-diamonds", 2, 1, 2),
        ("nine-of-diamonds", 3, 1, 2),
        ("nine-of-diamonds", 0, 1, 2),
    ]
    assert state.turn == 2 and state.fork == Card.parse("4S") and legal(state) == ["play TD", "play 5S"]
    assert (
        COMMIT.explain(COMMIT.view(state, 2), Card.parse("QH")) == "you must play 5♠ or 10♦, the next card of the run"
    )
    # He takes the diamonds: J♦ follows, the spades wait for a new lead.
    state, _ = act(state, 2, "TD")
    assert state.fork is None and state.turn == 3 and legal(state) == ["play JD"]


def test_after_the_nine_the_turn_passes_left_to_the_first_player_holding_either_card():
    state = position("6S", "4S 9D KH", "QH", "5S 7C", turn=1, runs="3S", current="3S")
    state, _ = act(state, 1, "4S", then="9D")
    assert state.turn == 3 and legal(state) == ["play 5S"]
    state, _ = act(state, 3, "5S")
    assert state.current == Card.parse("5S") and state.fork is None and state.turn == 0


def test_after_the_nine_with_neither_card_held_its_player_leads_again():
    state = position("2C", "4S 9D KH", "QH", "7C", turn=1, runs="3S", current="3S", stops="5S TD")
    state, _ = act(state, 1, "4S", then="9D")
    assert state.current is None and state.turn == 1 and legal(state) == ["play KH"]


def test_the_nine_may_lead_but_never_goes_down_alone_in_a_run():
    state = position("9D 2C", "TD", "3C", "4C")
    assert "play 9D" in legal(state) and "play 2C then 9D" in legal(state)
    state, events = act(state, 0, "9D")
    assert chips(events) == [("nine-of-diamonds", s, 0, 2) for s in (1, 2, 3)]
    assert state.turn == 1 and legal(state) == ["play TD"]
    running = position("9D 5S", "2C", "3C", "4C", turn=0, runs="4S", current="4S")
    view = COMMIT.view(running, 0)
    assert COMMIT.explain(view, NINE) == "9♦ goes down as a lead, or together with a play of yours: play 5♠ then 9♦"
    assert refusal(running, 0, Move.play(NINE)) == COMMIT.explain(view, NINE)


# --- the end of a deal: the nine held, kings left --------------------------------------------------


def test_going_out_before_the_nine_was_played_costs_its_holder_two_to_each_and_kings_one_each():
    state = position("5C", "9D KS KH 2D", "KC 3D", "4D 6D", turn=0)
    state, events = act(state, 0, "5C")
    assert chips(events) == [
        ("held-nine", 1, 2, 2),
        ("held-nine", 1, 3, 2),
        ("held-nine", 1, 0, 2),
        ("held-king", 1, 2, 2),
        ("held-king", 1, 3, 2),
        ("held-king", 1, 0, 2),
        ("held-king", 2, 3, 1),
        ("held-king", 2, 0, 1),
        ("held-king", 2, 1, 1),
    ]
    assert state.result.winners == (0,) and state.result.counts == (0, 4, 2, 2)
    assert state.result.scores == (5, -11, 1, 5) and sum(state.result.scores) == 0


def test_no_payment_for_a_nine_already_played_or_lying_among_the_stops():
    state = position("5C", "KS 2D", "3D", "4D", turn=0, stops="9D")
    _, events = act(state, 0, "5C")
    assert chips(events) == [("held-king", 1, 2, 1), ("held-king", 1, 3, 1), ("held-king", 1, 0, 1)]


def test_the_auto_move_never_plays_the_nine_with_a_card():
    state = position("9D 2C 2S AH", "3C")
    assert COMMIT.auto_move(state) == Move.play(Card.parse("AH"))  # the lowest card, ace low
    state = position("9D 5S", "2C", "3C", "4C", turn=0, runs="4S", current="4S")
    assert COMMIT.auto_move(state) == Move.play(Card.parse("5S"))


def test_the_heuristic_bot_plays_the_nine_at_once_and_leads_its_longest_suit():
    state = position("9D 2C 5C 8C 3S", "3C")
    view = COMMIT.view(state, 0)
    assert run_choice(COMMIT, view, COMMIT.legal_moves(view)) == Move.play(Card.parse("2C"), then=NINE)


# --- whole games --------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [4, 6, 10])
def test_whole_sessions_agree_and_counters_balance(seats):
    key = game_key("77" * 32, f"commit-{seats}", [""] * seats)
    match = Match(get("commit", {"deals": 3}), seats, lambda label, cards: shuffle(key, label, cards))
    play_session(match, random.Random(seats), 0.5)
    assert sum(match.totals) == 50 * seats
    assert all(sum(h.result.scores) == 0 for h in match.hands)
