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

__all__ = ["Settings", "SettingsError"]


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
    tick_seconds: float = 0.1
    """How often the timer looks for due turns (0: no background timer; tests call ``run_due``)."""
    log_level: str = "info"
    max_body_bytes: int = 16 * 1024
    log_origin: str = ""
    """The transparency log's origin (spec/log.md): the public host and ``/log``, e.g.
    ``cards.example.com/log``; empty: ``fairdeal.invalid/log/`` and the first 16 hex digits of
    the server's public key (see :func:`fairdeal.service.transparency.default_origin`)."""

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
            raise SettingsError("FAIRDEAL_LOG_ORIGIN is printable ASCII with no spaces and no '+' (e.g. cards.example.com/log)")

        if self.live_updates not in ("notify", "poll"):
            raise SettingsError(f"FAIRDEAL_LIVE_UPDATES is notify or poll, not {self.live_updates!r}")

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
            tick_seconds=_number(env, "FAIRDEAL_TICK_SECONDS", 0.1, 0, 10),
            log_level=(env.get("FAIRDEAL_LOG_LEVEL") or "info").lower(),
            log_origin=env.get("FAIRDEAL_LOG_ORIGIN", ""),
            live_updates=(env.get("FAIRDEAL_LIVE_UPDATES") or "notify").lower(),
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
            "FAIRDEAL_LIVE_UPDATES": self.live_updates,
        }
