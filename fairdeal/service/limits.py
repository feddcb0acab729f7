"""Limits an operator sets: who the client is, rates per client, open streams per client.

Every limit that counts per client asks :func:`client_address`, and so does the
transparency log's host pseudonym: a request that came through a proxy listed
in ``FAIRDEAL_TRUSTED_PROXIES`` is its client's, as the proxy's
``X-Forwarded-For`` says (the right-most address that is not itself a trusted
proxy); a proxy not listed is taken for the client.

>>> trusted = parse_networks("10.0.0.0/8")
>>> client_address("10.0.0.5", [(b"x-forwarded-for", b"203.0.113.9, 10.0.0.7")], trusted)
'203.0.113.9'
>>> client_address("198.51.100.1", [(b"x-forwarded-for", b"203.0.113.9")], trusted)  # not trusted: ignored
'198.51.100.1'
>>> client_address("10.0.0.5", [], trusted) is None  # a trusted proxy that passed no address: no client known
True
>>> bucket = RateLimiter(Rate.parse("2/minute"))
>>> bucket.take("a", now=0.0), bucket.take("a", now=0.0), bucket.take("a", now=0.0)
(None, None, 30.0)
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from fairdeal.said import Said
from fairdeal.service.errors import TooMany

__all__ = ["Limits", "Rate", "RateLimiter", "StreamCounter", "client_address", "parse_networks", "request_client"]

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

_UNITS = {"second": 1.0, "minute": 60.0, "hour": 3600.0}


@dataclass(frozen=True)
class Rate:
    """``count`` requests per ``seconds``, as a setting writes it: ``30/minute``; ``0`` or ``off``: no limit.

    >>> Rate.parse("600/minute"), Rate.parse("off").count
    (Rate(count=600, seconds=60.0), 0)
    """

    count: int
    seconds: float

    @classmethod
    def parse(cls, text: str) -> Rate:
        text = text.strip().lower()
        if text in ("0", "off", ""):
            return cls(0, 1.0)
        count, _, unit = text.partition("/")
        if not count.isdigit() or unit not in _UNITS or not 0 < int(count) <= 1_000_000:
            raise ValueError(f"a rate is N/second, N/minute or N/hour (N 1 to 1000000), or off; not {text!r}")
        return cls(int(count), _UNITS[unit])

    def __str__(self) -> str:
        if not self.count:
            return "off"
        unit = next(name for name, seconds in _UNITS.items() if seconds == self.seconds)
        return f"{self.count}/{unit}"


class RateLimiter:
    """A token bucket per client, in this process's memory: ``rate.count`` at once, refilled evenly
    over ``rate.seconds``. (Each process counts its own: with N workers a client gets up to N times the rate.)"""

    MAX_CLIENTS = 100_000
    """Buckets kept at most; past it, the full ones (clients that are not busy) are dropped."""

    def __init__(self, rate: Rate) -> None:
        self.rate = rate
        self._buckets: dict[str, tuple[float, float]] = {}  # client: (tokens, when)
        self._lock = threading.Lock()

    def take(self, client: str | None, now: float) -> float | None:
        """One request of ``client`` at ``now`` (monotonic seconds): ``None`` if allowed, else the
        seconds until it would be (nothing is taken then). No client known, or no rate: allowed."""
        if client is None or not self.rate.count:
            return None
        per_second = self.rate.count / self.rate.seconds
        with self._lock:
            tokens, when = self._buckets.get(client, (float(self.rate.count), now))
            tokens = min(float(self.rate.count), tokens + (now - when) * per_second)
            if tokens < 1:
                self._buckets[client] = (tokens, now)
                return math.ceil((1 - tokens) / per_second * 1000) / 1000
            if len(self._buckets) >= self.MAX_CLIENTS and client not in self._buckets:
                self._prune(now, per_second)
            self._buckets[client] = (tokens - 1, now)
            return None

    def _prune(self, now: float, per_second: float) -> None:
        full = [
            c for c, (tokens, when) in self._buckets.items() if tokens + (now - when) * per_second >= self.rate.count
        ]
        for client in full:
            del self._buckets[client]

    def check(self, client: str | None, now: float, what: Literal["moves", "games and sessions created"]) -> None:
        """:meth:`take`, or :class:`~fairdeal.service.errors.TooMany` (429 with Retry-After) saying why."""
        wait = self.take(client, now)
        if wait is not None:
            raise TooMany(
                Said(
                    "too many {what} from this address: at most {rate}; try again in {n} s",
                    what=Said("moves") if what == "moves" else Said("games and sessions created"),
                    rate=str(self.rate),
                    n=math.ceil(wait),
                ),
                retry_after=wait,
            )


class StreamCounter:
    """The live-update streams open per client in this process, at most ``limit`` each (0: no limit)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: dict[str, int] = {}
        self._lock = threading.Lock()

    def open(self, client: str | None) -> Lease:
        """A lease on one more stream for ``client``, or :class:`TooMany` (429) when it has ``limit`` open."""
        if client is None or not self.limit:
            return Lease(self, None)
        with self._lock:
            count = self._open.get(client, 0)
            if count >= self.limit:
                raise TooMany(
                    Said("this address has {n} live-update streams open, the most allowed: close one first", n=count),
                    retry_after=5,
                )
            self._open[client] = count + 1
        return Lease(self, client)

    def count(self, client: str) -> int:
        return self._open.get(client, 0)

    def _close(self, client: str) -> None:
        with self._lock:
            left = self._open.get(client, 0) - 1
            if left > 0:
                self._open[client] = left
            else:
                self._open.pop(client, None)


