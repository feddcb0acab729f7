"""Switch, the example game plugin (examples/switch/): the rules of examples/switch/spec/switch.md
as a player would check them.

Most tests build a :class:`SwitchState` by hand (hands, stock and pile written as card codes) so
the position under test is plain to read; deals use the real protocol shuffle under a fixed seed,
or a shuffler that returns a chosen order. The last section plays a few hundred whole matches
from fixed seeds through fairdeal's own :class:`~fairdeal.match.Match`.

The plugin is installed with ``pip install -e examples/switch``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from importlib import metadata
from importlib import resources

import helpers
import pytest
from fairdeal_switch import Switch
from fairdeal_switch import SwitchState
from fairdeal_switch import card_points
from helpers import cards
from helpers import check_legal_moves
from helpers import in_order
from helpers import play

# fairdeal before the plugin: fairdeal's first import discovers the installed games, this one
# among them, and that must not begin while the plugin's own module is half made.
from fairdeal.bots import make_bot
from fairdeal.cards import Card
from fairdeal.cards import Rank
from fairdeal.cards import Suit
from fairdeal.cards import pack
from fairdeal.fairness import GameShuffle
from fairdeal.fairness import game_key
from fairdeal.match import Match
from fairdeal.rules import Move
from fairdeal.rules import PositionError
from fairdeal.rules import Standing

RULES = Switch()
SEED = "00" * 32

EVERY_MOVE = (
    [Move.play(c) for c in pack() if c.rank != Rank.ACE]
    + [Move.play(c, s) for c in pack() if c.rank == Rank.ACE for s in Suit]
    + [Move.draw(), Move.keep(), Move.pass_()]
)
"""Every move a seat could try (an ace is only ever played naming a suit)."""


# --- helpers ------------------------------------------------------------


def make_state(*hands: str, pile: str, restocks: int = 0, **position) -> SwitchState:
    """A hand in progress (:func:`helpers.pile_state`); ``pile`` is bottom first (its last card is
    the top, its first the starter), ``stock`` top first."""
    return helpers.pile_state(
        SwitchState,
        *hands,
        pile=pile,
        restocks=restocks,
        turned=cards(pile)[:1],
        restocked=((),) * restocks,
        **position,
    )


def no_shuffle(label, cards_):
    raise AssertionError(f"this move must not shuffle anything (asked for {label!r})")


def apply(state, seat, move, shuffler=no_shuffle, rules=RULES):
    return rules.apply(state, seat, move, shuffler)


def after(state, seat, move, shuffler=no_shuffle, rules=RULES) -> SwitchState:
    return apply(state, seat, move, shuffler, rules)[0]


def refusal(state, seat, move) -> str:
    return helpers.refusal(RULES, state, seat, move, no_shuffle)


def legal(state, seat=None) -> list[str]:
    return helpers.legal(RULES, state, seat)


def why_not(state, seat, code) -> str | None:
    return RULES.explain(RULES.view(state, seat), Card.parse(code))


DRAW, KEEP, PASS = Move.draw(), Move.keep(), Move.pass_()


class Recorder:
    """A shuffler that reverses what it is given and notes every label and input."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, list[str]]] = []

    def __call__(self, label, cards_):
        self.calls.append((label, [c.code for c in cards_]))
        return list(reversed(cards_))


def with_starter(starter: str, seats: int):
    """A shuffler that deals the pack in card order but for ``starter``, which is turned up."""
    card = Card.parse(starter)
    order = [c for c in pack() if c is not card]
    order.insert(RULES.hand_size(seats) * seats, card)
    return lambda label, cards_: list(order)


# --- the deal -----------------------------------------------------------


