"""Thousands of tables in one server process: memory per game, the turn timer's lag, CPU per move.

    python bench/scale.py [--tables 100,1000,10000] [--seconds 65] [--store sqlite|postgres]

For each N, in turn and from a fresh database, starts ``fairdeal serve`` (one
process; see bench/load.py's ``server``) and opens N Crazy Eights tables, each
of one person and three bots: the person commits and reveals a client seed
and then never answers again; turns are 20 seconds; the bots move at once
(``bot_seconds`` 0) and a hand's end pauses the table 20 seconds (the
person never says "ready"). So every 20 seconds each table has one due turn,
which the server's timer plays (an auto-move for the person, then the three
bots, in one append): about N / 20 timed-out turns a second, 500 at 10,000
tables. The tables are opened at an even pace over a whole number of
turns, so that their deadlines fall evenly over the 20 seconds.

Once they are all open and a few seconds more, it measures for ``--seconds``:

- ``cpu_ms_per_move``: the server's CPU time (user and system, every process
  of its group) over the move lines the records gained meanwhile;
- ``lag_p50_ms`` and ``lag_p99_ms``: how late the timer played each timed-out
  turn. Read from the records themselves: the first auto-move line of a turn
  has ``at`` (its time of writing, never before the deadline) and the line
  before it starts the turn, so the lag is ``at - (at before + 20 s)``, in
  whole milliseconds (a little more than the true lag, never less: the server
  sets the deadline from a clock read after the line before it was written);
- ``mem_kb_per_game``: the server's resident memory at the end, less what it
  had with one table open before the N were, over N;
- ``gc_pause_ms``: the longest pause of the server's garbage collections, as
  its log lines of the window tell (one a minute: a shorter window waits for
  the next line, which covers it); ``full_gc_pause_ms``, of its full collections in the
  whole run (made as its memory grows, while the tables open; none at all
  when none was needed);
- ``replays``: records the server read whole and replayed, from its start to
  its last log line: 0 when no move replays.

The baseline is the same at the first N (100 by default), in the same run:
``cpu_ratio`` is each N's CPU per move over the baseline's. Targets at 10,000
tables: ``cpu_ratio`` <= 1.5, ``lag_p99_ms`` < 100, ``mem_kb_per_game`` < 100.
The last line is ``key=value`` pairs for the largest N.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from load import BenchError
from load import Connection
from load import cpu_seconds
from load import database
from load import server

from fairdeal.fairness import client_commitment
from fairdeal.record import check_at
from fairdeal.service.app import COLLECTION_LOG_SECONDS

TURN_SECONDS = 20.0
TURN_MS = int(TURN_SECONDS * 1000)
CONNECTIONS = 16  # the client's keep-alive connections for opening tables
SETTLE_SECONDS = 5.0


def resident_kb(group: int) -> int:
    """Resident memory of every process in the server's process group, in KiB."""
    total = 0
    for status in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = status.read_text().rpartition(")")[2].split()
            if int(fields[2]) != group:
                continue
            text = (status.parent / "status").read_text()
        except OSError:
            continue  # a process that just ended
        total += int(text.split("VmRSS:")[1].split()[0])
    return total


async def open_table(conn: Connection, number: int) -> str:
    """One table of a person and three bots, the person's seed committed and revealed: its id."""
    body = {
        "options": {"target": 500},
        "seats": [{"name": "Person", "bot": False}] + [{"name": f"Bot {s}", "bot": True} for s in (1, 2, 3)],
        "turn_seconds": TURN_SECONDS,
        "bot_seconds": 0,
        "next_hand_seconds": TURN_SECONDS,
    }
    game = await conn.ok("POST", "/games", body, status=201)
    game_id, token = game["game_id"], game["seats"][0]["join_token"]
    seed = f"scale {number}"
    await conn.ok("POST", f"/games/{game_id}/seats/0/commit", {"commitment": client_commitment(seed)}, token)
    await conn.ok("POST", f"/games/{game_id}/seats/0/reveal", {"seed": seed}, token)
    return game_id


