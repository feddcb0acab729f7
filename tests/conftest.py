"""What every test below this folder shares.

The helpers the test files share are plain functions in tests/helpers.py (``from helpers import
cards, first, ...``); the tamper tests' mutations are in tests/test_tamper.py and the verifier
tests' driver in tests/test_verifier_support.py. This folder is on ``sys.path`` for every test
under it (also for tests/service and tests/browser, and whatever import mode pytest runs in), so
that they import the same way from anywhere.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

TESTS = str(Path(__file__).resolve().parent)
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)


@pytest.fixture(autouse=True)
def _environment_restored() -> Iterator[None]:
    """Each test leaves the process environment as it found it. ``fairdeal serve`` writes its
    settings into ``os.environ`` for the workers it starts; run in-process (click's CliRunner),
    it left FAIRDEAL_DATABASE_URL behind, and a later test's server process, started with this
    environment, opened that other test's database and found its games."""
    saved = dict(os.environ)
    yield
    if os.environ != saved:
        os.environ.clear()
        os.environ.update(saved)


# The files that take longest (junit times of a whole run, 2026-12-07), longest first, started
# first so that neither worker is left finishing a long one alone at the end. The browser files
# take more than the others in all, so the run ends on short browser files.
LONG_FILES = (
    "browser/test_table.py",
    "browser/test_stops_games.py",
    "browser/test_replayer.py",
    "browser/test_generic_renderer.py",
    "browser/test_verify_page.py",
    "browser/test_i18n.py",
    "browser/test_accessibility.py",
    "browser/test_i18n_games.py",
    "browser/test_newcomer.py",
    "browser/test_eleusis.py",
    "browser/test_layout.py",
    "browser/test_phones.py",
    "browser/test_export_verifier.py",
    "service/test_reliability.py",
    "service/test_http_contract.py",
    "test_michigan_records.py",
    "test_eights_records.py",
    "service/test_service_game.py",
    "test_tamper.py",
    "service/test_ts_client.py",
    "test_fan_tan_tamper.py",
    "service/test_service_notify.py",
    "test_snip_snap_records.py",
    "test_state_json.py",
    "test_fan_tan_sessions.py",
)


def pytest_collection_modifyitems(session, config, items) -> None:
    """Order the files for ``make test``'s two workers (``-n 2 --dist loadfile`` hands out whole
    files in this order): a browser file, mostly waiting on Chromium and a page's engine, goes
    beside a file that replays records on the other core, rather than beside another browser
    file that wants the same cores at the same moments; the longest files of each kind go first."""
    files: dict[Path, list] = {}
    for item in items:
        files.setdefault(Path(str(item.path)), []).append(item)

    def longest_first(paths):
        rank = {name: i for i, name in enumerate(LONG_FILES)}
        return sorted(paths, key=lambda f: rank.get(f.relative_to(TESTS).as_posix(), len(rank)))

    browser = longest_first(f for f in files if f.parent.name == "browser")
    others = longest_first(f for f in files if f.parent.name != "browser")
    order: list[Path] = []
    for i in range(max(len(browser), len(others))):
        order += browser[i : i + 1] + others[i : i + 1]
    items[:] = [item for path in order for item in files[path]]
