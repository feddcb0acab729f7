"""Moves per second and move latency of a real fairdeal server, against its own /health.

    python bench/load.py --tables N --seconds S --store sqlite|postgres
        [--seats 4] [--humans 1] [--workers 1] [--target 100] [--spectators 0]

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

With ``--spectators K`` each table also has K live-updates streams (``GET
/games/{id}/events``, as a spectator's page opens), each on a connection of
its own, read as they come; every submission then wakes K streams, and the
server's CPU per submission counts their wakes too (a stream's wake costs about
(cpu_ms_per_submission with K - without) / K).

With ``--workers N`` above 1 a second server runs beside the first, the
baseline of the workers' ratio: ``fairdeal serve --workers 1`` on a fresh
database of its own (its own data dir, or its own schema), with N tables of
its own played the same way. Both servers are up the whole run and take
turns too: each slice of /health (on the N workers) is followed by a slice
of moves on each server, the two in alternate order from slice to slice, so
that the machine's drift, and whatever an idle server costs, weighs on
both. (One after the other, the two runs would be minutes apart on a
machine whose load changes in seconds.) A run then takes about 3 S seconds,
and on PostgreSQL its three server processes hold about 80 connections at
32 tables (PostgreSQL's default limit is 100, shared with whatever else
uses that server).

Every request must succeed (a 409 or 5xx stops the run: one client per
table never races itself). Bounded: the run stops after S seconds of each
phase, whatever happens, and the servers are killed in any case.

The last line is ``key=value`` pairs, for comparing runs: ``moves_per_s``
(moves made at the tables per second: every move line the timed submissions
added to the records, the client's and the bots' replies alike, counted from
the records after the run), ``p50_ms``, ``p99_ms`` and ``p999_ms`` (the
latency of a move submission as the client saw it, the bots' replies
included; a line before gives the p50 and p99 of the submissions that ended
a match, which write the reveal and the log's end entry, and of the rest),
``baseline_rps`` (/health requests per second) and ``ratio = moves_per_s /
baseline_rps`` (with ``--spectators K``, ``spectators=K`` follows ``tables``).
Targets at 32 tables: ratio >= 0.40 and p99_ms <= 50. With
N workers these are the N workers' and the line adds ``workers``,
``moves_per_s_1`` (the one-worker server's) and ``workers_ratio =
moves_per_s / moves_per_s_1``. The lines before it give the submissions per
second, the servers' CPU time per request, and where the CPU went in the
slices of moves, in cores (CPU seconds per second): each server process,
its PostgreSQL backends, this client, and the whole machine (the rest is
other work: when the machine is full the servers get a share, not what
they ask for); how the N workers' share of the tables' connections came
out; and the workers' ratio that the machine's cores would allow, were they
this run's alone, from the CPU time a submission cost (server, backends,
client: an estimate, blind to waits on locks and the disk).

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

    async def request(
        self, method: str, path: str, body: Any = None, token: str | None = None, raw: bool = False
    ) -> tuple[int, Any]:
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


class Spectator:
    """One live-updates stream of a table (``GET /games/{id}/events``) on a connection of its own,
    read as it comes and thrown away; :attr:`events` counts its events."""

    def __init__(self, port: int, game_id: str) -> None:
        self.port, self.game_id = port, game_id
        self.events = 0
        self.task = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        reader, writer = await asyncio.open_connection(HOST, self.port)
        try:
            writer.write(f"GET /games/{self.game_id}/events?wait=3600 HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
            status = await reader.readline()
            if not status.startswith(b"HTTP/1.1 200"):
                raise BenchError(f"GET /games/{self.game_id}/events: {status!r}")
            # Counted in whatever pieces the server wrote them (the chunks' framing is never an event's
            # text: an event's name is at the start of a line).
            tail = b""
            while chunk := await reader.read(65536):
                text = tail + chunk
                self.events += text.count(b"\nevent: ")
                tail = text[-7:]
        finally:
            writer.close()

    def close(self) -> None:
        self.task.cancel()


class TableLoop:
    """Tables played one after another on one connection; the move submissions' latencies."""

    def __init__(self, port: int, number: int, seats: int, humans: int, target: int, spectators: int = 0) -> None:
        self.conn = Connection(port)
        self.number, self.seats, self.humans, self.target = number, seats, humans, target
        self.spectators = spectators
        self.watching: list[Spectator] = []
        self.events = 0  # the events the spectators of this loop's finished tables read
        self.latencies: list[float] = []
        self.ending: list[bool] = []  # whether each timed submission ended its match (the reveal with it)
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
        self.watch()
        self.tokens = {s["seat"]: s["join_token"] for s in game["seats"] if "join_token" in s}
        seeds = {seat: f"bench {self.number}/{self.games}/{seat}" for seat in self.tokens}
        for seat, token in self.tokens.items():
            await self.conn.ok(
                "POST",
                f"/games/{self.game_id}/seats/{seat}/commit",
                {"commitment": client_commitment(seeds[seat])},
                token,
            )
        for seat, token in self.tokens.items():
            answer = await self.conn.ok(
                "POST", f"/games/{self.game_id}/seats/{seat}/reveal", {"seed": seeds[seat]}, token
            )
            self.view = answer["view"]

    def watch(self) -> None:
        """The spectators of the table just made (the last table's stop watching)."""
        self.stop_watching()
        self.watching = [Spectator(self.conn.port, self.game_id) for _ in range(self.spectators)]

    def stop_watching(self) -> None:
        for spectator in self.watching:
            task = spectator.task
            if task.done() and not task.cancelled() and task.exception() is not None:
                raise BenchError(f"a stream of {spectator.game_id} failed") from task.exception()
            spectator.close()
            self.events += spectator.events
        self.watching = []

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
            self.ending.append(self.view["status"] in ("over", "abandoned"))
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


