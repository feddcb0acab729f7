"""The README's picture of the table: ``.venv/bin/python tests/browser/screenshot.py [out.jpg]``
(``make screenshot``), by default into spec/screenshots/table.jpg: a JPEG of quality 80 (the
felt's grain makes a PNG of the page twice the size); a name ending .png saves a PNG.

It starts the test server (tests/browser/server.py: reproducible server seeds), creates a Crazy
Eights table of one person and three bots through the API, opens the person's link at 1366x768 in
Chromium with the page's own seed fixed (as the browser tests do), plays until the person holds an
eight, lifts it and opens the suit tokens, and saves the page. The same commit makes the same
picture."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from conftest import CHROMIUM  # noqa: E402
from conftest import CHROMIUM_ARGS  # noqa: E402
from conftest import SEEDED_RANDOM  # noqa: E402
from conftest import api  # noqa: E402
from conftest import free_port  # noqa: E402
from conftest import serving  # noqa: E402
from play import to_an_eight  # noqa: E402

OUT = HERE.parent.parent / "spec" / "screenshots" / "table.jpg"
SIZE = {"width": 1366, "height": 768}
SEED = 16  # the page's crypto.getRandomValues, so its client seed (and the deal) is the same every time


def start_server(data: Path) -> tuple[subprocess.Popen[bytes], str]:
    """The app under uvicorn on a free port, bots answering at once and a 30 s turn."""
    port = free_port()
    env = {"FAIRDEAL_BOT_DELAY": "0", "FAIRDEAL_TURN_SECONDS": "30", "FAIRDEAL_LOG_LEVEL": "warning"}
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, str(HERE / "server.py"), "--port", str(port), "--data-dir", str(data)]
    return serving(command, f"{base}/health", env={**os.environ, **env}), base


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as data:
        server, base = start_server(Path(data))
        try:
            seats = [{"name": "Lin", "bot": False}] + [{"name": f"Bot {n}", "bot": True} for n in ("Ada", "Ben", "Cy")]
            game = api(base, "POST", "/games", {"rules": "crazy-eights", "seats": seats})
            link = f"{base}/table/{game['game_id']}#seat=0&token={game['seats'][0]['join_token']}"
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                context = browser.new_context(
                    viewport=SIZE, device_scale_factor=1, locale="en-GB", reduced_motion="reduce"
                )
                context.add_init_script(SEEDED_RANDOM % SEED)
                page = context.new_page()
                page.goto(link)
                to_an_eight(page)
                page.mouse.move(SIZE["width"] - 1, SIZE["height"] - 1)  # no pointer over a card: no tooltip
                page.wait_for_selector("#tooltip", state="hidden")
                page.wait_for_selector("#toast", state="hidden")  # the last message has gone
                if out.suffix.lower() == ".png":
                    page.screenshot(path=str(out), animations="disabled")
                else:
                    page.screenshot(path=str(out), animations="disabled", type="jpeg", quality=80)
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)
    print(f"{out} ({out.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