async def open_tables(port: int, tables: int, seconds: float) -> list[str]:
    """``tables`` tables, opened at an even pace over ``seconds``."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    ids: list[str] = []
    numbers = iter(range(tables))

    async def opener() -> None:
        conn = Connection(port)
        try:
            for number in numbers:
                delay = started + number * seconds / tables - loop.time()
                if delay > 1:  # longer than the server keeps an idle connection open: a new one after
                    conn.close()
                    conn = Connection(port)
                if delay > 0:
                    await asyncio.sleep(delay)
                ids.append(await open_table(conn, number))
        finally:
            conn.close()

    await asyncio.gather(*(opener() for _ in range(CONNECTIONS)))
    return ids


class Records:
    """Read access to the server's store, beside it (SQLite in WAL mode lets a reader in)."""

    def __init__(self, url: str) -> None:
        if url.startswith("sqlite:///"):
            self.conn: Any = sqlite3.connect(f"file:{url.removeprefix('sqlite:///')}?mode=ro", uri=True)
            self.mark = "?"
        else:
            import psycopg

            self.conn = psycopg.connect(url, autocommit=True)
            self.mark = "%s"

    def lengths(self) -> dict[str, int]:
        return dict(self.conn.execute("SELECT id, length FROM games").fetchall())

    def lines(self, game_id: str, start: int) -> list[dict[str, Any]]:
        rows = self.conn.execute(
            f"SELECT line FROM lines WHERE game_id = {self.mark} AND seq >= {self.mark} ORDER BY seq", (game_id, start)
        ).fetchall()
        return [json.loads(text) for (text,) in rows]

    def close(self) -> None:
        self.conn.close()


def window(records: Records, before: dict[str, int]) -> tuple[int, list[int]]:
    """The move lines written since ``before`` (each game's length then), and the lag in ms of
    every timed-out turn among them."""
    moves, lags = 0, []
    for game_id, length in before.items():
        lines = records.lines(game_id, max(0, length - 1))
        for previous, line in zip(lines, lines[1:]):
            if line["type"] != "move":
                continue
            moves += 1
            first_of_turn = not (
                previous["type"] == "move" and previous.get("auto") and previous["seat"] == line["seat"]
            )
            if line.get("auto") and first_of_turn:
                lags.append(check_at(line["at"]) - (check_at(previous["at"]) + TURN_MS))
    return moves, lags


def collections(log_path: Path, start: int = 0, end: int | None = None) -> list[dict[str, Any]]:
    """The server's ``collected:`` log lines (see fairdeal.service.app) between two offsets of its log."""
    with open(log_path, "rb") as log:
        log.seek(start)
        text = log.read(None if end is None else end - start).decode(errors="replace")
    return [json.loads(line.partition("collected: ")[2]) for line in text.splitlines() if "collected: {" in line]


