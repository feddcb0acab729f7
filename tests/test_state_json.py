"""Every game's state as JSON (``rules.state_to_json`` / ``rules.state_from_json``, spec/state.md):
the exact round trip over whole matches, the checks a position built by hand must pass (each
error names what is wrong), and a puzzle set up from JSON and played on."""

from __future__ import annotations

import json
import random

import pytest

from fairdeal.cards import Card
from fairdeal.cards import Suit
from fairdeal.cards import pack
from fairdeal.fairness import GameShuffle
from fairdeal.fairness import game_key
from fairdeal.match import Match
from fairdeal.rules import RULES
from fairdeal.rules import Move
from fairdeal.rules import PositionError
from fairdeal.rules import get

UNSHUFFLED = lambda label, cards: list(cards)  # noqa: E731 - a shuffler that deals the pack in card order

# Short matches: the round trip wants every kind of state, not long sessions.
SHORT = {"target": 40, "deals": 2}


def short_options(name: str) -> dict[str, int]:
    return {k: v for k, v in SHORT.items() if k in RULES[name].defaults}


def dealt(name: str, seats: int, options=None):
    """The rules and the first hand dealt from the unshuffled pack, as JSON."""
    rules = get(name, options)
    state, _ = rules.deal(seats, dealer=0, hand=1, shuffle=UNSHUFFLED)
    return rules, rules.state_to_json(state)


def refused(rules, data) -> PositionError:
    with pytest.raises(PositionError) as caught:
        rules.state_from_json(data)
    return caught.value


# -- the round trip ------------------------------------------------------------------------


def round_trip(rules, state) -> None:
    data = rules.state_to_json(state)
    text = json.dumps(data, allow_nan=False, sort_keys=True)
    back = rules.state_from_json(json.loads(text))
    assert back == state
    assert rules.state_to_json(back) == data


@pytest.mark.parametrize("name", list(RULES))
def test_every_state_of_a_played_match_round_trips(name):
    cls = RULES[name]
    seats = (cls.min_seats + cls.max_seats + 1) // 2
    key = game_key("00" * 32, f"state-json-{name}", [""] * seats)
    shuffler = GameShuffle(key)
    rules = get(name, short_options(name))
    match = Match(rules, seats, shuffler)
    match.start()
    rng = random.Random(name)
    states = finished = 0
    while not match.over:
        round_trip(rules, match.state)
        seat = match.turn
        # Random legal moves reach the states the timer's moves never do (an auction, a
        # drawn card kept, a pass though able); auto-moves keep the match going to its end.
        move = rng.choice(match.legal_moves(seat)) if rng.random() < 0.6 else match.auto_move()
        after, _ = rules.apply(match.state, seat, move, shuffler)
        round_trip(rules, after)  # the finished hand too, before the match deals the next
        finished += after.result is not None
        match.apply(seat, move)
        states += 1
    assert states > 20 and finished == len(match.hands) >= 1


def test_the_json_is_plain_json_with_cards_as_codes_and_suits_as_letters():
    rules = get("crazy-eights")
    state, _ = rules.deal(2, dealer=0, hand=1, shuffle=UNSHUFFLED)
    state, _ = rules.apply(state, 1, Move.draw(), UNSHUFFLED)  # seat 1 holds no diamond and no 2
    data = rules.state_to_json(state)
    assert data["hands"][1] == ["AC", "3C", "5C", "7C", "9C", "JC", "KC", "3D"]
    assert data["pile"] == ["2D"] and data["pending"] == "3D" and data["drawn"] == 1 and data["turn"] == 1
    assert set(data) == {
        "hand",
        "dealer",
        "hands",
        "stock",
        "pile",
        "named",
        "turn",
        "drawn",
        "pending",
        "passes",
        "restocks",
        "result",
        "dealt",
        "turned",
        "restocked",
    }
    state, _ = rules.apply(state, 1, Move.play(Card.parse("3D")), UNSHUFFLED)
    state, _ = rules.apply(state, 0, Move.play(Card.parse("8C"), Suit.HEARTS), UNSHUFFLED)
    assert rules.state_to_json(state)["named"] == "H"
    fan_tan = get("fan-tan")
    deal, _ = fan_tan.deal(3, dealer=0, hand=1, shuffle=UNSHUFFLED)
    data = fan_tan.state_to_json(deal)
    assert data["opening"] == "7" and data["rows"] == [None] * 4
    assert data["chips"][0] == {"reason": "ante", "payer": 1, "payee": None, "amount": 1}


