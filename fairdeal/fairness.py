"""Fairness protocol v1: commitments, the game key, and deterministic shuffles.

Every hidden card of a game follows from one secret *server seed*, fixed
and committed to before any player adds a *client seed*. The functions
here are the whole protocol (spec/fairness.md); :class:`SeedPhase` is the
commit-reveal sequence of the client seeds (run by the server, read back by
the verifier), and :class:`Dealer` wraps it with the server seed and the key.

>>> from fairdeal.cards import pack
>>> seed = "00" * 32
>>> commitment(seed)
'66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925'
>>> key = game_key(seed, "demo", ["alice", ""])
>>> [c.code for c in shuffle(key, "hand/1/deal", pack())[:5]]
['7H', 'JD', '5S', '6C', '5C']
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import struct
from collections.abc import Mapping
from collections.abc import Sequence
from operator import lt as _lt
from operator import mod as _mod
from typing import Any
from typing import TypeVar

from fairdeal.said import Said

__all__ = [
    "PROTOCOL",
    "FairnessError",
    "new_server_seed",
    "parse_server_seed",
    "commitment",
    "client_commitment",
    "check_client_seed",
    "check_game_id",
    "check_label",
    "game_key",
    "label_key",
    "Stream",
    "shuffle",
    "stream_bytes",
    "GameShuffle",
    "rule_commitment",
    "check_nonce",
    "Dealer",
    "SEED_LINES",
    "SeedError",
    "SeedPhase",
    "MAX_CLIENT_SEED_BYTES",
    "MAX_GAME_ID_BYTES",
]

PROTOCOL = "fairdeal/v1"
MAX_CLIENT_SEED_BYTES = 128
MAX_GAME_ID_BYTES = 128
MAX_LABEL_CHARS = 64

_LABEL = re.compile(r"[a-z0-9/_-]{1,64}")
_HEX64 = re.compile(r"[0-9a-f]{64}")

T = TypeVar("T")


class FairnessError(ValueError):
    """Input the protocol refuses: bad hex, a seed of the wrong length, a bad label,
    an oversized client seed, or a commit-reveal step out of order."""


def _lp(value: str | bytes) -> bytes:
    """``u32(len(b)) || b``: a length-prefixed field (strings as UTF-8)."""
    data = value.encode("utf-8") if isinstance(value, str) else value
    return struct.pack(">I", len(data)) + data


def new_server_seed() -> str:
    """32 bytes from the operating system's CSPRNG, as 64 lowercase hex digits."""
    return secrets.token_bytes(32).hex()


def parse_server_seed(server_seed: str) -> bytes:
    """The 32 seed bytes of a server seed written as 64 hex digits.

    Upper-case hex is accepted; anything else is a :class:`FairnessError`
    whose message never repeats the input (it may be a real seed).
    """
    if not isinstance(server_seed, str):
        raise FairnessError("the server seed must be a string of 64 hex digits")
    text = server_seed.strip().lower()
    if len(text) != 64:
        raise FairnessError(f"the server seed must be 64 hex digits (32 bytes), not {len(text)} characters")
    if not _HEX64.fullmatch(text):
        raise FairnessError("the server seed must be hex digits 0-9a-f only")
    return bytes.fromhex(text)


def commitment(server_seed: str) -> str:
    """The fingerprint published at the start: SHA-256 of the 32 seed bytes, hex."""
    return hashlib.sha256(parse_server_seed(server_seed)).hexdigest()


def check_client_seed(client_seed: object) -> str:
    """Return ``client_seed`` if it is a string of at most 128 UTF-8 bytes."""
    if not isinstance(client_seed, str):
        raise FairnessError("a client seed must be a string")
    _check_size(client_seed, "a client seed", MAX_CLIENT_SEED_BYTES)
    return client_seed


def _check_size(text: str, what: str, most: int) -> None:
    """:class:`FairnessError` naming ``what`` unless ``text`` is Unicode text of at most ``most`` UTF-8 bytes."""
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:
        raise FairnessError(f"{what} must be valid Unicode text") from None
    if size > most:
        raise FairnessError(f"{what} is at most {most} UTF-8 bytes, this one is {size}")


