"""Rolling Stone: every rule of spec/games/rolling-stone.md.

Positions are built by hand (hands written as card codes) so what is under test is plain
to read; whole deals and sessions come from fixed seeds through the real
:class:`~fairdeal.match.Match` and :class:`~fairdeal.table.Table`.
"""

from __future__ import annotations

import random

import pytest
from helpers import cards
from helpers import check_legal_moves_in_play
from helpers import played_by_bots
from helpers import protocol_shuffler
from helpers import refusal
from helpers import run

from fairdeal.bots import HeuristicBot
from fairdeal.bots import make_bot
from fairdeal.cards import Card
from fairdeal.cards import Rank
from fairdeal.cards import Suit
from fairdeal.cards import pack
from fairdeal.match import Match
from fairdeal.record import Signer
from fairdeal.record import check_chain
from fairdeal.record import parse_record
from fairdeal.rules import RULES
from fairdeal.rules import Move
from fairdeal.rules import OptionsError
from fairdeal.rules import get
from fairdeal.rules.rolling_stone import RollingStone
from fairdeal.rules.rolling_stone import RollingStoneState
from fairdeal.rules.rolling_stone import position
from fairdeal.rules.rolling_stone import rolling_stone_pack
from fairdeal.table import Seat
from fairdeal.table import Table


def deal_of(*hands: str, turn: int = 0) -> RollingStoneState:
    held = tuple(cards(h) for h in hands)
    return RollingStoneState(
        hand=1,
        dealer=(turn - 1) % len(hands),
        hands=held,
        turn=turn,
        seen=frozenset((position(turn, held),)),
        dealt=held,
    )


def fair(seed: int, seats: int, game_id: str = "rs"):
    return protocol_shuffler(f"{game_id}-{seed}", seats, f"{seed:064x}")[1]


# --- the game, the pack, the deal ------------------------------------------------------------


def test_registered_with_its_name_options_and_seats():
    assert RULES["rolling-stone"] is RollingStone
    rules = get("rolling-stone")
    assert rules.options == {"deals": 0, "trick_limit": 500}
    assert (rules.min_seats, rules.max_seats, rules.first_dealer_rank) == (4, 6, Rank.ACE)
    for seats in (3, 7):
        with pytest.raises(OptionsError, match=f"Rolling Stone is for 4 to 6 players, not {seats}"):
            rules.deal(seats, 0, 1, fair(0, 4))
    with pytest.raises(OptionsError, match="trick_limit must be between 1 and 10000"):
        get("rolling-stone", {"trick_limit": 0})
    with pytest.raises(OptionsError, match="deals must be between 0"):
        get("rolling-stone", {"deals": -1})


@pytest.mark.parametrize(
    "seats, ranks",
    [
        (4, "A K Q J 10 9 8 7"),
        (5, "A K Q J 10 9 8 7 6 5"),
        (6, "A K Q J 10 9 8 7 6 5 4 3"),
    ],
)
def test_the_pack_is_cut_down_so_that_each_player_gets_eight(seats, ranks):
    """ "When 4 play, use the Ace, King, Queen, Jack, 10, 9, 8, 7 of each suit. If there is a 5th
    player, add the 6's and 5's. If there is a 6th player, add the 4's and 3's.\""""
    cut = rolling_stone_pack(seats)
    assert len(cut) == 8 * seats
    assert {c.rank.label for c in cut} == set(ranks.split())
    assert cut == [c for c in pack() if c in set(cut)]  # in card order, what the deal shuffles
    state, events = get("rolling-stone").deal(seats, seats - 1, 1, lambda label, cards_: list(cards_))
    assert events == [{"type": "deal", "hand": 1, "dealer": seats - 1}]
    # One card at a time from the dealer's left until each has 8: unshuffled, card i to seat i mod n.
    assert [list(h) for h in state.hands] == [cut[s::seats] for s in range(seats)]
    assert state.turn == 0


def test_the_deal_shuffles_the_cut_pack_under_the_deals_label():
    seen = []

    def shuffler(label, cards_):
        seen.append((label, list(cards_)))
        return list(cards_)

    get("rolling-stone").deal(5, 0, 3, shuffler)
    assert seen == [("hand/3/deal", rolling_stone_pack(5))]


# --- the play: follow suit, or pick up ---------------------------------------------------------


