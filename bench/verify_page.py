"""How fast the verify page checks a record in the browser, against ``fairdeal-verify``.

    python bench/verify_page.py [--port N]

Makes one finished 4-player Crazy Eights record with the code bench/verify.py uses
(the same table, match and seeds: record 1), starts ``fairdeal serve`` on a free port
with a throwaway data directory, and drives Debian's Chromium (Playwright, nothing
downloaded) at its /verify page:

- ``cold_s``: a new browser context (empty cache): from opening the page to the verdict
  of the record pasted into it (the page, Pyodide's 13 MB core and the engine bundle
  fetched, WebAssembly compiled, the verifier imported, the record verified);
- ``warm_s``: the same page, the same record pasted again: the verdict with the engine
  already up (what every record after the first costs);
- ``reload_s``: the page reloaded in the same context (everything from the HTTP cache,
  Pyodide started again) to the verdict;
- ``page_replay_s``: the engine's own time for the verify call, timed in the page;
- ``cli_s``: ``fairdeal-verify`` on the same record, the whole command (a new process);
- ``cli_replay_s``: :func:`verifier.verify` on it in this process (the CLI's own replay);
- ``replay_ratio = page_replay_s / cli_replay_s``.

Wall-clock times, the median of ``--repeat`` runs each (the machines are shared). Targets:
cold within 6 s, warm within 1.5 s, replay_ratio within 8. The last line is ``key=value``
pairs, for comparing runs.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

from fairdeal.verification import verify

HERE = Path(__file__).resolve().parent
CHROMIUM = os.environ.get("FAIRDEAL_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
]


def bench_record() -> str:
    """bench/verify.py's record 1."""
    spec = importlib.util.spec_from_file_location("bench_verify", HERE / "verify.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module.make_record(1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, data: Path) -> subprocess.Popen[bytes]:
    fairdeal = Path(sys.executable).with_name("fairdeal")
    process = subprocess.Popen(
        [str(fairdeal), "serve", "--port", str(port), "--data-dir", str(data), "--log-level", "warning"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1).close()
            return process
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError("fairdeal serve did not start") from None
            time.sleep(0.1)


PASTE = """async (t) => {
  document.body.dataset.verdict = 'idle';
  document.getElementById('paste').value = t;
  document.getElementById('paste-go').click();
}"""
DONE = "body[data-verdict='verified'], body[data-verdict='failed']"


def page_runs(base: str, record: str, repeat: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"cold_s": [], "warm_s": [], "reload_s": [], "page_replay_s": []}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for _ in range(repeat):
            context = browser.new_context()
            context.set_default_timeout(120_000)
            page = context.new_page()
            start = time.perf_counter()
            page.goto(base + "/verify")
            page.wait_for_selector("body[data-verdict='idle']")
            page.evaluate(PASTE, record)
            page.wait_for_selector(DONE)
            times["cold_s"].append(time.perf_counter() - start)
            assert page.get_attribute("body", "data-verdict") == "verified", page.inner_text("#verdict")

            start = time.perf_counter()
            page.evaluate(PASTE, record)
            page.wait_for_selector(DONE)
            times["warm_s"].append(time.perf_counter() - start)

            replay = page.evaluate(
                "async (t) => { const s = performance.now(); await globalThis.fairdealEngine('verify', t, null, null);"
                " return (performance.now() - s) / 1000; }",
                record,
            )
            times["page_replay_s"].append(replay)

            start = time.perf_counter()
            page.reload()
            page.wait_for_selector("body[data-verdict='idle']")
            page.evaluate(PASTE, record)
            page.wait_for_selector(DONE)
            times["reload_s"].append(time.perf_counter() - start)
            context.close()
        browser.close()
    return times


def cli_runs(path: Path, record: str, repeat: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"cli_s": [], "cli_replay_s": []}
    command = [str(Path(sys.executable).with_name("fairdeal-verify")), str(path)]
    for _ in range(repeat):
        start = time.perf_counter()
        run = subprocess.run(command, capture_output=True, text=True)
        times["cli_s"].append(time.perf_counter() - start)
        assert run.returncode == 0, run.stdout + run.stderr
        start = time.perf_counter()
        assert verify(record).verified
        times["cli_replay_s"].append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measurement (the median is kept)")
    args = parser.parse_args()
    record = bench_record()
    moves = sum('"type":"move"' in line for line in record.splitlines())
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench-1.jsonl"
        path.write_text(record, encoding="utf-8")
        port = free_port()
        server = start_server(port, Path(tmp) / "data")
        try:
            times = page_runs(f"http://127.0.0.1:{port}", record, args.repeat)
        finally:
            server.terminate()
            server.wait(timeout=10)
        times |= cli_runs(path, record, args.repeat)
    result = {key: statistics.median(values) for key, values in times.items()}
    result["replay_ratio"] = result["page_replay_s"] / result["cli_replay_s"]
    print(
        f"record: 4-player Crazy Eights, {len(record.splitlines())} lines, {moves} moves; median of {args.repeat} runs"
    )
    for key, value in result.items():
        print(f"  {key:14} {value:8.3f}")
    print(" ".join(f"{key}={value:.3f}" for key, value in result.items()))


if __name__ == "__main__":
    main()
