"""Snip Snap Snorem, The Earl of Coventry and Jig: every rule of
spec/games/{snip-snap-snorem,earl-of-coventry,jig}.md.

Positions are built by hand (hands written as card codes) so what is under test is plain
to read; whole deals and sessions come from fixed seeds through the real
:class:`~fairdeal.match.Match` and :class:`~fairdeal.table.Table`.
"""

from __future__ import annotations

import random

import pytest
from helpers import cards
from helpers import check_legal_moves_in_play
from helpers import net_chips
from helpers import played_by_bots
from helpers import played_for_chips
from helpers import protocol_shuffler
from helpers import refusal
from helpers import run

from fairdeal.bots import HeuristicBot
from fairdeal.bots import RandomBot
from fairdeal.bots import make_bot
from fairdeal.cards import ALL_CARDS
from fairdeal.cards import Card
from fairdeal.cards import Rank
from fairdeal.cards import pack
from fairdeal.match import Match
from fairdeal.record import Signer
from fairdeal.record import check_chain
from fairdeal.record import parse_record
from fairdeal.rules import RULES
from fairdeal.rules import IllegalMove
from fairdeal.rules import Move
from fairdeal.rules import OptionsError
from fairdeal.rules import get
from fairdeal.rules.snip_snap import EarlOfCoventry
from fairdeal.rules.snip_snap import Jig
from fairdeal.rules.snip_snap import SnipSnapSnorem
from fairdeal.rules.snip_snap import SnipSnapState
from fairdeal.rules.snip_snap import earl_verse
from fairdeal.table import Seat
from fairdeal.table import Table

GAMES = ("snip-snap-snorem", "earl-of-coventry", "jig")


# --- helpers ------------------------------------------------------------------------


def position(*hands: str, rest: int | None = None, turn: int = 0, laid: str = "") -> SnipSnapState:
    """A deal at the start of a group, ``turn`` to lead. Every card neither ``laid`` (put down
    in earlier groups) nor in ``hands`` goes to seat ``rest``."""
    held = [list(cards(h)) for h in hands]
    if rest is not None:
        taken = set(cards(laid)) | {c for h in held for c in h}
        held[rest] += [c for c in ALL_CARDS if c not in taken]
    return SnipSnapState(
        hand=1,
        dealer=(turn - 1) % len(hands),
        hands=tuple(tuple(h) for h in held),
        turn=turn,
        net=(0,) * len(hands),
        dealt=tuple(tuple(h) for h in held),
    )


def fair(seed: int, seats: int, game_id: str = "ss"):
    return protocol_shuffler(f"{game_id}-{seed}", seats, f"{seed:064x}")[1]


def calls(state: SnipSnapState, group: int = 0) -> list[tuple[int, str, str | None]]:
    """A finished group as (seat, card, call) for every card, in order."""
    return [
        (turn["seat"], card, call)
        for turn in state.groups[group]["turns"]
        for card, call in zip(turn["cards"], turn.get("calls", []))
    ]


# --- the games, their options and seats -----------------------------------------------------


def test_every_game_is_registered_with_its_name_and_defaults():
    assert {name: RULES[name] for name in GAMES} == {
        "snip-snap-snorem": SnipSnapSnorem,
        "earl-of-coventry": EarlOfCoventry,
        "jig": Jig,
    }
    for name in GAMES:
        rules = get(name)
        assert rules.options == {"deals": 0, "stack": 50}
        assert (rules.min_seats, rules.max_seats, rules.first_dealer_rank) == (3, 10, Rank.JACK)
    assert get("earl-of-coventry").title == "The Earl of Coventry"


@pytest.mark.parametrize(
    "options, message",
    [
        ({"deals": -1}, "deals must be between 0"),
        ({"deals": 1001}, "deals must be between 0"),
        ({"stack": -5}, "stack must be between 0 and 1000000"),
        ({"target": 100}, "snip-snap-snorem has no option 'target'; options: deals, stack"),
        ({"deals": True}, "option 'deals' must be an integer"),
    ],
)
def test_options_the_games_cannot_play_are_refused(options, message):
    with pytest.raises(OptionsError, match=message):
        get("snip-snap-snorem", options)