def client_commitment(client_seed: str) -> str:
    """A seat's commitment to its client seed: ``SHA-256(lp("fairdeal/v1/client") || lp(seed))``.

    >>> client_commitment("")[:16]
    'f642a15a5654ffb2'
    """
    check_client_seed(client_seed)
    return hashlib.sha256(_lp("fairdeal/v1/client") + _lp(client_seed)).hexdigest()


def check_game_id(game_id: object) -> str:
    """Return ``game_id`` if it is 1 to 128 UTF-8 bytes with no control characters."""
    if not isinstance(game_id, str) or not game_id:
        raise FairnessError("a game id must be a non-empty string")
    _check_size(game_id, "a game id", MAX_GAME_ID_BYTES)
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in game_id):
        raise FairnessError("a game id must not contain control characters")
    return game_id


def check_label(label: object) -> str:
    """Return ``label`` if it is 1 to 64 characters of ``[a-z0-9/_-]``.

    >>> check_label("hand/3/restock/1")
    'hand/3/restock/1'
    """
    if not isinstance(label, str) or not _LABEL.fullmatch(label):
        shown = label if isinstance(label, str) and len(label) <= 80 else f"{str(label)[:80]}..."
        raise FairnessError(f"a label is 1 to {MAX_LABEL_CHARS} characters of a-z 0-9 / _ -, not {shown!r}")
    return label


def game_key(server_seed: str, game_id: str, client_seeds: Sequence[str]) -> bytes:
    """The 32-byte game key; ``client_seeds`` has one entry per seat, in seat order.

    ``HMAC(server_seed, lp("fairdeal/v1/game") || lp(game_id) || u32(n) || lp(seed_0) ...)``
    """
    key = parse_server_seed(server_seed)
    check_game_id(game_id)
    if isinstance(client_seeds, str):
        raise FairnessError("client seeds must be a list with one seed per seat")
    parts = [_lp("fairdeal/v1/game"), _lp(game_id), struct.pack(">I", len(client_seeds))]
    parts.extend(_lp(check_client_seed(seed)) for seed in client_seeds)
    return hmac.digest(key, b"".join(parts), "sha256")


_U64 = struct.Struct(">Q")
_TWO32 = 1 << 32
# Rejection limits 2^32 - (2^32 mod n) for the n a shuffle of up to two
# packs meets, so the hot loop does one comparison per draw.
_LIMITS = tuple(_TWO32 - _TWO32 % n if n else 0 for n in range(1025))
# The same, and the n themselves, in the order a shuffle draws them (n = 1024 down
# to 2): a shuffle of m + 1 items draws with the last m of each.
_DRAW_NS = tuple(range(len(_LIMITS) - 1, 1, -1))
_DRAW_LIMITS = tuple(_LIMITS[n] for n in _DRAW_NS)
# u64(b) for the first blocks of a stream (a 52-card shuffle reads blocks 0-6).
_BLOCK_INDEX = tuple(_U64.pack(b) for b in range(256))
# The unpackers of stream bytes into big-endian words, one per length, made once.
_WORD_UNPACKERS: dict[int, Any] = {}
# Every word a shuffle rejects is at least min(_LIMITS[1:]) (n <= 1024), so it starts with the
# bytes FF FF: stream bytes without two FF bytes in a row hold no rejected word.
assert min(_LIMITS[1:]) >= 0xFFFF0000


def _words(data: bytes) -> tuple[int, ...]:
    """``data`` (whole 4-byte words) as big-endian unsigned integers."""
    unpack = _WORD_UNPACKERS.get(len(data))
    if unpack is None:
        unpack = _WORD_UNPACKERS[len(data)] = struct.Struct(f">{len(data) // 4}I").unpack
    return unpack(data)


_XOR_36 = bytes(b ^ 0x36 for b in range(256))
_XOR_5C = bytes(b ^ 0x5C for b in range(256))


