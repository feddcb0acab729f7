"""The record's tamper tests (tests/test_tamper.py) run over every game of the Fan Tan family.

The same single mutations (every field of a line changed to each other value and type, taken
out, an extra field, the line dropped, doubled, swapped with the next), first as a forger's
edit that the chain must catch, then re-chained and re-signed with the server's key
(``resign``) so that only the replay of the rules can catch them. The records are one-deal
sessions for three seats; the mutations touch the lines that the Fan Tan games add or change
(the deal, the antes, a pass and its chips, penalties, a new lead, the going out, the
payments, the scores, the standings) and the header.
"""

from __future__ import annotations

import functools

import pytest
import test_tamper as tamper
from helpers import tamper_record
from helpers import the_end

GAMES = ("fan-tan", "sjueren", "five-or-nine", "play-or-pay", "liberty-fan-tan")
RECORDS = [(name, {}) for name in GAMES] + [("fan-tan", {"passing": 1})]


@functools.cache
def record(name: str, passing: int | None = None) -> list[dict]:
    options = {"deals": 1} | ({} if passing is None else {"passing": passing})
    return tamper_record(f"fan-tan-tamper-{name}-{passing}", 3, name, options)


def touched(lines: list[dict]) -> set[int]:
    """The lines to mutate: the header (the game's options), the deal and its first antes, the
    first pass and what it paid, the first penalties, the first new lead, and the end (the last
    move, the payments, the scores, the standings). The other lines are the same for every game
    and are in tests/test_tamper.py."""
    kinds = [line["type"] for line in lines]
    deal = kinds.index("deal")
    out = {0, deal, deal + 1, deal + 2}
    passes = [i for i, line in enumerate(lines) if line.get("move") == "pass"]
    out |= {passes[0], passes[0] + 1}
    penalties = [i for i, line in enumerate(lines) if line.get("reason") in ("penalty", "held-seven")]
    if penalties:
        out |= {penalties[0], penalties[0] + 1}
    leads = [
        i
        for i in range(1, len(lines))
        if lines[i]["type"] == lines[i - 1]["type"] == "move" and lines[i]["seat"] == lines[i - 1]["seat"]
    ]
    if leads:
        out |= {leads[0] - 1, leads[0]}
    return out | the_end(lines)


def edited(lines: list[dict]) -> set[int]:
    """For the forger's edits, fewer lines: the chain does not care which game it is."""
    kinds = [line["type"] for line in lines]
    ends = [i for i, line in enumerate(lines) if line.get("reason") in ("pot", "penalty") or line["type"] == "hand-end"]
    return {0, kinds.index("deal") + 1, *ends[:2]}


@pytest.mark.parametrize("name, options", RECORDS, ids=lambda x: x if isinstance(x, str) else "")
def test_every_single_edit_is_rejected_at_the_line_it_touches(name, options):
    lines = record(name, options.get("passing"))
    assert tamper._edits_missed(lines, edited(lines), more_than=100) == ([], [])


@pytest.mark.parametrize("name, options", RECORDS, ids=lambda x: x if isinstance(x, str) else "")
def test_every_single_rewrite_that_breaks_the_rules_is_rejected(name, options):
    lines = record(name, options.get("passing"))
    assert tamper._forgeries_accepted(lines, touched(lines), at_least=300) == []


def test_the_records_hold_what_the_mutations_are_for():
    """Each record has the lines the mutations target: passes, chips, penalties, a new lead."""
    reasons = {name: {line.get("reason") for line in record(name) if line["type"] == "chips"} for name in GAMES}
    assert reasons["sjueren"] == set()
    assert reasons["fan-tan"] >= {"ante", "short-hand", "pass", "cards-left", "pot"}
    assert reasons["five-or-nine"] >= {"ante", "short-hand", "pass", "cards-left", "pot"}
    assert reasons["play-or-pay"] >= {"pass", "cards-left", "pot"}
    assert reasons["liberty-fan-tan"] == {"pass", "pot"}
    assert {line.get("reason") for line in record("fan-tan", 1)} >= {"penalty", "held-seven"}
    for name in ("play-or-pay", "liberty-fan-tan"):
        lines = record(name)
        assert any(
            a.get("seat") == b.get("seat") and a["type"] == b["type"] == "move" for a, b in zip(lines, lines[1:])
        )
