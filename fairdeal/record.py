"""The game record: canonical JSON Lines, a hash chain, Ed25519 signatures, receipts.

A record is one JSON object per line. Every line has ``seq`` (0 for the
header), ``prev`` (the hash of the line before; 64 zeros for the header)
and ``type``. A line's hash is SHA-256 of its canonical encoding *without*
its ``sig`` field; a signature signs the chain head at that line::

    lp("fairdeal/v1/head") || lp(game_id) || u64(seq) || hash

so a signed line vouches for every line before it. In format 2 every line
also has ``at``, the server's time of writing (a :data:`Clock` given to the
writer), which the hash, and so the chain and the signatures, cover.
spec/record.md is the full contract.

>>> signer = Signer.generate()
>>> writer = RecordWriter(signer)
>>> header = writer.append({"type": "header", "game_id": "g1", "server_key": signer.public_hex})
>>> receipt = writer.append({"type": "move", "seat": 0, "move": "draw"}, sign=True, receipt=True)
>>> verify_head(signer.public_hex, "g1", receipt["seq"], receipt["hash"], receipt["sig"])
True
>>> check_chain(parse_record(writer.text()))
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import os
import re
import struct
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any
from typing import cast

from fairdeal.said import Said

# cryptography is imported where a key signs or a signature is checked, not here: the verify
# page runs this module in Pyodide, which has no cryptography wheel and checks Ed25519 with the
# browser's Web Crypto instead (see signature_check and KnownSignatures).
if TYPE_CHECKING:  # pragma: no cover
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

__all__ = [
    "FORMAT",
    "FORMAT_1",
    "FORMATS",
    "GENESIS",
    "Clock",
    "fixed_clock",
    "time_ms",
    "format_at",
    "check_at",
    "at_ms",
    "RecordError",
    "ChainError",
    "Signer",
    "RecordWriter",
    "canonical",
    "check_created",
    "line_hash",
    "head_message",
    "verify_head",
    "SignatureCheck",
    "ed25519_check",
    "signature_check",
    "check_signature",
    "KnownSignatures",
    "parse_record",
    "read_json_lines",
    "check_chain",
    "resign",
]

FORMAT = "fairdeal-record/2"
"""The format this version writes: every line carries the server's time of writing (``at``)
and the header the table's timing rules (spec/record.md)."""
FORMAT_1 = "fairdeal-record/1"
"""The first format (no times): still read and verified as it always was."""
FORMATS = (FORMAT_1, FORMAT)
GENESIS = "0" * 64
"""The ``prev`` of a record's first line."""

# Lines the server must sign: each hand's end, the match's end, and the reveal.
SIGNED_TYPES = frozenset({"hand-end", "match-end", "abandon", "reveal"})

CREATED_FORM = "YYYY-MM-DDTHH:MM:SSZ"
"""How a header writes ``created`` (spec/record.md): UTC, to the second, nothing else."""
# ASCII digits only: \d would take any Unicode digit.
_CREATED = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})Z")


def check_created(created: Any) -> str:
    """``created`` if it is a header's time as spec/record.md gives it: a real UTC date and
    time written ``YYYY-MM-DDTHH:MM:SSZ``; else a ``ValueError`` saying so. A date alone, an
    offset (even ``+00:00``), a fraction, a week date or a space for ``T`` is refused: one
    instant has one spelling.

    >>> check_created("2026-01-01T00:00:00Z")
    '2026-01-01T00:00:00Z'
    >>> check_created("2026-02-30T00:00:00Z")
    Traceback (most recent call last):
    ...
    ValueError: created '2026-02-30T00:00:00Z' is not a UTC date and time written YYYY-MM-DDTHH:MM:SSZ
    """
    match = _CREATED.fullmatch(created) if isinstance(created, str) else None
    if match is not None:
        year, month, day, hour, minute, second = map(int, match.groups())
        try:
            datetime(year, month, day, hour, minute, second)
        except ValueError:
            match = None
    if match is None:
        raise ValueError(
            Said(
                "created {created} is not a UTC date and time written {form}", created=repr(created), form=CREATED_FORM
            )
        )
    return match.string  # (``created`` itself: the text matched)


