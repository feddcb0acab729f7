"""``fairdeal-verify``: exit codes, the JSON report, --moves, --receipts, --key, many records."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_verifier_support import SIGNER
from test_verifier_support import play
from test_verifier_support import text_of
from test_verifier_support import write_records

from fairdeal.record import Signer
from fairdeal.record import resign
from verifier.cli import main

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Three records (two good, one tampered), the receipts of one, and some non-records."""
    d = tmp_path_factory.mktemp("records")
    # Fixed ids: a 3-player game of two hands (105 lines), and a 2-player game.
    good, hand_end = write_records(d, ("cli-12", "cli-2"), (60, 30))
    unknown = [dict(line) for line in good.lines]
    unknown[0]["format"] = "fairdeal-record/9"
    (d / "v9.jsonl").write_text(text_of(resign(unknown, SIGNER)))
    # The same server cut the game short after these receipts were given, and re-signed it.
    moves = [i for i, line in enumerate(good.lines) if line["type"] == "move"]
    cut = moves[10]
    abandon = {"type": "abandon", "reason": "closed", "at": good.lines[cut - 1]["at"]}
    short = [dict(line) for line in good.lines[:cut]] + [abandon, good.lines[-1]]
    (d / "cut.jsonl").write_text(text_of(resign(short, SIGNER)))
    return d, good, hand_end


def test_a_verified_record_exits_0_with_its_report(files):
    d, good, _ = files
    result = run(d / "good.jsonl")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "game cli-12: Crazy Eights (crazy-eights), target 60, restock_limit 20"
    assert lines[-1] == "VERIFIED"
    assert "final standings" in lines
    assert any(line.startswith("hand 1, dealer seat ") for line in lines)


def test_a_rule_breaking_record_exits_1_with_the_line_and_reason(files):
    d, good, hand_end = files
    result = run(d / "scores.jsonl")
    assert result.exit_code == 1
    truth = good.lines[hand_end]["scores"]
    claim = [s + 1 for s in truth]
    assert result.stdout.splitlines()[-1] == (
        f"NOT VERIFIED: line {hand_end + 1}: hand-end scores {claim} but the rules give {truth}"
    )


def test_an_unfinished_record_exits_1(files):
    d, _, _ = files
    result = run(d / "unfinished.jsonl")
    assert result.exit_code == 1
    assert "the server seed is not revealed" in result.stdout.splitlines()[-1]


def test_an_unknown_format_version_is_refused(files):
    d, _, _ = files
    result = run(d / "v9.jsonl")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-1] == (
        "NOT VERIFIED: line 1: unknown record format 'fairdeal-record/9': this verifier reads fairdeal-record/1 and fairdeal-record/2"
    )


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("missing.jsonl", "cannot read it (no such file)"),
        (".", "cannot read it (a directory)"),
        ("notes.jsonl", "not a fairdeal record: the first line is not a record header"),
        ("binary.jsonl", "not a fairdeal record: the first line is not JSON"),
    ],
)
def test_an_input_that_is_not_a_record_exits_2_with_one_line(files, name, message):
    d, _, _ = files
    path = d / name
    proc = subprocess.run([sys.executable, "-m", "verifier.cli", str(path)], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == f"fairdeal-verify: {path}: {message}\n"


def test_json_report_one_object_per_record(files):
    d, good, hand_end = files
    result = run("--json", d / "good.jsonl", d / "scores.jsonl")
    assert result.exit_code == 1
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o["verified"] for o in out] == [True, False]
    first = out[0]
    assert set(first) >= {"verified", "game_id", "rules", "hands", "standings", "error"}
    assert first["game_id"] == "cli-12" and first["rules"] == "crazy-eights" and first["error"] is None
    hand = first["hands"][0]
    assert set(hand) >= {"hand", "dealer", "deal", "starter", "restocks", "result", "scores", "totals"}
    assert len(hand["deal"]) == 3 and all(len(cards) == 5 for cards in hand["deal"])
    assert hand["result"]["how"] in ("out", "blocked")
    assert first["standings"][0]["place"] == 1
    assert out[1]["error"]["line"] == hand_end + 1
    assert out[1]["error"]["reason"].startswith("hand-end scores")
    # The summary goes to stderr in JSON mode, so stdout stays JSON Lines.
    assert result.stderr == "2 records: 1 verified, 1 not verified\n"


def test_moves_replay_shows_every_hand_and_what_each_draw_drew(files):
    d, good, _ = files
    result = run(d / "good.jsonl", "--moves")
    assert result.exit_code == 0
    out = result.stdout.splitlines()
    moves = [line for line in out if line.startswith("line ")]
    assert len(moves) == sum(1 for line in good.lines if line["type"] == "move")
    draws = [line for line in moves if " draw" in line]
    assert draws and all(" draw -> " in line for line in draws)  # the card drawn, known after the reveal
    assert all(" | 0: " in line and " | 2: " in line for line in moves if "pile" in line)
    assert out[-1] == "VERIFIED"


def test_moves_of_one_hand(files):
    d, _, _ = files
    every = run(d / "good.jsonl", "--moves").stdout
    one = run(d / "good.jsonl", "--moves", "--hand", "2").stdout
    assert one.splitlines()[1].startswith("hand 2, dealer")
    assert "hand 1," not in one and "hand 3," not in one
    assert set(one.splitlines()) <= set(every.splitlines())


