"""How fast ``fairdeal-verify`` checks records, against merely parsing them.

    python bench/verify.py [--records N] [--repeat R] [--profile]

Makes ``N`` finished 4-player Crazy Eights records with fairdeal's own table
and match (fixed seeds: two human seats that commit and reveal client seeds
and play legal moves, sometimes by the turn timer; two bot seats), writes
them to a temporary directory, then, ``R`` times over, reads every file and
verifies it (:func:`fairdeal.verification.verify`: canonical form, the chain, every
signature, the seeds, the replay of every move) and, as the baseline in the
same run, reads every file and ``json.loads`` each line. Those times are CPU
time of this one process (the machines are shared); medians are reported.

Then it runs the command itself on all the files, ``fairdeal-verify -j 1``
(in this process) and ``fairdeal-verify -j 2`` (two worker processes),
interleaved, ``R`` times each, and takes the median wall-clock time of each:
a speed-up is a matter of elapsed time, so this part needs two idle cores
to mean much (``uptime`` before it says how shared the machine is).

The last line is ``key=value`` pairs, for comparing runs:
``records_per_s`` and ``moves_per_s`` (move lines) for the verifier,
``parse_moves_per_s`` for the baseline,
``ratio_vs_parse = moves_per_s / parse_moves_per_s`` (target >= 0.25), and
``speedup_j2``, ``-j 1``'s time over ``-j 2``'s (target >= 1.7 on two cores;
``cpus`` says how many this machine has), and ``cpu_j2_vs_j1``, the CPU time
``-j 2`` takes in all over ``-j 1``'s: what the processes cost, whatever the
load (on two idle cores the speed-up is at most about 2 / ``cpu_j2_vs_j1``).
``ceiling_j2`` is the baseline for the speed-up, measured in the same run, interleaved with it:
the speed-up of two processes over one on a pure-Python loop that shares nothing (the same
amount of work as ``-j 1``'s, split in two for a pool of two). On two idle cores it is about 2;
on a shared machine whose two cores slow each other it is what any two processes could get,
and ``speedup_vs_ceiling = speedup_j2 / ceiling_j2`` is the part that is the verifier's own.
``--profile`` prints the verifier's top functions under cProfile instead.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import os
import pstats
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from click.testing import CliRunner

from fairdeal.record import Signer
from fairdeal.rules import get
from fairdeal.table import Seat
from fairdeal.table import Table
from fairdeal.table import client_commitment
from fairdeal.verification import verify
from verifier.cli import main as verify_command

SIGNER = Signer.from_seed(hashlib.sha256(b"bench/verify").digest())


def make_record(n: int) -> str:
    """Record ``n``: a whole match, every seat's move from the rules alone (no bot heuristics)."""
    game_id = f"bench-{n}"
    rng = random.Random(game_id)
    seats = [Seat("Ann"), Seat("Bob"), Seat("Bot 1", bot=True), Seat("Bot 2", bot=True)]
    server_seed = hashlib.sha256(f"bench/verify/{n}".encode()).hexdigest()
    table = Table.new(
        game_id, get("crazy-eights"), seats, SIGNER, created="2026-01-01T00:00:00Z", server_seed=server_seed
    )
    for seat in (0, 1):
        table.commit(seat, client_commitment(f"{game_id}/{seat}"))
    for seat in (0, 1):
        table.reveal_client_seed(seat, f"{game_id}/{seat}")
    match = table.match
    while not match.over:
        seat = match.turn
        if seat < 2 and rng.random() < 0.5:
            move, auto = rng.choice(match.legal_moves(seat)), False
        else:
            move, auto = match.auto_move(), seat < 2
        # Table.move without its receipt (signing one per move would dominate making the records).
        table.writer.extend(match.apply(seat, move, auto=auto))
    table.reveal()
    return table.writer.text()


def verify_all(paths: list[Path]) -> int:
    verified = 0
    for path in paths:
        verified += verify(path.read_bytes()).verified
    return verified


def parse_all(paths: list[Path]) -> int:
    lines = 0
    for path in paths:
        for raw in path.read_bytes().split(b"\n"):
            if raw:
                json.loads(raw)
                lines += 1
    return lines


def run_command(paths: list[Path], jobs: int) -> tuple[float, float]:
    """Wall-clock seconds of ``fairdeal-verify -j JOBS`` on all the files (its exit status
    checked), and the CPU seconds it took, its worker processes' included."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu, start = time.process_time(), time.perf_counter()
    result = CliRunner().invoke(verify_command, ["-j", str(jobs), *map(str, paths)])
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    # The pool has joined its workers when the command returns: their times are in RUSAGE_CHILDREN.
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu += after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
    if result.exit_code != 0 or not result.stdout.endswith(f"{len(paths)} verified, 0 not verified\n"):
        sys.exit(f"bench/verify.py: fairdeal-verify -j {jobs} did not verify them all: {result.output[-300:]}")
    return elapsed, cpu


def spin(iterations: int) -> int:
    """Pure-Python work that touches no shared memory: the ceiling's unit."""
    total = 0
    for i in range(iterations):
        total += i * i % 7
    return total


