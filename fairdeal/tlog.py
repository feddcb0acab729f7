"""The transparency log: an RFC 9162 Merkle tree of game and session announcements, and its
signed checkpoints (C2SP tlog-checkpoint in a C2SP signed note).

Every game and dealing session the service opens is appended to one public, append-only log
(a *start* entry), and so is how it ended (an *end* entry). An entry is the canonical JSON
(:func:`fairdeal.record.canonical`) of a small object; the tree hashes it as RFC 9162 section
2.1 says. spec/log.md is the full contract.

>>> entries = [canonical({"n": i}) for i in range(3)]
>>> tree = Tree([leaf_hash(e) for e in entries])
>>> proof = tree.inclusion_proof(1, 3)
>>> verify_inclusion(leaf_hash(entries[1]), 1, 3, proof, tree.root(3))
>>> verify_consistency(2, 3, tree.root(2), tree.root(3), tree.consistency_proof(2, 3))
>>> verify_inclusion(leaf_hash(entries[0]), 1, 3, proof, tree.root(3))
Traceback (most recent call last):
...
fairdeal.tlog.LogError: inclusion proof of leaf 1 in a tree of 3 does not lead to the root

This module imports no service code and nothing but the standard library and
:mod:`fairdeal.record` (whose Ed25519 goes through an injectable checker), so the verifier runs
it in the browser under Pyodide too.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from fairdeal.record import canonical
from fairdeal.record import check_created
from fairdeal.record import check_signature

__all__ = [
    "LogError",
    "EMPTY_ROOT",
    "leaf_hash",
    "node_hash",
    "root_hash",
    "inclusion_proof",
    "consistency_proof",
    "verify_inclusion",
    "verify_consistency",
    "Tree",
    "start_entry",
    "end_entry",
    "entry_bytes",
    "parse_entry",
    "Checkpoint",
    "parse_checkpoint",
    "key_id",
    "verifier_key",
    "sign_note",
    "split_note",
    "open_note",
    "signed_checkpoint",
    "verify_checkpoint",
    "HOST_ID",
]


class LogError(ValueError):
    """A proof that does not hold, a malformed entry, checkpoint or note; says which and why."""


# -- RFC 9162 section 2.1: hashing -------------------------------------------------------------

EMPTY_ROOT = hashlib.sha256(b"").digest()
"""The Merkle Tree Hash of no leaves: SHA-256 of the empty string."""


def leaf_hash(entry: bytes) -> bytes:
    """``SHA-256(0x00 || entry)``, RFC 9162 section 2.1.1.

    >>> leaf_hash(b"").hex()
    '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d'
    """
    return hashlib.sha256(b"\x00" + entry).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """``SHA-256(0x01 || left || right)``, RFC 9162 section 2.1.1."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than ``n`` (``n`` > 1): where RFC 9162 splits a tree."""
    return 1 << ((n - 1).bit_length() - 1)


