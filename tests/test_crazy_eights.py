"""Crazy Eights at the online table: every rule of spec/games/crazy-eights.md.

Most tests build a :class:`CrazyEightsState` by hand (hands, stock and pile
written as card codes) so the position under test is plain to read; deals
use a shuffler that returns a chosen order, or the real protocol shuffle
under a fixed seed. The last section plays many hands from fixed seeds and
checks that ``legal_moves``, ``apply`` and ``explain`` agree everywhere.
"""

from __future__ import annotations

import random

import helpers
import pytest
from helpers import cards
from helpers import play
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from fairdeal.cards import Card
from fairdeal.cards import Rank
from fairdeal.cards import Suit
from fairdeal.cards import pack
from fairdeal.fairness import shuffle
from fairdeal.match import Match
from fairdeal.rules import IllegalMove
from fairdeal.rules import Move
from fairdeal.rules import MoveError
from fairdeal.rules import OptionsError
from fairdeal.rules import get
from fairdeal.rules.crazy_eights import CrazyEights
from fairdeal.rules.crazy_eights import CrazyEightsState
from fairdeal.rules.crazy_eights import auto_card_order
from fairdeal.rules.crazy_eights import card_points

RULES = CrazyEights()
SEED = "00" * 32


# --- helpers ------------------------------------------------------------


def make_state(*hands: str, pile: str, **position) -> CrazyEightsState:
    """A hand in progress (:func:`helpers.pile_state`); ``pile`` is bottom first (its last card is
    the top), ``stock`` top first."""
    return helpers.pile_state(CrazyEightsState, *hands, pile=pile, **position)


def no_shuffle(label, cards):
    raise AssertionError(f"this move must not shuffle anything (asked for {label!r})")


def protocol_shuffler(game_id: str = "crazy-eights-test", seats: int = 2):
    return helpers.protocol_shuffler(game_id, seats, SEED)


def fixed_order(order):
    """A shuffler that deals ``order`` (top first) for the deal and refuses anything else."""

    def shuffler(label, cards):
        assert label.endswith("/deal"), label
        assert sorted(cards) == sorted(order)
        return list(order)

    return shuffler


identity = helpers.in_order


def apply(state, seat, move, rules=RULES, shuffler=no_shuffle):
    new, _events = rules.apply(state, seat, move, shuffler)
    return new


def refusal(state, seat, move, rules=RULES, shuffler=no_shuffle) -> str:
    return helpers.refusal(rules, state, seat, move, shuffler)


def plays_in(moves) -> set[str]:
    return {m.card.code for m in moves if m.kind == "play"}


def kinds(moves) -> set[str]:
    return {m.kind for m in moves}


# --- the deal -----------------------------------------------------------


