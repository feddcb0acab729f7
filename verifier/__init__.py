"""fairdeal-verify: replays a fairdeal game record and checks every deal and score.

>>> from pathlib import Path
>>> from verifier import verify
>>> example = Path(__file__).parents[1] / "spec" / "vectors" / "record-example.jsonl"
>>> report = verify(example.read_bytes())
>>> report.verified, report.hands[0].scores, report.standings[0]
(True, (0, 11), Standing(seat=1, total=11, place=1))

The modules: :mod:`verifier.replay` (:func:`verify`, the :class:`Report`),
:mod:`verifier.session` (dealing-session records), :mod:`verifier.receipts`
(a player's receipts against a record), :mod:`verifier.report` (the text
and JSON reports, the move-by-move replay), :mod:`verifier.cli` (the
``fairdeal-verify`` command). It imports no service code: cryptography and
click are all it needs.
"""

from verifier.receipts import ReceiptCheck, check_receipts, read_receipts
from verifier.replay import Failure, Hand, Report, verify

__all__ = ["verify", "Report", "Hand", "Failure", "check_receipts", "read_receipts", "ReceiptCheck"]
