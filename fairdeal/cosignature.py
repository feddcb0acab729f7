"""Witness cosignatures of the log's checkpoints: C2SP tlog-cosignature v1 (Ed25519), and the
note verifier keys that name the keys (C2SP signed-note).

A witness that has checked a checkpoint is consistent with every one it saw of that log before
adds one signature line to the checkpoint's note:

    — <witness name> base64(key ID || u64 timestamp || Ed25519 signature)

where the key ID is ``SHA-256(name || 0x0A || 0x04 || public key)[:4]`` and the signed message
is ``"cosignature/v1\\ntime <timestamp>\\n"`` followed by the checkpoint's text. An auditor that
requires a quorum of witnesses it trusts cannot be shown a fork of the log that those witnesses
were not shown (spec/log.md, section 9).

>>> from fairdeal.record import Signer
>>> from fairdeal.tlog import EMPTY_ROOT, Checkpoint, signed_checkpoint
>>> log, signer = Signer.from_seed(bytes(32)), Signer.from_seed(bytes(range(32)))
>>> note = signed_checkpoint(Checkpoint("example.com/log", 0, EMPTY_ROOT), log.public_hex, log.sign)
>>> w1 = WitnessKey.parse(witness_key("w1.example/w", signer.public_hex))
>>> line = cosign(note, w1.name, signer.public_hex, signer.sign, 1700000000)
>>> cosigners(add_cosignatures(note, [line]), [w1])
{'w1.example/w': 1700000000}
>>> require_quorum(note, [w1], 1)
Traceback (most recent call last):
...
fairdeal.tlog.LogError: the checkpoint has valid cosignatures from 0 of the 1 witnesses required (of the 1 given): none from w1.example/w

Like :mod:`fairdeal.tlog` it needs only the standard library and :mod:`fairdeal.record` (whose
Ed25519 checks go through an injectable checker), so the verifier can use it anywhere.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import struct
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass

from fairdeal.record import check_signature
from fairdeal.tlog import LogError
from fairdeal.tlog import split_note

__all__ = [
    "NOTE_ED25519",
    "COSIGNATURE_V1",
    "NoteKey",
    "WitnessKey",
    "parse_note_key",
    "witness_key",
    "cosignature_message",
    "cosign",
    "cosigners",
    "require_quorum",
    "witness_policy",
    "add_cosignatures",
]

NOTE_ED25519 = 0x01
"""The signature type of a plain Ed25519 note signature (the log's own, C2SP signed-note)."""
COSIGNATURE_V1 = 0x04
"""The signature type of a timestamped Ed25519 checkpoint cosignature (C2SP tlog-cosignature)."""
MAX_TIMESTAMP = 2**63 - 1
_KEY_ID = re.compile(r"[0-9a-f]{8}")
_DASH = "\u2014 "


def _key_id(name: str, kind: int, public_key: bytes) -> bytes:
    return hashlib.sha256(name.encode() + b"\n" + bytes([kind]) + public_key).digest()[:4]


def _check_name(name: str) -> str:
    if not isinstance(name, str) or not name or any(c.isspace() or c == "+" for c in name):
        raise LogError(f"key name {name!r} must be non-empty, with no spaces and no '+'")
    return name


@dataclass(frozen=True)
class NoteKey:
    """A note verifier key: its name, signature type, Ed25519 public key (hex) and key ID.

    >>> key = parse_note_key("example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k")
    >>> key.name, key.kind, key.key_id.hex()
    ('example.com/foo', 1, '530d903a')
    """

    name: str
    kind: int
    public_hex: str
    key_id: bytes

    def __str__(self) -> str:
        material = base64.b64encode(bytes([self.kind]) + bytes.fromhex(self.public_hex)).decode()
        return f"{self.name}+{self.key_id.hex()}+{material}"


def parse_note_key(text: str, kind: int = NOTE_ED25519) -> NoteKey:
    """The verifier key ``text`` (``name+hex(key ID)+base64(type || public key)``, C2SP
    signed-note) of an Ed25519 key of signature type ``kind``; :class:`LogError` naming what is
    wrong, a key ID that is not the key's included.

    >>> parse_note_key("example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k", COSIGNATURE_V1)
    Traceback (most recent call last):
    ...
    fairdeal.tlog.LogError: verifier key 'example.com/foo+530d903a+...': its signature type is 0x01, not 0x04
    """
    if not isinstance(text, str):
        raise LogError(f"a verifier key is text, not {type(text).__name__}")
    text = text.strip()
    parts = text.split("+", 2)  # the name and key ID hold no "+"; base64 may
    shown = f"{parts[0]}+{parts[1]}+..." if len(parts) == 3 else text[:80]
    if len(parts) != 3:
        raise LogError(f"verifier key {shown!r} is not name+keyid+base64key")
    name, hex_id, material = parts
    try:
        _check_name(name)
    except LogError as exc:
        raise LogError(f"verifier key {shown!r}: {exc}") from None
    if not _KEY_ID.fullmatch(hex_id):
        raise LogError(f"verifier key {shown!r}: the key ID is 8 lowercase hex digits")
    try:
        raw = base64.b64decode(material, validate=True)
    except (binascii.Error, ValueError):
        raise LogError(f"verifier key {shown!r}: the key is not base64") from None
    if len(raw) != 33:
        raise LogError(f"verifier key {shown!r}: an Ed25519 key is a type byte and 32 bytes, not {len(raw)} bytes")
    if raw[0] != kind:
        raise LogError(f"verifier key {shown!r}: its signature type is 0x{raw[0]:02x}, not 0x{kind:02x}")
    want = _key_id(name, kind, raw[1:])
    if want.hex() != hex_id:
        raise LogError(f"verifier key {shown!r}: the key ID is not the key's (that is {want.hex()})")
    return NoteKey(name, kind, raw[1:].hex(), want)


class WitnessKey(NoteKey):
    """A witness's cosigning key (signature type 0x04)."""

    @classmethod
    def parse(cls, text: str) -> WitnessKey:
        key = parse_note_key(text, COSIGNATURE_V1)
        return cls(key.name, key.kind, key.public_hex, key.key_id)

    @classmethod
    def of(cls, name: str, public_hex: str) -> WitnessKey:
        public = bytes.fromhex(public_hex)
        return cls(_check_name(name), COSIGNATURE_V1, public.hex(), _key_id(name, COSIGNATURE_V1, public))


def witness_key(name: str, public_hex: str) -> str:
    """The verifier key of a witness named ``name`` whose Ed25519 public key is ``public_hex``.

    >>> witness_key("w1.example/w", "00" * 32)
    'w1.example/w+...+BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'
    """
    return str(WitnessKey.of(name, public_hex))


def cosignature_message(text: str, timestamp: int) -> bytes:
    """What a v1 cosignature signs: ``cosignature/v1``, ``time <timestamp>``, then the
    checkpoint's note text (its final newline included, no signature line).

    >>> cosignature_message("example.com/log\\n0\\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\\n", 1679315147)
    b'cosignature/v1\\ntime 1679315147\\nexample.com/log\\n0\\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\\n'
    """
    if type(timestamp) is not int or not 0 < timestamp <= MAX_TIMESTAMP:
        raise LogError(f"a cosignature's timestamp is from 1 to 2^63 - 1 seconds, not {timestamp!r}")
    return f"cosignature/v1\ntime {timestamp}\n{text}".encode()


def _text(note_or_text: str) -> str:
    # A signed note is cut at its last blank line; a bare text (a checkpoint's three lines) is kept.
    return split_note(note_or_text)[0] if "\n\n" in note_or_text else note_or_text


def cosign(note: str, name: str, public_hex: str, sign: Callable[[bytes], bytes], timestamp: int) -> str:
    """The cosignature line (ending in a newline) of the checkpoint ``note`` (a signed note or
    its bare text) by the witness ``name``, whose key signs with ``sign``, at ``timestamp``."""
    signature = sign(cosignature_message(_text(note), timestamp))
    if len(signature) != 64:
        raise LogError("an Ed25519 signature is 64 bytes")
    key = WitnessKey.of(name, public_hex)
    blob = key.key_id + struct.pack(">Q", timestamp) + signature
    return f"{_DASH}{key.name} {base64.b64encode(blob).decode()}\n"


def cosigners(note: str | bytes, witnesses: Sequence[WitnessKey]) -> dict[str, int]:
    """The witnesses of ``witnesses`` whose cosignature on ``note`` verifies, by name, with its
    timestamp. Lines by other keys are ignored (C2SP signed-note); a line whose name and key ID
    are a given witness's but whose cosignature does not verify is a :class:`LogError` (the note
    is malformed, and so is a witness that signs so)."""
    text, signatures = split_note(note)
    found: dict[str, int] = {}
    for name, raw in signatures:
        key = next((w for w in witnesses if w.name == name and w.key_id == raw[:4]), None)
        if key is None:
            continue
        if len(raw) != 4 + 8 + 64:
            raise LogError(f"the cosignature by {name} is {len(raw)} bytes, not 76 (key ID, timestamp, signature)")
        (timestamp,) = struct.unpack(">Q", raw[4:12])
        if not 0 < timestamp <= MAX_TIMESTAMP:
            raise LogError(f"the cosignature by {name} has timestamp {timestamp}, not from 1 to 2^63 - 1")
        if not check_signature(key.public_hex, cosignature_message(text, timestamp), raw[12:].hex()):
            raise LogError(f"the cosignature by {name} (key ID {key.key_id.hex()}) does not verify")
        found[name] = max(timestamp, found.get(name, 0))
    return found


def require_quorum(note: str | bytes, witnesses: Sequence[WitnessKey], quorum: int | None = None) -> dict[str, int]:
    """:func:`cosigners` of ``note``, if at least ``quorum`` distinct witnesses of ``witnesses``
    (by name; default: all of them) cosigned it; :class:`LogError` saying who is missing if not."""
    names = sorted({w.name for w in witnesses})
    need = len(names) if quorum is None else quorum
    if not 1 <= need <= len(names):
        raise LogError(f"a quorum is from 1 to the {len(names)} witnesses given, not {need}")
    try:
        found = cosigners(note, witnesses)
    except LogError as exc:
        raise LogError(f"the checkpoint carries a bad cosignature: {exc}") from None
    if len(found) < need:
        missing = [n for n in names if n not in found]
        raise LogError(
            f"the checkpoint has valid cosignatures from {len(found)} of the {need} witnesses required "
            f"(of the {len(names)} given): none from {', '.join(missing)}"
        )
    return found


def witness_policy(texts: Sequence[str], quorum: int | None = None) -> tuple[WitnessKey, ...]:
    """The witnesses a reader requires of a checkpoint, from their verifier keys' text, with the
    ``quorum`` asked of them checked before any checkpoint is read (:func:`require_quorum` applies
    it); :class:`LogError` naming the option at fault (the commands' ``--witness`` and ``--quorum``).

    >>> witness_policy([])
    ()
    >>> witness_policy([], quorum=1)
    Traceback (most recent call last):
    ...
    fairdeal.tlog.LogError: --quorum goes with --witness: the witnesses whose cosignatures count
    """
    keys = []
    for text in texts:
        try:
            keys.append(WitnessKey.parse(text))
        except LogError as exc:
            raise LogError(f"--witness: {exc}") from None
    names = {k.name for k in keys}
    if quorum is not None and not keys:
        raise LogError("--quorum goes with --witness: the witnesses whose cosignatures count")
    if quorum is not None and not 1 <= quorum <= len(names):
        raise LogError(f"--quorum is from 1 to the {len(names)} witnesses given, not {quorum}")
    return tuple(keys)


def add_cosignatures(note: str, lines: Sequence[str]) -> str:
    """``note`` with the signature ``lines`` (each ending in a newline) added after its own, each
    once: a witness's answer to ``add-checkpoint`` moved onto the log's note."""
    split_note(note)  # a note it is
    have = set(note[note.rfind("\n\n") + 2 :].splitlines(keepends=True))
    for line in lines:
        if not (line.startswith(_DASH) and line.endswith("\n") and line.count("\n") == 1):
            raise LogError(f"{line[:40]!r} is not one signature line")
        if line not in have:
            note += line
            have.add(line)
    return note