def test_a_field_with_a_default_may_be_left_out():
    rules, data = dealt("go-boom", 3)
    for key in ("plays", "passed", "drawn", "result", "dealt", "rounds", "draws"):
        del data[key]
    state = rules.state_from_json(data)
    assert state.plays == () and state.result is None and state.dealt == ()


def test_state_to_json_refuses_another_games_state():
    rules = get("crazy-eights")
    other, _ = get("go-boom").deal(2, dealer=0, hand=1, shuffle=UNSHUFFLED)
    with pytest.raises(TypeError, match="Crazy Eights plays CrazyEightsState, not GoBoomState"):
        rules.state_to_json(other)


# -- malformed fields ------------------------------------------------------------------------


def test_a_state_is_a_json_object():
    error = refused(get("crazy-eights"), [])
    assert str(error) == "a state is a JSON object, not an array" and error.field is None


def test_an_unknown_key_is_refused():
    rules, data = dealt("crazy-eights", 3)
    data["colour"] = "red"
    assert str(refused(rules, data)).startswith("unknown key 'colour'; CrazyEightsState has hand, dealer, hands, stock")


def test_a_missing_key_is_refused():
    rules, data = dealt("crazy-eights", 3)
    del data["hands"]
    assert str(refused(rules, data)) == "missing key 'hands'"


def test_a_wrong_type_is_refused_with_its_field():
    rules, data = dealt("crazy-eights", 3)
    data["turn"] = "1"
    error = refused(rules, data)
    assert str(error) == "turn: the string '1' is not a whole number or null" and error.field == "turn"
    rules, data = dealt("crazy-eights", 3)
    data["drawn"] = True
    assert str(refused(rules, data)) == "drawn: true is not a whole number"
    rules, data = dealt("crazy-eights", 3)
    data["hands"][1] = "AC 4C"
    assert str(refused(rules, data)) == "hands[1]: the string 'AC 4C' is not an array"


def test_a_bad_card_code_is_refused():
    rules, data = dealt("crazy-eights", 3)
    data["stock"][2] = "1X"
    error = refused(rules, data)
    assert error.field == "stock[2]"
    assert str(error) == "stock[2]: '1X' is not a card code (rank A23456789TJQK, suit CDHS: '8H', 'TD')"
    data["stock"][2] = "8h"  # the state's codes are exact: no lower case, no "10H"
    assert refused(rules, data).field == "stock[2]"


@pytest.mark.parametrize(
    ("name", "seats", "member", "value", "why"),
    [
        # A suit or rank letter.
        ("crazy-eights", 3, "named", "hearts", "named: 'hearts' is not a suit letter (C, D, H or S) or null"),
        ("fan-tan", 3, "opening", "10", "opening: '10' is not a rank letter (A23456789TJQK) or null"),
        # A seat.
        ("crazy-eights", 3, "turn", 3, "turn: 3 is not a seat of this 3-seat table (seats 0 to 2)"),
        ("crazy-eights", 3, "dealer", -1, "dealer: -1 is not a seat of this 3-seat table (seats 0 to 2)"),
        # Eights' sides and seats out.
        (
            "eights",
            4,
            "sides",
            [[0], [1], [2], [3]],
            "sides: the sides at 4 seats with these options are [[0, 2], [1, 3]]",
        ),
        ("eights", 4, "out", [2], "out: the seats out are those that hold no card: []"),
        # Michigan's phases and its extra hand.
        ("michigan", 3, "phase", "bid", "phase: 'bid' is not a phase of Michigan (play, choose, auction)"),
        (
            "michigan",
            3,
            "phase",
            "play",
            "extra: the extra hand is settled when the play begins: it is dead, or a seat's",
        ),
        ("michigan", 3, "layout", [1, 2], "layout: 0 or more counters on each layout card (AH KC QD JS)"),
    ],
)
def test_a_member_its_game_does_not_allow_is_refused(name, seats, member, value, why):
    rules, data = dealt(name, seats)
    data[member] = value
    assert str(refused(rules, data)) == why


