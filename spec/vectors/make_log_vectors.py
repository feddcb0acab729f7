#!/usr/bin/env python3
"""Write spec/vectors/log.json: the worked example of spec/log.md, a log of three entries.

Computed by the few lines below, written from RFC 9162 section 2.1 (its recursive definitions,
as they stand) and C2SP signed-note / tlog-checkpoint, with :mod:`hashlib`, :mod:`base64` and
``cryptography``'s Ed25519; it does not import ``fairdeal``: tests check fairdeal/tlog.py against
this file. Every input is fixed (Ed25519 signatures are deterministic), so::

    python spec/vectors/make_log_vectors.py          # rewrite the file
    python spec/vectors/make_log_vectors.py --check  # exit 1 if it is stale
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import sys
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

OUTPUT = Path(__file__).with_name("log.json")
ORIGIN = "localhost:8000/log"
SEED = bytes(range(32))
"""The example's signing key: a fixed private key, for the example only."""

ENTRIES = [
    {
        "type": "start",
        "kind": "game",
        "id": "g1",
        "rules": "crazy-eights",
        "commitment": "11" * 32,
        "created": "2026-01-01T00:00:00Z",
        "host": "alice",
    },
    {
        "type": "start",
        "kind": "session",
        "id": "s1",
        "commitment": "22" * 32,
        "created": "2026-01-01T00:00:05Z",
        "host": "ip-0123456789abcdef0123",
    },
    {"type": "end", "id": "g1", "how": "revealed", "seq": 41, "head": "33" * 32},
]


def canonical(obj: object) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def sha(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def k_of(n: int) -> int:
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def mth(d: list[bytes]) -> bytes:
    if not d:
        return sha(b"")
    if len(d) == 1:
        return sha(b"\x00" + d[0])
    k = k_of(len(d))
    return sha(b"\x01" + mth(d[:k]) + mth(d[k:]))


def path(m: int, d: list[bytes]) -> list[bytes]:
    if len(d) == 1:
        return []
    k = k_of(len(d))
    if m < k:
        return path(m, d[:k]) + [mth(d[k:])]
    return path(m - k, d[k:]) + [mth(d[:k])]


def subproof(m: int, d: list[bytes], b: bool) -> list[bytes]:
    if m == len(d):
        return [] if b else [mth(d)]
    k = k_of(len(d))
    if m <= k:
        return subproof(m, d[:k], b) + [mth(d[k:])]
    return subproof(m - k, d[k:], False) + [mth(d[:k])]


def vectors() -> dict:
    data = [canonical(e) for e in ENTRIES]
    key = Ed25519PrivateKey.from_private_bytes(SEED)
    public = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    root = mth(data)
    text = f"{ORIGIN}\n{len(data)}\n{base64.b64encode(root).decode()}\n"
    key_id = sha(ORIGIN.encode() + b"\n\x01" + public)[:4]
    signature = base64.b64encode(key_id + key.sign(text.encode())).decode()
    hexes = lambda hashes: [h.hex() for h in hashes]  # noqa: E731
    return {
        "about": "spec/log.md's worked example; written by spec/vectors/make_log_vectors.py",
        "origin": ORIGIN,
        "private_key_seed": SEED.hex(),
        "public_key": public.hex(),
        "key_id": key_id.hex(),
        "entries": [d.decode() for d in data],
        "leaf_hashes": [sha(b"\x00" + d).hex() for d in data],
        "roots": {str(n): mth(data[:n]).hex() for n in range(0, len(data) + 1)},
        "inclusion": [{"index": i, "size": len(data), "proof": hexes(path(i, data))} for i in range(len(data))],
        "consistency": [
            {"first": m, "second": len(data), "proof": hexes(subproof(m, data, True))} for m in range(1, len(data))
        ],
        "checkpoint": f"{text}\n\u2014 {ORIGIN} {signature}\n",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is not what this script writes")
    args = parser.parse_args()
    text = json.dumps(vectors(), indent=1, ensure_ascii=False) + "\n"
    if args.check:
        if OUTPUT.read_text(encoding="utf-8") != text:
            print(f"{OUTPUT} is stale: run {sys.argv[0]}", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
