"""A record's text read into its lines, strictly (spec/record.md, section 1): each line one
canonical JSON object, integers only, no duplicate member; what cannot be read is a :class:`Failure`
at its line, and the lines before it are still checked. :mod:`fairdeal.verification.replay` replays
what this reads."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

from fairdeal.record import RecordError
from fairdeal.record import canonical
from fairdeal.said import Said


@dataclass(frozen=True, slots=True)
class Failure:
    """Why a record does not verify: the first line that fails (1-based) and the reason."""

    line: int
    reason: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.reason}"

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "reason": self.reason}


class _NotInteger(ValueError):
    pass


def _refuse_number(text: str) -> Any:
    raise _NotInteger(text)


# fairdeal records hold integers only: a float (or NaN) is refused while parsing.
_decoder = json.JSONDecoder(parse_float=_refuse_number, parse_constant=_refuse_number)
_decode = _decoder.decode
# decode's own scanner, without decode's whitespace skipping around it: a canonical line has
# none, and any other line is read again by decode, which says what is wrong with it.
_scan = _decoder.scan_once  # type: ignore[attr-defined]  # (JSONDecoder.__init__ sets it; typeshed omits it)


_UNREAD = object()

try:
    # (The C accelerators, which typeshed leaves out of json.encoder.)
    from json.encoder import c_encode_basestring  # type: ignore[attr-defined]
    from json.encoder import c_make_encoder  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - CPython and Pyodide have _json; a build without it reads slower
    c_make_encoder = None
if c_make_encoder is not None:
    # canonical()'s encoding as text, from the C encoder itself: JSONEncoder.encode makes one on
    # every call, with a table of the containers it is in (against cycles, which a parsed line
    # cannot have). The same options as fairdeal.record's: keys sorted, no spaces, no ASCII
    # escapes, no NaN (a parsed line holds no float at all).
    _encode_parsed = c_make_encoder(
        None, json.JSONEncoder().default, c_encode_basestring, None, ":", ",", True, False, False
    )

    def _canonical_text(obj: dict[str, Any]) -> str:
        return "".join(_encode_parsed(obj, 0))
else:  # pragma: no cover

    def _canonical_text(obj: dict[str, Any]) -> str:
        return canonical(obj).decode()


def _parse(raw: bytes) -> tuple[dict[str, Any] | None, str]:
    """One line's object and its hash, or ``None`` and why it cannot be read."""
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    if not raw or raw.isspace():
        return None, Said("an empty line (a record has one JSON object on every line)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, Said("not UTF-8 text (byte {n} of the line)", n=exc.start + 1)
    try:
        obj, end = _scan(text, 0)
        if end != len(text):
            raise ValueError(end)
    except (ValueError, StopIteration, RecursionError):  # (_NotInteger and JSONDecodeError are ValueErrors)
        obj = _UNREAD
    try:
        if obj is _UNREAD:
            obj = _decode(text)
    except _NotInteger as exc:
        return None, Said("the number {number} is not an integer (records hold integers only)", number=str(exc))
    except json.JSONDecodeError as exc:
        # (The JSON decoder's own words, in English: a detail for whoever reads the line.)
        return None, Said(
            "not a complete JSON object ({detail} at column {column}; a truncated record?)",
            detail=exc.msg,
            column=exc.colno,
        )
    except RecursionError:
        return None, Said("not a record line (nested too deeply)")
    except ValueError:  # Python reads no integer of more than 4300 digits (sys.get_int_max_str_digits)
        return None, Said("a number too long to read (records hold small integers)")
    if not isinstance(obj, dict):
        return None, Said("not a JSON object")
    try:
        encoded = _canonical_text(obj).encode()
    except (UnicodeEncodeError, ValueError):
        return None, Said("a string that is not valid Unicode text")
    if encoded != raw:
        # The hash is of the canonical encoding; a line in any other form (spaces, key
        # order, escapes, a key twice) could be read differently by another verifier.
        return None, Said("not in canonical form (keys sorted, no spaces, UTF-8; spec/record.md)")
    if "sig" in obj:  # line_hash's: the canonical encoding without "sig" (it encodes, as above)
        return obj, hashlib.sha256(_canonical_text({k: v for k, v in obj.items() if k != "sig"}).encode()).hexdigest()
    # The line hash is of the canonical encoding without "sig": here, the line's own bytes.
    return obj, hashlib.sha256(raw).hexdigest()


# A move line as canonical JSON writes it, most of a record: its keys in sorted order, each once,
# no spaces, whole numbers as Python writes them (up to 16 digits), and text of printable ASCII
# other than the double quote and the backslash: the characters JSON writes as they are, no escape.
_TEXT = r'"([ !#-\[\]-~]*)"'
_WHOLE = r"(0|-?[1-9][0-9]{0,15})"
_MOVE_LINE = re.compile(
    rf'\{{(?:"at":{_TEXT},)?(?:"auto":(true),)?(?:"card":{_TEXT},)?"move":{_TEXT},"prev":{_TEXT},'
    rf'"seat":{_WHOLE},"seq":{_WHOLE},(?:"suit":{_TEXT},)?"type":"move"\}}'
).fullmatch


_WHOLES = {str(n): n for n in range(2048)}
"""The numbers of most records' seats and lines, by their text: a look-up is a quarter of ``int``'s time."""


def _move_line(text: str) -> dict[str, Any] | None:
    """The object of a move line in the one form :data:`_MOVE_LINE` matches, or ``None``.

    For such a line, ``json.loads`` gives this very object (the same keys in the same order,
    the same values), and :func:`~fairdeal.record.canonical` of it is the line again: what
    :func:`_parse` checks with a JSON decoder and encoder, the pattern checks at once.

    >>> _move_line('{"card":"9C","move":"play","prev":"00","seat":1,"seq":9,"type":"move"}')
    {'card': '9C', 'move': 'play', 'prev': '00', 'seat': 1, 'seq': 9, 'type': 'move'}
    >>> _move_line('{"move":"play","card":"9C","prev":"00","seat":1,"seq":9,"type":"move"}') is None
    True
    """
    match = _MOVE_LINE(text)
    if match is None:
        return None
    at, auto, card, move, prev, seat, seq, suit = match.groups()
    line: dict[str, Any] = {}
    if at is not None:
        line["at"] = at
    if auto is not None:
        line["auto"] = True
    if card is not None:
        line["card"] = card
    line["move"] = move
    line["prev"] = prev
    line["seat"] = _WHOLES[seat] if seat in _WHOLES else int(seat)
    line["seq"] = _WHOLES[seq] if seq in _WHOLES else int(seq)
    if suit is not None:
        line["suit"] = suit
    line["type"] = "move"
    return line


def _read_scanned(text: str) -> dict[str, Any] | None:
    """The object of a canonical line without ``sig`` that is no move line :data:`_MOVE_LINE`
    reads (:func:`read_lines` tries that first), read the quick way; ``None`` for any other line,
    or one that fails on the way: :func:`_parse` reads it again, checks the same, and says what
    is wrong with it.

    (Text decoded from UTF-8 holds no lone surrogate, so its canonical text equal to the line's
    text is its canonical encoding equal to the line's bytes.)
    """
    try:
        obj, end = _scan(text, 0)
        if end == len(text) and type(obj) is dict and "sig" not in obj and _canonical_text(obj) == text:
            return obj
    except (ValueError, StopIteration, RecursionError):  # (_NotInteger and JSONDecodeError are ValueErrors)
        pass
    return None


def read_lines(data: str | bytes) -> tuple[list[dict[str, Any]], list[str], Failure | None]:
    """The record's lines up to the first one that cannot be read, their hashes, and that failure.

    Raises :class:`~fairdeal.record.RecordError` when the data is not a
    fairdeal record at all: empty, or its first line is not a JSON header.

    >>> lines, hashes, failure = read_lines(b'{"seq":0,"type":"header"}\\n{"seq":1,"type":"x"')
    >>> len(lines), str(failure)
    (1, "line 2: not a complete JSON object (Expecting ',' delimiter at column 20; a truncated record?)")
    >>> read_lines(b'{"hello": "world"}\\n')
    Traceback (most recent call last):
    ...
    fairdeal.record.RecordError: not a fairdeal record: the first line is not a record header
    """
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    raws = data.split(b"\n")
    if raws and raws[-1] == b"":
        raws.pop()  # the newline that ends the last line
    if not raws:
        raise RecordError(Said("not a fairdeal record: the file is empty"))
    lines: list[dict[str, Any]] = []
    hashes: list[str] = []
    sha256, move_line = hashlib.sha256, _move_line
    for number, raw in enumerate(raws, 1):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            obj = None  # (_parse says where)
        else:
            obj = move_line(text)  # most lines; then any other unsigned canonical line
            if obj is None:
                obj = _read_scanned(text)
        if obj is not None:
            # The line hash is of the canonical encoding without "sig": here, the line's own bytes.
            why = sha256(raw).hexdigest()
        else:
            obj, why = _parse(raw)  # why: the reason it cannot be read, else its hash
        if number == 1 and (obj is None or obj.get("type") != "header"):
            # The first line decides whether this is a record at all.
            try:
                first = json.loads(raw)
            except (ValueError, RecursionError):
                raise RecordError(Said("not a fairdeal record: the first line is not JSON")) from None
            if not isinstance(first, dict) or first.get("type") != "header":
                raise RecordError(Said("not a fairdeal record: the first line is not a record header")) from None
        if obj is None:
            return lines, hashes, Failure(number, why)
        lines.append(obj)
        hashes.append(why)
    return lines, hashes, None


__all__ = ["Failure", "read_lines"]
