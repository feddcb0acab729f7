"""The text report, byte for byte, of a fixed record (tests/golden/).

The record is a real 4-player game with fixed seeds and a fixed signing key
(test_verifier_support.play_golden("honest-454", ...)): an eight turned back into
the stock, restocks, hands that went out and a blocked hand.

To regenerate after an intended change of the report (then read the diff!):

    FAIRDEAL_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/test_verifier_golden.py

which rewrites the format 2 record and its expected outputs in tests/golden/ (the format 1
record and its outputs are kept as fairdeal wrote them: they must go on verifying as they are).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_verifier_support import play_golden

from fairdeal.record import parse_record
from verifier.cli import main

GOLDEN = Path(__file__).parent / "golden"
RECORD = GOLDEN / "crazy-eights-4p.jsonl"
"""Format 1 (no times), as fairdeal wrote it before format 2: kept as it is, and it still verifies."""
RECORD_2 = GOLDEN / "crazy-eights-4p-v2.jsonl"
"""The same game as format 2 writes it: a line every 250 ms, a 250 ms turn, auto-moves at their deadlines or later."""
REGENERATE = os.environ.get("FAIRDEAL_REGEN_GOLDEN") == "1"
CHAIN = ("seq", "prev", "sig", "at")


def _record() -> str:
    return play_golden("honest-454", 4, humans=2, options={"target": 100, "restock_limit": 2}).text


@pytest.fixture(scope="module")
def record() -> Path:
    if REGENERATE:
        GOLDEN.mkdir(exist_ok=True)
        RECORD_2.write_text(_record(), encoding="utf-8")
    return RECORD_2


def _events(lines):
    """The lines without their chain fields and times, the header without its format and timing."""
    events = [{k: v for k, v in line.items() if k not in CHAIN} for line in lines]
    for key in ("format", "timing"):
        events[0].pop(key, None)
    return events


def test_the_stored_record_is_the_one_the_engine_plays(record):
    """The golden record is still what the table writes for these seeds (or regenerate it), and
    the format 1 one is the same game, line for line, without the times."""
    assert record.read_text(encoding="utf-8") == _record()
    v1, v2 = parse_record(RECORD.read_text(encoding="utf-8")), parse_record(record.read_text(encoding="utf-8"))
    assert v1[0]["format"] == "fairdeal-record/1" and v2[0]["format"] == "fairdeal-record/2"
    assert _events(v1) == _events(v2)


@pytest.mark.parametrize(
    ("path", "args", "expected"),
    [
        (RECORD, [], "crazy-eights-4p.txt"),
        (RECORD, ["--moves", "--hand", "3"], "crazy-eights-4p-moves-hand3.txt"),
        (RECORD_2, [], "crazy-eights-4p-v2.txt"),
        (RECORD_2, ["--moves", "--hand", "3"], "crazy-eights-4p-v2-moves-hand3.txt"),
    ],
    ids=["report", "moves-hand-3", "report-v2", "moves-hand-3-v2"],
)
def test_golden_output(record, path, args, expected):
    result = CliRunner().invoke(main, [str(path), *args])
    assert result.exit_code == 0, result.output
    out = GOLDEN / expected
    if REGENERATE and path == RECORD_2:  # the format 1 outputs stay as they were
        out.write_text(result.stdout, encoding="utf-8")
    assert result.stdout == out.read_text(encoding="utf-8")
    assert result.stdout.endswith("\nVERIFIED\n")