@pytest.mark.parametrize("seats", [2, 11])
def test_three_to_ten_players(seats):
    with pytest.raises(OptionsError, match=f"Snip Snap Snorem is for 3 to 10 players, not {seats}"):
        get("snip-snap-snorem").deal(seats, 0, 1, fair(0, 3))


@pytest.mark.parametrize("seats", range(3, 11))
def test_the_whole_pack_is_dealt_one_card_at_a_time_from_the_dealers_left(seats):
    dealer = seats - 1
    state, events = get("jig").deal(seats, dealer, 1, lambda label, cards_: list(cards_))
    assert events == [{"type": "deal", "hand": 1, "dealer": dealer}]
    assert state.turn == 0 and state.pot == 0 and state.net == (0,) * seats
    # Unshuffled, card i goes to seat i mod n (seat 0 is on the dealer's left).
    for seat, hand in enumerate(state.hands):
        assert list(hand) == pack()[seat::seats]
    assert [len(h) for h in state.hands] == [52 // seats + (s < 52 % seats) for s in range(seats)]


# --- Snip Snap Snorem: the texts' examples -------------------------------------------------


def test_the_texts_example_six_of_hearts_pass_snip_snap_snorem():
    """ "The first player puts down a 6 of hearts. The next player to the left has no 6 and
    therefore must say "Pass." The next player has the 6 of diamonds ... "Snip." The next player
    ... has both of the remaining 6's and therefore puts them down one at a time, saying "Snap"
    for the first of them, and "Snorem" for the second." And he plays the next group's first card."""
    rules = get("snip-snap-snorem")
    state = position("6H 2C", "3C 4C", "6D 5C", "6C 6S 7C 8C", rest=0)
    state, events = run(rules, state, (0, "6H"), (1, "pass"), (2, "6D"), (3, "6C"))
    assert calls(state) == [(0, "6H", None), (2, "6D", "Snip"), (3, "6C", "Snap"), (3, "6S", "Snorem")]
    assert state.groups[0]["turns"][1] == {"seat": 1, "cards": []}
    assert events == [
        {"type": "chips", "hand": 1, "reason": "pass", "from": 1, "to": "pot", "amount": 1},
        {"type": "put-down", "hand": 1, "seat": 3, "cards": ["6S"]},
    ]
    # "The player who says Snorem ... plays the first card of the next group of 4."
    assert state.turn == 3 and state.turns == ()
    view = rules.view(state, 3)
    assert view.wanted is None and len(rules.legal_moves(view)) == len(state.hands[3])
    assert view.laid == frozenset(cards("6C 6D 6H 6S"))


def test_two_kings_played_both_go_down_and_cannot_be_held_back_for_snorem():
    """ "If you have 2 Kings, you must put both of them down if you decide to play a King."
    The move names one; the other goes down with it, in the same move, called in turn."""
    rules = get("snip-snap-snorem")
    state = position("KH 3C", "KC KS 4C", "5C", "KD 6C", rest=2)
    state, events = run(rules, state, (0, "KH"), (1, "KS"))
    assert events == [{"type": "put-down", "hand": 1, "seat": 1, "cards": ["KC"]}]
    assert state.hands[1] == cards("4C") and state.turn == 2
    # Only a king continues the group: the seat on the left passes and pays; the holder of the
    # last king says Snorem and leads.
    state, events = run(rules, state, (2, "pass"), (3, "KD"))
    assert calls(state) == [(0, "KH", None), (1, "KS", "Snip"), (1, "KC", "Snap"), (3, "KD", "Snorem")]
    assert events[0]["reason"] == "pass" and state.turn == 3 and state.groups[0]["end"] == "four"


def test_a_leader_holding_all_four_says_snorem_himself_and_leads_again():
    rules = get("snip-snap-snorem")
    state = position("9C 9D 9H 9S 2C", "3C", "4C", rest=2)
    state, events = run(rules, state, (0, "9H"))
    assert events == [{"type": "put-down", "hand": 1, "seat": 0, "cards": ["9C", "9D", "9S"]}]
    assert calls(state) == [(0, "9H", None), (0, "9C", "Snip"), (0, "9D", "Snap"), (0, "9S", "Snorem")]
    assert state.turn == 0 and state.hands[0] == cards("2C")


def test_play_is_compulsory_and_a_pass_costs_one_chip_into_the_pot():
    """Hoyle: "If a player cannot play, he passes and puts one chip in the pot." A seat that can
    play must (the online table never lets a seat fail to play when it can)."""
    rules = get("snip-snap-snorem")
    state = position("6H 2C", "6D 4C", "3C", "6C 6S 5C", rest=0)
    state, _ = run(rules, state, (0, "6H"))
    assert "you must play when you can, and 6♦ can be played" in refusal(rules, state, 1, Move.pass_())
    with pytest.raises(IllegalMove, match=r"you must put down your 6s \(6♦\): the next card is a 6"):
        rules.apply(state, 1, Move.play(Card.parse("4C")), None)
    assert rules.legal_moves(rules.view(state, 1)) == [Move.play(Card.parse("6D"))]
    state, events = run(rules, state, (1, "6D"))
    assert rules.legal_moves(rules.view(state, 2)) == [Move.pass_()]
    assert rules.explain(rules.view(state, 2), Card.parse("3C")) == "the next card is a 6, and you hold none: pass"
    state, events = run(rules, state, (2, "pass"))
    assert events == [{"type": "chips", "hand": 1, "reason": "pass", "from": 2, "to": "pot", "amount": 1}]
    assert state.pot == 1 and state.net == (0, 0, -1, 0) and state.turn == 3


def test_the_leader_cannot_pass_and_a_play_names_no_suit():
    rules = get("snip-snap-snorem")
    state = position("6H 2C", "6D 4C", "3C", rest=2)
    assert "you lead: put down any card" in refusal(rules, state, 0, Move.pass_())
    assert "Snip Snap Snorem names no suit" in refusal(
        rules, state, 0, Move.play(Card.parse("6H"), Card.parse("6H").suit)
    )
    assert "has no move 'draw': play a card or pass" in refusal(rules, state, 0, Move.draw())
    assert "it is not your turn" in refusal(rules, state, 1, Move.play(Card.parse("6D")))
    assert "you do not hold 6♦" in refusal(rules, state, 0, Move.play(Card.parse("6D")))


def test_a_card_already_down_is_explained_as_on_the_table():
    rules = get("snip-snap-snorem")
    state = position("2C 3C", "4C", "5C", rest=2, laid="6C 6D 6H 6S")
    view = rules.view(state, 0)
    assert rules.explain(view, Card.parse("6H")) == "6♥ is already on the table"
    assert rules.explain(view, Card.parse("4C")) == "you do not hold 4♣"
    assert rules.explain(view, Card.parse("2C")) is None
    assert rules.explain(rules.view(state, 1), Card.parse("4C")) == "it is not your turn"
    assert "6♥ is already on the table" in refusal(rules, state, 0, Move.play(Card.parse("6H")))


def test_the_first_out_wins_the_deal_and_takes_the_pot():
    rules = get("snip-snap-snorem")
    state = position("6H", "6D 4C", "3C", rest=2)
    state = SnipSnapState(**{**_fields(state), "pot": 7, "net": (-2, -2, -3)})
    state, events = run(rules, state, (0, "6H"))
    assert state.result.how == "out" and state.result.winners == (0,) and state.turn is None
    assert events == [{"type": "chips", "hand": 1, "reason": "pot", "from": "pot", "to": 0, "amount": 7}]
    assert state.result.counts == (0, 2, 49) and state.result.scores == (5, -2, -3) and state.pot == 0
    assert state.groups[-1]["end"] == "out"
    assert "the hand is over" in refusal(rules, state, 1, Move.pass_())
    assert rules.legal_moves(rules.view(state, 1)) == []


def _fields(state):
    return {name: getattr(state, name) for name in SnipSnapState.__dataclass_fields__}


def test_going_out_without_passes_moves_no_chip():
    rules = get("snip-snap-snorem")
    state, events = run(rules, position("6H", "6D 4C", "3C", rest=2), (0, "6H"))
    assert events == [] and state.result.scores == (0, 0, 0) and state.chips == ()


# --- The Earl of Coventry -------------------------------------------------------------------


def test_the_young_players_verses_for_a_five():
    """ "There's as good as 5 can be." "There's a 5 as good as he." "There's the best 5 of all
    the three." "And there's the Earl of Coventry!" """
    rules = get("earl-of-coventry")
    state = position("5H 2C", "5C 3C", "5D 5S 4C", rest=0)
    state, events = run(rules, state, (0, "5H"), (1, "5C"), (2, "5D"))
    assert calls(state) == [
        (0, "5H", "There's as good as 5 can be"),
        (1, "5C", "There's a 5 as good as he"),
        (2, "5D", "There's the best 5 of all the three"),
        (2, "5S", "And there's the Earl of Coventry!"),
    ]
    assert state.turn == 2  # the Earl of Coventry leads, as Snorem does


def test_the_verses_name_every_rank():
    assert [earl_verse(Rank.ACE, i) for i in range(3)] == [
        "There's as good as an ace can be",
        "There's an ace as good as he",
        "There's the best ace of all the three",
    ]
    assert earl_verse(Rank.EIGHT, 1) == "There's an 8 as good as he"
    assert earl_verse(Rank.TEN, 0) == "There's as good as 10 can be"
    assert earl_verse(Rank.QUEEN, 2) == "There's the best queen of all the three"


def test_the_table_shows_the_call_of_every_card_in_the_group():
    """The table says the canonical verse for every player: a seat's view shows each card of the
    group with its call, and the record holds only the moves (no rhyme is judged, so no lead is
    ever forfeited)."""
    rules = get("earl-of-coventry")
    state, _ = run(rules, position("JH 2C", "JC 3C", "4C", rest=2), (0, "JH"), (1, "JC"))
    view = rules.view(state, 2)
    assert view.to_json()["group"] == [
        {"seat": 0, "card": "JH", "call": "There's as good as a jack can be"},
        {"seat": 1, "card": "JC", "call": "There's a jack as good as he"},
    ]
    assert view.to_json()["wanted"] == "J"


def test_the_earl_of_coventry_plays_exactly_as_snip_snap_snorem():
    """Same seed, same moves, same record: only the words differ."""
    for seed in range(5):
        records = []
        for name in ("snip-snap-snorem", "earl-of-coventry"):
            match = Match(get(name, {"deals": 2}), 4, fair(seed, 4))
            events, rng = match.start(), random.Random(seed)
            while not match.over:
                events += match.apply(match.turn, rng.choice(match.legal_moves(match.turn)))
            records.append(events)
        assert records[0] == records[1]


# --- Jig ------------------------------------------------------------------------------------


def test_jig_the_texts_example_five_six_seven_eight():
    """ "The player at the left of the dealer begins by putting down a 5. The next player must put
    down any 6 or must pass his turn. The next player must put down any 7 ... The play is completed
    by the next person who puts down any 8. The one who completes the play with the fourth card in
    sequence then begins the new series." """
    rules = get("jig")
    state = position("5H 8D 8H 8S 2C", "6S 7C 7H 7S 3C", "7D 5C 5D 5S 4C", "8C 6C 6D 6H 9C", rest=0)
    assert rules.legal_moves(rules.view(state, 0)) == [Move.play(c) for c in sorted(state.hands[0])]
    state, _ = run(rules, state, (0, "5H"))
    assert rules.view(state, 1).wanted == Rank.SIX
    assert (
        rules.explain(rules.view(state, 1), Card.parse("7C")) == "you must put down your 6s (6♠): the next card is a 6"
    )
    state, _ = run(rules, state, (1, "6S"), (2, "7D"), (3, "8C"))
    assert calls(state) == [(0, "5H", None), (1, "6S", "Snip"), (2, "7D", "Snap"), (3, "8C", "Snorem")]
    assert state.groups[0]["end"] == "four" and state.turn == 3


def test_jig_a_seat_that_cannot_continue_passes_and_pays():
    rules = get("jig")
    state, events = run(rules, position("5H 2C", "3C 4C", "6D 8C", rest=0), (0, "5H"), (1, "pass"), (2, "6D"))
    assert [e["reason"] for e in events if e["type"] == "chips"] == ["pass"]
    assert state.turn == 0 and rules.view(state, 0).wanted == Rank.SEVEN


def test_jig_all_the_cards_of_the_rank_go_down_as_one_step():
    """A seat that plays a rank puts down every card of that rank it holds; they make one step of
    the series (a 6, however many sixes), so the next seat needs a 7."""
    rules = get("jig")
    state, events = run(
        rules,
        position("5H 8D 8H 8S 2C", "6S 6C 7C 7H 3C", "7D 5C 5D 5S 4C", "8C 6D 6H 7S 9C", rest=0),
        (0, "5H"),
        (1, "6S"),
    )
    assert events == [{"type": "put-down", "hand": 1, "seat": 1, "cards": ["6C"]}]
    assert rules.view(state, 2).wanted == Rank.SEVEN
    state, _ = run(rules, state, (2, "7D"), (3, "8C"))
    assert calls(state) == [
        (0, "5H", None),
        (1, "6S", "Snip"),
        (1, "6C", "Snip"),
        (2, "7D", "Snap"),
        (3, "8C", "Snorem"),
    ]


def test_jig_a_series_ends_at_the_ace():
    """The ace is the highest card: nothing follows it, and whoever put it down leads again."""
    rules = get("jig")
    state, _ = run(rules, position("QH 2C", "KS 3C", "AD 4C", "5C", rest=3), (0, "QH"), (1, "KS"), (2, "AD"))
    assert state.groups[0]["end"] == "ace" and state.turn == 2 and state.turns == ()
    # A lead of an ace ends its series at once: its player leads again.
    state, _ = run(rules, position("AC 2C", "3C", "4D", rest=2), (0, "AC"))
    assert state.groups[0] == {"turns": [{"seat": 0, "cards": ["AC"], "calls": [None]}], "end": "ace"}
    assert state.turn == 0


def test_jig_a_series_stops_when_no_card_of_the_next_rank_is_left_in_any_hand():
    """All four sixes are on the table: nobody can continue the 5, so its player leads again
    at once, and no one pays for a pass that could not be helped."""
    rules = get("jig")
    state = position("5H 2C", "3C 4C", "7D 8C", rest=2, laid="6C 6D 6H 6S")
    state, events = run(rules, state, (0, "5H"))
    assert events == [] and state.groups[0]["end"] == "stopped" and state.turn == 0 and state.pot == 0


def test_jig_the_turn_comes_back_round_to_the_seat_that_holds_the_next_rank():
    rules = get("jig")
    state = position("5H 6C 2C", "3C", "4C", rest=2, laid="6D 6H 6S")
    state, events = run(rules, state, (0, "5H"), (1, "pass"), (2, "pass"), (0, "6C"))
    assert [e["from"] for e in events if e["type"] == "chips"] == [1, 2]
    assert state.turn == 1 and rules.view(state, 1).wanted == Rank.SEVEN


def test_jig_the_heuristic_bot_leads_a_series_it_ends_itself():
    rules = get("jig")
    # 9D: every ten is on the table or in its hand, so after the 9 and the 10 it leads again.
    state = position("9D TH 4C 4S", "3C", "5C", rest=2, laid="TC TD TS")
    assert HeuristicBot().choose(rules, rules.view(state, 0)) == Move.play(Card.parse("9D"))
    # Otherwise the rank it holds most of.
    state = position("9D 4C 4S", "3C", "5C", rest=2)
    assert HeuristicBot().choose(rules, rules.view(state, 0)) == Move.play(Card.parse("4C"))


def test_snip_snap_the_heuristic_bot_leads_the_rank_it_holds_most_of():
    rules = get("snip-snap-snorem")
    state = position("2C KD KS KH 9S", "3C", "5C", rest=2)
    assert HeuristicBot().choose(rules, rules.view(state, 0)) == Move.play(Card.parse("KD"))


# --- the timer, views, and whole deals ------------------------------------------------------


def test_the_timer_plays_the_lowest_card_in_card_order_else_passes():
    rules = get("snip-snap-snorem")
    state = position("KH 2D 9C", "6D 6C 4C", "KD 3C", "KS KC", rest=3)
    assert rules.auto_move(state) == Move.play(Card.parse("9C"))  # clubs come first in card order
    state, _ = run(rules, state, (0, "KH"))
    assert rules.auto_move(state) == Move.pass_()  # seat 1 holds no king
    state, _ = run(rules, state, (1, "pass"), (2, "KD"))
    assert rules.auto_move(state) == Move.play(Card.parse("KC"))


@pytest.mark.parametrize("seat", [-1, 3])
def test_a_view_for_a_seat_not_at_the_table_is_refused(seat):
    rules = get("jig")
    state = position("5H", "6H", "", rest=2)
    with pytest.raises(ValueError, match=f"there is no seat {seat} at this 3-seat table"):
        rules.view(state, seat)
    assert rules.view(state, None).hand == () and rules.legal_moves(rules.view(state, None)) == []


@pytest.mark.parametrize("name", GAMES)
def test_legal_moves_are_exactly_what_apply_accepts(name):
    rules = get(name, {"deals": 1})
    for seed in range(4):
        rng = random.Random(seed)
        seats = 3 + 2 * seed
        match = Match(rules, seats, fair(seed, seats, "legal"))
        check_legal_moves_in_play(rules, match, rng, 5, [Move.play(c) for c in ALL_CARDS] + [Move.pass_()])


@pytest.mark.parametrize("name", GAMES)
def test_seeded_sessions_conserve_chips_and_agree_with_their_events(name):
    rules = get(name)
    for seed in range(80):  # 3 to 10 seats, each about ten times
        rng = random.Random(seed)
        seats = rng.randint(3, 10)
        match = Match(rules, seats, fair(seed, seats, name))
        for ended, chips in played_for_chips(match, rng):
            if ended is not None:
                report = match.hands[ended["hand"] - 1]
                net = net_chips(chips, seats)
                assert ended["scores"] == net and sum(net) == 0
                assert ended["how"] == "out" and ended["counts"][ended["winners"][0]] == 0
                # Every card went down in a group, or is left in a hand.
                laid = [c for g in report.summary.to_json()["groups"] for t in g["turns"] for c in t["cards"]]
                assert len(laid) + sum(ended["counts"]) == 52 and len(set(laid)) == len(laid)
                first = (report.dealer + 1) % seats
                assert [len(h) for h in report.summary.to_json()["deal"]] == [
                    52 // seats + ((s - first) % seats < 52 % seats) for s in range(seats)
                ]
            state = match.state
            if state.result is None:
                assert sum(match.totals) + sum(state.net) + state.pot == 50 * seats
        assert len(match.hands) == seats and sum(match.totals) == 50 * seats


def test_a_ten_seat_table_records_every_card_and_restores_from_its_record():
    signer = Signer.from_seed(bytes(32))
    seats = [Seat("Ann")] + [Seat(f"Bot {i}", bot=True) for i in range(1, 10)]
    bots = [HeuristicBot() if s % 2 else RandomBot(s) for s in range(10)]
    table, lines = played_by_bots("ss-ten", get("snip-snap-snorem", {"deals": 2}), seats, bots, signer, "ab" * 32)
    plays = [line for line in lines if line.get("move") == "play"]
    put_down = [line for line in lines if line["type"] == "put-down"]
    left = sum(sum(line["counts"]) for line in lines if line["type"] == "hand-end")
    assert len(plays) + sum(len(line["cards"]) for line in put_down) + left == 2 * 52
    restored = Table.restore(lines, "ab" * 32, signer)
    assert restored.lines == table.lines and restored.match.totals == table.match.totals


@pytest.mark.parametrize("name", GAMES)
def test_the_simulator_plays_every_game_with_either_bot(name, tmp_path):
    from fairdeal.simulate import simulate

    for bot in ("heuristic", "random"):
        paths = simulate(name, 5, 2, tmp_path / bot, seed="ss", bot=bot)
        for path in paths:
            lines = parse_record(path.read_text())
            check_chain(lines)
            assert lines[-2]["type"] == "match-end" and lines[-1]["type"] == "reveal"


@pytest.mark.parametrize("name", GAMES)
def test_the_bots_choose_legal_moves_from_a_view(name):
    rules = get(name, {"deals": 1})
    for seed in range(10):
        match = Match(rules, 4, fair(seed, 4, "bots"))
        match.start()
        bots = [make_bot("heuristic"), make_bot("random", seed=seed)] * 2
        while not match.over:
            seat = match.turn
            move = bots[seat].choose(rules, match.view(seat))
            assert move in match.legal_moves(seat)
            match.apply(seat, move)
