"""Snip Snap Snorem, The Earl of Coventry and Jig end to end: simulated sessions whose records the
verifier replays, the record's tamper tests (tests/test_tamper.py) over each game, tampered
records it refuses with the right reason, and the verifier's report of every group and chip.

Records are built by the verifier tests' own driver (tests/test_verifier_support.py: the real
table and match with fixed seeds, bots and human seats that mix random moves with timed-out
auto-moves).
"""

from __future__ import annotations

import functools

import pytest
import test_tamper as tamper
from helpers import answering_play
from helpers import bare
from helpers import check_session_report
from helpers import first
from helpers import refused
from helpers import replayed_moves
from helpers import session_record
from helpers import tamper_record
from helpers import tampered
from helpers import the_end
from test_verifier_support import SIGNER
from test_verifier_support import SIMULATED
from test_verifier_support import play

from fairdeal.record import resign
from fairdeal.verification import verify

GAMES = ("snip-snap-snorem", "earl-of-coventry", "jig")


@pytest.mark.parametrize("name", GAMES)
def test_simulated_one_deal_sessions_of_each_game_verify(name):
    """:data:`~test_verifier_support.SIMULATED` one-deal sessions (``deals=1`` keeps this to
    seconds); every seat count from 3 to 10, 0 to 2 human seats; the full-length sessions are below
    and in tests/test_snip_snap.py."""
    put_downs = passes = 0
    for n in range(SIMULATED):
        seats = 3 + n % 8
        played = play(f"{name}-{n}", seats, humans=n % 3, rules=name, options={"deals": 1})
        report = verify(played.lines, key=SIGNER.public_hex)
        assert report.verified, (n, str(report.error))
        assert report.standings == played.table.match.standings and len(report.hands) == 1
        chips = [bare(line) for line in played.lines if line["type"] == "chips"]
        assert chips == report.hands[0].summary.to_json()["chips"]
        groups = report.hands[0].summary.to_json()["groups"]
        laid = sum(len(turn["cards"]) for group in groups for turn in group["turns"])
        assert laid + sum(report.hands[0].counts) == 52
        put_downs += sum(1 for line in played.lines if line["type"] == "put-down")
        passes += sum(1 for line in played.lines if line.get("move") == "pass")
    assert put_downs > SIMULATED and passes > SIMULATED


# --- the record's tamper tests, over each game ----------------------------------------------


@functools.cache
def record(name: str) -> list[dict]:
    return tamper_record(f"snip-snap-tamper-{name}", 3, name, {"deals": 1})


def touched(lines: list[dict]) -> set[int]:
    """The lines to mutate: the header (the game's options), the deal, the first pass and its chip,
    the first move that put down more than one card and its put-down line, the first new lead,
    and the end (the last move, the pot, the scores, the standings). The other lines are the same
    for every game and are in tests/test_tamper.py."""
    kinds = [line["type"] for line in lines]
    out = {0, kinds.index("deal")}
    out |= {first(lines, "move", move="pass") + k for k in (0, 1)}
    out |= {first(lines, "put-down") + k for k in (-1, 0)}
    moves = [i for i, kind in enumerate(kinds) if kind == "move"]
    lead = next(j for i, j in zip(moves, moves[1:]) if lines[i]["seat"] == lines[j]["seat"])
    out |= {lead}
    return out | the_end(lines)


@pytest.mark.parametrize("name", GAMES)
def test_every_single_edit_is_rejected_at_the_line_it_touches(name):
    lines = record(name)
    kinds = [line["type"] for line in lines]
    edited = {0, first(lines, "chips"), first(lines, "put-down"), kinds.index("hand-end")}
    assert tamper._edits_missed(lines, edited, more_than=100) == ([], [])


@pytest.mark.parametrize("name", GAMES)
def test_every_single_rewrite_that_breaks_the_rules_is_rejected(name):
    lines = record(name)
    assert tamper._forgeries_accepted(lines, touched(lines), at_least=300) == []


def test_the_tamper_records_hold_what_the_mutations_are_for():
    for name in GAMES:
        lines = record(name)
        kinds = {line["type"] for line in lines}
        assert {"put-down", "chips"} <= kinds
        reasons = {line["reason"] for line in lines if line["type"] == "chips"}
        assert reasons == {"pass", "pot"}
        assert any(line.get("auto") for line in lines)


# --- tampered records, re-signed: the replay names what is wrong ------------------------------


@functools.cache
def session(name: str) -> tuple[dict, ...]:
    """A full session (one deal per player) for four seats, two of them human."""
    return session_record(f"snip-snap-session-{name}", 4, name)


@pytest.mark.parametrize("name", GAMES)
def test_a_put_down_left_out_changed_or_added_is_refused(name):
    lines = session(name)
    i = first(lines, "put-down")
    refused(tampered(lines, i, drop=True), i, "but the rules give a put-down line here")
    held_back = lines[i]["cards"][:-1] or None
    if held_back:
        # Holding back one of the rank for later ("instead of holding out one of the cards for Snorem").
        refused(
            tampered(lines, i, lambda line: line.update(cards=held_back)), i, "put-down cards", "but the rules give"
        )
    refused(tampered(lines, i, lambda line: line.update(seat=(line["seat"] + 1) % 4)), i, "put-down seat")
    # A single card put down as though the seat held two.
    j = next(k for k in range(len(lines) - 1) if lines[k].get("move") == "play" and lines[k + 1]["type"] != "put-down")
    hand = next(line["hand"] for line in reversed(lines[:j]) if line["type"] == "deal")
    extra = {"type": "put-down", "hand": hand, "seat": lines[j]["seat"], "cards": ["AS"]}
    refused(tampered(lines, j + 1, insert=extra), j + 1, "a put-down line where the rules expect")