class Tree:
    """The leaf hashes of a log and the hashes of its subtrees, for roots and proofs at any size.

    The hashes of complete, aligned subtrees (the left child at every split of RFC 9162's
    recursion) never change as the log grows, so they are kept: after the first use a root or a
    proof costs about ``log2(n)`` hashes of the right edge.

    >>> tree = Tree()
    >>> tree.root(0) == EMPTY_ROOT
    True
    >>> tree.append(leaf_hash(b"a")); tree.append(leaf_hash(b"b"))
    >>> tree.root() == node_hash(leaf_hash(b"a"), leaf_hash(b"b"))
    True
    """

    def __init__(self, leaves: Sequence[bytes] = ()) -> None:
        self.leaves: list[bytes] = list(leaves)
        self._perfect: dict[tuple[int, int], bytes] = {}

    def __len__(self) -> int:
        return len(self.leaves)

    def append(self, leaf: bytes) -> None:
        """Add a leaf hash (not an entry: hash it with :func:`leaf_hash` first)."""
        if len(leaf) != 32:
            raise LogError(f"a leaf hash is 32 bytes, not {len(leaf)}")
        self.leaves.append(leaf)

    def _size(self, size: int | None) -> int:
        n = len(self.leaves) if size is None else size
        if type(n) is not int or not 0 <= n <= len(self.leaves):
            raise LogError(f"tree size {n!r} is not between 0 and the log's size {len(self.leaves)}")
        return n

    def _hash(self, lo: int, hi: int) -> bytes:
        """MTH of leaves ``lo`` to ``hi`` (``hi`` > ``lo``)."""
        n = hi - lo
        if n == 1:
            return self.leaves[lo]
        perfect = n & (n - 1) == 0
        if perfect and (lo, n) in self._perfect:
            return self._perfect[(lo, n)]
        k = _split(n)
        digest = node_hash(self._hash(lo, lo + k), self._hash(lo + k, hi))
        if perfect:
            self._perfect[(lo, n)] = digest
        return digest

    def root(self, size: int | None = None) -> bytes:
        """The Merkle Tree Hash of the first ``size`` leaves (all of them by default)."""
        n = self._size(size)
        return self._hash(0, n) if n else EMPTY_ROOT

    def subtree(self, start: int, end: int) -> bytes:
        """The Merkle Tree Hash of leaves ``start`` to ``end`` (exclusive), ``D[start:end]``: a
        hash in a C2SP tlog-tiles tile is one of a complete subtree (:mod:`fairdeal.tiles`).

        >>> tree = Tree([leaf_hash(bytes([i])) for i in range(5)])
        >>> tree.subtree(0, 4) == tree.root(4), tree.subtree(4, 5) == tree.leaves[4]
        (True, True)
        """
        if type(start) is not int or type(end) is not int or not 0 <= start < end <= len(self.leaves):
            raise LogError(f"leaves {start!r} to {end!r} are not a part of a tree of {len(self.leaves)}")
        return self._hash(start, end)

    def inclusion_proof(self, index: int, size: int | None = None) -> list[bytes]:
        """PATH(index, D[size]) of RFC 9162 section 2.1.3.1."""
        n = self._size(size)
        if type(index) is not int or not 0 <= index < n:
            raise LogError(f"leaf index {index!r} is not in a tree of {n}")
        proof: list[bytes] = []
        lo, hi = 0, n
        # Walk down from the root, noting the sibling at every split; the RFC lists them leaf first.
        while hi - lo > 1:
            k = _split(hi - lo)
            if index < lo + k:
                proof.append(self._hash(lo + k, hi))
                hi = lo + k
            else:
                proof.append(self._hash(lo, lo + k))
                lo = lo + k
        return proof[::-1]

    def consistency_proof(self, first: int, second: int | None = None) -> list[bytes]:
        """PROOF(first, D[second]) of RFC 9162 section 2.1.4.1 (empty when ``first`` is 0 or
        ``second``: nothing to prove)."""
        m, n = self._size(first), self._size(second)
        if m > n:
            raise LogError(f"a tree of {m} cannot be consistent with a smaller one of {n}")
        if m == 0 or m == n:
            return []
        proof: list[bytes] = []
        lo, hi, whole = 0, n, True
        # SUBPROOF(m, D[lo:hi], whole), walked down iteratively.
        while True:
            if m == hi - lo:
                if not whole:
                    proof.append(self._hash(lo, hi))
                break
            k = _split(hi - lo)
            if m <= k:
                proof.append(self._hash(lo + k, hi))
                hi = lo + k
            else:
                proof.append(self._hash(lo, lo + k))
                m -= k
                lo, whole = lo + k, False
        return proof[::-1]


def root_hash(leaves: Sequence[bytes]) -> bytes:
    """The Merkle Tree Hash of ``leaves`` (leaf hashes), RFC 9162 section 2.1.1."""
    return Tree(leaves).root()


def inclusion_proof(leaves: Sequence[bytes], index: int, size: int | None = None) -> list[bytes]:
    """The inclusion proof of leaf ``index`` in the tree of the first ``size`` of ``leaves``."""
    return Tree(leaves).inclusion_proof(index, size)


