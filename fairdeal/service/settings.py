"""The service's settings, read from the environment.

>>> s = Settings.from_env({"FAIRDEAL_DATA_DIR": "/srv/fd", "FAIRDEAL_TURN_SECONDS": "30"})
>>> s.database_url, s.turn_seconds, s.store_kind
('sqlite:////srv/fd/fairdeal.db', 30.0, 'sqlite')
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Settings", "SettingsError", "access_sample"]

LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")
"""The levels of ``FAIRDEAL_LOG_LEVEL`` (uvicorn's)."""


class SettingsError(ValueError):
    """An environment variable the service cannot use."""


def _number(env: Mapping[str, str], name: str, default: float, low: float, high: float) -> float:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a number of seconds, not {raw!r}") from None
    if not low <= value <= high:
        raise SettingsError(f"{name} must be between {low} and {high}, not {value}")
    return value


def _count(env: Mapping[str, str], name: str, default: int, high: int) -> int:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    if not raw.strip().isdigit() or int(raw) > high:
        raise SettingsError(f"{name} must be a whole number from 0 to {high}, not {raw!r}")
    return int(raw)


def access_sample(text: str) -> tuple[int, bool]:
    """``FAIRDEAL_ACCESS_LOG``: which requests the access log has a line for, as ``(every, errors)``:
    every ``every``-th request (0: none), and whether every answer of 400 and up besides.

    >>> [access_sample(text) for text in ("all", "errors", "1/100", "off")]
    [(1, True), (0, True), (100, True), (0, False)]
    """
    if text == "all":
        return 1, True
    if text == "errors":
        return 0, True
    if text == "off":
        return 0, False
    one, _, many = text.partition("/")
    if one == "1" and many.isdigit() and 1 <= int(many) <= 1_000_000:
        return int(many), True
    raise ValueError(f"all, errors, off or 1/N (N from 1 to 1000000), not {text!r}")


@dataclass(frozen=True)
class Settings:
    """What a fairdeal server needs to know; :meth:`from_env` reads the ``FAIRDEAL_*`` variables.

    Every process of one service (uvicorn workers, or several servers) must
    share ``data_dir``: it holds the signing key and the key that seals
    server seeds in the database.
    """

    data_dir: Path = Path("data")
    database_url: str = ""
    """``sqlite:///path`` or ``postgresql://...``; empty: ``data_dir/fairdeal.db``."""
    turn_seconds: float = 20.0
    """A human seat's time for one turn, unless the table says otherwise."""
    bot_delay: float = 1.0
    """How long a bot waits before it moves at a table with people, unless the table says otherwise
    (0: it moves within the request that gave it the turn). A table of bots alone waits 0."""
    next_hand_seconds: float = 20.0
    """How long a table with people waits between hands for them to be ready, unless the table says
    otherwise (0: the next hand is dealt at once). A table of bots alone waits 0."""
    tick_seconds: float = 1.0
    """The longest the turn timer sleeps without looking at the store (0: no background timer;
    tests call ``run_due``). It wakes at the next deadline by itself; this bounds how late it sees
    a claim that ran out or a deadline set by a process that stopped (see fairdeal.service.timer)."""
    log_level: str = "info"
    max_body_bytes: int = 16 * 1024
    """A request body's most bytes (413 beyond), by its Content-Length or as it streams in."""
    max_header_bytes: int = 16 * 1024
    """A request line and headers' most bytes together (431 and the connection closed beyond; ``fairdeal serve``)."""
    header_timeout: float = 10.0
    """Seconds a connection may take to send a request's line and headers, from when it opens or
    its request begins (then it is closed; ``fairdeal serve``)."""
    body_timeout: float = 10.0
    """Seconds a request's whole body may take to arrive, from the end of its headers (then 408 and
    the connection closed; the handler never sees a part of it; ``fairdeal serve``)."""
    keep_alive_timeout: float = 5.0
    """Seconds an idle connection stays open between requests (``fairdeal serve``)."""
    max_connections: int = 4096
    """Connections and requests at once per process, live-update streams included (503 beyond; 0: no limit)."""
    max_games: int = 10_000
    """Games running (not over nor abandoned) in all, every process's (503 for the next create; 0: no limit)."""
    max_games_per_client: int = 50
    """Games running that one client address created (429 for its next; 0: no limit)."""
    bot_game_idle_seconds: float = 600.0
    """A table of bots alone that no one has looked at for this long is abandoned, its seed revealed (0: never)."""
    bot_game_max_seconds: float = 3600.0
    """A table of bots alone is abandoned this long after it was created, its seed revealed (0: never)."""
    max_streams_per_client: int = 20
    """Live-update streams one client address may have open per process (429 for the next; 0: no limit)."""
    cache_mb: int = 512
    """Megabytes of replayed records each process keeps in memory, for its games and as much again
    for its dealing sessions (as :func:`fairdeal.service.live.deep_size` estimates them); past it
    the least recently used are dropped, to be read and replayed once when next touched. A running
    Crazy Eights table of four takes about 6 KB when it starts and 30 KB (40 at most) near the end
    of a 1000-point match: 512 holds :attr:`max_games`'s 10,000 tables at their largest. 0: only
    the record in use is kept (every other touch replays one)."""
    create_rate: str = "30/minute"
    """Games and sessions one client address may create (``N/second``, ``N/minute``, ``N/hour`` or ``off``; 429 beyond)."""
    move_rate: str = "600/minute"
    """Moves one client address may make (as :attr:`create_rate`; 429 beyond)."""
    trusted_proxies: str = ""
    """Addresses or networks of the reverse proxies whose ``X-Forwarded-For`` says who the client is
    (see :func:`fairdeal.service.limits.client_address`); empty: the connection's address is the client."""
    log_origin: str = ""
    """The transparency log's origin (spec/log.md): the public host and ``/log``, e.g.
    ``cards.example.com/log``; empty: ``fairdeal.invalid/log/`` and the first 16 hex digits of
    the server's public key (see :func:`fairdeal.service.transparency.default_origin`)."""

    witnesses: str = ""
    """The witnesses that cosign the log's checkpoints (spec/log.md, section 9): entries separated by
    commas or newlines, each a witness's URL (its submission prefix: ``/add-checkpoint`` is added)
    and its verifier key, separated by spaces: ``https://w1.example/ w1.example/w+1a2b3c4d+BA...``."""
    witness_timeout: float = 5.0
    """Seconds one request to a witness may take."""
    witness_interval: float = 10.0
    """Seconds between the background rounds that send a grown log's checkpoint to the witnesses
    (0: only when ``GET /log/checkpoint`` is asked)."""

    access_log: str = "all"
    """Which requests get a line in the access log (``fairdeal.access``, see :func:`access_sample`):
    ``all``, ``errors`` (answers of 400 and up), ``1/N`` (one request in N, counted per process, and
    every error) or ``off``. A line costs the server about 0.01 ms of CPU, 1% of a move's."""

    live_updates: str = "notify"
    """How live-updates streams hear of other processes' changes on PostgreSQL: ``notify``
    (``LISTEN``/``NOTIFY``: a stream waits, asking the database nothing) or ``poll`` (each stream
    looks at its game's row every quarter of a second, as SQLite's streams do; for comparison)."""

    def __post_init__(self) -> None:
        if not self.database_url:
            object.__setattr__(self, "database_url", f"sqlite:///{Path(self.data_dir) / 'fairdeal.db'}")
        object.__setattr__(self, "data_dir", Path(self.data_dir))
        if not self.database_url.startswith(("sqlite:///", "postgresql://", "postgres://")):
            raise SettingsError("FAIRDEAL_DATABASE_URL must start with sqlite:/// or postgresql://")
        if self.log_origin and not all(" " < c <= "~" and c != "+" for c in self.log_origin):
            raise SettingsError(
                "FAIRDEAL_LOG_ORIGIN is printable ASCII with no spaces and no '+' (e.g. cards.example.com/log)"
            )
        from fairdeal.service.limits import Rate
        from fairdeal.service.limits import parse_networks

        for name, text in (("FAIRDEAL_CREATE_RATE", self.create_rate), ("FAIRDEAL_MOVE_RATE", self.move_rate)):
            try:
                Rate.parse(text)
            except ValueError as exc:
                raise SettingsError(f"{name}: {exc}") from None
        try:
            object.__setattr__(self, "_networks", parse_networks(self.trusted_proxies))
        except ValueError as exc:
            raise SettingsError(str(exc)) from None
        if self.live_updates not in ("notify", "poll"):
            raise SettingsError(f"FAIRDEAL_LIVE_UPDATES is notify or poll, not {self.live_updates!r}")
        from fairdeal.service.witnesses import parse_witnesses

        try:
            object.__setattr__(self, "_witnesses", parse_witnesses(self.witnesses))
        except ValueError as exc:
            raise SettingsError(f"FAIRDEAL_WITNESSES: {exc}") from None
        try:
            object.__setattr__(self, "_access_sample", access_sample(self.access_log))
        except ValueError as exc:
            raise SettingsError(f"FAIRDEAL_ACCESS_LOG: {exc}") from None
        if self.log_level not in LOG_LEVELS:
            raise SettingsError(f"FAIRDEAL_LOG_LEVEL is one of {', '.join(LOG_LEVELS)}, not {self.log_level!r}")

    @property
    def proxy_networks(self) -> tuple[Any, ...]:
        """:attr:`trusted_proxies`, parsed (``ipaddress`` networks)."""
        return self._networks  # type: ignore[attr-defined, no-any-return]

    @property
    def access_log_sample(self) -> tuple[int, bool]:
        """:attr:`access_log`, parsed (see :func:`access_sample`)."""
        return self._access_sample  # type: ignore[attr-defined, no-any-return]

    @property
    def witness_list(self) -> tuple[Any, ...]:
        """:attr:`witnesses`, parsed (:class:`fairdeal.service.witnesses.WitnessSite` each)."""
        return self._witnesses  # type: ignore[attr-defined, no-any-return]

    @property
    def store_kind(self) -> str:
        return "sqlite" if self.database_url.startswith("sqlite:") else "postgresql"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        return cls(
            data_dir=Path(env.get("FAIRDEAL_DATA_DIR") or "data"),
            database_url=env.get("FAIRDEAL_DATABASE_URL", ""),
            turn_seconds=_number(env, "FAIRDEAL_TURN_SECONDS", 20.0, 0.05, 86400),
            bot_delay=_number(env, "FAIRDEAL_BOT_DELAY", 1.0, 0, 60),
            next_hand_seconds=_number(env, "FAIRDEAL_NEXT_HAND_SECONDS", 20.0, 0, 120),
            tick_seconds=_number(env, "FAIRDEAL_TICK_SECONDS", 1.0, 0, 10),
            log_level=(env.get("FAIRDEAL_LOG_LEVEL") or "info").lower(),
            log_origin=env.get("FAIRDEAL_LOG_ORIGIN", ""),
            access_log=(env.get("FAIRDEAL_ACCESS_LOG") or "all").strip().lower(),
            max_body_bytes=_count(env, "FAIRDEAL_MAX_BODY_BYTES", 16 * 1024, 16 * 1024 * 1024),
            max_header_bytes=_count(env, "FAIRDEAL_MAX_HEADER_BYTES", 16 * 1024, 1024 * 1024),
            header_timeout=_number(env, "FAIRDEAL_HEADER_TIMEOUT", 10.0, 0.05, 3600),
            body_timeout=_number(env, "FAIRDEAL_BODY_TIMEOUT", 10.0, 0.05, 3600),
            keep_alive_timeout=_number(env, "FAIRDEAL_KEEP_ALIVE_TIMEOUT", 5.0, 0.05, 3600),
            max_connections=_count(env, "FAIRDEAL_MAX_CONNECTIONS", 4096, 10_000_000),
            max_games=_count(env, "FAIRDEAL_MAX_GAMES", 10_000, 1_000_000_000),
            max_games_per_client=_count(env, "FAIRDEAL_MAX_GAMES_PER_CLIENT", 50, 1_000_000_000),
            bot_game_idle_seconds=_number(env, "FAIRDEAL_BOT_GAME_IDLE_SECONDS", 600.0, 0, 366 * 86400),
            bot_game_max_seconds=_number(env, "FAIRDEAL_BOT_GAME_MAX_SECONDS", 3600.0, 0, 366 * 86400),
            max_streams_per_client=_count(env, "FAIRDEAL_MAX_STREAMS_PER_CLIENT", 20, 1_000_000),
            cache_mb=_count(env, "FAIRDEAL_CACHE_MB", 512, 1_000_000),
            create_rate=env.get("FAIRDEAL_CREATE_RATE") or "30/minute",
            move_rate=env.get("FAIRDEAL_MOVE_RATE") or "600/minute",
            trusted_proxies=env.get("FAIRDEAL_TRUSTED_PROXIES", ""),
            live_updates=(env.get("FAIRDEAL_LIVE_UPDATES") or "notify").lower(),
            witnesses=env.get("FAIRDEAL_WITNESSES", ""),
            witness_timeout=_number(env, "FAIRDEAL_WITNESS_TIMEOUT", 5.0, 0.1, 300),
            witness_interval=_number(env, "FAIRDEAL_WITNESS_INTERVAL", 10.0, 0, 86400),
        )

    def to_env(self) -> dict[str, str]:
        """The environment that makes :meth:`from_env` give these settings (for worker processes)."""
        return {
            "FAIRDEAL_DATA_DIR": str(self.data_dir),
            "FAIRDEAL_DATABASE_URL": self.database_url,
            "FAIRDEAL_TURN_SECONDS": repr(self.turn_seconds),
            "FAIRDEAL_BOT_DELAY": repr(self.bot_delay),
            "FAIRDEAL_NEXT_HAND_SECONDS": repr(self.next_hand_seconds),
            "FAIRDEAL_TICK_SECONDS": repr(self.tick_seconds),
            "FAIRDEAL_LOG_LEVEL": self.log_level,
            "FAIRDEAL_LOG_ORIGIN": self.log_origin,
            "FAIRDEAL_ACCESS_LOG": self.access_log,
            "FAIRDEAL_MAX_BODY_BYTES": str(self.max_body_bytes),
            "FAIRDEAL_MAX_HEADER_BYTES": str(self.max_header_bytes),
            "FAIRDEAL_HEADER_TIMEOUT": repr(self.header_timeout),
            "FAIRDEAL_BODY_TIMEOUT": repr(self.body_timeout),
            "FAIRDEAL_KEEP_ALIVE_TIMEOUT": repr(self.keep_alive_timeout),
            "FAIRDEAL_MAX_CONNECTIONS": str(self.max_connections),
            "FAIRDEAL_MAX_GAMES": str(self.max_games),
            "FAIRDEAL_MAX_GAMES_PER_CLIENT": str(self.max_games_per_client),
            "FAIRDEAL_BOT_GAME_IDLE_SECONDS": repr(self.bot_game_idle_seconds),
            "FAIRDEAL_BOT_GAME_MAX_SECONDS": repr(self.bot_game_max_seconds),
            "FAIRDEAL_MAX_STREAMS_PER_CLIENT": str(self.max_streams_per_client),
            "FAIRDEAL_CACHE_MB": str(self.cache_mb),
            "FAIRDEAL_CREATE_RATE": self.create_rate,
            "FAIRDEAL_MOVE_RATE": self.move_rate,
            "FAIRDEAL_TRUSTED_PROXIES": self.trusted_proxies,
            "FAIRDEAL_LIVE_UPDATES": self.live_updates,
            "FAIRDEAL_WITNESSES": self.witnesses,
            "FAIRDEAL_WITNESS_TIMEOUT": repr(self.witness_timeout),
            "FAIRDEAL_WITNESS_INTERVAL": repr(self.witness_interval),
        }
