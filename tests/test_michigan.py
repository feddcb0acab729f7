"""Michigan, Double Stops and Spin: every rule of spec/games/{michigan,double-stops,spin}.md, and the
moves they added to fairdeal (``exchange``, ``auction``, ``bid`` with an ``amount``, a play's ``then``).

Positions are built by hand; deals use a shuffler that leaves the pack in card order, or the
real protocol shuffle under a fixed seed. Sessions run through the match, so the counters the
layout carries from deal to deal are what the score sheet says.
"""

from __future__ import annotations

import random

import helpers
import pytest
from helpers import cards
from helpers import chips
from helpers import legal
from helpers import play_session
from helpers import refusal
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
from fairdeal.rules import MoveError
from fairdeal.rules import OptionsError
from fairdeal.rules import get
from fairdeal.rules.michigan import MichiganSheet
from fairdeal.rules.sequence import AUCTION
from fairdeal.rules.sequence import BID
from fairdeal.rules.sequence import EXCHANGE
from fairdeal.rules.sequence import RunState
from fairdeal.rules.sequence import run_choice

NO_SHUFFLE = helpers.in_order  # the pack stays in card order
MICHIGAN = get("michigan")


def position(
    rules,
    *hands: str,
    turn: int = 0,
    runs: str = "",
    current: str | None = None,
    dead: str = "",
    layout: tuple[int, ...] | None = None,
    dealer: int | None = None,
    **extra,
) -> RunState:
    layout = layout if layout is not None else (len(hands),) * len(rules.layout_cards())
    return run_position(
        *hands, turn=turn, runs=runs, current=current, dealer=dealer, dead=cards(dead), layout=layout, **extra
    )


def act(rules, state: RunState, seat: int, move: Move | str) -> tuple[RunState, list[dict]]:
    if isinstance(move, str):
        move = Move.play(Card.parse(move))
    return rules.apply(state, seat, move, NO_SHUFFLE)


# --- the moves fairdeal gained for these games -------------------------------------------


def test_new_moves_read_and_write_as_record_fields():
    for move, data in [
        (EXCHANGE(), {"move": "exchange"}),
        (AUCTION(), {"move": "auction"}),
        (Move.keep(), {"move": "keep"}),
        (BID(3), {"move": "bid", "amount": 3}),
        (Move.play(Card.parse("9C"), then=Card.parse("AD")), {"move": "play", "card": "9C", "then": "AD"}),
    ]:
        assert move.to_json() == data
        assert Move.from_json(data) == move
    assert str(Move.play(Card.parse("4S"), then=Card.parse("9D"))) == "play 4S then 9D"


@pytest.mark.parametrize(
    "data, reason",
    [
        ({"move": "bid"}, "a bid names its amount"),
        ({"move": "bid", "amount": 0}, "at least 1"),
        ({"move": "bid", "amount": True}, "at least 1"),
        ({"move": "bid", "amount": "3"}, "at least 1"),
        ({"move": "bid", "amount": 2, "card": "9C"}, "a bid names no card"),
        ({"move": "pass", "amount": 2}, "a pass names no amount"),
        ({"move": "exchange", "card": "9C"}, "an exchange names no card"),
        ({"move": "draw", "then": "AD"}, "a draw names no second card"),
        ({"move": "play", "card": "9C", "then": "XX"}, "not a card code"),
        ({"move": "play", "card": "AD", "then": "AD"}, "another card than its own"),
        ({"move": "sell"}, "unknown move 'sell'"),
    ],
)
def test_malformed_new_moves_are_refused_where_they_are_read(data, reason):
    with pytest.raises(MoveError, match=reason):
        Move.from_json(data)