def test_a_free_form_record_is_whole_numbers_only():
    rules, data = dealt("go-boom", 3)
    data["rounds"] = [{"leader": 1.5, "plays": [], "passed": [], "won_by": None}]
    assert (
        str(refused(rules, data))
        == "rounds[0].leader: the number 1.5 is not a JSON value of a state (whole numbers only)"
    )


def test_a_set_lists_nothing_twice():
    rules, data = dealt("rolling-stone", 4)
    data["seen"] = data["seen"] * 2
    assert str(refused(rules, data)) == "seen: a set lists an item twice"


# -- where the cards are ------------------------------------------------------------------------


def test_a_card_in_two_places():
    rules, data = dealt("crazy-eights", 3)
    data["pile"] = [data["hands"][1][0]]  # AC, also in seat 1's hand; the starter is nowhere
    data["turned"] = data["pile"]
    error = refused(rules, data)
    assert str(error) == "AC is both in seat 1's hand and on the pile" and error.field is None


def test_a_card_twice_in_one_place_and_more_cards_than_the_pack():
    rules, data = dealt("crazy-eights", 3)
    data["stock"].append(data["stock"][0])
    assert str(refused(rules, data)) == "4D is twice in the stock (the position has 53 cards, the pack 52)"


def test_a_missing_card():
    rules, data = dealt("crazy-eights", 3)
    data["stock"].remove("7D")
    assert str(refused(rules, data)) == "the pack's 7D is nowhere"


def test_two_packs_from_the_layouts_seat_count():
    rules, data = dealt("eights", 6)
    assert len(data["stock"]) + len(data["pile"]) + sum(map(len, data["hands"])) == 104
    data["stock"].remove("7C")
    assert str(refused(rules, data)) == "one of the pack's two 7C is nowhere"
    rules, data = dealt("eights", 6)
    data["hands"][3].append("2C")  # seat 2 holds one 2C, the other is in the stock
    data["hands"][4].append("2C")
    assert str(refused(rules, data)) == (
        "2C is in four places (in seat 2's hand; in seat 3's hand; in seat 4's hand; in the stock) but the pack has two"
        " (the position has 106 cards, the pack 104)"
    )


def test_a_removed_card_and_a_cut_down_pack():
    rules, data = dealt("commit", 4)
    data["hands"][0].append("8D")
    assert str(refused(rules, data)) == "8D is in seat 0's hand but is not in the pack of Commit for 4 players"
    rules, data = dealt("rolling-stone", 4)
    data["hands"][0][0] = "2C"
    assert str(refused(rules, data)) == "2C is in seat 0's hand but is not in the pack of Rolling Stone for 4 players"


def test_history_holds_cards_of_the_pack_only_but_may_repeat_them():
    rules, data = dealt("rolling-stone", 4)
    data["dealt"][0][0] = "2C"
    error = refused(rules, data)
    assert str(error) == "dealt: 2C is not in the pack of Rolling Stone for 4 players" and error.field == "dealt"
    # The hands as dealt repeat every card of the hands: history, not a place.
    rules, data = dealt("crazy-eights", 3)
    assert data["dealt"] == data["hands"] and rules.state_from_json(data).dealt


# -- seats, turns and counts ------------------------------------------------------------------------


def test_a_table_the_game_is_not_for():
    rules, data = dealt("rolling-stone", 4)
    data["hands"] = data["hands"][:3]
    assert str(refused(rules, data)) == "hands: 3 hands: Rolling Stone is for 4 to 6 players"


def test_a_turn_and_a_result_go_together():
    rules, data = dealt("crazy-eights", 3)
    data["turn"] = None
    assert (
        str(refused(rules, data)) == "turn: a hand in play has a seat to act; a finished hand has none (and a result)"
    )