def test_when_all_follow_the_trick_is_put_aside_and_the_highest_card_leads():
    """ "If all follow suit, the player who put down the highest card leads again. In this case
    the cards that were played to this first trick are turned over and put aside.\""""
    rules = get("rolling-stone")
    state = deal_of("9S 7H", "AS 8D", "7S KD", "KS JH")
    state, events = run(rules, state, (0, "9S"), (1, "AS"), (2, "7S"), (3, "KS"))
    assert events == [] and state.turn == 1 and state.trick == () and state.aside == 4
    assert [len(h) for h in state.hands] == [1, 1, 1, 1]
    assert state.tricks[0] == {
        "plays": [
            {"seat": 0, "card": "9S"},
            {"seat": 1, "card": "AS"},
            {"seat": 2, "card": "7S"},
            {"seat": 3, "card": "KS"},
        ],
        "end": "aside",
        "by": 1,
    }


def test_play_high_or_low_but_follow_suit_if_able():
    rules = get("rolling-stone")
    state, _ = run(rules, deal_of("9S 7H", "AS 7S 8D", "KD QD", "KS JH"), (0, "9S"))
    view = rules.view(state, 1)
    assert rules.legal_moves(view) == [Move.play(Card.parse("AS")), Move.play(Card.parse("7S"))]
    assert rules.explain(view, Card.parse("8D")) == "you must follow suit: spades were led and you hold A♠ 7♠"
    assert "you must follow suit when you can, and A♠ follows" in refusal(rules, state, 1, Move.pass_())
    assert "you must follow suit: spades were led" in refusal(rules, state, 1, Move.play(Card.parse("8D")))


def test_a_seat_that_cannot_follow_picks_up_the_trick_and_leads():
    """ "Whenever a player cannot follow suit at his proper turn to play ..., he must pick up all
    the cards previously played in that trick. This ends that trick, and the player who has
    picked up the cards begins the next trick by leading any card that he pleases.\""""
    rules = get("rolling-stone")
    state, _ = run(rules, deal_of("AS 7H", "9S 8D", "KD QD", "TS JH"), (0, "AS"), (1, "9S"))
    view = rules.view(state, 2)
    assert rules.legal_moves(view) == [Move.pass_()]
    assert (
        rules.explain(view, Card.parse("KD"))
        == "you hold no spades: you cannot follow, so you pick up the trick (pass)"
    )
    state, events = run(rules, state, (2, "pass"))
    assert events == [{"type": "pick-up", "hand": 1, "seat": 2, "cards": ["AS", "9S"]}]
    assert state.hands[2] == cards("KD QD AS 9S") and state.turn == 2 and state.trick == ()
    assert state.tricks[0]["end"] == "picked-up" and state.tricks[0]["by"] == 2
    # Seat 3, which could have followed, never played to that trick; seat 2 leads anything.
    assert rules.legal_moves(rules.view(state, 2)) == [Move.play(c) for c in sorted(cards("KD QD AS 9S"))]


def test_the_leader_plays_any_card_and_cannot_pass():
    rules = get("rolling-stone")
    state = deal_of("AS 7H", "9S 8D", "KD QD", "TS JH")
    assert "you lead: put down any card" in refusal(rules, state, 0, Move.pass_())
    assert "it is not your turn" in refusal(rules, state, 1, Move.play(Card.parse("9S")))
    assert "you do not hold K♦" in refusal(rules, state, 0, Move.play(Card.parse("KD")))
    assert "Rolling Stone names no suit" in refusal(rules, state, 0, Move.play(Card.parse("AS"), Suit.SPADES))
    assert "has no move 'draw'" in refusal(rules, state, 0, Move.draw())


def test_the_first_out_wins_the_deal():
    """ "Eventually one player will get rid of all of his cards, thus winning the hand." The deal
    ends at once, even in the middle of a trick."""
    rules = get("rolling-stone")
    state, _ = run(rules, deal_of("AS 7H", "9S", "KD QD", "TS JH"), (0, "AS"), (1, "9S"))
    assert state.result.how == "out" and state.result.winners == (1,) and state.turn is None
    assert state.result.counts == (1, 0, 2, 2) and state.result.scores == (0, 1, 0, 0)
    assert state.tricks[-1]["end"] == "out" and state.tricks[-1]["by"] == 1
    assert "the hand is over" in refusal(rules, state, 2, Move.pass_())