AT_FORM = "YYYY-MM-DDTHH:MM:SS.mmmZ"
"""How a format 2 line writes ``at`` (spec/record.md): UTC, to the millisecond, nothing else."""
_EPOCH = datetime(1970, 1, 1)

Clock = Callable[[], float]
"""Where a writer reads the time: seconds since the Unix epoch, like :func:`time.time`."""


def time_ms(seconds: float) -> int:
    """A clock's reading as whole milliseconds since the epoch, to the nearest one.

    Nearest, not down: a deadline computed as ``(at + turn) / 1000`` in floating point and read
    back by a clock that has reached it comes back as at least ``at + turn`` (spec/record.md).

    >>> time_ms(1767225600.25), time_ms(0.1 + 0.2)
    (1767225600250, 300)
    """
    return round(seconds * 1000)


def format_at(ms: int) -> str:
    """The one spelling of an instant (milliseconds since the epoch) as ``at``.

    >>> format_at(1767225600250)
    '2026-01-01T00:00:00.250Z'
    """
    whole, rest = divmod(ms, 1000)
    t = _EPOCH + timedelta(seconds=whole)
    return f"{t.year:04d}-{t.month:02d}-{t.day:02d}T{t.hour:02d}:{t.minute:02d}:{t.second:02d}.{rest:03d}Z"


def check_at(at: Any) -> int:
    """The instant a format 2 line's ``at`` names, in milliseconds since the epoch, if it is
    written as spec/record.md gives it (``YYYY-MM-DDTHH:MM:SS.mmmZ``, a real UTC date and time);
    else a ``ValueError`` saying so. One instant has one spelling: no offset, exactly three
    fraction digits, no leap second.

    >>> check_at("2026-01-01T00:00:00.250Z")
    1767225600250
    >>> check_at("2026-01-01T00:00:00.25Z")
    Traceback (most recent call last):
    ...
    ValueError: at '2026-01-01T00:00:00.25Z' is not a UTC date and time written YYYY-MM-DDTHH:MM:SS.mmmZ
    """
    ms = at_ms(at)
    if ms is None:
        raise ValueError(Said("at {at} is not a UTC date and time written {form}", at=repr(at), form=AT_FORM))
    return ms


def at_ms(at: Any) -> int | None:
    """:func:`check_at` without the error: the instant in milliseconds, or ``None`` when ``at`` is
    not written as spec/record.md gives it (a verifier reads every line's time with it).

    >>> at_ms("2026-01-01T00:00:59.999Z"), at_ms("2026-01-01T00:00:60.000Z"), at_ms(None)
    (1767225659999, None, None)
    """
    # Read as its three parts, each looked up among its spellings: the minute (checked once a
    # minute), then ":SS" and ".mmmZ", whose every well-formed spelling is in a table. Only
    # ASCII digits are digits, and 24 characters leave no room for anything else.
    if not isinstance(at, str) or len(at) != 24:
        return None
    minute = _minute_ms(at[:16])
    second = _SECOND_MS.get(at[16:19])
    milli = _MILLI.get(at[19:])
    if minute is None or second is None or milli is None:
        return None
    return minute + second + milli


_SECOND_MS = {f":{s:02d}": s * 1000 for s in range(60)}
"""``at``'s seconds, ``:00`` to ``:59`` (no leap second), in milliseconds."""
_MILLI = {f".{ms:03d}Z": ms for ms in range(1000)}
"""``at``'s milliseconds and the ``Z`` that ends it, ``.000Z`` to ``.999Z``."""
_MINUTE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2})")


@functools.lru_cache(maxsize=1024)
def _minute_ms(minute: str) -> int | None:
    """The instant ``YYYY-MM-DDTHH:MM`` names, in milliseconds since the epoch; ``None`` when it
    is not written so (ASCII digits) or is no real date and time. A record's lines fall in few
    minutes, so :func:`at_ms` asks this once a minute, not once a line.

    >>> _minute_ms("2026-01-01T00:01"), _minute_ms("2026-02-30T00:00"), _minute_ms("2026-01-01 00:00")
    (1767225660000, None, None)
    """
    match = _MINUTE.fullmatch(minute)
    if match is None:
        return None
    year, month, day, hour, minute_of_hour = map(int, match.groups())
    try:
        when = datetime(year, month, day, hour, minute_of_hour)
    except ValueError:
        return None
    return (when - _EPOCH) // timedelta(seconds=1) * 1000


