"""Eleusis records end to end: the secret rule committed, revealed and proved.

A round's rule is committed to before its first card and revealed at its end;
the verifier checks the reveal against the commitment and then judges every
play again by the rule. These tests play real tables (fixed seeds), one with
the server dealing and one where a seat deals with a rule typed at the table,
and show that a record whose server re-signed it after flipping any call, or
revealing another rule, does not verify, and says which line is false.
"""

from __future__ import annotations

import pytest
from helpers import first
from helpers import refused
from helpers import tampered
from test_verifier_support import SIGNER
from test_verifier_support import seed_for

from fairdeal.bots import make_bot
from fairdeal.fairness import rule_commitment
from fairdeal.record import parse_record
from fairdeal.rules import get
from fairdeal.rules.eleusis import RULE
from fairdeal.rules.secret_rule import LIBRARY
from fairdeal.table import Seat
from fairdeal.table import Table
from fairdeal.table import TableError
from fairdeal.verification import verify
from verifier.report import text_report

CREATED = "2026-01-01T00:00:00Z"
TYPED = "card.rank > last.rank or card.colour != last.colour"
"""A rule a person types at the table: not one of the library's."""


class TypingDealer:
    """A person at the table: types ``rule`` when he deals, otherwise plays like the heuristic bot."""

    def __init__(self, rule: str) -> None:
        self.rule = rule
        self.bot = make_bot("heuristic")

    def choose(self, rules, view):
        if view.phase == "rule":
            return RULE(self.rule)
        return self.bot.choose(rules, view)


def _table(game_id: str, seats: int, options: dict) -> Table:
    table = Table.new(
        game_id,
        get("eleusis", options),
        [Seat(f"P{s}") for s in range(seats)],
        SIGNER,
        created=CREATED,
        server_seed=seed_for(game_id),
    )
    table.start()
    return table


def _play(table: Table, players, *, moves: int | None = None) -> Table:
    made = 0
    while not table.over and (moves is None or made < moves):
        seat = table.turn
        table.move(seat, players[seat].choose(table.rules, table.view(seat)), receipt=False)
        made += 1
    return table


@pytest.fixture(scope="module")
def served() -> list[dict]:
    """A whole game of four seats with the server dealing: four rounds, bots of both kinds."""
    table = _table("eleusis-served", 4, {"dealer": 0, "rounds": 0})
    bots = {s: make_bot("heuristic" if s % 2 else "random", seed=f"served/{s}") for s in range(4)}
    _play(table, bots).reveal()
    return parse_record(table.record_text())


@pytest.fixture(scope="module")
def dealt() -> list[dict]:
    """One round with seat 0 dealing by a rule it typed (seat mode), then the game abandoned."""
    table = _table("eleusis-dealt", 5, {"dealer": 1, "rounds": 1})
    players = {s: TypingDealer(TYPED) for s in range(5)}
    _play(table, players).reveal()
    return parse_record(table.record_text())


def _calls(lines) -> list[int]:
    return [i for i, line in enumerate(lines) if line["type"] == "judgement"]


def test_a_served_game_verifies_and_reports_every_rule_and_call(served):
    report = verify(served, key=SIGNER.public_hex)
    assert report.verified, report.error
    assert len(report.hands) == 4 and report.standings is not None
    reveals = [line for line in served if line["type"] == "rule-reveal"]
    commitments = [line for line in served if line["type"] == "rule-commitment"]
    assert [r["hand"] for r in reveals] == [c["hand"] for c in commitments] == [1, 2, 3, 4]
    library = {rule.text for rule in LIBRARY}
    for reveal, commit in zip(reveals, commitments):
        assert reveal["rule"] in library  # the server chooses from the library
        assert rule_commitment(reveal["rule"], reveal["nonce"]) == commit["commitment"]
    text = text_report(report)
    for reveal in reveals:
        assert reveal["rule"] in text


def test_a_rule_typed_at_the_table_is_never_in_the_record_before_its_reveal(dealt):
    assert verify(dealt, key=SIGNER.public_hex).verified
    rule_move = first(dealt, "move", move="rule")
    reveal = first(dealt, "rule-reveal")
    assert dealt[rule_move] == {k: dealt[rule_move][k] for k in ("type", "seat", "move", "seq", "prev", "at")}
    assert all(TYPED not in str(line) for line in dealt[:reveal])
    assert dealt[reveal]["rule"] == TYPED
    assert dealt[rule_move + 1]["type"] == "rule-commitment"


