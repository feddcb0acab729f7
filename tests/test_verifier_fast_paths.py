"""The verifier's quick ways through a record read what the general ones read, byte for byte.

Reading a line, reading its time and reading a move each have a quick road for the common case
(fairdeal/verification/lines.py, fairdeal/record.py, fairdeal/verification/replay.py), taken only
when it gives the general road's answer: these tests hold the two side by side, on every line of the
golden records and of the spec's vectors, on lines and times changed a character at a time, and on
move lines changed a member at a time (fixed seeds).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from datetime import datetime
from pathlib import Path

import pytest

from fairdeal.record import at_ms
from fairdeal.record import canonical
from fairdeal.record import check_at
from fairdeal.record import line_hash
from fairdeal.record import parse_record
from fairdeal.verification.lines import _move_line
from fairdeal.verification.lines import _parse
from fairdeal.verification.lines import _read_scanned
from fairdeal.verification.lines import read_lines

ROOT = Path(__file__).resolve().parent.parent
RECORDS = sorted((ROOT / "tests" / "golden").glob("*.jsonl")) + sorted((ROOT / "spec" / "vectors").glob("*.jsonl"))
# Characters a change may bring in: JSON's own, escapes, digits, a space, non-ASCII, a control character.
ALPHABET = '{}[]:,"\\ 0123456789-+.eEtrufalsn/AZaz_é\u2028\x7f\x01'


def _lines() -> list[bytes]:
    return [raw for path in RECORDS for raw in path.read_bytes().split(b"\n") if raw]


def _general(raw: bytes) -> tuple[dict | None, str]:
    """What _parse makes of a line: its object and hash, or None and why not."""
    return _parse(raw)


def _changed(raw: bytes, rng: random.Random) -> bytes:
    text = list(raw.decode("utf-8"))
    for _ in range(rng.randint(1, 2)):
        at = rng.randrange(len(text) + 1)
        what = rng.random()
        if what < 0.4 and text:
            text[min(at, len(text) - 1)] = rng.choice(ALPHABET)
        elif what < 0.7:
            text.insert(at, rng.choice(ALPHABET))
        elif text:
            del text[min(at, len(text) - 1)]
    return "".join(text).encode("utf-8", "surrogatepass")


def test_there_are_records_to_compare():
    assert len(RECORDS) >= 4 and sum(1 for raw in _lines() if _move_line(raw.decode()) is not None) > 100


def test_a_move_line_read_quickly_is_the_line_json_reads():
    seen = 0
    for raw in _lines():
        text = raw.decode("utf-8")
        line = _move_line(text)
        if line is None:
            continue
        seen += 1
        parsed = json.loads(text)
        assert line == parsed and list(line) == list(parsed)  # the same keys, in the same order
        assert all(type(line[key]) is type(parsed[key]) for key in parsed)
        assert canonical(line) == raw


def _quick(raw: bytes) -> dict | None:
    """What read_lines makes of a line the quick way, as it does: a move line, else any other."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return _move_line(text) or _read_scanned(text)


def test_every_line_read_quickly_is_read_as_the_general_road_reads_it():
    rng = random.Random(18)
    lines = _lines()
    quick = 0
    for raw in lines + [_changed(rng.choice(lines), rng) for _ in range(20_000)]:
        line = _quick(raw)
        obj, why = _general(raw)
        if line is None:
            # Only a line the general road refuses, or a signed one, goes that way.
            assert obj is None or "sig" in obj, raw
            continue
        quick += 1
        assert obj is not None, (raw, why)
        assert line == obj and list(line) == list(obj)
        assert why == hashlib.sha256(raw).hexdigest() == line_hash(line)
    assert quick > 1_000


def test_a_changed_move_line_is_not_read_quickly_unless_it_is_still_canonical():
    rng = random.Random(5)
    moves = [raw for raw in _lines() if _move_line(raw.decode()) is not None]
    for _ in range(20_000):
        raw = _changed(rng.choice(moves), rng)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            continue
        line = _move_line(text)
        if line is not None:
            assert canonical(json.loads(text)) == raw and json.loads(text) == line


def test_read_lines_reads_every_record_as_parse_record_does():
    for path in RECORDS:
        lines, hashes, failure = read_lines(path.read_bytes())
        assert failure is None
        assert lines == parse_record(path.read_text(encoding="utf-8"))
        assert hashes == [line_hash(line) for line in lines]


_AT_FORM = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})\.([0-9]{3})Z")


