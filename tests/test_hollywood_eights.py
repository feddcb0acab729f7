"""Hollywood Eights (``hollywood-eights``) and Hollywood scoring, as spec/games/hollywood-eights.md
says: the texts' worked examples (an 8, a 9 and a 7 count 66; five wins of 10, 25, 40, 20 and 28),
the two texts' card values, three games to 100 at once, and the match over when all three close.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import cards
from helpers import play
from test_eights_support import eights_state
from test_eights_support import started

from fairdeal.match import Match
from fairdeal.rules import Move
from fairdeal.rules import get
from fairdeal.rules.eights import HollywoodEights
from fairdeal.rules.eights import hollywood_points
from fairdeal.rules.hollywood import HollywoodSheet

RULES = HollywoodEights()


def test_registered_with_its_options_and_the_stops_chapter_values_by_default():
    rules = get("hollywood-eights")
    assert isinstance(rules, HollywoodEights)
    assert rules.options == {"target": 100, "partners": 1, "hoyle_values": 0}
    with pytest.raises(ValueError, match="hoyle_values must be 0"):
        get("hollywood-eights", {"hoyle_values": 2})


def test_an_eight_a_nine_and_a_seven_count_66():
    # The Stops chapter: "The 8 counts 50 points, the 9 counts 9, and the 7 counts 7 ... 66 points."
    assert RULES.count(cards("8D 9C 7S")) == 66


def test_the_hoyle_values_eight_20_ace_15_face_cards_10():
    rules = get("hollywood-eights", {"hoyle_values": 1})
    assert rules.count(cards("8D 9C 7S")) == 36
    assert [hollywood_points(c, hoyle=True) for c in cards("8H AS KD QC JH TS 2C")] == [20, 15, 10, 10, 10, 10, 2]
    assert [hollywood_points(c) for c in cards("8H AS KD QC JH TS 2C")] == [50, 1, 10, 10, 10, 10, 2]


def test_the_winner_is_credited_with_the_points_in_the_losers_hands():
    state = RULES.apply(eights_state("5S", "8D 9C 7S", "KH", pile="5H", turn=0), 0, play("5S"), None)[0]
    assert state.result.counts == (0, 66, 10) and state.result.scores == (76, 0, 0)


def test_a_block_won_by_the_fewest_cards_credits_the_losers_points_and_a_tie_nothing():
    state = eights_state("KD QD", "2C 3C AH", "4C", pile="9S", turn=0)
    for seat in range(3):
        state = RULES.apply(state, seat, Move.pass_(), None)[0]
    # Seat 2 holds one card: it wins, credited with 20 + 6 = 26 (its own 4 points are not counted).
    assert state.result.winners == (2,) and state.result.scores == (0, 0, 26)
    tie = eights_state("KD QD", "2C 3C", pile="9S", turn=0)
    for seat in range(2):
        tie = RULES.apply(tie, seat, Move.pass_(), None)[0]
    assert tie.result.winners == () and tie.result.scores == (0, 0)


# --- Hollywood scoring ------------------------------------------------------------------


def win(match: Match, seat: int, loser_hand: str) -> list[dict]:
    """Seat ``seat`` of a two-seat match goes out at once, the other holding ``loser_hand``."""
    hands = ["", ""]
    hands[seat], hands[1 - seat] = "5S", loser_hand
    match.state = replace(match.state, hands=tuple(cards(h) for h in hands), pile=cards("5H"), named=None, turn=seat)
    return match.apply(seat, play("5S"))


def test_the_texts_example_five_wins_of_10_25_40_20_and_28():
    match = started("hollywood-eights", 2, game_id="hollywood-example")
    # The losing hands count 10, 25, 40, 20 and 28 points.
    for loser in ("KD", "KD QD 5C", "JD TD KC TC", "KS QS", "KH QH 6C 2C"):
        events = win(match, 0, loser)
    end = events[1]
    assert end["type"] == "hand-end" and end["scores"] == [28, 0]
    # "The first time ... credited in the first game score. The second time ... both in the first
    # game and also in the second game ... The third time ... in all 3 games."
    assert end["games"] == [[123, 0], [113, 0], [88, 0]]
    assert end["totals"] == [324, 0]
    # Games 1 and 2 closed together at the fifth win; game 3 is still open.
    assert match.sheet.open_games == (2,) and not match.over
    assert events[2]["type"] == "deal"


def test_later_wins_go_to_the_games_still_open_and_the_match_ends_when_game_3_closes():
    match = started("hollywood-eights", 2, game_id="hollywood-close")
    for loser in ("KD QD JD TD 9D 9C 9H 9S",) * 2:  # 76 points, twice
        win(match, 0, loser)
    assert match.sheet.games == ((152, 0), (76, 0), (0, 0)) and match.sheet.open_games == (1, 2)
    # Seat 1's first win comes after game 1 closed: it goes to the first open game, game 2.
    win(match, 1, "KD")
    assert match.sheet.games == ((152, 0), (76, 10), (0, 0))
    # Seat 0's third win: games 2 and 3 (game 1 is closed); game 2 closes.
    win(match, 0, "KD QD JD TD 9D 9C 9H 9S")
    assert match.sheet.games == ((152, 0), (152, 10), (76, 0)) and match.sheet.open_games == (2,)
    # From now on every win is entered in game 3 only, also seat 1's second.
    win(match, 1, "KD")
    assert match.sheet.games == ((152, 0), (152, 10), (76, 10))
    events = win(match, 0, "KD QD JD TD 9D 9C 9H 9S")
    assert match.over and match.sheet.games == ((152, 0), (152, 10), (152, 10))
    assert events[-1] == {
        "type": "match-end",
        "standings": [{"seat": 0, "total": 456, "place": 1}, {"seat": 1, "total": 20, "place": 2}],
    }


def test_the_sheet_is_in_the_hand_end_line_and_totals_are_the_sums():
    match = started("hollywood-eights", 3, game_id="hollywood-whole")
    while not match.over:
        match.apply(match.turn, match.auto_move(), auto=True)
    assert isinstance(match.sheet, HollywoodSheet) and match.sheet.over
    for report in match.hands:
        sheet = report.sheet
        assert report.totals == tuple(sum(game[s] for game in sheet.games) for s in range(3))
    assert all(max(game) >= 100 for game in match.sheet.games)
    assert match.standings[0].total == max(match.totals)
    with pytest.raises(TypeError, match="keeps more than totals"):
        match.totals = (1, 2, 3)


def test_partners_are_credited_alike():
    sheet = HollywoodSheet.start(4, 100).add_win((0, 2), (30, 0, 30, 0))
    sheet = sheet.add_win((0, 2), (20, 0, 20, 0))
    assert sheet.games == ((50, 0, 50, 0), (20, 0, 20, 0), (0, 0, 0, 0))
    assert sheet.totals == (70, 0, 70, 0)


def test_a_hand_without_a_winner_changes_nothing():
    sheet = HollywoodSheet.start(2, 100).add_win((0,), (12, 0))
    assert sheet.add_win((), (0, 0)) == sheet
    assert sheet.record() == {"totals": [12, 0], "games": [[12, 0], [0, 0], [0, 0]]}


def test_the_target_option_closes_the_games():
    match = started("hollywood-eights", 2, {"target": 10}, game_id="hollywood-ten")
    # Each win closes the game it opens: game 1, then (game 1 closed) game 2, then game 3.
    for _ in range(3):
        win(match, 0, "KD")
    assert match.over and match.sheet.games == ((10, 0), (10, 0), (10, 0))