def test_a_game_refuses_a_move_kind_or_field_it_does_not_read():
    # A "then" or a bid in a record of a game without them is refused, never silently ignored.
    key = game_key("00" * 32, "unread", ["", ""])
    match = Match(get("crazy-eights"), 2, lambda label, cards: shuffle(key, label, cards))
    match.start()
    card = match.legal_moves(match.turn)[0].card or ALL_CARDS[0]
    with pytest.raises(IllegalMove, match="Crazy Eights plays one card at a time"):
        match.apply(match.turn, Move.play(card, then=Card.parse("AD") if card.code != "AD" else Card.parse("KD")))
    with pytest.raises(IllegalMove, match="Crazy Eights has no move 'bid'"):
        match.apply(match.turn, BID(2))
    assert (
        get("sequence").unread(Move.play(Card.parse("9C"), then=Card.parse("AD")))
        == "Sequence plays one card at a time"
    )
    assert (
        get("michigan").unread(Move.play(Card.parse("9C"), then=Card.parse("AD")))
        == "Michigan plays one card at a time"
    )
    assert get("spin").unread(Move.play(Card.parse("9C"), then=Card.parse("AD"))) is None


# --- the deal, the stakes, the extra hand ------------------------------------------------------


def test_options_and_players():
    assert MICHIGAN.options == {"deals": 0, "stack": 50, "max_bid": 10}
    assert (MICHIGAN.min_seats, MICHIGAN.max_seats) == (3, 8)
    with pytest.raises(OptionsError, match="max_bid must be between 1 and 1000"):
        get("michigan", {"max_bid": 0})
    with pytest.raises(OptionsError, match="Michigan is for 3 to 8 players, not 9"):
        MICHIGAN.check_seats(9)


def test_the_extra_hand_is_dealt_at_the_dealers_left_and_everyone_stakes_on_each_pay_card():
    state, events = MICHIGAN.deal(4, 3, 1, NO_SHUFFLE)
    # Five places, the extra hand first: it gets A♣, seat 0 (the dealer's left) 2♣, ...
    assert (
        state.extra[:2] == cards("AC 6C")
        and state.hands[0][:2] == cards("2C 7C")
        and state.hands[3][0] == Card.parse("5C")
    )
    assert [len(state.extra)] + [len(h) for h in state.hands] == [11, 11, 10, 10, 10]
    assert sorted(state.extra + sum(state.hands, ())) == list(ALL_CARDS)
    assert events[0] == {"type": "deal", "hand": 1, "dealer": 3}
    assert chips(events) == [("stake", s, code, 1) for s in (0, 1, 2, 3) for code in ("AH", "KC", "QD", "JS")]
    assert state.layout == (4, 4, 4, 4) and state.net == (-4, -4, -4, -4)
    assert state.phase == "choose" and state.turn == 3
    view = MICHIGAN.view(state, 1)
    assert (
        MICHIGAN.legal_moves(view) == []
        and MICHIGAN.explain(view, state.hands[1][0]) == "the dealer is deciding about the extra hand"
    )
    assert view.to_json()["layout"] == {"AH": 4, "KC": 4, "QD": 4, "JS": 4} and view.dead_size == 11


def test_the_dealer_keeps_his_hand_and_the_extra_hand_is_dead():
    state, _ = MICHIGAN.deal(3, 2, 1, NO_SHUFFLE)
    assert legal(MICHIGAN, state) == ["keep", "exchange", "auction"]
    assert MICHIGAN.explain(MICHIGAN.view(state, 2), state.hands[2][0]).startswith(
        "first say what becomes of the extra hand"
    )
    assert (
        refusal(MICHIGAN, state, 2, BID(2))
        == "first the dealer keeps his hand, exchanges it for the extra hand, or auctions the extra hand"
    )
    assert refusal(MICHIGAN, state, 0, Move.keep()) == "it is not your turn: the dealer decides about the extra hand"
    extra = state.extra
    state, events = act(MICHIGAN, state, 2, Move.keep())
    assert events == [] and state.phase == "play" and state.turn == 0 and state.dead == extra
    assert MICHIGAN.view(state, 2).discarded == ()