class TestDeal:
    @pytest.mark.parametrize("seats, size", [(2, 7), (3, 5), (4, 5), (5, 5), (6, 5)])
    def test_hand_sizes_stock_and_starter(self, seats, size):
        _key, shuffler = protocol_shuffler(f"sizes-{seats}", seats)
        state, events = RULES.deal(seats, dealer=0, hand=1, shuffle=shuffler)
        assert [len(h) for h in state.hands] == [size] * seats
        assert len(state.pile) == 1 and state.top.rank != Rank.EIGHT
        assert len(state.stock) == 52 - size * seats - 1
        everything = [c for h in state.hands for c in h] + list(state.stock) + list(state.pile)
        assert sorted(everything) == pack()
        assert state.named is None and state.result is None
        assert events == [{"type": "deal", "hand": 1, "dealer": 0, "turned": [state.top.code]}]

    def test_one_card_at_a_time_clockwise_from_the_dealers_left(self):
        # The shuffle leaves the pack in card order: AC is dealt first, to seat 0
        # (the left of dealer 2), 2C to seat 1, 3C to the dealer, 4C to seat 0 ...
        state, _ = RULES.deal(3, dealer=2, hand=1, shuffle=identity)
        assert state.hands == (cards("AC 4C 7C TC KC"), cards("2C 5C 8C JC AD"), cards("3C 6C 9C QC 2D"))
        assert state.top == Card.parse("3D")
        assert state.stock == tuple(pack()[16:])

    def test_two_players_seven_each_starting_left_of_the_dealer(self):
        state, _ = RULES.deal(2, dealer=0, hand=1, shuffle=identity)
        assert state.hands == (cards("2C 4C 6C 8C TC QC AD"), cards("AC 3C 5C 7C 9C JC KC"))
        assert state.top == Card.parse("2D")

    @pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
    def test_the_seat_on_the_dealers_left_plays_first(self, seats):
        for dealer in range(seats):
            state, _ = RULES.deal(seats, dealer=dealer, hand=4, shuffle=identity)
            assert state.dealer == dealer
            assert state.turn == (dealer + 1) % seats
            # ... and that seat got the first card off the top.
            assert state.hands[(dealer + 1) % seats][0] == Card.parse("AC")

    def test_deal_shuffles_the_full_pack_in_card_order_with_its_hand_label(self):
        key, shuffler = protocol_shuffler("label")
        calls = []

        def recording(label, cards):
            calls.append((label, list(cards)))
            return shuffler(label, cards)

        state, _ = RULES.deal(2, dealer=1, hand=7, shuffle=recording)
        assert calls == [("hand/7/deal", pack())]
        order = shuffle(key, "hand/7/deal", pack())
        assert state.hands[0] == tuple(order[0:14:2])  # seat 0 is on dealer 1's left
        assert state.hands[1] == tuple(order[1:14:2])
        assert state.top == order[14] and state.stock == tuple(order[15:])

    def test_starter_eights_go_back_into_the_middle_of_the_stock(self):
        # Two eights lie under the 14 dealt cards; each is turned, goes back into
        # the stock (without it) at index len // 2, and the next card is turned.
        rest = [c for c in pack() if c.code not in ("8H", "8D")]
        order = rest[:14] + list(cards("8H 8D")) + rest[14:]
        state, events = RULES.deal(2, dealer=0, hand=1, shuffle=fixed_order(order))
        # Turn 8H: the stock without it is 8D + rest[14:] (37 cards); 8H goes in at 18.
        # Turn 8D: the stock without it is rest[14:31] + 8H + rest[31:]; 8D goes in at 18.
        assert state.turned == cards("8H 8D") + (rest[14],)
        assert state.top == rest[14] == Card.parse("2D")
        assert state.stock == tuple(rest[15:31]) + cards("8H 8D") + tuple(rest[31:])
        assert len(state.stock) == 37
        assert events[0]["turned"] == ["8H", "8D", "2D"]
        assert state.named is None

    def test_starter_eight_from_the_protocol_shuffle(self):
        # A fixed seed whose deal turns two eights before the starter.
        key, shuffler = protocol_shuffler("eight-28")
        state, events = RULES.deal(2, dealer=0, hand=1, shuffle=shuffler)
        assert events == [{"type": "deal", "hand": 1, "dealer": 0, "turned": ["8C", "8H", "5S"]}]
        stock = shuffle(key, "hand/1/deal", pack())[14:]
        for eight in cards("8C 8H"):
            assert stock.pop(0) == eight
            stock.insert(len(stock) // 2, eight)
        assert stock.pop(0) == Card.parse("5S")
        assert state.stock == tuple(stock)

    @pytest.mark.parametrize("seats", [0, 1, 7, True, "2"])
    def test_two_to_six_players(self, seats):
        with pytest.raises(OptionsError, match="2 to 6 players"):
            RULES.deal(seats, dealer=0, hand=1, shuffle=identity)


# --- matching the pile ----------------------------------------------------


class TestMatching:
    def test_nine_of_clubs_goes_on_any_club_or_on_any_nine(self):
        # The rule text's own example, checked against every possible top card.
        for top in pack():
            if top.rank == Rank.EIGHT or top.code == "9C":
                continue
            state = make_state("9C 2H", "KD", pile=top.code, stock="3S")
            fits = top.suit == Suit.CLUBS or top.rank == Rank.NINE
            assert (RULES.explain(RULES.view(state, 0), Card.parse("9C")) is None) == fits, top
            assert ("9C" in plays_in(RULES.legal_moves(RULES.view(state, 0)))) == fits, top

    def test_a_matching_card_is_played_and_the_turn_passes_left(self):
        state = make_state("9C 2H", "KD", "4S", pile="5D QC", stock="3S", turn=0)
        after = apply(state, 0, play("9C"))
        assert after.top == Card.parse("9C") and after.pile == cards("5D QC 9C")
        assert after.hands[0] == cards("2H") and after.turn == 1
        # Play goes on to the left: after the last seat comes seat 0 again.
        last = make_state("4C", "3C", "9H 2S", pile="QD 9D", stock="3S", turn=2)
        assert apply(last, 2, play("9H")).turn == 0

    def test_a_card_that_matches_neither_suit_nor_rank_is_refused(self):
        state = make_state("9C 2H", "KD", pile="5H", stock="3S")
        assert refusal(state, 0, play("9C")) == "9♣ does not match 5♥ in suit or rank"
        assert apply(state, 0, play("2H")).top == Card.parse("2H")

    def test_playing_a_card_you_do_not_hold(self):
        state = make_state("9C 2H", "5C", pile="5H", stock="3S")
        assert refusal(state, 0, play("5C")) == "you do not hold 5♣"


# --- eights ----------------------------------------------------------------


class TestEights:
    @pytest.mark.parametrize("top", ["5H", "KS", "AC", "9D"])
    def test_an_eight_goes_on_any_card(self, top):
        state = make_state("8C 2H", "KD", pile=top, stock="3S")
        after = apply(state, 0, play("8C", "D"))
        assert after.top == Card.parse("8C") and after.named == Suit.DIAMONDS

    def test_an_eight_goes_on_an_eight_and_names_a_new_suit(self):
        state = make_state("4C", "8S 2H", pile="5H 8D", named="C", turn=1, stock="3S")
        after = apply(state, 1, play("8S", "H"))
        assert after.named == Suit.HEARTS

    def test_an_eight_must_name_a_suit(self):
        state = make_state("8C 2H", "KD", pile="5H", stock="3S")
        assert refusal(state, 0, play("8C")) == "name a suit for 8♣"

    def test_only_an_eight_names_a_suit(self):
        state = make_state("5C 2H", "KD", pile="5H", stock="3S")
        assert refusal(state, 0, play("5C", "S")) == "only an eight names a suit"

    def test_legal_moves_offer_an_eight_with_each_suit(self):
        state = make_state("8C 2S", "KD", pile="5H", stock="3S")
        moves = RULES.legal_moves(RULES.view(state, 0))
        assert moves == [play("8C", s) for s in "CDHS"] + [Move.draw()]

    def test_the_next_card_follows_the_named_suit_or_is_another_eight(self):
        state = make_state("4C", "9S 5H 8D 3H", pile="5S 8H", named="H", turn=1, stock="3S")
        view = RULES.view(state, 1)
        assert plays_in(RULES.legal_moves(view)) == {"5H", "3H", "8D"}
        assert RULES.explain(view, Card.parse("9S")) == "9♠ does not match ♥, the suit named with 8♥"
        assert refusal(state, 1, play("9S")) == "9♠ does not match ♥, the suit named with 8♥"
        # The eight's own suit is not what counts: a spade on 8♠ naming hearts is refused.
        naming_hearts = make_state("4C", "9S 3H", pile="5D 8S", named="H", turn=1, stock="3S")
        assert refusal(naming_hearts, 1, play("9S")) == "9♠ does not match ♥, the suit named with 8♠"

    def test_the_named_suit_lasts_until_the_next_card_is_played(self):
        state = make_state("4C", "3H 7C", pile="5S 8C", named="H", turn=1, stock="3S")
        after = apply(state, 1, play("3H"))
        assert after.named is None and after.top == Card.parse("3H")
        # A draw or a keep does not end it: the next seat still has to follow hearts.
        state = make_state("4C 6C", "3H 7C", pile="5S 8C", named="H", turn=0, stock="KS 2S")
        after = apply(state, 0, Move.draw(), shuffler=no_shuffle)
        assert after.named == Suit.HEARTS and after.pending is None  # KS does not fit hearts
        after = apply(after, 0, Move.draw())
        assert after.named == Suit.HEARTS

    def test_an_eight_as_the_last_card_still_names_a_suit_and_goes_out(self):
        state = make_state("8S", "KD 8H 3C", pile="5H", stock="3S")
        assert refusal(state, 0, play("8S")) == "name a suit for 8♠"
        after = apply(state, 0, play("8S", "C"))
        assert after.result.how == "out" and after.result.winners == (0,)
        assert after.result.scores == (10 + 50 + 3, 0)
        assert after.turn is None


# --- drawing -----------------------------------------------------------------


class TestDrawing:
    def test_draw_a_card_that_fits_then_keep_it(self):
        state = make_state("2C 4D", "KD", pile="5H", stock="7H 3S")
        drawn = apply(state, 0, Move.draw())
        assert drawn.pending == Card.parse("7H") and drawn.turn == 0 and drawn.drawn == 1
        assert drawn.hands[0] == cards("2C 4D 7H") and drawn.stock == cards("3S")
        assert RULES.legal_moves(RULES.view(drawn, 0)) == [play("7H"), Move.keep()]
        kept = apply(drawn, 0, Move.keep())
        assert kept.turn == 1 and kept.pending is None and kept.drawn == 0
        assert kept.hands[0] == cards("2C 4D 7H") and kept.top == Card.parse("5H")

    def test_draw_a_card_that_fits_then_play_it(self):
        state = make_state("2C 4D", "KD", pile="5H", stock="7H 3S")
        played = apply(apply(state, 0, Move.draw()), 0, play("7H"))
        assert played.top == Card.parse("7H") and played.hands[0] == cards("2C 4D")
        assert played.turn == 1 and played.pending is None and played.drawn == 0

    def test_a_drawn_eight_is_played_naming_a_suit_or_kept(self):
        state = make_state("2C 4D", "KD", pile="5H", stock="8S 3S")
        drawn = apply(state, 0, Move.draw())
        assert drawn.pending == Card.parse("8S")
        assert RULES.legal_moves(RULES.view(drawn, 0)) == [play("8S", s) for s in "CDHS"] + [Move.keep()]
        assert apply(drawn, 0, play("8S", "D")).named == Suit.DIAMONDS

    def test_drawing_stops_at_the_first_card_that_fits(self):
        state = make_state("2C 4D 5C", "KD", pile="5H", stock="7H 3S")
        drawn = apply(state, 0, Move.draw())
        reason = "you must play or keep the card you drew (7♥)"
        assert refusal(drawn, 0, Move.draw()) == reason
        assert refusal(drawn, 0, Move.pass_()) == reason
        # Not even another card of the hand that fits may be played instead.
        assert refusal(drawn, 0, play("5C")) == reason
        assert RULES.explain(RULES.view(drawn, 0), Card.parse("5C")) == reason

    def test_after_a_card_that_does_not_fit_the_seat_draws_again(self):
        state = make_state("2C 4D 5C", "KD", pile="5H", stock="3S JC 9H")
        drawn = apply(state, 0, Move.draw())
        assert drawn.pending is None and drawn.turn == 0 and drawn.drawn == 1
        assert RULES.legal_moves(RULES.view(drawn, 0)) == [Move.draw()]
        # 5♣ fitted before drawing; once drawing has started it may not be played.
        reason = "you have started drawing: draw until a card fits"
        assert refusal(drawn, 0, play("5C")) == reason
        assert RULES.explain(RULES.view(drawn, 0), Card.parse("5C")) == reason
        assert refusal(drawn, 0, Move.keep()) == "you can only keep a card you have just drawn that fits"
        drawn = apply(apply(drawn, 0, Move.draw()), 0, Move.draw())
        assert drawn.pending == Card.parse("9H") and drawn.drawn == 3
        assert drawn.hands[0] == cards("2C 4D 5C 3S JC 9H")

    def test_a_seat_may_draw_although_it_could_play(self):
        state = make_state("5C 2H", "KD", pile="5H", stock="3S 9H")
        assert Move.draw() in RULES.legal_moves(RULES.view(state, 0))
        assert apply(state, 0, Move.draw()).hands[0] == cards("5C 2H 3S")

    def test_keep_needs_a_drawn_card_that_fits(self):
        state = make_state("5C 2H", "KD", pile="5H", stock="3S 9H")
        assert refusal(state, 0, Move.keep()) == "you can only keep a card you have just drawn that fits"

    def test_when_nothing_is_left_to_draw_the_drawing_seat_plays_from_its_hand(self):
        # The stock empties without a fitting card and the pile holds only its top card.
        state = make_state("5C 2S", "KD", pile="5H", stock="3S")
        drawn = apply(state, 0, Move.draw())
        assert not drawn.can_draw and drawn.pending is None
        view = RULES.view(drawn, 0)
        assert RULES.legal_moves(view) == [play("5C")]
        assert RULES.explain(view, Card.parse("5C")) is None
        assert apply(drawn, 0, play("5C")).turn == 1

    def test_when_nothing_is_left_to_draw_and_nothing_fits_the_drawing_seat_passes(self):
        state = make_state("2C 4D", "KD", pile="5H", stock="3S")
        drawn = apply(state, 0, Move.draw())
        assert RULES.legal_moves(RULES.view(drawn, 0)) == [Move.pass_()]
        assert apply(drawn, 0, Move.pass_()).turn == 1

    def test_a_drawn_card_is_judged_against_the_named_suit(self):
        state = make_state("2C", "KD", pile="5H 8H", named="S", stock="7H 3S")
        drawn = apply(state, 0, Move.draw())
        assert drawn.pending is None  # 7♥ does not follow the named spades
        assert apply(drawn, 0, Move.draw()).pending == Card.parse("3S")


# --- the stock runs out ------------------------------------------------------


class TestRestock:
    def test_pile_with_only_its_top_card_leaves_nothing_to_draw(self):
        state = make_state("2C 4D", "KD", pile="5H", stock="")
        assert not state.can_draw
        assert refusal(state, 0, Move.draw()) == (
            "there is nothing to draw: the stock is empty and the pile has only its top card"
        )
        assert RULES.legal_moves(RULES.view(state, 0)) == [Move.pass_()]
        after = apply(state, 0, Move.pass_())
        assert after.turn == 1 and after.passes == 1 and after.restocks == 0

    def test_the_pile_under_its_top_card_becomes_the_new_stock(self):
        key, shuffler = protocol_shuffler("restock")
        state = make_state("2C 4D", "KD", pile="KH 9H 2H JC 5H", named=None, stock="", hand=3)
        after, events = RULES.apply(state, 0, Move.draw(), shuffler)
        gathered = cards("JC 9H KH 2H")
        new_stock = shuffle(key, "hand/3/restock/1", sorted(gathered))
        assert sorted(gathered) == list(cards("JC 2H 9H KH"))  # card order: clubs first, ace low
        assert events == [{"type": "restock", "hand": 3, "restock": 1, "cards": 4}]
        assert after.pile == cards("5H") and after.restocks == 1
        assert after.restocked == (tuple(new_stock),)
        assert after.hands[0] == cards("2C 4D") + (new_stock[0],)
        assert after.stock == tuple(new_stock[1:])
        assert after.drawn == 1

    def test_the_restock_shuffles_the_gathered_cards_sorted_into_card_order(self):
        seen = []

        def recording(label, cards):
            seen.append((label, list(cards)))
            return list(reversed(cards))

        state = make_state("2C 4D", "KD", pile="KS 3C TD 8H 5H", stock="", hand=2, restocks=4)
        after = apply(state, 0, Move.draw(), shuffler=recording)
        assert seen == [("hand/2/restock/5", list(cards("3C TD 8H KS")))]
        assert after.restocks == 5
        assert after.hands[0][-1] == Card.parse("KS") and after.stock == cards("8H TD 3C")

    def test_a_restock_happens_only_when_someone_draws_from_the_empty_stock(self):
        # The stock is empty, but the seat plays: nothing is shuffled.
        state = make_state("2C 5C", "KD", pile="KH 9H 5H", stock="")
        after = apply(state, 0, play("5C"))
        assert after.restocks == 0 and after.pile == cards("KH 9H 5H 5C")

    def test_the_named_suit_survives_a_restock(self):
        _key, shuffler = protocol_shuffler()
        state = make_state("2C", "KD", pile="KH 9H 8D", named="S", stock="")
        after = apply(state, 0, Move.draw(), shuffler=shuffler)
        assert after.top == Card.parse("8D") and after.named == Suit.SPADES

    def test_restocks_in_a_match_are_numbered_and_events_follow_the_draw(self):
        # A whole hand from a fixed seed in which the seats always draw when they may.
        _key, shuffler = protocol_shuffler("runout-0")

        match = Match(get("crazy-eights"), 2, shuffler)
        events = match.start()
        while match.hand_no == 1:
            events += match.apply(match.turn, _draw_if_possible(match.legal_moves(match.turn)))
        restocks = [e for e in events if e["type"] == "restock"]
        assert [e["restock"] for e in restocks] == list(range(1, 21))
        for e in restocks:
            before = events[events.index(e) - 1]
            assert before["type"] == "move" and before["move"] == "draw" and "card" not in before


def _draw_if_possible(moves):
    for move in moves:
        if move.kind == "draw":
            return move
    return moves[0]


class TestRestockLimit:
    def test_the_twenty_first_run_out_blocks_the_hand(self):
        state = make_state("2C 4D", "KD 3S", "7H", pile="KH 9H 5H", stock="", restocks=20)
        after, events = RULES.apply(state, 0, Move.draw(), no_shuffle)
        assert events == []
        assert after.result.how == "blocked"
        assert after.result.reason == "the stock ran out for the 21st time"
        assert after.result.counts == (6, 13, 7)
        assert after.result.winners == (0,) and after.result.scores == (0 + 7 + 1, 0, 0)
        assert after.turn is None and after.pile == cards("KH 9H 5H")

    def test_the_twentieth_run_out_still_restocks(self):
        _key, shuffler = protocol_shuffler()
        state = make_state("2C 4D", "KD", pile="KH 9H 5H", stock="", restocks=19)
        after = apply(state, 0, Move.draw(), shuffler=shuffler)
        assert after.result is None and after.restocks == 20

    def test_a_small_restock_limit(self):
        rules = get("crazy-eights", {"restock_limit": 2})
        _key, shuffler = protocol_shuffler()
        state = make_state("2C 4D", "KD", pile="KH 9H 5H", stock="", restocks=1)
        after = apply(state, 0, Move.draw(), rules=rules, shuffler=shuffler)
        assert after.restocks == 2 and after.result is None
        blocked = make_state("2C 4D", "KD", pile="KH 9H 5H", stock="", restocks=2)
        result = apply(blocked, 0, Move.draw(), rules=rules).result
        assert result.how == "blocked" and result.reason == "the stock ran out for the 3rd time"

    def test_restock_limit_zero_blocks_at_the_first_run_out(self):
        rules = get("crazy-eights", {"restock_limit": 0})
        state = make_state("2C 4D", "KD", pile="KH 9H 5H", stock="")
        assert apply(state, 0, Move.draw(), rules=rules).result.reason == "the stock ran out for the 1st time"

    def test_an_empty_stock_over_a_one_card_pile_is_not_a_run_out(self):
        # At the limit, with nothing under the top card: no draw, hence no run-out; the seat plays.
        state = make_state("2C 5C", "KD", pile="5H", stock="", restocks=20)
        assert RULES.legal_moves(RULES.view(state, 0)) == [play("5C")]
        assert apply(state, 0, play("5C")).result is None

    @pytest.mark.parametrize("limit, ordinal", [(20, "21st"), (2, "3rd")])
    def test_in_a_real_hand(self, limit, ordinal):
        # A fixed seed; the seats draw whenever they may, so the stock keeps running out.

        _key, shuffler = protocol_shuffler("runout-0")
        match = Match(get("crazy-eights", {"restock_limit": limit}), 2, shuffler)
        events = match.start()
        while match.hand_no == 1:
            events += match.apply(match.turn, _draw_if_possible(match.legal_moves(match.turn)))
        end = next(e for e in events if e["type"] == "hand-end")
        assert sum(e["type"] == "restock" for e in events) == limit
        assert end["how"] == "blocked"
        last_move = events[events.index(end) - 1]
        assert last_move["type"] == "move" and last_move["move"] == "draw"
        assert match.hands[0].result.reason == f"the stock ran out for the {ordinal} time"


# --- passing and blocked hands -------------------------------------------------


class TestPassing:
    def test_no_pass_while_a_card_can_be_drawn(self):
        state = make_state("2C 4D", "KD", pile="5S", stock="3S")
        assert refusal(state, 0, Move.pass_()) == "you may pass only when there is nothing to draw"
        # The pile under its top card counts as something to draw.
        restockable = make_state("2C 4D", "KD", pile="9S 5S", stock="")
        assert refusal(restockable, 0, Move.pass_()) == "you may pass only when there is nothing to draw"

    def test_no_pass_while_holding_a_card_that_fits(self):
        state = make_state("2C 4S", "KD", pile="5S", stock="")
        assert refusal(state, 0, Move.pass_()) == "you may pass only when you cannot play, and 4♠ fits"
        with_an_eight = make_state("2C 8D", "KD", pile="5S", stock="")
        assert refusal(with_an_eight, 0, Move.pass_()) == "you may pass only when you cannot play, and 8♦ fits"

    def test_no_pass_with_a_drawn_card_to_play_or_keep(self):
        state = make_state("2C 4D 3S", "KD", pile="5S", stock="", drawn=1, pending="3S")
        assert refusal(state, 0, Move.pass_()) == "you must play or keep the card you drew (3♠)"

    def test_pass_hands_the_turn_on_and_counts(self):
        state = make_state("2C 4D", "KD", "JS", pile="5S", stock="", turn=0)
        after = apply(state, 0, Move.pass_())
        assert after.turn == 1 and after.passes == 1 and after.result is None
        after = apply(after, 1, Move.pass_())
        assert after.turn == 2 and after.passes == 2

    def test_a_play_resets_the_passes(self):
        state = make_state("2C 4D", "KD", "JS 3H", pile="5S", stock="", turn=2, passes=2)
        after = apply(state, 2, play("JS"))
        assert after.passes == 0 and after.result is None

    def test_a_draw_resets_the_passes(self):
        # Seat 1 passed over 5♠; seat 0 then played 5♣, so seat 1 can draw (a restock of 5♠).
        _key, shuffler = protocol_shuffler()
        state = make_state("2C", "KD 4D", pile="5S 5C", stock="", turn=1, passes=1)
        after = apply(state, 1, Move.draw(), shuffler=shuffler)
        assert after.passes == 0

    def test_everyone_passing_in_turn_blocks_the_hand(self):
        # With one pack a full round of passes cannot arise in real play (someone
        # always holds a card of the top card's suit); a built position shows the rule.
        state = make_state("2C 4D", "KD 3C", "JH", pile="5S", stock="", turn=1, passes=0)
        state = apply(state, 1, Move.pass_())
        state = apply(state, 2, Move.pass_())
        assert state.result is None and state.turn == 0
        state = apply(state, 0, Move.pass_())
        result = state.result
        assert result.how == "blocked" and result.reason == "everyone passed in turn"
        assert result.counts == (6, 13, 10)
        assert result.winners == (0,) and result.scores == (7 + 4, 0, 0)
        assert state.turn is None


# --- scoring -----------------------------------------------------------------


class TestScoring:
    def test_points_table(self):
        table = {
            "A": 1,
            "2": 2,
            "3": 3,
            "4": 4,
            "5": 5,
            "6": 6,
            "7": 7,
            "8": 50,
            "9": 9,
            "T": 10,
            "J": 10,
            "Q": 10,
            "K": 10,
        }
        for card in pack():
            assert card_points(card) == table[card.rank.letter], card

    def test_an_eight_a_nine_and_a_seven_count_66(self):
        # The worked example of the Stops chapter, same points table.
        assert sum(map(card_points, cards("8S 9H 7C"))) == 66

    def test_going_out_scores_every_other_hand(self):
        state = make_state("KD 8H 3C", "5S", "AH QC 2D", pile="5H", turn=1, stock="4C")
        after = apply(state, 1, play("5S"))
        result = after.result
        assert result.how == "out" and result.winners == (1,)
        assert result.counts == (63, 0, 13)
        assert result.scores == (0, 76, 0)
        assert result.reason == "seat 1 went out"

    def test_going_out_with_the_drawn_card(self):
        state = make_state("9H", "KD 4D", pile="5H", stock="", drawn=1, pending="9H")
        result = apply(state, 0, play("9H")).result
        assert result.how == "out" and result.scores == (14, 0)

    def test_blocked_hand_lowest_count_scores_the_differences(self):
        state = make_state("KD 9H", "3C 4C", "JH", pile="5S", stock="", turn=0, passes=2)
        result = apply(state, 0, Move.pass_()).result
        assert result.counts == (19, 7, 10)
        assert result.winners == (1,) and result.scores == (0, 12 + 3, 0)

    def test_players_who_share_the_lowest_count_each_score_it(self):
        state = make_state("TD 2C", "3C 9D", "JH KD 3H", "8H", pile="5S", stock="", turn=0, passes=3)
        result = apply(state, 0, Move.pass_()).result
        assert result.counts == (12, 12, 23, 50)
        assert result.winners == (0, 1)
        assert result.scores == (11 + 38, 11 + 38, 0, 0)

    def test_a_blocked_hand_where_everyone_ties_scores_nothing(self):
        state = make_state("4C", "2D 2H", pile="5S", stock="", turn=0, passes=1)
        result = apply(state, 0, Move.pass_()).result
        assert result.winners == (0, 1) and result.scores == (0, 0)


# --- the timer's auto-move ---------------------------------------------------


class TestAutoMove:
    def test_plays_the_pending_card(self):
        state = make_state("2C 4D 7H", "KD", pile="5H", stock="3S", drawn=1, pending="7H")
        assert RULES.auto_move(state) == play("7H")

    def test_plays_a_pending_eight_naming_the_suit_held_most(self):
        state = make_state("2C 4D 5D 8S", "KD", pile="5H", stock="3S", drawn=2, pending="8S")
        assert RULES.auto_move(state) == play("8S", "D")

    def test_draws_on_while_drawing(self):
        state = make_state("2C 4D 5H 3S", "KD", pile="5H", stock="JC", drawn=1)
        assert RULES.auto_move(state) == Move.draw()

    def test_plays_the_lowest_playable_card(self):
        state = make_state("KH 3H 8C AH 9S 2C", "KD", pile="5H", stock="3S")
        assert RULES.auto_move(state) == play("AH")

    def test_lowest_is_by_points_then_rank_then_suit(self):
        # 10, J, Q, K all count 10: the 10 is lowest by rank.
        assert RULES.auto_move(make_state("KH QH JH TH 2C", "KD", pile="5H", stock="3S")) == play("TH")
        # Same points and rank: clubs before diamonds, hearts, spades.
        assert RULES.auto_move(make_state("5S 5D 2S", "KD", pile="5H", stock="3S")) == play("5D")
        assert sorted(cards("8C KS TH AD 5C 5D"), key=auto_card_order) == list(cards("AD 5C 5D TH KS 8C"))

    def test_an_eight_comes_last(self):
        state = make_state("8C KH 4C", "KD", pile="5H", stock="3S")
        assert RULES.auto_move(state) == play("KH")
        only_eight = make_state("8C 4C 2D 3D", "KD", pile="5H", stock="3S")
        assert RULES.auto_move(only_eight) == play("8C", "D")

    def test_a_timed_out_eight_names_the_suit_held_most_clubs_first_on_ties(self):
        assert RULES.auto_move(make_state("8C 2H 3H 4S 5S", "KD", pile="6D", stock="3S")) == play("8C", "H")
        assert RULES.auto_move(make_state("8C 2S 3D 4C", "KD", pile="KH", stock="3S")) == play("8C", "C")
        assert RULES.auto_move(make_state("8C 2S 3D", "KD", pile="6H", stock="3S")) == play("8C", "D")

    def test_a_timed_out_last_eight_names_its_own_suit(self):
        assert RULES.auto_move(make_state("8S", "KD", pile="6D", stock="3S")) == play("8S", "S")

    def test_draws_when_nothing_fits(self):
        assert RULES.auto_move(make_state("2C 4D", "KD", pile="5H", stock="3S")) == Move.draw()
        # A restock counts as something to draw.
        assert RULES.auto_move(make_state("2C 4D", "KD", pile="9S 5H", stock="")) == Move.draw()

    def test_passes_when_it_can_neither_play_nor_draw(self):
        assert RULES.auto_move(make_state("2C 4D", "KD", pile="5H", stock="")) == Move.pass_()
        drew_out = make_state("2C 4D 3S", "KD", pile="5H", stock="", drawn=1)
        assert RULES.auto_move(drew_out) == Move.pass_()

    def test_after_drawing_out_plays_from_hand(self):
        state = make_state("2C 5C 3S", "KD", pile="5H", stock="", drawn=1)
        assert RULES.auto_move(state) == play("5C")

    def test_no_auto_move_once_the_hand_is_over(self):
        over = apply(make_state("5S", "KD", pile="5H", stock="3S"), 0, play("5S"))
        with pytest.raises(IllegalMove, match="the hand is over"):
            RULES.auto_move(over)


# --- explaining a card ----------------------------------------------------------


class TestExplain:
    def test_every_reason(self):
        state = make_state("9C 5H 2D", "KD 4S", pile="5S", stock="3S 9H")
        view = RULES.view(state, 0)
        assert RULES.explain(view, Card.parse("5H")) is None
        assert RULES.explain(view, Card.parse("9C")) == "9♣ does not match 5♠ in suit or rank"
        assert RULES.explain(view, Card.parse("KD")) == "you do not hold K♦"
        assert RULES.explain(RULES.view(state, 1), Card.parse("4S")) == "it is not your turn"
        assert RULES.explain(RULES.view(state, None), Card.parse("4S")) == "it is not your turn"

        named = make_state("9C 5H", "KD", pile="5D 8S", named="H", stock="3S")
        assert RULES.explain(RULES.view(named, 0), Card.parse("9C")) == "9♣ does not match ♥, the suit named with 8♠"

        drawing = make_state("9C 5H 2D 3C", "KD", pile="5S", stock="9H", drawn=1)
        assert (
            RULES.explain(RULES.view(drawing, 0), Card.parse("5H"))
            == "you have started drawing: draw until a card fits"
        )

        pending = make_state("9C 5H 2D 3S", "KD", pile="5S", stock="9H", drawn=1, pending="3S")
        view = RULES.view(pending, 0)
        assert RULES.explain(view, Card.parse("3S")) is None
        assert RULES.explain(view, Card.parse("5H")) == "you must play or keep the card you drew (3♠)"

        over = apply(make_state("5S", "KD", pile="5H", stock="3S"), 0, play("5S"))
        assert RULES.explain(RULES.view(over, 1), Card.parse("KD")) == "the hand is over"


# --- what seats see ---------------------------------------------------------


class TestViews:
    def test_a_seat_sees_its_own_hand_and_the_public_table_only(self):
        state = make_state("9C 5H 2D", "KD 4S", "AH", pile="3H 5S", stock="3S 9H JD", turn=1, drawn=2)
        view = RULES.view(state, 0)
        assert view.hand == cards("9C 5H 2D")
        assert view.hand_sizes == (3, 2, 1) and view.stock_size == 3 and view.pile_size == 2
        assert view.top == Card.parse("5S") and view.turn == 1 and view.drawn == 2
        data = view.to_json()
        assert data["hand"] == ["9C", "5H", "2D"] and data["top"] == "5S"
        shown = repr(data)
        for hidden in ("KD", "4S", "AH", "3S", "9H", "JD", "3H"):
            assert hidden not in shown

    def test_the_pending_card_is_seen_only_by_the_seat_that_drew_it(self):
        state = make_state("9C 5H 7S", "KD 4S", "AH", pile="5S", stock="9H", drawn=1, pending="7S")
        assert RULES.view(state, 0).pending == Card.parse("7S")
        for seat in (1, 2, None):
            view = RULES.view(state, seat)
            assert view.pending is None and "7S" not in repr(view.to_json())

    def test_a_spectator_sees_no_hand(self):
        state = make_state("9C 5H", "KD 4S", pile="5S", stock="9H")
        view = RULES.view(state, None)
        assert view.hand == () and RULES.legal_moves(view) == []

    @pytest.mark.parametrize("seat", [-1, -2, 2])
    def test_no_view_for_a_seat_that_is_not_at_the_table(self, seat):
        # -1 must not show the last seat's hand.
        state = make_state("9C 5H", "KD 4S", pile="5S", stock="9H")
        with pytest.raises(ValueError, match=f"there is no seat {seat} at this 2-seat table"):
            RULES.view(state, seat)

    def test_no_moves_for_a_seat_whose_turn_it_is_not(self):
        state = make_state("9C 5H", "KD 5S", pile="5D", stock="9H")
        assert RULES.legal_moves(RULES.view(state, 1)) == []
        assert refusal(state, 1, play("5S")) == "it is not your turn"


# --- errors and options ---------------------------------------------------------


class TestErrors:
    def test_illegal_move_is_a_value_error_with_a_readable_message(self):
        state = make_state("9C 5H", "KD", pile="5S", stock="9H")
        with pytest.raises(ValueError) as info:
            RULES.apply(state, 0, play("9C"), no_shuffle)
        assert isinstance(info.value, IllegalMove)
        assert str(info.value) == "illegal move play 9C by seat 0: 9♣ does not match 5♠ in suit or rank"
        assert info.value.seat == 0 and info.value.move == play("9C")

    def test_a_refused_move_leaves_the_state_as_it_was(self):
        state = make_state("9C 5H", "KD", pile="5S", stock="9H")
        copy = make_state("9C 5H", "KD", pile="5S", stock="9H")
        for move in (play("9C"), Move.keep(), Move.pass_(), play("KD")):
            refusal(state, 0, move)
        assert state == copy

    def test_no_move_after_the_hand_is_over(self):
        over = apply(make_state("5S", "KD", pile="5H", stock="3S"), 0, play("5S"))
        assert refusal(over, 1, Move.draw()) == "the hand is over"

    def test_unknown_move_kind(self):
        state = make_state("9C 5H", "KD", pile="5S", stock="9H")
        assert refusal(state, 0, Move.parse("bid 2")) == "Crazy Eights has no move 'bid'"
        with pytest.raises(MoveError, match="unknown move 'fly'"):
            Move("fly")  # a kind no game declares is no move at all


class TestOptions:
    def test_defaults(self):
        assert CrazyEights().options == {"target": 100, "restock_limit": 20}

    @pytest.mark.parametrize(
        "options, message",
        [
            ({"target": 0}, "target must be between 1 and 100000"),
            ({"restock_limit": -1}, "restock_limit must be between 0 and 1000"),
            ({"target": "100"}, "must be an integer"),
            ({"target": True}, "must be an integer"),
            ({"jokers": 2}, "has no option 'jokers'"),
        ],
    )
    def test_bad_options(self, options, message):
        with pytest.raises(OptionsError, match=message):
            get("crazy-eights", options)

    def test_the_view_carries_the_restock_limit(self):
        state = make_state("9C", "KD", pile="5S", stock="9H", restocks=3)
        view = get("crazy-eights", {"restock_limit": 5}).view(state, 0)
        assert (view.restocks, view.restock_limit) == (3, 5)


# --- legal_moves, apply and explain agree everywhere -------------------------------


def _candidates(hand):
    """Every move a seat could try: each held card with no suit and with each suit, and the rest."""
    moves = [Move.draw(), Move.keep(), Move.pass_(), play("8S", "H"), play("KD")]
    for card in hand:
        moves.append(Move.play(card))
        moves.extend(Move.play(card, suit) for suit in Suit)
    return moves


def _check_position(rules, state, shuffler):
    """Everything that must agree in one position of a hand."""
    everything = [c for h in state.hands for c in h] + list(state.stock) + list(state.pile)
    assert sorted(everything) == pack()
    for seat in range(state.seats):
        view = rules.view(state, seat)
        legal = rules.legal_moves(view)
        # The view shows the seat's own hand, and nothing of another hand.
        assert view.hand == state.hands[seat]
        others = {c for s, h in enumerate(state.hands) if s != seat for c in h}
        assert others.isdisjoint({view.top, view.pending, *view.hand})
        if seat != state.turn:
            assert legal == [] and view.pending is None
            why = "the hand is over" if state.result is not None else "it is not your turn"
            assert all(rules.explain(view, card) == why for card in state.hands[seat])
            continue
        assert legal, "the seat to act always has a move"
        assert len(set(legal)) == len(legal)
        # legal_moves is exactly what apply accepts.
        for move in _candidates(state.hands[seat]) + legal:
            try:
                rules.apply(state, seat, move, shuffler)
            except IllegalMove as exc:
                assert move not in legal, f"{move} is listed but refused: {exc}"
                if move.kind == "play" and (move.suit is not None) == (move.card.rank == Rank.EIGHT):
                    assert exc.reason == rules.explain(view, move.card)
            else:
                assert move in legal, f"{move} is accepted but not listed"
        # Every held card is playable or has a reason.
        playable = plays_in(legal)
        for card in state.hands[seat]:
            reason = rules.explain(view, card)
            assert (reason is None) == (card.code in playable), (card, reason)
        assert rules.auto_move(state) in legal


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.integers(0, 10_000),
    seats=st.integers(2, 6),
    restock_limit=st.sampled_from([0, 1, 3, 20]),
    play_bias=st.sampled_from([0.2, 0.7, 0.95]),
)
def test_legal_moves_apply_and_explain_agree(game, seats, restock_limit, play_bias):
    """Random hands from fixed seeds: seats play a card when they can with probability
    ``play_bias`` (hands go out), else draw when they can (the stock keeps running out)."""
    rules = get("crazy-eights", {"restock_limit": restock_limit})
    _key, shuffler = protocol_shuffler(f"property-{game}", seats)
    rng = random.Random(game)
    state, _ = rules.deal(seats, dealer=game % seats, hand=1 + game % 3, shuffle=shuffler)
    for _step in range(400):
        _check_position(rules, state, shuffler)
        if state.result is not None:
            break
        legal = rules.legal_moves(rules.view(state, state.turn))
        plays = [m for m in legal if m.kind == "play"]
        others = [m for m in legal if m.kind != "play"] or plays
        move = rng.choice(plays if plays and rng.random() < play_bias else others)
        state, _ = rules.apply(state, state.turn, move, shuffler)
    if state.result is not None:
        result = state.result
        assert sum(result.scores) == (
            sum(result.counts)
            if result.how == "out"
            else len(result.winners) * sum(c - min(result.counts) for c in result.counts)
        )