def test_a_list_of_counts_that_disagrees_with_the_seats():
    rules, data = dealt("crazy-eights", 3)
    data["turn"] = None
    data["result"] = {"how": "out", "winners": [1], "counts": [0, 4], "scores": [0, 4, 0], "reason": "seat 1 went out"}
    assert str(refused(rules, data)) == "result.counts: 2 entries for 3 seats"
    rules, data = dealt("crazy-eights", 3)
    data["dealt"] = data["dealt"][:2]
    assert str(refused(rules, data)) == "dealt: 2 entries for 3 seats"


def test_chips_that_do_not_add_up():
    rules, data = dealt("fan-tan", 3)
    assert data["pot"] == 5
    data["net"][0] = 0
    assert str(refused(rules, data)) == "net: the chips moved add up to [-2, -1, -2], not [0, -1, -2]"
    rules, data = dealt("snip-snap-snorem", 3)
    data["pot"] = 2
    assert str(refused(rules, data)) == "pot: the chips moved leave 0 in the pot, not 2"


# -- what each family must hold true ---------------------------------------------------------------


def test_crazy_eights_pile_and_the_card_just_drawn():
    rules, data = dealt("crazy-eights", 3)
    data["named"] = "S"
    assert str(refused(rules, data)) == "named: S is named, but the top of the pile, 3D, is not an eight"
    rules, data = dealt("crazy-eights", 3)
    data["pending"] = data["hands"][1][0]
    data["drawn"] = 1
    assert (
        str(refused(rules, data)) == "pending: AC is not the card the seat to act has just drawn (the last of its hand)"
    )
    rules, data = dealt("crazy-eights", 3)
    data["passes"] = 3
    assert str(refused(rules, data)) == "passes: 3 passes in a row at 3 seats (as many block the hand)"


def test_fan_tan_rows():
    rules, data = dealt("fan-tan", 3)
    hands = data["hands"]
    for hand in hands:  # 6H to 9H go to the table as the hearts row
        hand[:] = [c for c in hand if c not in ("6H", "7H", "8H", "9H")]
    data["rows"][2] = ["6H", "9H"]
    rules.state_from_json(data)
    data["rows"][2] = ["8H", "9H"]
    data["hands"][0] += ["6H", "7H"]
    assert str(refused(rules, data)) == "rows[2]: the hearts row 8H-9H does not hold its opening card 7H"
    data["rows"][2] = ["9H", "6H"]
    data["hands"][0] = data["hands"][0][:-2]
    assert str(refused(rules, data)) == "rows[2]: a row is given by its low end, then its high end: 9H lies above 6H"
    data["rows"][2] = ["6H", "9S"]
    assert str(refused(rules, data)) == "rows[2]: the hearts row holds 9S"


def test_sjueren_rows_are_ace_high():
    rules, data = dealt("sjueren", 3)
    for hand in data["hands"]:
        hand[:] = [c for c in hand if c not in ("7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC")]
    data["rows"][0] = ["7C", "AC"]  # the ace is above the king
    assert rules.state_from_json(data).rows[0] == (Card.parse("7C"), Card.parse("AC"))


def test_sequence_games_build_one_suit_at_a_time():
    rules, data = dealt("play-or-pay", 3)
    for hand in data["hands"]:
        hand[:] = [c for c in hand if c not in ("QC", "KC", "AC", "5D")]
    data["rows"][0] = ["QC", "AC"]  # round the corner
    data["rows"][1] = ["5D", "5D"]
    data["leads"] = ["QC", "5D"]
    assert (
        str(refused(rules, data))
        == "rows: two suits are being built (clubs and diamonds): no new suit until all 13 are down"
    )
    data["rows"][1] = None
    data["hands"][0].append("5D")
    data["leads"] = []
    assert str(refused(rules, data)) == "leads: the leads are the first cards of the rows begun (QC), in the order led"
    data["leads"] = ["QC"]
    state = rules.state_from_json(data)
    assert rules.legal_moves(rules.view(state, state.turn)) in ([Move.play(Card.parse("2C"))], [Move.pass_()])


