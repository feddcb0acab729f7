"""spec/record.md says what the code does: its worked example, its vector, its encoding rules."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from fairdeal.record import canonical, check_chain, head_message, line_hash, parse_record
from verifier.cli import main
from verifier.replay import read_lines, verify

SPEC = Path(__file__).resolve().parent.parent / "spec"
DOC = (SPEC / "record.md").read_text(encoding="utf-8")
VECTOR = SPEC / "vectors" / "record-example.jsonl"


def test_the_example_record_verifies():
    data = VECTOR.read_bytes()
    report = verify(data)
    assert report.verified, report.error
    assert (report.game_id, report.rules, len(report.hands), report.moves) == ("example-1", "crazy-eights", 1, 14)
    assert report.hands[0].deal == [["9D", "AC", "2S", "6H", "2C", "7C", "JS"], ["TC", "JC", "6D", "4H", "5C", "8S", "9S"]]
    assert report.standings == [{"seat": 1, "total": 11, "place": 1}, {"seat": 0, "total": 0, "place": 2}]
    result = CliRunner().invoke(main, [str(VECTOR)])
    assert result.exit_code == 0 and result.stdout.endswith("\nVERIFIED\n")


def test_the_recipe_in_the_spec_writes_the_vector_byte_for_byte():
    recipe = re.search(r"```python\n(.*?)```", DOC, re.S).group(1)
    scope: dict = {}
    exec(recipe, scope)  # the spec's own code block
    assert scope["text"] == VECTOR.read_text(encoding="utf-8")
    # The receipt the spec shows is the one the table gave.
    shown = json.loads(re.search(r'(\{"game_id": "example-1", "seq": 6, "hash": "[0-9a-f]{64}".*?\})', DOC).group(1))
    assert shown in scope["receipts"]


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
    text = VECTOR.read_text(encoding="utf-8")
    vector = set(text.splitlines())
    unsigned = {canonical({k: v for k, v in line.items() if k != "sig"}).decode() for line in parse_record(text)}
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
        assert canonical(char) == f'"{char}"'.encode("utf-8")  # as itself, in UTF-8
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