def _pads(key: bytes) -> tuple[bytes, bytes]:
    """HMAC-SHA256's padded inner and outer key blocks (RFC 2104) of ``key``."""
    if len(key) > 64:
        key = hashlib.sha256(key).digest()
    key = key.ljust(64, b"\0")
    return key.translate(_XOR_36), key.translate(_XOR_5C)


class _BlockHmac:
    """HMAC-SHA256 under one key, for many short messages.

    Same output as ``hmac.digest(key, msg, "sha256")``; the padded inner and
    outer key blocks are hashed once and copied, which makes a stream block
    about three times cheaper (it is most of a shuffle's cost).
    """

    __slots__ = ("_inner", "_outer")

    def __init__(self, key: bytes) -> None:
        ipad, opad = _pads(key)
        self._inner = hashlib.sha256(ipad)
        self._outer = hashlib.sha256(opad)

    def digest(self, msg: bytes) -> bytes:
        inner = self._inner.copy()
        inner.update(msg)
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.digest()

    def blocks(self, start: int, count: int) -> bytes:
        """``HMAC(key, u64(start)) || ... || HMAC(key, u64(start + count - 1))``."""
        inner, outer = self._inner.copy, self._outer.copy
        end = start + count
        indices: Sequence[bytes]
        if end <= len(_BLOCK_INDEX):
            indices = _BLOCK_INDEX[start:end]
        else:
            indices = [_U64.pack(b) for b in range(start, end)]
        out: list[bytes] = []
        append = out.append
        for index in indices:
            i = inner()
            i.update(index)
            o = outer()
            o.update(i.digest())
            append(o.digest())
        return b"".join(out)


_SHUFFLE_PREFIX = _lp("fairdeal/v1/shuffle")
# lp("fairdeal/v1/shuffle") || lp(label) of the labels met lately, checked (labels are public).
_LABEL_MESSAGES: dict[str, bytes] = {}


def label_key(key: bytes, label: str) -> bytes:
    """``K = HMAC(game_key, lp("fairdeal/v1/shuffle") || lp(label))``: the key of one label's stream."""
    message = _LABEL_MESSAGES.get(label) if type(label) is str else None
    if message is None:
        message = _SHUFFLE_PREFIX + _lp(check_label(label))
        if len(_LABEL_MESSAGES) >= 4096:
            _LABEL_MESSAGES.clear()
        _LABEL_MESSAGES[label] = message
    global _LAST_GAME_KEY
    key = bytes(key)
    last = _LAST_GAME_KEY
    if last[0] != key:
        # One game key makes every shuffle of its game (each hand's deal, each restock): its
        # padded blocks are hashed once for them all, not once a label. (One pair, replaced
        # whole: a thread that reads it sees a key and its own blocks.)
        last = _LAST_GAME_KEY = (key, _BlockHmac(key))
    return last[1].digest(message)


_LAST_GAME_KEY: tuple[bytes, _BlockHmac] = (b"", _BlockHmac(b""))


