"""Moves per second and move latency of a real fairdeal server, against its own /health.

    python bench/load.py --tables N --seconds S --store sqlite|postgres
        [--seats 4] [--humans 1] [--workers 1] [--target 100]

Starts ``fairdeal serve`` as a subprocess on a free port of 127.0.0.1 (a
temporary data dir; SQLite in it, or a fresh schema of the PostgreSQL at
127.0.0.1:5432, dropped afterwards), then, in the same run and at the same
concurrency (one keep-alive connection per table):

1. the baseline: N loops of ``GET /health``;
2. the tables: N tables played at once through the API. Each
   table has ``--humans`` human seats, played by a client loop that chooses
   from the seat's view (the first legal play, else the first legal move)
   and submits it with the seq it saw; the other seats are the server's bots,
   which move within the request that hands them the turn (bot delay 0). A
   table whose match ends is replaced by a new one (created, client seeds
   committed and revealed); only move submissions are timed.

The two take turns in slices of about two seconds, S seconds each in all,
after a warm-up of both that is not counted: the machines here are shared
and their load drifts, and a drift must weigh on both sides of the ratio.

Every request must succeed (a 409 or 5xx stops the run: one client per
table never races itself). Bounded: the run stops after S seconds of each
phase, whatever happens, and the server is killed in any case.

The last line is ``key=value`` pairs, for comparing runs: ``moves_per_s``
(moves made at the tables per second: every move line the timed submissions
added to the records, the client's and the bots' replies alike, counted from
the records after the run), ``p50_ms`` and ``p99_ms`` (the latency of a move
submission as the client saw it, the bots' replies included),
``baseline_rps`` (/health requests per second) and ``ratio = moves_per_s /
baseline_rps``. Targets at 32 tables: ratio >= 0.40 and p99_ms <= 50. The
line before it gives the submissions per second, for the record.

The client is a minimal HTTP/1.1 client over asyncio streams, not httpx: on
a small machine the load generator shares the CPUs with the server, and a
heavy client would measure itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fairdeal.fairness import client_commitment

PG_SERVER = "postgresql://postgres@127.0.0.1:5432/test"
FAIRDEAL = str(Path(sys.executable).with_name("fairdeal"))
HOST = "127.0.0.1"


class BenchError(RuntimeError):
    """The server answered what a correct client never gets (or did not answer)."""


class Connection:
    """One keep-alive HTTP/1.1 connection to the server; JSON in, JSON out."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: Any = None, token: str | None = None, raw: bool = False) -> tuple[int, Any]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        assert self.reader is not None
        payload = b"" if body is None else json.dumps(body, separators=(",", ":")).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}", f"Content-Length: {len(payload)}"]
        if body is not None:
            head.append("Content-Type: application/json")
        if token is not None:
            head.append(f"Authorization: Bearer {token}")
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + payload)
        status_line = await self.reader.readline()
        if not status_line:
            raise BenchError(f"{method} {path}: the server closed the connection")
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        data = await self.reader.readexactly(length) if length else b""
        if raw:
            return status, data.decode()
        return status, (json.loads(data) if data else None)

    async def ok(self, method: str, path: str, body: Any = None, token: str | None = None, status: int = 200) -> Any:
        got, answer = await self.request(method, path, body, token)
        if got != status:
            raise BenchError(f"{method} {path}: {got} {answer}")
        return answer

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """The first legal play, else the first legal move (draw, keep, pass)."""
    moves = view["legal_moves"]
    plays = [m for m in moves if m["move"] == "play"]
    return (plays or moves)[0]