def test_the_dealer_exchanges_his_hand_for_the_extra_hand_and_knows_the_dead_hand():
    state, _ = MICHIGAN.deal(3, 2, 1, NO_SHUFFLE)
    own, extra = state.hands[2], state.extra
    state, events = act(MICHIGAN, state, 2, EXCHANGE())
    assert events == [] and state.hands[2] == extra and state.dead == own and state.exchanged == 2
    assert MICHIGAN.view(state, 2).discarded == own and MICHIGAN.view(state, 2).to_json()["discarded"] == codes(own)
    assert MICHIGAN.view(state, 0).discarded == () and "discarded" not in MICHIGAN.view(state, 0).to_json()
    summary = MICHIGAN.summary(state).to_json()
    assert (
        summary["exchange"] == {"seat": 2, "price": 0}
        and summary["dead"] == codes(own)
        and summary["extra"] == codes(extra)
    )


def test_the_auction_goes_once_round_from_the_dealers_left_and_the_highest_bid_buys():
    state, _ = MICHIGAN.deal(4, 0, 1, NO_SHUFFLE)
    state, _ = act(MICHIGAN, state, 0, AUCTION())
    assert state.phase == "auction" and state.turn == 1
    assert legal(MICHIGAN, state) == ["pass"] + [f"bid {n}" for n in range(1, 11)]
    assert (
        MICHIGAN.explain(MICHIGAN.view(state, 1), state.hands[1][0])
        == "the extra hand is up for auction: bid for it or pass"
    )
    assert MICHIGAN.explain(MICHIGAN.view(state, 2), state.hands[2][0]) == "the extra hand is being auctioned"
    assert refusal(MICHIGAN, state, 2, BID(3)) == "it is not your turn: seat 1 bids next"
    assert refusal(MICHIGAN, state, 1, BID(11)) == "a bid is at most 10 counters"
    assert refusal(MICHIGAN, state, 1, Move.keep()) == "the extra hand is up for auction: bid for it or pass"
    state, _ = act(MICHIGAN, state, 1, BID(3))
    state, _ = act(MICHIGAN, state, 2, Move.pass_())
    own, extra = state.hands[3], state.extra
    state, events = act(MICHIGAN, state, 3, BID(4))
    assert chips(events) == [("auction", 3, 0, 4)]
    assert state.hands[3] == extra and state.dead == own and state.exchanged == 3
    assert state.net[3] == -4 - 4 and state.net[0] == -4 + 4
    assert state.phase == "play" and state.turn == 1
    assert MICHIGAN.summary(state).to_json()["bids"] == [
        {"seat": 1, "bid": 3},
        {"seat": 2, "bid": None},
        {"seat": 3, "bid": 4},
    ]


def test_equal_bids_go_to_the_first_bidder_from_the_dealers_left():
    state, _ = MICHIGAN.deal(4, 1, 1, NO_SHUFFLE)
    state, _ = act(MICHIGAN, state, 1, AUCTION())
    for seat, bid in [(2, BID(3)), (3, BID(3)), (0, BID(2))]:
        state, events = act(MICHIGAN, state, seat, bid)
    assert chips(events) == [("auction", 2, 1, 3)] and state.exchanged == 2


def test_an_auction_without_a_bid_leaves_the_extra_hand_dead_and_the_dealer_may_not_take_it():
    state, _ = MICHIGAN.deal(3, 0, 1, NO_SHUFFLE)
    extra = state.extra
    state, _ = act(MICHIGAN, state, 0, AUCTION())
    state, _ = act(MICHIGAN, state, 1, Move.pass_())
    state, events = act(MICHIGAN, state, 2, Move.pass_())
    assert events == [] and state.exchanged is None and state.dead == extra and state.turn == 1
    assert "exchange" not in MICHIGAN.summary(state).to_json()