def _at_by_the_pattern(at: object) -> int | None:
    """spec/record.md's ``at``, read the plain way: a pattern and a datetime."""
    match = _AT_FORM.fullmatch(at) if isinstance(at, str) else None
    if match is None:
        return None
    try:
        when = datetime(*map(int, match.groups()[:6]))
    except ValueError:
        return None
    return int((when - datetime(1970, 1, 1)).total_seconds()) * 1000 + int(match.group(7))


def test_at_ms_reads_a_time_as_the_pattern_does():
    rng = random.Random(2)
    base = "2026-01-01T00:00:00.000Z"
    alphabet = "0123456789-:T.Z 5x\u0663"  # (U+0663 is a digit, but not an ASCII one)
    cases: list[object] = [
        base,
        None,
        5,
        "",
        base + " ",
        " " + base[1:],
        "2028-02-29T23:59:59.999Z",
        "2027-02-29T12:00:00.000Z",
        "2026-01-01T24:00:00.000Z",
        "2026-01-01T00:00:60.000Z",
    ]
    for _ in range(30_000):
        text = list(base)
        for _ in range(rng.randint(1, 3)):
            text[rng.randrange(len(text))] = rng.choice(alphabet)
        cases.append("".join(text))
    for _ in range(10_000):
        cases.append(
            f"{rng.randint(1, 9999):04d}-{rng.randint(0, 13):02d}-{rng.randint(0, 32):02d}T"
            f"{rng.randint(0, 25):02d}:{rng.randint(0, 61):02d}:{rng.randint(0, 61):02d}.{rng.randint(0, 999):03d}Z"
        )
    for at in cases:
        assert at_ms(at) == _at_by_the_pattern(at), at
        if at_ms(at) is None:
            with pytest.raises(ValueError):
                check_at(at)
        else:
            assert check_at(at) == at_ms(at)


def test_every_kept_move_writes_back_the_members_it_was_read_from():
    from fairdeal.verification import verify
    from fairdeal.verification.replay import _KEPT

    for path in RECORDS:
        verify(path.read_bytes())
    assert len(_KEPT) >= 3 and sum(map(len, _KEPT.values())) > 50
    for own, kept in _KEPT.items():
        assert own[0] == "move"
        for fields, (move, written) in kept.items():
            assert move.to_json() == {m: f for m, f in zip(own, fields, strict=True) if f is not None}
            assert written == len(move.to_json())


_MOVE_CHANGES = {
    "a member as null": lambda line: line.update(suit=None),
    "a member of another move": lambda line: line.update(amount=3),
    "a member of another move as text": lambda line: line.update(then="pass"),
    "a field no move has": lambda line: line.update(note="x"),
    "the card in lower case": lambda line: line.update(card=line["card"].lower()),
    "auto as false": lambda line: line.update(auto=False),
    "auto as 1": lambda line: line.update(auto=1),
    "the seat as text": lambda line: line.update(seat=str(line["seat"])),
    "the seat as true": lambda line: line.update(seat=True),
    "the move as a list": lambda line: line.update(move=[line["move"]]),
    "no move": lambda line: line.pop("move"),
}


@pytest.mark.parametrize("change", _MOVE_CHANGES)
def test_a_move_line_found_among_the_kept_moves_fails_as_the_general_road_says(monkeypatch, change):
    """The replay finds most moves among the ones it read before and then compares the line's
    keys only by their number (fairdeal.verification.replay._KEPT): a changed move line fails
    on the same line, for the same reason, as when every move is read afresh."""
    from helpers import SIGNER
    from helpers import tamper_record
    from helpers import tampered

    from fairdeal.verification import replay
    from fairdeal.verification import verify

    lines = tamper_record("fast-paths", 3, "crazy-eights", None)
    plays = [i for i, line in enumerate(lines) if line.get("move") == "play"]
    for index in (plays[3], plays[len(plays) // 2], next(i for i in plays if "auto" in lines[i])):
        changed = tampered(lines, index, _MOVE_CHANGES[change])
        verify(lines, key=SIGNER.public_hex)  # (every move of the record kept)
        kept = verify(changed, key=SIGNER.public_hex)
        with monkeypatch.context() as m:
            m.setattr(replay, "_KEPT", {})
            m.setattr(replay, "_KEPT_MOST", 0)
            afresh = verify(changed, key=SIGNER.public_hex)
        assert kept.verified is afresh.verified is False and kept.error == afresh.error, (kept.error, afresh.error)
        assert kept.error is not None and kept.error.line <= index + 1