async def measure(url: str, port: int, group: int, log_path: Path, tables: int, seconds: float) -> dict[str, float]:
    conn = Connection(port)
    await open_table(conn, -1)  # every code path warm, before the memory it starts from
    conn.close()
    empty_kb = resident_kb(group)
    turns = max(1, math.ceil(tables / 200 / TURN_SECONDS))  # at most 200 tables opened a second
    opened = time.monotonic()
    ids = await open_tables(port, tables, turns * TURN_SECONDS)
    print(f"  {len(ids)} tables opened in {time.monotonic() - opened:.0f} s", flush=True)
    await asyncio.sleep(SETTLE_SECONDS)
    records = Records(url)
    try:
        before = {game_id: length for game_id, length in records.lengths().items() if game_id in set(ids)}
        cpu, log_start = cpu_seconds(group), log_path.stat().st_size
        started = time.monotonic()
        await asyncio.sleep(seconds)
        cpu = cpu_seconds(group) - cpu
        elapsed = time.monotonic() - started
        rss_kb, log_end = resident_kb(group), log_path.stat().st_size
        moves, lags = window(records, before)
        # The server logs a collection line once a minute: a window shorter than that may hold none,
        # so wait for the next one, which reports the longest pause since the line before it.
        give_up = time.monotonic() + COLLECTION_LOG_SECONDS + 10
        while not collections(log_path, log_start) and time.monotonic() < give_up:
            await asyncio.sleep(1)
        log_end = log_path.stat().st_size
    finally:
        records.close()
    if moves == 0 or len(lags) < 2:
        raise BenchError(f"{tables} tables: {moves} moves, {len(lags)} timed-out turns in {seconds} s")
    lags.sort()
    run, windowed = collections(log_path, 0, log_end), collections(log_path, log_start, log_end)
    if not run:
        raise BenchError(f"no collected: line in the server's log ({log_path}) in {seconds} s: is its level info?")
    return {
        "tables": tables,
        "moves": moves,
        "turns_per_s": len(lags) / elapsed,
        "cpu_ms_per_move": cpu / moves * 1000,
        "cpu_share": cpu / elapsed,
        "lag_p50_ms": statistics.median(lags),
        "lag_p99_ms": statistics.quantiles(lags, n=100, method="inclusive")[98],
        "lag_max_ms": lags[-1],
        "mem_kb_per_game": (rss_kb - empty_kb) / tables,
        "gc_pause_ms": max((line["pause_ms"] for line in windowed), default=math.nan),
        "full_gc_pause_ms": max((line["pause_ms"] for line in run if line["full"]), default=math.nan),
        "replays": run[-1]["games"]["restores"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tables", default="100,1000,10000", help="table counts, the baseline first (default 100,1000,10000)"
    )
    parser.add_argument("--seconds", type=float, default=65.0, help="seconds measured at each count (default 65)")
    parser.add_argument("--store", choices=["sqlite", "postgres"], default="sqlite")
    args = parser.parse_args()
    try:
        counts = [int(text) for text in args.tables.split(",")]
    except ValueError:
        parser.error("--tables is a comma-separated list of counts")
    if not all(1 <= n <= 100_000 for n in counts) or not 5 <= args.seconds <= 3600:
        parser.error("--tables counts 1..100000, --seconds 5..3600")

    results = []
    for tables in counts:
        with tempfile.TemporaryDirectory(prefix="fairdeal-scale-") as tmp:
            data_dir, log_path = Path(tmp) / "data", Path(tmp) / "server.log"
            with database(args.store, data_dir) as url, server(url, data_dir, 1, log_path, "info") as (port, group):
                print(f"{tables} tables, store {args.store}:", flush=True)
                try:
                    result = asyncio.run(measure(url, port, group, log_path, tables, args.seconds))
                except BenchError:
                    print(log_path.read_text(errors="replace")[-3000:], file=sys.stderr)
                    raise
        result["cpu_ratio"] = result["cpu_ms_per_move"] / (
            results[0]["cpu_ms_per_move"] if results else result["cpu_ms_per_move"]
        )
        results.append(result)
        full = "none" if math.isnan(result["full_gc_pause_ms"]) else f"{result['full_gc_pause_ms']:.0f} ms"
        print(
            f"  {result['moves']} moves, {result['turns_per_s']:.0f} timed-out turns/s; "
            f"CPU {result['cpu_ms_per_move']:.3f} ms/move ({result['cpu_share']:.0%} of a core, "
            f"x{result['cpu_ratio']:.2f} of {counts[0]} tables'); timer lag p50 {result['lag_p50_ms']:.0f} ms, "
            f"p99 {result['lag_p99_ms']:.0f} ms, max {result['lag_max_ms']:.0f} ms; "
            f"{result['mem_kb_per_game']:.1f} KiB per game; collections' longest pause {result['gc_pause_ms']:.0f} ms "
            f"(full: {full}); "
            f"{result['replays']} records replayed",
            flush=True,
        )
    last = results[-1]
    print(
        f"store={args.store} tables={last['tables']} baseline_tables={counts[0]} "
        f"cpu_ms_per_move={last['cpu_ms_per_move']:.3f} cpu_ratio={last['cpu_ratio']:.2f} "
        f"lag_p50_ms={last['lag_p50_ms']:.0f} lag_p99_ms={last['lag_p99_ms']:.0f} "
        f"mem_kb_per_game={last['mem_kb_per_game']:.1f} gc_pause_ms={last['gc_pause_ms']:.0f} "
        f"full_gc_pause_ms={last['full_gc_pause_ms']:.0f} replays={last['replays']}"
    )


if __name__ == "__main__":
    main()