class TestDeal:
    @pytest.mark.parametrize(
        "seats, size, stock", [(2, 7, 37), (3, 7, 30), (4, 7, 23), (5, 5, 26), (6, 5, 21), (7, 5, 16)]
    )
    def test_hand_sizes_stock_and_starter(self, seats, size, stock):
        _, shuffler = helpers.protocol_shuffler(f"switch-sizes-{seats}", seats, SEED)
        state, events = RULES.deal(seats, dealer=0, hand=1, shuffle=shuffler)
        assert [len(h) for h in state.hands] == [size] * seats and len(state.stock) == stock
        assert sorted([c for h in state.hands for c in h] + list(state.stock) + list(state.pile)) == pack()
        assert (state.turn, state.direction, state.penalty, state.named) == (1, 1, 0, None)
        assert events == [{"type": "deal", "hand": 1, "dealer": 0, "turned": [state.top.code]}]

    def test_one_card_at_a_time_clockwise_from_the_dealers_left(self):
        state, _ = RULES.deal(3, dealer=2, hand=1, shuffle=in_order)
        assert state.hands == (
            cards("AC 4C 7C TC KC 3D 6D"),
            cards("2C 5C 8C JC AD 4D 7D"),
            cards("3C 6C 9C QC 2D 5D 8D"),
        )
        assert state.top == Card.parse("9D") and state.turn == 0 and state.stock == tuple(pack()[22:])

    @pytest.mark.parametrize("seats", [1, 8])
    def test_two_to_seven_players(self, seats):
        with pytest.raises(ValueError, match=f"Switch is for 2 to 7 players, not {seats}"):
            RULES.deal(seats, 0, 1, in_order)

    def test_a_starter_2_sets_no_penalty(self):
        state, _ = RULES.deal(2, dealer=0, hand=1, shuffle=with_starter("2H", 2))
        assert state.top == Card.parse("2H") and state.penalty == 0
        # Seat 1 holds AC 3C 5C ... KC: no heart, no 2; it may play its ace or draw one card.
        assert legal(state) == ["play AC naming C", "play AC naming D", "play AC naming H", "play AC naming S", "draw"]

    @pytest.mark.parametrize("starter", ["8H", "JH"])
    def test_a_starter_8_skips_nobody_and_a_starter_jack_reverses_nothing(self, starter):
        state, _ = RULES.deal(3, dealer=0, hand=1, shuffle=with_starter(starter, 3))
        assert state.top == Card.parse(starter) and (state.turn, state.direction) == (1, 1)

    def test_a_starter_ace_names_nothing_its_suit_and_rank_are_matched(self):
        state, _ = RULES.deal(2, dealer=0, hand=1, shuffle=with_starter("AH", 2))
        assert state.top == Card.parse("AH") and state.named is None
        state = make_state("5H 5C AC", "KD", pile="AH")
        assert legal(state)[:2] == ["play AC naming C", "play AC naming D"] and "play 5H" in legal(state)
        assert why_not(state, 0, "5C") == "5♣ does not match A♥ in suit or rank"


# --- the power cards ----------------------------------------------------------


