"""Format 2's times (spec/record.md): every line's ``at``, the header's timing, the verifier's checks
of both, receipts with times, and format 1 records read as before."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_verifier_support import SIGNER
from test_verifier_support import seed_for
from test_verifier_support import text_of

from fairdeal.cards import parse_cards
from fairdeal.record import check_at
from fairdeal.record import fixed_clock
from fairdeal.record import format_at
from fairdeal.record import line_hash
from fairdeal.record import parse_record
from fairdeal.record import resign
from fairdeal.service.dealing import DealingSession
from fairdeal.service.dealing import client_commitment
from fairdeal.table import Table
from fairdeal.verification import verify
from fairdeal.verification.receipts import check_receipts
from verifier.cli import main

GOLDEN = Path(__file__).parent / "golden"
V1 = parse_record((GOLDEN / "crazy-eights-4p.jsonl").read_text(encoding="utf-8"))
V2 = parse_record((GOLDEN / "crazy-eights-4p-v2.jsonl").read_text(encoding="utf-8"))
VECTORS = Path(__file__).parent.parent / "spec" / "vectors"


def _resigned(lines, change):
    changed = copy.deepcopy(lines)
    change(changed)
    return verify(text_of(resign(changed, SIGNER)))


def _shift(line, ms):
    line["at"] = format_at(check_at(line["at"]) + ms)


def test_format_1_records_verify_as_before_with_no_time_checked():
    for path in (GOLDEN / "crazy-eights-4p.jsonl", VECTORS / "record-example.jsonl"):
        report = verify(path.read_bytes())
        assert report.verified, report.error
        assert report.format == "fairdeal-record/1" and report.timing is None
    # A time in a format 1 record is a field that format does not give.
    report = _resigned(V1, lambda ls: ls[5].__setitem__("at", "2026-01-01T00:00:00.000Z"))
    assert str(report.error) == "line 6: a field 'at' in a fairdeal-record/1 record (its lines have no time)"


def test_a_format_2_record_verifies_with_its_times():
    report = verify(text_of(V2))
    assert report.verified, report.error
    assert report.timing == {"turn_ms": 250, "bot_ms": 0, "next_hand_ms": 0}
    assert report.hands[0].dealt_at == V2[next(i for i, l in enumerate(V2) if l["type"] == "deal")]["at"]


def _auto(lines, after=0):
    return next(i for i, line in enumerate(lines) if line.get("auto") and i > after)


def test_an_auto_move_before_its_deadline_is_rejected_naming_the_line():
    i = _auto(V2)
    report = _resigned(V2, lambda ls: _shift(ls[i], -1))  # one millisecond early
    assert not report.verified
    assert report.error.line == i + 1
    assert report.error.reason.startswith(
        f"an auto-move at {format_at(check_at(V2[i]['at']) - 1)}, before its turn's deadline "
    )
    assert f"(the turn began at line {i}, {V2[i - 1]['at']}, plus 250 ms)" in report.error.reason
    # The same record with a shorter turn in its header would do: the header is what is checked.
    assert _resigned(V2, lambda ls: (_shift(ls[i], -1), ls[0]["timing"].__setitem__("turn_ms", 249))).verified


def test_a_turn_longer_than_any_date_is_a_verdict_not_a_crash(tmp_path):
    # A turn_ms of 10^15 puts the deadline past the year 9999: the verifier once died formatting
    # it (OverflowError), and in a batch the records after it got no verdict.
    i = _auto(V2)
    changed = copy.deepcopy(V2)
    changed[0]["timing"]["turn_ms"] = 10**15
    report = verify(text_of(resign(changed, SIGNER)))
    assert not report.verified and report.error.line == i + 1
    assert "before its turn's deadline 1001767225601750 ms after 1970 (past 9999-12-31)" in report.error.reason
    hostile, honest = tmp_path / "hostile.jsonl", tmp_path / "honest.jsonl"
    hostile.write_text(text_of(resign(changed, SIGNER)), encoding="utf-8")
    honest.write_text(text_of(V2), encoding="utf-8")
    result = CliRunner().invoke(main, [str(hostile), str(honest)])
    assert result.exit_code == 1 and result.stdout.splitlines()[-1] == "2 records: 1 verified, 1 not verified"


def test_a_draw_that_keeps_the_turn_does_not_start_its_time_again():
    # A player's draw, then the timer's move for the same turn: the deadline is the turn's, from
    # before the draw (as the service keeps it).
    i = next(
        i
        for i, line in enumerate(V2)
        if line.get("auto")
        and V2[i - 1].get("move") == "draw"
        and V2[i - 1]["seat"] == line["seat"]
        and not V2[i - 1].get("auto")
    )
    report = _resigned(V2, lambda ls: ls[i].__setitem__("at", format_at(check_at(ls[i - 1]["at"]) + 1)))
    assert report.verified, report.error


def test_times_never_go_backwards():
    report = _resigned(V2, lambda ls: _shift(ls[40], -1000))
    assert str(report.error) == (
        f"line 41: at {format_at(check_at(V2[40]['at']) - 1000)} is before the line before's ({V2[39]['at']}): "
        "times never go backwards"
    )


@pytest.mark.parametrize(
    "at",
    [
        "2026-01-01T00:00:10.25Z",
        "2026-01-01T00:00:10Z",
        "2026-01-01T00:00:10.250+00:00",
        "2026-01-01 00:00:10.250Z",
        "2026-02-30T00:00:10.250Z",
        "2026-01-01T00:00:60.000Z",
        1767225610250,
        None,
    ],
    ids=repr,
)
def test_an_at_has_one_grammar(at):
    report = _resigned(V2, lambda ls: ls[40].__setitem__("at", at))
    assert str(report.error) == f"line 41: at {at!r} is not a UTC date and time written YYYY-MM-DDTHH:MM:SS.mmmZ"


def test_the_headers_time_is_its_created_and_its_timing_is_given():
    report = _resigned(V2, lambda ls: ls[0].__setitem__("at", "2026-01-01T00:00:01.000Z"))
    assert str(report.error) == (
        "line 1: header at '2026-01-01T00:00:01.000Z' is not its created "
        "'2026-01-01T00:00:00Z' (the same time to the second)"
    )
    for timing in (
        None,
        {"turn_ms": 250},
        {"turn_ms": True, "bot_ms": 0, "next_hand_ms": 0},
        {"turn_ms": -1, "bot_ms": 0, "next_hand_ms": 0},
    ):
        report = _resigned(V2, lambda ls: ls[0].__setitem__("timing", timing))
        assert report.error.line == 1 and report.error.reason.startswith("header timing ")


def test_a_receipt_with_another_time_than_its_line_is_caught():
    report = verify(text_of(V2))
    line = V2[20]
    receipt = {
        "game_id": "honest-454",
        "seq": 20,
        "hash": report.line_hash(20),
        "sig": SIGNER.sign_head("honest-454", 20, report.line_hash(20)),
        "at": line["at"],
    }
    [ok] = check_receipts(report, [receipt])
    assert ok.status == "ok" and ok.reason.endswith(f"written at {line['at']}")
    [other] = check_receipts(report, [{**receipt, "at": "2026-01-01T00:00:00.000Z"}])
    assert other.status == "invalid"
    assert other.reason == (
        f"its at '2026-01-01T00:00:00.000Z' is not the time of the line it signs: the record's "
        f"line 21 (whose hash the signature holds) was written at '{line['at']}'"
    )


def test_a_receipt_proves_an_auto_move_came_early():
    # The server wrote the turn's line at T and gave its receipt; later it rewrote that line's
    # time to make an early auto-move look in time. The rewritten record verifies on its own;
    # the receipt, with its time, proves the rewrite.
    i = _auto(V2)
    start = i - 1
    honest = verify(text_of(V2))
    receipt = {
        "game_id": "honest-454",
        "seq": start,
        "hash": honest.line_hash(start),
        "sig": SIGNER.sign_head("honest-454", start, honest.line_hash(start)),
        "at": V2[start]["at"],
    }
    forged = copy.deepcopy(V2)
    for line in forged[: start + 1]:
        if line is not forged[0]:
            _shift(line, -100) if check_at(line["at"]) >= check_at(forged[0]["at"]) + 100 else None
    _shift(forged[i], -100)
    report = verify(text_of(resign(forged, SIGNER)))
    assert report.verified, report.error
    [check] = check_receipts(report, [receipt])
    assert check.status == "rewrite" and f"(written at {V2[start]['at']})" in check.reason


def test_a_dealing_session_is_format_2_too():
    session = DealingSession.new("times-1", 1, SIGNER, clock=fixed_clock("2026-01-01T00:00:00Z", 500))
    session.commit(0, client_commitment("s"))
    session.reveal_client_seed(0, "s")
    session.shuffle("round/1", parse_cards("AS KS QS"))
    session.reveal()
    lines = session.lines
    assert lines[0]["format"] == "fairdeal-record/2"
    assert [line["at"][17:23] for line in lines] == ["00.000", "00.500", "01.000", "01.500", "02.000", "02.500"]
    assert verify(session.writer.text()).verified
    report = _resigned(lines, lambda ls: ls[3].__setitem__("at", "2026-01-01T00:00:00.100Z"))
    assert str(report.error).startswith("line 4: at 2026-01-01T00:00:00.100Z is before the line before's")


def test_a_format_1_game_restored_goes_on_without_times():
    cut = next(i for i, line in enumerate(V1) if line["type"] == "move" and i > 20)
    table = Table.restore(V1[:cut], seed_for("honest-454"), SIGNER, clock=fixed_clock("2026-06-01T00:00:00Z"))
    table.move(table.match.turn, table.match.auto_move(), auto=True)
    assert "at" not in table.lines[cut] and table.lines[cut]["prev"] == line_hash(V1[cut - 1])
    # A format 2 game restored keeps its lines' times and goes on with the clock's, never earlier.
    cut = next(i for i, line in enumerate(V2) if line["type"] == "move" and i > 20)
    table = Table.restore(V2[:cut], seed_for("honest-454"), SIGNER, clock=fixed_clock("2025-01-01T00:00:00Z"))
    table.move(table.match.turn, table.match.auto_move(), auto=True)
    assert table.lines[:cut] == V2[:cut] and table.lines[cut]["at"] == V2[cut - 1]["at"]
