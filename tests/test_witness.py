"""Witnesses (spec/log.md section 9): cosignatures byte for byte as C2SP tlog-cosignature says, the
witness's answers as C2SP tlog-witness says (200, 400, 403, 404, 409, 422), its word kept across a
restart, the evidence of a fork it refused, a quorum, and `fairdeal witness`."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import struct

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from fairdeal.cli import main
from fairdeal.cosignature import WitnessKey
from fairdeal.cosignature import add_cosignatures
from fairdeal.cosignature import cosign
from fairdeal.cosignature import cosigners
from fairdeal.cosignature import parse_note_key
from fairdeal.cosignature import require_quorum
from fairdeal.cosignature import witness_key
from fairdeal.record import Signer
from fairdeal.tlog import Checkpoint
from fairdeal.tlog import LogError
from fairdeal.tlog import Tree
from fairdeal.tlog import leaf_hash
from fairdeal.tlog import open_note
from fairdeal.tlog import signed_checkpoint
from fairdeal.tlog import verifier_key
from fairdeal.tlog import verify_checkpoint
from fairdeal.witness import SIZE_TYPE
from fairdeal.witness import Witness
from fairdeal.witness import WitnessError

ORIGIN = "example.com/log"
LOG = Signer.from_seed(bytes(range(32)))
WITNESS_SEED = bytes(range(32, 64))


def tree(prefix: str, n: int) -> Tree:
    """A log of ``n`` entries; two prefixes give two logs that differ from their first entry."""
    return Tree([leaf_hash(f"{prefix} {i}".encode()) for i in range(n)])


def note(t: Tree, size: int, signer: Signer = LOG, origin: str = ORIGIN) -> str:
    return signed_checkpoint(Checkpoint(origin, size, t.root(size)), signer.public_hex, signer.sign)


def body(old: int, proof: list[bytes], checkpoint: str) -> bytes:
    return (f"old {old}\n" + "".join(base64.b64encode(h).decode() + "\n" for h in proof) + "\n" + checkpoint).encode()


def submit(witness: Witness, t: Tree, old: int, size: int, **kwargs) -> tuple[int, bytes]:
    answer = witness.add_checkpoint(body(old, t.consistency_proof(old, size), note(t, size, **kwargs)))
    return answer.status, answer.body


@pytest.fixture
def witness(tmp_path):
    w = Witness(
        tmp_path / "w",
        name="witness.example/w1",
        logs=[verifier_key(ORIGIN, LOG.public_hex)],
        clock=lambda: 1_700_000_000,
    )
    yield w
    w.close()


# -- the formats, byte for byte --------------------------------------------------------------


def test_a_cosignature_is_the_c2sp_bytes_built_from_the_spec_alone():
    t = tree("a", 5)
    checkpoint = note(t, 5)
    text = checkpoint[: checkpoint.index("\n\n") + 1]
    # tlog-cosignature, by hand: key ID = SHA-256(name || 0x0A || 0x04 || key)[:4]; the message is
    # "cosignature/v1\ntime <t>\n" and the note text; the blob key ID || u64 BE time || signature.
    private = Ed25519PrivateKey.from_private_bytes(WITNESS_SEED)
    public = Signer.from_seed(WITNESS_SEED).public_hex
    kid = hashlib.sha256(b"witness.example/w1\n\x04" + bytes.fromhex(public)).digest()[:4]
    signature = private.sign(b"cosignature/v1\ntime 1679315147\n" + text.encode())
    by_hand = (
        "\u2014 witness.example/w1 " + base64.b64encode(kid + struct.pack(">Q", 1679315147) + signature).decode() + "\n"
    )
    signer = Signer.from_seed(WITNESS_SEED)
    assert cosign(checkpoint, "witness.example/w1", signer.public_hex, signer.sign, 1679315147) == by_hand
    assert cosign(text, "witness.example/w1", signer.public_hex, signer.sign, 1679315147) == by_hand
    vkey = witness_key("witness.example/w1", public)
    assert vkey == f"witness.example/w1+{kid.hex()}+" + base64.b64encode(b"\x04" + bytes.fromhex(public)).decode()
    key = WitnessKey.parse(vkey)
    assert cosigners(checkpoint + by_hand, [key]) == {"witness.example/w1": 1679315147}
    # The log's own signature still verifies with the cosignature beside it, and the reverse.
    assert verify_checkpoint(checkpoint + by_hand, LOG.public_hex, ORIGIN).size == 5


def test_the_worked_example_of_spec_log_md_section_9():
    """The checkpoint of spec/vectors/log.json cosigned as spec/log.md 9.2 shows, key and line alike."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    spec = (root / "spec" / "log.md").read_text(encoding="utf-8")
    section = spec[spec.index("## 9. Witnesses") : spec.index("### 9.3")]
    checkpoint = json.loads((root / "spec" / "vectors" / "log.json").read_text())["checkpoint"]
    signer = Signer.from_seed(bytes(range(32, 64)))
    vkey = witness_key("witness.example/w1", signer.public_hex)
    line = cosign(checkpoint, "witness.example/w1", signer.public_hex, signer.sign, 1700000000)
    assert f"`{vkey}`" in section and f"    {line}" in section
    assert cosigners(checkpoint + line, [WitnessKey.parse(vkey)]) == {"witness.example/w1": 1700000000}