@pytest.mark.parametrize("record", ["served", "dealt"])
def test_flipping_any_call_is_caught_at_its_line(record, request):
    lines = request.getfixturevalue(record)
    calls = _calls(lines)
    assert len(calls) > 20
    for index in calls[:: max(1, len(calls) // 25)]:
        forged = tampered(lines, index, lambda line: line.update(right=not line["right"]))
        refused(forged, index, "judgement right")


def test_flipping_a_forecasters_call_is_caught(served):
    calls = [i for i, line in enumerate(served) if line.get("move") == "call"]
    assert calls, "the bots forecast in this game"
    for index in calls[:10]:
        forged = tampered(served, index, lambda line: line.update(call="wrong" if line["call"] == "right" else "right"))
        report = verify(forged, key=SIGNER.public_hex)
        # The call is the Forecaster's to make: what follows from it (the judgement) no longer holds.
        assert not report.verified and report.error.line in (index + 1, index + 2), report.error


@pytest.mark.parametrize("record", ["served", "dealt"])
def test_a_rule_revealed_that_does_not_match_its_commitment_is_refused_at_the_reveal(record, request):
    lines = request.getfixturevalue(record)
    reveal = first(lines, "rule-reveal")
    commit = first(lines, "rule-commitment")
    other = next(rule.text for rule in LIBRARY if rule.text != lines[reveal]["rule"])
    forged = tampered(lines, reveal, lambda line: line.update(rule=other))
    refused(forged, reveal, "do not match the commitment", f"line {commit + 1}")
    forged = tampered(lines, reveal, lambda line: line.update(nonce="00" * 32))
    refused(forged, reveal, "do not match the commitment")


def test_a_commitment_the_seed_does_not_give_is_refused_where_it_stands(served):
    commit = first(served, "rule-commitment")
    reveal = first(served, "rule-reveal")
    other = next(rule.text for rule in LIBRARY if rule.text != served[reveal]["rule"])
    # A server that commits to another rule than the stream chose, and reveals that one.
    forged = tampered(
        served, commit, lambda line: line.update(commitment=rule_commitment(other, served[reveal]["nonce"]))
    )
    forged = tampered(forged, reveal, lambda line: line.update(rule=other))
    refused(forged, commit, "rule-commitment commitment")


@pytest.mark.parametrize("hand", [[1], {"n": 1}, "1", True, None])
def test_a_commitment_to_no_round_is_refused_where_it_stands(served, hand):
    # Any JSON in place of the round's number: a failed check at that line, never a crash.
    commit = first(served, "rule-commitment")
    refused(tampered(served, commit, lambda line: line.update(hand=hand)), commit)


def test_a_typed_rule_that_is_never_revealed_cannot_be_judged(dealt):
    reveal = first(dealt, "rule-reveal")
    forged = tampered(dealt, reveal, drop=True)
    rule_move = first(dealt, "move", move="rule")
    refused(forged, rule_move, "never revealed")


def test_a_rule_written_into_the_dealers_move_is_refused(dealt):
    rule_move = first(dealt, "move", move="rule")
    forged = tampered(dealt, rule_move, lambda line: line.update(rule=TYPED))
    refused(forged, rule_move, "never written in its move")


def test_an_abandon_in_the_middle_of_a_round_reveals_its_rule_first():
    table = _table("eleusis-abandoned", 4, {"dealer": 0, "rounds": 0})
    bots = {s: make_bot("heuristic") for s in range(4)}
    _play(table, bots, moves=25)
    table.abandon("the players left")
    table.reveal()
    lines = parse_record(table.record_text())
    assert [line["type"] for line in lines[-3:]] == ["rule-reveal", "abandon", "reveal"]
    assert verify(lines, key=SIGNER.public_hex).verified
    # Without the rule's reveal the round's plays cannot be judged: the abandon is refused.
    forged = tampered(lines, len(lines) - 3, drop=True)
    refused(forged, len(lines) - 3, "before the round's secret rule is revealed")


def test_a_table_keeps_a_typed_rule_as_its_secret_and_is_restored_with_it():
    table = _table("eleusis-restored", 4, {"dealer": 1, "rounds": 1})
    players = {s: TypingDealer(TYPED) for s in range(4)}
    dealer = table.match.state.dealer
    assert table.secret is None
    _play(table, players, moves=1)
    assert table.secret == TYPED
    _play(table, players, moves=10)
    lines = parse_record(table.record_text())
    again = Table.restore(lines, seed_for("eleusis-restored"), SIGNER, secret=table.secret)
    assert again.view(dealer).to_json()["rule"] == TYPED
    assert again.match.state == table.match.state
    with pytest.raises(TableError, match="neither revealed nor given"):
        Table.restore(lines, seed_for("eleusis-restored"), SIGNER)
    _play(table, players)
    assert table.secret is None  # revealed with the round's end


def test_nobody_but_the_dealer_sees_a_typed_rule_before_its_reveal():
    table = _table("eleusis-views", 4, {"dealer": 1, "rounds": 1})
    players = {s: TypingDealer(TYPED) for s in range(4)}
    _play(table, players, moves=3)
    dealer = table.match.state.dealer
    assert table.view(dealer).to_json()["rule"] == TYPED
    for seat in [None, *range(4)]:
        if seat != dealer:
            assert TYPED not in str(table.view(seat).to_json())


@pytest.mark.parametrize("record", ["served", "dealt"])
def test_a_reveal_that_cannot_be_read_is_refused_at_the_reveal(record, request):
    lines = request.getfixturevalue(record)
    reveal = first(lines, "rule-reveal")
    refused(tampered(lines, reveal, lambda line: line.update(nonce="zz")), reveal, "64 lowercase hex")
    refused(tampered(lines, reveal, lambda line: line.update(rule=7)), reveal, "the rule as text")
    refused(tampered(lines, reveal, lambda line: line.update(hand=99)), reveal, "no line before commits to it")
