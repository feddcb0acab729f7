"""`fairdeal serve` at its edge (#31): a request body's time, and the connections it serves at once.

Each test runs a real server process and speaks HTTP/1.1 over raw sockets, so it sees exactly
what is written and when the connection closes.
"""

from __future__ import annotations

import json
import select
import socket
import time

from click.testing import CliRunner
from test_service_serve import _closed
from test_service_serve import serving

from fairdeal.cli import main

CREATE = json.dumps({"seats": [{"name": "Ann"}, {"name": "Bot", "bot": True}]}).encode()


def request(sock: socket.socket, method: str = "GET", path: str = "/health", body: bytes = b"") -> None:
    head = f"{method} {path} HTTP/1.1\r\nHost: x\r\n"
    if body or method == "POST":
        head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    sock.sendall(head.encode() + b"\r\n" + body)


def response(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One whole answer on ``sock``: its status, headers (lower-cased names) and body."""
    got = b""
    while b"\r\n\r\n" not in got:
        chunk = sock.recv(65536)
        assert chunk, f"closed after {got!r}"
        got += chunk
    head, _, body = got.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
    while len(body) < int(headers.get("content-length", "0")):
        chunk = sock.recv(65536)
        assert chunk, f"closed after {got + body!r}"
        body += chunk
    return int(status_line.split()[1]), headers, body


def test_a_bad_body_timeout_is_refused_at_start(tmp_path, monkeypatch):
    import uvicorn

    started = []
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: started.append(kwargs))  # not to serve if it starts
    monkeypatch.setenv("FAIRDEAL_BODY_TIMEOUT", "0")
    result = CliRunner().invoke(main, ["serve", "--data-dir", str(tmp_path)])
    assert result.exit_code == 2 and "FAIRDEAL_BODY_TIMEOUT" in result.output and not started, result.output


def test_a_body_that_does_not_arrive_in_time_is_answered_408_and_never_handled(tmp_path):
    # Before FAIRDEAL_BODY_TIMEOUT, a body that stopped or trickled held its connection (and a place
    # under FAIRDEAL_MAX_CONNECTIONS) for as long as its client liked.
    with serving(tmp_path, BODY_TIMEOUT="1", MAX_GAMES="1") as (port, first):
        request(first)
        assert response(first)[0] == 200
        first.close()
        # Headers and then silence; a whole create's JSON one byte short of its Content-Length.
        for sent in (b"", CREATE):
            with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
                sock.sendall(
                    b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    b"Content-Length: %d\r\n\r\n%s" % (len(CREATE) + 1, sent)
                )
                answer = _closed(sock)
            assert answer.startswith(b"HTTP/1.1 408 ") and b"content-type: application/json" in answer, answer
            assert answer.endswith(b'{"detail":"the request body did not arrive within 1 s"}'), answer
        # A byte at a time: each one does not push the deadline back.
        with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
            sock.sendall(
                b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: %d\r\n\r\n" % len(CREATE)
            )
            for byte in CREATE:
                try:
                    sock.sendall(bytes([byte]))
                except (BrokenPipeError, ConnectionResetError):
                    break  # closed between two bytes: its answer is waiting
                if select.select([sock], [], [], 0.25)[0]:
                    break
            answer = _closed(sock)
        assert answer.startswith(b"HTTP/1.1 408 "), answer
        # No handler ran on a part of a body: the one game FAIRDEAL_MAX_GAMES allows is still to make.
        answers = []
        for _ in range(2):
            with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
                request(sock, "POST", "/games", CREATE)
                status, _, body = response(sock)
                answers.append((status, body.decode()))
        assert [status for status, _ in answers] == [201, 503], answers


def test_the_connection_cap_serves_exactly_its_number_and_answers_json_503(tmp_path):
    # uvicorn's limit_concurrency counted the asking connection among the open ones, so it refused
    # the Nth, and in plain text with no Retry-After.
    with serving(tmp_path, MAX_CONNECTIONS="3", KEEP_ALIVE_TIMEOUT="60") as (port, first):
        served = [first] + [socket.create_connection(("127.0.0.1", port), timeout=20) for _ in range(2)]
        for sock in served:
            request(sock)
            assert response(sock)[0] == 200
        with socket.create_connection(("127.0.0.1", port), timeout=20) as over:
            request(over)
            status, headers, body = response(over)
            assert over.recv(1) == b""  # and closed
        assert status == 503 and headers["content-type"] == "application/json" and headers["retry-after"] == "5"
        assert json.loads(body) == {"detail": "the server serves 3 connections at once, its most: try again in 5 s"}
        # The connections served are served on; one closed makes room for another.
        request(served[1])
        assert response(served[1])[0] == 200
        served.pop().close()
        give_up = time.monotonic() + 20  # until the server has seen the close
        while True:
            with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
                request(sock)
                if response(sock)[0] == 200:
                    break
            assert time.monotonic() < give_up
        for sock in served[1:]:
            sock.close()