def test_the_c2sp_examples_read_as_the_specs_say():
    # signed-note's example verifier key and note: our reader of notes and keys agrees.
    key = parse_note_key("example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k")
    example = (
        "This is an example message.\n\n\u2014 example.com/foo "
        "Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n"
    )
    assert open_note(example, key.name, key.public_hex) == "This is an example message.\n"
    # tlog-cosignature's example line: a key ID, the timestamp of its example message, 64 bytes.
    blob = base64.b64decode(
        "jWbPPwAAAABkGFDLEZMHwSRaJNiIDoe9DYn/zXcrtPHeolMI5OWXEhZCB9dlrDJsX3b2oyin1nPZqhf5nNo0xUe+mbIUBkBIfZ+qnA=="
    )
    assert len(blob) == 76 and struct.unpack(">Q", blob[4:12])[0] == 1679315147


@pytest.mark.parametrize(
    "text, kind, says",
    [
        ("example.com/foo+530d903a", 4, "is not name+keyid+base64key"),
        (
            "example.com/foo+530d903b+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k",
            1,
            "the key ID is not the key's (that is 530d903a)",
        ),
        (
            "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k",
            4,
            "signature type is 0x01, not 0x04",
        ),
        ("bad name+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k", 4, "no spaces"),
        ("w+530d903a+!!", 4, "not base64"),
    ],
)
def test_a_note_key_that_is_not_one_says_why(text, kind, says):
    with pytest.raises(LogError, match=re.escape(says)):
        parse_note_key(text, kind)


def test_a_quorum_counts_distinct_witnesses_and_names_the_missing_ones():
    t = tree("a", 3)
    checkpoint = note(t, 3)
    signers = [Signer.from_seed(bytes([i]) * 32) for i in (1, 2, 3)]
    keys = [WitnessKey.of(f"w{i}.example", s.public_hex) for i, s in enumerate(signers, 1)]
    lines = [
        cosign(checkpoint, k.name, s.public_hex, s.sign, 1_700_000_000 + i)
        for i, (k, s) in enumerate(zip(keys, signers))
    ]
    two = add_cosignatures(checkpoint, lines[:2] + lines[:2])  # each line once
    assert two.count("\u2014") == 3
    assert require_quorum(two, keys, 2) == {"w1.example": 1_700_000_000, "w2.example": 1_700_000_001}
    with pytest.raises(LogError, match=r"from 2 of the 3 witnesses required \(of the 3 given\): none from w3.example"):
        require_quorum(two, keys)
    with pytest.raises(LogError, match="quorum is from 1 to the 3 witnesses given, not 4"):
        require_quorum(two, keys, 4)
    # A cosignature of another checkpoint, moved onto this one, is no cosignature: it is refused.
    other = note(tree("b", 3), 3)
    moved = add_cosignatures(
        checkpoint, [cosign(other, keys[0].name, signers[0].public_hex, signers[0].sign, 1_700_000_000)]
    )
    with pytest.raises(LogError, match=r"bad cosignature: the cosignature by w1.example .* does not verify"):
        require_quorum(moved, keys[:1])
    # One by an unknown key is ignored, whatever its name.
    stranger = Signer.from_seed(bytes([9]) * 32)
    ignored = add_cosignatures(checkpoint, [cosign(checkpoint, "w1.example", stranger.public_hex, stranger.sign, 5)])
    assert cosigners(ignored, keys) == {}


# -- the witness ------------------------------------------------------------------------------


