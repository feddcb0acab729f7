"""The ``fairdeal-verify`` command.

::

    fairdeal-verify RECORD... [--json] [--moves [--hand H]] [--receipts FILE] [--key HEX]
                    [--log CHECKPOINT_OR_URL [--log-server URL] [--witness VKEY]... [--quorum K]] [-j N]

Exit status: 0 when every record verifies; 1 when any does not (a corrupt,
tampered, or unfinished record is *not verified*, which is an answer, not
an error); 2 only when an input cannot be read or is not a fairdeal record
at all (and for wrong usage). It needs only click, cryptography and PyNaCl.

``-j N`` checks the records in ``N`` worker processes (``0`` or ``auto``: one
a CPU); what it prints, in which order and on which stream, and its exit
status are exactly those of ``-j 1``, which checks them in this process.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(main, ["no-such-file.jsonl"])
>>> result.exit_code, result.output.strip()
(2, 'fairdeal-verify: no-such-file.jsonl: cannot read it (no such file)')
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from fairdeal.cli_input import witness_options
from fairdeal.cosignature import WitnessKey
from fairdeal.cosignature import witness_policy
from fairdeal.record import RecordError
from fairdeal.record import parse_record
from fairdeal.tlog import LogError
from fairdeal.verification import verify
from fairdeal.verification.log import LogCheck
from fairdeal.verification.log import LogUnavailable
from fairdeal.verification.log import check_log
from fairdeal.verification.log import read_checkpoint
from fairdeal.verification.log import server_of
from fairdeal.verification.receipts import ReceiptCheck
from fairdeal.verification.receipts import check_receipts
from fairdeal.verification.receipts import read_receipts
from verifier.report import MovePrinter
from verifier.report import json_report
from verifier.report import safe
from verifier.report import text_report
from verifier.report import verdict

if TYPE_CHECKING:  # (for an annotation only: _in_workers imports the pool when it runs, and says why)
    from multiprocessing.context import BaseContext

__all__ = ["main"]

EXIT_VERIFIED, EXIT_NOT_VERIFIED, EXIT_UNREADABLE = 0, 1, 2


def _read(path: str) -> bytes:
    """The file's bytes; ``OSError`` becomes a one-line reason."""
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise RecordError("cannot read it (no such file)") from None
    except IsADirectoryError:
        raise RecordError("cannot read it (a directory)") from None
    except PermissionError:
        raise RecordError("cannot read it (permission denied)") from None
    except OSError as exc:
        raise RecordError(f"cannot read it ({exc.strerror or exc})") from None


def _unreadable(path: str, reason: object, warn: Callable[[str], None] | None = None) -> None:
    (warn or _stderr)(f"fairdeal-verify: {safe(path)}: {reason}")


def _stderr(text: str) -> None:
    click.echo(text, err=True)


def _jobs(ctx: click.Context, param: click.Parameter, value: str | None) -> int:
    """``-j``'s worker count: a whole number from 1, or ``0``/``auto`` for one a CPU."""
    if value is None:
        return 1
    text = value.strip().lower()
    if text in ("0", "auto"):
        return os.cpu_count() or 1
    if not text.isdigit() or not text.isascii():  # (isdigit alone takes any Unicode digit)
        raise click.BadParameter(f"{value!r} is not a number of processes (a whole number, or 0 or auto for one a CPU)")
    return int(text)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("records", nargs=-1, required=True, metavar="RECORD...")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per record, one per line.")
