"""Go Boom and Hollywood Go Boom (``go-boom``, ``hollywood-go-boom``), as spec/games/go-boom.md
says: the text's example (J♦, then J♣, then a club or a jack), drawing until able, passing with
the stock gone, rounds led by the highest card (A high; of equal ranks the first played), the
first out winning the losers' points, and Hollywood scoring.
"""

from __future__ import annotations

import random

import pytest
from helpers import cards
from helpers import play
from test_eights_support import GO_BOOM_GAMES
from test_eights_support import check_positions_in_play
from test_eights_support import fair
from test_eights_support import go_boom_state
from test_eights_support import started

from fairdeal.cards import Card
from fairdeal.match import Match
from fairdeal.rules import IllegalMove
from fairdeal.rules import Move
from fairdeal.rules import OptionsError
from fairdeal.rules import get
from fairdeal.rules.go_boom import GoBoom
from fairdeal.rules.go_boom import HollywoodGoBoom
from fairdeal.rules.go_boom import go_boom_points
from fairdeal.rules.go_boom import round_winner
from fairdeal.rules.hollywood import HollywoodSheet

RULES = GoBoom()


def apply(state, seat, move, rules=RULES):
    new, events = rules.apply(state, seat, move, None)
    assert events == []
    return new


def test_registered_with_their_options():
    assert isinstance(get("go-boom"), GoBoom) and get("go-boom").options == {"target": 100}
    assert isinstance(get("hollywood-go-boom"), HollywoodGoBoom)
    assert get("hollywood-go-boom").options == {"target": 100}
    with pytest.raises(OptionsError, match="target must be between"):
        get("go-boom", {"target": 0})


@pytest.mark.parametrize("name", GO_BOOM_GAMES)
def test_two_to_seven_players_seven_cards_each_from_one_pack(name):
    rules = get(name)
    for seats in (2, 7):
        state, events = rules.deal(seats, dealer=seats - 1, hand=2, shuffle=lambda label, deck: list(deck))
        assert [len(h) for h in state.hands] == [7] * seats and len(state.stock) == 52 - 7 * seats
        assert state.turn == state.leader == 0 and events == [{"type": "deal", "hand": 2, "dealer": seats - 1}]
    with pytest.raises(OptionsError, match="is for 2 to 7 players, not 8"):
        rules.check_seats(8)


def test_the_texts_example_jack_of_diamonds_then_jack_of_clubs_then_a_club_or_a_jack():
    state = go_boom_state("JD 2S", "JC 5D 3H", "4C JH 9S", "2H 6D", stock="KS", turn=0)
    # The leader may put down any card.
    assert RULES.legal_moves(RULES.view(state, 0)) == [play("JD"), play("2S")]
    state = apply(state, 0, play("JD"))
    # "The next player may follow with any diamond or with another Jack."
    assert RULES.legal_moves(RULES.view(state, 1)) == [play("JC"), play("5D")]
    state = apply(state, 1, play("JC"))
    # "... the third player may then match with a club or with one of the two remaining Jacks."
    assert RULES.legal_moves(RULES.view(state, 2)) == [play("4C"), play("JH")]
    assert RULES.explain(RULES.view(state, 2), Card.parse("9S")) == "9♠ does not match J♣ in suit or rank"


def test_a_player_who_cannot_match_draws_until_able_then_plays():
    state = go_boom_state("4C", "2H 6S", stock="3S 7S 9C KS", plays="0:9D", turn=1)
    assert RULES.legal_moves(RULES.view(state, 1)) == [Move.draw()]
    with pytest.raises(IllegalMove, match="you must play when you can, and 6♦ matches 9♦"):
        apply(go_boom_state("4C", "2H 6D", stock="3S", plays="0:9D", turn=1), 1, Move.draw())
    with pytest.raises(IllegalMove, match="you may pass only when the stock is empty: draw until a card matches"):
        apply(state, 1, Move.pass_())
    state = apply(state, 1, Move.draw())
    state = apply(state, 1, Move.draw())
    assert state.hands[1] == cards("2H 6S 3S 7S") and state.turn == 1 and state.drawn == 2
    state = apply(state, 1, Move.draw())
    # 9♣ matches the 9: the only move now is to play it.
    assert RULES.legal_moves(RULES.view(state, 1)) == [play("9C")]
    with pytest.raises(IllegalMove, match="you must play when you can"):
        apply(state, 1, Move.draw())


def test_a_player_who_uses_up_the_stock_passes():
    state = go_boom_state("4C", "2H 6S", "3D", stock="", plays="0:9D", turn=1)
    assert RULES.legal_moves(RULES.view(state, 1)) == [Move.pass_()]
    with pytest.raises(IllegalMove, match="the stock is empty: there is nothing to draw"):
        apply(state, 1, Move.draw())
    state = apply(state, 1, Move.pass_())
    assert state.passed == (1,) and state.turn == 2


def test_the_leader_neither_draws_nor_passes():
    state = go_boom_state("4C 5C", "2H", stock="KS", turn=0)
    for move in (Move.draw(), Move.pass_()):
        with pytest.raises(IllegalMove, match="you lead this round: put down any card"):
            apply(state, 0, move)


