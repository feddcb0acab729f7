"""Sequence, and the run engine it shares with Michigan and Commit: every rule of spec/games/sequence.md.

Positions are built by hand (hands as card codes, the table as the runs played so far) so what
is under test is plain to read; deals use the real protocol shuffle under a fixed seed, or a
shuffler that leaves the pack in card order. The last tests play whole sessions from fixed
seeds through the match and a real table, and check that ``legal_moves``, ``apply`` and
``explain`` agree at every step.
"""

from __future__ import annotations

import random
from functools import partial

import helpers
import pytest
from helpers import play_session
from helpers import run_position

from fairdeal.cards import ALL_CARDS
from fairdeal.cards import Card
from fairdeal.cards import Suit
from fairdeal.cards import codes
from fairdeal.fairness import game_key
from fairdeal.fairness import shuffle
from fairdeal.match import Match
from fairdeal.rules import IllegalMove
from fairdeal.rules import Move
from fairdeal.rules import OptionsError
from fairdeal.rules import get
from fairdeal.rules.sequence import RunState
from fairdeal.rules.sequence import deal_round

NO_SHUFFLE = helpers.in_order  # the pack stays in card order
RULES = get("sequence")


def position(
    *hands: str,
    turn: int = 0,
    runs: str = "",
    current: str | None = None,
    stopped: str | None = None,
    dealer: int | None = None,
) -> RunState:
    """A Sequence position: the seats' hands, and the runs on the table (``"4S 5S | 2H"``:
    two runs, cards in the order played; the seat that played them does not matter here)."""
    return run_position(
        *hands,
        turn=turn,
        runs=runs,
        current=current,
        dealer=dealer,
        stopped=None if stopped is None else Suit.parse(stopped),
    )


legal = partial(helpers.legal, RULES)


def play(state: RunState, seat: int, code: str, rules=RULES) -> tuple[RunState, list[dict]]:
    return rules.apply(state, seat, Move.play(Card.parse(code)), NO_SHUFFLE)


refusal = partial(helpers.refusal, RULES)


# --- players, options, the deal -------------------------------------------------


def test_two_to_ten_players_and_the_deals_option():
    assert (RULES.min_seats, RULES.max_seats) == (2, 10)
    with pytest.raises(OptionsError, match="Sequence is for 2 to 10 players, not 11"):
        RULES.check_seats(11)
    assert RULES.options == {"deals": 0}
    with pytest.raises(OptionsError, match="deals must be between"):
        get("sequence", {"deals": -1})
    with pytest.raises(OptionsError, match="sequence has no option 'target'"):
        get("sequence", {"target": 100})


