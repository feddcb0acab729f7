"""``fairdeal export-verifier DIR``: the verify page as a static folder, served by a plain file
server on another port with no fairdeal service running, verifies records in Chromium."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from fairdeal.record import resign

from .conftest import free_port
from .conftest import serving
from .records import FORGER
from .records import text

EXAMPLE = Path(__file__).resolve().parents[2] / "spec" / "vectors" / "record-example.jsonl"


@pytest.fixture(scope="module")
def static_site(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("static") / "verifier"
    run = subprocess.run(
        [sys.executable, "-m", "fairdeal.cli", "export-verifier", str(folder)], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "-d", str(folder)]
    server = serving(command, base + "/index.html")
    yield base, folder, run.stdout
    server.terminate()
    server.wait(timeout=10)


def _verify_pasted(page, body: str) -> None:
    page.evaluate(
        "t => { document.getElementById('paste-box').open = true; document.getElementById('paste').value = t; "
        "document.body.dataset.verdict = 'idle'; document.getElementById('paste-go').click(); }",
        body,
    )
    page.wait_for_selector("body[data-verdict='verified'], body[data-verdict='failed']")


def test_the_exported_folder_verifies_honest_and_tampered_records_without_the_service(static_site, browser):
    base, folder, said = static_site
    manifest = json.loads((folder / "engine" / "manifest.json").read_text())
    assert (folder / "engine" / manifest["bundle"]).is_file() and manifest["sha256"] in said
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    requests: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    context.on("request", lambda r: requests.append(r.url))
    page.goto(base + "/index.html")
    page.wait_for_selector("body[data-verdict='idle']")

    honest = EXAMPLE.read_text()
    _verify_pasted(page, honest)
    assert page.locator("#verdict-box strong").inner_text() == "VERIFIED"
    assert page.locator("#engine-sha").inner_text() == manifest["sha256"]

    lines = [json.loads(raw) for raw in honest.splitlines()]
    end = next(i for i, line in enumerate(lines) if line["type"] == "hand-end")
    lines[end]["scores"] = [lines[end]["scores"][0] + 1, *lines[end]["scores"][1:]]
    _verify_pasted(page, text(resign(lines, FORGER)))
    assert page.locator("#verdict-box strong").inner_text() == "NOT VERIFIED"
    assert page.locator("#failure").inner_text().startswith(f"line {end + 1}: hand-end scores")

    # Every request went to the static folder, and none was an API call or carried the record.
    assert all(url.startswith(base + "/") for url in requests)
    paths = {url[len(base) :].split("?")[0] for url in requests}
    outside = {
        p
        for p in paths
        if p not in ("/index.html", "/replay.html")
        and not p.startswith(("/css/", "/js/", "/engine/", "/pyodide/", "/vendor/"))
    }
    assert not outside, outside

    # The replayer is in the copy too, beside the verify page.
    _verify_pasted(page, honest)
    page.click("#replay-link")
    page.wait_for_selector("body[data-ready='true']")
    assert page.url.startswith(base + "/replay.html")
    context.close()
    assert not errors