def test_the_timer_keeps_the_dealers_hand_and_passes_in_the_auction():
    state, _ = MICHIGAN.deal(3, 0, 1, NO_SHUFFLE)
    assert MICHIGAN.auto_move(state) == Move.keep()
    state, _ = act(MICHIGAN, state, 0, AUCTION())
    assert MICHIGAN.auto_move(state) == Move.pass_()


# --- the play: runs stop at dead cards, pay cards, going out ------------------------------------


def test_the_texts_advice_a_known_dead_card_stops_the_run_and_gives_the_lead_back():
    state = position(MICHIGAN, "8S 3D", "4D", "5D", dead="9S")
    state, _ = act(MICHIGAN, state, 0, "8S")
    assert state.current is None and state.turn == 0 and state.stopped == Suit.SPADES
    assert legal(MICHIGAN, state) == ["play 3D"]


def test_playing_a_pay_card_collects_its_counters_and_the_ace_ends_the_run():
    state = position(MICHIGAN, "QH 2C", "KH 5C", "AH 3C", turn=0, runs="JH", current="JH", layout=(6, 3, 0, 9))
    state, _ = act(MICHIGAN, state, 0, "QH")
    state, _ = act(MICHIGAN, state, 1, "KH")
    state, events = act(MICHIGAN, state, 2, "AH")
    assert chips(events) == [("pay-card", "AH", 2, 6)]
    assert state.layout == (0, 3, 0, 9) and state.net == (0, 0, 6)
    assert state.current is None and state.turn == 2 and legal(MICHIGAN, state) == ["play 3C"]


def test_a_pay_card_with_no_counters_on_it_moves_none():
    state = position(MICHIGAN, "KC 2D", "3D", "4D", runs="QC", current="QC", layout=(3, 0, 3, 3))
    _, events = act(MICHIGAN, state, 0, "KC")
    assert events == []


def test_the_first_out_collects_a_counter_per_card_from_each_other_player():
    state = position(MICHIGAN, "9C", "2D 3D", "4H 5H 6H", layout=(3, 3, 3, 3))
    state, events = act(MICHIGAN, state, 0, "9C")
    assert chips(events) == [("cards-left", 1, 0, 2), ("cards-left", 2, 0, 3)]
    assert state.result.scores == (5, -2, -3) and state.result.counts == (0, 2, 3)


def test_unclaimed_counters_stay_on_the_layout_for_the_next_deal_and_go_back_at_the_end():
    key = game_key("44" * 32, "michigan-carry", ["", "", ""])
    rules = get("michigan", {"deals": 3})
    match = Match(rules, 3, lambda label, cards: shuffle(key, label, cards))
    lines = match.start()
    while not match.over:
        lines += match.apply(match.turn, match.auto_move(), auto=True)
    ends = [e for e in lines if e["type"] == "hand-end"]
    assert len(ends) == 3
    layout = {"AH": 0, "KC": 0, "QD": 0, "JS": 0}
    for hand in (1, 2, 3):
        moves = [e for e in lines if e["type"] == "chips" and e["hand"] == hand]
        for m in moves:
            if isinstance(m["to"], str):
                layout[m["to"]] += m["amount"]
            if isinstance(m["from"], str):
                layout[m["from"]] -= m["amount"]
        assert ends[hand - 1]["layout"] == layout
        # A deal's stakes land on what the last deal left: 3 players, one counter each per card.
        assert sum(1 for m in moves if m["reason"] == "stake") == 12
    assert ends[-1]["layout"] == {"AH": 0, "KC": 0, "QD": 0, "JS": 0}  # the last deal gave them back
    returns = [m for m in lines if m["type"] == "chips" and m["reason"] == "return"]
    assert all(m["hand"] == 3 for m in returns)
    # Counters are neither made nor lost: stacks plus the layout always hold 3 x 50.
    assert sum(match.totals) == 150
    assert isinstance(match.sheet, MichiganSheet)


