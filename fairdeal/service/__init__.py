"""The fairdeal HTTP service: live card tables and dealing sessions, stored as their records.

``create_app(settings)`` builds the FastAPI application; ``fairdeal serve``
runs it under uvicorn. The layout:

- :mod:`~fairdeal.service.settings`: ``FAIRDEAL_*`` environment variables;
- :mod:`~fairdeal.service.keys`: the signing key, sealed server seeds, hashed tokens;
- :mod:`~fairdeal.service.store`: SQLite and PostgreSQL, append-only records;
- :mod:`~fairdeal.service.live`: replayed records cached per process, atomic appends;
- :mod:`~fairdeal.service.games` and :mod:`~fairdeal.service.sessions`: what each action does;
- :mod:`~fairdeal.service.dealing`: a generic dealing session (no web code, embeddable);
- :mod:`~fairdeal.service.routes`: one router per resource; :mod:`~fairdeal.service.deps`: who is asking;
- :mod:`~fairdeal.service.cli`: ``fairdeal serve``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app", "Settings"]


def __getattr__(name: str) -> Any:
    # Imported on first use, so that `fairdeal serve --help` (and the rest of the
    # `fairdeal` command) works where FastAPI is not installed.
    if name == "create_app":
        from fairdeal.service.app import create_app

        return create_app
    if name == "Settings":
        from fairdeal.service.settings import Settings

        return Settings
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