def test_when_everyone_has_played_or_passed_the_highest_card_leads_the_next_round():
    state = go_boom_state("4C 5C", "2H 6C", "KC QS", stock="", plays="1:2H", turn=2)
    # Seat 2 cannot match 2♥ and the stock is gone; seat 0 cannot match either.
    state = apply(state, 2, Move.pass_())
    state = apply(state, 0, Move.pass_())
    # Only 2♥ was played: seat 1 leads again.
    assert state.leader == 1 and state.turn == 1 and state.plays == () and state.passed == ()
    state = apply(state, 1, play("6C"))
    state = apply(state, 2, play("KC"))
    state = apply(state, 0, play("5C"))
    assert state.leader == 2 and state.turn == 2
    assert [r["won_by"] for r in state.rounds] == [1, 2]
    assert state.rounds[1] == {
        "leader": 1,
        "plays": [{"seat": 1, "card": "6C"}, {"seat": 2, "card": "KC"}, {"seat": 0, "card": "5C"}],
        "passed": [],
        "won_by": 2,
    }


def test_ace_is_high_and_of_equal_ranks_the_first_played_wins():
    assert round_winner([(0, Card.parse("KD")), (1, Card.parse("AD")), (2, Card.parse("QD"))]) == 1
    assert round_winner([(2, Card.parse("7S")), (0, Card.parse("7H")), (1, Card.parse("2H"))]) == 2
    state = go_boom_state("7H 2C", "7C 3C", "9D 5C", stock="", plays="2:7S", turn=0)
    state = apply(state, 0, play("7H"))
    state = apply(state, 1, play("7C"))
    assert state.leader == 2, "7♠ was played first"


def test_the_first_out_wins_the_losers_points():
    # Picture cards 10, an ace 1, other cards their number: 10 + 1 + 8 and 3 + 10.
    state = go_boom_state("KS AC 8D", "5H", "3C TD", stock="2S", plays="0:5S", turn=1)
    state = apply(state, 1, play("5H"))
    result = state.result
    assert (result.how, result.winners, result.counts, result.scores) == ("out", (1,), (19, 0, 13), (0, 32, 0))
    assert state.turn is None and state.rounds[-1]["won_by"] is None
    assert [go_boom_points(c) for c in cards("KS QD JH TC 9S AH")] == [10, 10, 10, 10, 9, 1]


def test_the_timer_plays_the_lowest_card_that_matches_else_draws_else_passes():
    assert RULES.auto_move(go_boom_state("KS 2D AC", "5H", turn=0)) == play("AC")
    assert RULES.auto_move(go_boom_state("4C", "KH 2H 6D", stock="3S", plays="0:9H", turn=1)) == play("2H")
    assert RULES.auto_move(go_boom_state("4C", "6D", stock="3S", plays="0:9H", turn=1)) == Move.draw()
    assert RULES.auto_move(go_boom_state("4C", "6D", plays="0:9H", turn=1)) == Move.pass_()


def test_go_boom_plays_to_the_target():
    match = started("go-boom", 3, game_id="go-boom-match")
    while not match.over:
        match.apply(match.turn, match.auto_move(), auto=True)
    ends = [h.totals for h in match.hands]
    assert max(ends[-1]) >= 100 and all(max(t) < 100 for t in ends[:-1])


def test_hollywood_go_boom_keeps_three_games():
    match = started("hollywood-go-boom", 2, game_id="hollywood-go-boom-match")
    while not match.over:
        match.apply(match.turn, match.auto_move(), auto=True)
    assert isinstance(match.sheet, HollywoodSheet) and match.sheet.over
    first = match.hands[0]
    winner = first.result.winners[0]
    # The first hand won goes into game 1 only.
    assert first.sheet.games[0][winner] == first.result.scores[winner] and first.sheet.games[1] == (0, 0)


@pytest.mark.parametrize("name", GO_BOOM_GAMES)
@pytest.mark.parametrize("seats", [2, 3, 5, 7])
def test_legal_moves_are_exactly_what_apply_accepts(name, seats):
    rules = get(name)
    rng = random.Random(f"{name}/{seats}")
    match = Match(rules, seats, fair(f"legal-{name}-{seats}", seats))
    assert check_positions_in_play(rules, match, rng, 0.4, 40) >= 15


def test_the_heuristic_bot_plays_high_and_leads_its_long_suit():
    from fairdeal.bots import HeuristicBot

    def choose(state, seat):
        return HeuristicBot().choose(RULES, RULES.view(state, seat))

    # Leading: the highest card of the suit it holds most of.
    assert choose(go_boom_state("2S 9S KS 4H AH", "5D", turn=0), 0) == play("KS")
    # Following: the highest card that matches (A high), for the lead of the next round.
    assert choose(go_boom_state("4C", "AH 3H 9D", stock="2C", plays="0:9H", turn=1), 1) == play("AH")
    assert choose(go_boom_state("4C", "3S 7C", stock="2C", plays="0:9H", turn=1), 1) == Move.draw()
