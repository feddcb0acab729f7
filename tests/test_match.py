"""The match driver with Crazy Eights: the draw for the first dealer, dealer
rotation, hands one after another, totals, the end of the match and its
standings, timer auto-moves, and the events a record is made of.

Positions are built by hand (a :class:`CrazyEightsState` put into a started
match) where a test needs a particular end of hand; whole matches use the
protocol shuffle under a fixed seed.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import cards
from helpers import play
from helpers import protocol_shuffler

from fairdeal.cards import Card
from fairdeal.cards import Rank
from fairdeal.cards import Suit
from fairdeal.cards import codes
from fairdeal.cards import pack
from fairdeal.fairness import shuffle
from fairdeal.match import Match
from fairdeal.match import draw_for_deal
from fairdeal.rules import IllegalMove
from fairdeal.rules import Move
from fairdeal.rules import get
from fairdeal.rules import standings


def started(seats: int = 2, options=None, game_id: str = "match-test") -> Match:
    _key, shuffler = protocol_shuffler(game_id, seats)
    match = Match(get("crazy-eights", options), seats, shuffler)
    match.start()
    return match


def put(match: Match, *hands: str, pile: str, stock: str = "", turn: int, named: str | None = None) -> None:
    """Replace the current hand's position with a built one (same hand number, dealer and deal)."""
    match.state = replace(
        match.state,
        hands=tuple(cards(h) for h in hands),
        stock=cards(stock),
        pile=cards(pile),
        named=None if named is None else Suit.parse(named),
        turn=turn,
    )


def play_out(match: Match) -> list[dict]:
    """Play the whole match with the timer's auto-moves; every event."""
    events = []
    while not match.over:
        events += match.apply(match.turn, match.auto_move(), auto=True)
    return events


# --- the draw for the first dealer ------------------------------------------


class TestDrawForDeal:
    @pytest.mark.parametrize("seats, first_ace, dealer", [(3, 6, 0), (3, 7, 1), (4, 0, 0), (5, 9, 4), (2, 3, 1)])
    def test_the_first_seat_dealt_an_ace_deals(self, seats, first_ace, dealer):
        # Face up from seat 0 round the table: card i goes to seat i mod seats.
        no_aces = [c for c in pack() if c.rank != Rank.ACE]
        order = no_aces[:first_ace] + [Card.parse("AH")] + no_aces[first_ace:] + list(cards("AC AD AS"))
        calls = []

        def shuffler(label, deck):
            calls.append((label, list(deck)))
            return list(order)

        seat, turned = draw_for_deal(get("crazy-eights"), seats, shuffler)
        assert calls == [("draw-for-deal", pack())]
        assert seat == dealer
        assert turned == order[: first_ace + 1] and turned[-1] == Card.parse("AH")

    def test_with_the_protocol_shuffle(self):
        key, shuffler = protocol_shuffler("draw", 4)
        match = Match(get("crazy-eights"), 4, shuffler)
        events = match.start()
        order = shuffle(key, "draw-for-deal", pack())
        first = next(i for i, c in enumerate(order) if c.rank == Rank.ACE)
        assert events[0] == {"type": "draw-for-deal", "cards": codes(order[: first + 1]), "dealer": first % 4}
        assert match.first_dealer == first % 4 == match.dealer
        assert events[1]["type"] == "deal" and events[1]["dealer"] == first % 4 and events[1]["hand"] == 1
        assert match.turn == (first + 1) % 4

    def test_start_only_once(self):
        match = started()
        with pytest.raises(IllegalMove, match="already started"):
            match.start()

    def test_no_move_before_the_start(self):
        _key, shuffler = protocol_shuffler("early", 2)
        match = Match(get("crazy-eights"), 2, shuffler)
        with pytest.raises(IllegalMove, match="has not started"):
            match.apply(0, Move.draw())


# --- hands one after another ----------------------------------------------------


