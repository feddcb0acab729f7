"""Run the real fairdeal app under uvicorn for the browser tests, with reproducible games.

``python tests/browser/server.py --port N --data-dir DIR`` serves
:func:`fairdeal.service.app.create_app` exactly as ``fairdeal serve`` does,
except that a game's server seed and id come from ``HMAC(TEST_KEY, what the
game is)``: its rules, options and seats, and how many such games came before
in this server. A test that names its seats uniquely gets the same cards on
every run, whatever other tests ran first. The browser side makes its client
seeds from ``crypto.getRandomValues``, which the tests seed too (conftest.py).

Never do this outside tests: a predictable server seed is a stacked deck.
"""

from __future__ import annotations

import argparse
import hmac
import json
import os
import secrets
import threading
from collections import Counter
from types import SimpleNamespace

TEST_KEY = b"fairdeal browser tests"

_current = threading.local()
_made: Counter[str] = Counter()
_lock = threading.Lock()


def _digest(label: str) -> bytes:
    return hmac.digest(TEST_KEY, f"{_current.key}/{label}".encode(), "sha256")


def install() -> None:
    import fairdeal.service.games as games

    create = games.GameService.create

    def reproducible_create(self, rules_name, options, seats, turn_seconds=None):  # type: ignore[no-untyped-def]
        what = json.dumps([rules_name, options, [[s.name, s.bot] for s in seats]], sort_keys=True)
        with _lock:
            _made[what] += 1
            _current.key = f"{what}#{_made[what]}"
        try:
            return create(self, rules_name, options, seats, turn_seconds)
        finally:
            _current.key = None

    def token_urlsafe(nbytes: int | None = None) -> str:
        if getattr(_current, "key", None) and nbytes == 12:  # the game id
            return "t" + _digest("id").hex()[:15]
        return secrets.token_urlsafe(nbytes)

    games.GameService.create = reproducible_create
    games.new_server_seed = lambda: _digest("server").hex()
    games.secrets = SimpleNamespace(token_urlsafe=token_urlsafe)


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

    uvicorn.run(create_app(Settings.from_env()), host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