def consistency_proof(leaves: Sequence[bytes], first: int, second: int | None = None) -> list[bytes]:
    """The consistency proof from the tree of ``first`` leaves to that of ``second``."""
    return Tree(leaves).consistency_proof(first, second)


def _hashes(proof: Sequence[bytes]) -> list[bytes]:
    if not all(isinstance(p, bytes) and len(p) == 32 for p in proof):
        raise LogError("a proof is a list of 32-byte hashes")
    return list(proof)


def _path(fn: int, sn: int, proof: Sequence[bytes], what: str) -> Iterator[tuple[bytes, bool]]:
    """The walk up the tree that RFC 9162's checks of a proof share (sections 2.1.3.2 and 2.1.4.2),
    from node ``fn`` of a level whose last node is ``sn``: each hash of ``proof``, and whether it is
    hashed in on the left; :class:`LogError` (``what`` is too long, too short) when the walk and
    the proof do not end together.

    >>> [left for _, left in _path(0, 1, [bytes(32)], "a proof")]   # leaf 0 of 2: its sibling on the right
    [False]
    """
    for p in proof:
        if sn == 0:
            raise LogError(f"{what} is too long")
        if fn & 1 or fn == sn:
            yield p, True
            if not fn & 1:
                while fn and not fn & 1:
                    fn, sn = fn >> 1, sn >> 1
        else:
            yield p, False
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise LogError(f"{what} is too short")


def verify_inclusion(leaf: bytes, index: int, size: int, proof: Sequence[bytes], root: bytes) -> None:
    """Check an inclusion proof as RFC 9162 section 2.1.3.2 says; :class:`LogError` if it fails.

    ``leaf`` is the entry's :func:`leaf_hash`, ``root`` the tree's root at ``size``.
    """
    proof = _hashes(proof)
    if type(index) is not int or type(size) is not int or not 0 <= index < size:
        raise LogError(f"leaf index {index!r} is not in a tree of {size!r}")
    what = f"inclusion proof of leaf {index} in a tree of {size}"
    r = leaf
    for p, left in _path(index, size - 1, proof, what):
        r = node_hash(p, r) if left else node_hash(r, p)
    if r != root:
        raise LogError(f"{what} does not lead to the root")


def verify_consistency(first: int, second: int, first_root: bytes, second_root: bytes, proof: Sequence[bytes]) -> None:
    """Check a consistency proof as RFC 9162 section 2.1.4.2 says; :class:`LogError` if it fails.

    ``first`` == ``second`` needs an empty proof and equal roots; ``first`` == 0 an empty proof
    and the empty tree's root (every log starts from it).
    """
    proof = _hashes(proof)
    what = f"consistency proof from size {first!r} to {second!r}"
    if type(first) is not int or type(second) is not int or not 0 <= first <= second:
        raise LogError(f"{what}: the sizes must be 0 <= first <= second")
    if first == 0 or first == second:
        if proof:
            raise LogError(f"{what} must be empty")
        if first == 0 and first_root != EMPTY_ROOT:
            raise LogError(f"{what}: the root of an empty tree is SHA-256 of nothing")
        if first == second and first_root != second_root:
            raise LogError(f"{what}: two different roots for one size (a fork)")
        return
    if not proof:
        raise LogError(f"{what} is empty")
    if first & (first - 1) == 0:
        proof = [first_root, *proof]
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = proof[0]
    for c, left in _path(fn, sn, proof[1:], what):
        if left:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
        else:
            sr = node_hash(sr, c)
    if fr != first_root:
        raise LogError(f"{what} does not lead to the first root")
    if sr != second_root:
        raise LogError(f"{what} does not lead to the second root")


# -- entries -----------------------------------------------------------------------------------