class TestHands:
    def test_the_deal_moves_one_seat_to_the_left_every_hand(self):
        match = started(3, game_id="rotation")
        first = match.dealer
        events = play_out(match)
        deals = [e for e in events if e["type"] == "deal"]
        assert len(deals) >= 2
        assert [d["hand"] for d in deals] == list(range(2, len(deals) + 2))
        assert [d["dealer"] for d in deals] == [(first + h) % 3 for h in range(1, len(deals) + 1)]
        # After each deal the seat on the dealer's left moves first.
        for deal in deals:
            first_move = events[events.index(deal) + 1]
            assert first_move["type"] == "move" and first_move["seat"] == (deal["dealer"] + 1) % 3
        assert [r.dealer for r in match.hands] == [(first + h) % 3 for h in range(len(match.hands))]

    def test_going_out_ends_the_hand_scores_it_and_deals_the_next(self):
        match = started(2)
        dealer = match.dealer
        put(match, "5S", "KD 3C", pile="5H", stock="4C", turn=0)
        events = match.apply(0, play("5S"))
        assert events[0] == {"type": "move", "seat": 0, "move": "play", "card": "5S"}
        assert events[1] == {
            "type": "hand-end",
            "hand": 1,
            "how": "out",
            "winners": [0],
            "counts": [0, 13],
            "scores": [13, 0],
            "totals": [13, 0],
        }
        assert events[2]["type"] == "deal" and events[2]["hand"] == 2 and events[2]["dealer"] == 1 - dealer
        assert len(events) == 3
        assert match.totals == (13, 0) and match.hand_no == 2 and not match.over
        report = match.hands[0]
        assert report.hand == 1 and report.dealer == dealer and report.totals == (13, 0)
        assert report.summary.to_json()["starter"] == report.summary.to_json()["turned"][-1]

    def test_the_named_suit_does_not_carry_into_the_next_hand(self):
        match = started(2)
        put(match, "8S", "KD 3C", pile="5H", stock="4C", turn=0)
        events = match.apply(0, play("8S", "H"))
        assert events[0]["suit"] == "H"
        assert match.state.named is None and match.state.top.rank != Rank.EIGHT
        assert match.view(0).named is None

    def test_a_blocked_hand_scores_every_seat_tied_on_the_lowest_count(self):
        match = started(3, game_id="blocked")
        put(match, "4D 2C", "JH", "3S 3H", pile="KH 5S", stock="", turn=0)
        match.state = replace(match.state, restocks=20)  # the next run-out is the 21st
        events = match.apply(0, Move.draw())
        assert events[0] == {"type": "move", "seat": 0, "move": "draw"}
        assert events[1]["type"] == "hand-end" and events[1]["how"] == "blocked"
        assert events[1]["counts"] == [6, 10, 6] and events[1]["winners"] == [0, 2]
        assert events[1]["scores"] == [4, 0, 4] and match.totals == (4, 0, 4)


# --- the end of the match ----------------------------------------------------------


class TestMatchEnd:
    def test_the_match_ends_after_a_hand_in_which_someone_reaches_100(self):
        match = started(2)
        match.totals = (90, 40)
        put(match, "5S", "KD 3C", pile="5H", stock="4C", turn=0)
        events = match.apply(0, play("5S"))
        assert [e["type"] for e in events] == ["move", "hand-end", "match-end"]
        assert events[-1] == {
            "type": "match-end",
            "standings": [{"seat": 0, "total": 103, "place": 1}, {"seat": 1, "total": 40, "place": 2}],
        }
        assert match.over and match.turn is None

    def test_99_does_not_end_it(self):
        match = started(2)
        match.totals = (86, 40)
        put(match, "5S", "KD 3C", pile="5H", stock="4C", turn=0)
        events = match.apply(0, play("5S"))
        assert match.totals == (99, 40) and not match.over
        assert events[-1]["type"] == "deal"

    def test_the_target_option(self):
        match = started(2, {"target": 30})
        match.totals = (17, 0)
        put(match, "5S", "KD 3C", pile="5H", stock="4C", turn=0)
        assert match.apply(0, play("5S"))[-1]["type"] == "match-end"

    def test_a_whole_match_to_the_target(self):
        match = started(4, game_id="whole")
        events = play_out(match)
        ends = [e for e in events if e["type"] == "hand-end"]
        assert max(ends[-1]["totals"]) >= 100
        assert all(max(e["totals"]) < 100 for e in ends[:-1])
        assert events[-1]["type"] == "match-end" and events[-1]["standings"] == [
            row.to_json() for row in match.standings
        ]

    def test_equal_totals_share_the_place(self):
        assert [s.place for s in standings([30, 105, 30, 0])] == [1, 2, 2, 4]
        assert [s.seat for s in standings([30, 105, 30, 0])] == [1, 0, 2, 3]

    def test_tied_winners_of_the_last_hand_share_first_place(self):
        match = started(3, game_id="tied")
        match.totals = (90, 90, 0)
        put(match, "4D", "AC 3C", "KH QH", pile="5S", stock="", turn=0)
        match.apply(0, Move.pass_())
        match.apply(1, Move.pass_())
        events = match.apply(2, Move.pass_())
        assert events[-2]["winners"] == [0, 1] and events[-2]["scores"] == [16, 16, 0]
        assert events[-1]["standings"] == [
            {"seat": 0, "total": 106, "place": 1},
            {"seat": 1, "total": 106, "place": 1},
            {"seat": 2, "total": 0, "place": 3},
        ]

    def test_nothing_happens_after_the_end(self):
        match = started(2)
        match.totals = (99, 0)
        put(match, "5S", "KD 3C", pile="5H", stock="4C", turn=0)
        match.apply(0, play("5S"))
        with pytest.raises(IllegalMove, match="the match is over"):
            match.apply(1, Move.draw())
        with pytest.raises(IllegalMove, match="no one is to act"):
            match.auto_move()
        assert match.legal_moves(1) == []
        assert match.explain(1, Card.parse("KD")) == "the match is over"