def test_the_witness_cosigns_a_growing_log_and_answers_409_with_its_size(witness):
    t = tree("a", 10)
    key = WitnessKey.parse(witness.verifier_key)
    status, line = submit(witness, t, 0, 3)
    assert status == 200 and line.decode().startswith("\u2014 witness.example/w1 ")
    assert cosigners(note(t, 3) + line.decode(), [key]) == {"witness.example/w1": 1_700_000_000}
    answer = witness.add_checkpoint(body(0, [], note(t, 7)))  # a log that forgot what the witness has
    assert (answer.status, answer.body, answer.content_type) == (409, b"3\n", SIZE_TYPE)
    assert submit(witness, t, 3, 7)[0] == 200
    assert submit(witness, t, 7, 7)[0] == 200  # the same tree again: cosigned again
    assert submit(witness, t, 7, 10)[0] == 200
    # What C2SP's monitoring endpoint serves: the log's signature that was checked, and its own.
    latest = witness.latest(ORIGIN)
    assert verify_checkpoint(latest, LOG.public_hex).size == 10 and cosigners(latest, [key])


@pytest.mark.parametrize(
    "make, status, says",
    [
        (lambda t: b"old 0\n" + note(t, 2).encode(), 400, "not a 32-byte hash"),
        (lambda t: b"old 01\n\n" + note(t, 2).encode(), 400, "old size line"),
        (lambda t: body(3, [], note(t, 2)), 400, "larger than the checkpoint's size"),
        (lambda t: b"old 0\nnot-base64\n\n" + note(t, 2).encode(), 400, "not a 32-byte hash"),
        (lambda t: body(0, [bytes(32)] * 64, note(t, 2)), 400, "more than 63"),
        (lambda t: body(0, [], note(t, 2, origin="other.example/log")), 404, "unknown log: other.example/log"),
        (lambda t: body(0, [], note(t, 2, signer=Signer.from_seed(bytes(32)))), 403, "not signed by the log's key"),
        (
            lambda t: body(
                0, [], note(t, 2).replace(base64.b64encode(t.root(2)).decode(), base64.b64encode(t.root(1)).decode())
            ),
            403,
            "does not verify",
        ),
        (lambda t: body(0, [t.root(1)], note(t, 2)), 422, "from old size 0 the consistency proof is empty"),
        (
            lambda t: body(0, [], signed_checkpoint(Checkpoint(ORIGIN, 0, t.root(1)), LOG.public_hex, LOG.sign)),
            422,
            "size 0 has the empty tree's root",
        ),
    ],
)
def test_the_witness_refuses_what_c2sp_says_with_its_status(witness, make, status, says):
    answer = witness.add_checkpoint(make(tree("a", 4)))
    assert answer.status == status and says in answer.body.decode(), answer
    assert witness.latest(ORIGIN) is None  # nothing cosigned, nothing kept


def test_a_fork_is_refused_its_evidence_kept_and_the_word_kept_across_a_restart(tmp_path, witness):
    honest, fork = tree("a", 6), Tree(tree("a", 4).leaves + tree("b", 4).leaves)
    assert submit(witness, honest, 0, 4)[0] == 200
    assert submit(witness, honest, 4, 6)[0] == 200
    witness.close()
    # A new process on the same directory: the same key, the state of the last answer.
    again = Witness(tmp_path / "w", logs=[verifier_key(ORIGIN, LOG.public_hex)], clock=lambda: 1_700_000_100)
    assert again.name == "witness.example/w1" and again.verifier_key == witness.verifier_key
    assert again.add_checkpoint(body(4, fork.consistency_proof(4, 8), note(fork, 8))).status == 409  # it has 6
    status, reason = submit(again, fork, 6, 8)  # a proof from 6 in the fork's tree: not from the root it has
    assert status == 422 and b"not consistent with the checkpoint of size 6" in reason
    assert submit(again, fork, 6, 6)[0] == 422  # of one size, two roots
    assert submit(again, honest, 4, 4)[0] == 409  # a smaller tree after a larger: never
    [first, second] = again.evidence()
    assert first["origin"] == ORIGIN and first["cosigned"]["size"] == 6 and first["refused"]["size"] == 8
    assert first["cosigned"]["root"] == honest.root(6).hex() and first["refused"]["root"] == fork.root(8).hex()
    assert second["refused"] == {"size": 6, "root": fork.root(6).hex(), "note": note(fork, 6)}
    assert "two different roots" in second["reason"]
    for item in (first, second):  # each half signed by the log: proof of the split view for anyone with its key
        assert verify_checkpoint(item["cosigned"]["note"], LOG.public_hex).root.hex() == item["cosigned"]["root"]
        assert verify_checkpoint(item["refused"]["note"], LOG.public_hex).root.hex() == item["refused"]["root"]
    assert submit(again, fork, 6, 8)[0] == 422 and len(again.evidence()) == 2  # kept once
    assert submit(again, honest, 6, 6)[0] == 200  # the log it knows goes on
    again.close()