HOST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
"""What a ``host`` may be: an operator's account name, or the pseudonym of a client address."""
_HEX64 = re.compile(r"[0-9a-f]{64}")
_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def start_entry(
    kind: str, record_id: str, commitment: str, created: str, host: str, rules: str | None = None
) -> dict[str, Any]:
    """The entry that announces a game (``kind`` "game", with its ``rules``) or a dealing
    session (``kind`` "session", no rules) when it is created.

    >>> from fairdeal.rules import DEFAULT
    >>> start_entry("game", "g1", "ab" * 32, "2026-01-01T00:00:00Z", "alice", rules=DEFAULT)["type"]
    'start'
    """
    entry: dict[str, Any] = {
        "type": "start",
        "kind": kind,
        "id": record_id,
        "commitment": commitment,
        "created": created,
        "host": host,
    }
    if kind == "game":
        entry["rules"] = rules
    return parse_entry(canonical(entry))


def end_entry(record_id: str, how: str, seq: int, head: str) -> dict[str, Any]:
    """The entry that says how a game or session ended: ``how`` "revealed" or "abandoned",
    ``seq`` and ``head`` the record's last line's seq and hash (hex)."""
    return parse_entry(canonical({"type": "end", "id": record_id, "how": how, "seq": seq, "head": head}))


def entry_bytes(entry: dict[str, Any]) -> bytes:
    """What the log hashes for ``entry``: its canonical JSON."""
    return canonical(entry)


_START_KEYS: dict[object, set[str]] = {  # (looked up by whatever an entry gives as its kind)
    "game": {"type", "kind", "id", "rules", "commitment", "created", "host"},
    "session": {"type", "kind", "id", "commitment", "created", "host"},
}
_END_KEYS = {"type", "id", "how", "seq", "head"}


def parse_entry(data: bytes | str) -> dict[str, Any]:
    """The entry ``data`` encodes, checked: exactly the fields spec/log.md gives, in canonical
    JSON; :class:`LogError` naming what is wrong otherwise.

    >>> parse_entry(b'{"type":"end"}')
    Traceback (most recent call last):
    ...
    fairdeal.tlog.LogError: log entry b'{"type":"end"}': an end entry has the fields head, how, id, seq, type
    """
    import json

    raw = data.encode() if isinstance(data, str) else bytes(data)

    def fail(reason: str) -> LogError:
        shown = raw if len(raw) <= 80 else raw[:77] + b"..."
        return LogError(f"log entry {shown!r}: {reason}")

    try:
        entry = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise fail("not JSON") from None
    if not isinstance(entry, dict):
        raise fail("not a JSON object")
    try:
        if canonical(entry) != raw:
            raise fail("not canonical JSON")
    except ValueError:
        raise fail("not canonical JSON") from None
    kind = entry.get("type")
    if kind == "start":
        start_kind = entry.get("kind")
        keys = _START_KEYS.get(start_kind) if isinstance(start_kind, str) else None
        if keys is None:
            raise fail("a start entry's kind is game or session")
        if set(entry) != keys:
            raise fail(f"a {entry['kind']} start entry has the fields {', '.join(sorted(keys))}")
        if entry["kind"] == "game" and not (isinstance(entry["rules"], str) and entry["rules"]):
            raise fail("a game start entry names its rules")
        if not (isinstance(entry["host"], str) and HOST_ID.fullmatch(entry["host"])):
            raise fail("host is 1 to 64 of A-Z a-z 0-9 . _ -")
        if not (isinstance(entry["commitment"], str) and _HEX64.fullmatch(entry["commitment"])):
            raise fail("commitment is 64 lowercase hex digits")
        try:
            check_created(entry["created"])
        except ValueError as exc:
            raise fail(str(exc)) from None
    elif kind == "end":
        if set(entry) != _END_KEYS:
            raise fail(f"an end entry has the fields {', '.join(sorted(_END_KEYS))}")
        if entry["how"] not in ("revealed", "abandoned"):
            raise fail("how is revealed or abandoned")
        if type(entry["seq"]) is not int or entry["seq"] < 0:
            raise fail("seq is a line number")
        if not (isinstance(entry["head"], str) and _HEX64.fullmatch(entry["head"])):
            raise fail("head is 64 lowercase hex digits")
    else:
        raise fail("type is start or end")
    if not (isinstance(entry["id"], str) and _ID.fullmatch(entry["id"])):
        raise fail("id is 1 to 64 of A-Z a-z 0-9 _ -")
    return entry