# --- moves through the match ----------------------------------------------------


class TestMoves:
    def test_a_draw_is_recorded_without_its_card(self):
        match = started(2)
        put(match, "2C 4D", "KD 3C", pile="5H", stock="7H 3S", turn=0)
        assert match.apply(0, Move.draw()) == [{"type": "move", "seat": 0, "move": "draw"}]
        assert match.apply(0, Move.keep()) == [{"type": "move", "seat": 0, "move": "keep"}]

    def test_a_restock_follows_the_draw_that_caused_it(self):
        match = started(2)
        put(match, "2C 4D", "KD 3C", pile="9S JS 5H", stock="", turn=0)
        events = match.apply(0, Move.draw())
        assert events == [
            {"type": "move", "seat": 0, "move": "draw"},
            {"type": "restock", "hand": 1, "restock": 1, "cards": 2},
        ]

    def test_a_refused_move_changes_nothing(self):
        match = started(2)
        put(match, "2C 4D", "KD 3C", pile="5H", stock="7H 3S", turn=0)
        before = match.state
        with pytest.raises(IllegalMove, match="illegal move play 2C by seat 0: 2♣ does not match 5♥"):
            match.apply(0, play("2C"))
        with pytest.raises(IllegalMove, match="it is not your turn"):
            match.apply(1, Move.draw())
        assert match.state is before and match.totals == (0, 0)

    def test_the_auto_move_is_recorded_as_such(self):
        match = started(2)
        put(match, "2C 4D 5H", "KD 3C", pile="5S", stock="7H 3S", turn=0)
        assert match.auto_move() == play("5H")
        assert match.apply(0, play("5H"), auto=True)[0] == {
            "type": "move",
            "seat": 0,
            "move": "play",
            "card": "5H",
            "auto": True,
        }

    def test_any_other_move_is_refused_as_an_auto_move(self):
        match = started(2)
        put(match, "2C 4D 5H 5C", "KD 3C", pile="5S", stock="7H 3S", turn=0)
        before = match.state
        # Legal, but not what the timer plays (5♣ is lower than 5♥ by suit).
        with pytest.raises(IllegalMove) as info:
            match.apply(0, play("5H"), auto=True)
        assert info.value.reason == "the auto-move here is play 5C"
        with pytest.raises(IllegalMove, match="the auto-move here is play 5C"):
            match.apply(0, Move.draw(), auto=True)
        with pytest.raises(IllegalMove, match="it is not your turn"):
            match.apply(1, play("5C"), auto=True)
        assert match.state is before
        # The same move made by the seat itself is no auto-move.
        assert "auto" not in match.apply(0, play("5C"))[0]

    def test_a_timed_out_eight_is_refused_with_another_suit(self):
        match = started(2)
        put(match, "8C 2H 3H", "KD 3C", pile="5S", stock="7H 3S", turn=0)
        with pytest.raises(IllegalMove, match="the auto-move here is play 8C naming H"):
            match.apply(0, play("8C", "S"), auto=True)
        assert match.apply(0, play("8C", "H"), auto=True)[0]["suit"] == "H"


# --- replay: the verifier's premise -------------------------------------------------


def test_feeding_the_recorded_moves_to_a_new_match_gives_the_same_events():
    _key, shuffler = protocol_shuffler("replay", 3)
    match = Match(get("crazy-eights"), 3, shuffler)
    original = match.start() + play_out(match)
    replay = Match(get("crazy-eights"), 3, shuffler)
    replayed = replay.start()
    for event in original:
        if event["type"] == "move":
            move = Move.from_json({k: v for k, v in event.items() if k in ("move", "card", "suit")})
            replayed += replay.apply(event["seat"], move, auto=event.get("auto", False))
    assert replayed == original
    assert replay.totals == match.totals and replay.standings == match.standings
