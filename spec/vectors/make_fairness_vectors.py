#!/usr/bin/env python3
"""Write spec/vectors/fairness.json: test vectors for fairness protocol v1.

The vectors are computed by the small reference implementation below,
written from spec/fairness.md with nothing but :mod:`hashlib` and
:mod:`hmac`. It deliberately does not import ``fairdeal``: the tests check
the library against this file, so the file must come from somewhere else.

Every input is fixed (no CSPRNG), so running the script again gives the
same bytes::

    python spec/vectors/make_fairness_vectors.py          # rewrite the file
    python spec/vectors/make_fairness_vectors.py --check  # exit 1 if it is stale
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import sys
from collections.abc import Iterator
from collections.abc import Sequence
from pathlib import Path

OUTPUT = Path(__file__).with_name("fairness.json")

# --- reference implementation, straight from the spec -------------------

RANKS = "A23456789TJQK"
SUITS = "CDHS"
ONE_PACK = [rank + suit for suit in SUITS for rank in RANKS]


def u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def lp(value: str | bytes) -> bytes:
    data = value.encode("utf-8") if isinstance(value, str) else value
    return u32(len(data)) + data


def hmac_sha256(key: bytes, msg: bytes) -> bytes:
    return hmac.digest(key, msg, "sha256")


def ref_commitment(server_seed_hex: str) -> str:
    # The 32 seed bytes are hashed, not the 64 characters of hex.
    return hashlib.sha256(bytes.fromhex(server_seed_hex)).hexdigest()


def ref_client_commitment(client_seed: str) -> str:
    return hashlib.sha256(lp("fairdeal/v1/client") + lp(client_seed)).hexdigest()


def ref_game_key(server_seed_hex: str, game_id: str, client_seeds: Sequence[str]) -> bytes:
    msg = lp("fairdeal/v1/game") + lp(game_id) + u32(len(client_seeds))
    msg += b"".join(lp(seed) for seed in client_seeds)
    return hmac_sha256(bytes.fromhex(server_seed_hex), msg)


def ref_label_key(game_key: bytes, label: str) -> bytes:
    return hmac_sha256(game_key, lp("fairdeal/v1/shuffle") + lp(label))


def ref_stream_bytes(game_key: bytes, label: str, size: int) -> bytes:
    k = ref_label_key(game_key, label)
    out = b""
    block = 0
    while len(out) < size:
        out += hmac_sha256(k, u64(block))
        block += 1
    return out[:size]


def ref_words(game_key: bytes, label: str) -> Iterator[int]:
    k = ref_label_key(game_key, label)
    block = 0
    while True:
        data = hmac_sha256(k, u64(block))
        block += 1
        for i in range(0, 32, 4):
            yield int.from_bytes(data[i : i + 4], "big")


def ref_uniform(words: Iterator[int], n: int) -> int:
    assert 1 <= n <= 2**32
    while True:
        x = next(words)
        if x < 2**32 - (2**32 % n):
            return x % n


def ref_shuffle(words: Iterator[int], cards: Sequence[str]) -> list[str]:
    a = list(cards)
    for i in range(len(a) - 1, 0, -1):
        j = ref_uniform(words, i + 1)
        a[i], a[j] = a[j], a[i]
    return a


# --- the vectors --------------------------------------------------------


def _seed(text: str) -> str:
    """A fixed, public test seed: SHA-256 of a phrase (never use one like it for real)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


ZERO = "00" * 32
ONES = "ff" * 32
COUNTING = bytes(range(32)).hex()
SEED_A = _seed("fairdeal test vector seed A")
SEED_B = _seed("fairdeal test vector seed B")

LONG_GAME_ID = "g" * 120 + "-1234567"  # exactly 128 bytes, the longest allowed
LONG_CLIENT_SEED = "é" * 64  # 128 UTF-8 bytes, the largest allowed
SHORT = ["AS", "KH", "8D", "8C", "TD"]
# A restock gathers the discards under the top card, sorted into card order.
RESTOCK = ["3C", "8C", "JC", "2D", "9D", "QD", "AH", "5H", "TH", "KH", "4S", "7S", "QS"]

