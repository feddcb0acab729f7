"""`fairdeal serve`: a real uvicorn process that prints its address and serves a game."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from helpers import http
from service_helpers import free_port

from fairdeal.cli import main

FAIRDEAL = str(Path(sys.executable).with_name("fairdeal"))


@contextmanager
def serving(tmp_path: Path, **settings: str) -> Iterator[tuple[int, socket.socket]]:
    """`fairdeal serve` with these ``FAIRDEAL_*`` settings: its port, and its first connection (the
    one the wait for it opened, kept open: no other connection is counted)."""
    port = free_port()
    env = {**os.environ, "FAIRDEAL_LOG_LEVEL": "warning", **{f"FAIRDEAL_{k}": v for k, v in settings.items()}}
    server = subprocess.Popen(
        [FAIRDEAL, "serve", "--port", str(port), "--data-dir", str(tmp_path / "data")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        give_up = time.monotonic() + 30
        while True:
            try:
                first = socket.create_connection(("127.0.0.1", port), timeout=20)
                break
            except ConnectionRefusedError:
                assert time.monotonic() < give_up and server.poll() is None, server.stderr.read()
                time.sleep(0.1)
        with first:
            yield port, first
    finally:
        server.terminate()
        server.wait(timeout=30)
    errors = server.stderr.read().decode()
    assert "Traceback" not in errors and "internal error" not in errors, errors


def listening_sockets(port: int) -> int:
    """How many TCP sockets listen on ``port`` (a socket shared by several processes counts once)."""
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as f:
            next(f)
            count += sum(
                int(fields[1].rpartition(":")[2], 16) == port and fields[3] == "0A" for fields in map(str.split, f)
            )
    return count


def test_serve_help_names_its_options():
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--data-dir", "--database-url", "--workers"):
        assert option in result.output


def test_serve_refuses_a_database_url_it_does_not_know(tmp_path):
    result = CliRunner().invoke(main, ["serve", "--data-dir", str(tmp_path), "--database-url", "mysql://x"])
    assert (
        result.exit_code == 2 and "FAIRDEAL_DATABASE_URL must start with sqlite:/// or postgresql://" in result.output
    )


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("FAIRDEAL_LIVE_UPDATES", "bogus"),
        ("FAIRDEAL_LOG_LEVEL", "loud"),
        ("FAIRDEAL_TURN_SECONDS", "soon"),
        ("FAIRDEAL_MAX_CONNECTIONS", "-1"),
        ("FAIRDEAL_CREATE_RATE", "lots"),
        ("FAIRDEAL_TRUSTED_PROXIES", "not-an-address"),
    ],
)
def test_serve_refuses_a_bad_setting_at_start_naming_it(tmp_path, monkeypatch, name, value):
    # FAIRDEAL_LIVE_UPDATES=bogus once started silently (its check sat after a return), turning
    # LISTEN/NOTIFY off on PostgreSQL.
    monkeypatch.setenv(name, value)
    result = CliRunner().invoke(main, ["serve", "--data-dir", str(tmp_path)])
    assert result.exit_code == 2 and name in result.output, result.output
    assert not (tmp_path / "fairdeal.db").exists()


def test_serve_prints_its_address_and_serves(tmp_path, database_url):
    port = free_port()
    server = subprocess.Popen(
        [
            FAIRDEAL,
            "serve",
            "--port",
            str(port),
            "--data-dir",
            str(tmp_path / "data"),
            "--database-url",
            database_url,
            "--workers",
            "2",
        ],
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
                health = http("GET", f"http://127.0.0.1:{port}/health", timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < give_up and server.poll() is None, server.stderr.read()
                time.sleep(0.1)
        assert health.json() == {
            "status": "ok",
            "store": "sqlite" if database_url.startswith("sqlite") else "postgresql",
        }
        # Each worker listens on a socket of its own (SO_REUSEPORT): the kernel spreads the connections.
        # (The first worker up answered /health; the other may still be starting.)
        while listening_sockets(port) < 2:
            assert time.monotonic() < give_up and server.poll() is None, f"{listening_sockets(port)} socket(s) listen"
            time.sleep(0.1)
        assert listening_sockets(port) == 2
        game = http(
            "POST", f"http://127.0.0.1:{port}/games", json={"seats": [{"name": "A", "bot": True}, {"name": "B"}]}
        )
        assert game.status_code == 201
        key = http("GET", f"http://127.0.0.1:{port}/.well-known/fairdeal-key").json()["key"]
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

    from fairdeal.service import cli

    started = []
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: started.append(kwargs["workers"]))
    monkeypatch.setattr(cli, "run_workers", lambda config, host, port: started.append(config.workers))
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    many = CliRunner().invoke(main, ["serve", "--data-dir", str(tmp_path), "--database-url", db, "--workers", "2"])
    one = CliRunner().invoke(main, ["serve", "--data-dir", str(tmp_path), "--database-url", db])
    assert many.exit_code == one.exit_code == 0 and started == [2, 1]
    assert "for several workers, PostgreSQL serves better" in many.output
    assert "PostgreSQL" not in one.output


def test_serve_with_workers_refuses_an_address_in_use(tmp_path):
    # Their sockets take SO_REUSEPORT, which would let a second server share a port with the first
    # (even another fairdeal serve): the address must be free of every other socket first.
    with socket.socket() as taken:
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--port", str(port), "--data-dir", str(tmp_path), "--workers", "2"])
    assert result.exit_code == 1 and f"cannot listen on 127.0.0.1:{port}: Address already in use" in result.output


def _closed(sock: socket.socket) -> bytes:
    """What the server sent before it closed the connection (the socket's timeout: it never did)."""
    got = b""
    while chunk := sock.recv(65536):
        got += chunk
    return got


def test_serve_refuses_a_huge_request_head_and_closes_silent_connections(tmp_path):
    with serving(tmp_path, HEADER_TIMEOUT="0.5", CREATE_RATE="2/minute") as (port, _):
        # A 64 MB header: 431 once the head is over 16 KiB, and the connection closed (the rest is never read).
        with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ")
            chunk = b"a" * (1024 * 1024)
            try:
                for _ in range(64):
                    sock.sendall(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass  # closed before all of it was sent
            try:
                answer = _closed(sock)
            except ConnectionResetError:
                answer = b""  # (the kernel may drop the answer when unread bytes were pending)
        assert answer == b"" or (answer.startswith(b"HTTP/1.1 431 ") and b"over 16384 bytes" in answer), answer[:200]
        # Just over the limit, sent at once: the 431 and its reason come back.
        with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20_000 + b"\r\n\r\n")
            answer = _closed(sock)
        assert (
            answer.startswith(b"HTTP/1.1 431 ")
            and b'{"detail":"the request line and headers are over 16384 bytes"}' in answer
        )
        # A half-sent request, and a connection that sends nothing, are closed after the header timeout.
        for sent in (b"GET /health HTTP/1.1\r\nHost: x\r\n", b""):
            with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
                sock.sendall(sent)
                assert _closed(sock) == b""
        # With no trusted proxies, a loopback client's X-Forwarded-For is not believed: three creates
        # "from" three addresses are one client's, and the third is over its 2/minute.
        body = {"seats": [{"name": "Ann"}, {"name": "Bot", "bot": True}]}
        answers = [
            http(
                "POST",
                f"http://127.0.0.1:{port}/games",
                json=body,
                timeout=20,
                headers={"X-Forwarded-For": f"198.51.100.{n}"},
            )
            for n in (1, 2, 3)
        ]
        assert [a.status_code for a in answers] == [201, 201, 429], [a.text for a in answers]
        # A whole request is answered as ever, and the connection kept for the next.
        with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            assert sock.recv(65536).startswith(b"HTTP/1.1 200 ")
