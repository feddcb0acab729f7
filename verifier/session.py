"""Moved to :mod:`fairdeal.verification.session`; these names stay importable from here."""

from fairdeal.verification.session import MAX_SESSION_SEATS
from fairdeal.verification.session import MAX_SHUFFLE_CARDS
from fairdeal.verification.session import verify_session

__all__ = ["verify_session", "MAX_SESSION_SEATS", "MAX_SHUFFLE_CARDS"]
