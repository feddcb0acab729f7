"""spec/record.md says what the code does: its worked example, its vector, its encoding rules."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from fairdeal.record import canonical
from fairdeal.record import check_chain
from fairdeal.record import head_message
from fairdeal.record import line_hash
from fairdeal.record import parse_record
from fairdeal.verification import verify
from fairdeal.verification.replay import read_lines
from verifier.cli import main

SPEC = Path(__file__).resolve().parent.parent / "spec"
DOC = (SPEC / "record.md").read_text(encoding="utf-8")
VECTOR = SPEC / "vectors" / "record-example.jsonl"
"""Format 1, as fairdeal wrote the example before times: kept, and it still verifies."""
VECTOR_2 = SPEC / "vectors" / "record-example-2.jsonl"
"""The same game in format 2, as the spec's recipe writes it today."""


def test_the_example_record_verifies():
    data = VECTOR.read_bytes()
    report = verify(data)
    assert report.verified, report.error
    assert (report.game_id, report.rules, len(report.hands), report.moves) == ("example-1", "crazy-eights", 1, 14)
    assert report.hands[0].deal == [
        ["9D", "AC", "2S", "6H", "2C", "7C", "JS"],
        ["TC", "JC", "6D", "4H", "5C", "8S", "9S"],
    ]
    assert report.to_json()["standings"] == [{"seat": 1, "total": 11, "place": 1}, {"seat": 0, "total": 0, "place": 2}]
    result = CliRunner().invoke(main, [str(VECTOR)])
    assert result.exit_code == 0 and result.stdout.endswith("\nVERIFIED\n")
    v2 = verify(VECTOR_2.read_bytes())
    assert v2.verified, v2.error
    assert v2.timing == {"turn_ms": 1000, "bot_ms": 0, "next_hand_ms": 0}
    assert [h.to_json() for h in v2.hands] == [
        {**h.to_json(), "dealt_at": "2026-01-01T00:00:07.500Z", "ended_at": "2026-01-01T00:00:30.000Z"}
        for h in report.hands
    ]
    # The same game, line for line, but for the times and the header's format and timing.
    chain = ("seq", "prev", "sig", "at", "format", "timing")
    strip = [
        [{k: v for k, v in line.items() if k not in chain} for line in parse_record(path.read_text(encoding="utf-8"))]
        for path in (VECTOR, VECTOR_2)
    ]
    assert strip[0] == strip[1]


def test_the_recipe_in_the_spec_writes_the_vector_byte_for_byte():
    recipe = re.search(r"```python\n(.*?)```", DOC, re.S).group(1)
    scope: dict = {}
    exec(recipe, scope)  # the spec's own code block
    assert scope["text"] == VECTOR_2.read_text(encoding="utf-8")
    # The receipt the spec shows is the one the table gave.
    shown = json.loads(re.search(r'(\{"game_id": "example-1", "seq": 6, "hash": "[0-9a-f]{64}".*?\})', DOC).group(1))
    assert shown in scope["receipts"] and shown["at"] == scope["table"].lines[6]["at"]
    assert shown["hash"] == scope["table"].lines[7]["prev"]


def test_a_line_hash_recomputed_by_hand():
    raw = VECTOR.read_bytes().split(b"\n")
    lines = parse_record(VECTOR.read_text(encoding="utf-8"))
    # An unsigned line: SHA-256 of its bytes as written.
    assert len(raw[0]) == 497
    assert hashlib.sha256(raw[0]).hexdigest() == "e0bd12c869ea8892e7119afefdab20230b60e34d58c62859cb2b0ea88d2610a7"
    assert lines[1]["prev"] == hashlib.sha256(raw[0]).hexdigest() == line_hash(lines[0])
    # A signed line: SHA-256 of its canonical encoding without "sig".
    hand_end = lines[20]
    without = {k: v for k, v in hand_end.items() if k != "sig"}
    assert canonical(without).decode() in DOC
    digest = hashlib.sha256(canonical(without)).hexdigest()
    assert digest == "60329865c65804ebcdde92a4a9ba73ea2757d5c88aa5fb92c23855d5de61d937" == lines[21]["prev"]
    # The message its signature signs, as the spec spells it out.
    message = bytes.fromhex(
        "00000010" + b"fairdeal/v1/head".hex() + "00000009" + b"example-1".hex() + "0000000000000014" + digest
    )
    assert message == head_message("example-1", 20, digest) and len(message) == 73
    key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(lines[0]["server_key"]))
    key.verify(bytes.fromhex(hand_end["sig"]), message)
    check_chain(lines)


def test_every_record_line_the_spec_shows_is_in_the_vector():
    vector: set[str] = set()
    unsigned: set[str] = set()
    for path in (VECTOR, VECTOR_2):  # format 1's lines or format 2's
        text = path.read_text(encoding="utf-8")
        vector |= set(text.splitlines())
        unsigned |= {canonical({k: v for k, v in line.items() if k != "sig"}).decode() for line in parse_record(text)}
    shown = [line for line in DOC.splitlines() if line.startswith('{"') and '"prev":"' in line]
    assert len(shown) >= 11
    for line in shown:
        assert line in vector or line in unsigned  # a line, or a signed line without its sig


def test_the_canonical_encoding_escapes_exactly_what_the_spec_says():
    short = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
    for code in range(0x20):
        char = chr(code)
        expected = short.get(char, f"\\u{code:04x}")
        assert canonical(char) == f'"{expected}"'.encode()
    for char in '"\\':
        assert canonical(char) == f'"{short[char]}"'.encode()
    for char in "/\x7f\x85\u2028\u2029\ufeff\U0001f0a1é♥":
        assert canonical(char) == f'"{char}"'.encode()  # as itself, in UTF-8
    assert canonical({"b": 1, "a": "é\n"}) == '{"a":"é\\n","b":1}'.encode()
    # Keys in code point order (not UTF-16 order).
    assert canonical({"\U0001f0a1": 1, "\uff5e": 2}) == '{"～":2,"🂡":1}'.encode()


def test_a_verifier_refuses_what_the_spec_refuses():
    text = VECTOR.read_text(encoding="utf-8")
    first = text.splitlines()[0]
    for bad, reason in [
        (first.replace('"seq":0', '"seq": 0'), "not in canonical form"),
        (first.replace('"seq":0', '"seq":0.0'), "is not an integer"),
        (first.replace('"seq":0', '"seq":0e0'), "is not an integer"),
        (first[:-1] + ',"seq":0}', "not in canonical form"),  # a key twice
    ]:
        report = verify(text.replace(first, bad, 1))
        assert not report.verified and reason in report.error.reason
    lines, _, failure = read_lines(text.replace("\n", "\r\n"))
    assert failure is None and len(lines) == 23
