"""``fairdeal serve``: run the service under uvicorn.

Options override the ``FAIRDEAL_*`` environment; the settings reach uvicorn's
worker processes through that environment (each worker builds its own app
with :func:`~fairdeal.service.app.create_app`). The keys and the database
schema are made once here, before any worker starts.

With several workers each listens on a socket of its own (``SO_REUSEPORT``),
and the kernel spreads the connections over them. uvicorn's own workers
share one listening socket, and whichever wakes first accepts every
connection waiting: a client that opens its connections at once (a proxy's
pool, or ``bench/load.py``'s 32 tables) had all of them on one worker while
the other idled.
"""

from __future__ import annotations

import dataclasses
import os
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

__all__ = ["serve"]


def log_config(level: str) -> dict[str, Any]:
    """uvicorn's logging, plus fairdeal's: the access log as bare JSON lines on stdout."""
    from uvicorn.config import LOGGING_CONFIG

    config = {key: (dict(value) if isinstance(value, dict) else value) for key, value in LOGGING_CONFIG.items()}
    config["formatters"] = {**config["formatters"], "bare": {"format": "%(message)s"}}
    config["handlers"] = {
        **config["handlers"],
        "fairdeal_access": {"class": "logging.StreamHandler", "formatter": "bare", "stream": "ext://sys.stdout"},
    }
    config["loggers"] = {
        **config["loggers"],
        "fairdeal": {"handlers": ["default"], "level": level.upper(), "propagate": False},
        "fairdeal.access": {"handlers": ["fairdeal_access"], "level": "INFO", "propagate": False},
    }
    return config


class ReusePortSocket:
    """A listening address that becomes, in each worker process it is sent to, a socket of that worker's own.

    uvicorn hands every worker the sockets it was given, pickled; this one
    unpickles as a new socket bound to the same address with ``SO_REUSEPORT``
    (not yet listening: uvicorn's ``create_server`` listens on it). The
    parent's own socket, bound with ``SO_REUSEPORT`` but never listening,
    holds the address for the workers (a connection goes only to a listening
    socket) and lets nothing else bind it: only sockets with the option, of
    the same user, may join, and :meth:`bind` first makes sure no one else is
    there.

    >>> held = ReusePortSocket.bind("127.0.0.1", 0)
    >>> a, b = (ReusePortSocket.open(*held.reduced()) for _ in range(2))  # two workers' sockets
    >>> a.listen(); b.listen(); a.getsockname() == b.getsockname() == held.address
    True
    >>> for s in (a, b, held.sock): s.close()
    """

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.address = sock.getsockname()

    @classmethod
    def bind(cls, host: str, port: int) -> ReusePortSocket:
        """The parent's socket for ``host:port`` (port 0: a free one); OSError if the address is taken."""
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        # Without SO_REUSEPORT first: a bind that succeeds means no one, not even another
        # fairdeal serve with the option, listens there (else the two would share the port).
        with socket.socket(family) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn: TIME_WAIT does not count
            probe.bind((host, port))
            port = probe.getsockname()[1]
        return cls(cls.open(family, (host, port)))

    @staticmethod
    def open(family: int, address: tuple[Any, ...]) -> socket.socket:
        # IPPROTO_TCP named, not 0: the connections it accepts inherit the number, and asyncio
        # turns Nagle's algorithm off (TCP_NODELAY) only on a socket whose proto says TCP; with
        # it on, a reply written in two parts waits for the client's delayed ACK (~40 ms).
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            sock.bind(address[:2])
        except OSError:
            sock.close()
            raise
        return sock

    def reduced(self) -> tuple[int, tuple[Any, ...]]:
        return self.sock.family, self.address

    def __reduce__(self) -> tuple[Any, ...]:
        return ReusePortSocket.open, self.reduced()


def run_workers(config: Any, host: str, port: int) -> None:
    """uvicorn's supervisor of ``config.workers`` worker processes, each listening on its own socket."""
    from uvicorn.supervisors import Multiprocess

    try:
        held = ReusePortSocket.bind(host, port)
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    try:
        Multiprocess(config, sockets=[held]).run()  # type: ignore[list-item]  # each worker unpickles a socket
    finally:
        held.sock.close()