def fixed_clock(created: str, step_ms: int = 0) -> Clock:
    """A deterministic clock for reproducible records (tests, seeded simulations): it reads
    ``created`` first, then ``step_ms`` later at every reading.

    >>> clock = fixed_clock("2026-01-01T00:00:00Z", 250)
    >>> [format_at(time_ms(clock())) for _ in range(2)]
    ['2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.250Z']
    """
    start = check_at(check_created(created)[:-1] + ".000Z")
    readings = itertools.count(start, step_ms)
    return lambda: next(readings) / 1000


class RecordError(ValueError):
    """A file that is not a fairdeal record at all (not JSON Lines, no header)."""


@dataclass
class ChainError(ValueError):
    """The first line whose place in the chain does not hold (1-based ``line``)."""

    line: int
    reason: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.reason}"


def canonical(obj: Any) -> bytes:
    """The one encoding of a line: UTF-8 JSON, keys sorted, no spaces, no floats.

    >>> canonical({"b": 1, "a": "é"})
    b'{"a":"\\xc3\\xa9","b":1}'
    """
    return _CANONICAL(obj).encode()


# One encoder for every line: json.dumps with options builds a new one on every call.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode


def line_hash(line: dict[str, Any]) -> str:
    """SHA-256 of the line's canonical encoding without its ``sig``, hex."""
    if "sig" in line:
        line = {k: v for k, v in line.items() if k != "sig"}
    return hashlib.sha256(canonical(line)).hexdigest()


def _lp(text: str) -> bytes:
    data = text.encode()
    return struct.pack(">I", len(data)) + data


def head_message(game_id: str, seq: int, hash_hex: str) -> bytes:
    """What a signature signs: the chain head ``hash_hex`` at line ``seq`` of game ``game_id``."""
    return _lp("fairdeal/v1/head") + _lp(game_id) + struct.pack(">Q", seq) + bytes.fromhex(hash_hex)


SignatureCheck = Callable[[bytes, bytes, bytes], bool]
"""A signature checker: ``check(public_key, message, signature)`` is whether ``signature``
(64 bytes) is the Ed25519 signature of ``message`` by ``public_key`` (32 raw bytes)."""


