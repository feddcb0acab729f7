"""``fairdeal serve``: run the service under uvicorn.

Options override the ``FAIRDEAL_*`` environment; the settings reach uvicorn's
worker processes through that environment (each worker builds its own app
with :func:`~fairdeal.service.app.create_app`). The keys and the database
schema are made once here, before any worker starts.
"""

from __future__ import annotations

import os
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


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="The port to listen on.")
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Keys and the SQLite database [env FAIRDEAL_DATA_DIR, default ./data].")
@click.option("--database-url", default=None, metavar="URL",
              help="sqlite:///PATH or postgresql://... [env FAIRDEAL_DATABASE_URL, default DATA_DIR/fairdeal.db].")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64), help="uvicorn worker processes.")
@click.option("--log-level", default=None, type=click.Choice(["debug", "info", "warning", "error"]),
              help="[env FAIRDEAL_LOG_LEVEL, default info]")
@click.option("--trusted-proxies", default=None, metavar="ADDRESSES",
              help="Proxies whose X-Forwarded-For names the client [env FAIRDEAL_TRUSTED_PROXIES, default none].")
@click.option("--max-games", default=None, type=click.IntRange(0), help="Games running in all [env FAIRDEAL_MAX_GAMES, default 10000].")
@click.option("--max-games-per-client", default=None, type=click.IntRange(0),
              help="Games running per client address [env FAIRDEAL_MAX_GAMES_PER_CLIENT, default 50].")
@click.option("--create-rate", default=None, metavar="N/UNIT",
              help="Creates per client address [env FAIRDEAL_CREATE_RATE, default 30/minute].")
@click.option("--move-rate", default=None, metavar="N/UNIT", help="Moves per client address [env FAIRDEAL_MOVE_RATE, default 600/minute].")
def serve(host: str, port: int, data_dir: Path | None, database_url: str | None, workers: int, log_level: str | None,
          trusted_proxies: str | None, max_games: int | None, max_games_per_client: int | None, create_rate: str | None,
          move_rate: str | None) -> None:
    """Serve live card tables and dealing sessions over HTTP (OpenAPI at /docs).

    Every limit is a FAIRDEAL_* setting (README: "Settings and limits"); the options here set the most used.
    """
    try:
        import uvicorn

        from fairdeal.service.http import uvicorn_options
        from fairdeal.service.keys import load_keys
        from fairdeal.service.settings import Settings, SettingsError
        from fairdeal.service.store import open_store
    except ImportError as exc:
        raise click.ClickException(f"the service needs its extra: pip install 'fairdeal[service]' ({exc.name} is missing)") from None
    env = dict(os.environ)
    given = (("FAIRDEAL_DATA_DIR", data_dir), ("FAIRDEAL_DATABASE_URL", database_url), ("FAIRDEAL_LOG_LEVEL", log_level),
             ("FAIRDEAL_TRUSTED_PROXIES", trusted_proxies), ("FAIRDEAL_MAX_GAMES", max_games),
             ("FAIRDEAL_MAX_GAMES_PER_CLIENT", max_games_per_client), ("FAIRDEAL_CREATE_RATE", create_rate),
             ("FAIRDEAL_MOVE_RATE", move_rate))
    for name, value in given:
        if value is not None:
            env[name] = str(value)
    try:
        settings = Settings.from_env(env)
    except SettingsError as exc:
        raise click.UsageError(str(exc)) from None
    os.environ.update(settings.to_env())
    load_keys(settings.data_dir)
    try:
        open_store(settings.database_url).close()  # the schema, once, before the workers
    except Exception as exc:
        raise click.ClickException(f"cannot open the database ({settings.store_kind}): {type(exc).__name__}: {exc}") from None
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    click.echo(f"fairdeal serving on http://{shown}:{port}  (API docs: http://{shown}:{port}/docs)")
    click.echo(f"  data: {settings.data_dir.resolve()}  store: {settings.store_kind}  workers: {workers}")
    if workers > 1 and settings.store_kind == "sqlite":
        # Each worker serves SQLite on its event loop; a worker that meets another's write lock
        # waits in SQLite's busy handler, steps of up to 100 ms, and every request of it waits too.
        click.echo("  note: SQLite takes one writer at a time; for several workers, PostgreSQL serves better", err=True)
    uvicorn.run(
        "fairdeal.service.app:create_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level=settings.log_level,
        log_config=log_config(settings.log_level),
        access_log=False,  # ours is structured and never shows a query string (a token may be in one)
        **uvicorn_options(settings),  # the request head's size and time, idle connections, connections at once
    )