@click.option("--moves", is_flag=True, help="Replay move by move with every hand visible.")
@click.option("--hand", type=click.IntRange(min=1), metavar="H", help="With --moves: only hand H.")
@click.option(
    "--receipts", "receipts_file", metavar="FILE", help="A player's receipts (JSON Lines) to check against the records."
)
@click.option(
    "--key",
    metavar="HEX",
    help="The server's published public key (64 hex digits), instead of trusting the key in each record's header.",
)
@click.option(
    "--log",
    "log_source",
    metavar="CHECKPOINT_OR_URL",
    help="Check that each record's start (and end) is in the server's transparency log: a signed "
    "checkpoint file, or the server's URL (its base or /log/checkpoint). spec/log.md.",
)
@click.option(
    "--log-server",
    metavar="URL",
    help="With a checkpoint file: the server to ask for the proofs "
    "(default: https:// and the checkpoint's origin without its /log).",
)
@witness_options(needs="--log")
@click.option(
    "-j",
    "--jobs",
    "jobs",
    metavar="N",
    callback=_jobs,
    help="Check the records in N processes (0 or auto: one a CPU); the output is -j 1's.",
)
def main(
    records: Sequence[str],
    as_json: bool,
    moves: bool,
    hand: int | None,
    receipts_file: str | None,
    key: str | None,
    log_source: str | None = None,
    log_server: str | None = None,
    witnesses: Sequence[str] = (),
    quorum: int | None = None,
    jobs: int = 1,
) -> None:
    """Replay fairdeal game records and check every deal, move and score.

    With one RECORD, print its full report (every hand's deal, restocks and
    scores, the final standings) ending with VERIFIED or NOT VERIFIED: line
    N: <reason>. With several, print one verdict line for each and a summary.

    Exit status: 0 all verified, 1 some not verified, 2 an input that cannot
    be read or is not a fairdeal record.
    """
    if hand is not None and not moves:
        raise click.UsageError("--hand goes with --moves")
    if moves and as_json:
        raise click.UsageError("--moves prints text; leave out --json")
    if key is not None:
        key = key.strip().lower()
        if len(key) != 64 or any(c not in "0123456789abcdef" for c in key):
            raise click.BadParameter("a server key is 64 hex digits (the raw Ed25519 public key)", param_hint="--key")
    if log_server is not None and log_source is None:
        raise click.UsageError("--log-server goes with --log")
    if witnesses and log_source is None:
        raise click.UsageError("--witness goes with --log")
    try:
        witness_keys = witness_policy(witnesses, quorum)
    except LogError as exc:
        raise click.UsageError(str(exc)) from None
    log: tuple[str, str] | None = None
    if log_source is not None:
        try:
            note, server = read_checkpoint(log_source, read=_read_checkpoint)
            log = (note, log_server or server or server_of(note.split("\n", 1)[0]))
        except (LogUnavailable, ValueError) as exc:
            _unreadable(log_source, exc)
            sys.exit(EXIT_UNREADABLE)
    receipts = None
    if receipts_file is not None:
        try:
            receipts = read_receipts(_read(receipts_file))
        except RecordError as exc:
            _unreadable(receipts_file, exc)
            sys.exit(EXIT_UNREADABLE)

    several = len(records) > 1
    job = _Job(key, receipts, as_json, moves, hand, several, log, witness_keys, quorum)
    counts = {"verified": 0, "not verified": 0, "unreadable": 0}
    show_progress = several and not moves and _is_terminal(sys.stderr)
    # Under a progress bar, verdicts wait for the bar to finish, so the two never interleave.
    held: list[str] = []
    emit = held.append if show_progress else click.echo
    workers = min(jobs, len(records))
    if workers > 1:
        outcomes = _in_workers(records, job, workers, emit)
    else:
        outcomes = (_one(path, job, emit, _stderr) for path in records)
    if show_progress:
        with click.progressbar(outcomes, length=len(records), label="verifying", file=sys.stderr) as bar:
            for outcome in bar:
                counts[outcome] += 1
        for line in held:
            click.echo(line)
    else:
        for outcome in outcomes:
            counts[outcome] += 1
    if several:
        summary = f"{len(records)} records: {counts['verified']} verified, {counts['not verified']} not verified"
        if counts["unreadable"]:
            summary += f", {counts['unreadable']} unreadable"
        click.echo(summary, err=as_json)
    if counts["unreadable"]:
        sys.exit(EXIT_UNREADABLE)
    sys.exit(EXIT_NOT_VERIFIED if counts["not verified"] else EXIT_VERIFIED)


@dataclass(frozen=True)
class _Job:
    """What every record's check needs besides its file: the options, read once (and pickled
    once for each worker process of ``-j``)."""

    key: str | None
    receipts: list[dict[str, object]] | None
    as_json: bool
    moves: bool
    hand: int | None
    several: bool
    log: tuple[str, str] | None
    witnesses: tuple[WitnessKey, ...] = ()
    quorum: int | None = None


