"""Fixtures for the service tests: every app runs on SQLite *and* on PostgreSQL.

PostgreSQL is the one on 127.0.0.1:5432 (user postgres, trust auth,
database ``test``). Each test gets a schema of its own (through the
connection's ``search_path``), dropped afterwards, so runs never see each
other's games.
"""

from __future__ import annotations

import hashlib
import itertools
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Starlette would rather have `httpx2`; `httpx` (what the service extra installs) works the same.
warnings.filterwarnings("ignore", message=".*httpx.*")
from fastapi.testclient import TestClient  # noqa: E402
from helpers import service_settings  # noqa: E402
from service_helpers import Api  # noqa: E402
from service_helpers import Clock  # noqa: E402

from fairdeal.service import Settings  # noqa: E402
from fairdeal.service import create_app  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from load import database  # noqa: E402  (bench/load.py's fresh SQLite file or PostgreSQL schema)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    with database(request.param, tmp_path / "data", "fairdeal_test") as url:
        yield url


@pytest.fixture
def clock() -> Clock:
    return Clock()


HIGH_LIMITS: dict[str, Any] = {
    "create_rate": "1000000/minute",
    "move_rate": "1000000/minute",
    "max_games_per_client": 1_000_000,
    "max_streams_per_client": 10_000,
}
"""The operator's limits, high: every request of a test comes from one address (tests/service/test_limits.py
tries each limit)."""


@pytest.fixture
def settings(tmp_path: Any, database_url: str) -> Settings:
    return service_settings(tmp_path / "data", database_url, **HIGH_LIMITS)


@pytest.fixture
def new_ids(request: pytest.FixtureRequest) -> Any:
    """Game ids and server seeds fixed by the test's name, so every run (and both stores) play the same games."""
    count = itertools.count(1)
    name = f"{request.node.module.__name__}.{request.node.originalname}"

    def ids() -> tuple[str, str]:
        n = next(count)
        digest = hashlib.sha256(f"{name}/{n}".encode()).digest()
        return f"t{n}-{digest[:6].hex()}", digest.hex()

    return ids


@pytest.fixture
def app(settings: Settings, clock: Clock, new_ids: Any) -> Iterator[Any]:
    app = create_app(settings, clock=clock, new_ids=new_ids)
    yield app
    app.state.store.close()


@pytest.fixture
def api(app: Any) -> Iterator[Api]:
    with TestClient(app) as client:
        yield Api(client)


@pytest.fixture
def two_processes(settings: Settings, clock: Clock, new_ids: Any) -> Iterator[tuple[Api, Api]]:
    """Two apps on one database, as two server processes would be: their Api each."""
    first, second = (
        create_app(settings, clock=clock, new_ids=new_ids),
        create_app(settings, clock=clock, new_ids=new_ids),
    )
    try:
        with TestClient(first) as one, TestClient(second) as two:
            yield Api(one), Api(two)
    finally:
        first.state.store.close()
        second.state.store.close()