def group_pids(group: int) -> list[int]:
    """The processes of a process group (the server: uvicorn's supervisor and its workers)."""
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue  # a process that just ended
        if int(fields[2]) == group:  # pgrp
            pids.append(int(stat.parent.name))
    return sorted(pids)


def cpu_of(pid: int) -> float:
    """User and system CPU seconds of one process (0 once it has gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime (after the name)


def cpu_seconds(group: int) -> float:
    """User and system CPU time of every process in the server's process group (its workers too)."""
    return sum(cpu_of(pid) for pid in group_pids(group))


def machine_busy() -> float:
    """CPU seconds the whole machine has spent busy (not idle, not waiting for a disk), all cores."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")  # idle and iowait out; steal in


def tcp_sockets() -> dict[int, tuple[int, int]]:
    """(local port, remote port) of every established TCP socket of the machine, by inode."""
    sockets = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as f:
            next(f)
            for line in f:
                fields = line.split()
                if fields[3] == "01":  # ESTABLISHED
                    local, remote = (int(a.rpartition(":")[2], 16) for a in fields[1:3])
                    sockets[int(fields[9])] = (local, remote)
    return sockets


def sockets_of(pid: int, sockets: dict[int, tuple[int, int]]) -> list[tuple[int, int]]:
    """(local port, remote port) of the established TCP sockets a process holds."""
    held = []
    with contextlib.suppress(OSError):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    inode = int(target[8:-1])
                    if inode in sockets:
                        held.append(sockets[inode])
    return held


class Server:
    """One ``fairdeal serve`` under load: its tables, and what its slices of moves took (time, CPU)."""

    def __init__(self, workers: int, port: int, group: int, pg: Any, args: argparse.Namespace) -> None:
        self.workers, self.port, self.group = workers, port, group
        self.pg = pg  # the bench's own connection to PostgreSQL, or None for SQLite
        self.players = [
            TableLoop(port, n, args.seats, args.humans, args.target, args.spectators) for n in range(args.tables)
        ]
        self.moves_s = 0.0
        self.cpu: dict[int, float] = {}  # server process -> CPU seconds in the slices of moves
        self.db_cpu = 0.0  # its PostgreSQL backends' CPU seconds in them
        self.client_cpu = 0.0  # this process's, while it played this server's tables
        self.machine_cpu = 0.0  # the machine's busy CPU seconds in them (everything else running too)
        self.made = 0

    def backends(self) -> list[int]:
        """The PostgreSQL backends serving this server's connections (by their client ports)."""
        if self.pg is None:
            return []  # SQLite runs inside the server's processes
        sockets = tcp_sockets()
        ports = {
            local for pid in group_pids(self.group) for local, remote in sockets_of(pid, sockets) if remote == 5432
        }
        rows = self.pg.execute("SELECT pid, client_port FROM pg_stat_activity WHERE client_port IS NOT NULL").fetchall()
        return [pid for pid, port in rows if port in ports]

    def connections(self) -> list[int]:
        """How many of the tables' connections each server process holds (the listening parent's are 0)."""
        sockets = tcp_sockets()
        return [sum(local == self.port for local, _ in sockets_of(pid, sockets)) for pid in group_pids(self.group)]

    async def moves(self, seconds: float, count: bool = True) -> None:
        """One slice of moves at every table; its time and CPU counted unless ``count`` is false."""
        loop = asyncio.get_running_loop()
        pids, backends = group_pids(self.group), self.backends()
        before = {pid: cpu_of(pid) for pid in pids}
        db_before, client_before, machine_before = (
            [cpu_of(pid) for pid in backends],
            time.process_time(),
            machine_busy(),
        )
        started = loop.time()
        await asyncio.gather(*(p.play(started + seconds) for p in self.players))
        if not count:
            return
        self.moves_s += loop.time() - started
        self.client_cpu += time.process_time() - client_before
        self.machine_cpu += machine_busy() - machine_before
        for pid in pids:
            self.cpu[pid] = self.cpu.get(pid, 0.0) + cpu_of(pid) - before[pid]
        self.db_cpu += sum(max(0.0, cpu_of(pid) - was) for pid, was in zip(backends, db_before))

    def forget(self) -> None:
        """Clears what the warm-up timed."""
        for p in self.players:
            p.latencies.clear()
            p.ending.clear()
            p.spans.clear()

    async def results(self) -> dict[str, Any]:
        """The counts of the slices of moves; reads the records (after the clock stopped)."""
        self.made = sum(await asyncio.gather(*(p.moves_made() for p in self.players)))
        for p in self.players:
            p.stop_watching()
            p.conn.close()
        latencies = sorted(x for p in self.players for x in p.latencies)
        if len(latencies) < 2:
            raise BenchError("fewer than two moves were made: no latency to report")
        kinds = {
            kind: sorted(x for p in self.players for x, end in zip(p.latencies, p.ending) if end == (kind == "ending"))
            for kind in ("ending", "rest")
        }
        busy = sorted(self.cpu.values(), reverse=True)
        return {
            "submissions": len(latencies),
            "events": sum(p.events for p in self.players),
            "moves": self.made,
            "games": sum(p.games for p in self.players),
            "submissions_per_s": len(latencies) / self.moves_s,
            "moves_per_s": self.made / self.moves_s,
            "p50_ms": statistics.median(latencies) * 1000,
            "p99_ms": statistics.quantiles(latencies, n=100)[98] * 1000,
            "p999_ms": statistics.quantiles(latencies, n=1000)[998] * 1000,
            # The submissions that ended a match (they write the reveal and the log's end entry) and the rest.
            "by_kind": {
                kind: (
                    len(xs),
                    statistics.median(xs) * 1000 if xs else float("nan"),
                    statistics.quantiles(xs, n=100)[98] * 1000 if len(xs) >= 2 else float("nan"),
                )
                for kind, xs in kinds.items()
            },
            # CPU the server spent per request (a table's new games and views included in the moves'):
            # far less sensitive to the machine's load than the rates, to compare changes to the server.
            "cpu_ms_per_submission": sum(busy) / len(latencies) * 1000,
            # Where the CPU went in the slices of moves, in cores: the machine has os.cpu_count() of them.
            "server_cores": [cpu / self.moves_s for cpu in busy if cpu / self.moves_s >= 0.005],  # not the supervisor
            "db_cores": self.db_cpu / self.moves_s,
            "client_cores": self.client_cpu / self.moves_s,
            "machine_cores": self.machine_cpu / self.moves_s,
            "db_ms_per_submission": self.db_cpu / len(latencies) * 1000,
            "client_ms_per_submission": self.client_cpu / len(latencies) * 1000,
        }


