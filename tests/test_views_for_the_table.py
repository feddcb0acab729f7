"""What the table page shows comes in the seat's view (issue 13, item 3): a run's next cards, each Fan
Tan row's cards and what may go on, what fits the pile. Each game is played to its end with the table's
own moves (fixed seeds), and at every turn those keys agree with the rules' legal moves."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from fairdeal.cards import Card
from fairdeal.fairness import game_key
from fairdeal.fairness import shuffle
from fairdeal.match import Match
from fairdeal.rules import RULES
from fairdeal.rules import get

PILE = [name for name, cls in RULES.items() if cls.module() in ("crazy_eights", "eights")]
ROWS = [name for name, cls in RULES.items() if cls.module() == "fan_tan"]
RUNS = [name for name, cls in RULES.items() if cls.module() in ("sequence", "michigan", "commit")]
SEATS = {"commit": 5, "rolling-stone": 4}


def positions(name: str) -> Iterator[tuple[Match, int, dict[str, Any]]]:
    """Every position of a two-deal match of ``name``: the match, the seat to act and its view's JSON."""
    rules = get(name, {"deals": 2} if any(o.name == "deals" for o in get(name).OPTIONS) else {})
    seats = SEATS.get(name, 4)
    key = game_key("ab" * 32, f"views-{name}", [""] * seats)
    match = Match(rules, seats, lambda label, cards: shuffle(key, label, cards))
    match.start()
    for _ in range(5000):
        if match.over:
            return
        seat = match.turn
        yield match, seat, match.view(seat).to_json()
        match.apply(seat, match.auto_move(), auto=True)
    raise AssertionError(f"{name} did not end")


def plays(match: Match, seat: int) -> set[str]:
    return {m.card.code for m in match.legal_moves(seat) if m.kind == "play"}


@pytest.mark.parametrize("name", RUNS)
def test_a_runs_next_cards_are_the_cards_the_holder_may_play(name):
    going = 0
    for match, seat, view in positions(name):
        if view["current"] is None:
            assert view["next"] == []
            continue
        going += 1
        # The turn follows the cards: the seat to act holds one of the next cards, and plays only those.
        assert plays(match, seat) and plays(match, seat) <= set(view["next"])
        assert all(Card.parse(c).suit == Card.parse(view["current"]).suit or "fork" in view for c in view["next"])
    assert going


def test_double_stops_says_which_layout_cards_pay_together():
    _, _, view = next(positions("double-stops"))
    assert view["pair"] == ["TH", "9H"] and set(view["pair"]) <= set(view["layout"])
    _, _, view = next(positions("michigan"))
    assert "pair" not in view


@pytest.mark.parametrize("name", ROWS)
def test_the_rows_cards_and_open_ends_are_the_rules(name):
    for match, seat, view in positions(name):
        for suit, row in view["rows"].items():
            cards = view["row_cards"][suit]
            assert (row is None and cards == []) or (cards[0], cards[-1]) == tuple(row)
            assert all(c.endswith(suit) for c in cards) and len(set(cards)) == len(cards)
        held = set(view["hand"])
        if view["next"] is None:  # any card leads
            assert plays(match, seat) == held
        else:
            assert plays(match, seat) == held & set(view["next"])
            on_table = {c for cards in view["row_cards"].values() for c in cards}
            assert not on_table & set(view["next"])


def test_sjueren_lays_the_ace_above_the_king():
    rows = [view["row_cards"] for _, _, view in positions("sjueren")]
    full = [cards for r in rows for cards in r.values() if len(cards) == 13]
    assert full and all(cards[-2:] == [f"K{cards[0][1]}", f"A{cards[0][1]}"] for cards in full)


@pytest.mark.parametrize("name", PILE)
def test_what_fits_the_pile_is_what_may_be_played(name):
    for match, seat, view in positions(name):
        if view.get("pending") or view["drawn"]:
            continue
        wants = view["next"]
        fitting = {c for c in view["hand"] if c[1] == wants["suit"] or c[0] in (wants["rank"], wants["wild"])}
        assert plays(match, seat) == fitting
