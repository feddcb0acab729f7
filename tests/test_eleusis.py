"""Eleusis (fairdeal/rules/eleusis.py, spec/games/eleusis.md): the deal, the judgements, the
Forecaster, expulsion, the scores, the secret rule's commitment and reveal, the views, the bots."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace

import pytest

from fairdeal.bots import make_bot
from fairdeal.cards import Card
from fairdeal.cards import pack
from fairdeal.cards import parse_cards
from fairdeal.fairness import GameShuffle
from fairdeal.fairness import game_key
from fairdeal.fairness import rule_commitment
from fairdeal.match import Match
from fairdeal.rules import RULES
from fairdeal.rules import IllegalMove
from fairdeal.rules import Move
from fairdeal.rules import get
from fairdeal.rules.base import stream_bytes
from fairdeal.rules.eleusis import CALL
from fairdeal.rules.eleusis import FORECAST
from fairdeal.rules.eleusis import HARD_STOP
from fairdeal.rules.eleusis import NO_PLAY
from fairdeal.rules.eleusis import RULE
from fairdeal.rules.eleusis import STRING
from fairdeal.rules.eleusis import Eleusis
from fairdeal.rules.eleusis import EleusisState
from fairdeal.rules.eleusis import first_player
from fairdeal.rules.eleusis import high_count_scores
from fairdeal.rules.eleusis import player_order
from fairdeal.rules.secret_rule import LIBRARY
from fairdeal.rules.secret_rule import RuleError
from fairdeal.rules.secret_rule import SecretRule

ALTERNATE = "card.colour != last.colour"
"""The rule most tests play under: a red card after a black one, or a black after a red."""


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def fair(seats: int, tag: str = "eleusis") -> GameShuffle:
    return GameShuffle(game_key("00" * 32, tag, [""] * seats))


def dealt(seats: int = 4, dealer: int = 0, mode: int = 0, hand: int = 1, tag: str = "eleusis", **options):
    rules = Eleusis({"dealer": mode, **options})
    state, events = rules.deal(seats, dealer, hand, fair(seats, tag))
    return rules, state, events


def position(state: EleusisState, *, rule: str = ALTERNATE, **changes) -> EleusisState:
    """``state`` in play under ``rule``, with ``changes`` (a layout, hands, a turn ...)."""
    state = replace(state, rule=rule, commitment=rule_commitment(rule, state.nonce), phase="play", **changes)
    if "sidelines" not in changes:
        state = replace(state, sidelines=tuple(() for _ in state.mainline))
    return state


def play(rules, state, seat, move, tag="eleusis"):
    return rules.apply(state, seat, move, fair(state.seats, tag))


# What a judgement line leaves out when it did not happen.
NOTHING_HAPPENED = {
    "dealer_card": None,
    "returned": 0,
    "fresh": 0,
    "forecaster": None,
    "call": None,
    "call_card": None,
    "overthrown": False,
    "forecaster_penalty": 0,
    "expelled": False,
}


def judgement(events):
    """The judgement line of ``events``, with what it leaves out filled in."""
    return NOTHING_HAPPENED | next(e for e in events if e["type"] == "judgement")


# -- the deal --------------------------------------------------------------------------------


def test_the_deal_gives_each_player_fourteen_one_at_a_time_from_the_dealers_left_then_the_starter():
    rules, state, events = dealt(seats=5, dealer=2)
    order = fair(5)("hand/1/deal", pack(2))
    players = player_order(5, 2, True)
    assert players == (3, 4, 0, 1, 2)
    for i, seat in enumerate(players):
        assert state.hands[seat] == tuple(order[i : 14 * 5 : 5])
    assert state.mainline == (order[70],) and state.sidelines == ((),)
    assert state.stock == tuple(order[71:]) and len(state.stock) == 104 - 71
    assert state.dealt == state.hands
    assert events[0] == {"type": "deal", "hand": 1, "dealer": 2, "starter": order[70].code}
    assert state.turn == state.first == first_player(players, order[70])


def test_the_seat_dealer_gets_no_cards_and_the_deal_skips_him():
    rules, state, events = dealt(seats=4, dealer=1, mode=1)
    order = fair(4)("hand/1/deal", pack(2))
    assert state.hands[1] == ()
    for i, seat in enumerate((2, 3, 0)):
        assert state.hands[seat] == tuple(order[i : 14 * 3 : 3])
    assert state.mainline == (order[42],)
    assert (state.phase, state.turn, state.rule, state.commitment) == ("rule", 1, None, None)
    assert [e["type"] for e in events] == ["deal"]


def test_eight_players_dealt_by_the_server_need_a_third_pack_during_the_deal():
    rules, state, events = dealt(seats=8, dealer=0)
    assert [len(h) for h in state.hands] == [14] * 8
    restock = {"type": "restock", "hand": 1, "restock": 1, "cards": 52}
    assert restock in events and state.restocks == 1
    # 104 cards, 100 dealt leaves 4: the third pack goes under them.
    order = fair(8)("hand/1/deal", pack(2))
    third = fair(8)("hand/1/restock/1", pack())
    dealt_order = order + third
    assert state.mainline == (dealt_order[112],) and state.stock == tuple(dealt_order[113:])


def test_the_first_player_is_found_by_counting_to_the_starters_value():
    assert first_player((1, 2, 3), Card.parse("AH")) == 1
    assert first_player((1, 2, 3), Card.parse("3H")) == 3
    assert first_player((1, 2, 3), Card.parse("4H")) == 1
    # A king counts 13: round the three players four times and one more.
    assert first_player((1, 2, 3), Card.parse("KS")) == 1
    assert first_player((1, 2, 3, 4, 0), Card.parse("KS")) == 3
    assert first_player((2, 3, 4, 5, 6, 7, 0, 1), Card.parse("QD")) == 5


# -- plays and strings ------------------------------------------------------------------------


@pytest.fixture
def table():
    rules, state, _ = dealt()
    state = position(
        state,
        mainline=cards("7H"),
        turn=1,
        hands=(cards("2C 3C"), cards("2S 3H 4D 5S 2S"), cards("4C 5C"), cards("6C 7C")),
    )
    return rules, state


def test_a_right_card_goes_on_the_mainline(table):
    rules, state = table
    after, events = play(rules, state, 1, Move.play(Card.parse("2S")))
    assert after.mainline == cards("7H 2S") and after.sidelines == ((), ())
    assert after.hands[1] == cards("3H 4D 5S 2S")
    j = judgement(events)
    assert (j["right"], j["penalty"], j["cards"]) == (True, 0, ["2S"])
    assert after.phase == "offer" and after.turn == 1


def test_a_wrong_card_goes_below_the_last_mainline_card_and_costs_two(table):
    rules, state = table
    top = state.stock[:2]
    after, events = play(rules, state, 1, Move.play(Card.parse("3H")))
    assert after.mainline == cards("7H") and after.sidelines == ((cards("3H"),),)
    assert after.hands[1] == cards("2S 4D 5S 2S") + top
    assert judgement(events)["penalty"] == 2


def test_a_right_string_extends_the_mainline(table):
    rules, state = table
    after, events = play(rules, state, 1, STRING(cards("2S 3H 5S")))
    assert after.mainline == cards("7H 2S 3H 5S") and len(after.sidelines) == 4
    assert judgement(events)["right"] is True and after.hands[1] == cards("4D 2S")


def test_a_wrong_string_stays_together_as_one_sideline_entry_and_costs_two_per_card(table):
    rules, state = table
    after, events = play(rules, state, 1, STRING(cards("2S 5S 3H")))
    assert after.sidelines == ((cards("2S 5S 3H"),),)
    assert judgement(events)["penalty"] == 6 and len(after.hands[1]) == 2 + 6


def test_a_string_may_hold_a_card_twice_only_if_held_twice(table):
    rules, state = table
    after, _ = play(rules, state, 1, STRING(cards("2S 2S")))
    assert after.sidelines == ((cards("2S 2S"),),)
    with pytest.raises(IllegalMove, match="you do not hold 4♦ twice"):
        play(rules, state, 1, STRING(cards("4D 4D")))
    with pytest.raises(IllegalMove, match="you do not hold 9♣"):
        play(rules, state, 1, STRING(cards("2S 9C")))


def test_only_the_player_to_act_plays(table):
    rules, state = table
    with pytest.raises(IllegalMove, match="it is not your turn"):
        play(rules, state, 2, Move.play(Card.parse("4C")))
    with pytest.raises(IllegalMove, match="you do not hold"):
        play(rules, state, 1, Move.play(Card.parse("4C")))
    with pytest.raises(IllegalMove, match="just after your own play"):
        play(rules, state, 1, FORECAST())


# -- no play ----------------------------------------------------------------------------------


def test_a_right_no_play_with_four_cards_or_fewer_returns_them_to_the_stock_and_ends_the_round(table):
    rules, state = table
    state = replace(state, hands=state.hands[:1] + (cards("3H 4D AH"),) + state.hands[2:])
    after, events = play(rules, state, 1, NO_PLAY())
    assert after.hands[1] == () and after.stock[-3:] == cards("3H 4D AH")
    assert after.phase == "over" and after.result.how == "out" and after.result.winners == (1,)
    assert judgement(events)["returned"] == 3
    assert events[-1]["type"] == "rule-reveal"
    # Counted as a player with no cards: the high count and 4.
    assert after.result.scores == (0, 2 + 4, 0, 0)


def test_a_right_no_play_with_five_cards_or_more_gives_a_fresh_hand_four_cards_smaller(table):
    rules, state = table
    reds = cards("3H 4D AH 9D 9H 3H")
    state = replace(state, hands=state.hands[:1] + (reds,) + state.hands[2:])
    after, events = play(rules, state, 1, NO_PLAY())
    assert after.hands[1] == state.stock[:2]
    assert after.stock[-6:] == reds
    j = judgement(events)
    assert (j["right"], j["returned"], j["fresh"], j["penalty"]) == (True, 6, 2, 0)
    assert after.phase == "offer"


def test_a_wrong_no_play_puts_the_first_right_card_on_the_mainline_and_costs_five(table):
    rules, state = table
    after, events = play(rules, state, 1, NO_PLAY())
    assert after.mainline == cards("7H 2S")
    assert after.hands[1] == cards("3H 4D 5S 2S") + state.stock[:5]
    j = judgement(events)
    assert (j["right"], j["dealer_card"], j["penalty"], j["cards"]) == (False, "2S", 5, ["2S", "3H", "4D", "5S", "2S"])


# -- the stock ---------------------------------------------------------------------------------


def test_a_stock_down_to_four_cards_gets_a_fresh_pack_under_it(table):
    rules, state = table
    state = replace(state, stock=cards("AC AD AH AS KC KD"))
    after, events = play(rules, state, 1, Move.play(Card.parse("3H")))
    restock = fair(4)("hand/1/restock/1", pack())
    assert {"type": "restock", "hand": 1, "restock": 1, "cards": 52} in events
    assert after.hands[1][-2:] == cards("AC AD")
    assert after.stock == cards("AH AS KC KD") + tuple(restock)
    assert after.restocks == 1 and after.restocked == (tuple(restock),)
    # The next run-down brings pack 2 (label restock/2).
    again, events = play(
        rules, replace(after, stock=after.stock[-5:], phase="play", turn=1), 1, Move.play(Card.parse("4D"))
    )
    assert events[0]["restock"] == 2 and again.stock[-52:] == tuple(fair(4)("hand/1/restock/2", pack()))


# -- the Forecaster ----------------------------------------------------------------------------


def test_a_player_who_has_just_played_may_declare_himself_forecaster(table):
    rules, state = table
    offered, _ = play(rules, state, 1, Move.play(Card.parse("3H")))
    assert rules.legal_moves(rules.view(offered, 1)) == [FORECAST(), Move.pass_()]
    assert rules.auto_move(offered) == Move.pass_()
    declined, _ = play(rules, offered, 1, Move.pass_())
    assert (declined.phase, declined.turn, declined.forecaster) == ("play", 2, None)
    forecast, _ = play(rules, offered, 1, FORECAST())
    assert (forecast.forecaster, forecast.marker, forecast.marker_layout) == (1, 0, 2)
    assert forecast.was_forecaster == {1} and (forecast.phase, forecast.turn) == ("play", 2)


@pytest.mark.parametrize("why", ["a forecaster already", "was forecaster", "too few others", "expelled"])
def test_no_offer_to_forecast_unless_all_four_conditions_hold(table, why):
    rules, state = table
    if why == "a forecaster already":
        state = replace(state, forecaster=3, marker=0, marker_layout=1, was_forecaster=frozenset({3}))
        state, _ = play(rules, state, 1, Move.play(Card.parse("2S")))
        state, _ = play(rules, state, 3, CALL("right"))
    else:
        if why == "was forecaster":
            state = replace(state, was_forecaster=frozenset({1}))
        if why == "too few others":
            state = replace(state, expelled=frozenset({2, 3}))
        if why == "expelled":
            state = long_layout(state, 40)
        state, _ = play(rules, state, 1, Move.play(Card.parse("3H")))
        if why == "expelled":
            assert state.expelled == {1}
    assert (state.phase, state.turn) == ("play", 0 if why == "too few others" else 2)


def test_a_correct_call_completes_the_play_as_usual(table):
    rules, state = table
    state = replace(state, forecaster=3, marker=0, marker_layout=1, was_forecaster=frozenset({3}))
    pending, events = play(rules, state, 1, Move.play(Card.parse("3H")))
    assert (pending.phase, pending.turn, events) == ("call", 3, [])
    assert rules.legal_moves(rules.view(pending, 3)) == [CALL("right"), CALL("wrong")]
    assert rules.view(pending, 0).pending.cards == cards("3H")
    after, events = play(rules, pending, 3, CALL("wrong"))
    j = judgement(events)
    assert (j["call"], j["overthrown"], j["penalty"], j["forecaster"]) == ("wrong", False, 2, 3)
    assert after.forecaster == 3 and after.turn == 2  # the Forecaster takes no turns
    assert len(after.hands[3]) == 2


def test_an_incorrect_call_overthrows_the_forecaster(table):
    rules, state = table
    state = replace(state, forecaster=3, marker=0, marker_layout=1, was_forecaster=frozenset({3}))
    pending, _ = play(rules, state, 1, Move.play(Card.parse("3H")))
    after, events = play(rules, pending, 3, CALL("right"))
    j = judgement(events)
    assert (j["right"], j["overthrown"], j["penalty"], j["forecaster_penalty"]) == (False, True, 0, 5)
    assert after.sidelines == ((cards("3H"),),)  # the dealer completes the play
    assert after.hands[1] == cards("2S 4D 5S 2S")  # no penalty cards to the player
    assert after.hands[3] == cards("6C 7C") + state.stock[:5]
    assert (after.forecaster, after.marker) == (None, None) and after.was_forecaster == {3}
    # The player who overthrew him may now forecast; the ex-Forecaster never again this round.
    assert after.phase == "offer" and after.turn == 1
    after, _ = play(rules, after, 1, Move.pass_())
    after, _ = play(rules, after, 2, Move.play(Card.parse("4C")))
    after, _ = play(rules, replace(after, phase="play", turn=3), 3, Move.play(Card.parse("6C")))
    assert after.phase == "play" and after.turn == 0


def forecast_no_play(table, hand):
    rules, state = table
    state = replace(
        state,
        forecaster=3,
        marker=0,
        marker_layout=1,
        was_forecaster=frozenset({3}),
        hands=state.hands[:1] + (cards(hand),) + state.hands[2:],
    )
    pending, _ = play(rules, state, 1, NO_PLAY())
    return rules, state, pending


def test_calling_a_no_play_wrong_names_a_card_of_the_hand(table):
    rules, state, pending = forecast_no_play(table, "3H 2S 4D 2S")
    moves = rules.legal_moves(rules.view(pending, 3))
    assert moves == [CALL("right"), *(CALL("wrong", c) for c in cards("4D 3H 2S"))]
    assert rules.view(pending, 2).pending.cards == cards("3H 2S 4D 2S")  # he shows his hand
    with pytest.raises(IllegalMove, match="name the card"):
        play(rules, pending, 3, CALL("wrong"))


def test_the_rare_case_a_right_card_named_goes_on_and_the_player_draws_five(table):
    rules, state, pending = forecast_no_play(table, "3H 2S 4D 5S")
    after, events = play(rules, pending, 3, CALL("wrong", Card.parse("5S")))
    j = judgement(events)
    assert (j["right"], j["overthrown"], j["dealer_card"], j["penalty"]) == (False, False, "5S", 5)
    assert after.mainline == cards("7H 5S") and after.forecaster == 3
    assert after.hands[1] == cards("3H 2S 4D") + state.stock[:5]


def test_the_rare_case_a_wrong_card_named_overthrows_and_the_dealer_plays_a_right_one(table):
    rules, state, pending = forecast_no_play(table, "3H 2S 4D 5S")
    after, events = play(rules, pending, 3, CALL("wrong", Card.parse("4D")))
    j = judgement(events)
    assert (j["overthrown"], j["dealer_card"], j["penalty"], j["forecaster_penalty"]) == (True, "2S", 0, 5)
    assert after.mainline == cards("7H 2S") and after.hands[1] == cards("3H 4D 5S")
    assert after.forecaster is None


def test_the_rare_case_with_no_right_card_the_no_play_was_right(table):
    rules, state, pending = forecast_no_play(table, "3H 4D 9H 9D AH")
    after, events = play(rules, pending, 3, CALL("wrong", Card.parse("4D")))
    j = judgement(events)
    assert (j["right"], j["overthrown"], j["returned"], j["fresh"], j["penalty"]) == (True, True, 5, 1, 0)
    assert after.hands[1] == state.stock[:1] and after.forecaster is None


def test_a_no_play_called_right_when_it_was_wrong_overthrows_without_penalty(table):
    rules, state, pending = forecast_no_play(table, "3H 4D 5S")
    after, events = play(rules, pending, 3, CALL("right"))
    j = judgement(events)
    assert (j["overthrown"], j["dealer_card"], j["penalty"]) == (True, "5S", 0)
    assert after.hands[1] == cards("3H 4D")


# -- expulsion ---------------------------------------------------------------------------------


def long_layout(state, size, *, marker_at=None):
    """``state`` with ``size`` layout cards: the starter 7H and ``size - 1`` on its sideline."""
    filler = [tuple(pack()[i : i + 1]) for i in range(size - 1)]
    return replace(state, mainline=cards("7H"), sidelines=(tuple(filler),))


@pytest.mark.parametrize("size, expelled", [(39, False), (40, True)])
def test_an_incorrect_play_with_forty_cards_on_the_layout_expels(table, size, expelled):
    rules, state = table
    state = long_layout(state, size)
    after, events = play(rules, state, 1, Move.play(Card.parse("3H")))
    assert judgement(events)["expelled"] is expelled and (1 in after.expelled) is expelled
    assert judgement(events)["penalty"] == 2  # he still takes the penalty cards
    if expelled:
        assert after.turn == 2 and after.hands[1] == cards("2S 4D 5S 2S") + state.stock[:2]
        assert rules.explain(rules.view(after, 1), Card.parse("2S")) == "you were expelled from this round"


@pytest.mark.parametrize("after_marker, expelled", [(29, False), (30, True)])
def test_with_a_forecaster_thirty_cards_after_the_marker_expel(table, after_marker, expelled):
    rules, state = table
    state = long_layout(state, 5 + after_marker)
    state = replace(state, forecaster=3, marker=0, marker_layout=5, was_forecaster=frozenset({3}))
    pending, _ = play(rules, state, 1, Move.play(Card.parse("3H")))
    after, events = play(rules, pending, 3, CALL("wrong"))
    assert judgement(events)["expelled"] is expelled


def test_no_one_is_expelled_in_a_turn_the_forecaster_is_overthrown(table):
    rules, state = table
    state = long_layout(state, 80)
    state = replace(state, forecaster=3, marker=0, marker_layout=5, was_forecaster=frozenset({3}))
    pending, _ = play(rules, state, 1, Move.play(Card.parse("3H")))
    after, events = play(rules, pending, 3, CALL("right"))
    assert judgement(events)["overthrown"] and not judgement(events)["expelled"] and not after.expelled


def test_the_round_ends_when_every_player_is_expelled(table):
    rules, state = table
    state = replace(long_layout(state, 50), expelled=frozenset({0, 2, 3}))
    after, events = play(rules, state, 1, Move.play(Card.parse("3H")))
    assert after.phase == "over" and after.result.how == "blocked"
    assert after.result.reason == "every player is expelled"
    assert events[-1] == {"type": "rule-reveal", "hand": 1, "rule": ALTERNATE, "nonce": state.nonce}


def test_the_round_ends_when_all_but_the_forecaster_are_expelled(table):
    rules, state = table
    state = replace(
        long_layout(state, 50),
        expelled=frozenset({0, 2}),
        forecaster=3,
        marker=0,
        marker_layout=5,
        was_forecaster=frozenset({3}),
    )
    pending, _ = play(rules, state, 1, Move.play(Card.parse("3H")))
    after, _ = play(rules, pending, 3, CALL("wrong"))
    assert after.result.reason == "every player but the Forecaster is expelled"


# -- scores ------------------------------------------------------------------------------------


def test_the_rule_texts_score_example():
    assert high_count_scores([4, 10, 6, 0]) == [6, 0, 4, 14]


def ended(rules, state, hands, turn=3, **changes):
    """The round played out from ``state``: seat ``turn`` plays its last card, right."""
    state = replace(state, hands=hands, turn=turn, **changes)
    return play(rules, state, turn, Move.play(hands[turn][0]))[0]


def test_the_example_as_a_round_server_dealt(table):
    rules, state = table
    after = ended(rules, state, (cards("2C 3C 4C 5C"), cards("2S") * 10, cards("4C") * 6, cards("2S")))
    assert after.result.scores == (6, 0, 4, 14) and after.result.how == "out" and after.result.winners == (3,)
    assert after.dealer_score == 14 and after.forecaster_bonus == 0


def test_the_seat_dealer_scores_the_highest_score_or_twice_the_cards_before_the_marker():
    rules, state, _ = dealt(seats=5, dealer=0, mode=1)
    state = position(state, mainline=cards("7H"), sidelines=((),))
    hands = ((), cards("2C 3C 4C 5C"), cards("2S") * 10, cards("4C") * 6, cards("2S"))
    after = ended(rules, state, hands, turn=4)
    assert after.result.scores == (14, 6, 0, 4, 14)
    # With a Forecaster (seat 2) whose marker went down on a layout of 3 cards: 2 x 3 = 6.
    marked = replace(
        state,
        mainline=cards("7H 8S 9H"),
        sidelines=((), (), ()),
        forecaster=2,
        marker=2,
        marker_layout=3,
        was_forecaster=frozenset({2}),
    )
    pending, _ = play(rules, replace(marked, hands=hands, turn=4), 4, Move.play(Card.parse("2S")))
    after, _ = play(rules, pending, 2, CALL("right"))
    # The Forecaster's bonus: one card (2S) went on the mainline after his marker: +1.
    assert after.forecaster_bonus == 1
    assert after.result.scores == (6, 6, 0 + 1, 4, 14) and after.dealer_score == 6


def test_the_forecaster_bonus_is_one_per_mainline_card_and_two_per_sideline_card_after_the_marker(table):
    rules, state = table
    # Marker on 7H (layout 2: 7H and 3S below it); since then 8S 9H on the mainline, 4S and a
    # string of two on sidelines: 2 x 1 + 2 x 3 = 8.
    state = replace(
        state,
        mainline=cards("7H 8S 9H"),
        sidelines=((cards("3S"), cards("4S")), (), (cards("TS JS"),)),
        forecaster=0,
        marker=0,
        marker_layout=2,
        was_forecaster=frozenset({0}),
    )
    hands = (cards("2C") * 3, cards("2S") * 5, cards("4C") * 2, cards("2S"))
    pending, _ = play(rules, replace(state, hands=hands, turn=3), 3, Move.play(Card.parse("2S")))
    after, _ = play(rules, pending, 0, CALL("right"))
    # 8S 9H 2S: +3, 4S TS JS: +6.
    assert after.forecaster_bonus == 9
    assert after.result.scores == (2 + 9, 0, 3, 5 + 4)
    assert after.dealer_score == min(5 + 4 + 2, 2 * 2) == 4


def test_fewer_rounds_than_seats_gives_ten_to_each_seat_that_has_not_dealt():
    rules = Eleusis({"dealer": 1, "rounds": 2})
    match = Match(rules, 4, fair(4, "short"))
    match.start()
    bot = make_bot("heuristic")
    while not match.over:
        match.apply(match.turn, bot.choose(rules, match.view(match.turn)))
    first, last = match.hands
    dealers = {first.dealer, last.dealer}
    assert len(match.hands) == 2 and last.summary.not_dealt == tuple(s for s in range(4) if s not in dealers)
    assert first.summary.not_dealt == ()
    assert all(last.result.scores[s] >= 10 for s in last.summary.not_dealt)


# -- the secret rule ---------------------------------------------------------------------------


def test_the_server_picks_a_library_rule_by_the_shuffle_and_commits_to_it():
    rules, state, events = dealt(seats=6, dealer=3, hand=2)
    shuffle = fair(6)
    chosen = shuffle("hand/2/rule", list(range(len(LIBRARY))))[0]
    nonce = stream_bytes(shuffle, "hand/2/rule-nonce", 32).hex()
    assert state.rule == LIBRARY[chosen].text and state.nonce == nonce
    assert state.commitment == rule_commitment(state.rule, nonce)
    assert events[-1] == {"type": "rule-commitment", "hand": 2, "commitment": state.commitment}
    assert rules.abandon_events(state) == [{"type": "rule-reveal", "hand": 2, "rule": state.rule, "nonce": nonce}]


def test_the_seat_dealer_gives_the_rule_from_the_library_or_typed():
    rules, state, _ = dealt(seats=4, dealer=2, mode=1)
    assert rules.abandon_events(state) == []
    view = rules.view(state, 2)
    assert rules.legal_moves(view) == [RULE(r.text) for r in LIBRARY]
    assert view.to_json()["library"] == [r.text for r in LIBRARY] and view.to_json()["syntax_help"]
    assert rules.auto_move(state) == RULE(LIBRARY[state.chosen].text) and view.suggested == LIBRARY[state.chosen].text
    assert "library" not in rules.view(state, 0).to_json()
    after, events = rules.apply(state, 2, RULE(LIBRARY[-1].text), None)
    assert events == [
        {"type": "rule-commitment", "hand": 1, "commitment": rule_commitment(LIBRARY[-1].text, state.nonce)}
    ]
    assert (after.phase, after.turn) == ("play", state.first)
    typed = "card.colour   !=   last.colour"
    after, _ = rules.apply(state, 2, RULE(typed), None)
    assert after.rule == SecretRule.parse(typed).text
    assert rules.view(after, 2).rule == after.rule and rules.view(after, 0).rule is None


def test_a_bad_rule_is_refused_with_the_languages_message():
    rules, state, _ = dealt(seats=4, dealer=2, mode=1)
    bad = "card.colour ?? last.colour"
    with pytest.raises(RuleError) as parsed:
        SecretRule.parse(bad)
    assert parsed.value.position is not None
    with pytest.raises(IllegalMove) as refused:
        rules.apply(state, 2, RULE(bad), None)
    assert refused.value.reason == str(parsed.value)
    with pytest.raises(IllegalMove, match="a rule move gives its rule"):
        rules.apply(state, 2, RULE(), None)
    with pytest.raises(IllegalMove, match="gives the round's secret rule first"):
        rules.apply(state, 2, NO_PLAY(), None)


# -- views -------------------------------------------------------------------------------------


def test_views_show_a_seat_its_own_hand_and_never_anothers_or_the_rule():
    rules, state, _ = dealt(seats=5, mode=0)
    for seat in (None, *range(5)):
        data = rules.view(state, seat).to_json()
        assert data["rule"] is None and data["nonce"] is None and data["commitment"] == state.commitment
        assert data["hand"] == ([] if seat is None else [c.code for c in state.hands[seat]])
        assert data["hand_sizes"] == [14] * 5
        text = json.dumps(data)
        assert state.rule not in text and state.nonce not in text
        json.loads(text)


def test_the_seat_dealer_sees_his_rule_and_everyone_sees_it_once_revealed(table):
    rules, state, _ = dealt(seats=4, dealer=0, mode=1)
    state, _ = rules.apply(state, 0, RULE(ALTERNATE), None)
    assert rules.view(state, 0).rule == ALTERNATE
    assert all(rules.view(state, s).rule is None for s in (None, 1, 2, 3))
    rules, table_state = table
    short = replace(table_state, hands=table_state.hands[:1] + (cards("2S"),) + table_state.hands[2:])
    over, _ = play(rules, short, 1, Move.play(Card.parse("2S")))
    assert all(rules.view(over, s).rule == ALTERNATE and rules.view(over, s).nonce == over.nonce for s in (None, 0, 1))


def test_view_json_has_the_layout_and_the_last_judgement(table):
    rules, state = table
    after, _ = play(rules, state, 1, STRING(cards("2S 5S")))
    data = rules.view(after, 2).to_json()
    assert data["mainline"] == ["7H"] and data["sidelines"] == [[["2S", "5S"]]]
    assert data["last"]["seat"] == 1 and data["last"]["right"] is False and data["last"]["penalty"] == 4
    assert data["phase"] == "offer" and data["turn"] == 1 and data["layout_size"] == 3
    assert data["hand"] == ["4C", "5C"]


# -- the whole game: bots, moves, positions ----------------------------------------------------


def games():
    for kind, mode, seats in itertools.product(("heuristic", "random"), (0, 1), range(4, 9)):
        yield kind, mode, seats


def test_bots_play_two_hundred_rounds_to_the_end_well_before_the_hard_stop():
    rounds = 0
    parsed = set()
    for kind, mode, seats in games():
        rules = get("eleusis", {"dealer": mode, "rounds": 10})
        match = Match(rules, seats, fair(seats, f"bots-{kind}-{mode}-{seats}"))
        match.start()
        bots = [make_bot(kind, seed=seat) for seat in range(seats)]
        moves = 0
        while not match.over:
            seat = match.turn
            view = match.view(seat)
            legal = rules.legal_moves(view)
            for move in legal[:40]:
                parsed.add(move.kind)
                assert Move.parse(str(move)) == move
            move = bots[seat].choose(rules, view)
            assert move in legal
            match.apply(seat, move)
            moves += 1
            assert moves < 20_000
        for report in match.hands:
            assert report.summary.to_json()["rule"]
            assert (
                len(report.summary.mainline) + sum(len(e) for c in report.summary.sidelines for e in c) < HARD_STOP // 2
            )
        rounds += len(match.hands)
    assert rounds >= 200
    assert parsed == {"play", "string", "no-play", "forecast", "pass", "call", "rule"}


def test_every_legal_move_reads_back_from_its_text():
    rules, state = next(iter([(Eleusis(), dealt(seats=4)[1])]))
    for move in rules.legal_moves(rules.view(state, state.turn)):
        assert Move.parse(str(move)) == move and Move.from_json(move.to_json()) == move


def test_auto_moves_finish_a_game():
    rules = get("eleusis", {"dealer": 1})
    match = Match(rules, 4, fair(4, "auto"))
    match.start()
    while not match.over:
        match.apply(match.turn, match.auto_move(), auto=True)
    assert len(match.hands) == 4


def test_state_json_round_trip_through_a_game():
    rules = get("eleusis", {"dealer": 1, "rounds": 2})
    match = Match(rules, 8, fair(8, "json"))
    match.start()
    bot = make_bot("random", seed=3)
    seen = 0
    while not match.over:
        state = match.state
        data = json.loads(json.dumps(rules.state_to_json(state)))
        assert rules.state_from_json(data) == state
        seen += state.restocks > 0
        match.apply(match.turn, bot.choose(rules, match.view(match.turn)))
    assert seen  # positions after a restock were checked too


def test_a_position_with_a_card_too_many_is_refused():
    rules, state, _ = dealt(seats=4)
    data = rules.state_to_json(state)
    data["stock"].append("AC")
    with pytest.raises(ValueError, match="AC"):
        rules.state_from_json(data)
    data = rules.state_to_json(state)
    data["commitment"] = "00" * 32
    with pytest.raises(ValueError, match="commitment"):
        rules.state_from_json(data)


def test_eleusis_is_in_the_catalogue():
    assert "eleusis" in RULES
    entry = Eleusis.declaration()
    assert entry["family"] == "Secret-rule games" and entry["seats"] == {"min": 4, "max": 8}
    assert entry["first_dealer_rank"] == "K" and entry["layout"]["packs"] == 2
    assert [o["name"] for o in entry["options"]] == ["dealer", "rounds"]


# -- the report and the replay ------------------------------------------------------------------


def test_the_summary_and_the_replay_say_what_happened():
    from fairdeal.rules import SeatNames

    rules = get("eleusis", {"rounds": 1})
    match = Match(rules, 4, fair(4, "report"))
    events = match.start()
    names = SeatNames(("Ann", "Bob", "Cy", "Di"))
    deal_lines = rules.describe_deal(match.state, names)
    assert deal_lines[0].startswith(f"hand 1, dealer {names.seat(match.state.dealer)} (the server deals")
    bot = make_bot("heuristic")
    said = [rules.describe_event(e, names) for e in events[1:]]  # after the draw for the deal
    while not match.over:
        seat = match.turn
        view = match.view(seat)
        move = bot.choose(rules, view)
        why = rules.why_legal(view, move)
        assert why and "\n" not in why
        events = match.apply(seat, move)
        said += [rules.describe_event(e, names) for e in events[1:]]
    assert said[0].startswith("round 1 dealt, starter ")
    assert said[1].startswith("the secret rule is committed: ")
    assert any(line.startswith("seat ") and " is right" in line for line in said)
    assert any(line.startswith("the secret rule was: ") for line in said)
    summary = match.hands[0].summary
    data = summary.to_json()
    assert data["rule"] == match.state.rule and data["commitment"] == rule_commitment(data["rule"], data["nonce"])
    assert len(data["judgements"]) == len(match.state.judgements)
    lines = summary.lines(names)
    assert any(line.startswith("  mainline ") for line in lines)
    assert any("dealer's score" in line for line in lines)


def test_a_judgement_in_words():
    from fairdeal.rules import SeatNames

    names = SeatNames(("Ann", "Bob", "Cy", "Di"))
    event = {
        "type": "judgement",
        "hand": 1,
        "seat": 1,
        "play": "no-play",
        "cards": ["3H", "4D"],
        "right": False,
        "penalty": 0,
        "dealer_card": "2S",
        "returned": 0,
        "fresh": 0,
        "forecaster": 3,
        "call": "wrong",
        "call_card": "4D",
        "overthrown": True,
        "forecaster_penalty": 5,
        "expelled": False,
    }
    assert Eleusis().describe_event(event, names) == (
        "seat 1 (Bob): no play is wrong; Forecaster seat 3 (Di) called wrong (4♦): overthrown, draws 5; "
        "2♠ goes on the mainline"
    )
