"""The text report, byte for byte, of a fixed record (tests/golden/).

The record is a real 4-player game with fixed seeds and a fixed signing key
(test_verifier_support.play("honest-454", ...)): an eight turned back into
the stock, restocks, hands that went out and a blocked hand.

To regenerate after an intended change of the report (then read the diff!):

    FAIRDEAL_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/test_verifier_golden.py

which rewrites the record and the expected outputs in tests/golden/.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_verifier_support import play

from verifier.cli import main

GOLDEN = Path(__file__).parent / "golden"
RECORD = GOLDEN / "crazy-eights-4p.jsonl"
REGENERATE = os.environ.get("FAIRDEAL_REGEN_GOLDEN") == "1"


def _record() -> str:
    game = play("honest-454", 4, humans=2, options={"target": 100, "restock_limit": 2}, use_bots=False)
    return game.text


@pytest.fixture(scope="module")
def record() -> Path:
    if REGENERATE:
        GOLDEN.mkdir(exist_ok=True)
        RECORD.write_text(_record(), encoding="utf-8")
    return RECORD


def test_the_stored_record_is_the_one_the_engine_plays(record):
    """The golden record is still what the table writes for these seeds (or regenerate it)."""
    assert record.read_text(encoding="utf-8") == _record()


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ([], "crazy-eights-4p.txt"),
        (["--moves", "--hand", "3"], "crazy-eights-4p-moves-hand3.txt"),
    ],
    ids=["report", "moves-hand-3"],
)
def test_golden_output(record, args, expected):
    result = CliRunner().invoke(main, [str(record), *args])
    assert result.exit_code == 0, result.output
    path = GOLDEN / expected
    if REGENERATE:
        path.write_text(result.stdout, encoding="utf-8")
    assert result.stdout == path.read_text(encoding="utf-8")
    assert result.stdout.endswith("\nVERIFIED\n")
