"""A player's receipts against a record: proof when the server rewrote its record.

Each action a player makes is answered with a receipt, ``{"game_id", "seq",
"hash", "sig"}`` and, in format 2, ``"at"`` (the line's time, which the hash
covers): the server's Ed25519 signature of the chain head at that line
(spec/record.md). A record can later be rewritten and re-signed as a
whole, and still verify on its own; but a receipt with a valid signature
whose hash is not the record's line at that ``seq`` shows that the server
signed two different histories of one game. That is a PROOF OF A REWRITE.

>>> from fairdeal.record import Signer
>>> from fairdeal.rules import DEFAULT, get
>>> from fairdeal.table import Seat, Table, client_commitment
>>> from fairdeal.verification import verify
>>> table = Table.new("r1", get(DEFAULT, {"target": 20}), [Seat("Ann"), Seat("Bot", bot=True)],
...                   Signer.from_seed(bytes(32)), created="2026-01-01T00:00:00Z", server_seed="11" * 32)
>>> receipts = [table.commit(0, client_commitment("ann")), table.reveal_client_seed(0, "ann")]
>>> while not table.match.over:
...     _ = table.move(table.match.turn, table.match.auto_move(), auto=True)
>>> _ = table.reveal()
>>> report = verify(table.writer.text())
>>> [check.status for check in check_receipts(report, receipts)]
['ok', 'ok']
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fairdeal.record import read_json_lines
from fairdeal.record import verify_head
from fairdeal.verification.replay import Report

__all__ = ["ReceiptCheck", "check_receipts", "read_receipts"]

_HEX64 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True, slots=True)
class ReceiptCheck:
    """What one receipt shows about a record.

    ``status`` is ``"ok"`` (the record holds the line the receipt vouches
    for), ``"rewrite"`` (a valid receipt the record contradicts: proof of a
    rewrite), ``"invalid"`` (not a receipt the server signed: it proves
    nothing), or ``"unchecked"`` (the record is unreadable at that line).
    """

    number: int
    """The receipt's 1-based position in the receipts file."""
    seq: Any
    status: str
    reason: str

    @property
    def rewrite(self) -> bool:
        return self.status == "rewrite"

    def __str__(self) -> str:
        label = {
            "ok": "ok",
            "rewrite": "PROOF OF A REWRITE",
            "invalid": "not a valid receipt",
            "unchecked": "cannot be checked",
        }[self.status]
        return f"receipt {self.number} (seq {self.seq}): {label}: {self.reason}"

    def to_json(self) -> dict[str, Any]:
        return {"receipt": self.number, "seq": self.seq, "status": self.status, "reason": self.reason}


def read_receipts(data: str | bytes) -> list[dict[str, Any]]:
    """Receipts from JSON Lines (blank lines skipped); :class:`~fairdeal.record.RecordError` if unreadable."""
    return read_json_lines(data, "receipts")


def check_receipts(report: Report, receipts: Iterable[dict[str, Any]]) -> list[ReceiptCheck]:
    """Check the receipts of ``report``'s game (others are skipped) against its record.

    A proof of a rewrite also makes the report NOT VERIFIED, at the line the receipt names.
    """
    checks = []
    for number, receipt in enumerate(receipts, 1):
        if receipt.get("game_id") != report.game_id:
            continue
        check = _check(number, receipt, report)
        checks.append(check)
        if check.rewrite:
            seq = check.seq
            report.fail(seq + 1, f"PROOF OF A REWRITE: {check.reason}")
    return checks


def _check(number: int, receipt: dict[str, Any], report: Report) -> ReceiptCheck:
    seq, digest, sig = receipt.get("seq"), receipt.get("hash"), receipt.get("sig")
    # (A seq is signed as a u64: one beyond it is no line the server could have signed.)
    if type(seq) is not int or not 0 <= seq < 2**64 or not isinstance(digest, str) or not _HEX64.fullmatch(digest):
        return ReceiptCheck(number, seq, "invalid", "a receipt has a seq (a line number from 0) and a 64-digit hash")
    if (
        report.server_key is None
        or report.game_id is None  # (never, with a server key: the header gives the game id first)
        or not isinstance(sig, str)
        or not verify_head(report.server_key, report.game_id, seq, digest, sig)
    ):
        return ReceiptCheck(number, seq, "invalid", "its signature is not the server's (it proves nothing)")
    line = seq + 1
    record: Sequence[dict[str, Any]] = report.record
    if seq >= len(record):
        if report.unread_from is not None and line >= report.unread_from:
            return ReceiptCheck(
                number,
                seq,
                "unchecked",
                f"the record cannot be read from line {report.unread_from}, so line {line} is unknown",
            )
        return ReceiptCheck(
            number,
            seq,
            "rewrite",
            f"the server signed line {line} (seq {seq}), which the record does not have "
            f"(it ends at line {len(record)})",
        )
    actual = report.line_hash(seq)
    at, recorded = receipt.get("at"), record[seq].get("at")
    if actual != digest:
        # A receipt's time is the line's, which the hash covers: shown so that a player can say
        # when the server wrote the line it signed (an auto-move's turn began then, say).
        when = f" (written at {at})" if isinstance(at, str) and "at" in receipt else ""
        return ReceiptCheck(
            number,
            seq,
            "rewrite",
            f"the server signed line {line} (seq {seq}) as hash {digest[:16]}...{when}, "
            f"but the record's line {line} hashes to {actual[:16]}..."
            + (f" (at {recorded})" if isinstance(recorded, str) else ""),
        )
    if "at" in receipt and at != recorded:
        # The signature holds for the line's hash, and that line says another time: this
        # receipt's at is not what the server signed (changed since, or a server that lied).
        return ReceiptCheck(
            number,
            seq,
            "invalid",
            f"its at {at!r} is not the time of the line it signs: the record's line {line} "
            f"(whose hash the signature holds) was written at {recorded!r}",
        )
    return ReceiptCheck(
        number,
        seq,
        "ok",
        f"the record holds the line {line} the server signed"
        + (f", written at {recorded}" if isinstance(recorded, str) else ""),
    )
