"""The service's secrets: its signing key, the key that seals server seeds, and bearer tokens.

Both keys live in the data directory, created on first start and shared by
every process of the service. A server seed is stored *sealed* (AES-256-GCM
under ``seal.key``, the game id as associated data), so a copy of the
database alone reveals no seed; a token is stored as its SHA-256.

>>> sealer = Sealer(bytes(32))
>>> sealed = sealer.seal("g1", "ab" * 32)
>>> sealer.open("g1", sealed) == "ab" * 32
True
>>> token = new_token()
>>> token_matches(token, hash_token(token)), token_matches("guess", hash_token(token))
(True, False)
"""

from __future__ import annotations

import fcntl
import hashlib
import hmac
import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from fairdeal.record import Signer

__all__ = ["Sealer", "load_keys", "new_token", "hash_token", "token_matches", "MAX_TOKEN_CHARS"]

SIGNING_KEY_FILE = "server-key.pem"
SEAL_KEY_FILE = "seal.key"
MAX_TOKEN_CHARS = 100
"""Longer than any token we hand out (43 characters); longer input is refused unhashed."""


class Sealer:
    """AES-256-GCM over server seeds, bound to their game id."""

    NONCE_BYTES = 12

    def __init__(self, key: bytes) -> None:
        if len(key) != 32:
            raise ValueError("a seal key is 32 bytes")
        self._aead = AESGCM(key)
        self._key = key

    def derive(self, label: str) -> bytes:
        """A 32-byte key of its own for ``label``: ``HMAC-SHA256(seal key, label)`` (the log's
        host pseudonyms, spec/log.md); it opens no seed.

        >>> Sealer(bytes(32)).derive("fairdeal/v1/log-host") == Sealer(bytes(32)).derive("fairdeal/v1/log-host")
        True
        """
        return hmac.new(self._key, label.encode(), hashlib.sha256).digest()

    def __repr__(self) -> str:
        return "<Sealer>"

    def seal(self, game_id: str, server_seed: str) -> bytes:
        nonce = os.urandom(self.NONCE_BYTES)
        return nonce + self._aead.encrypt(nonce, server_seed.encode(), game_id.encode())

    def open(self, game_id: str, sealed: bytes) -> str:
        """The seed sealed for ``game_id``; ``ValueError`` if it was sealed for another game or altered."""
        sealed = bytes(sealed)
        try:
            plain = self._aead.decrypt(sealed[: self.NONCE_BYTES], sealed[self.NONCE_BYTES :], game_id.encode())
        except InvalidTag:
            raise ValueError(
                f"the sealed seed of {game_id!r} does not open with this data directory's seal key"
            ) from None
        return plain.decode()


@contextmanager
def _data_dir_lock(data_dir: Path) -> Iterator[None]:
    # Workers starting together must not each create a different key.
    with open(data_dir / ".keys.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _load_or_create_seal_key(path: Path) -> bytes:
    if path.exists():
        key = path.read_bytes()
        if len(key) != 32:
            raise ValueError(f"{path} is not a 32-byte seal key")
        return key
    key = os.urandom(32)
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    return key


def load_keys(data_dir: str | os.PathLike[str]) -> tuple[Signer, Sealer]:
    """The signing key and the sealer kept in ``data_dir``, created (mode 0600) on first use."""
    data_dir = Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    with _data_dir_lock(data_dir):
        signer = Signer.load_or_create(data_dir / SIGNING_KEY_FILE)
        sealer = Sealer(_load_or_create_seal_key(data_dir / SEAL_KEY_FILE))
    return signer, sealer


def new_token() -> str:
    """32 random bytes, URL-safe base64: a host, seat or owner token."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """What the database keeps of a token: its SHA-256, hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str, stored_hash: str) -> bool:
    """Whether ``token`` is the one whose hash is ``stored_hash``, compared in constant time."""
    return hmac.compare_digest(hash_token(token), stored_hash)
