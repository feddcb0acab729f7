"""What every test below this folder shares.

The helpers the test files share are plain functions in tests/helpers.py (``from helpers import
cards, first, ...``); the tamper tests' mutations are in tests/test_tamper.py and the verifier
tests' driver in tests/test_verifier_support.py. This folder is on ``sys.path`` for every test
under it (also for tests/service and tests/browser, and whatever import mode pytest runs in), so
that they import the same way from anywhere.
"""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = str(Path(__file__).resolve().parent)
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)
