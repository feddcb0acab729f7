"""``fairdeal-verify -j N``: the records checked in N processes print exactly what ``-j 1`` prints."""

from __future__ import annotations

import multiprocessing
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_verifier_support import write_records

from fairdeal.record import Signer
from verifier.cli import _in_workers
from verifier.cli import _Job
from verifier.cli import main

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def mix(tmp_path_factory) -> tuple[Path, list[str]]:
    """Good, tampered, unfinished and unreadable files, in an order that mixes them (small games)."""
    d = tmp_path_factory.mktemp("jobs")
    write_records(d, ("jobs-1", "jobs-2"), (30, 20))
    (d / "folder.jsonl").mkdir()
    names = ["good", "scores", "missing", "other", "notes", "unfinished", "binary", "folder", "good", "other"]
    return d, [str(d / f"{name}.jsonl") for name in names]


def run(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args])


def same(jobs: str, *args: object):
    """``-j jobs`` and ``-j 1`` give the same stdout, stderr, their interleaving and exit status."""
    one, many = run("-j", "1", *args), run("-j", jobs, *args)
    assert (many.stdout, many.stderr, many.output, many.exit_code) == (
        one.stdout,
        one.stderr,
        one.output,
        one.exit_code,
    )
    assert one.exception is None or isinstance(one.exception, SystemExit)
    return one


@pytest.mark.parametrize(
    "options",
    [[], ["--json"], ["--moves", "--hand", "1"], ["--receipts", "receipts.jsonl", "--key", "other"]],
    ids=["text", "json", "moves", "receipts-key"],
)
def test_two_processes_print_what_one_prints(mix, options):
    d, paths = mix
    options = [
        str(d / o) if o.endswith(".jsonl") else Signer.from_seed(bytes(32)).public_hex if o == "other" else o
        for o in options
    ]
    result = same("2", *options, *paths)
    assert result.exit_code == 2  # unreadable inputs among them
    summary = (
        "10 records: 4 verified, 2 not verified, 4 unreadable"
        if "--key" not in options
        else ("10 records: 0 verified, 6 not verified, 4 unreadable")
    )
    if "--receipts" not in options:
        assert (result.stderr if "--json" in options else result.stdout).splitlines()[-1] == summary
    assert result.stderr.count("fairdeal-verify: ") == 4


def test_the_exit_status_without_unreadable_files(mix):
    d, paths = mix
    good, scores, _, other = paths[:4]
    assert same("2", good, other, good).exit_code == 0
    assert same("auto", good, scores, other).exit_code == 1
    assert same("3", scores).exit_code == 1  # more processes than records; one record: in this process


def test_a_number_of_processes_is_a_whole_number(mix):
    _, paths = mix
    for bad in ("-1", "two", "1.5", "٢"):
        result = run("-j", bad, paths[0])
        assert result.exit_code == 2
        assert "is not a number of processes" in result.stderr


def test_the_command_itself_with_two_processes(mix):
    """Real processes and pipes: python -m verifier.cli -j 2 against -j 1."""
    _, paths = mix
    one, two = (
        subprocess.run(
            [sys.executable, "-m", "verifier.cli", "-j", jobs, *paths], cwd=ROOT, capture_output=True, text=True
        )
        for jobs in ("1", "2")
    )
    assert (two.stdout, two.stderr, two.returncode) == (one.stdout, one.stderr, one.returncode)
    assert one.returncode == 2 and one.stdout.count(": VERIFIED") == 4


def test_workers_started_by_spawn(mix):
    """The worker needs nothing of the parent's memory: the spawn start method (macOS's and
    Windows' default, forkserver's like) gives the same lines."""
    _, paths = mix
    job = _Job(None, None, False, False, None, True, None)
    out: list[str] = []
    outcomes = list(_in_workers(paths[:4], job, 2, out.append, multiprocessing.get_context("spawn")))
    assert outcomes == ["verified", "not verified", "unreadable", "verified"]
    assert [line.split(": ", 1)[1][:12] for line in out] == ["VERIFIED", "NOT VERIFIED", "VERIFIED"]
