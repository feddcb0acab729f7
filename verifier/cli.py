"""The ``fairdeal-verify`` command.

::

    fairdeal-verify RECORD... [--json] [--moves [--hand H]] [--receipts FILE] [--key HEX]

Exit status: 0 when every record verifies; 1 when any does not (a corrupt,
tampered, or unfinished record is *not verified*, which is an answer, not
an error); 2 only when an input cannot be read or is not a fairdeal record
at all (and for wrong usage). It needs only click and cryptography.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(main, ["no-such-file.jsonl"])
>>> result.exit_code, result.output.strip()
(2, 'fairdeal-verify: no-such-file.jsonl: cannot read it (no such file)')
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import click

from fairdeal.record import RecordError
from verifier.receipts import ReceiptCheck, check_receipts, read_receipts
from verifier.replay import verify
from verifier.report import MovePrinter, json_report, safe, text_report, verdict

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


def _unreadable(path: str, reason: object) -> None:
    click.echo(f"fairdeal-verify: {safe(path)}: {reason}", err=True)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("records", nargs=-1, required=True, metavar="RECORD...")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per record, one per line.")
@click.option("--moves", is_flag=True, help="Replay move by move with every hand visible.")
@click.option("--hand", type=click.IntRange(min=1), metavar="H", help="With --moves: only hand H.")
@click.option("--receipts", "receipts_file", metavar="FILE",
              help="A player's receipts (JSON Lines) to check against the records.")
@click.option("--key", metavar="HEX", help="The server's published public key (64 hex digits), "
              "instead of trusting the key in each record's header.")
def main(
    records: Sequence[str],
    as_json: bool,
    moves: bool,
    hand: int | None,
    receipts_file: str | None,
    key: str | None,
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
    receipts = None
    if receipts_file is not None:
        try:
            receipts = read_receipts(_read(receipts_file))
        except RecordError as exc:
            _unreadable(receipts_file, exc)
            sys.exit(EXIT_UNREADABLE)

    several = len(records) > 1
    counts = {"verified": 0, "not verified": 0, "unreadable": 0}
    show_progress = several and not moves and _is_terminal(sys.stderr)
    # Under a progress bar, verdicts wait for the bar to finish, so the two never interleave.
    held: list[str] = []
    emit = held.append if show_progress else click.echo
    if show_progress:
        with click.progressbar(records, label="verifying", file=sys.stderr) as bar:
            for path in bar:
                _one(path, key, receipts, as_json, moves, hand, several, emit, counts)
        for line in held:
            click.echo(line)
    else:
        for path in records:
            _one(path, key, receipts, as_json, moves, hand, several, emit, counts)
    if several:
        summary = f"{len(records)} records: {counts['verified']} verified, {counts['not verified']} not verified"
        if counts["unreadable"]:
            summary += f", {counts['unreadable']} unreadable"
        click.echo(summary, err=as_json)
    if counts["unreadable"]:
        sys.exit(EXIT_UNREADABLE)
    sys.exit(EXIT_NOT_VERIFIED if counts["not verified"] else EXIT_VERIFIED)


def _one(
    path: str,
    key: str | None,
    receipts: list[dict[str, object]] | None,
    as_json: bool,
    moves: bool,
    hand: int | None,
    several: bool,
    emit: Callable[[str], None],
    counts: dict[str, int],
) -> None:
    """Verify one record and print what the options ask for."""
    try:
        data = _read(path)
        if moves:
            if several:
                emit(f"== {safe(path)}")
            report = verify(data, key=key, watch=MovePrinter(emit, hand))
        else:
            report = verify(data, key=key)
    except RecordError as exc:
        counts["unreadable"] += 1
        _unreadable(path, exc)
        return
    checks: list[ReceiptCheck] | None = None
    if receipts is not None:
        checks = check_receipts(report, receipts)
    counts["verified" if report.verified else "not verified"] += 1
    if as_json:
        emit(json_report(report, file=path, receipts=checks))
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


def _is_terminal(stream: object) -> bool:
    try:
        return bool(stream.isatty()) and os.environ.get("TERM") != "dumb"  # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        return False


if __name__ == "__main__":
    main()
