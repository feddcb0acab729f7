"""uvicorn's HTTP/1.1 protocol (httptools) with the limits its own lacks: a request's head size and time,
its body's time, and connections at once answered as fairdeal answers.

uvicorn's httptools protocol takes a request line and headers of any size (a
64 MB header was read into memory) and gives a connection that has begun a
request, or sent nothing, all the time it likes. :class:`LimitedHttpTools`
answers 431 and closes the connection once the head of a request is over
``FAIRDEAL_MAX_HEADER_BYTES``, and closes a connection that has not sent a
whole head ``FAIRDEAL_HEADER_TIMEOUT`` seconds after it opened or its request
began (between requests uvicorn's keep-alive timeout applies). A body must then
arrive whole within ``FAIRDEAL_BODY_TIMEOUT`` seconds (one deadline, which a
trickle of bytes does not push back), else 408 and the connection closed; the
handler is told the client left, so it never takes a part of a body for the
whole. ``FAIRDEAL_MAX_CONNECTIONS`` is counted here too: uvicorn's
``limit_concurrency`` counts the asking connection among the open ones (so it
refused one early) and answers in plain text; here N connections are served
and the next request beyond gets fairdeal's JSON 503 with ``Retry-After``.
``fairdeal serve`` runs it (``uvicorn.run(http=LimitedHttpTools)``); the
limits are read from the environment once, as every worker process has it.
"""

from __future__ import annotations

import asyncio
import json
from http import HTTPStatus
from typing import Any

from uvicorn._types import ASGIReceiveCallable
from uvicorn._types import ASGISendCallable
from uvicorn._types import Scope
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.http.httptools_impl import RequestResponseCycle

from fairdeal.service.settings import Settings

__all__ = ["LimitedHttpTools"]

LINGER_SECONDS = 2.0
"""How long a connection the server answered early and stops reading (431, 408) stays half-open,
its incoming bytes dropped, before it is closed (see ``_answer_and_close``)."""
CAP_RETRY_SECONDS = 5
"""The ``Retry-After`` of a 503 over ``FAIRDEAL_MAX_CONNECTIONS``: an idle connection is closed within
the keep-alive timeout (5 s by default), and a silent one within the header or body timeout."""


def _detail(detail: str) -> bytes:
    """An error's body, as the app's errors look: ``{"detail": ...}``."""
    return json.dumps({"detail": detail}, separators=(",", ":")).encode()


def _error_response(status: int, detail: str) -> bytes:
    """A whole HTTP/1.1 answer :func:`_detail` that closes the connection."""
    body = _detail(detail)
    head = (
        f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\ncontent-type: application/json\r\n"
        f"connection: close\r\ncontent-length: {len(body)}\r\n\r\n"
    )
    return head.encode("ascii") + body


class _HeadTooLarge(Exception):
    """Raised in a parser callback to stop parsing a refused request."""


