"""How soon a move made through one server process reaches a live-updates stream of another.

    python bench/notify.py [--moves N]

Two ``fairdeal serve`` processes on one fresh PostgreSQL schema (at
127.0.0.1:5432, dropped afterwards), in the same run twice: first as the
baseline, with ``FAIRDEAL_LIVE_UPDATES=poll`` (each stream looks at its game's
row every quarter of a second, as before LISTEN/NOTIFY), then with ``notify``
(the default: a stream waits for PostgreSQL's announcement). In each, a table
of two people is made through server two and a spectator's stream opened on
server one; then N moves are made through server two, one at a time, each a
random 0-300 ms after the last one's line arrived (longer than a polling
interval: a move that came always just after a poll would wait the whole
interval, and the baseline would look worse than it is). A move's latency is from just before its
request is sent to server two until its line is read from server one's stream:
the move's own round trip, and the delivery. (The line before the last gives
the moves' own answers, for telling the two apart on a busy machine.)

The last line is ``key=value`` pairs: ``poll_p50_ms``, ``poll_p99_ms`` (the
baseline), ``notify_p50_ms`` and ``notify_p99_ms``. Target: notify_p99_ms
under 200.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from load import HOST
from load import BenchError
from load import choose
from load import database
from load import server

from fairdeal.fairness import client_commitment

ARRIVAL_SECONDS = 10.0
"""A line that has not reached the stream by then stops the run."""


class Spectator:
    """A stream of one game on one server, read in a thread: when each seq's line arrived."""

    def __init__(self, url: str, game_id: str) -> None:
        self.arrived: dict[int, float] = {}
        self.changed = threading.Condition()
        self.ready = threading.Event()
        self.client = httpx.Client(timeout=httpx.Timeout(30, read=None))
        self.thread = threading.Thread(
            target=self._read, args=(f"{url}/games/{game_id}/events?wait=3600",), daemon=True
        )
        self.thread.start()
        if not self.ready.wait(30):
            raise BenchError("the stream did not open")

    def _read(self, url: str) -> None:
        kind, event_id = None, None
        try:
            with self.client.stream("GET", url) as response:
                for text in response.iter_lines():
                    now = time.monotonic()
                    if text.startswith("event: "):
                        kind = text[len("event: ") :]
                    elif text.startswith("id: "):
                        event_id = int(text[len("id: ") :])
                    elif text == "" and kind is not None:
                        if kind == "line" and event_id is not None:
                            with self.changed:
                                self.arrived[event_id] = now
                                self.changed.notify_all()
                        self.ready.set()  # (the first event is the state)
                        kind, event_id = None, None
        except httpx.HTTPError:
            pass  # closed

    def wait_for(self, seq: int) -> float:
        with self.changed:
            if not self.changed.wait_for(lambda: seq in self.arrived, ARRIVAL_SECONDS):
                raise BenchError(f"line {seq} did not reach the other server's stream in {ARRIVAL_SECONDS} s")
            return self.arrived[seq]

    def close(self) -> None:
        self.client.close()


def new_table(client: httpx.Client, url: str) -> tuple[str, dict[int, str]]:
    answer = client.post(f"{url}/games", json={"seats": [{"name": "Ann", "bot": False}, {"name": "Bo", "bot": False}]})
    answer.raise_for_status()
    game = answer.json()
    tokens = {s["seat"]: s["join_token"] for s in game["seats"]}
    for step in ("commit", "reveal"):
        for seat, token in tokens.items():
            body = {"commitment": client_commitment(f"seed {seat}")} if step == "commit" else {"seed": f"seed {seat}"}
            client.post(
                f"{url}/games/{game['game_id']}/seats/{seat}/{step}",
                json=body,
                headers={"Authorization": f"Bearer {token}"},
            ).raise_for_status()
    return game["game_id"], tokens


def move(client: httpx.Client, url: str, game_id: str, tokens: dict[int, str]) -> tuple[int, float, float] | None:
    """The seat to act plays through ``url``: its line's seq, when the request went and how long its
    answer took; ``None``
    when no seat has the turn (the match is over)."""
    for seat, token in tokens.items():
        auth = {"Authorization": f"Bearer {token}"}
        view = client.get(f"{url}/games/{game_id}/seats/{seat}/view", headers=auth).json()
        if view["your_turn"]:
            sent = time.monotonic()
            answer = client.post(
                f"{url}/games/{game_id}/moves", json={"seq": view["seq"], **choose(view)}, headers=auth
            )
            answer.raise_for_status()
            return int(answer.json()["receipt"]["seq"]), sent, time.monotonic() - sent
    return None


def latencies(mode: str, database_url: str, data_dir: Path, moves: int) -> tuple[list[float], list[float]]:
    """Milliseconds from each move's request through server two to its line on server one's
    stream; and to the move's answer from server two."""
    os.environ["FAIRDEAL_LIVE_UPDATES"] = mode  # (server() passes the environment on)
    logs = Path(data_dir)
    with (
        server(database_url, data_dir, 1, logs / f"one-{mode}.log") as (port_one, _),
        server(database_url, data_dir, 1, logs / f"two-{mode}.log") as (port_two, _),
        httpx.Client(timeout=30) as client,
    ):
        one, two = f"http://{HOST}:{port_one}", f"http://{HOST}:{port_two}"
        time.sleep(1.0)  # the listeners connect
        took: list[float] = []
        answered: list[float] = []
        spectator = None
        try:
            while len(took) < moves:
                if spectator is None:
                    game_id, tokens = new_table(client, two)
                    spectator = Spectator(one, game_id)
                made = move(client, two, game_id, tokens)
                if made is None:
                    spectator.close()
                    spectator = None
                    continue
                seq, sent, answer_seconds = made
                took.append((spectator.wait_for(seq) - sent) * 1000)
                answered.append(answer_seconds * 1000)
                time.sleep(random.uniform(0, 0.3))
        finally:
            if spectator is not None:
                spectator.close()
        return took, answered


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200, help="moves in each mode (default 200)")
    args = parser.parse_args()
    try:
        with tempfile.TemporaryDirectory(prefix="fairdeal-bench-") as tmp:
            data_dir = Path(tmp)
            results: dict[str, Any] = {}
            with database("postgres", data_dir) as database_url:
                for mode in ("poll", "notify"):
                    took, answered = latencies(mode, database_url, data_dir, args.moves)
                    results[f"{mode}_p50_ms"] = round(statistics.median(took), 1)
                    results[f"{mode}_p99_ms"] = round(percentile(took, 99), 1)
                    print(
                        f"{mode}: {len(took)} moves, to the other stream mean {statistics.mean(took):.1f} ms, "
                        f"max {max(took):.1f} ms; the move's own answer p50 {statistics.median(answered):.1f} ms, "
                        f"p99 {percentile(answered, 99):.1f} ms"
                    )
    except BenchError as exc:
        sys.exit(f"bench/notify.py: {exc}")
    print(json.dumps(results))
    print(" ".join(f"{key}={value}" for key, value in results.items()))


if __name__ == "__main__":
    main()