def test_a_carried_layout_is_what_the_next_deal_starts_from():
    sheet = MichiganSheet((40, 50, 60), layout=(6, 0, 3, 0), cards=("AH", "KC", "QD", "JS"))
    state, events = MICHIGAN.deal_hand(sheet, 3, 0, 2, NO_SHUFFLE)
    assert state.layout == (9, 3, 6, 3) and state.hand == 2


# --- Double Stops ----------------------------------------------------------------------------


def test_double_stops_stakes_on_six_cards_and_the_pair_pays_one_player_of_both():
    rules = get("double-stops")
    state, events = rules.deal(3, 2, 1, NO_SHUFFLE)
    assert [code for _, _, code, _ in chips(events)][:6] == ["AH", "KC", "QD", "JS", "TH", "9H"]
    assert state.layout == (3,) * 6
    # Different players play 9♥ and 10♥: the pair's counters stay.
    state = position(rules, "9H 2C", "TH 3C", "JH 4C", layout=(3, 3, 3, 3, 3, 3))
    state, events = act(rules, state, 0, "9H")
    state, events = act(rules, state, 1, "TH")
    assert events == [] and state.layout[4:] == (3, 3)


def test_double_stops_pays_both_pair_cards_to_the_player_of_both_when_he_plays_the_second():
    rules = get("double-stops")
    state = position(rules, "9H TH 2C", "JH", "3C", turn=0, runs="8H", current="8H", layout=(3, 3, 3, 3, 6, 9))
    state, events = act(rules, state, 0, "9H")
    assert events == [] and state.turn == 0
    state, events = act(rules, state, 0, "TH")
    assert chips(events) == [("pair", "TH", 0, 6), ("pair", "9H", 0, 9)]
    assert state.layout[4:] == (0, 0) and state.net == (15, 0, 0)


# --- Spin -------------------------------------------------------------------------------------


def test_spin_the_ace_of_diamonds_goes_down_only_with_a_normal_play():
    rules = get("spin")
    state = position(rules, "9C AD 2S", "TC", "3S", runs="8C", current="8C")
    view = rules.view(state, 0)
    assert legal(rules, state) == ["play 9C", "play 9C then AD"]
    assert (
        rules.explain(view, Card.parse("AD"))
        == "A♦ goes down only with a play of yours, to stop the run (Spin): play 9♣ then A♦"
    )
    assert refusal(rules, state, 0, Move.play(Card.parse("AD"))) == rules.explain(view, Card.parse("AD"))
    # Not at another player's turn: "only at the time that he can make a normal play".
    other = position(rules, "TC", "9C AD 2S", "3S", turn=0, runs="8C", current="8C")
    assert legal(rules, other, 1) == []
    assert refusal(rules, other, 1, Move.play(Card.parse("9C"), then=Card.parse("AD"))) == "it is not your turn"
    assert (
        refusal(rules, state, 0, Move.play(Card.parse("9C"), then=Card.parse("KD")))
        == "only A♦ goes down with another card"
    )
    without = position(rules, "9C 2S", "TC AD", "3S", runs="8C", current="8C")
    assert refusal(rules, without, 0, Move.play(Card.parse("9C"), then=Card.parse("AD"))) == "you do not hold A♦"


def test_spin_stops_the_run_and_the_spinner_leads_another_suit_or_a_pay_card():
    rules = get("spin")
    state = position(rules, "9C AD KC 4S 2S QD", "TC", "3S", runs="8C", current="8C")
    state, events = act(rules, state, 0, Move.play(Card.parse("9C"), then=Card.parse("AD")))
    assert events == [] and state.turn == 0 and state.current is None and state.privilege
    assert [codes(r) for r in state.run_cards()] == [["8C", "9C", "AD"]]
    # The 10♣ waits: a new suit (lowest diamond, lowest spade), or any pay card (K♣, Q♦).
    assert legal(rules, state) == ["play KC", "play QD", "play 2S"]
    state, events = act(rules, state, 0, "KC")
    assert chips(events) == [("pay-card", "KC", 0, 3)] and not state.privilege