@pytest.mark.parametrize("name", GAMES)
def test_a_seat_that_could_continue_the_group_passes_instead(name):
    lines = session(name)
    # A play right after another seat's play continues that seat's group (a new lead is made by
    # the seat that ended the group).
    j = answering_play(lines)
    bad = tampered(lines, j, lambda line: (line.pop("card"), line.update(move="pass")))
    refused(bad, j, "illegal move pass", "you must play when you can")
    # And a leader may not pass at all.
    lead = next(
        k
        for k in range(1, len(lines))
        if lines[k].get("move") == "play" and lines[k - 1]["type"] == "deal" and "auto" not in lines[k]
    )
    bad = tampered(lines, lead, lambda line: (line.pop("card"), line.update(move="pass")))
    refused(bad, lead, "illegal move pass", "you lead: put down any card")


@pytest.mark.parametrize("name", GAMES)
def test_chips_changed_or_from_nowhere(name):
    lines = session(name)
    i = first(lines, "chips", reason="pot")
    refused(tampered(lines, i, lambda line: line.update(amount=line["amount"] + 1)), i, "chips amount")
    j = first(lines, "chips", reason="pass")
    refused(tampered(lines, j, lambda line: line.update({"from": (line["from"] + 1) % 4})), j, "chips from")
    refused(tampered(lines, j, drop=True), j, "but the rules give a chips line here")
    bad = tampered(lines, 0, lambda line: line["options"].update(stack=60))
    refused(bad, first(lines, "hand-end"), "hand-end totals")


def test_snip_snap_and_the_earl_of_coventry_are_the_same_record_read_under_either_name():
    """The calls are the table's words, not the record's: a Snip Snap Snorem record re-headed as
    The Earl of Coventry is the same game and verifies; as Jig it does not."""
    lines = session("snip-snap-snorem")
    as_earl = tampered(lines, 0, lambda line: line.update(rules="earl-of-coventry"))
    assert verify(as_earl, key=SIGNER.public_hex).verified
    as_jig = tampered(lines, 0, lambda line: line.update(rules="jig"))
    assert not verify(as_jig, key=SIGNER.public_hex).verified


# --- the verifier's report ------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_the_report_shows_every_deal_every_group_every_chip_and_the_standings(name):
    lines = session(name)
    report, text, data = check_session_report(lines, 4)
    word = "series" if name == "jig" else "group"
    groups = sum(len(hand.summary.to_json()["groups"]) for hand in report.hands)
    assert sum(1 for line in text.splitlines() if line.startswith(f"  {word} ")) == groups
    pot = next(line for line in lines if line.get("reason") == "pot")
    assert f"  chips: pot: {pot['amount']} from pot to seat {pot['to']} (P{pot['to']})" in text
    if name == "snip-snap-snorem":
        assert '"Snip"' in text and '"Snap"' in text and '"Snorem"' in text
    if name == "earl-of-coventry":
        assert '"And there\'s the Earl of Coventry!"' in text
    assert " passes" in text
    assert [h["groups"] for h in data["hands"]] == [h.summary.to_json()["groups"] for h in report.hands]


def test_the_report_of_the_texts_example_group():
    """A group as the report prints it: each turn, the cards and their calls, and the passes."""
    from fairdeal.rules import SeatNames
    from fairdeal.rules.snip_snap import Group

    names = SeatNames.of([{"name": n, "bot": False} for n in ("Ann", "Bob", "Cy", "Di")])
    group = {
        "turns": [
            {"seat": 0, "cards": ["6H"], "calls": [None]},
            {"seat": 1, "cards": []},
            {"seat": 2, "cards": ["6D"], "calls": ["Snip"]},
            {"seat": 3, "cards": ["6C", "6S"], "calls": ["Snap", "Snorem"]},
        ],
        "end": "four",
    }
    assert Group.from_json(group).describe(names) == (
        'seat 0 (Ann) 6♥; seat 1 (Bob) passes; seat 2 (Cy) 6♦ "Snip"; seat 3 (Di) 6♣ "Snap", 6♠ "Snorem"'
    )


def test_the_move_by_move_replay_shows_the_group_and_the_cards_put_down_with_a_move(tmp_path):
    out = replayed_moves(tmp_path, session("snip-snap-snorem"))
    assert any("; group " in line and " play " in line for line in out)
    assert any(line.startswith("  and with it: ") for line in out)
    assert any(line.startswith("  chips: pass: 1 from seat ") for line in out)


def test_a_resigned_untouched_record_still_verifies():
    for name in GAMES:
        assert verify(resign(session(name), SIGNER), key=SIGNER.public_hex).verified
