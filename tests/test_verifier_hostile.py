"""The verifier never crashes, however hostile the record (#31 item 4).

Real records of every game (and a dealing session) are mutated as a forger or a broken disk
would: values of other types, huge or negative integers, floats, nested junk, unicode, keys
deleted or added, lines dropped, repeated, moved or replaced, bytes cut off; some are then
re-chained and re-signed (a forging server), so that the mutation reaches the replay and not
only the chain check. Each is run through ``fairdeal-verify`` in process (click's runner), as a
text report, as JSON, move by move, and in a batch before a good record. Every input gets a
verdict (exit 0 or 1) or a one-line reason (exit 2), never a traceback; and in a batch the good
record after a bad one still gets its verdict. A player's receipts (``--receipts``) are mutated too.

What it found, and the verifier now answers: a line whose ``type`` is a list or an object (the
chain check looked it up in a set), a number of more than 4300 digits (Python reads none), and in
receipts a ``seq`` beyond 2**64 (signed as a u64) and nesting deeper than Python recurses.

Hypothesis runs derandomized (the same examples every run) and briefly; for a long hunt run
this file with ``FAIRDEAL_HOSTILE_EXAMPLES=20000``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from helpers import FUZZ
from hypothesis import HealthCheck
from hypothesis import example
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from test_verifier_support import CREATED
from test_verifier_support import SIGNER
from test_verifier_support import play_golden

from fairdeal.cards import ALL_CARDS
from fairdeal.record import resign
from fairdeal.rules import RULES
from fairdeal.rules import get
from verifier.cli import main

GOLDEN = Path(__file__).parent / "golden"
EXAMPLES = int(os.environ.get("FAIRDEAL_HOSTILE_EXAMPLES", "300"))
HOSTILE = settings(
    FUZZ, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
)
"""This file's fuzz tests' settings: however large an example is, or however many are filtered out."""


def _game(name: str) -> list[dict[str, Any]]:
    """A short format 2 record of ``name`` (a deal or a small target), a line every 250 ms."""
    cls = RULES[name]
    known = get(name, {}).options
    options = {k: v for k, v in {"deals": 1, "target": 10, "rounds": 1}.items() if k in known}
    seats = max(cls.min_seats, 2 if name == "crazy-eights" else 3)
    return play_golden(f"hostile-{name}", seats, humans=2, rules=name, options=options).lines


def _session() -> list[dict[str, Any]]:
    from fairdeal.cards import pack
    from fairdeal.cards import parse_cards
    from fairdeal.service.dealing import DealingSession
    from fairdeal.service.dealing import client_commitment

    session = DealingSession.new("s-hostile", 2, SIGNER, created=CREATED, server_seed="00" * 32, label_prefix="t/")
    for seat, seed in enumerate(("alice", "bob")):
        session.commit(seat, client_commitment(seed))
    for seat, seed in enumerate(("alice", "bob")):
        session.reveal_client_seed(seat, seed)
    session.shuffle("t/1", parse_cards("AS KS QS"))
    session.shuffle("t/2", pack(1))
    session.reveal()
    return session.writer.lines


def _golden_v1() -> list[dict[str, Any]]:
    return [json.loads(line) for line in (GOLDEN / "crazy-eights-4p.jsonl").read_text(encoding="utf-8").splitlines()]


RECORDS: dict[str, list[dict[str, Any]]] = {name: _game(name) for name in RULES}
RECORDS["session"] = _session()
RECORDS["golden-v1"] = _golden_v1()
# The good record of the batches, with the receipts its two human seats were given.
_RECEIPTED = play_golden("hostile-receipts", 3, humans=2, rules="go-boom", options={"target": 10}, receipts=True)
GOOD = _RECEIPTED.text
RECEIPTS = _RECEIPTED.receipts


def _values(value: Any, found: dict[str, dict[str, Any]], key: str = "") -> None:
    """Every value in ``value`` by the key it is found under, so that a mutation can give a field
    a value that another line has for it (another seat, card, hand, move, reason ...), which gets
    further into the replay than junk does."""
    found.setdefault(key, {})[json.dumps(value, sort_keys=True)] = value
    if isinstance(value, dict):
        for name, item in value.items():
            _values(item, found, name)
    elif isinstance(value, list):
        for item in value:
            _values(item, found, key)


_FOUND: dict[str, dict[str, Any]] = {}
for _lines in RECORDS.values():
    for _line in _lines:
        _values(_line, _FOUND)
# In a fixed order (sorted by their JSON): hypothesis needs the same choices on every run.
BY_KEY = {key: [v for _, v in sorted(values.items())][:300] for key, values in sorted(_FOUND.items()) if key}
REAL_VALUES = sorted({json.dumps(v, sort_keys=True): v for values in BY_KEY.values() for v in values}.items())
REAL_VALUES = [v for _, v in REAL_VALUES if not isinstance(v, dict) or len(v) < 8]
KEY_NAMES = sorted(BY_KEY)

_INTS = st.one_of(
    st.integers(-3, 60),
    st.sampled_from([-1, 2**31, 2**32, 2**53, 2**53 + 1, 2**63, 2**64, 10**15, -(10**15), 10**30, -(10**30), 10**400]),
    st.integers(),
)
_TEXT = st.one_of(
    st.text(max_size=12),
    st.sampled_from(
        [
            "",
            "x",
            "\u2028",
            "\x00",
            "é",
            "🂡",
            "a" * 300,
            "2026-01-01T00:00:00Z",
            "9999-12-31T23:59:59.999Z",
            "0001-01-01T00:00:00.000Z",
            "0" * 64,
            "f" * 128,
            "pot",
            "hand-end",
            "move",
            "reveal",
        ]
    ),
    st.sampled_from([card.code for card in ALL_CARDS]),
)
_SCALAR = st.one_of(st.none(), st.booleans(), _INTS, _TEXT, st.floats(allow_nan=False, allow_infinity=False))


def _copy(value: Any) -> Any:
    """A value of its own: a mutation changes values in place, never the ones in REAL_VALUES."""
    return json.loads(json.dumps(value))


JUNK = st.one_of(
    st.sampled_from(REAL_VALUES).map(_copy),
    st.recursive(
        _SCALAR,
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.dictionaries(st.sampled_from(KEY_NAMES) | st.text(max_size=6), inner, max_size=4)
        ),
        max_leaves=8,
    ),
)


def _walk(data: st.DataObject, line: Any) -> tuple[Any, Any] | None:
    """A container inside ``line`` and one of its keys (or indexes), chosen by hypothesis."""
    node, key = None, None
    here = line
    while isinstance(here, (dict, list)) and here:
        keys = sorted(here) if isinstance(here, dict) else list(range(len(here)))
        node, key = here, data.draw(st.sampled_from(keys))
        here = node[key]
        if not data.draw(st.booleans()):
            break
    return None if node is None else (node, key)


def _mutate(data: st.DataObject, lines: list[Any]) -> None:
    """One mutation of ``lines`` (a deep copy), in place."""
    if not lines:
        lines.append(data.draw(JUNK))
        return
    i = data.draw(st.integers(0, len(lines) - 1))
    op = data.draw(
        st.sampled_from(["set", "set", "set", "number", "delete", "add", "drop", "twice", "move", "replace"])
    )
    if op in ("set", "number", "delete"):
        spot = _walk(data, lines[i])
        if spot is None:
            return
        node, key = spot
        if op == "delete":
            del node[key]
        elif op == "number" and type(node[key]) is int:
            node[key] = data.draw(
                st.sampled_from(
                    [
                        node[key] + 1,
                        node[key] - 1,
                        -node[key],
                        node[key] * 10**15,
                        node[key] + 2**53,
                        float(node[key]),
                        str(node[key]),
                        node[key] == 1,
                    ]
                )
            )
        elif isinstance(key, str) and key in BY_KEY and data.draw(st.booleans()):
            node[key] = data.draw(st.sampled_from(BY_KEY[key]).map(_copy))  # another line's value for this field
        else:
            node[key] = data.draw(JUNK)
    elif op == "add":
        if isinstance(lines[i], dict):
            lines[i][data.draw(st.sampled_from(KEY_NAMES) | st.text(max_size=6))] = data.draw(JUNK)
    elif op == "drop":
        del lines[i]
    elif op == "twice":
        lines.insert(i, _copy(lines[i]))
    elif op == "move":
        lines.insert(data.draw(st.integers(0, len(lines) - 1)), lines.pop(i))
    else:
        lines[i] = data.draw(JUNK)


def _deeper(draw: st.DrawFn, text: bytes, how: str) -> bytes:
    """``text`` with what no JSON encoder writes, after a colon: a number longer than Python reads
    (4300 digits), or nesting deeper than it recurses."""
    at = text.find(b":", draw(st.integers(0, len(text) - 1))) + 1 or text.index(b":") + 1
    return text[:at] + (b"9" * 4400 if how == "digits" else b"[" * 100_000) + text[at:]


def _encode(line: Any) -> bytes:
    """A line as fairdeal writes it when it can be (canonical), else as JSON can write it."""
    try:
        return json.dumps(line, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode(
            "utf-8"
        )
    except (TypeError, ValueError, UnicodeEncodeError):  # a key of another type, a lone surrogate
        return json.dumps(line).encode("utf-8", "surrogatepass")


@st.composite
def hostile(draw: st.DrawFn) -> bytes:
    """A real record, mutated (and perhaps re-signed), as the bytes of a file."""
    data = draw(st.data())
    name = draw(st.sampled_from(sorted(RECORDS)))
    lines = _copy(RECORDS[name])
    for _ in range(draw(st.integers(1, 3))):
        _mutate(data, lines)
    if draw(st.integers(0, 3)) and lines and all(isinstance(line, dict) for line in lines):
        try:
            lines = resign(lines, SIGNER)  # the server forging: every mutation reaches the replay
        except Exception:  # noqa: BLE001 (the forger's tool, not the verifier: a header it cannot sign stays as it is)
            pass
    text = b"".join(_encode(line) + b"\n" for line in lines)
    cut = draw(st.sampled_from([None, None, None, None, "cut", "crlf", "bytes", "digits", "deep"]))
    if cut in ("digits", "deep") and b":" in text:
        text = _deeper(draw, text, cut)
    elif cut == "cut" and text:
        text = text[: draw(st.integers(0, len(text) - 1))]
    elif cut == "crlf":
        text = text.replace(b"\n", b"\r\n")
    elif cut == "bytes" and text:
        at = draw(st.integers(0, len(text) - 1))
        text = text[:at] + draw(st.binary(min_size=1, max_size=3)) + text[at + 1 :]
    return text


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("hostile")
    (d / "good.jsonl").write_text(GOOD, encoding="utf-8")
    return d


def _run(*args: Any):
    result = CliRunner().invoke(main, [str(a) for a in args])
    # An exception that escapes the command is a crash: the runner would report it as exit 1.
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code in (0, 1, 2), result.output
    assert "Traceback" not in result.stdout + result.stderr
    return result


def _check_single(result, bad: Path, as_json: bool) -> None:
    if result.exit_code == 2:
        assert result.stdout == ""
        assert result.stderr.startswith(f"fairdeal-verify: {bad}: ") and result.stderr.count("\n") == 1, result.stderr
        return
    if as_json:
        (answer,) = [json.loads(line) for line in result.stdout.splitlines()]
        assert answer["verified"] is (result.exit_code == 0)
        assert (answer["error"] is None) is answer["verified"]
    else:
        last = result.stdout.splitlines()[-1]
        assert last == "VERIFIED" if result.exit_code == 0 else last.startswith("NOT VERIFIED: line "), last


@settings(HOSTILE, max_examples=EXAMPLES)
@given(text=hostile(), mode=st.sampled_from(["text", "json", "moves"]))
def test_every_record_gets_a_verdict_or_a_reason(folder, text, mode):
    bad = folder / "bad.jsonl"
    bad.write_bytes(text)
    args = {"text": [], "json": ["--json"], "moves": ["--moves"]}[mode]
    result = _run(bad, *args)
    if mode != "moves":
        _check_single(result, bad, mode == "json")
    elif result.exit_code == 2:
        assert result.stdout == "" and result.stderr.count("\n") == 1


@settings(HOSTILE, max_examples=EXAMPLES // 3)
@given(text=hostile(), as_json=st.booleans())
def test_in_a_batch_the_record_after_a_bad_one_gets_its_verdict(folder, text, as_json):
    bad = folder / "bad.jsonl"
    bad.write_bytes(text)
    good = folder / "good.jsonl"
    result = _run(*(["--json"] if as_json else []), bad, good)
    if as_json:
        answers = [json.loads(line) for line in result.stdout.splitlines()]
        assert answers[-1]["file"] == str(good) and answers[-1]["verified"] is True
        assert len(answers) == (1 if result.exit_code == 2 else 2)
    else:
        assert f"{good}: VERIFIED" in result.stdout.splitlines()
    summary = (result.stderr if as_json else result.stdout).splitlines()[-1]
    assert summary.startswith("2 records: ")


@st.composite
def hostile_receipts(draw: st.DrawFn) -> bytes:
    """A player's receipts of the good record, mutated, as the bytes of a file."""
    data = draw(st.data())
    receipts = [_copy(r) for r in draw(st.lists(st.sampled_from(RECEIPTS), min_size=1, max_size=3))]
    for _ in range(draw(st.integers(1, 3))):
        _mutate(data, receipts)
    text = b"".join(_encode(receipt) + b"\n" for receipt in receipts)
    how = draw(st.sampled_from([None, None, None, "digits", "deep"]))
    return _deeper(draw, text, how) if how and b":" in text else text


@settings(HOSTILE, max_examples=EXAMPLES // 3)
@given(text=hostile_receipts(), mode=st.sampled_from(["text", "json", "moves"]))
@example(text=b'{"game_id":"hostile-receipts","hash":"' + b"0" * 64 + b'","seq":18446744073709551616}\n', mode="text")
@example(text=b"[" * 100_000 + b"\n", mode="json")
def test_hostile_receipts_get_a_check_or_a_reason(folder, text, mode):
    receipts = folder / "receipts.jsonl"
    receipts.write_bytes(text)
    args = {"text": [], "json": ["--json"], "moves": ["--moves"]}[mode]
    result = _run(folder / "good.jsonl", "--receipts", receipts, *args)
    if result.exit_code == 2:
        assert result.stdout == ""
        assert result.stderr.startswith(f"fairdeal-verify: {receipts}: receipts ") and result.stderr.count("\n") == 1
    elif mode == "json":
        (answer,) = [json.loads(line) for line in result.stdout.split("\n") if line]
        assert all(check["status"] in ("ok", "rewrite", "invalid", "unchecked") for check in answer["receipts"])
    else:
        last = result.stdout.split("\n")[-2]
        assert last == "VERIFIED" or last.startswith("NOT VERIFIED: "), last