def test_a_deal_that_goes_round_in_a_circle_is_blocked():
    """The last spade goes round: each seat that picks it up leads it on, and the next cannot
    follow. When a trick begins from a position an earlier trick began from, the deal is blocked
    and the fewest cards win."""
    rules = get("rolling-stone")
    state = deal_of("7S 8H 9H", "AD KD", "AC KC", "QC JC")
    moves = [(0, "7S"), (1, "pass"), (1, "7S"), (2, "pass"), (2, "7S"), (3, "pass"), (3, "7S")]
    state, _ = run(rules, state, *moves)
    assert state.result is None and state.turn == 0
    state, events = run(rules, state, (0, "pass"))
    assert events == [{"type": "pick-up", "hand": 1, "seat": 0, "cards": ["7S"]}]
    assert state.result.how == "blocked" and state.turn is None
    assert state.result.winners == (1, 2, 3) and state.result.scores == (0, 1, 1, 1)
    assert (
        state.result.reason
        == "the play went round in a circle: the same cards in the same hands, the same seat to lead"
    )


def test_a_deal_longer_than_the_trick_limit_is_blocked():
    rules = get("rolling-stone", {"trick_limit": 2})
    state = deal_of("9S 7H 8H", "AS 8D 9D", "7S KD QD", "KS JH")
    state, _ = run(rules, state, (0, "9S"), (1, "AS"), (2, "7S"), (3, "KS"))
    assert state.result is None and state.turn == 1
    state, _ = run(rules, state, (1, "8D"), (2, "KD"), (3, "pass"))
    assert state.result.how == "blocked" and state.result.reason == "no one went out in 2 tricks"
    assert state.result.counts == (2, 1, 1, 3) and state.result.winners == (1, 2)
    assert state.result.scores == (0, 1, 1, 0)


# --- the timer, the bots, views ----------------------------------------------------------------


def test_the_timer_follows_low_leads_its_shortest_suit_and_picks_up_when_it_must():
    rules = get("rolling-stone")
    state = deal_of("AS 7S KH QH JH 9D", "9S 8D", "KD QD", "TS JS")
    assert rules.auto_move(state) == Move.play(Card.parse("9D"))  # diamonds: its shortest suit
    state, _ = run(rules, state, (0, "AS"))
    assert rules.auto_move(state) == Move.play(Card.parse("9S"))  # its only spade
    state, _ = run(rules, state, (1, "9S"))
    assert rules.auto_move(state) == Move.pass_()
    state, _ = run(rules, state, (2, "pass"))
    # Two diamonds and two spades: diamonds come first; the lower of them.
    assert rules.auto_move(state) == Move.play(Card.parse("QD"))
    state, _ = run(rules, state, (2, "QD"))
    assert rules.auto_move(state) is not None and rules.legal_moves(rules.view(state, 3)) == [Move.pass_()]


def test_the_heuristic_bot_leads_high_from_its_longest_suit_and_follows_high():
    rules = get("rolling-stone")
    state = deal_of("7S 9S KS 8H AD", "TS JD", "QD KD", "AS JH")
    bot = HeuristicBot()
    assert bot.choose(rules, rules.view(state, 0)) == Move.play(Card.parse("KS"))
    state, _ = run(rules, state, (0, "7S"))
    assert bot.choose(rules, rules.view(state, 1)) == Move.play(Card.parse("TS"))
    state, _ = run(rules, state, (1, "TS"))
    assert bot.choose(rules, rules.view(state, 2)) == Move.pass_()


def test_views_show_the_trick_and_hide_the_other_hands():
    rules = get("rolling-stone")
    state, _ = run(rules, deal_of("AS 7H", "9S 8D", "KD QD", "TS JH"), (0, "AS"), (1, "9S"), (2, "pass"))
    public = rules.view(state, None).to_json()
    assert public == {
        "seat": None,
        "hand_no": 1,
        "dealer": 3,
        "hand": [],
        "hand_sizes": [1, 1, 4, 2],
        "turn": 2,
        "trick": [],
        "led": None,
        "aside": 0,
        "tricks": 1,
        "last": {"plays": [{"seat": 0, "card": "AS"}, {"seat": 1, "card": "9S"}], "end": "picked-up", "by": 2},
    }
    state, _ = run(rules, state, (2, "KD"))
    mine = rules.view(state, 3).to_json()
    assert mine["hand"] == ["TS", "JH"] and mine["trick"] == [{"seat": 2, "card": "KD"}] and mine["led"] == "D"
    with pytest.raises(ValueError, match="there is no seat -1 at this 4-seat table"):
        rules.view(state, -1)
    assert rules.legal_moves(rules.view(state, None)) == [] and rules.legal_moves(rules.view(state, 0)) == []
    assert rules.explain(rules.view(state, 0), Card.parse("7H")) == "it is not your turn"