# (name, server_seed, game_id, client_seeds, label, cards or packs)
CASES: list[tuple[str, str, str, list[str], str, list[str] | int]] = [
    ("doc example: fairness.py docstring", ZERO, "demo", ["alice", ""], "hand/1/deal", 1),
    ("no client seeds", ZERO, "demo", [], "hand/1/deal", 1),
    ("one empty client seed", ZERO, "demo", [""], "hand/1/deal", 1),
    ("empty and no client seed differ", ZERO, "demo", ["", ""], "hand/1/deal", 1),
    ("all-ones seed", ONES, "demo", ["alice", ""], "hand/1/deal", 1),
    ("counting seed, four seats", COUNTING, "table-7/game-42", ["alice", "bob", "carol", "dave"], "hand/1/deal", 1),
    ("seat order matters", COUNTING, "table-7/game-42", ["bob", "alice", "carol", "dave"], "hand/1/deal", 1),
    ("bots use the empty string", SEED_A, "table-7/game-43", ["4f1c2a9e", "", "", "x"], "hand/1/deal", 1),
    ("draw for the first dealer", SEED_A, "table-7/game-43", ["4f1c2a9e", "", "", "x"], "draw-for-deal", 1),
    ("second hand", SEED_A, "table-7/game-43", ["4f1c2a9e", "", "", "x"], "hand/2/deal", 1),
    ("first restock", SEED_A, "table-7/game-43", ["4f1c2a9e", "", "", "x"], "hand/1/restock/1", RESTOCK),
    ("second restock", SEED_A, "table-7/game-43", ["4f1c2a9e", "", "", "x"], "hand/1/restock/2", RESTOCK),
    ("two packs", SEED_B, "fan-tan/7", ["alice", "bob", "carol", "dave", "erin", "frank"], "hand/1/deal", 2),
    (
        "two packs, draw for deal",
        SEED_B,
        "fan-tan/7",
        ["alice", "bob", "carol", "dave", "erin", "frank"],
        "draw-for-deal",
        2,
    ),
    ("three packs", SEED_B, "big-table", ["p1", "p2"], "hand/1/deal", 3),
    ("non-ASCII game id", SEED_B, "partie-été-♠", ["alice"], "hand/1/deal", 1),
    ("CJK game id and emoji client seed", SEED_B, "游戏-1", ["🂡 ace", "日本語"], "hand/1/deal", 1),
    ("longest game id and client seed", SEED_B, LONG_GAME_ID, [LONG_CLIENT_SEED, ""], "hand/1/deal", 1),
    ("generic session label", SEED_A, "session-9", ["player"], "session_9/deal-a", 1),
    ("generic label, short list", SEED_A, "session-9", ["player"], "session_9/deal-b", SHORT),
    ("short list, deal label", ZERO, "demo", ["alice", ""], "hand/1/deal", SHORT),
    ("two cards", ZERO, "demo", ["alice", ""], "hand/4/restock/3", ["8H", "8S"]),
    ("one card", ZERO, "demo", ["alice", ""], "hand/4/restock/4", ["QH"]),
    ("no cards", ZERO, "demo", ["alice", ""], "hand/4/restock/5", []),
    ("one-character label and game id", ONES, "x", ["y"], "z", 1),
]

# (n, stream words, note): expected results are computed by ref_uniform.
UNIFORM_CASES: list[tuple[int, list[int], str]] = [
    (1, [0xDEADBEEF], "n = 1 still reads one word"),
    (2, [0xFFFFFFFF], "a power of two never rejects"),
    (3, [0xFFFFFFFE], "the largest word accepted for n = 3"),
    (3, [0xFFFFFFFF, 0x00000007], "2**32 - 1 is rejected for n = 3, the next word is used"),
    (3, [0xFFFFFFFF, 0xFFFFFFFF, 0x0000000A], "two rejections in a row"),
    (6, [0xFFFFFFFC, 0x12345678], "2**32 mod 6 = 4: 0xFFFFFFFC is the first rejected word"),
    (6, [0xFFFFFFFB], "0xFFFFFFFB is the last accepted word for n = 6"),
    (52, [0xFFFFFFF0, 0x00000033], "2**32 mod 52 = 48: 0xFFFFFFD0 and above are rejected"),
    (52, [0xFFFFFFCF], "0xFFFFFFCF is the last accepted word for n = 52"),
    (104, [0xFFFFFFFF, 0x80000000], "two packs: n = 104 rejects the top word"),
    (2**31 + 1, [0x80000001, 0x80000000], "n = 2**31 + 1 rejects nearly half the words"),
    (2**31 + 1, [0xFFFFFFFF, 0x80000001, 0x00000005], "n = 2**31 + 1, two rejections"),
    (2**32, [0xFFFFFFFF], "n = 2**32 accepts every word and returns it"),
    (2**32, [0x00000000], "n = 2**32, zero"),
]


def shuffle_vector(
    name: str, server_seed: str, game_id: str, client_seeds: list[str], label: str, cards: list[str] | int
) -> dict[str, object]:
    if isinstance(cards, int):
        deck = ONE_PACK * cards
        card_input: dict[str, object] = {"packs": cards}
    else:
        deck = list(cards)
        card_input = {"cards": deck}
    key = ref_game_key(server_seed, game_id, client_seeds)
    return {
        "name": name,
        "server_seed": server_seed,
        "game_id": game_id,
        "client_seeds": client_seeds,
        "label": label,
        **card_input,
        "commitment": ref_commitment(server_seed),
        "client_commitments": [ref_client_commitment(seed) for seed in client_seeds],
        "game_key": key.hex(),
        "label_key": ref_label_key(key, label).hex(),
        "stream_first_64": ref_stream_bytes(key, label, 64).hex(),
        "order": ref_shuffle(ref_words(key, label), deck),
    }


