"""uvicorn's HTTP/1.1 protocol (httptools) with the limits its own lacks: a request's head size and time.

uvicorn's httptools protocol takes a request line and headers of any size (a
64 MB header was read into memory) and gives a connection that has begun a
request, or sent nothing, all the time it likes. :class:`LimitedHttpTools`
answers 431 and closes the connection once the head of a request is over
``FAIRDEAL_MAX_HEADER_BYTES``, and closes a connection that has not sent a
whole head ``FAIRDEAL_HEADER_TIMEOUT`` seconds after it opened or its request
began (between requests uvicorn's keep-alive timeout applies). ``fairdeal
serve`` runs it (``uvicorn.run(http=LimitedHttpTools)``); the limits are read
from the environment once, as every worker process has it.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from fairdeal.service.settings import Settings

__all__ = ["LimitedHttpTools"]

_TOO_LARGE = (b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n"
              b"connection: close\r\ncontent-length: %d\r\n\r\n%s")


class _HeadTooLarge(Exception):
    """Raised in a parser callback to stop parsing a refused request."""


class LimitedHttpTools(HttpToolsProtocol):
    """:class:`HttpToolsProtocol` with a most size and a most time for each request's head."""

    max_head_bytes: int = 0
    head_seconds: float = 0.0

    @classmethod
    def configure(cls, settings: Settings) -> None:
        cls.max_head_bytes = settings.max_header_bytes
        cls.head_seconds = settings.header_timeout

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        if not self.max_head_bytes:
            type(self).configure(Settings.from_env())
        self._head_bytes = 0
        self._head_exact = 0
        self._in_head = True
        self._head_timer: asyncio.TimerHandle | None = None
        self._refused = False
        super().connection_made(transport)
        self._arm()

    def _arm(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self.head_seconds, self._head_timed_out)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self._in_head and not self.transport.is_closing():
            self.transport.close()  # a silent or half-sent request: nothing to answer it with

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        if self._in_head:
            self._head_bytes += len(data)
            self._arm()
        super().data_received(data)
        # Checked after the parser had the data: a body that came in the same read is no head.
        if self._in_head and self._head_bytes > self.max_head_bytes and not self._refused:
            self._refuse()

    def _refuse(self) -> None:
        self._refused = True
        self._disarm()
        body = b'{"detail":"the request line and headers are over %d bytes"}' % self.max_head_bytes
        if not self.transport.is_closing():
            self.transport.write(_TOO_LARGE % (len(body), body))
            self.transport.close()

    def on_url(self, url: bytes) -> None:
        self._head_exact += len(url)
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._head_exact += len(name) + len(value) + 4  # ": " and CRLF
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._disarm()
        if self._head_exact > self.max_head_bytes:
            # A whole head over the limit in one read: refused before the app sees it. Raising
            # stops the parser (uvicorn's answer to a parser error is suppressed: see send_400_response).
            self._refuse()
            raise _HeadTooLarge
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._in_head = True  # the next request's head (pipelined, or after keep-alive)
        self._head_bytes = self._head_exact = 0

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._disarm()  # between requests the keep-alive timeout applies; data_received arms this again

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        if not self._refused:
            super().send_400_response(msg)


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """What ``fairdeal serve`` gives ``uvicorn.run`` of the settings' limits."""
    LimitedHttpTools.configure(settings)
    return {
        "http": LimitedHttpTools,
        "timeout_keep_alive": settings.keep_alive_timeout,
        "limit_concurrency": settings.max_connections or None,
        # uvicorn's own proxy headers believe any loopback peer's X-Forwarded-For; fairdeal reads
        # them itself, from FAIRDEAL_TRUSTED_PROXIES only (fairdeal.service.limits.client_address).
        "proxy_headers": False,
        "h11_max_incomplete_event_size": settings.max_header_bytes,  # were h11 chosen instead
    }