class TestTwos:
    def test_a_2_makes_the_next_player_draw_two(self):
        state = make_state("2H 9C", "KD 3S", "5H 6S", pile="TH", stock="4C 6C 7C")
        state = after(state, 0, play("2H"))
        assert (state.turn, state.penalty) == (1, 2)
        assert legal(state) == ["draw"]
        assert why_not(state, 1, "KD") == "only a 2 answers the 2 on the pile: play a 2 or draw 2"
        state, events = apply(state, 1, DRAW)
        assert state.hands[1] == cards("KD 3S 4C 6C") and state.stock == cards("7C") and events == []
        # The penalty is taken: the next seat plays on the 2 as on any card.
        assert (state.turn, state.penalty) == (2, 0)
        assert legal(state) == ["play 5H", "draw"]

    def test_2s_stack(self):
        state = make_state("2H 9C", "2S 3S", "2C KD", "5D", pile="TH", stock="4C 6C 7C 8C 9D 9S AD")
        state = after(state, 0, play("2H"))
        assert legal(state) == ["play 2S", "draw"]
        state = after(state, 1, play("2S"))
        assert (state.turn, state.penalty) == (2, 4)
        state = after(state, 2, play("2C"))
        assert (state.turn, state.penalty, legal(state)) == (3, 6, ["draw"])
        state = after(state, 3, DRAW)
        assert state.hands[3] == cards("5D 4C 6C 7C 8C 9D 9S") and state.stock == cards("AD")
        assert (state.turn, state.penalty) == (0, 0)

    def test_only_a_2_answers_a_penalty_not_even_an_ace(self):
        state = make_state("AS 3H 2D", "KD", pile="9H 2H", penalty=2, stock="4C 6C")
        assert legal(state) == ["play 2D", "draw"]
        reason = "only a 2 answers the 2 on the pile: play a 2 or draw 2"
        assert refusal(state, 0, play("AS", "H")) == reason and refusal(state, 0, play("3H")) == reason
        assert refusal(state, 0, PASS) == "a 2's penalty cannot be passed: play a 2 or draw 2"
        assert refusal(state, 0, KEEP) == "you can only keep a card you have just drawn that fits"

    def test_a_penalty_draw_restocks_when_the_stock_runs_short(self):
        state = make_state("KD", "5C 6C", pile="KH 9H 9C JC 2C", stock="5S", penalty=2, hand=3)
        shuffler = Recorder()
        state, events = apply(state, 0, DRAW, shuffler)
        # The pile under its top, in card order, shuffled under the restock's label.
        assert shuffler.calls == [("hand/3/restock/1", ["9C", "JC", "9H", "KH"])]
        assert state.hands[0] == cards("KD 5S KH") and state.stock == cards("9H JC 9C") and state.pile == cards("2C")
        assert events == [{"type": "restock", "hand": 3, "restock": 1, "cards": 4}]
        assert (state.turn, state.penalty, state.restocks, state.restocked) == (1, 0, 1, (cards("KH 9H JC 9C"),))

    def test_what_is_not_there_to_draw_of_a_penalty_lapses(self):
        state = make_state("KD", "5C", pile="9C 2D 2C", stock="5S", penalty=4)
        state = after(state, 0, DRAW, Recorder())
        assert state.hands[0] == cards("KD 5S 2D 9C") and state.pile == cards("2C") and not state.stock
        assert (state.turn, state.penalty) == (1, 0)

    def test_the_restock_limit_can_block_a_penalty_draw_midway(self):
        rules = Switch({"restock_limit": 0})
        state = make_state("KD", "5C", pile="9C 2C", stock="5S", penalty=2)
        state = after(state, 0, DRAW, rules=rules)
        # The card drawn before the run-out counts in the hand: 10 + 5 against 5.
        assert state.hands[0] == cards("KD 5S") and state.turn is None
        assert (state.result.how, state.result.winners, state.result.scores) == ("blocked", (1,), (0, 10))
        assert state.result.reason == "the stock ran out again after 0 restocks"


class TestEights:
    def test_an_8_skips_the_next_player(self):
        state = after(make_state("8C 4D", "9C", "3C", pile="5C"), 0, play("8C"))
        assert state.turn == 2

    def test_at_two_players_the_player_of_an_8_plays_again(self):
        state = after(make_state("8C 4D", "9C", pile="5C", stock="7S"), 0, play("8C"))
        assert state.turn == 0 and legal(state) == ["draw"]

    def test_an_8_skips_in_the_direction_of_play(self):
        state = after(make_state("8C 4D", "9C", "3C", "7D", "KS", pile="5C", direction=-1), 0, play("8C"))
        assert state.turn == 3  # seat 4 is skipped


class TestJacks:
    def test_a_jack_reverses_the_direction_of_play(self):
        state = make_state("3C 4H", "JC 4C", "5C 6D", "6C 7D", pile="9C", turn=1)
        state = after(state, 1, play("JC"))
        assert (state.direction, state.turn) == (-1, 0)
        state = after(state, 0, play("3C"))
        assert state.turn == 3
        assert RULES.view(state, 2).to_json()["direction"] == "counterclockwise"

    def test_a_second_jack_turns_play_back(self):
        state = after(make_state("3C", "JC 4C", "JH 6D", pile="9C JC", turn=2, direction=-1), 2, play("JH"))
        assert (state.direction, state.turn) == (1, 0)

    def test_at_two_players_a_jack_is_a_skip(self):
        state = after(make_state("JC 4D", "9C", pile="5C", stock="7S"), 0, play("JC"))
        assert state.turn == 0 and state.direction == -1  # flipped, which changes nothing at two seats
        state = after(state, 0, DRAW)  # 7S does not fit J♣: the turn passes, to the only other seat
        assert state.turn == 1