class TableLoop:
    """Tables played one after another on one connection; the move submissions' latencies."""

    def __init__(self, port: int, number: int, seats: int, humans: int, target: int) -> None:
        self.conn = Connection(port)
        self.number, self.seats, self.humans, self.target = number, seats, humans, target
        self.latencies: list[float] = []
        self.spans: list[tuple[str, int, int]] = []  # (game, first seq, end seq) of each timed submission
        self.games = 0
        self.game_id = ""
        self.tokens: dict[int, str] = {}
        self.view: dict[str, Any] | None = None

    async def open_table(self) -> None:
        """A new table, every human seat committed and revealed: its first view."""
        self.games += 1
        body = {
            "options": {"target": self.target},
            "seats": [{"name": f"T{self.number} S{s}", "bot": s >= self.humans} for s in range(self.seats)],
        }
        game = await self.conn.ok("POST", "/games", body, status=201)
        self.game_id = game["game_id"]
        self.tokens = {s["seat"]: s["join_token"] for s in game["seats"] if "join_token" in s}
        seeds = {seat: f"bench {self.number}/{self.games}/{seat}" for seat in self.tokens}
        for seat, token in self.tokens.items():
            await self.conn.ok("POST", f"/games/{self.game_id}/seats/{seat}/commit", {"commitment": client_commitment(seeds[seat])}, token)
        for seat, token in self.tokens.items():
            answer = await self.conn.ok("POST", f"/games/{self.game_id}/seats/{seat}/reveal", {"seed": seeds[seat]}, token)
            self.view = answer["view"]

    async def play(self, ends: float) -> None:
        """Move until ``ends`` (loop time), opening a new table whenever a match is over."""
        loop = asyncio.get_running_loop()
        while loop.time() < ends:
            view = self.view
            if view is None or view["status"] != "playing":
                await self.open_table()
                continue
            seat = view["turn"]
            if seat != view["seat"]:
                if seat not in self.tokens:
                    raise BenchError(f"game {self.game_id}: a bot's turn after a request (bot delay must be 0)")
                view = await self.conn.ok("GET", f"/games/{self.game_id}/seats/{seat}/view", token=self.tokens[seat])
            body = {"seq": view["seq"], **choose(view)}
            started = time.perf_counter()
            answer = await self.conn.ok("POST", f"/games/{self.game_id}/moves", body, self.tokens[seat])
            self.latencies.append(time.perf_counter() - started)
            self.view = answer["view"]
            self.spans.append((self.game_id, view["seq"], self.view["seq"]))

    async def moves_made(self) -> int:
        """The move lines the timed submissions added (the client's and the bots'), read from the records."""
        games: dict[str, list[tuple[int, int]]] = {}
        for game_id, start, end in self.spans:
            games.setdefault(game_id, []).append((start, end))
        made = 0
        for game_id, spans in games.items():
            status, text = await self.conn.request("GET", f"/games/{game_id}/record", raw=True)
            if status != 200:
                raise BenchError(f"GET /games/{game_id}/record: {status}")
            kinds = [json.loads(line)["type"] for line in text.splitlines()]
            made += sum(kinds[seq] == "move" for start, end in spans for seq in range(start, end))
        return made


async def health_loop(port: int, ends: float) -> int:
    conn = Connection(port)
    loop = asyncio.get_running_loop()
    done = 0
    try:
        while loop.time() < ends:
            await conn.ok("GET", "/health")
            done += 1
    finally:
        conn.close()
    return done


async def baseline(port: int, tables: int, seconds: float) -> tuple[int, float]:
    """(requests, seconds) of ``tables`` concurrent /health loops."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    counts = await asyncio.gather(*(health_loop(port, started + seconds) for _ in range(tables)))
    return sum(counts), loop.time() - started


def cpu_seconds(group: int) -> float:
    """User and system CPU time of every process in the server's process group (its workers too)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue  # a process that just ended
        if int(fields[2]) == group:  # pgrp; then utime, stime at 11 and 12 (after the name)
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