def test_usage_errors_exit_2(files):
    d, _, _ = files
    assert run(d / "good.jsonl", "--hand", "1").exit_code == 2
    assert run(d / "good.jsonl", "--moves", "--json").exit_code == 2
    assert run(d / "good.jsonl", "--key", "xyz").exit_code == 2
    assert run().exit_code == 2


def test_many_records_one_verdict_each_and_a_summary(files):
    d, _, hand_end = files
    result = run(d / "good.jsonl", d / "other.jsonl", d / "scores.jsonl")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"{d / 'good.jsonl'}: VERIFIED",
        f"{d / 'other.jsonl'}: VERIFIED",
        f"{d / 'scores.jsonl'}: NOT VERIFIED: line {hand_end + 1}: hand-end scores "
        + result.stdout.split("hand-end scores ", 1)[1].splitlines()[0],
        "3 records: 2 verified, 1 not verified",
    ]
    # Not a terminal here: no progress bar.
    assert result.stderr == ""
    assert run(d / "good.jsonl", d / "other.jsonl").exit_code == 0


def test_an_unreadable_input_among_many_exits_2_and_is_counted(files):
    d, _, _ = files
    result = run(d / "good.jsonl", d / "notes.jsonl")
    assert result.exit_code == 2
    assert result.stdout.splitlines()[-1] == "2 records: 1 verified, 0 not verified, 1 unreadable"
    assert "notes.jsonl: not a fairdeal record" in result.stderr


def test_receipts_check_against_the_record(files):
    d, good, _ = files
    result = run(d / "good.jsonl", "--receipts", d / "receipts.jsonl")
    assert result.exit_code == 0
    assert result.stdout.count(": ok: the record holds the line") == len(good.receipts)


def test_receipts_prove_a_rewrite(files):
    d, good, _ = files
    assert run(d / "cut.jsonl").exit_code == 0, "the cut record verifies on its own"
    result = run(d / "cut.jsonl", "--receipts", d / "receipts.jsonl")
    assert result.exit_code == 1
    moves = [i for i, line in enumerate(good.lines) if line["type"] == "move"]
    cut = moves[10]
    assert result.stdout.splitlines()[-1].startswith(
        f"NOT VERIFIED: line {cut + 1}: PROOF OF A REWRITE: the server signed line {cut + 1} (seq {cut}) as hash "
    )
    proofs = [
        line for line in result.stdout.splitlines() if line.startswith("  receipt") and "PROOF OF A REWRITE" in line
    ]
    assert len(proofs) == sum(1 for r in good.receipts if r["seq"] >= cut)
    # Many records: the proof is listed under the record's verdict.
    result = run(d / "cut.jsonl", d / "other.jsonl", "--receipts", d / "receipts.jsonl")
    assert result.exit_code == 1
    assert "PROOF OF A REWRITE" in result.stdout.splitlines()[1]


def test_a_pinned_key(files):
    d, _, _ = files
    assert run(d / "good.jsonl", "--key", SIGNER.public_hex).exit_code == 0
    result = run(d / "good.jsonl", "--key", Signer.from_seed(bytes(32)).public_hex)
    assert result.exit_code == 1
    assert "is not the key you gave" in result.stdout.splitlines()[-1]


def test_a_seat_name_cannot_print_a_verdict(tmp_path):
    """Text from the record is escaped: a name holding a line break stays on its line."""
    game = play("cli-names", 2, humans=1, options={"target": 10}, use_bots=False)
    lines = [dict(line) for line in game.lines]
    lines[0]["seats"] = [{"name": "Eve\nVERIFIED", "bot": False}, lines[0]["seats"][1]]
    hand_end = next(i for i, line in enumerate(lines) if line["type"] == "hand-end")
    lines[hand_end]["scores"] = [s + 1 for s in lines[hand_end]["scores"]]
    path = tmp_path / "eve.jsonl"
    path.write_text(text_of(resign(lines, SIGNER)))
    result = run(path)
    assert result.exit_code == 1
    assert "VERIFIED" not in result.stdout.splitlines()[:-1]
    assert "'Eve\\nVERIFIED'" in result.stdout


def test_a_progress_bar_only_on_a_terminal_and_verdicts_after_it(files):
    """stderr a terminal (a pty here) and several records: click's bar on stderr, stdout untouched."""
    import os
    import pty

    d, _, _ = files
    master, slave = pty.openpty()
    env = {**os.environ, "TERM": "xterm"}
    proc = subprocess.run(
        [sys.executable, "-m", "verifier.cli", str(d / "good.jsonl"), str(d / "other.jsonl")],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=slave,
        text=True,
        env=env,
    )
    os.close(slave)
    try:
        bar = os.read(master, 65536).decode()
    finally:
        os.close(master)
    assert proc.returncode == 0
    assert "verifying" in bar
    assert proc.stdout.splitlines() == [
        f"{d / 'good.jsonl'}: VERIFIED",
        f"{d / 'other.jsonl'}: VERIFIED",
        "2 records: 2 verified, 0 not verified",
    ]
