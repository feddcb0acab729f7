"""The verifier's Ed25519 check: libsodium takes the signatures it accepts at once, and the verdict
is always the one OpenSSL (the ``cryptography`` package) gives, for honest signatures and for the
odd ones where the two libraries differ."""

from __future__ import annotations

import hashlib

import pytest

from fairdeal.record import Signer
from fairdeal.record import _openssl_ed25519_check
from fairdeal.record import _sodium_accepts
from fairdeal.record import ed25519_check
from fairdeal.record import head_message

L = 2**252 + 27742317777372353535851937790883648493  # the order of Ed25519's base point
SIGNER = Signer.from_seed(hashlib.sha256(b"tests/test_signature_check").digest())
KEY = bytes.fromhex(SIGNER.public_hex)
MESSAGE = head_message("g1", 3, "ab" * 32)
SIG = bytes.fromhex(SIGNER.sign_head("g1", 3, "ab" * 32))
IDENTITY = bytes([1]) + bytes(31)  # the neutral point: a key of small order


def _s_plus_l(sig: bytes) -> bytes:
    """The same signature with ``S + L`` for ``S``: the same equation, an encoding of S that is not canonical."""
    return sig[:32] + (int.from_bytes(sig[32:], "little") + L).to_bytes(32, "little")


CASES = {
    "honest": (KEY, MESSAGE, SIG),
    "another message": (KEY, head_message("g1", 4, "ab" * 32), SIG),
    "a bit of R flipped": (KEY, MESSAGE, bytes([SIG[0] ^ 1]) + SIG[1:]),
    "a bit of S flipped": (KEY, MESSAGE, SIG[:40] + bytes([SIG[40] ^ 1]) + SIG[41:]),
    "S + L": (KEY, MESSAGE, _s_plus_l(SIG)),
    "63 bytes": (KEY, MESSAGE, SIG[:63]),
    "65 bytes": (KEY, MESSAGE, SIG + b"\x00"),
    # crypto_sign_open takes its first 64 bytes as the signature: a short one must not borrow the message's.
    "63 bytes and the message": (KEY, MESSAGE[1:], SIG[:63] + MESSAGE[:1]),
    "a key of 31 bytes": (KEY[:31], MESSAGE, SIG),
    "a key that is no point": (bytes([2]) + bytes(31), MESSAGE, SIG),
    # OpenSSL accepts (R, S) = (the neutral point, 0) under the neutral point for any message;
    # libsodium refuses keys of small order. The verdict stays OpenSSL's, as it was.
    "the neutral key": (IDENTITY, MESSAGE, IDENTITY + bytes(32)),
}


@pytest.mark.parametrize("case", CASES)
def test_the_verdict_is_openssls(case):
    key, message, sig = CASES[case]
    assert ed25519_check(key, message, sig) is _openssl_ed25519_check(key, message, sig)


def test_the_verdicts_are_the_expected_ones():
    verdicts = {case: ed25519_check(*triple) for case, triple in CASES.items()}
    assert verdicts == {case: case in ("honest", "the neutral key") for case in CASES}


def test_libsodium_takes_an_honest_signature_and_nothing_openssl_refuses():
    assert _sodium_accepts(KEY, MESSAGE, SIG)
    for case, triple in CASES.items():
        if _sodium_accepts(*triple):
            assert _openssl_ed25519_check(*triple), case
    assert not _sodium_accepts(*CASES["the neutral key"])


def test_many_signers_and_messages_agree():
    for n in range(64):
        signer = Signer.from_seed(hashlib.sha256(f"signer {n}".encode()).digest())
        key, digest = bytes.fromhex(signer.public_hex), hashlib.sha256(str(n).encode()).hexdigest()
        sig = bytes.fromhex(signer.sign_head(f"game {n}", n, digest))
        message = head_message(f"game {n}", n, digest)
        assert _sodium_accepts(key, message, sig) and ed25519_check(key, message, sig)
        forged = sig[: n % 64] + bytes([sig[n % 64] ^ 0x40]) + sig[n % 64 + 1 :]
        assert ed25519_check(key, message, forged) is _openssl_ed25519_check(key, message, forged) is False