class TestAces:
    def test_an_ace_is_wild_and_names_the_suit(self):
        state = make_state("AS 9C 5H", "KD 4C", pile="TD", stock="3S")
        assert legal(state) == ["play AS naming C", "play AS naming D", "play AS naming H", "play AS naming S", "draw"]
        assert refusal(state, 0, play("AS")) == "name a suit for A♠"
        state = after(state, 0, play("AS", "H"))
        assert state.named == Suit.HEARTS and state.turn == 1
        assert why_not(state, 1, "KD") == "K♦ does not match ♥, the suit named with A♠"
        assert RULES.view(state, 1).to_json()["next"] == {"suit": "H", "rank": None, "wild": "A"}

    def test_only_an_ace_names_a_suit(self):
        assert refusal(make_state("9D", "KD", pile="TD"), 0, play("9D", "H")) == "only an ace names a suit"

    def test_the_named_suit_lasts_until_the_next_card_played(self):
        state = make_state("5H 7S", "KD", pile="TD AS", named="H", turn=1, stock="3S")
        state = after(state, 1, DRAW)  # 3S: not a heart, the turn passes; hearts are still named
        assert state.named == Suit.HEARTS and legal(state) == ["play 5H", "draw"]
        state = after(state, 0, play("5H"))
        assert state.named is None

    def test_an_ace_goes_on_an_ace(self):
        state = after(make_state("AC 7S", "KD", pile="TD AS", named="H"), 0, play("AC", "D"))
        assert state.named == Suit.DIAMONDS


# --- drawing, the stock and passing -----------------------------------------------------


class TestDrawing:
    def test_one_card_drawn_that_does_not_fit_ends_the_turn(self):
        state = after(make_state("9C", "KD", pile="5H", stock="3S 4S"), 0, DRAW)
        assert state.hands[0] == cards("9C 3S") and state.turn == 1 and state.pending is None

    def test_a_drawn_card_that_fits_is_played_or_kept(self):
        state = after(make_state("9C", "KD", "4S", pile="5H", stock="7H 4S"), 0, DRAW)
        assert state.pending == Card.parse("7H") and state.turn == 0
        assert legal(state) == ["play 7H", "keep"]
        assert why_not(state, 0, "9C") == "you must play or keep the card you drew (7♥)"
        assert RULES.view(state, 1).pending is None  # only the drawer sees it
        assert after(state, 0, KEEP).turn == 1
        played = after(state, 0, play("7H"))
        assert played.top == Card.parse("7H") and played.turn == 1

    def test_a_drawn_power_card_has_its_power_when_played(self):
        state = after(make_state("9C", "KD", "4S", pile="5H", stock="8H"), 0, DRAW)
        assert after(state, 0, play("8H")).turn == 2

    def test_drawing_is_allowed_with_a_card_that_fits(self):
        assert legal(make_state("5C", "KD", pile="5H", stock="3S")) == ["play 5C", "draw"]

    def test_an_empty_stock_is_rebuilt_from_the_pile_under_its_top(self):
        state = make_state("9C", "KD", pile="KH 2C 5H", hand=2)
        shuffler = Recorder()
        state, events = apply(state, 0, DRAW, shuffler)
        assert shuffler.calls == [("hand/2/restock/1", ["2C", "KH"])]
        assert events == [{"type": "restock", "hand": 2, "restock": 1, "cards": 2}]
        # KH, the new stock's top, fits 5H: it is the pending card.
        assert state.pile == cards("5H") and state.stock == cards("2C") and state.pending == Card.parse("KH")

    def test_the_restock_limit_blocks_the_hand(self):
        rules = Switch({"restock_limit": 1})
        state = after(make_state("9C", "KD", pile="KH 2C 5H", restocks=1), 0, DRAW, rules=rules)
        assert state.result.how == "blocked" and state.result.reason == "the stock ran out again after 1 restock"

    def test_nothing_to_draw_and_nothing_fits_passes(self):
        state = make_state("9C", "KD", pile="5H")
        assert legal(state) == ["pass"]
        assert (
            refusal(state, 0, DRAW) == "there is nothing to draw: the stock is empty and the pile has only its top card"
        )
        state = after(state, 0, PASS)
        assert (state.turn, state.passes) == (1, 1)

    def test_a_pass_is_refused_while_a_card_fits_or_can_be_drawn(self):
        assert (
            refusal(make_state("5C", "KD", pile="5H"), 0, PASS) == "you may pass only when you cannot play, and 5♣ fits"
        )
        assert (
            refusal(make_state("9C", "KD", pile="5H", stock="3S"), 0, PASS)
            == "you may pass only when there is nothing to draw"
        )

    def test_legal_moves_apply_and_explain_agree_on_hand_made_positions(self):
        for state in (
            make_state("2H 9C AS 8H", "KD 2S", pile="TH", stock="4C"),
            make_state("AS 3H 2D", "KD", pile="9H 2H", penalty=2),
            make_state("9C 7H", "KD", pile="5H", stock="7S", pending="7H"),
            make_state("9C", "KD", pile="5H"),
            make_state("5H 7S AC", "KD", pile="TD AS", named="H", stock="3S"),
        ):
            check_legal_moves(RULES, state, EVERY_MOVE, Recorder())


