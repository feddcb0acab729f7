"""Moved to :mod:`fairdeal.verification` (``verify``) and :mod:`fairdeal.verification.replay`:
the service and ``fairdeal audit`` check records too, and fairdeal imports nothing of this package.
These names stay importable from here.
"""

from fairdeal.record import RecordError
from fairdeal.verification import verify
from fairdeal.verification.replay import NOT_REVEALED
from fairdeal.verification.replay import Failure
from fairdeal.verification.replay import Hand
from fairdeal.verification.replay import Report
from fairdeal.verification.replay import Step
from fairdeal.verification.replay import read_lines

__all__ = ["verify", "read_lines", "Report", "Hand", "Failure", "Step", "RecordError", "NOT_REVEALED"]
