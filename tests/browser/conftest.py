"""Real Chromium (Playwright for Python) against the real app in a uvicorn subprocess.

- ``server``: the app (tests/browser/server.py: fairdeal's create_app under
  uvicorn, reproducible server seeds) on a free localhost port, for the session.
- ``browser``: Debian's Chromium headless shell at /usr/bin/chromium-headless-shell
  (Chromium's engine without the desktop browser: a quarter less CPU a page than
  ``chromium --headless``); Playwright never downloads a browser here.
- ``open_page(path, viewport=..., seed=..., motion=...)``: a page in a fresh
  context whose ``crypto.getRandomValues`` is seeded (so the seat's client seed,
  and with it the whole game, is the same on every run), with every console
  error and page error collected; a test fails if any page logged one. Pages
  prefer reduced motion unless ``motion=True``.
- ``table``: create a game through the API and open a seat's link.

Screenshots go to tests/artifacts/ (gitignored) for people to look at.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser
from playwright.sync_api import BrowserContext
from playwright.sync_api import Page
from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
ARTIFACTS = HERE.parent / "artifacts"
SHOTS = os.environ.get("FAIRDEAL_SCREENSHOTS") == "1"
"""Whether the tests save their screenshots to tests/artifacts/ (``FAIRDEAL_SCREENSHOTS=1 make test``):
pictures for a person to look at, which no test reads; off by default, as the 60-odd full pages
took a tenth of the browser tests' time."""
CHROMIUM = os.environ.get("FAIRDEAL_CHROMIUM", "/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LAPTOP = {"width": 1366, "height": 820}
PHONE = {"width": 375, "height": 740}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serving(
    args: list[str], url: str, *, env: dict[str, str] | None = None, log: Path | None = None, seconds: float = 30
) -> subprocess.Popen[bytes]:
    """Start the server ``args`` and wait until ``url`` answers 200; its process. A server that
    stops or does not answer in ``seconds`` is killed and a RuntimeError ends with its ``log``."""
    out = open(log, "wb") if log else subprocess.DEVNULL
    process = subprocess.Popen(args, env=env, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=1) as response:
                if response.status == 200:
                    return process
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            said = log.read_text(errors="replace")[-3000:] if log else ""
            raise RuntimeError(f"{' '.join(args[:3])} did not start:\n{said}")
        time.sleep(0.1)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from fairdeal.web import PYODIDE_DIR

    if not (PYODIDE_DIR / "pyodide.asm.wasm").is_file():
        # The verify page runs the verifier in Pyodide: `make test` fetches it, a bare pytest does not.
        raise RuntimeError(f"Pyodide is not in {PYODIDE_DIR}: run `make pyodide` (or `make test`)")
    data = tmp_path_factory.mktemp("browser-data")
    port = free_port()
    env = {
        **os.environ,
        "FAIRDEAL_BOT_DELAY": "0",  # bots answer within the seat's own request
        "FAIRDEAL_NEXT_HAND_SECONDS": "0",  # deal at once; a test that wants the pause asks its table for it
        "FAIRDEAL_TICK_SECONDS": "0.05",
        "FAIRDEAL_TURN_SECONDS": "20",
        "FAIRDEAL_LOG_LEVEL": "warning",
        # The operator's limits, high: every request of a test comes from one address.
        "FAIRDEAL_CREATE_RATE": "1000000/minute",
        "FAIRDEAL_MOVE_RATE": "1000000/minute",
        "FAIRDEAL_MAX_GAMES_PER_CLIENT": "1000000",
        "FAIRDEAL_MAX_STREAMS_PER_CLIENT": "10000",
    }
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, str(HERE / "server.py"), "--port", str(port), "--data-dir", str(data)]
    process = serving(command, f"{base}/health", env=env, log=data / "server.log")
    try:
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        raise RuntimeError(
            f"Chromium is not installed at {CHROMIUM}: `make test` installs Debian's chromium-headless-shell package"
        )
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


# crypto.getRandomValues from a fixed seed (xorshift32): the seat's client seed
# becomes a function of the test, so the cards dealt are too.
SEEDED_RANDOM = """
(() => {
  let state = %d >>> 0 || 1;
  const next = () => { state ^= state << 13; state >>>= 0; state ^= state >>> 17; state ^= state << 5; state >>>= 0; return state; };
  const original = crypto.getRandomValues.bind(crypto);
  crypto.getRandomValues = (array) => {
    if (!(array instanceof Uint8Array)) return original(array);
    for (let i = 0; i < array.length; i++) array[i] = next() & 255;
    return array;
  };
})();
"""


# Resolves once every picture on the page is decoded (or failed: a test that cares asserts it).
IMAGES_DECODED = "() => Promise.all([...document.images].map((img) => img.decode().catch(() => null)))"


