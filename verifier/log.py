"""Moved to :mod:`fairdeal.verification.log` (``fairdeal audit`` fetches through it too); these
names stay importable from here."""

from fairdeal.verification.log import LogCheck, LogUnavailable, check_log, read_checkpoint, server_of, url_fetch

__all__ = ["LogCheck", "LogUnavailable", "check_log", "read_checkpoint", "server_of", "url_fetch"]