def uniform_vector(n: int, words: list[int], note: str) -> dict[str, object]:
    consumed = 0

    def feed() -> Iterator[int]:
        nonlocal consumed
        for word in words:
            consumed += 1
            yield word
        raise AssertionError(f"uniform({n}) case needs more words than {words}")

    result = ref_uniform(feed(), n)
    assert consumed == len(words), f"uniform({n}) case has unused words: {note}"
    return {
        "note": note,
        "n": n,
        "stream": b"".join(u32(w) for w in words).hex(),
        "result": result,
        "words_consumed": consumed,
    }


# Secret rules (spec/fairness.md, section 12): seed, game, round, library size, the rule text.
RULE_CASES: list[tuple[str, str, str, list[str], int, int, str]] = [
    ("the worked example's seed, round 1", "00" * 32, "demo", ["alice", ""], 1, 24, "card.colour != last.colour"),
    (
        "a later round, another library size",
        _seed("rules"),
        "eleusis-7",
        ["", "", "", ""],
        3,
        7,
        "if last.rank < 7 then card.rank > last.rank else card.rank < last.rank",
    ),
    ("a non-ASCII game id, one-card library", "ff" * 32, "jeu-é", ["x"], 12, 1, "card.suit = spades"),
]


def ref_rule_commitment(rule: str, nonce: bytes) -> str:
    return hashlib.sha256(lp("fairdeal/v1/rule") + lp(rule) + lp(nonce)).hexdigest()


def rule_vector(
    name: str, server_seed: str, game_id: str, client_seeds: list[str], hand: int, library: int, rule: str
) -> dict[str, object]:
    key = ref_game_key(server_seed, game_id, client_seeds)
    nonce = ref_stream_bytes(key, f"hand/{hand}/rule-nonce", 32)
    order = ref_shuffle(ref_words(key, f"hand/{hand}/rule"), list(range(library)))
    return {
        "name": name,
        "server_seed": server_seed,
        "game_id": game_id,
        "client_seeds": client_seeds,
        "hand": hand,
        "library_size": library,
        "rule": rule,
        "nonce": nonce.hex(),
        "server_rule_index": order[0],
        "commitment": ref_rule_commitment(rule, nonce),
    }


DESCRIPTION = {
    "format": "fairdeal/fairness-vectors/1",
    "protocol": "fairdeal/v1",
    "description": (
        "Test vectors for fairness protocol v1 (spec/fairness.md), written by "
        "spec/vectors/make_fairness_vectors.py from fixed inputs with an independent reference "
        "implementation. Hex is lowercase. 'shuffle' vectors: inputs server_seed (64 hex), game_id, "
        "client_seeds (seat order; [] means zero seats), label, and either packs (the game pack of "
        "that many packs in card order) or cards (the exact list to shuffle, as codes); outputs "
        "commitment, client_commitments (one per client seed, same order), game_key (32 bytes), "
        "label_key (K, 32 bytes), stream_first_64 (the first 64 bytes of the label's stream) and "
        "order (card codes after the shuffle, top of the stock first). 'uniform' vectors: n, "
        "stream (the bytes uniform(n) reads, as hex, 4 per word), result, and words_consumed "
        "(always every word given: the earlier ones were rejected). 'rules' vectors (secret rules, "
        "section 12): inputs server_seed, game_id, client_seeds, hand, library_size and rule (a "
        "canonical rule text); outputs nonce (the first 32 bytes of label hand/{hand}/rule-nonce's "
        "stream), server_rule_index (the first of the indices 0..library_size-1 shuffled with label "
        "hand/{hand}/rule) and commitment (rule_commitment(rule, nonce))."
    ),
}


def build() -> dict[str, object]:
    return {
        **DESCRIPTION,
        "shuffle": [shuffle_vector(*case) for case in CASES],
        "uniform": [uniform_vector(*case) for case in UNIFORM_CASES],
        "rules": [rule_vector(*case) for case in RULE_CASES],
    }


def dumps(data: dict[str, object]) -> str:
    """JSON with one field per line and lists kept on one line, so diffs stay readable."""

    def obj(d: dict[str, object], indent: str) -> str:
        inner = indent + "  "
        lines = [f"{inner}{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in d.items()]
        return "{\n" + ",\n".join(lines) + "\n" + indent + "}"

    parts = []
    for key, value in data.items():
        if isinstance(value, list):
            items = ",\n".join("    " + obj(item, "    ") for item in value)
            parts.append(f"  {json.dumps(key)}: [\n{items}\n  ]")
        else:
            parts.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file differs from a fresh build")
    args = parser.parse_args(argv)
    text = dumps(build())
    if args.check:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != text:
            print(f"{OUTPUT} is stale: run {Path(__file__).name}", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT} ({len(CASES)} shuffle and {len(UNIFORM_CASES)} uniform vectors)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
