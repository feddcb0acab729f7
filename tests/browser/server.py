"""Run the real fairdeal app under uvicorn for the browser tests, with reproducible games.

``python tests/browser/server.py --port N --data-dir DIR`` serves
:func:`fairdeal.service.app.create_app` exactly as ``fairdeal serve`` does,
except that a game's server seed and id (``create_app(new_ids=...)``) come
from ``HMAC(TEST_KEY, what the game is)``: its rules, options and seats, and
how many such games came before in this server. A test that names its seats uniquely gets the same cards on
every run, whatever other tests ran first. The browser side makes its client
seeds from ``crypto.getRandomValues``, which the tests seed too (conftest.py).

Never do this outside tests: a predictable server seed is a stacked deck.
"""

from __future__ import annotations

import argparse
import hmac
import json
import os
import threading
from collections import Counter

TEST_KEY = b"fairdeal browser tests"

_current = threading.local()
_made: Counter[str] = Counter()
_lock = threading.Lock()


def _digest(label: str) -> bytes:
    return hmac.digest(TEST_KEY, f"{_current.key}/{label}".encode(), "sha256")


def reproducible_ids() -> tuple[str, str]:
    """``create_app(new_ids=...)``: the game id and server seed of the game being created."""
    return "t" + _digest("id").hex()[:15], _digest("server").hex()


def install() -> None:
    """Name each game by what it is while it is created, for :func:`reproducible_ids`."""
    import fairdeal.service.games as games

    # Where GameService.create_async makes the game (and asks new_ids for its id and seed).
    new_game = games.GameService._new_game

    def new_game_named(self, rules_name, options, seats, *args, **kwargs):  # type: ignore[no-untyped-def]
        what = json.dumps([rules_name, options, [[s.name, s.bot] for s in seats]], sort_keys=True)
        with _lock:
            _made[what] += 1
            _current.key = f"{what}#{_made[what]}"
        try:
            return new_game(self, rules_name, options, seats, *args, **kwargs)
        finally:
            _current.key = None

    games.GameService._new_game = new_game_named


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--data-dir", required=True)
    args = parser.parse_args()
    os.environ["FAIRDEAL_DATA_DIR"] = args.data_dir
    install()

    import uvicorn

    from fairdeal.service.app import create_app
    from fairdeal.service.settings import Settings

    app = create_app(Settings.from_env(), new_ids=reproducible_ids)
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