def test_a_run_goes_on_from_its_current_card():
    rules, data = dealt("sequence", 3)
    card = data["hands"][1][0]
    data["hands"][1].remove(card)
    data["plays"], data["runs"], data["last"] = [[1, card]], [0], 1
    data["current"] = "KS"
    assert str(refused(rules, data)) == "current: KS is not the last card played: a run goes on from its last card"
    data["runs"] = [1]
    assert str(refused(rules, data)).startswith("runs: the runs begin at increasing places in plays, the first at 0")


def test_the_turn_follows_the_cards_in_a_run():
    rules, data = dealt("sequence", 3)
    data["hands"][2].remove("2C")  # seat 2 led the 2C; the 3C is seat 0's
    data["plays"], data["runs"], data["current"], data["last"] = [[2, "2C"]], [0], "2C", 2
    data["turn"] = 1
    assert str(refused(rules, data)) == "turn: seat 1 holds no card that goes on with the run (3C)"
    data["turn"] = 0
    state = rules.state_from_json(data)
    assert rules.legal_moves(rules.view(state, 0)) == [Move.play(Card.parse("3C"))]


def test_a_snip_snap_group_goes_on_in_its_rank():
    rules, data = dealt("snip-snap-snorem", 3)
    data["hands"][1].remove("AC")
    data["hands"][2].remove("2C")
    data["turns"], data["turn"] = [[1, ["AC"]], [2, ["2C"]]], 0
    assert str(refused(rules, data)) == "turns[1]: 2C does not continue the group: the next card is an ace"


def test_a_jig_series_ends_at_the_ace():
    rules, data = dealt("jig", 3)
    for seat, card in ((1, "KC"), (2, "AD"), (0, "2D")):
        data["hands"][seat].remove(card)
    data["turns"], data["turn"] = [[1, ["KC"]], [2, ["AD"]], [0, ["2D"]]], 1
    assert (
        str(refused(rules, data))
        == "turns[2]: the group was over (ace) before this turn: a finished group is in groups"
    )


def test_go_boom_rounds_and_rolling_stone_tricks():
    rules, data = dealt("go-boom", 3)
    data["turn"] = 2
    assert str(refused(rules, data)) == "turn: seat 1 acts next in this round, not seat 2"
    rules, data = dealt("rolling-stone", 4)
    data["aside"] = 4
    assert str(refused(rules, data)) == "aside: the tricks put aside hold 0 cards, not 4"
    rules, data = dealt("rolling-stone", 4)
    data["tricks"] = [{"plays": [], "end": "lost", "by": 0}]
    assert str(refused(rules, data)) == "tricks[0].end: 'lost' is not one of 'aside', 'picked-up', 'out'"


def test_the_spec_names_every_field_of_every_state():
    import dataclasses
    from pathlib import Path

    root = Path(__file__).parent.parent
    own_spec = (root / "spec" / "state.md").read_text()
    # fairdeal's own states are in spec/state.md; a plugin's (examples/) on its own spec page.
    plugin_specs = "".join(p.read_text() for p in (root / "examples").glob("*/spec/*.md"))
    for cls in {rules.state_type for rules in RULES.values()}:
        spec = own_spec if cls.__module__.startswith("fairdeal.") else plugin_specs
        assert f"`{cls.__name__}`" in spec
        for field in dataclasses.fields(cls):
            assert f"`{field.name}`" in spec, (cls.__name__, field.name)


def test_the_error_is_exported_and_a_value_error():
    import fairdeal.rules

    assert "PositionError" in fairdeal.rules.__all__ and issubclass(PositionError, ValueError)


# -- a puzzle ---------------------------------------------------------------------------------------


FAN_TAN_PUZZLE = {
    # Fan Tan at three seats, late in a deal: clubs and diamonds are closed, hearts run 3 to J,
    # spades 5 to 9; twelve cards are left in the hands. Seat 1 is to play.
    "hand": 2,
    "dealer": 0,
    "hands": [["QH", "KH", "4S"], ["2H", "TS", "JS", "QS"], ["AH", "AS", "2S", "3S", "KS"]],
    "rows": [["AC", "KC"], ["AD", "KD"], ["3H", "JH"], ["5S", "9S"]],
    "opening": "7",
    "turn": 1,
    "net": [0, 0, 0],
}


