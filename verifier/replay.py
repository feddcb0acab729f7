"""Moved to :mod:`fairdeal.verification` (``verify``) and :mod:`fairdeal.verification.replay`:
the service and ``fairdeal audit`` check records too, and fairdeal imports nothing of this package.
These names stay importable from here.
"""

from fairdeal.record import RecordError
from fairdeal.verification import verify
from fairdeal.verification.replay import NOT_REVEALED, Failure, Hand, Report, Step, read_lines

__all__ = ["verify", "read_lines", "Report", "Hand", "Failure", "Step", "RecordError", "NOT_REVEALED"]
