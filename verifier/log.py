"""Moved to :mod:`fairdeal.verification.log` (``fairdeal audit`` fetches through it too); these
names stay importable from here."""

from fairdeal.verification.log import LogCheck
from fairdeal.verification.log import LogUnavailable
from fairdeal.verification.log import check_log
from fairdeal.verification.log import read_checkpoint
from fairdeal.verification.log import server_of
from fairdeal.verification.log import url_fetch

__all__ = ["LogCheck", "LogUnavailable", "check_log", "read_checkpoint", "server_of", "url_fetch"]
