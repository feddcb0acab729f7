"""Commit end to end: simulated one-deal matches verify; the record's tamper tests run over a
record with the 9♦ played with a card and kings left; the report shows the stops; ``fairdeal
simulate`` plays it. The checks are tests/test_sequence_records.py's.
"""

from __future__ import annotations

from test_sequence_records import check_edits
from test_sequence_records import check_matches
from test_sequence_records import check_rewrites
from test_sequence_records import check_simulate
from test_sequence_records import record
from test_sequence_records import stops
from test_verifier_support import SIGNER
from test_verifier_support import play

from fairdeal.verification import verify
from verifier.report import text_report

COMMIT = ("run-tamper-commit-0", "commit", 4)


def test_simulated_matches_verify():
    seen = check_matches("commit")
    assert {"play", "play-then", "nine-of-diamonds", "held-nine", "held-king"} <= seen


def test_the_record_holds_the_nine_with_a_card_kings_left_and_a_stop():
    lines = record(*COMMIT)
    assert any(line.get("then") == "9D" for line in lines)
    assert any(line.get("reason") == "held-king" for line in lines)
    assert stops(lines)


def test_every_single_edit_is_rejected_at_the_line_it_touches():
    check_edits(record(*COMMIT))


def test_every_single_rewrite_that_breaks_the_rules_is_rejected():
    check_rewrites(record(*COMMIT))


def test_the_report_shows_the_stops_and_every_counter():
    report = verify(
        play("report-commit", 5, humans=1, rules="commit", options={"deals": 1}).lines, key=SIGNER.public_hex
    )
    text = text_report(report)
    assert "stops (face down): " in text and "run 1: " in text and text.endswith("VERIFIED\n")


def test_fairdeal_simulate_plays_commit(tmp_path):
    check_simulate("commit", tmp_path)
