"""A client in another ecosystem, typed from /openapi.json alone: openapi-typescript (npm) writes
the types from the running server's document, ``tsc --noEmit`` checks tests/ts-client/src/client.ts
against them (each game's view is its own type, discriminated by ``rules``), and Node runs it: a
whole Crazy Eights and a whole Eleusis game against ``fairdeal serve``, each record then verified
with GET /games/{id}/verify. ``make test`` installs the npm packages (tests/ts-client/package-lock.json)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from helpers import http
from service_helpers import free_port

CLIENT = Path(__file__).resolve().parents[1] / "ts-client"
FAIRDEAL = str(Path(sys.executable).with_name("fairdeal"))
NODE = shutil.which("node") or "/usr/bin/node"


def _run(*args: str, cwd: Path) -> str:
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{' '.join(args)}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """``fairdeal serve`` on SQLite, bots at once and no pause between hands; its base URL."""
    port = free_port()
    env = {**os.environ, "FAIRDEAL_BOT_DELAY": "0", "FAIRDEAL_NEXT_HAND_SECONDS": "0"}
    server = subprocess.Popen(
        [FAIRDEAL, "serve", "--port", str(port), "--data-dir", str(tmp_path_factory.mktemp("ts") / "data")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        give_up = time.monotonic() + 30
        while True:
            try:
                http("GET", base + "/health", timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < give_up and server.poll() is None, server.stderr.read()
                time.sleep(0.1)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.fixture(scope="module")
def built(served, tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """tests/ts-client typed from the server's /openapi.json and built by one ``tsc`` (its
    installed packages linked), beside ``src/wrong.ts``: the client with one mistake a type
    checker must catch, reading a member of another game's table. The folder, and what tsc said
    (it exits 2 on an error, and emits the JavaScript all the same)."""
    work = tmp_path_factory.mktemp("ts-client")
    (work / "src").mkdir()
    for name in ("package.json", "tsconfig.json"):
        shutil.copy(CLIENT / name, work / name)
    text = (CLIENT / "src" / "client.ts").read_text(encoding="utf-8")
    (work / "src" / "client.ts").write_text(text, encoding="utf-8")
    assert "stock ${view.table.stock_size}" in text
    wrong = text.replace("stock ${view.table.stock_size}", "stock ${view.table.mainline}")
    (work / "src" / "wrong.ts").write_text(wrong, encoding="utf-8")
    assert (CLIENT / "node_modules" / ".bin" / "tsc").exists(), "run make test: it installs tests/ts-client's packages"
    (work / "node_modules").symlink_to(CLIENT / "node_modules")
    (work / "openapi.json").write_text(http("GET", served + "/openapi.json").text, encoding="utf-8")
    bin_ = work / "node_modules" / ".bin"
    _run(NODE, str(bin_ / "openapi-typescript"), "openapi.json", "-o", "src/api.d.ts", cwd=work)
    checked = subprocess.run([NODE, str(bin_ / "tsc")], cwd=work, capture_output=True, text=True, timeout=300)
    return work, checked


def test_a_typescript_client_typed_from_openapi_plays_and_verifies_both_games(served, built):
    client_dir, checked = built
    types = (client_dir / "src" / "api.d.ts").read_text(encoding="utf-8")
    assert "CrazyEightsSeatView: {" in types and "EleusisSeatView: {" in types and 'rules: "eleusis";' in types
    # The client type-checks against them: tsc's only complaints are about wrong.ts.
    complaints = [line for line in checked.stdout.splitlines() if line.startswith("src/")]
    assert complaints and all(line.startswith("src/wrong.ts") for line in complaints), checked.stdout
    out = _run(NODE, "dist/client.js", served, "crazy-eights", "eleusis", cwd=client_dir)
    games = {game["rules"]: game for game in map(json.loads, out.splitlines())}
    assert set(games) == {"crazy-eights", "eleusis"}
    for game in games.values():
        assert game["status"] == "over" and game["verified"] is True and game["hands"] >= 1 and game["moves"] > 5
    assert "play" in games["crazy-eights"]["kinds"] and {"string", "call"} & set(games["eleusis"]["kinds"])
    assert games["eleusis"]["last_table"].startswith("mainline ") and games["crazy-eights"]["last_table"].startswith(
        "top "
    )


def test_reading_a_member_another_game_s_table_has_does_not_type_check(built):
    _, checked = built
    assert checked.returncode != 0
    assert "src/wrong.ts" in checked.stdout and "Property 'mainline' does not exist" in checked.stdout