def test_a_witness_keeps_its_name_and_refuses_bad_log_keys(tmp_path, witness):
    with pytest.raises(WitnessError, match=r"is named 'witness.example/w1', not 'other/w'"):
        Witness(tmp_path / "w", name="other/w")
    with pytest.raises(WitnessError, match="give it a name"):
        Witness(tmp_path / "new")
    with pytest.raises(WitnessError, match="--log: verifier key"):
        Witness(tmp_path / "w", logs=["example.com/log+00000000+AQ=="])


def test_the_witness_over_http(witness):
    from fastapi.testclient import TestClient

    t = tree("a", 3)
    with TestClient(witness.app()) as client:
        ok = client.post("/add-checkpoint", content=body(0, [], note(t, 3)))
        assert ok.status_code == 200 and ok.text.startswith("\u2014 witness.example/w1 ")
        conflict = client.post("/add-checkpoint", content=body(0, [], note(t, 3)))
        assert conflict.status_code == 409 and conflict.text == "3\n"
        assert conflict.headers["content-type"] == SIZE_TYPE
        assert client.post("/add-checkpoint", content=b"x" * 200_000).status_code == 413
        origin_hash = hashlib.sha256(ORIGIN.encode()).hexdigest()
        assert verify_checkpoint(client.get(f"/{origin_hash}/checkpoint").text, LOG.public_hex).size == 3
        assert client.get(f"/{'0' * 64}/checkpoint").status_code == 404
        assert client.get("/evidence").json() == {"evidence": []}
        assert client.get("/").json()["verifier_key"] == witness.verifier_key


def test_the_witness_command(tmp_path, witness):
    log_key = verifier_key(ORIGIN, LOG.public_hex)
    witness.close()
    shown = CliRunner().invoke(main, ["witness", "--data-dir", str(tmp_path / "w"), "--show-key"])
    assert shown.exit_code == 0 and shown.output.strip() == witness.verifier_key
    again = Witness(tmp_path / "w", logs=[log_key])
    fork = Tree(tree("a", 2).leaves + tree("b", 2).leaves)
    assert submit(again, tree("a", 3), 0, 3)[0] == 200 and submit(again, fork, 3, 4)[0] == 422
    again.close()
    evidence = CliRunner().invoke(main, ["witness", "--data-dir", str(tmp_path / "w"), "--evidence"])
    assert evidence.exit_code == 0, evidence.output
    [item] = json.loads(evidence.output)["evidence"]
    assert item["cosigned"]["root"] == tree("a", 3).root(3).hex() and item["refused"]["root"] == fork.root(4).hex()
    for args, says in [
        (["--data-dir", str(tmp_path / "none"), "--evidence"], "holds no witness"),
        (["--data-dir", str(tmp_path / "w"), "--log", "nonsense"], "--log: verifier key 'nonsense'"),
        (["--data-dir", str(tmp_path / "fresh"), "--name", "x y"], "no spaces"),
        (["--data-dir", str(tmp_path / "w")], "give the logs to witness"),
    ]:
        result = CliRunner().invoke(main, ["witness", *args])
        assert result.exit_code == 2 and says in result.output, (args, result.output)
        assert "Traceback" not in result.output


def test_the_witness_command_serves_the_witness(tmp_path, monkeypatch):
    import uvicorn
    from fastapi.testclient import TestClient

    answers = []

    def run(app, **options):  # what uvicorn would serve, asked once while the command runs
        with TestClient(app) as client:
            answers.append(
                (options["port"], client.post("/add-checkpoint", content=body(0, [], note(tree("a", 2), 2))))
            )

    monkeypatch.setattr(uvicorn, "run", run)
    log_key = verifier_key(ORIGIN, LOG.public_hex)
    result = CliRunner().invoke(
        main,
        ["witness", "--data-dir", str(tmp_path / "w"), "--name", "w.example/1", "--log", log_key, "--port", "8123"],
    )
    assert result.exit_code == 0, result.output
    [(port, answer)] = answers
    assert port == 8123 and answer.status_code == 200 and "verifier key: w.example/1+" in result.output
    again = Witness(tmp_path / "w", logs=[log_key])
    assert verify_checkpoint(again.latest(ORIGIN), LOG.public_hex).size == 2
    again.close()
