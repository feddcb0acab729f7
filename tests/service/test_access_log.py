"""The access log (#33 item 2): the requests ``FAIRDEAL_ACCESS_LOG`` asks for, and the status each
client got, a 408 of ``fairdeal serve``'s own included."""

from __future__ import annotations

import json
import logging
import socket
import threading
import time

import pytest
import uvicorn
from click.testing import CliRunner
from fastapi.testclient import TestClient

from fairdeal.cli import main
from fairdeal.service import Settings
from fairdeal.service import create_app
from fairdeal.service.http import LimitedHttpTools
from fairdeal.service.http import uvicorn_options
from fairdeal.service.settings import SettingsError


def access_lines(caplog: pytest.LogCaptureFixture) -> list[dict[str, object]]:
    return [json.loads(r.getMessage()) for r in caplog.records if r.name == "fairdeal.access"]


@pytest.mark.parametrize(
    ("setting", "logged"),
    [("all", 12), ("errors", 2), ("1/5", 2 + 2), ("1/1", 12), ("off", 0)],
)
def test_the_access_log_has_the_lines_its_setting_asks_for(tmp_path, caplog, setting, logged):
    caplog.set_level(logging.INFO, "fairdeal.access")
    settings = Settings.from_env({"FAIRDEAL_DATA_DIR": str(tmp_path), "FAIRDEAL_ACCESS_LOG": setting})
    with TestClient(create_app(settings)) as client:
        caplog.clear()
        statuses = [client.get("/health").status_code for _ in range(10)]
        statuses += [client.get("/games/nosuchgame").status_code, client.get("/no/such/page").status_code]
    assert statuses == [200] * 10 + [404, 404]
    lines = access_lines(caplog)
    assert len(lines) == logged, lines
    # 1/5: the fifth and tenth requests, and every error.
    assert [line["status"] for line in lines] == {
        "all": [200] * 10 + [404] * 2,
        "1/1": [200] * 10 + [404] * 2,
        "errors": [404] * 2,
        "1/5": [200, 200, 404, 404],
        "off": [],
    }[setting]


@pytest.mark.parametrize("value", ["some", "1/0", "2/5", "1/", "1/1000001", "1/x", "1/-5"])
def test_a_bad_access_log_setting_is_refused_at_start_naming_it(tmp_path, monkeypatch, value):
    with pytest.raises(SettingsError, match="FAIRDEAL_ACCESS_LOG"):
        Settings.from_env({"FAIRDEAL_ACCESS_LOG": value})
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: pytest.fail("served"))
    monkeypatch.setenv("FAIRDEAL_ACCESS_LOG", value)
    result = CliRunner().invoke(main, ["serve", "--data-dir", str(tmp_path)])
    assert result.exit_code == 2 and "FAIRDEAL_ACCESS_LOG" in result.output, result.output


def test_the_access_log_setting_reaches_the_workers():
    settings = Settings.from_env({"FAIRDEAL_ACCESS_LOG": " Errors "})
    assert settings.access_log == "errors" and settings.access_log_sample == (0, True)
    assert Settings.from_env(settings.to_env()) == settings
    assert Settings().access_log_sample == (1, True)  # every request, as before the setting


def test_a_body_that_came_too_late_is_logged_408_as_answered(tmp_path, caplog):
    # The app, told that its client had left, answered 400 into the void, and the log said 400.
    caplog.set_level(logging.INFO, "fairdeal.access")
    settings = Settings(data_dir=tmp_path, body_timeout=0.2)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    was = {
        name: getattr(LimitedHttpTools, name)
        for name in ("max_head_bytes", "head_seconds", "body_seconds", "max_connections")
    }
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning")
    for name, value in uvicorn_options(settings).items():
        setattr(config, name, value)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        give_up = time.monotonic() + 30
        while not server.started:
            assert time.monotonic() < give_up and thread.is_alive(), "the server did not start"
            time.sleep(0.05)
        with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
            sock.sendall(
                b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"
            )
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 408 "), answer
        while not access_lines(caplog):  # written once the app's handler has returned
            assert time.monotonic() < give_up, "no access log line"
            time.sleep(0.05)
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        for name, value in was.items():
            setattr(LimitedHttpTools, name, value)
    assert [(line["method"], line["path"], line["status"]) for line in access_lines(caplog)] == [
        ("POST", "/games", 408)
    ]