async def run(port: int, group: int, args: argparse.Namespace) -> dict[str, float]:
    loop = asyncio.get_running_loop()
    players = [TableLoop(port, n, args.seats, args.humans, args.target) for n in range(args.tables)]
    await asyncio.gather(*(p.open_table() for p in players))

    async def moves(seconds: float) -> float:
        started = loop.time()
        await asyncio.gather(*(p.play(started + seconds) for p in players))
        return loop.time() - started

    # Warm-up, not counted: connections, caches, the first calls of every code path.
    await baseline(port, args.tables, 1.0)
    await moves(1.0)
    for p in players:
        p.latencies.clear()
        p.spans.clear()
    slices = max(1, round(args.seconds / 2))
    health_count, health_s, moves_s = 0, 0.0, 0.0
    health_cpu, moves_cpu = 0.0, 0.0
    for _ in range(slices):
        cpu = cpu_seconds(group)
        count, seconds = await baseline(port, args.tables, args.seconds / slices)
        health_count, health_s = health_count + count, health_s + seconds
        health_cpu += cpu_seconds(group) - cpu
        cpu = cpu_seconds(group)
        moves_s += await moves(args.seconds / slices)
        moves_cpu += cpu_seconds(group) - cpu
    made = sum(await asyncio.gather(*(p.moves_made() for p in players)))  # after the clock stopped
    for p in players:
        p.conn.close()

    latencies = sorted(x for p in players for x in p.latencies)
    if len(latencies) < 2:
        raise BenchError("fewer than two moves were made: no latency to report")
    return {
        "submissions": len(latencies),
        "moves": made,
        "games": sum(p.games for p in players),
        "submissions_per_s": len(latencies) / moves_s,
        "moves_per_s": made / moves_s,
        "p50_ms": statistics.median(latencies) * 1000,
        "p99_ms": statistics.quantiles(latencies, n=100)[98] * 1000,
        "baseline_rps": health_count / health_s,
        # CPU the server spent per request (a table's new games and views included in the moves'):
        # far less sensitive to the machine's load than the rates, to compare changes to the server.
        "cpu_ms_per_submission": moves_cpu / len(latencies) * 1000,
        "cpu_ms_per_health": health_cpu / health_count * 1000,
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def database(store: str, data_dir: Path) -> Iterator[str]:
    """The database URL for a fresh store: SQLite in ``data_dir``, or a new PostgreSQL schema (dropped after)."""
    if store == "sqlite":
        yield f"sqlite:///{data_dir / 'fairdeal.db'}"
        return
    import psycopg

    schema = f"fairdeal_bench_{secrets.token_hex(6)}"
    with psycopg.connect(PG_SERVER, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield f"{PG_SERVER}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(PG_SERVER, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@contextlib.contextmanager
def server(database_url: str, data_dir: Path, workers: int, log_path: Path) -> Iterator[tuple[int, int]]:
    """``fairdeal serve`` on a free loopback port until the block ends; the port, and the server's
    process group (its own: it is killed whole)."""
    port = free_port()
    env = {**os.environ, "FAIRDEAL_BOT_DELAY": "0", "FAIRDEAL_NEXT_HAND_SECONDS": "0", "FAIRDEAL_LOG_LEVEL": "warning",
           # The operator's limits, high: every client here is one address.
           "FAIRDEAL_CREATE_RATE": "1000000/minute", "FAIRDEAL_MOVE_RATE": "1000000/minute",
           "FAIRDEAL_MAX_GAMES": "0", "FAIRDEAL_MAX_GAMES_PER_CLIENT": "0", "FAIRDEAL_MAX_STREAMS_PER_CLIENT": "0"}
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [FAIRDEAL, "serve", "--host", HOST, "--port", str(port), "--data-dir", str(data_dir),
             "--database-url", database_url, "--workers", str(workers)],
            stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True,
        )
    try:
        give_up = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise BenchError(f"the server exited ({process.returncode}); see {log_path}")
            with contextlib.suppress(OSError), socket.create_connection((HOST, port), timeout=1) as s:
                s.sendall(b"GET /health HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n")
                if s.recv(64).startswith(b"HTTP/1.1 200"):
                    break
            if time.monotonic() > give_up:
                raise BenchError(f"the server did not answer /health in 60 s; see {log_path}")
            time.sleep(0.05)
        yield port, process.pid
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=32, help="concurrent tables, and /health loops (default 32)")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of moves, and as many of /health (default 20)")
    parser.add_argument("--store", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--seats", type=int, default=4, help="seats per table (default 4)")
    parser.add_argument("--humans", type=int, default=1, help="human seats per table, played by the client (default 1)")
    parser.add_argument("--workers", type=int, default=1, help="uvicorn workers (default 1)")
    parser.add_argument("--target", type=int, default=100, help="the match's target score (default 100)")
    args = parser.parse_args()
    if not 1 <= args.tables <= 1000 or not 0 < args.seconds <= 3600 or not 1 <= args.humans <= args.seats:
        parser.error("--tables 1..1000, --seconds up to 3600, --humans 1..--seats")

    with tempfile.TemporaryDirectory(prefix="fairdeal-bench-") as tmp:
        data_dir = Path(tmp) / "data"
        log_path = Path(tmp) / "server.log"
        with database(args.store, data_dir) as url, server(url, data_dir, args.workers, log_path) as (port, group):
            print(f"fairdeal serve on {HOST}:{port}, store {args.store}, {args.workers} worker(s); "
                  f"{args.tables} tables of {args.seats} seats ({args.humans} played by the client, the rest bots)")
            try:
                result = asyncio.run(run(port, group, args))
            except BenchError:
                print(log_path.read_text(errors="replace")[-3000:], file=sys.stderr)
                raise
    print(f"{result['submissions']} move submissions ({result['submissions_per_s']:.1f}/s) made "
          f"{result['moves']} moves in {result['games']} games; "
          f"/health {result['baseline_rps']:.0f} requests/s at the same concurrency")
    print(f"server CPU: {result['cpu_ms_per_submission']:.2f} ms per move submission, "
          f"{result['cpu_ms_per_health']:.2f} ms per /health "
          f"(cpu_ratio={result['cpu_ms_per_health'] / result['cpu_ms_per_submission']:.3f})")
    print(
        f"store={args.store} tables={args.tables} moves_per_s={result['moves_per_s']:.1f} "
        f"p50_ms={result['p50_ms']:.1f} p99_ms={result['p99_ms']:.1f} "
        f"baseline_rps={result['baseline_rps']:.1f} ratio={result['moves_per_s'] / result['baseline_rps']:.3f}"
    )


if __name__ == "__main__":
    main()