@pytest.mark.parametrize("seats", range(2, 11))
def test_the_whole_pack_is_dealt_one_at_a_time_from_the_dealers_left(seats):
    dealer = seats - 1
    state, events = RULES.deal(seats, dealer, 1, NO_SHUFFLE)
    assert events == [{"type": "deal", "hand": 1, "dealer": dealer}]
    assert sorted(c for h in state.hands for c in h) == list(ALL_CARDS)
    # Seat 0 is the dealer's left: it gets the first card, A♣, then the card seats later.
    assert state.hands[0][:2] == (ALL_CARDS[0], ALL_CARDS[seats])
    sizes = [len(h) for h in state.hands]
    assert sizes == [52 // seats + (1 if s < 52 % seats else 0) for s in range(seats)]
    assert state.turn == 0 and state.current is None


def test_deal_round():
    assert [codes(h) for h in deal_round(list(ALL_CARDS[:5]), 2)] == [["AC", "3C", "5C"], ["2C", "4C"]]


def test_the_deal_follows_the_seed():
    key = game_key("11" * 32, "seq-deal", ["", "", ""])
    state, _ = RULES.deal(3, 2, 4, lambda label, cards: shuffle(key, label, cards))
    order = shuffle(key, "hand/4/deal", list(ALL_CARDS))
    assert state.hands[0] == tuple(order[0::3]) and state.hands[2] == tuple(order[2::3])


# --- leading and following: the text's example ---------------------------------------


def test_the_texts_example_from_the_four_of_spades_to_the_ace():
    # "the first player's lowest spade is the 4 (... some other player had the 3 and the 2)":
    # he puts down 4♠, somebody else 5♠, another player both 6♠ and 7♠, ... up to A♠.
    state = position("4S 8C", "5S 2S 3S 9S JS KS 2H", "6S 7S 8S TS QS AS 3H")
    assert legal(state) == ["play 8C", "play 4S"]
    state, events = play(state, 0, "4S")
    assert events == [] and state.turn == 1 and legal(state) == ["play 5S"]
    state, _ = play(state, 1, "5S")
    assert state.turn == 2
    state, _ = play(state, 2, "6S")
    assert state.turn == 2 and legal(state) == ["play 7S"]  # the same player, again
    for seat, code in [(2, "7S"), (2, "8S"), (1, "9S"), (2, "TS"), (1, "JS"), (2, "QS"), (1, "KS")]:
        state, _ = play(state, seat, code)
    assert state.turn == 2
    state, _ = play(state, 2, "AS")
    # "When the Ace is reached, the one who plays it must begin a new suit", with his lowest card of it.
    assert state.current is None and state.turn == 2 and state.stopped == Suit.SPADES
    assert legal(state) == ["play 3H"]
    assert [codes(run) for run in state.run_cards()] == [
        ["4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"]
    ]


def test_a_lead_is_the_lowest_card_of_a_suit_the_leader_chooses():
    state = position("KS 4S 9H 2H AD", "3C")
    assert legal(state) == ["play AD", "play 2H", "play 4S"]
    assert (
        RULES.explain(RULES.view(state, 0), Card.parse("9H"))
        == "a lead is your lowest card of a suit: your lowest heart is 2♥"
    )
    assert (
        refusal(state, 0, Move.play(Card.parse("KS")))
        == "a lead is your lowest card of a suit: your lowest spade is 4♠"
    )


def test_the_holder_of_the_next_card_must_play_it_and_nothing_else():
    state = position("4S 9C", "5S 2C 7S", turn=0)
    state, _ = play(state, 0, "4S")
    view = RULES.view(state, 1)
    assert legal(state) == ["play 5S"]
    assert RULES.explain(view, Card.parse("2C")) == "you must play 5♠, the next card of the run"
    assert RULES.explain(view, Card.parse("7S")) == "you must play 5♠, the next card of the run"
    assert RULES.explain(view, Card.parse("4S")) == "4♠ is already on the table"
    assert RULES.explain(view, Card.parse("AH")) == "you do not hold A♥"
    assert RULES.explain(RULES.view(state, 0), Card.parse("9C")) == "it is not your turn"
    assert refusal(state, 0, Move.play(Card.parse("9C"))) == "it is not your turn"
    assert refusal(state, 1, Move.pass_()) == "Sequence has no move 'pass' now: play a card"
    assert refusal(state, 1, Move.play(Card.parse("5S"), Suit.HEARTS)) == "Sequence names no suit"


def test_a_run_stops_at_a_card_already_played_in_an_earlier_run():
    # Spades ran from 4♠ to A♠ earlier; 2♠ now leads spades, 3♠ follows, and 4♠ is on the table:
    # the run stops as at an ace, and the player of the 3♠ leads a new suit.
    state = position("2S 5H", "3S 9D 6H", runs="4S 5S 6S 7S 8S 9S TS JS QS KS AS")
    state, _ = play(state, 0, "2S")
    assert state.turn == 1
    state, _ = play(state, 1, "3S")
    assert state.current is None and state.turn == 1 and state.stopped == Suit.SPADES
    assert legal(state) == ["play 9D", "play 6H"]


def test_after_a_stop_a_leader_with_only_that_suit_passes_the_lead_to_the_left():
    # Seat 1 plays the ace of clubs and holds only clubs: the lead goes to its left, to seat 2,
    # which holds a heart (seat 3 would too, but later).
    state = position("2C", "AC 3C", "5C 7H", "4C 8D", turn=1, runs="QC KC", current="KC")
    state, _ = play(state, 1, "AC")
    assert state.current is None and state.stopped == Suit.CLUBS
    assert state.turn == 2 and legal(state) == ["play 7H"]
    # If nobody holds another suit, the player of the last card leads that suit again.
    state = position("2C", "AC 3C", "5C", turn=1, runs="QC KC", current="KC")
    state, _ = play(state, 1, "AC")
    assert state.turn == 1 and legal(state) == ["play 3C"]


def test_the_lead_passes_over_seats_holding_only_the_stopped_suit():
    state = position("3D 9D", "AS 2S", "4S", "KH 5S", turn=1, runs="QS KS", current="KS")
    state, _ = play(state, 1, "AS")
    # Seat 1 holds only spades, seat 2 too; seat 3 holds a heart; seat 0 would too, but later.
    assert state.turn == 3 and legal(state) == ["play KH"]
    assert RULES.explain(RULES.view(state, 3), Card.parse("5S")) == "begin a new suit: the spades run has just stopped"


# --- the end of a deal, the session -----------------------------------------------------


def test_the_first_out_wins_and_losers_lose_a_point_per_card():
    state = position("9D", "TD 2C 3C", "4H 5H 6H 7H")
    state, events = play(state, 0, "9D")
    assert events == [] and state.result is not None
    result = state.result
    assert (result.how, result.winners, result.counts, result.scores) == ("out", (0,), (0, 3, 4), (0, -3, -4))
    assert state.turn is None and RULES.legal_moves(RULES.view(state, 1)) == []
    assert RULES.explain(RULES.view(state, 1), Card.parse("TD")) == "the hand is over"
    assert refusal(state, 1, Move.play(Card.parse("TD"))) == "the hand is over"
    with pytest.raises(IllegalMove, match="the hand is over"):
        RULES.auto_move(state)


def test_a_session_is_one_deal_per_player_by_default_and_totals_add_up():
    key = game_key("22" * 32, "seq-session", ["", "", ""])
    match = Match(RULES, 3, lambda label, cards: shuffle(key, label, cards))
    events = match.start()
    assert [e["type"] for e in events] == ["draw-for-deal", "deal"]
    assert events[0]["cards"][-1][0] == "J"  # the first jack deals first
    ends = []
    while not match.over:
        ends += [e for e in match.apply(match.turn, match.auto_move(), auto=True) if e["type"] == "hand-end"]
    assert len(ends) == 3 and [e["hand"] for e in ends] == [1, 2, 3]
    for end in ends:
        assert end["scores"] == [-n for n in end["counts"]] and end["counts"].count(0) == 1
    assert list(match.totals) == [sum(e["scores"][s] for e in ends) for s in range(3)]
    assert match.standings[0].total == max(match.totals)
    assert [h.dealer for h in match.hands] == [(match.first_dealer + i) % 3 for i in range(3)]
    assert get("sequence", {"deals": 5}).deals_in_session(3) == 5


# --- the timer's auto-move, views --------------------------------------------------------


def test_the_auto_move_is_the_forced_card_or_the_lowest_lead():
    state = position("KS 4S 9H 3H 3D", "2C")
    assert RULES.auto_move(state) == Move.play(Card.parse("3D"))  # lowest rank; diamonds before hearts
    state = position("4H 2S", "5H 2C", turn=0, runs="3H", current="3H")
    assert RULES.auto_move(state) == Move.play(Card.parse("4H"))


def test_a_view_shows_the_seats_own_hand_and_the_table_only():
    state = position("4S 8C", "5S 2S", "3S")
    state, _ = play(state, 0, "4S")
    view = RULES.view(state, 1)
    data = view.to_json()
    assert data["hand"] == ["5S", "2S"] and data["hand_sizes"] == [1, 2, 1]
    assert data["runs"] == [["4S"]] and data["current"] == "4S" and data["turn"] == 1
    assert "layout" not in data and "discarded" not in data
    spectator = RULES.view(state, None).to_json()
    assert spectator["hand"] == [] and RULES.legal_moves(RULES.view(state, None)) == []
    with pytest.raises(ValueError, match="no seat -1"):
        RULES.view(state, -1)


# --- whole games: legal_moves, apply and explain agree -------------------------------------


@pytest.mark.parametrize("seats", [2, 4, 7, 10])
def test_whole_sessions_legal_moves_apply_and_explain_agree(seats):
    key = game_key("33" * 32, f"seq-{seats}", [""] * seats)
    match = Match(get("sequence", {"deals": 2}), seats, lambda label, cards: shuffle(key, label, cards))

    def only_the_seat_to_act_plays(seat, moves):
        assert all(m.kind == "play" for m in moves)
        for other in range(seats):
            if other != seat:
                assert match.legal_moves(other) == []

    play_session(match, random.Random(seats), 0.5, only_the_seat_to_act_plays)
    assert len(match.hands) == 2
