"""Checking records: a game's or a dealing session's, a player's receipts against one, and
whether a game is in the server's transparency log.

:func:`verify` reads a record and returns a :class:`Report`: a game's record is replayed
through its rules (:mod:`fairdeal.verification.replay`), a dealing session's is checked by
:mod:`fairdeal.verification.session`; :mod:`fairdeal.verification.receipts` holds a player's
receipts against a record and :mod:`fairdeal.verification.log` a record against the log.
They are in the core because the service (``GET /games/{id}/verify``), ``fairdeal audit`` and
:func:`fairdeal.verify` use them as ``fairdeal-verify`` (the :mod:`verifier` package, which
prints what they find) does; like it, they need no service code.

>>> from pathlib import Path
>>> example = Path(__file__).parents[2] / "spec" / "vectors" / "record-example.jsonl"
>>> report = verify(example.read_bytes())
>>> report.verdict, report.kind, len(report.hands)
('VERIFIED', 'game', 1)
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence
from typing import Any

from fairdeal.verification.replay import NOT_REVEALED
from fairdeal.verification.replay import Failure
from fairdeal.verification.replay import Hand
from fairdeal.verification.replay import Report
from fairdeal.verification.replay import Step
from fairdeal.verification.replay import read_record
from fairdeal.verification.replay import verify_game
from fairdeal.verification.session import verify_session

__all__ = ["verify", "Report", "Hand", "Failure", "Step", "NOT_REVEALED"]


def verify(
    lines: str | bytes | Sequence[dict[str, Any]],
    *,
    key: str | None = None,
    watch: Callable[[Step], None] | None = None,
) -> Report:
    """Check a whole record, a game's or a dealing session's; see the module docstring.
    ``lines`` is the record's text (each line must be canonical) or its parsed lines.

    ``key`` pins the server's published public key (64 hex digits) instead of
    trusting the header's. ``watch`` is called with a :class:`Step` for the
    start and every move of a game, as the replay goes.

    Raises :class:`~fairdeal.record.RecordError` for text that is not a fairdeal record at all.

    >>> verify([]).verdict
    'NOT VERIFIED: line 1: the record is empty'
    """
    lines, hashes, report, key = read_record(lines, key)
    if not lines:
        return report
    # Here, not in replay: the session's checks use the replay's, so replay cannot import them.
    if lines[0].get("type") == "header" and lines[0].get("kind") == "session":
        return verify_session(lines, hashes, report, key)
    return verify_game(lines, hashes, report, key, watch)