def test_a_spinner_with_nothing_to_lead_passes_the_lead_without_the_privilege():
    rules = get("spin")
    state = position(rules, "9C AD TC", "3S KC", "5H", runs="8C", current="8C")
    # Seat 0 holds only clubs after the spin (10♣) and no pay card: seat 1 leads, normally.
    state, _ = act(rules, state, 0, Move.play(Card.parse("9C"), then=Card.parse("AD")))
    assert state.turn == 1 and not state.privilege and legal(rules, state) == ["play 3S"]


# --- whole games ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["michigan", "double-stops", "spin"])
def test_whole_sessions_agree_and_no_counter_is_made_or_lost(name):
    rules = get(name, {"deals": 4})
    for seats in (3, 5, 8):
        key = game_key("55" * 32, f"{name}-{seats}", [""] * seats)
        match = Match(rules, seats, lambda label, cards, key=key: shuffle(key, label, cards))
        lines = play_session(match, random.Random(seats), 0.6)
        assert sum(match.totals) == 50 * seats
        assert any(e["type"] == "chips" and e["reason"] == "pay-card" for e in lines)


def test_the_heuristic_bot_follows_the_texts_advice():
    rules = MICHIGAN
    # A bad hand (no pay card, two low cards): the dealer exchanges it; a good one: he auctions.
    bad = position(rules, "2C 3D 9S", "4C", "5C", turn=0, dealer=0, phase="choose", extra=cards("6C"))
    assert run_choice(rules, rules.view(bad, 0), rules.legal_moves(rules.view(bad, 0))) == EXCHANGE()
    good = position(rules, "2C 3D KC", "4C", "5C", turn=0, dealer=0, phase="choose", extra=cards("6C"))
    assert run_choice(rules, rules.view(good, 0), rules.legal_moves(rules.view(good, 0))) == AUCTION()
    # A bidder with a bad hand outbids the best so far by one, up to 4.
    bidding = position(rules, "4C", "2C 3D 9S", "5C", turn=1, dealer=0, phase="auction", extra=cards("6C"))
    assert run_choice(rules, rules.view(bidding, 1), rules.legal_moves(rules.view(bidding, 1))) == BID(1)
    outbid = RunState(**{**{f: getattr(bidding, f) for f in bidding.__dataclass_fields__}, "bids": ((2, 4),)})
    assert run_choice(rules, rules.view(outbid, 1), rules.legal_moves(rules.view(outbid, 1))) == Move.pass_()
    # Leading, a suit in which it holds a pay card (here K♣), with its lowest card of that suit.
    lead = position(rules, "2S 5S 3D 8C KC", "4C", "5C", turn=0)
    assert run_choice(rules, rules.view(lead, 0), rules.legal_moves(rules.view(lead, 0))) == Move.play(Card.parse("8C"))
    # Knowing the 6♠ is dead (its own discarded hand), it leads spades: the run stops at its 5♠.
    known = position(rules, "4S 5S 3D 7D", "4C", "5C", turn=0, dead="6S 9C", exchanged=0)
    assert run_choice(rules, rules.view(known, 0), rules.legal_moves(rules.view(known, 0))) == Move.play(
        Card.parse("4S")
    )
    # Spin: it spins to lead the pay card it holds.
    spin = get("spin")
    state = position(spin, "9C AD QD 2S", "TC", "3S", runs="8C", current="8C")
    assert run_choice(spin, spin.view(state, 0), spin.legal_moves(spin.view(state, 0))) == Move.play(
        Card.parse("9C"), then=Card.parse("AD")
    )
    state, _ = act(spin, state, 0, Move.play(Card.parse("9C"), then=Card.parse("AD")))
    assert run_choice(spin, spin.view(state, 0), spin.legal_moves(spin.view(state, 0))) == Move.play(Card.parse("QD"))
