"""The draw-pile Stops games end to end: simulated matches whose records the verifier replays,
tampered records it refuses (the tamper tests of tests/test_tamper.py, reused), what its report
says of them, a table restored from its record, and ``fairdeal simulate --rules NAME``.

Games: crazy-eights-book, eights, hollywood-eights, go-boom, hollywood-go-boom. Records are
built by the verifier tests' own driver (tests/test_verifier_support.py: the real table and
match with fixed seeds; bots, and human seats that mix random moves with timed-out auto-moves).
"""

from __future__ import annotations

import copy
import functools
import json

import pytest
import test_tamper as tamper
from click.testing import CliRunner
from helpers import tamper_record
from test_eights_support import DRAW_PILE_GAMES
from test_verifier_support import SIGNER
from test_verifier_support import SIMULATED
from test_verifier_support import play
from test_verifier_support import seed_for

from fairdeal.cli import main as fairdeal_main
from fairdeal.record import resign
from fairdeal.rules import get
from fairdeal.table import Table
from fairdeal.verification import verify
from verifier.cli import main as verify_main
from verifier.report import json_report
from verifier.report import text_report

SHORT = {
    # The shortest whole matches: one deal, or a target every win reaches (Hollywood: a game
    # per win, so three hands at least).
    "crazy-eights-book": {"deals": 1},
    "eights": {"deals": 1},
    "hollywood-eights": {"target": 1},
    "go-boom": {"target": 1},
    "hollywood-go-boom": {"target": 1},
}


@pytest.mark.parametrize("name", DRAW_PILE_GAMES)
def test_simulated_matches_of_each_game_verify(name):
    """Every seat count the game allows, 0 to 2 human seats, bots of both kinds, in
    :data:`~test_verifier_support.SIMULATED` seeded matches; short matches keep this to seconds
    (whole matches to 100 are below and in the games' own tests)."""
    rules = get(name)
    counts = range(rules.min_seats, rules.max_seats + 1)
    hands = 0
    for n in range(SIMULATED):
        played = play(f"{name}-{n}", counts[n % len(counts)], humans=n % 3, rules=name, options=SHORT[name])
        report = verify(played.lines, key=SIGNER.public_hex)
        assert report.verified, (n, str(report.error))
        assert report.standings == played.table.match.standings
        assert [h.totals for h in report.hands] == [h.totals for h in played.table.match.hands]
        hands += len(report.hands)
    assert hands >= SIMULATED


@pytest.mark.parametrize("name", DRAW_PILE_GAMES)
def test_whole_matches_with_the_default_options_verify(name):
    for seats in (2, 4):
        played = play(f"{name}-whole-{seats}", seats, humans=1, rules=name)
        report = verify(played.text, key=SIGNER.public_hex)
        assert report.verified, str(report.error)
        assert len(report.hands) == len(played.table.match.hands) >= (seats if "hollywood" not in name else 3)


# --- tampered records: the tamper tests of tests/test_tamper.py, reused ------------------


@functools.cache
def record(name: str) -> list[dict]:
    """A four-seat record (the partnership game for the Eights games) of one hand (three for the Hollywood games), with two
    human seats that also time out; bot seats play like them (random moves and auto-moves)."""
    options = {"crazy-eights-book": {"deals": 1}, "eights": {"deals": 1}}.get(name, {"target": 1})
    return tamper_record(f"draw-pile-tamper-{name}", 4, name, options)


def touched(lines: list[dict]) -> set[int]:
    """The lines to mutate: the header, the first deal and the moves after it, the first draws
    and passes, the first seat out, every hand-end and what follows it, and the end."""
    kinds = [line["type"] for line in lines]
    deal = kinds.index("deal")
    out = {0, deal, deal + 1, deal + 2}
    for kind in ("draw", "pass"):
        found = [i for i, line in enumerate(lines) if line.get("move") == kind]
        out |= set(found[:2])
    ends = [i for i, kind in enumerate(kinds) if kind == "hand-end"]
    for i in ends[:1] + ends[-1:]:
        out |= {i - 1, i, i + 1}
    return out


@pytest.mark.parametrize("name", DRAW_PILE_GAMES)
def test_every_single_edit_is_rejected_at_the_line_it_touches(name):
    lines = record(name)
    kinds = [line["type"] for line in lines]
    assert tamper._edits_missed(lines, {0, kinds.index("deal"), kinds.index("hand-end")}, more_than=100) == ([], [])


@pytest.mark.parametrize("name", DRAW_PILE_GAMES)
def test_every_single_rewrite_that_breaks_the_rules_is_rejected(name):
    lines = record(name)
    assert tamper._forgeries_accepted(lines, touched(lines), at_least=300) == []


def forged(lines, index, change):
    out = copy.deepcopy(lines)
    change(out[index])
    return verify(resign(out, SIGNER), key=SIGNER.public_hex)


