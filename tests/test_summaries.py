"""Each game describes its own hands: a typed summary whose JSON is the report's, and whose
lines are the text report's; the verifier's report names no game."""

from __future__ import annotations

import dataclasses
import json
import re
import typing
from enum import Enum
from pathlib import Path

import pytest
from test_verifier_support import play

from fairdeal.cards import Card
from fairdeal.rules import RULES
from fairdeal.rules import catalogue
from fairdeal.rules.summary import HandSummary
from fairdeal.rules.summary import SeatNames
from fairdeal.verification import verify
from verifier.report import MovePrinter
from verifier.report import json_report
from verifier.report import text_report

REPORT = Path(__file__).resolve().parent.parent / "verifier" / "report.py"
# The hand's fields in the JSON report that are not its summary's (the sheet's are the hand's own).
NOT_SUMMARY = {
    "hand",
    "dealer",
    "result",
    "scores",
    "totals",
    "dealt_at",
    "ended_at",
}  # the times: the record's, format 2


def _options(name: str) -> dict[str, int]:
    """Short matches: a low target, few deals, small stacks."""
    short = {"target": 25, "deals": 2, "stack": 8}
    return {key: value for key, value in short.items() if key in RULES[name].defaults}


@pytest.fixture(scope="module", params=list(RULES))
def played(request):
    name = request.param
    cls = RULES[name]
    seats = min(cls.min_seats + 1, cls.max_seats)
    game = play(f"summaries-{name}", seats, humans=2, rules=name, options=_options(name), use_bots=False)
    moves: list[str] = []
    report = verify(game.text, watch=MovePrinter(moves.append))
    assert report.verified, report.error
    return name, game, report, moves


def _typed(value: object) -> bool:
    """Whether a summary's field holds typed values all the way down (no dict, no list)."""
    if value is None or isinstance(value, (bool, int, str, Card, Enum)):
        return True
    if isinstance(value, tuple):
        return all(_typed(v) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return all(_typed(getattr(value, f.name)) for f in dataclasses.fields(value))
    return False


@pytest.mark.parametrize("name", list(RULES))
def test_every_game_declares_a_typed_summary(name):
    returned = typing.get_type_hints(RULES[name].summary)["return"]
    assert issubclass(returned, HandSummary) and returned is not HandSummary
    assert dataclasses.is_dataclass(returned) and returned.__dataclass_params__.frozen


def test_every_hand_summary_is_typed_and_its_json_is_the_reports(played):
    name, _, report, _ = played
    data = json.loads(json_report(report))
    assert report.hands and len(data["hands"]) == len(report.hands)
    for hand, shown in zip(report.hands, data["hands"]):
        summary = hand.summary
        assert isinstance(summary, typing.get_type_hints(RULES[name].summary)["return"])
        assert all(_typed(getattr(summary, f.name)) for f in dataclasses.fields(summary)), summary
        with pytest.raises(dataclasses.FrozenInstanceError):
            summary.deal = ()  # type: ignore[misc]
        expected = {k: v for k, v in shown.items() if k not in NOT_SUMMARY and k not in hand.sheet}
        assert summary.to_json() == expected
        assert list(summary.to_json()) == list(expected)  # in the report's order
        assert json.loads(json.dumps(summary.to_json())) == summary.to_json()
        assert [[c.code for c in cards] for cards in summary.deal] == shown["deal"]


def test_the_text_report_shows_each_summarys_lines_under_its_hand(played):
    _, _, report, _ = played
    text = text_report(report)
    names = SeatNames.of(report.seats)
    for hand in report.hands:
        header = f"hand {hand.hand}, dealer {names.seat(hand.dealer)}\n"
        block = "".join(line + "\n" for line in hand.summary.lines(names))
        ended = f"  ended: {hand.summary.ended(hand.result, names)}\n"
        assert header + block in text
        after = text[text.index(header + block) + len(header + block) :]
        assert ended in after.split("\n\n")[0]


def test_the_move_by_move_replay_describes_every_move_with_every_hand(played):
    _, game, report, moves = played
    move_lines = [i + 1 for i, line in enumerate(game.lines) if line["type"] == "move"]
    shown = [line for line in moves if line.startswith("line ")]
    assert [int(line.split(":")[0].removeprefix("line ")) for line in shown] == move_lines
    seats = len(report.seats)
    headers = [line for line in moves if line.startswith("hand ") and ", dealer seat " in line]
    assert len(headers) == len(report.hands)
    # Every move that leaves its hand going on shows each seat's hand after it.
    assert all(line.count(" | ") == seats for line in shown if " | " in line)


def test_the_verifier_report_names_no_game():
    text = REPORT.read_text(encoding="utf-8")
    for entry in catalogue()["games"]:
        assert not re.search(rf"(?<![\w-]){re.escape(entry['name'])}(?![\w-])", text), entry["name"]