# -- C2SP signed notes and checkpoints ---------------------------------------------------------

_DASH = "\u2014 "
_ED25519 = b"\x01"


def _check_name(name: str) -> str:
    if not isinstance(name, str) or not name or any(c.isspace() or c == "+" for c in name):
        raise LogError(f"key name {name!r} must be non-empty, with no spaces and no '+'")
    return name


def key_id(name: str, public_key: bytes) -> bytes:
    """The 4-byte key ID of an Ed25519 key in a signed note:
    ``SHA-256(name || 0x0A || 0x01 || public_key)[:4]`` (C2SP signed-note).

    >>> key_id("example.com/log", bytes(32)).hex()
    'a3ad76db'
    """
    return hashlib.sha256(_check_name(name).encode() + b"\n" + _ED25519 + public_key).digest()[:4]


def verifier_key(name: str, public_hex: str) -> str:
    """The key as note verifiers (golang.org/x/mod/sumdb/note, witnesses) write it:
    ``name+hex(key ID)+base64(0x01 || public key)``."""
    public_key = bytes.fromhex(public_hex)
    return f"{name}+{key_id(name, public_key).hex()}+{base64.b64encode(_ED25519 + public_key).decode()}"


def _check_text(text: str) -> None:
    if not text.endswith("\n"):
        raise LogError("a note's text ends with a newline")
    if any(ord(c) < 0x20 and c != "\n" for c in text):
        raise LogError("a note holds no control characters but newlines")


def sign_note(text: str, name: str, public_hex: str, sign: Callable[[bytes], bytes]) -> str:
    """``text`` as a signed note with one Ed25519 signature by ``name``; ``sign(message)`` is the
    key's 64-byte signature of ``message`` (:meth:`fairdeal.record.Signer.sign`)."""
    _check_text(text)
    signature = sign(text.encode())
    if len(signature) != 64:
        raise LogError("an Ed25519 signature is 64 bytes")
    line = base64.b64encode(key_id(name, bytes.fromhex(public_hex)) + signature).decode()
    return f"{text}\n{_DASH}{name} {line}\n"


MAX_NOTE_CHARS = 64 * 1024
"""Longer notes are refused unread (C2SP: accept at least 16 signatures; 16 Ed25519 ones and a
checkpoint are well under this)."""


def split_note(note: str | bytes) -> tuple[str, list[tuple[str, bytes]]]:
    """A signed note's text and its signatures as C2SP signed-note writes them, each
    ``(key name, key ID || signature)``, none checked; :class:`LogError` for what is no signed note.

    >>> split_note("hello\\n\\n\u2014 example.com/k AAAAAAE=\\n")
    ('hello\\n', [('example.com/k', b'\\x00\\x00\\x00\\x00\\x01')])
    """
    if isinstance(note, bytes):
        try:
            note = note.decode("utf-8")
        except UnicodeDecodeError:
            raise LogError("a signed note is UTF-8") from None
    if len(note) > MAX_NOTE_CHARS:
        raise LogError(f"a signed note of more than {MAX_NOTE_CHARS} characters")
    cut = note.rfind("\n\n")
    if cut < 0 or not note.endswith("\n"):
        raise LogError("not a signed note: no blank line before signature lines")
    text, lines = note[: cut + 1], note[cut + 2 :]
    _check_text(text)
    signatures = []
    for line in lines[:-1].split("\n"):
        if not line.startswith(_DASH):
            raise LogError(f"signature line {line[:40]!r} does not start with an em dash and a space")
        signer_name, _, sig64 = line[len(_DASH) :].partition(" ")
        try:
            raw = base64.b64decode(sig64, validate=True)
        except (binascii.Error, ValueError):
            raise LogError(f"the signature by {signer_name!r} is not base64") from None
        if len(raw) < 5 or " " in sig64 or not signer_name:
            raise LogError(f"signature line {line[:40]!r} is malformed")
        signatures.append((signer_name, raw))
    return text, signatures


