"""fairdeal-verify: replays a fairdeal game record and checks every deal and score.

>>> from pathlib import Path
>>> from verifier import verify
>>> example = Path(__file__).parents[1] / "spec" / "vectors" / "record-example.jsonl"
>>> report = verify(example.read_bytes())
>>> report.verified, report.hands[0].scores, report.standings[0]
(True, (0, 11), Standing(seat=1, total=11, place=1))

The checks themselves are fairdeal's (:mod:`fairdeal.verification`: :func:`verify`, the
:class:`Report`, dealing sessions, receipts, the log), since the service and ``fairdeal audit``
run them too; this package imports them and never the other way round. Its modules:
:mod:`verifier.report` (the text and JSON reports, the move-by-move replay),
:mod:`verifier.cli` (the ``fairdeal-verify`` command), :mod:`verifier.browser` and
:mod:`verifier.replayer` (what the verify page and the hand replayer call in Pyodide);
:mod:`verifier.replay`, :mod:`verifier.session`, :mod:`verifier.receipts` and
:mod:`verifier.log` keep the old import paths working. It imports no service code:
cryptography, PyNaCl and click are all it needs.
"""

from fairdeal.verification import Failure
from fairdeal.verification import Hand
from fairdeal.verification import Report
from fairdeal.verification import verify
from fairdeal.verification.receipts import ReceiptCheck
from fairdeal.verification.receipts import check_receipts
from fairdeal.verification.receipts import read_receipts

__all__ = ["verify", "Report", "Hand", "Failure", "check_receipts", "read_receipts", "ReceiptCheck"]
