"""A player's receipts against the record: the proof that a server rewrote its record."""

from __future__ import annotations

import json

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from test_verifier_support import CREATED
from test_verifier_support import SIGNER
from test_verifier_support import play
from test_verifier_support import seed_for

from fairdeal.record import Signer
from fairdeal.record import head_message
from fairdeal.rules import Move
from fairdeal.rules import get
from fairdeal.table import Seat
from fairdeal.table import Table
from fairdeal.verification import verify
from fairdeal.verification.receipts import check_receipts
from fairdeal.verification.receipts import read_receipts

GAME = dict(players=3, humans=2, receipts=True, options={"target": 40}, use_bots=False)


def _honest():
    return play("receipts-1", **GAME)


def _rewrite(original, *, change_at: int | None = None, abandon_at: int | None = None) -> Table:
    """The same game replayed by the same server (same seeds, same key) up to a move;
    then a different legal move there (``change_at``), or an abandon (``abandon_at``)."""
    header = original.lines[0]
    seats = [Seat(s["name"], s["bot"]) for s in header["seats"]]
    table = Table.new(
        header["game_id"],
        get(header["rules"], header["options"]),
        seats,
        SIGNER,
        created=CREATED,
        server_seed=seed_for(header["game_id"]),
    )
    moves = 0
    for line in original.lines[1:]:
        kind = line["type"]
        if kind == "client-commit":
            table.commit(line["seat"], line["commitment"])
        elif kind == "client-reveal":
            table.reveal_client_seed(line["seat"], line["seed"])
        elif kind == "move":
            if moves == abandon_at:
                table.abandon("closed")
                break
            move, auto = Move.from_json(line), line.get("auto", False)
            if moves == change_at:
                others = [m for m in table.match.legal_moves(line["seat"]) if m != move]
                move, auto = others[0], False
                table.move(line["seat"], move)
                while not table.match.over:  # the rest as the timer plays it
                    table.move(table.match.turn, table.match.auto_move(), auto=True)
                break
            table.move(line["seat"], move, auto=auto)
            moves += 1
    table.reveal()
    return table


def test_an_honest_servers_receipts_all_match():
    game = _honest()
    report = verify(game.text)
    checks = check_receipts(report, game.receipts)
    assert len(checks) == len(game.receipts) > 20
    assert {check.status for check in checks} == {"ok"}
    assert report.verified


def test_a_rewritten_record_verifies_alone_but_the_receipts_prove_the_rewrite():
    game = _honest()
    moves = [i for i, line in enumerate(game.lines) if line["type"] == "move"]
    choices = {}

    def watch(step):
        if step.before is not None:
            rules = step.match.rules
            choices[step.line - 1] = len(rules.legal_moves(rules.view(step.before, step.record["seat"])))

    verify(game.text, watch=watch)
    # A move where the player had a choice, and made another.
    k = next(n for n, i in enumerate(moves) if n > 3 and choices[i] > 1)
    rewritten = _rewrite(game, change_at=k)
    report = verify(rewritten.writer.text())
    assert report.verified, "the rewrite is a valid record of its own"
    checks = check_receipts(report, game.receipts)
    changed_seq = moves[k]
    assert all(c.status == "ok" for c in checks if c.seq < changed_seq)
    proofs = [c for c in checks if c.status == "rewrite"]
    assert proofs and proofs[0].seq == changed_seq
    assert not report.verified
    assert report.error.line == changed_seq + 1
    assert report.error.reason.startswith(
        f"PROOF OF A REWRITE: the server signed line {changed_seq + 1} (seq {changed_seq}) as hash "
    )
    assert str(proofs[0]).startswith(f"receipt {proofs[0].number} (seq {changed_seq}): PROOF OF A REWRITE:")


def test_a_receipt_for_a_line_the_record_no_longer_has():
    game = _honest()
    rewritten = _rewrite(game, abandon_at=6)  # the server cut the game short and re-signed it
    report = verify(rewritten.writer.text())
    assert report.verified
    checks = check_receipts(report, game.receipts)
    beyond = [c for c in checks if c.seq >= len(rewritten.lines)]
    assert beyond and all(c.status == "rewrite" for c in beyond)
    assert "which the record does not have" in beyond[0].reason
    assert not report.verified


def test_a_receipt_with_a_bad_signature_proves_nothing():
    game = _honest()
    forged = dict(game.receipts[3], hash="ab" * 32)  # a hash the server never signed
    other_key = Signer.from_seed(bytes(32))
    alien = dict(game.receipts[4])
    alien["sig"] = other_key.sign_head(alien["game_id"], alien["seq"], "cd" * 32)
    alien["hash"] = "cd" * 32
    report = verify(game.text)
    checks = check_receipts(report, [forged, alien, {"game_id": "receipts-1", "seq": "x"}])
    assert [c.status for c in checks] == ["invalid", "invalid", "invalid"]
    assert "not the server's" in checks[0].reason
    assert report.verified, "a bogus receipt says nothing about the record"


def test_receipts_of_other_games_are_left_out():
    game = _honest()
    other = play("receipts-2", **GAME)
    report = verify(game.text)
    assert check_receipts(report, other.receipts) == []


def test_a_receipt_signs_the_chain_head():
    """What a receipt's signature covers (spec/record.md): the head message of its line."""
    game = _honest()
    receipt = game.receipts[0]
    key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(SIGNER.public_hex))
    key.verify(bytes.fromhex(receipt["sig"]), head_message("receipts-1", receipt["seq"], receipt["hash"]))


def test_read_receipts_reads_json_lines():
    game = _honest()
    text = "\n".join(json.dumps(r) for r in game.receipts[:3]) + "\n\n"
    assert read_receipts(text) == game.receipts[:3]