# The settings `fairdeal serve` has an option for, the most used: (the Settings field, what the option
# takes, what it sets, the default as the help shows it where Settings' own would not read well).
# `--max-games 20` sets FAIRDEAL_MAX_GAMES=20 for this server and its workers; an option left out
# leaves the variable as it is.
SETTING_OPTIONS: tuple[tuple[str, dict[str, Any], str, str | None], ...] = (
    ("data_dir", {"type": click.Path(file_okay=False, path_type=Path)}, "Keys and the SQLite database", "./data"),
    ("database_url", {"metavar": "URL"}, "sqlite:///PATH or postgresql://...", "DATA_DIR/fairdeal.db"),
    ("log_level", {"type": click.Choice(["debug", "info", "warning", "error"])}, "How much the log says", None),
    ("trusted_proxies", {"metavar": "ADDRESSES"}, "Proxies whose X-Forwarded-For names the client", "none"),
    ("max_games", {"type": click.IntRange(0)}, "Games running in all", None),
    ("max_games_per_client", {"type": click.IntRange(0)}, "Games running per client address", None),
    ("create_rate", {"metavar": "N/UNIT"}, "Creates per client address", None),
    ("move_rate", {"metavar": "N/UNIT"}, "Moves per client address", None),
)


def setting_variable(field: str) -> str:
    """The environment variable of a Settings field: ``max_games`` -> ``FAIRDEAL_MAX_GAMES``."""
    return f"FAIRDEAL_{field.upper()}"


def setting_options(command: Callable[..., None]) -> Callable[..., None]:
    """An option for each of :data:`SETTING_OPTIONS`, ``None`` unless given, its help naming the
    variable it overrides and the default (Settings' own: the help cannot drift from the code)."""
    from fairdeal.service.settings import Settings  # the dataclass alone: no service extra needed

    defaults = {f.name: f.default for f in dataclasses.fields(Settings)}
    for field, takes, what, shown in reversed(SETTING_OPTIONS):
        help_ = f"{what} [env {setting_variable(field)}, default {shown or defaults[field]}]."
        command = click.option("--" + field.replace("_", "-"), field, default=None, help=help_, **takes)(command)
    return command


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="The port to listen on.")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64), help="uvicorn worker processes.")
@setting_options
def serve(host: str, port: int, workers: int, **given: str | int | Path | None) -> None:
    """Serve live card tables and dealing sessions over HTTP (OpenAPI at /docs).

    Every limit is a FAIRDEAL_* setting (README: "Settings and limits"); the options here set the most used.
    """
    try:
        import uvicorn

        from fairdeal.service.http import uvicorn_options
        from fairdeal.service.keys import load_keys
        from fairdeal.service.settings import Settings
        from fairdeal.service.settings import SettingsError
        from fairdeal.service.store import open_store
    except ImportError as exc:
        raise click.ClickException(
            f"the service needs its extra: pip install 'fairdeal[service]' ({exc.name} is missing)"
        ) from None
    env = dict(os.environ)
    for field, value in given.items():
        if value is not None:
            env[setting_variable(field)] = str(value)
    try:
        settings = Settings.from_env(env)
    except SettingsError as exc:
        raise click.UsageError(str(exc)) from None
    os.environ.update(settings.to_env())
    load_keys(settings.data_dir)
    try:
        open_store(settings.database_url).close()  # the schema, once, before the workers
    except Exception as exc:  # noqa: BLE001 (whatever the driver raises, the operator reads it in one line)
        raise click.ClickException(
            f"cannot open the database ({settings.store_kind}): {type(exc).__name__}: {exc}"
        ) from None
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    click.echo(f"fairdeal serving on http://{shown}:{port}  (API docs: http://{shown}:{port}/docs)")
    click.echo(f"  data: {settings.data_dir.resolve()}  store: {settings.store_kind}  workers: {workers}")
    if workers > 1 and settings.store_kind == "sqlite":
        # Each worker serves SQLite on its event loop; a worker that meets another's write lock
        # waits in SQLite's busy handler, steps of up to 100 ms, and every request of it waits too.
        click.echo("  note: SQLite takes one writer at a time; for several workers, PostgreSQL serves better", err=True)
    options = dict(
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level=settings.log_level,
        log_config=log_config(settings.log_level),
        access_log=False,  # ours is structured and never shows a query string (a token may be in one)
        **uvicorn_options(settings),  # the request head's size and time, idle connections, connections at once
    )
    if workers == 1 or not hasattr(socket, "SO_REUSEPORT"):
        uvicorn.run("fairdeal.service.app:create_app", **options)
    else:
        run_workers(uvicorn.Config("fairdeal.service.app:create_app", **options), host, port)