class Stream:
    """The byte stream of one label: ``HMAC(K, u64(0)) || HMAC(K, u64(1)) || ...``.

    Read it in 4-byte words (each 32-byte block is exactly eight of them).

    >>> stream = Stream(game_key("00" * 32, "demo", []), "hand/1/deal")
    >>> len(stream.read(40)), stream.uniform(6) in range(6)
    (40, True)
    """

    __slots__ = ("_block", "_hmac", "_pos", "_words")

    def __init__(self, key: bytes, label: str) -> None:
        self._hmac = _BlockHmac(label_key(key, label))
        self._block = 0
        self._words: tuple[int, ...] = ()
        self._pos = 0  # next unread word of self._words

    def _more(self, blocks: int) -> None:
        """Append ``blocks`` more stream blocks to the unread words."""
        data = self._hmac.blocks(self._block, blocks)
        self._block += blocks
        words = _words(data)
        self._words = self._words[self._pos :] + words if self._pos < len(self._words) else words
        self._pos = 0

    def u32(self) -> int:
        """The next 4 bytes of the stream as a big-endian unsigned integer."""
        if self._pos == len(self._words):
            self._more(1)
        word = self._words[self._pos]
        self._pos += 1
        return word

    def read(self, n: int) -> bytes:
        """The next ``n`` bytes (``n`` a multiple of 4, so that reads stay word-aligned)."""
        if n < 0 or n % 4:
            raise FairnessError("the stream is read in whole 4-byte words")
        return b"".join(struct.pack(">I", self.u32()) for _ in range(n // 4))

    def uniform(self, n: int) -> int:
        """A uniform integer in ``range(n)``, 1 <= n <= 2**32, with rejection (no modulo bias).

        Read a word ``x``; if ``x < 2**32 - (2**32 mod n)`` return ``x mod n``, else read again.
        """
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= _TWO32:
            raise FairnessError(f"uniform(n) needs 1 <= n <= 2**32, not {n}")
        limit = _LIMITS[n] if n < len(_LIMITS) else _TWO32 - _TWO32 % n
        while True:
            x = self.u32()
            if x < limit:
                return x % n

    def _ensure(self, words: int) -> None:
        """Make at least ``words`` unread words available."""
        short = words - (len(self._words) - self._pos)
        if short > 0:
            self._more(-(-short // 8))

    def shuffle(self, cards: Sequence[T]) -> list[T]:
        """Fisher-Yates over ``cards`` with ``uniform`` from this stream (protocol step 7)."""
        a = list(cards)
        m = len(a) - 1  # the number of draws when none is rejected
        if 0 < m <= len(_DRAW_NS):
            # The hot path: the m words that follow are the draws unless one is
            # rejected (probability under m * 1024 / 2**32): test them all at once.
            self._ensure(m)
            pos = self._pos
            draws = self._words[pos : pos + m]
            if all(map(_lt, draws, _DRAW_LIMITS[-m:])):
                self._pos = pos + m
                return _swap_in(a, draws)
        # A rejection, or a list past the fast path's tables: one uniform() per draw.
        for i in range(m, 0, -1):
            j = self.uniform(i + 1)
            a[i], a[j] = a[j], a[i]
        return a


def shuffle(key: bytes, label: str, cards: Sequence[T]) -> list[T]:
    """The protocol's shuffle of ``cards`` by the stream of ``label`` under game key ``key``.

    The result's first element is the top of the stock. ``cards`` is not changed.
    """
    a = list(cards)
    m = len(a) - 1
    if 0 < m <= len(_DRAW_NS):
        # Stream.shuffle without the stream object: the blocks that hold m words, and
        # when no word in them can be a rejection, the first m words are the draws.
        data = _BlockHmac(label_key(key, label)).blocks(0, (m + 7) // 8)
        if b"\xff\xff" not in data:
            return _swap_in(a, _words(data))
    return Stream(key, label).shuffle(a)


def _swap_in(a: list[T], draws: Sequence[int]) -> list[T]:
    """Protocol step 7 on ``a`` in place, given words ``draws`` of which the first len(a) - 1
    are all accepted: for i = len(a) - 1 down to 1, j = x mod (i + 1), swap a[i] and a[j]."""
    i = len(a) - 1
    for j in map(_mod, draws, _DRAW_NS[-i:]):
        a[i], a[j] = a[j], a[i]
        i -= 1
    return a


def stream_bytes(key: bytes, label: str, n: int) -> bytes:
    """The first ``n`` bytes (a multiple of 4) of ``label``'s stream under game key ``key``.

    A game draws a secret from the stream this way (an Eleusis round's rule nonce:
    spec/fairness.md, "Secret rules").
    """
    return Stream(key, label).read(n)


class GameShuffle:
    """The fair dealer's randomness under one game key, as the rules are handed it: called as
    ``shuffle(label, cards)`` it is the protocol's shuffle, and :meth:`stream_bytes` reads a
    label's stream. ``key`` is the key, or a function that gives it when it is fixed (a table
    makes its match before the client seeds are in).

    >>> deal = GameShuffle(game_key("00" * 32, "demo", []))
    >>> len(deal("hand/1/deal", range(52))), deal.stream_bytes("hand/1/rule-nonce", 32).hex()[:8]
    (52, 'cd054dd5')
    """

    __slots__ = ("_key",)

    def __init__(self, key: bytes | Any) -> None:
        self._key = key

    def _fixed(self) -> bytes:
        return self._key if isinstance(self._key, bytes) else self._key()

    def __call__(self, label: str, cards: Sequence[T]) -> list[T]:
        return shuffle(self._fixed(), label, cards)

    def stream_bytes(self, label: str, n: int) -> bytes:
        return stream_bytes(self._fixed(), label, n)

    def __repr__(self) -> str:
        return "<GameShuffle>"  # never the key


def check_nonce(nonce: Any) -> bytes:
    """A rule nonce's 32 bytes from its 64 lowercase hex digits; :class:`FairnessError` otherwise."""
    if not isinstance(nonce, str) or not _HEX64.fullmatch(nonce):
        raise FairnessError("a rule nonce is 64 lowercase hex digits (32 bytes)")
    return bytes.fromhex(nonce)


def rule_commitment(rule: str, nonce: str) -> str:
    """The commitment to a secret rule: ``SHA-256(lp("fairdeal/v1/rule") || lp(rule) || lp(nonce))``,
    ``rule`` its canonical text (UTF-8) and ``nonce`` its 32 bytes (given as 64 hex digits).

    >>> rule_commitment("card.colour != last.colour", "00" * 32)[:16]
    '470d0838f7c39f2a'
    """
    if not isinstance(rule, str):
        raise FairnessError("a rule is text")
    return hashlib.sha256(_lp("fairdeal/v1/rule") + _lp(rule) + _lp(check_nonce(nonce))).hexdigest()


SEED_LINES = ("client-commit", "client-reveal", "start")
"""The record lines of the seed phase, in the order they come."""

# Every record line may carry these besides its event (spec/record.md: the chain and its
# signature, and format 2's time of writing, which the verifier checks on its own; no time is
# an input of any shuffle).
_CHAIN_FIELDS = ("seq", "prev", "sig", "at")


class SeedError(FairnessError):
    """A step of the client seeds' commit-reveal that the sequence refuses, with the reason.

    ``out_of_order`` tells the two kinds apart: a step at the wrong time or by the
    wrong seat (a second commit, a reveal before every seat has committed, a seat
    played by a bot), or a value that is wrong in itself (a seed that does not
    match its commitment, a commitment that is not 64 hex digits).

    >>> error = SeedError("seat 1 has already revealed its client seed", out_of_order=True)
    >>> str(error), error.out_of_order
    ('seat 1 has already revealed its client seed', True)
    """

    def __init__(self, reason: str, *, out_of_order: bool) -> None:
        self.reason = reason
        self.out_of_order = out_of_order
        super().__init__(reason)


class SeedPhase:
    """The client seeds' commit-reveal (spec/fairness.md, section 3): the one implementation
    of the sequence, for the server that runs it and for the verifier that reads it back.

    It is pure: no server seed, no key, no clock. Each step is checked and either taken
    or refused with a :class:`SeedError`; :meth:`read` takes a step from a record line
    (``client-commit``, ``client-reveal``, ``start``), checking its fields too.

    ``humans`` lists the seats that bring a client seed: a game's, whose ``start`` line
    then names the seats a bot plays (``bots``). ``None`` is a dealing session's: every
    seat brings one and the ``start`` line names no bots.

    >>> phase = SeedPhase(3, humans=[0, 1])
    >>> phase.read({"type": "client-commit", "seat": 0, "commitment": client_commitment("ann")})
    >>> phase.read({"type": "client-reveal", "seat": 0, "seed": "ann"})
    Traceback (most recent call last):
    ...
    fairdeal.fairness.SeedError: seat 0 revealed its client seed before every seat committed (waiting for seats [1])
    >>> phase.commit(1, client_commitment(""))
    >>> phase.reveal(1, "")   # the empty seed is a seed: seat 1 stays a human seat
    >>> phase.start_line()
    {'type': 'start', 'client_seeds': ['', '', ''], 'bots': [0, 2]}
    """

    def __init__(self, seats: int, humans: Sequence[int] | None = None) -> None:
        if isinstance(seats, bool) or not isinstance(seats, int) or not 1 <= seats <= 0xFFFFFFFF:
            raise FairnessError("the number of seats must be a positive integer")
        human_seats = sorted(set(range(seats) if humans is None else humans))
        for seat in human_seats:
            if not isinstance(seat, int) or not 0 <= seat < seats:
                raise FairnessError(f"seat {seat!r} is not a seat of this {seats}-seat game")
        self.seats = seats
        self.humans: tuple[int, ...] = tuple(human_seats)
        self.names_bots = humans is not None
        """Whether the ``start`` line names the seats played by bots (a game's does)."""
        self.commitments: dict[int, str] = {}
        self.seeds: dict[int, str] = {}
        self.started = False

    @property
    def all_committed(self) -> bool:
        return all(seat in self.commitments for seat in self.humans)

    @property
    def all_revealed(self) -> bool:
        return all(seat in self.seeds for seat in self.humans)

    def _seat(self, kind: str, seat: Any) -> int:
        if self.started:
            raise SeedError(_after_start(kind), out_of_order=True)
        if type(seat) is not int or not 0 <= seat < self.seats:
            raise SeedError(
                Said(
                    "{kind} seat {seat} is not a seat of this {n}-seat game", kind=kind, seat=repr(seat), n=self.seats
                ),
                out_of_order=True,
            )
        if seat not in self.humans:
            raise SeedError(
                Said("seat {seat} is played by a bot and brings no client seed", seat=seat), out_of_order=True
            )
        return seat

    def commit(self, seat: object, commitment: object) -> None:
        """``seat`` commits to its client seed: 64 lowercase hex digits, once. A value of any
        other type is refused with a :class:`SeedError`, as a wrong one is (:meth:`read` hands a
        line's values over unchecked)."""
        seat = self._seat("client-commit", seat)
        if seat in self.commitments:
            raise SeedError(Said("seat {seat} has already committed to a client seed", seat=seat), out_of_order=True)
        if not isinstance(commitment, str) or not _HEX64.fullmatch(commitment):
            raise SeedError(Said("client-commit commitment is not 64 lowercase hex digits"), out_of_order=False)
        self.commitments[seat] = commitment

    def reveal(self, seat: object, seed: object) -> None:
        """``seat`` reveals its client seed, once every human seat has committed; it must match.
        A value of any other type is refused too."""
        seat = self._seat("client-reveal", seat)
        waiting = [s for s in self.humans if s not in self.commitments]
        if waiting:
            # Otherwise a late seat could choose its seed knowing this one.
            raise SeedError(
                Said(
                    "seat {seat} revealed its client seed before every seat committed (waiting for seats {waiting})",
                    seat=seat,
                    waiting=str(waiting),
                ),
                out_of_order=True,
            )
        if seat in self.seeds:
            raise SeedError(Said("seat {seat} has already revealed its client seed", seat=seat), out_of_order=True)
        try:
            seed = check_client_seed(seed)
        except FairnessError as exc:
            raise SeedError(Said("client-reveal seed: {reason}", reason=str(exc)), out_of_order=False) from None
        if client_commitment(seed) != self.commitments[seat]:
            raise SeedError(
                Said("seat {seat}'s client seed does not match its commitment", seat=seat), out_of_order=False
            )
        self.seeds[seat] = seed

    def seat_seeds(self) -> list[str]:
        """The client seeds in seat order, ``""`` for a seat that revealed none."""
        return [self.seeds.get(seat, "") for seat in range(self.seats)]

    def bots(self) -> list[int]:
        """The seats a bot plays from the start: every seat that revealed no seed (a human seat
        that revealed the empty seed is not one of them)."""
        return [seat for seat in range(self.seats) if seat not in self.seeds]

    def start(self) -> list[str]:
        """Close the phase (the host need not wait for every seed); the seeds in seat order."""
        if self.started:
            raise SeedError(_after_start("start"), out_of_order=True)
        self.started = True
        return self.seat_seeds()

    def start_line(self) -> dict[str, Any]:
        """The ``start`` line's event for the seeds so far."""
        line: dict[str, Any] = {"type": "start", "client_seeds": self.seat_seeds()}
        if self.names_bots:
            line["bots"] = self.bots()
        return line

    def read(self, line: Mapping[str, Any]) -> None:
        """Take the step a record line of the phase (:data:`SEED_LINES`) says was taken."""
        kind = line.get("type")
        if self.started and kind in SEED_LINES:
            raise SeedError(_after_start(str(kind)), out_of_order=True)
        if kind == "client-commit":
            _only(line, ("type", "seat", "commitment"))
            self.commit(line.get("seat"), line.get("commitment"))
        elif kind == "client-reveal":
            _only(line, ("type", "seat", "seed"))
            self.reveal(line.get("seat"), line.get("seed"))
        elif kind == "start":
            self._read_start(line)
        else:
            raise SeedError(Said("a {kind} line is no step of the client seeds", kind=str(kind)), out_of_order=True)

    def _read_start(self, line: Mapping[str, Any]) -> None:
        expected = self.start_line()
        _only(line, expected)
        seeds, want = line.get("client_seeds"), expected["client_seeds"]
        if not isinstance(seeds, list) or len(seeds) != self.seats:
            raise SeedError(
                Said("start client_seeds must list one seed for each of the {n} seats", n=self.seats),
                out_of_order=False,
            )
        for s in range(self.seats):
            if type(seeds[s]) is not str or seeds[s] != want[s]:
                found = {"s": s, "found": repr(seeds[s])}
                if s in self.seeds:
                    said = Said(
                        "start client_seeds[{s}] is {found} but seat {s} revealed {seed}", seed=repr(want[s]), **found
                    )
                else:
                    said = Said("start client_seeds[{s}] is {found} but seat {s} revealed none", **found)
                raise SeedError(said, out_of_order=False)
        if self.names_bots:
            bots = line.get("bots")
            if (
                type(bots) is not list
                or len(bots) != len(expected["bots"])
                or any(type(b) is not int or b != e for b, e in zip(bots, expected["bots"]))
            ):
                raise SeedError(
                    Said(
                        "start bots {bots} but the seats without a client seed are {expected}",
                        bots=repr(bots),
                        expected=str(expected["bots"]),
                    ),
                    out_of_order=False,
                )
        self.start()


def _only(line: Mapping[str, Any], fields: Any) -> None:
    """Refuse a field the line's type does not have (the record's chain fields aside)."""
    for key in line:
        if key not in fields and key not in _CHAIN_FIELDS:
            raise SeedError(
                Said(
                    "{kind} has a field {key} that the format does not give", kind=str(line.get("type")), key=repr(key)
                ),
                out_of_order=False,
            )


def _after_start(kind: str) -> Said:
    return Said("a {kind} line after the start: the client seeds were fixed at the start", kind=kind)


class Dealer:
    """The fair dealer of one game, for a server to embed.

    It holds the secret seed, publishes the commitment, runs the client
    seeds' commit-reveal (its :class:`SeedPhase`), and shuffles by label
    once the game key is fixed.

    >>> dealer = Dealer.new("table-7", seats=2, humans=[0])
    >>> len(dealer.commitment)
    64
    >>> dealer.commit(0, client_commitment("my seed"))
    >>> dealer.reveal_client_seed(0, "my seed")
    >>> dealer.key_fixed
    True
    >>> len(dealer.shuffle("hand/1/deal", range(52)))
    52
    >>> commitment(dealer.reveal()) == dealer.commitment
    True

    ``humans`` lists the seats that bring a client seed; the others (bots)
    use the empty string. The key is fixed as soon as every human seat has
    revealed, or by :meth:`start` (seats that have not revealed then use
    the empty string).
    """

    def __init__(
        self,
        game_id: str,
        seats: int,
        server_seed: str,
        humans: Sequence[int] | None = None,
    ) -> None:
        check_game_id(game_id)
        parse_server_seed(server_seed)
        self.phase = SeedPhase(seats, humans)
        self.game_id = game_id
        self.seats = seats
        self._server_seed = server_seed.strip().lower()
        self.commitment = commitment(self._server_seed)
        self._key: bytes | None = None
        self.revealed = False

    @classmethod
    def new(cls, game_id: str, seats: int, humans: Sequence[int] | None = None) -> Dealer:
        """A dealer with a fresh server seed from the OS CSPRNG."""
        return cls(game_id, seats, new_server_seed(), humans)

    def __repr__(self) -> str:
        # Never show the seed.
        return f"<Dealer {self.game_id!r} seats={self.seats} commitment={self.commitment[:16]}...>"

    @property
    def server_seed(self) -> str:
        """The server seed (64 lowercase hex digits), for the server to store sealed: the secret
        of the game until :meth:`reveal`. Reading it changes nothing (client seeds stay open);
        never show it, log it or put it in a message before the reveal."""
        return self._server_seed

    @property
    def humans(self) -> tuple[int, ...]:
        return self.phase.humans

    @property
    def client_commitments(self) -> dict[int, str]:
        return self.phase.commitments

    @property
    def client_seeds(self) -> dict[int, str]:
        return self.phase.seeds

    @property
    def key_fixed(self) -> bool:
        return self._key is not None

    @property
    def all_committed(self) -> bool:
        return self.phase.all_committed

    def _check_open(self) -> None:
        if self._key is not None:
            raise SeedError(Said("the game key is already fixed"), out_of_order=True)
        # A seat that saw the server seed could pick its client seed to suit it.
        if self.revealed:
            raise SeedError(
                Said("the server seed is revealed: this game can take no more client seeds"), out_of_order=True
            )

    def commit(self, seat: int, client_commitment_hex: str) -> None:
        """Accept ``seat``'s commitment (64 hex digits, either case) to its client seed."""
        self._check_open()
        text = (
            client_commitment_hex.strip().lower() if isinstance(client_commitment_hex, str) else client_commitment_hex
        )
        self.phase.commit(seat, text)

    def reveal_client_seed(self, seat: int, client_seed: str) -> None:
        """Accept ``seat``'s client seed, once every human seat has committed."""
        self._check_open()
        self.phase.reveal(seat, client_seed)
        if self.phase.all_revealed:
            self.start()

    def start(self) -> list[str]:
        """Fix the game key now; returns the client seeds in seat order."""
        self._check_open()
        seeds = self.phase.start()
        self._key = game_key(self._server_seed, self.game_id, seeds)
        return seeds

    def seat_seeds(self) -> list[str]:
        """The client seeds in seat order, ``""`` for seats without one."""
        return self.phase.seat_seeds()

    def start_line(self) -> dict[str, Any]:
        """The ``start`` line's event: the seeds in seat order (and, for a game, its bots)."""
        return self.phase.start_line()

    def shuffle(self, label: str, cards: Sequence[T]) -> list[T]:
        """Shuffle ``cards`` by ``label`` with the game key."""
        return shuffle(self.key(), label, cards)

    def key(self) -> bytes:
        """The game key, once the client seeds have fixed it (never shown: it follows from the seed)."""
        if self._key is None:
            raise FairnessError("the game key is not fixed yet: client seeds are still open")
        return self._key

    @property
    def shuffler(self) -> GameShuffle:
        """The shuffle (and stream bytes) a match is handed: by this dealer's key once fixed."""
        return GameShuffle(self.key)

    def reveal(self) -> str:
        """The server seed, for the end of the game. After this the dealer is public."""
        self.revealed = True
        return self._server_seed