def _in_workers(
    records: Sequence[str], job: _Job, workers: int, emit: Callable[[str], None], context: BaseContext | None = None
) -> Iterator[str]:
    """Each record's outcome, in the order given, checked in ``workers`` processes; each one's
    lines are printed as ``-j 1`` prints them, stdout's to ``emit``, stderr's at once.

    The pool is imported here, not at the top: the verify page (Pyodide, which cannot start
    processes) bundles this package. The worker is a module-level function given only
    picklable arguments, so it works under the spawn and forkserver start methods too
    (``context``, a :mod:`multiprocessing` context; default the platform's).
    """
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    # Chunks amortise the pipe's cost (some 0.1 ms a task) over records that take milliseconds
    # each, yet stay small (eight a worker at least, eight records at most) so that at the end
    # no process waits long on another's last chunk.
    chunk = max(1, min(8, len(records) // (8 * workers)))
    try:
        with ProcessPoolExecutor(workers, context, _start_worker, (job,)) as pool:
            for outcome, output in pool.map(_work, records, chunksize=chunk):
                for to_stderr, text in output:
                    (_stderr if to_stderr else emit)(text)
                yield outcome
    except BrokenProcessPool:
        click.echo("fairdeal-verify: a worker process ended unexpectedly (out of memory?); try -j 1", err=True)
        sys.exit(EXIT_UNREADABLE)


_JOB: _Job | None = None
"""A worker process's job (set by :func:`_start_worker`)."""


def _start_worker(job: _Job) -> None:
    global _JOB
    _JOB = job


def _work(path: str) -> tuple[str, list[tuple[bool, str]]]:
    """One record checked in a worker: its outcome and what it prints, in order, each line with
    whether it goes to stderr."""
    assert _JOB is not None
    output: list[tuple[bool, str]] = []
    outcome = _one(path, _JOB, lambda text: output.append((False, text)), lambda text: output.append((True, text)))
    return outcome, output


def _one(path: str, job: _Job, emit: Callable[[str], None], warn: Callable[[str], None]) -> str:
    """Verify one record and print what the options ask for (with ``job.log``, the checkpoint
    note and the server of ``--log``: the record's entries in the log too): stdout's lines to
    ``emit``, stderr's to ``warn``. Returns ``"verified"``, ``"not verified"`` or ``"unreadable"``."""
    key, receipts, as_json, moves, hand, several, log = (
        job.key,
        job.receipts,
        job.as_json,
        job.moves,
        job.hand,
        job.several,
        job.log,
    )
    try:
        data = _read(path)
        if moves:
            if several:
                emit(f"== {safe(path)}")
            report = verify(data, key=key, watch=MovePrinter(emit, hand))
        else:
            report = verify(data, key=key)
    except RecordError as exc:
        _unreadable(path, exc, warn)
        return "unreadable"
    logged: LogCheck | None = None
    if log is not None:
        try:
            logged = check_log(parse_record(data), log[0], log[1], key=key, witnesses=job.witnesses, quorum=job.quorum)
        except (LogUnavailable, RecordError) as exc:
            _unreadable(path, exc, warn)
            return "unreadable"
    checks: list[ReceiptCheck] | None = None
    if receipts is not None:
        checks = check_receipts(report, receipts)
    outcome = "verified" if report.verified and (logged is None or logged.verified) else "not verified"
    if as_json:
        answer = json_report(report, file=path, receipts=checks)
        if logged is not None:
            import json

            answer = json.dumps({**json.loads(answer), "log": logged.to_json()}, separators=(",", ":"))
        emit(answer)
    elif moves:
        for check in checks or ():
            emit(str(check))
        emit(verdict(report))
    elif several:
        emit(f"{safe(path)}: {verdict(report)}")
        for check in checks or ():
            if check.status != "ok":
                emit(f"  {check}")
    else:
        emit(text_report(report, checks or ()).rstrip("\n"))
    if logged is not None and not as_json:  # after the record's verdict: the log's is its own
        emit(f"{safe(path)}: {safe(str(logged))}" if several else safe(str(logged)))
    return outcome


def _read_checkpoint(path: str) -> bytes:
    try:
        return _read(path)
    except RecordError as exc:
        raise LogUnavailable(str(exc)) from None


def _is_terminal(stream: object) -> bool:
    try:
        return bool(stream.isatty()) and os.environ.get("TERM") != "dumb"  # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        return False


if __name__ == "__main__":
    main()