def open_note(note: str | bytes, name: str, public_hex: str) -> str:
    """The text of ``note`` if it carries a good signature by ``name`` under ``public_hex``;
    :class:`LogError` otherwise. Signatures by other keys are ignored (C2SP: a witness's
    cosignature, a rotated key), a bad one by this key is refused.
    """
    text, signatures = split_note(note)
    try:
        want = key_id(name, bytes.fromhex(public_hex))
    except (ValueError, TypeError):
        raise LogError(f"{public_hex!r} is not an Ed25519 public key") from None
    found = False
    for signer_name, raw in signatures:
        if signer_name != name or raw[:4] != want:
            continue
        if not check_signature(public_hex, text.encode(), raw[4:].hex()):
            raise LogError(f"the signature by {name} does not verify under key {public_hex[:16]}...")
        found = True
    if not found:
        raise LogError(f"the note is not signed by {name} (key ID {want.hex()})")
    return text


@dataclass(frozen=True)
class Checkpoint:
    """A tree head as C2SP tlog-checkpoint writes it: origin, size, root hash, extension lines.

    >>> Checkpoint("example.com/log", 0, EMPTY_ROOT).text()
    'example.com/log\\n0\\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\\n'
    """

    origin: str
    size: int
    root: bytes
    extensions: tuple[str, ...] = field(default=())

    def text(self) -> str:
        """The note text (origin, size, base64 root, extension lines, each ending in a newline)."""
        lines = [self.origin, str(self.size), base64.b64encode(self.root).decode(), *self.extensions]
        return "".join(line + "\n" for line in lines)


_SIZE = re.compile(r"0|[1-9][0-9]{0,19}")


def parse_checkpoint(text: str) -> Checkpoint:
    """The checkpoint a note's ``text`` holds; :class:`LogError` naming what is malformed."""
    if not text.endswith("\n"):
        raise LogError("a checkpoint's text ends with a newline")
    lines = text[:-1].split("\n")
    if len(lines) < 3:
        raise LogError("a checkpoint has an origin, a tree size and a root hash")
    origin, size, root, *extensions = lines
    if not origin:
        raise LogError("a checkpoint's origin is not empty")
    if not _SIZE.fullmatch(size):
        raise LogError(f"checkpoint tree size {size[:24]!r} is not a decimal number without leading zeros")
    try:
        digest = base64.b64decode(root, validate=True)
    except (binascii.Error, ValueError):
        digest = b""
    if len(digest) != 32 or base64.b64encode(digest).decode() != root:
        raise LogError(f"checkpoint root hash {root[:48]!r} is not 32 bytes in base64")
    if any(not line for line in extensions):
        raise LogError("a checkpoint's extension lines are not empty")
    return Checkpoint(origin, int(size), digest, tuple(extensions))


def signed_checkpoint(checkpoint: Checkpoint, public_hex: str, sign: Callable[[bytes], bytes]) -> str:
    """``checkpoint`` as a signed note, the key named after its origin."""
    return sign_note(checkpoint.text(), checkpoint.origin, public_hex, sign)


def verify_checkpoint(note: str | bytes, public_hex: str, origin: str | None = None) -> Checkpoint:
    """The checkpoint in ``note`` once its signature under ``public_hex`` checks, the key named
    after the checkpoint's origin (which must be ``origin`` when given); :class:`LogError` if not.
    """
    if isinstance(note, bytes):
        try:
            note = note.decode("utf-8")
        except UnicodeDecodeError:
            raise LogError("a signed note is UTF-8") from None
    first = note.split("\n", 1)[0]
    if origin is not None and first != origin:
        raise LogError(f"the checkpoint is of log {first[:80]!r}, not {origin!r}")
    # The name is the origin: read it from the text, then check the signature before trusting the rest.
    return parse_checkpoint(open_note(note, _check_name(first), public_hex))
