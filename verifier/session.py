"""Moved to :mod:`fairdeal.verification.session`; these names stay importable from here."""

from fairdeal.verification.session import MAX_SESSION_SEATS, MAX_SHUFFLE_CARDS, verify_session

__all__ = ["verify_session", "MAX_SESSION_SEATS", "MAX_SHUFFLE_CARDS"]