def test_a_puzzle_set_up_from_json_and_played_on():
    rules = get("fan-tan")
    state = rules.state_from_json(json.loads(json.dumps(FAN_TAN_PUZZLE)))
    assert rules.legal_moves(rules.view(state, 1)) == [Move.play(Card.parse("2H")), Move.play(Card.parse("TS"))]
    line = [(1, "2H"), (2, "AH"), (0, "QH"), (1, "TS"), (2, None), (0, "KH"), (1, "JS"), (2, None), (0, "4S")]
    events = []
    for seat, code in line:
        move = Move.pass_() if code is None else Move.play(Card.parse(code))
        state, happened = rules.apply(state, seat, move, UNSHUFFLED)
        events += happened
    assert state.result.how == "out" and state.result.winners == (0,)
    # Seat 2 paid a chip for each pass; at the end seat 1 pays one for QS, seat 2 four; seat 0 takes the pot.
    assert [(e["reason"], e["from"], e["amount"]) for e in events] == [
        ("pass", 2, 1),
        ("pass", 2, 1),
        ("cards-left", 1, 1),
        ("cards-left", 2, 4),
        ("pot", "pot", 7),
    ]
    assert state.net == (7, -1, -6)
    round_trip(rules, state)


def test_a_puzzle_with_a_card_missing_is_refused():
    puzzle = json.loads(json.dumps(FAN_TAN_PUZZLE))
    puzzle["hands"][2].remove("KS")
    assert str(refused(get("fan-tan"), puzzle)) == "the pack's KS is nowhere"


def test_a_crazy_eights_position_with_the_rest_of_the_pack_in_the_stock():
    hands = [["8S", "3H"], ["KD", "QD", "2C"]]
    pile = ["9H", "3C"]
    placed = {c for h in hands for c in h} | set(pile)
    data = {
        "hand": 1,
        "dealer": 1,
        "hands": hands,
        "pile": pile,
        "named": None,
        "turn": 0,
        "turned": ["9H"],
        "stock": [c.code for c in pack() if c.code not in placed],
    }
    rules = get("crazy-eights")
    state = rules.state_from_json(data)
    state, _ = rules.apply(state, 0, Move.play(Card.parse("8S"), state.hands[0][0].suit), UNSHUFFLED)
    assert rules.state_to_json(state)["named"] == "S" and rules.state_to_json(state)["pile"] == ["9H", "3C", "8S"]


# -- a position's text, both ways (Match.position / Match.from_position) --------------------------

POSITIONS = 1000
"""Positions of each game that must read back exactly (issue #30's bound)."""


@pytest.mark.parametrize("name", list(RULES))
def test_a_thousand_positions_of_each_game_read_back_from_their_text(name):
    # Seeded random matches, from two seats to the most, until a thousand positions have been written
    # and read back: the same state, the same seat to play and the same legal moves.
    cls = RULES[name]
    rng = random.Random(f"positions-{name}")
    checked = game = 0
    while checked < POSITIONS:
        seats = cls.min_seats + game % (cls.max_seats - cls.min_seats + 1)
        rules = get(name, short_options(name))
        shuffler = GameShuffle(game_key("00" * 32, f"positions-{name}-{game}", [""] * seats))
        match = Match(rules, seats, shuffler)
        match.start()
        while not match.over and checked < POSITIONS:
            again = Match.from_position(rules, match.position(), shuffler)
            seat, legal = match.turn, match.legal_moves(match.turn)
            assert again.state == match.state and again.turn == seat and again.legal_moves(seat) == legal
            checked += 1
            move = rng.choice(legal) if rng.random() < 0.6 else match.auto_move()
            match.apply(seat, move)
        game += 1


def test_a_malformed_position_names_its_fault():
    rules = get("crazy-eights")
    match = Match(rules, 3, UNSHUFFLED)
    match.start()
    text = match.position()
    for broken, fault in (
        (text[:-1], "not JSON"),
        (text.replace('"turn":', '"turn":"x","turn":', 1), "twice"),
        (text.replace('"turn":1', '"turn":7'), "turn: 7 is not a seat"),
    ):
        with pytest.raises(PositionError, match=fault):
            Match.from_position(rules, broken, UNSHUFFLED)
