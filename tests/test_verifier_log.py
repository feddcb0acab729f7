"""fairdeal-verify --log's bad input: a message and exit code 2, never a traceback (the checks
themselves: tests/service/test_service_log.py and the live servers of tests/service/test_reliability.py)."""

from __future__ import annotations

import socket
from pathlib import Path

from click.testing import CliRunner
from helpers import VECTORS_DIR
from helpers import vectors

from fairdeal.record import Signer
from fairdeal.record import canonical
from fairdeal.record import parse_record
from fairdeal.record import resign
from verifier.cli import main

VECTORS = vectors("log.json")
RECORD = str(VECTORS_DIR / "record-example.jsonl")


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_bad_log_input_is_exit_2_with_a_reason(tmp_path):
    missing = run("--log", str(tmp_path / "nope.txt"), RECORD)
    assert missing.exit_code == 2 and "cannot read it (no such file)" in missing.output
    junk = tmp_path / "junk.txt"
    junk.write_text("not a checkpoint\n\n— x AAAA\n")
    bad = run("--log", str(junk), RECORD)
    assert bad.exit_code == 2 and "not a signed checkpoint" in bad.output
    refused = run("--log", f"http://127.0.0.1:{_closed_port()}", RECORD)
    assert refused.exit_code == 2 and "cannot reach it" in refused.output
    # The example's origin names a host, but a default origin does not: the server must be given.
    nameless = tmp_path / "cp.txt"
    nameless.write_text(VECTORS["checkpoint"].replace("localhost:8000/log", "fairdeal.invalid/log/00"))
    where = run("--log", str(nameless), RECORD)
    assert where.exit_code == 2 and "--log-server" in where.output
    usage = run("--log-server", "http://x", RECORD)
    assert usage.exit_code == 2 and "--log-server goes with --log" in usage.output
    assert "Traceback" not in "".join(r.output for r in (missing, bad, refused, where, usage))


def test_a_checkpoint_of_another_key_is_a_verdict_and_a_server_away_is_exit_2(tmp_path):
    saved = tmp_path / "cp.txt"
    saved.write_text(VECTORS["checkpoint"])
    server = f"http://127.0.0.1:{_closed_port()}"
    # The example checkpoint's key is not the record's: a verdict, exit 1.
    other_key = run("--log", str(saved), "--log-server", server, RECORD)
    assert other_key.exit_code == 1 and "LOG NOT VERIFIED: the checkpoint does not verify" in other_key.output
    # The record re-signed with the example's key: the checkpoint verifies, then the server is asked, and is away.
    signer = Signer.from_seed(bytes.fromhex(VECTORS["private_key_seed"]))
    record = tmp_path / "record.jsonl"
    lines = resign(parse_record(Path(RECORD).read_bytes()), signer)
    record.write_text("".join(canonical(line).decode() + "\n" for line in lines))
    away = run("--log", str(saved), "--log-server", server, str(record))
    assert away.exit_code == 2 and "cannot reach it" in away.output, away.output
