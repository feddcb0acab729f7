"""Dealing-session records (spec/sessions.md) through the same verifier.

The sessions are written by the service's own DealingSession (fairdeal.service.dealing);
the verifier reads them without importing any service code.
"""

from __future__ import annotations

import copy
import json
import tempfile

import pytest
from click.testing import CliRunner
from test_tamper import _variants
from test_tamper import mutations
from test_verifier_support import SIGNER
from test_verifier_support import text_of

from fairdeal.cards import codes
from fairdeal.cards import pack
from fairdeal.cards import parse_cards
from fairdeal.record import RecordError
from fairdeal.record import canonical
from fairdeal.record import resign
from fairdeal.service.dealing import DealingSession
from fairdeal.service.dealing import client_commitment
from fairdeal.verification import NOT_REVEALED
from fairdeal.verification import Failure
from fairdeal.verification import verify
from fairdeal.verification.receipts import check_receipts
from verifier.cli import main


def _session(*, seats=2, reveal=True, start_early=False, prefix=""):
    session = DealingSession.new(
        "s-example", seats, SIGNER, created="2026-01-01T00:00:00Z", server_seed="00" * 32, label_prefix=prefix
    )
    receipts = []
    if start_early:
        receipts.append(session.commit(0, client_commitment("alice")))
        session.start()
    else:
        for seat, seed in zip(range(seats), ("alice", "bob", "carol")):
            receipts.append(session.commit(seat, client_commitment(seed)))
        for seat, seed in zip(range(seats), ("alice", "bob", "carol")):
            receipts.append(session.reveal_client_seed(seat, seed))
    for n, cards in enumerate((parse_cards("AS KS QS JS TS"), pack(2), parse_cards("8H 8H 2C"))):
        _order, receipt = session.shuffle(f"{prefix}round/{n + 1}", cards)
        receipts.append(receipt)
    if reveal:
        session.reveal()
    return session, receipts


def test_a_session_verifies_and_its_orders_are_derived():
    session, _ = _session()
    report = verify(session.writer.text())
    assert report.verified, report.error
    assert report.kind == "session" and report.game_id == "s-example"
    assert report.client_seeds == ["alice", "bob"]
    assert [s["label"] for s in report.shuffles] == ["round/1", "round/2", "round/3"]
    # spec/sessions.md's example: five spades under round/1.
    assert report.shuffles[0]["order"] == ["JS", "QS", "AS", "KS", "TS"]
    for dealt in report.shuffles:
        assert dealt["order"] == codes(session.order(dealt["label"]))
    assert sorted(report.shuffles[1]["order"]) == sorted(codes(pack(2)))


def test_the_session_reports():
    session, _ = _session(start_early=True, prefix="t7/")
    text = session.writer.text()
    result = CliRunner().invoke(main, ["--json", _write(text)])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["kind"] == "session" and data["seats"] == 2 and data["label_prefix"] == "t7/"
    assert data["rules"] is None and data["hands"] == [] and data["standings"] is None and data["error"] is None
    assert [s["count"] for s in data["shuffles"]] == [5, 104, 3]
    out = CliRunner().invoke(main, [_write(text)]).stdout.splitlines()
    assert out[0] == "dealing session s-example: 2 seats, labels start with 't7/'"
    assert "client seeds: seat 0 none, seat 1 none" in out
    assert "shuffle t7/round/1 (line 4), 5 cards: A♠ K♠ Q♠ J♠ 10♠" in out
    assert out[-1] == "VERIFIED"


def _write(text: str) -> str:
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as f:
        f.write(text)
    return f.name


def test_an_open_session_is_not_verified_and_one_closed_before_the_start_is():
    session, _ = _session(reveal=False)
    report = verify(session.writer.text())
    assert report.error == Failure(len(session.lines), NOT_REVEALED)
    closed = DealingSession.new("s-closed", 1, SIGNER, created="2026-01-01T00:00:00Z", server_seed="00" * 32)
    closed.reveal()
    report = verify(closed.writer.text())
    assert report.verified and report.shuffles == []