# --- the end of a hand --------------------------------------------------------


class TestScoring:
    def test_card_values(self):
        values = {
            code: card_points(Card.parse(code)) for code in ["AS", "2H", "8D", "JC", "KH", "QS", "TD", "9C", "7C", "3D"]
        }
        assert values == {
            "AS": 20,
            "2H": 20,
            "8D": 20,
            "JC": 20,
            "KH": 10,
            "QS": 10,
            "TD": 10,
            "9C": 9,
            "7C": 7,
            "3D": 3,
        }

    def test_going_out_scores_every_card_left_in_the_other_hands(self):
        state = after(make_state("AS KD 3C", "5H", "2H 8C", pile="5D", turn=1), 1, play("5H"))
        assert state.turn is None
        result = state.result
        assert (result.how, result.winners, result.counts, result.scores) == ("out", (1,), (33, 0, 40), (0, 73, 0))

    def test_a_last_power_card_ends_the_hand_without_its_power(self):
        state = after(make_state("3C", "2H", "4C", pile="5H", turn=1), 1, play("2H"))
        assert state.result.how == "out" and state.penalty == 0
        assert after(make_state("3C", "JH", "4C", pile="5H", turn=1), 1, play("JH")).direction == 1

    def test_a_block_goes_to_the_lowest_count(self):
        state = make_state("5H 7D", "3C 9D", "TD 6C 7H", "QD QH TC JC", pile="KS", passes=3, turn=3)
        state = after(state, 3, PASS)
        result = state.result
        assert (result.how, result.winners, result.counts, result.scores) == (
            "blocked",
            (0, 1),
            (12, 12, 23, 50),
            (49, 49, 0, 0),
        )
        assert result.reason == "everyone passed in turn"

    def test_a_finished_hand_is_scored_into_the_match(self):
        match = Match(Switch({"target": 30}), 3, in_order)
        match.start()
        match.state = make_state("AS KD 3C", "5H", "2H 8C", pile="5D", turn=1)
        events = match.apply(1, play("5H"))
        end = next(e for e in events if e["type"] == "hand-end")
        assert end["scores"] == [0, 73, 0] and end["totals"] == [0, 73, 0]
        assert match.over and match.standings[0] == Standing(seat=1, total=73, place=1)


# --- the timer ----------------------------------------------------------------


class TestTimer:
    def test_a_pending_card_is_played(self):
        assert RULES.auto_move(make_state("9C 7H", "KD", pile="5H", pending="7H")) == play("7H")

    def test_a_penalty_is_taken_even_with_a_2_in_hand(self):
        assert RULES.auto_move(make_state("2D 3H", "KD", pile="9H 2H", penalty=2)) == DRAW

    def test_the_lowest_fitting_card_power_cards_last(self):
        state = make_state("JC 2S KH AD 3C", "KD", pile="3H")
        assert RULES.auto_move(state) == play("3C")
        assert RULES.auto_move(make_state("JH 2H KH AD", "KD", pile="3H")) == play("KH")
        assert RULES.auto_move(make_state("JH 2H AD", "KD", pile="3H")) == play("AD", "H")

    def test_an_ace_names_the_suit_held_most_or_its_own_when_last(self):
        assert RULES.auto_move(make_state("AD 5H 6H 9C", "KD", pile="KS")) == play("AD", "H")
        assert RULES.auto_move(make_state("AD", "KD", pile="KS")) == play("AD", "D")

    def test_else_a_draw_else_a_pass(self):
        assert RULES.auto_move(make_state("9C", "KD", pile="5H", stock="3S")) == DRAW
        assert RULES.auto_move(make_state("9C", "KD", pile="5H")) == PASS