def run_spin(iterations: int, jobs: int) -> float:
    """Wall-clock seconds of ``iterations`` of :func:`spin`: in this process (``jobs`` 1), or
    split between a new pool of ``jobs`` worker processes, as ``fairdeal-verify -j`` splits records."""
    from concurrent.futures import ProcessPoolExecutor

    start = time.perf_counter()
    if jobs == 1:
        spin(iterations)
    else:
        with ProcessPoolExecutor(jobs) as pool:
            list(pool.map(spin, [iterations // jobs] * jobs))
    return time.perf_counter() - start


def cpu_time(fn, *args) -> float:
    start = time.process_time()
    fn(*args)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=200, help="records to make (default 200)")
    parser.add_argument("--repeat", type=int, default=5, help="timed repetitions (default 5)")
    parser.add_argument("--profile", action="store_true", help="profile the verifier instead of timing it")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for n in range(args.records):
            path = Path(tmp) / f"bench-{n}.jsonl"
            path.write_text(make_record(n), encoding="utf-8")
            paths.append(path)
        lines = parse_all(paths)
        moves = sum(path.read_bytes().count(b'"type":"move"') for path in paths)
        if verify_all(paths) != len(paths):
            sys.exit("bench/verify.py: a record the table wrote does not verify")
        print(
            f"{len(paths)} records of 4 seats: {lines} lines, {moves} moves, "
            f"{sum(p.stat().st_size for p in paths) / 1e6:.1f} MB"
        )
        if args.profile:
            profile = cProfile.Profile()
            profile.runcall(verify_all, paths)
            pstats.Stats(profile).sort_stats("tottime").print_stats(20)
            return
        verify_times, parse_times = [], []
        for _ in range(args.repeat):  # interleaved, so that a noisy moment hits both
            verify_times.append(cpu_time(verify_all, paths))
            parse_times.append(cpu_time(parse_all, paths))
        verify_s, parse_s = statistics.median(verify_times), statistics.median(parse_times)
        # The ceiling's loop, sized from a short probe to take about as long as -j 1.
        probe = 200_000
        iterations = int(probe * verify_s / max(run_spin(probe, 1), 1e-6))
        j1_runs, j2_runs, spin1, spin2 = [], [], [], []
        for _ in range(args.repeat):  # interleaved: a noisy moment hits the ceiling as well
            j1_runs.append(run_command(paths, 1))
            j2_runs.append(run_command(paths, 2))
            spin1.append(run_spin(iterations, 1))
            spin2.append(run_spin(iterations, 2))
        (j1_s, j1_cpu), (j2_s, j2_cpu) = (map(statistics.median, zip(*runs)) for runs in (j1_runs, j2_runs))
        ceiling = statistics.median(spin1) / statistics.median(spin2)

    print(f"verify: {verify_s:.3f} s CPU for all ({1e6 * verify_s / lines:.1f} us a line), median of {args.repeat}")
    print(f"parse:  {parse_s:.3f} s CPU for all ({1e6 * parse_s / lines:.1f} us a line), median of {args.repeat}")
    print(
        f"fairdeal-verify -j 1: {j1_s:.3f} s wall-clock, {j1_cpu:.3f} s CPU; "
        f"-j 2: {j2_s:.3f} s wall-clock, {j2_cpu:.3f} s CPU in all; medians of {args.repeat}"
    )
    print(f"ceiling: a loop that shares nothing runs {ceiling:.2f}x as fast in two processes as in one here")
    moves_per_s = moves / verify_s
    parse_moves_per_s = moves / parse_s
    print(
        f"ratio_vs_parse={moves_per_s / parse_moves_per_s:.3f} speedup_j2={j1_s / j2_s:.2f} "
        f"ceiling_j2={ceiling:.2f} speedup_vs_ceiling={j1_s / j2_s / ceiling:.2f} "
        f"records_per_s={len(paths) / verify_s:.1f} moves_per_s={moves_per_s:.0f} "
        f"parse_moves_per_s={parse_moves_per_s:.0f} cpu_j2_vs_j1={j2_cpu / j1_cpu:.2f} cpus={os.cpu_count()}"
    )


if __name__ == "__main__":
    main()