class LimitedHttpTools(HttpToolsProtocol):
    """:class:`HttpToolsProtocol` with a most size and a most time for each request's head, a most
    time for its body, and a most of connections at once."""

    max_head_bytes: int = 0
    head_seconds: float = 0.0
    body_seconds: float = 0.0
    max_connections: int = 0

    @classmethod
    def configure(cls, settings: Settings) -> None:
        cls.max_head_bytes = settings.max_header_bytes
        cls.head_seconds = settings.header_timeout
        cls.body_seconds = settings.body_timeout
        cls.max_connections = settings.max_connections

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        if not self.max_head_bytes:
            type(self).configure(Settings.from_env())
        self._head_bytes = 0
        self._head_exact = 0
        self._in_head = True
        self._head_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None
        self._refused = False
        super().connection_made(transport)
        self.limit_concurrency = None  # uvicorn's own check: the cap is counted in on_headers_complete
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
        if not self.transport.is_closing():
            self._answer_and_close(431, f"the request line and headers are over {self.max_head_bytes} bytes")

    def _answer_and_close(self, status: int, detail: str) -> None:
        """Answer a request the server stops reading, and close its connection as RFC 9112 section
        9.6 asks: our side first (the answer, then end of stream), reading and dropping what the
        client still sends for :data:`LINGER_SECONDS`. Closed at once, a byte arriving after the
        close made the kernel reset the connection, and the client lost the answer it had not read."""
        self._refused = True  # data_received drops what comes now
        self.transport.write(_error_response(status, detail))
        if self.transport.can_write_eof():
            self.transport.write_eof()
            self.loop.call_later(LINGER_SECONDS, self.transport.close)
        else:
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
        if not self._over_cap():
            super().on_headers_complete()
            return
        self.logger.warning("a request over FAIRDEAL_MAX_CONNECTIONS (%d) answered 503", self.max_connections)
        # Answered through uvicorn's request cycle, as its own 503 was: a pipelined request is
        # answered in its turn, after the answers before it.
        app, self.app = self.app, self._cap_reached
        try:
            super().on_headers_complete()
        finally:
            self.app = app

    def _over_cap(self) -> bool:
        """Whether this request is one over ``max_connections``: its connection is among the open
        ones, its task not yet among the running (a task may outlive its connection, a handler
        still at work for a client that left)."""
        cap = self.max_connections
        return bool(cap) and (len(self.connections) > cap or len(self.tasks) >= cap)

    async def _cap_reached(self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable) -> None:
        """The ASGI app that answers a request over the cap: the JSON 503, and the connection closed."""
        body = _detail(
            f"the server serves {self.max_connections} connections at once, its most: "
            f"try again in {CAP_RETRY_SECONDS} s"
        )
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"retry-after", str(CAP_RETRY_SECONDS).encode()),
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": 503, "headers": headers})
        await send({"type": "http.response.body", "body": body, "more_body": False})

    def _start_asgi_task(self, cycle: RequestResponseCycle, app: Any) -> None:
        # The body's deadline runs from when its request is handled: at the end of its headers, or
        # for a pipelined request when its turn comes (till then uvicorn reads none of it).
        super()._start_asgi_task(cycle, app)
        if cycle.more_body and self._body_timer is None:
            self._body_timer = self.loop.call_later(self.body_seconds, self._body_timed_out, cycle)

    def _body_timed_out(self, cycle: RequestResponseCycle) -> None:
        self._body_timer = None
        if not cycle.more_body or self.transport.is_closing():
            return
        if not cycle.response_started:
            # The handler, waiting for the rest, hears that the client left (and what it sends
            # goes nowhere): it never runs on a part of a body.
            cycle.disconnected = True
            cycle.message_event.set()
            # The app's access log says 408, not the 400 its handler answered into the void.
            cycle.scope["fairdeal.answered"] = 408  # type: ignore[typeddict-unknown-key]  # app.ANSWERED
            self._answer_and_close(408, f"the request body did not arrive within {self.body_seconds:g} s")
        else:
            self.transport.close()  # answered early, and the body still coming: nothing more to say

    def _disarm_body(self) -> None:
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None

    def on_message_complete(self) -> None:
        self._disarm_body()
        super().on_message_complete()
        self._in_head = True  # the next request's head (pipelined, or after keep-alive)
        self._head_bytes = self._head_exact = 0

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._disarm()  # between requests the keep-alive timeout applies; data_received arms this again

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._disarm_body()
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
        # No limit_concurrency: LimitedHttpTools counts FAIRDEAL_MAX_CONNECTIONS itself (see its docstring).
        # uvicorn's own proxy headers believe any loopback peer's X-Forwarded-For; fairdeal reads
        # them itself, from FAIRDEAL_TRUSTED_PROXIES only (fairdeal.service.limits.client_address).
        "proxy_headers": False,
        "h11_max_incomplete_event_size": settings.max_header_bytes,  # were h11 chosen instead
    }
