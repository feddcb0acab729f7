"""What the service answers when it refuses a request: one exception per HTTP status.

Every message says what was wrong in words a client can act on, and never
holds a secret (a token, a seed before its reveal).

>>> error = Stale("the record is at seq 12, not 10")
>>> error.status, str(error)
(409, 'the record is at seq 12, not 10')
"""

from __future__ import annotations

import re

__all__ = [
    "LONG_HEX",
    "ServiceError",
    "Unauthorized",
    "Forbidden",
    "NotFound",
    "Stale",
    "Rejected",
    "TooMany",
    "Unavailable",
]

LONG_HEX = re.compile(r"[0-9a-fA-F]{32,}")
"""Any long hex in a log line is hidden (``LONG_HEX.sub("<hex hidden>", text)``): a traceback or a
database's error can quote a value, and a seed is one before its reveal."""


class ServiceError(ValueError):
    """A request the service refuses; ``status`` is its HTTP status code."""

    status = 400
    retry_after: float | None = None
    """Seconds after which the same request may be answered otherwise (a ``Retry-After`` header)."""

    def __init__(self, detail: str, *, retry_after: float | None = None) -> None:
        self.detail = detail
        if retry_after is not None:
            self.retry_after = retry_after
        super().__init__(detail)


class Unauthorized(ServiceError):
    """No token, or a token that belongs to nobody at this game."""

    status = 401


class Forbidden(ServiceError):
    """A valid token for someone who may not do this (another seat, or the host making a move)."""

    status = 403


class NotFound(ServiceError):
    status = 404


class Stale(ServiceError):
    """The request came too early, too late or second: a stale seq, a step out of order, a lost race."""

    status = 409


class Rejected(ServiceError):
    """The request is well-formed but the rules or the protocol refuse it (an illegal move)."""

    status = 422


class TooMany(ServiceError):
    """A limit of one client's (its rate, its running games, its open streams): try again later.

    >>> TooMany("too many moves", retry_after=1.5).retry_after
    1.5
    """

    status = 429


class Unavailable(ServiceError):
    """A limit of the whole service's (its running games): try again later."""

    status = 503