def save_shot(page: Page, name: str, *, full_page: bool = False) -> None:
    """tests/artifacts/<name>.png, when :data:`SHOTS` asks for pictures."""
    if not SHOTS:
        return
    ARTIFACTS.mkdir(exist_ok=True)
    page.evaluate(IMAGES_DECODED)  # a picture still loading would show as a blank card
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page, animations="disabled")


@dataclass
class Opened:
    page: Page
    context: BrowserContext
    errors: list[str] = field(default_factory=list)

    def shot(self, name: str, *, full_page: bool = False) -> None:
        save_shot(self.page, name, full_page=full_page)


@pytest.fixture
def open_page(server: str, browser: Browser, request: pytest.FixtureRequest) -> Iterator[Callable[..., Opened]]:
    opened: list[Opened] = []
    checked: list[Opened] = []

    def open_(
        path: str,
        *,
        viewport: dict[str, int] = LAPTOP,
        seed: int | None = None,
        expect_errors: bool = False,
        motion: bool = False,
    ) -> Opened:
        # Most tests ask for reduced motion, as some people do: no animation to wait for.
        context = browser.new_context(
            viewport=viewport,
            device_scale_factor=1,
            locale="en-GB",
            reduced_motion="no-preference" if motion else "reduce",
        )
        context.set_default_timeout(30_000)  # a ceiling for waits on a busy machine, not a sleep
        context.add_init_script(SEEDED_RANDOM % (seed if seed is not None else _seed_of(request.node.name)))
        page = context.new_page()
        item = Opened(page, context)
        page.on("console", lambda m: item.errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: item.errors.append(f"page error: {e}"))
        opened.append(item)
        if not expect_errors:
            checked.append(item)
        page.goto(server + path)
        return item

    yield open_
    problems = [f"{o.page.url}: {e}" for o in checked for e in o.errors]
    for o in opened:  # every one: a page left open goes on polling and streaming for the process's life
        o.context.close()
    assert not problems, "pages logged errors:\n" + "\n".join(problems)


class VerifyPage:
    """One verify page that stays open for a test process's tests: its worker keeps the engine loaded,
    so each record after the first is checked in a fraction of a second instead of a new start."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.errors: list[str] = []

    def load(self, path: Path) -> str:
        """Check the record file at ``path`` as a person would (the file input); the verdict."""
        self.page.evaluate("document.body.dataset.verdict = 'idle'")
        self.page.set_input_files("#file", str(path))
        self.page.wait_for_selector("body[data-verdict='verified'], body[data-verdict='failed']")
        return self.page.evaluate("document.body.dataset.verdict")

    def shot(self, name: str, *, full_page: bool = False) -> None:
        save_shot(self.page, name, full_page=full_page)


@pytest.fixture(scope="session")
def verify_page(server: str, browser: Browser) -> Iterator[VerifyPage]:
    context = browser.new_context(viewport=LAPTOP, device_scale_factor=1, locale="en-GB", reduced_motion="reduce")
    context.set_default_timeout(30_000)
    page = context.new_page()
    opened = VerifyPage(page)
    page.on("console", lambda m: opened.errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: opened.errors.append(f"page error: {e}"))
    page.goto(server + "/verify")
    page.wait_for_selector("body[data-verdict='idle']")
    yield opened
    context.close()
    assert not opened.errors, "the verify page logged errors:\n" + "\n".join(opened.errors)


def _seed_of(name: str) -> int:
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:4], "big")


def api(server: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    """A request to the test server; returns the decoded JSON body, or the text of any
    other type (raises on 4xx/5xx)."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server + path, data=data, headers=headers, method=method)
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read().decode()
        kind = response.headers.get("Content-Type", "")
    return json.loads(text) if kind.startswith("application/json") else text


def record_lines(server: str, game_id: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in api(server, "GET", f"/games/{game_id}/record").splitlines() if line]


@dataclass
class Game:
    server: str
    created: dict[str, Any]

    @property
    def id(self) -> str:
        return self.created["game_id"]

    def token(self, seat: int) -> str:
        return self.created["seats"][seat]["join_token"]

    def link(self, seat: int, *, host: bool = False) -> str:
        fragment = f"seat={seat}&token={self.token(seat)}"
        if host:
            fragment += f"&host={self.created['host_token']}"
        return f"/table/{self.id}#{fragment}"

    def record(self) -> list[dict[str, Any]]:
        return record_lines(self.server, self.id)


@pytest.fixture
def new_game(server: str) -> Callable[..., Game]:
    def create(names: list[str], *, bots: list[bool] | None = None, rules: str = "crazy-eights", **extra: Any) -> Game:
        bots = bots if bots is not None else [i > 0 for i in range(len(names))]
        body = {"rules": rules, "seats": [{"name": n, "bot": b} for n, b in zip(names, bots)], **extra}
        return Game(server, api(server, "POST", "/games", body))

    return create