@pytest.mark.parametrize("name", DRAW_PILE_GAMES)
def test_the_reasons_a_person_reads(name):
    lines = record(name)
    end = next(i for i, line in enumerate(lines) if line["type"] == "hand-end")
    report = forged(lines, end, lambda line: line["scores"].__setitem__(0, line["scores"][0] + 1))
    assert str(report.error).startswith(f"line {end + 1}: hand-end scores")
    if "hollywood" in name:
        report = forged(lines, end, lambda line: line["games"][0].__setitem__(0, line["games"][0][0] + 1))
        assert str(report.error).startswith(f"line {end + 1}: hand-end games")
    passes = [i for i, line in enumerate(lines) if line.get("move") == "pass" and not line.get("auto")]
    draws = [i for i, line in enumerate(lines) if line.get("move") == "draw" and not line.get("auto")]
    if draws:
        report = forged(lines, draws[0], lambda line: line.update(move="keep"))
        assert "has no move 'keep'" in str(report.error)
    if passes:
        # A pass turned into a draw: the stock is gone by then (or a card still matches).
        report = forged(lines, passes[0], lambda line: line.update(move="draw"))
        assert report.error.line == passes[0] + 1


def test_the_records_hold_what_the_mutations_are_for():
    for name in DRAW_PILE_GAMES:
        moves = {line.get("move") for line in record(name)}
        assert moves >= {"play", "draw"}, name
    assert "pass" in {line.get("move") for name in DRAW_PILE_GAMES for line in record(name)}
    assert any(line.get("auto") for line in record("go-boom"))


# --- the report ------------------------------------------------------------------------


def test_the_text_and_json_reports_of_a_hollywood_game():
    played = play("report-hollywood", 2, humans=1, rules="hollywood-go-boom", options={"target": 30})
    report = verify(played.text)
    text = text_report(report)
    assert text.splitlines()[0] == "game report-hollywood: Hollywood Go Boom (hollywood-go-boom), target 30"
    assert "  round 1: seat " in text and "leads next" in text and "\n  draws: " in text
    assert "\n  game 1  " in text and "\n  game 3  " in text
    data = json.loads(json_report(report))
    last = data["hands"][-1]
    assert last["games"] == [list(g) for g in played.table.match.sheet.games]
    assert all(max(game) >= 30 for game in last["games"])
    assert data["standings"] == [row.to_json() for row in played.table.match.standings]
    assert text.rstrip().endswith("VERIFIED")


def test_the_text_report_of_a_partnership():
    played = play("report-partners", 4, humans=2, rules="eights", options={"deals": 4})
    report = verify(played.text)
    text = text_report(report)
    assert text.count("  partners: seats 0 (P0) and 2 (P2) against seats 1 (P1) and 3 (P3)") == 4
    ends = [line for line in text.splitlines() if line.startswith("  ended: ")]
    assert len(ends) == 4
    for line, hand in zip(ends, report.hands):
        if hand.how == "out":
            side = "seats 0 (P0) and 2 (P2)" if 0 in hand.winners else "seats 1 (P1) and 3 (P3)"
            assert line == f"  ended: {side} went out"
        elif not hand.winners:
            assert line.endswith("nobody wins")
        else:
            assert " won by seats " in line


def test_fairdeal_verify_prints_every_draw_of_a_book_game(tmp_path):
    played = play("report-book", 3, humans=1, rules="crazy-eights-book", options={"deals": 1})
    draws = [line for line in played.lines if line.get("move") == "draw"]
    path = tmp_path / "book.jsonl"
    path.write_text(played.text, encoding="utf-8")
    result = CliRunner().invoke(verify_main, [str(path)])
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if line.startswith("  draws: "))
    # Each draw's card follows from the seed: the report names as many as the record has draws.
    assert sum(len(part.split()) - 3 for part in line.removeprefix("  draws: ").split(", ")) == len(draws)


# --- the table and the simulator ------------------------------------------------------------


@pytest.mark.parametrize("name", DRAW_PILE_GAMES)
def test_a_table_restores_from_its_record(name):
    played = play(f"restore-{name}", 3, humans=1, rules=name, options=SHORT[name], reveal=False)
    table = played.table
    restored = Table.restore(table.lines, seed_for(f"restore-{name}"), SIGNER)
    assert restored.match.totals == table.match.totals and restored.match.over == table.match.over
    assert restored.match.sheet == table.match.sheet
    assert restored.writer.text() == table.writer.text()


@pytest.mark.parametrize("name", DRAW_PILE_GAMES)
def test_fairdeal_simulate_plays_each_game(name, tmp_path):
    result = CliRunner().invoke(
        fairdeal_main,
        [
            "simulate",
            "--rules",
            name,
            "--players",
            "3",
            "--games",
            "2",
            "--out",
            str(tmp_path),
            "--seed",
            "7",
            "--bot",
            "mixed",
        ],
    )
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"simulated 2 games of {name}, ")
    paths = sorted(tmp_path.glob("*.jsonl"))
    assert len(paths) == 2
    for path in paths:
        assert verify(path.read_text()).verified