# --- what a seat sees -------------------------------------------------------------


def _codes_in(value) -> set[str]:
    """Every card code anywhere in a JSON value."""
    if isinstance(value, str):
        return {value} if len(value) == 2 and value in {c.code for c in pack()} else set()
    if isinstance(value, list):
        return set().union(*map(_codes_in, value)) if value else set()
    if isinstance(value, dict):
        return set().union(*map(_codes_in, value.values())) if value else set()
    return set()


class TestView:
    def test_a_view_shows_its_own_hand_and_no_other(self):
        _, shuffler = helpers.protocol_shuffler("switch-view", 4, SEED)
        state, _ = RULES.deal(4, dealer=3, hand=1, shuffle=shuffler)
        for seat in range(4):
            view = RULES.view(state, seat)
            assert view.hand == state.hands[seat] and view.hand_sizes == (7, 7, 7, 7)
            others = {c.code for s, h in enumerate(state.hands) if s != seat for c in h}
            shown = _codes_in(view.to_json())
            assert not shown & others and not shown & {c.code for c in state.stock}
            assert shown == {c.code for c in state.hands[seat]} | {state.top.code}
        spectator = RULES.view(state, None)
        assert spectator.hand == () and _codes_in(spectator.to_json()) == {state.top.code}
        with pytest.raises(ValueError, match="there is no seat 4"):
            RULES.view(state, 4)

    def test_the_view_tells_the_public_facts(self):
        state = make_state("2D 3H", "KD 4C", "5S", pile="9H 2H", penalty=2, direction=-1, stock="4S 6S")
        data = RULES.view(state, 1).to_json()
        assert data["hand"] == ["KD", "4C"] and data["hand_sizes"] == [2, 2, 1]
        assert (data["top"], data["named"], data["penalty"], data["direction"]) == ("2H", None, 2, "counterclockwise")
        assert (data["stock_size"], data["pile_size"], data["turn"], data["pending"]) == (2, 2, 0, None)
        assert data["next"] == {"suit": None, "rank": "2", "wild": None}
        assert RULES.legal_moves(RULES.view(state, 1)) == []  # not its turn

    def test_the_drawn_card_is_seen_only_by_its_drawer(self):
        state = make_state("9C 7H", "KD", pile="5H", stock="7S", pending="7H")
        assert RULES.view(state, 0).to_json()["pending"] == "7H"
        assert RULES.view(state, 1).to_json()["pending"] is None and "7H" not in _codes_in(
            RULES.view(state, 1).to_json()
        )


# --- the position as JSON ------------------------------------------------------------


class TestPosition:
    def test_a_position_round_trips_through_json(self):
        state, _ = RULES.deal(3, dealer=2, hand=2, shuffle=in_order)
        # On the starter 9D: seat 0's 6D, seat 1's 7D, seat 2's 2D; seat 0 faces a penalty.
        for seat, move in ((0, play("6D")), (1, play("7D")), (2, play("2D"))):
            state = after(state, seat, move)
        assert (state.turn, state.penalty) == (0, 2)
        data = json.loads(json.dumps(RULES.state_to_json(state)))
        assert data["penalty"] == 2 and data["pile"] == ["9D", "6D", "7D", "2D"]
        assert RULES.state_from_json(data) == state

    @pytest.mark.parametrize(
        "field, value, message",
        [
            ("named", "H", "named: H is named, but the top of the pile, 2D, is not an ace"),
            ("direction", 2, "direction: 2 is not 1 (to the left) or -1 (to the right)"),
            ("penalty", 2, "penalty: a penalty of 2 is 2 for each of the 2s on top of the pile"),
            ("pending", "AC", "pending: AC is not the card the seat to act has just drawn"),
            ("turned", ["2D", "3D"], "turned: Switch turns exactly one card, the starter"),
        ],
    )
    def test_an_impossible_position_is_refused(self, field, value, message):
        state, _ = RULES.deal(2, dealer=0, hand=1, shuffle=in_order)  # the starter is 2D
        data = RULES.state_to_json(state)
        data[field] = value
        with pytest.raises(PositionError) as caught:
            RULES.state_from_json(data)
        assert str(caught.value).startswith(message)


