"""`fairdeal serve`: a real uvicorn process that prints its address and serves a game."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from click.testing import CliRunner

from fairdeal.cli import main

FAIRDEAL = str(Path(sys.executable).with_name("fairdeal"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_help_names_its_options():
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--data-dir", "--database-url", "--workers"):
        assert option in result.output


def test_serve_refuses_a_database_url_it_does_not_know(tmp_path):
    result = CliRunner().invoke(main, ["serve", "--data-dir", str(tmp_path), "--database-url", "mysql://x"])
    assert result.exit_code == 2 and "FAIRDEAL_DATABASE_URL must start with sqlite:/// or postgresql://" in result.output


def test_serve_prints_its_address_and_serves(tmp_path, database_url):
    port = free_port()
    server = subprocess.Popen(
        [FAIRDEAL, "serve", "--port", str(port), "--data-dir", str(tmp_path / "data"), "--database-url", database_url,
         "--workers", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first_line = server.stdout.readline()
        assert first_line.startswith(f"fairdeal serving on http://localhost:{port}")
        give_up = time.monotonic() + 30
        while True:
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/health", timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < give_up and server.poll() is None, server.stderr.read()
                time.sleep(0.1)
        assert health.json() == {"status": "ok", "store": "sqlite" if database_url.startswith("sqlite") else "postgresql"}
        game = httpx.post(f"http://127.0.0.1:{port}/games", json={"seats": [{"name": "A", "bot": True}, {"name": "B"}]})
        assert game.status_code == 201
        key = httpx.get(f"http://127.0.0.1:{port}/.well-known/fairdeal-key").json()["key"]
        assert game.json()["public_key"] == key
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert (tmp_path / "data" / "server-key.pem").exists() and (tmp_path / "data" / "seal.key").exists()
    # The access log is JSON, one line a request, and never shows a token.
    log = server.stdout.read()
    assert '"path":"/games","status":201' in log and game.json()["host_token"] not in log


def test_serve_says_sqlite_serves_one_worker_best(tmp_path, monkeypatch):
    import uvicorn

    started = []
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: started.append(kwargs["workers"]))
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    many = CliRunner().invoke(main, ["serve", "--data-dir", str(tmp_path), "--database-url", db, "--workers", "2"])
    one = CliRunner().invoke(main, ["serve", "--data-dir", str(tmp_path), "--database-url", db])
    assert many.exit_code == one.exit_code == 0 and started == [2, 1]
    assert "for several workers, PostgreSQL serves better" in many.output
    assert "PostgreSQL" not in one.output
