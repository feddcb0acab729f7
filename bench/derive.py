"""How long one protocol shuffle of a 52-card pack takes, against Python's own shuffles.

    python bench/derive.py [--number N] [--repeat R]

Baselines, in the same run because the machines are shared and noisy:
``random.shuffle`` (Mersenne Twister: fast, predictable, not for dealing)
and ``secrets.SystemRandom().shuffle`` (the OS CSPRNG: what a careful server
would use without a protocol). Each is timed ``repeat`` times over
``number`` shuffles of a fresh list copy; the median is reported in
microseconds per shuffle. Before timing, the shuffle must reproduce the
spec's vectors bit for bit: a fast wrong shuffle is no result.

The last line is ``key=value`` pairs, for comparing runs:
ratio_vs_random = derive / random (target <= 2.0),
speedup_vs_system = system / derive (target >= 2.0).
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import statistics
import timeit
from pathlib import Path

from fairdeal.cards import codes
from fairdeal.cards import pack
from fairdeal.fairness import game_key
from fairdeal.fairness import shuffle

VECTORS = Path(__file__).resolve().parents[1] / "spec" / "vectors" / "fairness.json"
LABEL = "hand/1/deal"


def check_vectors() -> int:
    """Assert that every shuffle vector comes out exactly; return how many were checked."""
    vectors = json.loads(VECTORS.read_text(encoding="utf-8"))["shuffle"]
    for v in vectors:
        key = game_key(v["server_seed"], v["game_id"], v["client_seeds"])
        deck = pack(v["packs"]) if "packs" in v else v["cards"]
        got = [c if isinstance(c, str) else c.code for c in shuffle(key, v["label"], deck)]
        assert key.hex() == v["game_key"] and got == v["order"], f"vector {v['name']!r} does not reproduce"
    return len(vectors)


def median_us(stmt, number: int, repeat: int) -> float:
    return statistics.median(timeit.repeat(stmt, number=number, repeat=repeat)) / number * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=5000, help="shuffles per repetition (default 5000)")
    parser.add_argument("--repeat", type=int, default=7, help="repetitions; the median counts (default 7)")
    args = parser.parse_args()

    checked = check_vectors()
    key = game_key("5eed" * 16, "bench", ["alice", "bob", "carol", "dave"])
    cards = pack()
    assert sorted(shuffle(key, LABEL, cards)) == cards
    print(f"{checked} vectors reproduce; timing {args.repeat} x {args.number} shuffles of {len(cards)} cards")
    print(f"derive order starts {' '.join(codes(shuffle(key, LABEL, cards))[:8])} ...")

    mersenne = random.Random(20240601)
    system = secrets.SystemRandom()
    derive = median_us(lambda: shuffle(key, LABEL, cards), args.number, args.repeat)
    rand = median_us(lambda: mersenne.shuffle(list(cards)), args.number, args.repeat)
    sysr = median_us(lambda: system.shuffle(list(cards)), args.number, args.repeat)

    print(f"fairdeal.fairness.shuffle      {derive:8.2f} us")
    print(f"random.shuffle (list copy)     {rand:8.2f} us")
    print(f"SystemRandom.shuffle (copy)    {sysr:8.2f} us")
    print(
        f"derive_us={derive:.2f} random_shuffle_us={rand:.2f} system_random_us={sysr:.2f} "
        f"ratio_vs_random={derive / rand:.2f} speedup_vs_system={sysr / derive:.2f}"
    )


if __name__ == "__main__":
    main()