# --- whole matches ---------------------------------------------------------------


def test_a_few_hundred_matches_from_fixed_seeds_end_properly():
    """Random, heuristic and timed-out moves mixed, at 2 to 7 seats and three restock limits:
    every match ends at its target, every hand is scored by the rules, and the positions on the
    way round-trip as JSON and agree on what is legal."""
    seen: Counter[str] = Counter()
    for number in range(300):
        seats = 2 + number % 6
        rules = Switch({"target": 100, "restock_limit": (20, 2, 0)[number % 3]})
        shuffler = GameShuffle(game_key(f"{number:064x}", f"switch-{number}", [""] * seats))
        match = Match(rules, seats, shuffler)
        match.start()
        rng = random.Random(number)
        bots = [
            make_bot("heuristic" if (seat + number) % 2 else "random", seed=number * 10 + seat) for seat in range(seats)
        ]
        for moves in range(20_000):
            if match.over:
                break
            state, seat = match.state, match.turn
            if moves % 5 == 0:
                assert rules.state_from_json(json.loads(json.dumps(rules.state_to_json(state)))) == state
            if moves % 60 == 0:
                check_legal_moves(rules, state, EVERY_MOVE, shuffler)
            seen["penalty of 4 or more"] += state.penalty >= 4
            seen["reversed"] += state.direction == -1
            timed_out = rng.random() < 0.25
            move = match.auto_move() if timed_out else bots[seat].choose(rules, match.view(seat))
            for event in match.apply(seat, move, auto=timed_out):
                seen[event["type"] if event["type"] != "hand-end" else f"hand {event['how']}"] += 1
        assert match.over, f"match {number} did not end"
        assert max(match.totals) >= 100 and len(match.hands) >= 1
        for report in match.hands:
            result = report.result
            if result.how == "out":
                assert result.scores[result.winners[0]] == sum(result.counts)
            else:
                low = min(result.counts)
                assert all(result.scores[w] == sum(c - low for c in result.counts) for w in result.winners)
        assert [sum(r.result.scores[s] for r in match.hands) for s in range(seats)] == list(match.totals)
    assert seen["match-end"] == 300
    assert (
        min(seen["penalty of 4 or more"], seen["reversed"], seen["restock"], seen["hand blocked"], seen["hand out"]) > 0
    ), seen


def test_the_heuristic_bot_plays_only_legal_moves_and_beats_random_bots():
    wins = 0
    for number in range(30):
        shuffler = GameShuffle(game_key(f"{number:064x}", f"switch-bots-{number}", [""] * 3))
        match = Match(Switch(), 3, shuffler)
        match.start()
        clever = number % 3
        bots = [make_bot("heuristic") if s == clever else make_bot("random", seed=number * 10 + s) for s in range(3)]
        while not match.over:
            seat = match.turn
            view = match.view(seat)
            move = bots[seat].choose(match.rules, view)
            assert move in match.rules.legal_moves(view)
            match.apply(seat, move)
        wins += match.standings[0].seat == clever
    assert wins >= 20, f"the heuristic bot won {wins} of 30 matches against two random bots"


def test_the_package_registers_the_game_and_carries_its_how_to_play():
    entry = next(e for e in metadata.entry_points(group="fairdeal.games") if e.name == "switch")
    assert entry.value == "fairdeal_switch:Switch" and entry.load() is Switch
    text = resources.files("fairdeal_switch").joinpath("help", "switch.md").read_text(encoding="utf-8")
    assert all(heading in text for heading in ("**Goal.**", "**The deal.**", "**A turn.**"))


def test_the_plugins_docstring_examples_hold():
    import doctest

    import fairdeal_switch

    failed, attempted = doctest.testmod(fairdeal_switch)
    assert failed == 0 and attempted >= 40