class Lease:
    """One open stream; :meth:`release` (once, whoever calls it first) gives it back."""

    def __init__(self, counter: StreamCounter, client: str | None) -> None:
        self._counter = counter
        self._client = client

    def release(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            self._counter._close(client)


def parse_networks(text: str) -> tuple[Network, ...]:
    """``FAIRDEAL_TRUSTED_PROXIES``: addresses or networks, separated by commas or spaces.

    >>> parse_networks("127.0.0.1, 10.0.0.0/8 ::1")
    (IPv4Network('127.0.0.1/32'), IPv4Network('10.0.0.0/8'), IPv6Network('::1/128'))
    """
    out = []
    for part in text.replace(",", " ").split():
        try:
            out.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            raise ValueError(f"FAIRDEAL_TRUSTED_PROXIES: {part!r} is no address or network (e.g. 10.0.0.0/8)") from None
    return tuple(out)


def _trusted(address: str, trusted: Sequence[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in trusted)


def client_address(peer: str | None, headers: Iterable[tuple[bytes, bytes]], trusted: Sequence[Network]) -> str | None:
    """Who a request is from: ``peer`` (the connection's address), unless ``peer`` is a trusted
    proxy; then the right-most ``X-Forwarded-For`` address that is no trusted proxy (the left-most
    if all are), or ``None`` when the proxy passed none (no client is known: the per-client limits
    do not apply, the global ones still do)."""
    if peer is None or not trusted or not _trusted(peer, trusted):
        return peer
    hops: list[str] = []
    for name, value in headers:
        if name == b"x-forwarded-for":
            hops += [hop.strip() for hop in value.decode("latin-1").split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _trusted(hop, trusted):
            return hop[:64]
    return hops[0][:64] if hops else None


def request_client(request: object) -> str | None:
    """:func:`client_address` of a Starlette request, with the app's trusted proxies; kept on the request."""
    state = request.scope.setdefault("fairdeal", {})  # type: ignore[attr-defined]
    if "client" not in state:
        peer = request.client.host if request.client else None  # type: ignore[attr-defined]
        trusted = request.app.state.settings.proxy_networks  # type: ignore[attr-defined]
        state["client"] = client_address(peer, request.scope.get("headers", ()), trusted)  # type: ignore[attr-defined]
    client: str | None = state["client"]
    return client


class Limits:
    """A process's per-client limits, from the settings: :attr:`creates`, :attr:`moves`, :attr:`streams`;
    the rates count time by ``clock`` (the app's test clock, else ``time.monotonic``)."""

    def __init__(
        self, create_rate: str, move_rate: str, streams_per_client: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.now = clock
        self.creates = RateLimiter(Rate.parse(create_rate))
        self.moves = RateLimiter(Rate.parse(move_rate))
        self.streams = StreamCounter(streams_per_client)