def test_every_edit_of_a_session_record_is_rejected():
    session, _ = _session()
    accepted = []
    for what, _index, changed in mutations(session.lines):
        try:
            report = verify(text_of(changed))
        except RecordError:
            continue
        if report.verified:
            accepted.append(what)
    assert accepted == []


def _forge(lines, change):
    lines = copy.deepcopy(lines)
    change(lines)
    return verify(text_of(resign(lines, SIGNER)))


@pytest.mark.parametrize(
    ("change", "line", "reason"),
    [
        (lambda ls: ls[8].__setitem__("label", "round/1"), 9, "label 'round/1' has already dealt in this session"),
        (lambda ls: ls[7].__setitem__("count", 5), 8, "shuffle count 5 but it lists 104 cards"),
        (
            lambda ls: ls[6]["cards"].__setitem__(4, "10S"),
            7,
            "shuffle cards: '10S' is not a card code (A23456789TJQK then CDHS)",
        ),
        (lambda ls: ls[6].__setitem__("label", "Round 1"), 7, "shuffle label: a label is 1 to 64 characters"),
        (lambda ls: ls[6].pop("sig"), 7, "a shuffle line is not signed"),
        (
            lambda ls: ls[5]["client_seeds"].__setitem__(1, "eve"),
            6,
            "start client_seeds[1] is 'eve' but seat 1 revealed 'bob'",
        ),
        (
            lambda ls: ls.insert(6, {"type": "move", "seat": 0, "move": "draw"}),
            7,
            "a move line: a dealing session has none",
        ),
        (
            lambda ls: ls.insert(6, dict(ls[1])),
            7,
            "a client-commit line after the start: the client seeds were fixed at the start",
        ),
        (lambda ls: ls[3].__setitem__("seed", "mallory"), 4, "seat 0's client seed does not match its commitment"),
        (
            lambda ls: ls[-1].__setitem__("server_seed", "11" * 32),
            10,
            "the revealed server seed does not match the commitment in the header",
        ),
        (lambda ls: ls[0].__setitem__("timer", 20), 1, "a session header has no field 'timer'"),
        (lambda ls: ls[0].__setitem__("rules", "crazy-eights"), 1, "a session header has rules null"),
        (lambda ls: ls[0].__setitem__("seats", 17), 1, "session seats 17: a session has 1 to 16 client seeds"),
        (lambda ls: ls.insert(5, ls.pop(6)), 6, "a shuffle before the start (the client seeds are still open)"),
    ],
)
def test_a_re_signed_session_that_breaks_the_rules_is_refused(change, line, reason):
    session, _ = _session()
    report = _forge(session.lines, change)
    assert report.error.line == line
    assert report.error.reason.startswith(reason)


def test_a_label_outside_the_prefix_is_refused():
    session, _ = _session(prefix="t7/")
    i = next(i for i, line in enumerate(session.lines) if line["type"] == "shuffle")
    report = _forge(session.lines, lambda ls: ls[i].__setitem__("label", "other/1"))
    assert report.error == Failure(i + 1, "shuffle label 'other/1' does not start with the session's prefix 't7/'")


def test_session_receipts_are_checked_like_a_games():
    session, receipts = _session()
    report = verify(session.writer.text())
    assert {c.status for c in check_receipts(report, receipts)} == {"ok"}
    cut = session.lines[:7] + [session.lines[-1]]  # the server drops two shuffles and re-signs
    report = verify(text_of(resign(cut, SIGNER)))
    assert report.verified
    checks = check_receipts(report, receipts)
    assert [c.status for c in checks if c.seq >= 7] == ["rewrite", "rewrite"]


def test_an_unknown_record_kind_is_refused():
    session, _ = _session()
    report = _forge(session.lines, lambda ls: ls[0].__setitem__("kind", "tournament"))
    assert report.error == Failure(1, "unknown record kind 'tournament': this verifier reads games and sessions")


def test_variants_cover_every_json_type_and_never_repeat_the_value():
    for value in (None, True, 0, 104, "", "AS", "x" * 64, [], ["AS"], {}, {"a": 1}):
        others = list(_variants(value))
        assert others, value
        assert all(canonical(o) != canonical(value) for o in others)  # ({"a": true} == {"a": 1} in Python)