async def run(servers: list[Server], args: argparse.Namespace) -> tuple[list[dict[str, Any]], list[int]]:
    """Slices of /health on the first server, and of moves on each; their results and the first's
    connections per process."""
    main = servers[0]
    await asyncio.gather(*(p.open_table() for s in servers for p in s.players))
    # Warm-up, not counted: connections, caches, the first calls of every code path.
    await baseline(main.port, args.tables, 1.0)
    for s in servers:
        await s.moves(1.0, count=False)
        s.forget()
    connections = main.connections()
    slices = max(1, round(args.seconds / 2))
    health_count, health_s, health_cpu = 0, 0.0, 0.0
    for n in range(slices):
        cpu = cpu_seconds(main.group)
        count, seconds = await baseline(main.port, args.tables, args.seconds / slices)
        health_count, health_s = health_count + count, health_s + seconds
        health_cpu += cpu_seconds(main.group) - cpu
        for s in servers if n % 2 == 0 else servers[::-1]:  # neither always follows the other
            await s.moves(args.seconds / slices)
    results = [await s.results() for s in servers]
    results[0]["baseline_rps"] = health_count / health_s
    results[0]["cpu_ms_per_health"] = health_cpu / health_count * 1000
    return results, [c for c in connections if c]


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def database(store: str, data_dir: Path, prefix: str = "fairdeal_bench") -> Iterator[str]:
    """The database URL for a fresh store: SQLite in ``data_dir``, or a new PostgreSQL schema
    named ``prefix`` and random digits (dropped after). tests/service/conftest.py's stores too."""
    if store == "sqlite":
        yield f"sqlite:///{data_dir / 'fairdeal.db'}"
        return
    import psycopg

    schema = f"{prefix}_{secrets.token_hex(6)}"
    with psycopg.connect(PG_SERVER, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield f"{PG_SERVER}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(PG_SERVER, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@contextlib.contextmanager
def server(
    database_url: str, data_dir: Path, workers: int, log_path: Path, log_level: str = "warning"
) -> Iterator[tuple[int, int]]:
    """``fairdeal serve`` on a free loopback port until the block ends, logging to ``log_path``; the
    port, and the server's process group (its own: it is killed whole)."""
    port = free_port()
    env = {
        **os.environ,
        "FAIRDEAL_BOT_DELAY": "0",
        "FAIRDEAL_NEXT_HAND_SECONDS": "0",
        "FAIRDEAL_LOG_LEVEL": log_level,
        # The operator's limits, high: every client here is one address.
        "FAIRDEAL_CREATE_RATE": "1000000/minute",
        "FAIRDEAL_MOVE_RATE": "1000000/minute",
        "FAIRDEAL_MAX_GAMES": "0",
        "FAIRDEAL_MAX_GAMES_PER_CLIENT": "0",
        "FAIRDEAL_MAX_STREAMS_PER_CLIENT": "0",
        # A server's tables wait through the other server's slices (and the /health ones): keep them open.
        "FAIRDEAL_KEEP_ALIVE_TIMEOUT": "600",
    }
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [
                FAIRDEAL,
                "serve",
                "--host",
                HOST,
                "--port",
                str(port),
                "--data-dir",
                str(data_dir),
                "--database-url",
                database_url,
                "--workers",
                str(workers),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
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


def cores(result: dict[str, Any], store: str) -> str:
    """Where the CPU went in the slices of moves, in cores."""
    shown = "server " + "+".join(f"{c:.2f}" for c in result["server_cores"])
    if store == "postgres":
        shown += f", its PostgreSQL backends {result['db_cores']:.2f}"
    return shown + f", this client {result['client_cores']:.2f}; the machine {result['machine_cores']:.2f} busy in all"


def by_kind(result: dict[str, Any]) -> str:
    """The latency of the submissions that ended a match, and of the rest."""
    (n_end, p50_end, p99_end), (n_rest, p50_rest, p99_rest) = result["by_kind"]["ending"], result["by_kind"]["rest"]
    return (
        f"ending a match: {n_end} submissions, p50 {p50_end:.1f} ms, p99 {p99_end:.1f} ms; "
        f"the rest: {n_rest}, p50 {p50_rest:.1f} ms, p99 {p99_rest:.1f} ms"
    )


def cpu_ceiling(many: dict[str, Any], one: dict[str, Any], workers: int, cores: int) -> float:
    """The workers' ratio that ``cores`` idle cores would allow, from the CPU time each submission cost.

    A server of ``w`` workers makes at most ``w / server`` submissions a
    millisecond (each worker one core), and the machine at most ``cores /
    (server + its backends + client)``, the CPU milliseconds of a submission.
    With 1 ms of the server's, 0.5 of PostgreSQL's and 0.1 of the client's, the
    one worker is the limit, and for two the two cores are:

    >>> cost = {"cpu_ms_per_submission": 1.0, "db_ms_per_submission": 0.5, "client_ms_per_submission": 0.1}
    >>> cpu_ceiling(cost, cost, workers=2, cores=2)  # (2 / 1.6) / (1 / 1.0)
    1.25
    """

    def most(result: dict[str, Any], w: int) -> float:
        server = result["cpu_ms_per_submission"]
        return min(w / server, cores / (server + result["db_ms_per_submission"] + result["client_ms_per_submission"]))

    return most(many, workers) / most(one, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=32, help="concurrent tables, and /health loops (default 32)")
    parser.add_argument(
        "--seconds", type=float, default=20.0, help="seconds of moves, and as many of /health (default 20)"
    )
    parser.add_argument("--store", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--seats", type=int, default=4, help="seats per table (default 4)")
    parser.add_argument("--humans", type=int, default=1, help="human seats per table, played by the client (default 1)")
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="uvicorn workers (default 1); above 1, a one-worker server is measured beside it",
    )
    parser.add_argument("--target", type=int, default=100, help="the match's target score (default 100)")
    parser.add_argument(
        "--spectators",
        type=int,
        default=0,
        help="live-updates streams per table, each on a connection of its own (default 0)",
    )
    args = parser.parse_args()
    if not 1 <= args.tables <= 1000 or not 0 < args.seconds <= 3600 or not 1 <= args.humans <= args.seats:
        parser.error("--tables 1..1000, --seconds up to 3600, --humans 1..--seats")
    if not 1 <= args.workers <= 64:
        parser.error("--workers 1..64")
    if not 0 <= args.spectators <= 100:
        parser.error("--spectators 0..100")

    with tempfile.TemporaryDirectory(prefix="fairdeal-bench-") as tmp, contextlib.ExitStack() as stack:
        servers, logs, pg = [], [], None
        if args.store == "postgres":
            import psycopg

            # Opened first: with three server processes of up to 41 connections each, a connection
            # opened later may find the server's 100 taken.
            pg = stack.enter_context(psycopg.connect(PG_SERVER, autocommit=True))
        for workers in [args.workers] if args.workers == 1 else [args.workers, 1]:
            data_dir = Path(tmp) / f"data-{workers}"
            logs.append(Path(tmp) / f"server-{workers}.log")
            url = stack.enter_context(database(args.store, data_dir))
            port, group = stack.enter_context(server(url, data_dir, workers, logs[-1]))
            servers.append(Server(workers, port, group, pg, args))
        print(
            f"fairdeal serve on {HOST}:{servers[0].port}, store {args.store}, {args.workers} worker(s); "
            f"{args.tables} tables of {args.seats} seats ({args.humans} played by the client, the rest bots)"
            + (f", {args.spectators} live-updates stream(s) each" if args.spectators else "")
            + (
                f"; and with 1 worker on {HOST}:{servers[1].port}, {args.tables} tables of its own"
                if args.workers > 1
                else ""
            )
        )
        try:
            results, connections = asyncio.run(run(servers, args))
        except BenchError:
            for log in logs:
                print(log.read_text(errors="replace")[-3000:], file=sys.stderr)
            raise
    result = results[0]
    print(
        f"{result['submissions']} move submissions ({result['submissions_per_s']:.1f}/s) made "
        f"{result['moves']} moves in {result['games']} games; "
        f"/health {result['baseline_rps']:.0f} requests/s at the same concurrency"
        + (f"; the streams read {result['events']} events" if args.spectators else "")
    )
    print(
        f"server CPU: {result['cpu_ms_per_submission']:.2f} ms per move submission, "
        f"{result['cpu_ms_per_health']:.2f} ms per /health "
        f"(cpu_ratio={result['cpu_ms_per_health'] / result['cpu_ms_per_submission']:.3f})"
    )
    print(f"CPU in the slices of moves, in cores of {os.cpu_count()}: {cores(result, args.store)}")
    print(f"by kind of submission, {by_kind(result)}")
    fields = {"store": args.store, "tables": args.tables} | ({"workers": args.workers} if args.workers > 1 else {})
    fields |= {"spectators": args.spectators} if args.spectators else {}
    fields |= {
        "moves_per_s": f"{result['moves_per_s']:.1f}",
        "p50_ms": f"{result['p50_ms']:.1f}",
        "p99_ms": f"{result['p99_ms']:.1f}",
        "p999_ms": f"{result['p999_ms']:.1f}",
        "baseline_rps": f"{result['baseline_rps']:.1f}",
        "ratio": f"{result['moves_per_s'] / result['baseline_rps']:.3f}",
    }
    if args.workers > 1:
        one = results[1]
        print(
            f"the {args.workers} workers hold {'+'.join(map(str, connections))} of the {args.tables} tables' connections"
        )
        print(
            f"1 worker: {one['submissions']} move submissions ({one['submissions_per_s']:.1f}/s) made "
            f"{one['moves']} moves in {one['games']} games, p50_ms={one['p50_ms']:.1f} p99_ms={one['p99_ms']:.1f} "
            f"p999_ms={one['p999_ms']:.1f}; "
            f"server CPU {one['cpu_ms_per_submission']:.2f} ms per move submission; "
            f"CPU in its slices of moves: {cores(one, args.store)}"
        )
        print(f"1 worker, by kind of submission, {by_kind(one)}")
        print(
            f"if the {os.cpu_count()} cores were this run's alone, the CPU per submission measured here would allow "
            f"workers_ratio up to {cpu_ceiling(result, one, args.workers, os.cpu_count() or 1):.2f} (waits on locks and disks not counted)"
        )
        fields |= {
            "moves_per_s_1": f"{one['moves_per_s']:.1f}",
            "workers_ratio": f"{result['moves_per_s'] / one['moves_per_s']:.3f}",
        }
    line = " ".join(f"{key}={value}" for key, value in fields.items())
    print(line)


if __name__ == "__main__":
    main()