def test_legal_moves_are_exactly_what_apply_accepts():
    rules = get("rolling-stone", {"deals": 1})
    for seed in range(6):
        rng = random.Random(seed)
        seats = 4 + seed % 3
        match = Match(rules, seats, fair(seed, seats, "legal"))
        every = [Move.play(c) for c in rolling_stone_pack(seats)] + [Move.pass_()]
        check_legal_moves_in_play(rules, match, rng, 4, every)


def test_seeded_sessions_keep_every_card_and_agree_with_their_events():
    rules = get("rolling-stone")
    for seed in range(100):  # 4, 5 and 6 seats, a third each
        rng = random.Random(seed)
        seats = 4 + seed % 3
        match = Match(rules, seats, fair(seed, seats))
        events = match.start()
        while True:
            for event in events:
                if event["type"] == "hand-end":
                    report = match.hands[event["hand"] - 1]
                    tricks = report.summary.to_json()["tricks"]
                    aside = sum(len(t["plays"]) for t in tricks if t["end"] == "aside")
                    out = sum(len(t["plays"]) for t in tricks if t["end"] == "out")
                    # Every card is put aside, left in a hand, or in the trick the deal ended in.
                    assert aside + sum(event["counts"]) + out == 8 * seats
                    if event["how"] == "out":
                        assert event["counts"][event["winners"][0]] == 0 and event["scores"].count(1) == 1
                    else:
                        low = min(event["counts"])
                        assert event["winners"] == [s for s, n in enumerate(event["counts"]) if n == low]
            state = match.state
            if state.result is None:
                held = sorted(c for h in state.hands for c in h) + sorted(c for _, c in state.trick)
                assert len(held) + state.aside == 8 * seats and len(set(held)) == len(held)
            if match.over:
                break
            events = match.apply(match.turn, rng.choice(match.legal_moves(match.turn)))
        assert len(match.hands) == seats
        assert sum(match.totals) >= seats and events[-1] == {
            "type": "match-end",
            "standings": [row.to_json() for row in match.standings],
        }


def test_the_timer_alone_always_finishes_a_deal():
    """Seats played only by the timer: the deal ends, out or blocked, well inside the trick limit."""
    rules = get("rolling-stone", {"deals": 1})
    hows = set()
    for seed in range(60):
        seats = 4 + seed % 3
        match = Match(rules, seats, fair(seed, seats, "timer"))
        match.start()
        while not match.over:
            match.apply(match.turn, match.auto_move(), auto=True)
        hows.add(match.hands[0].result.how)
        assert len(match.hands[0].summary.to_json()["tricks"]) < 500
    assert hows == {"out", "blocked"}


def test_a_table_records_every_pick_up_and_restores_from_its_record():
    signer = Signer.from_seed(bytes(32))
    seats = [Seat("Ann")] + [Seat(f"Bot {i}", bot=True) for i in range(1, 6)]
    bots = [make_bot("heuristic"), make_bot("random", seed=1)] * 3
    table, lines = played_by_bots("rs-six", get("rolling-stone"), seats, bots, signer, "cd" * 32)
    passes = [i for i, line in enumerate(lines) if line.get("move") == "pass"]
    assert passes and all(
        lines[i + 1]["type"] == "pick-up" and lines[i + 1]["seat"] == lines[i]["seat"] for i in passes
    )
    assert len([line for line in lines if line["type"] == "hand-end"]) == 6  # each of the six deals once
    restored = Table.restore(lines, "cd" * 32, signer)
    assert restored.lines == table.lines and restored.match.totals == table.match.totals


def test_the_simulator_plays_it_with_either_bot(tmp_path):
    from fairdeal.simulate import simulate

    for bot in ("heuristic", "random"):
        for path in simulate("rolling-stone", 5, 2, tmp_path / bot, seed="rs", bot=bot):
            lines = parse_record(path.read_text())
            check_chain(lines)
            assert lines[-2]["type"] == "match-end" and lines[-1]["type"] == "reveal"