def ed25519_check(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """The default :data:`SignatureCheck`: Ed25519 as the ``cryptography`` package (OpenSSL) checks it.

    A signature libsodium accepts is taken at once: libsodium checks the same equation on the
    same bytes as OpenSSL (``S < L``, then ``[S]B - [h]A`` encoded equal to ``R``) and refuses
    more (a key or an ``R`` of small order, an encoding that is not canonical), so what it
    accepts OpenSSL accepts too, and it does so in half the time (a verifier checks several
    signatures a record). Anything it refuses is OpenSSL's to judge: the verdict is always OpenSSL's.

    >>> signer = Signer.from_seed(bytes(32))
    >>> sig = bytes.fromhex(signer.sign_head("g1", 0, "00" * 32))
    >>> ed25519_check(bytes.fromhex(signer.public_hex), head_message("g1", 0, "00" * 32), sig)
    True
    >>> ed25519_check(bytes.fromhex(signer.public_hex), head_message("g1", 1, "00" * 32), sig)
    False
    """
    if _sodium_accepts(public_key, message, signature):
        return True
    return _openssl_ed25519_check(public_key, message, signature)


def _openssl_ed25519_check(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """:func:`ed25519_check`'s verdict, from the ``cryptography`` package alone."""
    from cryptography.exceptions import InvalidSignature

    try:
        # (Only bytes are kept: whatever else from_public_bytes takes or refuses, it is asked.)
        key = _public_key(public_key) if type(public_key) is bytes else _public_key.__wrapped__(public_key)
        key.verify(signature, message)
    except (InvalidSignature, ValueError, TypeError):
        return False
    return True


def _sodium_accepts(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """Whether libsodium (PyNaCl) accepts the signature; ``False`` for anything it refuses or
    cannot take, and where PyNaCl is not installed (Pyodide: the verify page checks with Web Crypto)."""
    sodium = _sodium()
    if sodium is None or not (type(public_key) is type(message) is type(signature) is bytes):
        return False
    if len(signature) != 64:  # (crypto_sign_open takes the first 64 bytes it is given as the signature)
        return False
    sign_open, refused = sodium
    try:
        sign_open(signature + message, public_key)
    except refused:  # (a bad signature, or a key of the wrong size)
        return False
    return True


@functools.cache
def _sodium() -> tuple[Callable[[bytes, bytes], bytes], tuple[type[Exception], ...]] | None:
    """PyNaCl's ``crypto_sign_open`` and the errors it refuses with, or ``None`` where it cannot be imported."""
    try:
        from nacl.bindings import crypto_sign_open
        from nacl.exceptions import CryptoError
    except ImportError:  # pragma: no cover - a dependency; Pyodide checks signatures elsewhere
        return None
    return crypto_sign_open, (CryptoError, ValueError, TypeError)


@functools.lru_cache(maxsize=64)
def _public_key(raw: bytes) -> Any:
    """The key object of a raw Ed25519 public key, made once: a record's signatures are all
    checked with its one server key. ValueError when it is no key (not kept)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    return Ed25519PublicKey.from_public_bytes(raw)


_CHECK: ContextVar[SignatureCheck] = ContextVar("fairdeal_signature_check", default=ed25519_check)


@contextmanager
def signature_check(check: SignatureCheck) -> Iterator[SignatureCheck]:
    """Check every signature with ``check`` inside the ``with`` block (every check of this
    module and of the verifier goes through :func:`check_signature`).

    >>> with signature_check(lambda key, message, sig: True):
    ...     check_signature("00" * 32, b"anything", "00" * 64)
    True
    >>> check_signature("00" * 32, b"anything", "00" * 64)
    False
    """
    token = _CHECK.set(check)
    try:
        yield check
    finally:
        _CHECK.reset(token)


def _public_bytes(public_hex: Any) -> bytes:
    """The raw key of a public key written in hex; ValueError or TypeError when it is not one."""
    key = bytes.fromhex(public_hex)
    if len(key) != 32:
        raise ValueError("an Ed25519 public key is 32 bytes")
    return key


def check_signature(public_hex: Any, message: bytes, sig_hex: Any) -> bool:
    """Whether ``sig_hex`` signs ``message`` under ``public_hex``, by the current checker
    (:func:`signature_check`); False for a key or signature that is not even hex."""
    try:
        key, sig = _public_bytes(public_hex), bytes.fromhex(sig_hex)
    except (ValueError, TypeError):
        return False
    return _CHECK.get()(key, message, sig)


class KnownSignatures:
    """A :data:`SignatureCheck` that answers from a table of results checked elsewhere (the
    verify page checks Ed25519 with the browser's Web Crypto, which Python in the page cannot
    call synchronously). A triple it was not given counts as not valid and is noted in
    :attr:`missing`, so the caller can check those too and run again.

    >>> known = KnownSignatures({("aa" * 32, "6d", "bb" * 64): True})
    >>> with signature_check(known):
    ...     check_signature("aa" * 32, b"m", "bb" * 64), check_signature("aa" * 32, b"n", "bb" * 64)
    (True, False)
    >>> known.missing
    [('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', '6e', 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb')]
    """

    def __init__(self, results: dict[tuple[str, str, str], bool] | None = None) -> None:
        self.results = dict(results or {})
        self.missing: list[tuple[str, str, str]] = []

    def __call__(self, public_key: bytes, message: bytes, signature: bytes) -> bool:
        triple = (public_key.hex(), message.hex(), signature.hex())
        if triple in self.results:
            return self.results[triple]
        if triple not in self.missing:
            self.missing.append(triple)
        return False


def verify_head(public_hex: str, game_id: str, seq: int, hash_hex: str, sig_hex: str) -> bool:
    """Whether ``sig_hex`` is the server's signature of that chain head."""
    try:
        message = head_message(game_id, seq, hash_hex)
    except (ValueError, TypeError):
        return False
    return check_signature(public_hex, message, sig_hex)


class Signer:
    """The server's Ed25519 signing key.

    >>> signer = Signer.generate()
    >>> len(signer.public_hex)
    64
    """

    def __init__(self, private_key: Ed25519PrivateKey) -> None:
        from cryptography.hazmat.primitives import serialization

        self._key = private_key
        self.public_hex = (
            private_key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()
        )

    def __repr__(self) -> str:
        return f"<Signer {self.public_hex[:16]}...>"

    @classmethod
    def generate(cls) -> Signer:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_seed(cls, seed: bytes) -> Signer:
        """A key from 32 fixed bytes: for reproducible simulations and tests only."""
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        return cls(Ed25519PrivateKey.from_private_bytes(seed))

    @classmethod
    def load_or_create(cls, path: str | os.PathLike[str]) -> Signer:
        """The key kept at ``path`` (PEM, PKCS#8), created there (mode 0600) on first use."""
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        path = Path(path)
        if path.exists():
            key = serialization.load_pem_private_key(path.read_bytes(), password=None)
            if not isinstance(key, Ed25519PrivateKey):
                raise RecordError(f"{path} does not hold an Ed25519 private key")
            return cls(key)
        signer = cls.generate()
        pem = signer._key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(pem)
        os.replace(tmp, path)
        return signer

    def sign_head(self, game_id: str, seq: int, hash_hex: str) -> str:
        return self._key.sign(head_message(game_id, seq, hash_hex)).hex()

    def sign(self, message: bytes) -> bytes:
        """The 64-byte signature of ``message``: for the log's checkpoints (fairdeal/tlog.py),
        whose text never starts with the zero byte every :func:`head_message` starts with."""
        return self._key.sign(message)


class RecordWriter:
    """Builds a record line by line: numbers and chains each event, signs where asked.

    The first event appended must be the header (it names the game id the
    signatures are bound to). With a ``clock`` (format 2) every line gets ``at``, the time
    of writing, never before the line before's (a wall clock set back does not make a
    record's times go backwards) nor before :attr:`not_before_ms`; an event that brings its
    own ``at`` keeps it (:func:`resign`). Without one, lines get no time (format 1).

    A writer keeps every line it wrote (:attr:`lines`, :meth:`text`) until
    :meth:`forget` is called: a server that has stored them keeps only what
    the next line needs (its number, the chain's head, the last line's time).
    """

    def __init__(self, signer: Signer, lines: Sequence[dict[str, Any]] = (), *, clock: Clock | None = None) -> None:
        self.signer = signer
        self.clock = clock
        self.lines: list[dict[str, Any]] = list(lines)
        """The lines kept: every line, unless :meth:`forget` dropped those before :attr:`forgotten`."""
        self.forgotten = 0
        """How many lines at the record's start :meth:`forget` dropped: ``lines[0]`` is line ``forgotten``."""
        self.game_id: str | None = self.lines[0]["game_id"] if self.lines else None
        self.head = line_hash(self.lines[-1]) if self.lines else GENESIS
        self.not_before_ms = 0
        """The earliest time the next lines may get (the service's timer sets it to the deadline it acts on)."""

    @property
    def seq(self) -> int:
        """The sequence number the next line will get (the record's length)."""
        return self.forgotten + len(self.lines)

    @property
    def last_ms(self) -> int | None:
        """The ``at`` of the last line, in milliseconds since the epoch (``None``: no line has one)."""
        at = self.lines[-1].get("at") if self.lines else None
        return None if at is None else check_at(at)

    def now_ms(self) -> int:
        """The time the next line would get (the clock's, never before the last line's)."""
        if self.clock is None:
            raise RecordError("this writer has no clock (a format 1 record)")
        return max(time_ms(self.clock()), self.last_ms or 0, self.not_before_ms)

    def append(self, event: dict[str, Any], *, sign: bool | None = None, receipt: bool = False) -> dict[str, Any]:
        """Append ``event`` as the next line; returns the line, or its receipt when ``receipt``.

        ``sign=None`` signs exactly the line types the format requires signed.
        """
        seq = self.seq
        if seq == 0:
            if event.get("type") != "header":
                raise RecordError("a record starts with its header")
            self.game_id = event["game_id"]
        line = {**event, "seq": seq, "prev": self.head}
        if self.clock is not None and "at" not in line:
            line["at"] = format_at(self.now_ms())
        digest = line_hash(line)
        if sign is None:
            sign = line["type"] in SIGNED_TYPES
        sig = None
        if sign or receipt:
            # (The header's game id, from line 0, not tested here: one that is no text fails in head_message.)
            sig = self.signer.sign_head(cast(str, self.game_id), seq, digest)
        if sign:
            line["sig"] = sig
        self.lines.append(line)
        self.head = digest
        if receipt:
            answer = {"game_id": self.game_id, "seq": seq, "hash": digest, "sig": sig}
            if "at" in line:
                answer["at"] = line["at"]  # a copy: the hash covers the line's own
            return answer
        return line

    def extend(self, events: Iterable[dict[str, Any]]) -> None:
        for event in events:
            self.append(event)

    def replayed(self, line: dict[str, Any]) -> None:
        """Take a stored line as the next one, as it is (a record rebuilt from storage)."""
        if self.seq == 0:
            self.game_id = line["game_id"]
        self.lines.append(line)
        self.head = line_hash(line)

    def since(self, seq: int) -> list[dict[str, Any]]:
        """The lines from number ``seq`` on (those an action added, to be stored).

        >>> writer = RecordWriter(Signer.generate())
        >>> writer.extend([{"type": "header", "game_id": "g1"}, {"type": "note"}, {"type": "note"}])
        >>> [line["seq"] for line in writer.since(1)], writer.forget(), [line["seq"] for line in writer.since(2)]
        ([1, 2], 2, [2])
        """
        if seq < self.forgotten:
            raise RecordError(f"lines before {self.forgotten} are forgotten: read them from where they are stored")
        return self.lines[seq - self.forgotten :]

    def forget(self) -> int:
        """Drop every line but the last (they are stored: the caller keeps the record, not this
        writer); returns how many were dropped. The next lines are numbered, chained and timed
        as before: they need only the last line's number, hash and time. :meth:`text` and
        :meth:`since` an earlier line refuse from then on.

        >>> writer = RecordWriter(Signer.generate())
        >>> writer.extend([{"type": "header", "game_id": "g1"}, {"type": "note"}, {"type": "note"}])
        >>> head = writer.head
        >>> writer.forget(), writer.forgotten, writer.seq, len(writer.lines)
        (2, 2, 3, 1)
        >>> line = writer.append({"type": "note"})
        >>> line["seq"], line["prev"] == head
        (3, True)
        """
        dropped = max(0, len(self.lines) - 1)
        if dropped:
            del self.lines[:dropped]
            self.forgotten += dropped
        return dropped

    def text(self) -> str:
        """The record as JSON Lines, each line canonical, ending with a newline."""
        if self.forgotten:
            raise RecordError(f"lines before {self.forgotten} are forgotten: read the record from where it is stored")
        return "".join(canonical(line).decode() + "\n" for line in self.lines)


def parse_record(text: str | bytes) -> list[dict[str, Any]]:
    """The lines of a record; :class:`RecordError` when it is not JSON Lines of objects."""
    lines = read_json_lines(text)
    if not lines:
        raise RecordError("empty file")
    return lines


def read_json_lines(text: str | bytes, what: str = "") -> list[dict[str, Any]]:
    """JSON objects, one a line (blank lines skipped): a record's lines, or a player's receipts.

    :class:`RecordError` when that is not what ``text`` is; its reason starts with ``what``
    (``"receipts"``) when it is given.

    >>> read_json_lines('{"seq": 0}\\n\\n{"seq": 1}\\n')
    [{'seq': 0}, {'seq': 1}]
    >>> read_json_lines(b'{"seq": 0}\\n[1]\\n', "receipts")
    Traceback (most recent call last):
    ...
    fairdeal.record.RecordError: receipts line 2: not a JSON object
    """
    where = f"{what} " if what else ""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            subject = f"{what} are not" if what else "not"
            raise RecordError(f"{subject} UTF-8 text (byte {exc.start})") from None
    lines = []
    # Not splitlines(): it also splits at U+2028, U+0085 and others that canonical JSON leaves unescaped.
    for number, raw in enumerate(text.split("\n"), 1):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
        except (ValueError, RecursionError) as exc:  # a JSONDecodeError, a number too long to read, too deep
            raise RecordError(f"{where}line {number}: not JSON ({getattr(exc, 'msg', exc)})") from None
        if not isinstance(line, dict):
            raise RecordError(f"{where}line {number}: not a JSON object")
        lines.append(line)
    return lines


def check_chain(
    lines: Sequence[dict[str, Any]], public_hex: str | None = None, *, hashes: Sequence[str] | None = None
) -> None:
    """Check numbering, the hash chain, and every signature; raise :class:`ChainError` at the first fault.

    ``public_hex`` defaults to the header's ``server_key``. Lines the format
    requires signed, and the last line, must carry a valid ``sig``.
    ``hashes``, when given, are the lines' :func:`line_hash` values already
    computed by the caller (a verifier that encodes each line once anyway).
    """
    if not lines or lines[0].get("type") != "header":
        raise ChainError(1, Said("the first line is not a header"))
    game_id = lines[0].get("game_id")
    if not isinstance(game_id, str):
        raise ChainError(1, Said("the header has no game id"))
    key_hex = public_hex if public_hex is not None else lines[0].get("server_key")
    try:
        _public_bytes(key_hex)
    except (ValueError, TypeError):
        raise ChainError(1, Said("the header's server_key is not an Ed25519 public key")) from None
    head = GENESIS
    last = len(lines) - 1
    indices: Iterable[int] = range(len(lines))
    if hashes is not None and len(hashes) == len(lines):
        seqs = [line.get("seq") for line in lines]
        if (
            seqs == list(indices)
            and set(map(type, seqs)) <= _INT_ONLY
            and [line.get("prev") for line in lines] == [GENESIS, *hashes[:-1]]
        ):
            # Every number and every link holds (seen at once): the loop below has only the
            # signatures left to check, on the lines that have one or must (in order, as ever).
            indices = [
                i
                for i, line in enumerate(lines)
                if "sig" in line or (type(kind := line.get("type")) is str and kind in SIGNED_TYPES)
            ]
            if not indices or indices[-1] != last:
                indices.append(last)
    for i in indices:
        line = lines[i]
        if i and hashes is not None:
            head = hashes[i - 1]
        seq = line.get("seq")
        if seq != i or type(seq) is not int:  # true == 1 in Python, not in JSON
            raise ChainError(i + 1, Said("sequence number {seq}, expected {i}", seq=repr(seq), i=i))
        if line.get("prev") != head:
            raise ChainError(i + 1, Said("prev does not match the hash of the line before"))
        digest = line_hash(line) if hashes is None else hashes[i]
        sig = line.get("sig")
        if "sig" in line:  # "sig": null is not a signature
            if not check_signature(key_hex, head_message(game_id, i, digest), sig):
                raise ChainError(i + 1, Said("bad signature"))
        elif i == last or (
            type(kind := line.get("type")) is str and kind in SIGNED_TYPES
        ):  # (any JSON: a list is unhashable)
            if i == last:
                raise ChainError(i + 1, Said("the last line is not signed"))
            raise ChainError(i + 1, Said("a {kind} line is not signed", kind=str(line.get("type"))))
        head = digest


_INT_ONLY = frozenset({int})


def resign(lines: Sequence[dict[str, Any]], signer: Signer) -> list[dict[str, Any]]:
    """Re-chain and re-sign ``lines`` as ``signer``, changing nothing else.

    For auditors and tests: it builds records that are correctly chained and
    signed but whose content may break the rules, to show that the verifier
    catches the content too. The header's ``server_key`` becomes ``signer``'s.
    """
    writer = RecordWriter(signer)
    for i, line in enumerate(lines):
        event = {k: v for k, v in line.items() if k not in ("seq", "prev", "sig")}
        if i == 0:
            event["server_key"] = signer.public_hex
        writer.append(event, sign=("sig" in line) or None)
    return writer.lines
