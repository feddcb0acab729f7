"""Michigan, Double Stops and Spin end to end: simulated one-deal matches of each verify; the
record's tamper tests run over a record of each (an auction with two bids, pay cards, Double
Stops' pair, a spin); the reports show the extra hand, the runs and every counter; ``fairdeal
simulate`` plays them. The checks are tests/test_sequence_records.py's.
"""

from __future__ import annotations

import pytest
from test_sequence_records import check_edits
from test_sequence_records import check_matches
from test_sequence_records import check_rewrites
from test_sequence_records import check_simulate
from test_sequence_records import record
from test_sequence_records import stops
from test_verifier_support import SIGNER
from test_verifier_support import play

from fairdeal.record import resign
from fairdeal.verification import verify
from verifier.report import json_report
from verifier.report import text_report

GAMES = ("michigan", "double-stops", "spin")
RECORDS = {
    # Chosen (by id) to hold an auction with two different bids, a pay card, a stop; Double Stops
    # its pair paid, Spin a spin.
    "michigan": ("run-tamper-michigan-0", "michigan", 3),
    "double-stops": ("run-tamper-double-stops-46", "double-stops", 3),
    "spin": ("run-tamper-spin-28", "spin", 3),
}
MICHIGAN_LINES = {"keep", "exchange", "auction", "bid", "pass", "play", "stake", "pay-card", "cards-left", "return"}


@pytest.mark.parametrize("name", GAMES)
def test_simulated_matches_of_each_game_verify(name):
    expected = MICHIGAN_LINES | {"double-stops": {"pair"}, "spin": {"play-then"}}.get(name, set())
    seen = check_matches(name)
    assert expected <= seen, expected - seen


def test_the_records_hold_what_the_mutations_are_for():
    for name in GAMES:
        lines = record(*RECORDS[name])
        moves = [line.get("move") for line in lines]
        bids = [line["amount"] for line in lines if line.get("move") == "bid"]
        assert "auction" in moves and len(bids) >= 2 and len(set(bids)) > 1, name
        assert any(line.get("reason") == "pay-card" for line in lines), name
        assert stops(lines), name
    assert any(line.get("reason") == "pair" for line in record(*RECORDS["double-stops"]))
    assert any("then" in line for line in record(*RECORDS["spin"]))


@pytest.mark.parametrize("name", GAMES)
def test_every_single_edit_is_rejected_at_the_line_it_touches(name):
    check_edits(record(*RECORDS[name]))


@pytest.mark.parametrize("name", GAMES)
def test_every_single_rewrite_that_breaks_the_rules_is_rejected(name):
    check_rewrites(record(*RECORDS[name]))


def test_a_rewritten_bid_or_spin_is_refused_with_its_reason():
    lines = record(*RECORDS["spin"])
    i = next(i for i, line in enumerate(lines) if "then" in line)
    forged = [dict(line) for line in lines]
    del forged[i]["then"]
    # Without its A♦ the play did not stop the run: what follows no longer replays.
    report = verify(resign(forged, SIGNER), key=SIGNER.public_hex)
    assert not report.verified and report.error.line >= i + 1
    lines = record(*RECORDS["michigan"])
    j = next(i for i, line in enumerate(lines) if line.get("move") == "bid")
    forged = [dict(line) for line in lines]
    forged[j]["amount"] = 11
    report = verify(resign(forged, SIGNER), key=SIGNER.public_hex)
    assert report.error.line == j + 1 and report.error.reason.endswith("a bid is at most 10 counters")


def test_the_text_and_json_reports_show_the_extra_hand_every_run_and_every_counter():
    played = play("report-michigan", 4, humans=1, rules="michigan", options={"deals": 2})
    report = verify(played.lines, key=SIGNER.public_hex)
    text = text_report(report)
    assert text.endswith("VERIFIED\n")
    assert "extra hand (dealt at the dealer's left): " in text and "dead hand: " in text
    assert "run 1: " in text and "left in hand: " in text and "counters left on the layout: A♥ " in text
    assert text.count("chips: stake: 1 from seat ") == 32
    data = json_report(report)
    assert '"layout":{"AH":' in data and '"runs":[[' in data and '"reason":"stake"' in data


@pytest.mark.parametrize("name", GAMES)
def test_fairdeal_simulate_plays_each_game(name, tmp_path):
    check_simulate(name, tmp_path)
