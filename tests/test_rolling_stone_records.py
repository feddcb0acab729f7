"""Rolling Stone end to end: simulated sessions whose records the verifier replays, the record's
tamper tests (tests/test_tamper.py), tampered records it refuses with the right reason, and the
verifier's report of every trick.

Records are built by the verifier tests' own driver (tests/test_verifier_support.py: the real
table and match with fixed seeds, bots and human seats that mix random moves with timed-out
auto-moves).
"""

from __future__ import annotations

import functools
import json

import test_tamper as tamper
from helpers import answering_play
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

from fairdeal.cards import Card
from fairdeal.record import resign
from fairdeal.verification import verify
from verifier.report import json_report
from verifier.report import text_report


def test_simulated_one_deal_sessions_verify():
    """:data:`~test_verifier_support.SIMULATED` one-deal sessions (``deals=1``) for 4, 5 and 6
    players, 0 to 2 human seats: most end with a seat out of cards, some blocked."""
    hows = {"out": 0, "blocked": 0}
    pick_ups = 0
    for n in range(SIMULATED):
        seats = 4 + n % 3
        played = play(f"rolling-stone-{n}", seats, humans=n % 3, rules="rolling-stone", options={"deals": 1})
        report = verify(played.lines, key=SIGNER.public_hex)
        assert report.verified, (n, str(report.error))
        assert report.standings == played.table.match.standings and len(report.hands) == 1
        hand = report.hands[0]
        hows[hand.how] += 1
        lines = played.lines
        picked = [i for i, line in enumerate(lines) if line["type"] == "pick-up"]
        assert all(lines[i - 1].get("move") == "pass" for i in picked)
        pick_ups += len(picked)
        assert sum(1 for t in hand.summary.to_json()["tricks"] if t["end"] == "picked-up") == len(picked)
    assert hows["out"] > 0.9 * SIMULATED and hows["blocked"] and pick_ups > 3 * SIMULATED


# --- the record's tamper tests ---------------------------------------------------------------


@functools.cache
def record() -> list[dict]:
    return tamper_record("rolling-stone-tamper", 4, "rolling-stone", {"deals": 1})


def touched(lines: list[dict]) -> set[int]:
    """The header, the deal, the first pass and its pick-up, the first trick everyone followed (its
    last card and the next lead), and the end. The other lines are in tests/test_tamper.py."""
    kinds = [line["type"] for line in lines]
    out = {0, kinds.index("deal")}
    out |= {first(lines, "move", move="pass") + k for k in (0, 1, 2)}
    moves = [i for i, kind in enumerate(kinds) if kind == "move"]
    # After four plays in a row with no pick-up, the highest card leads.
    for a, b in zip(moves, moves[4:]):
        if b - a == 4 and all(lines[i].get("move") == "play" for i in range(a, b + 1)):
            out |= {b - 1, b}
            break
    return out | the_end(lines)


def test_every_single_edit_is_rejected_at_the_line_it_touches():
    lines = record()
    kinds = [line["type"] for line in lines]
    edited = {0, first(lines, "pick-up"), kinds.index("hand-end")}
    assert tamper._edits_missed(lines, edited, more_than=80) == ([], [])


def test_every_single_rewrite_that_breaks_the_rules_is_rejected():
    lines = record()
    assert tamper._forgeries_accepted(lines, touched(lines), at_least=300) == []


# --- tampered records, re-signed: the replay names what is wrong ------------------------------


@functools.cache
def session() -> tuple[dict, ...]:
    """A full session (one deal per player) for five seats, two of them human."""
    return session_record("rolling-stone-session", 5, "rolling-stone")


def test_a_pick_up_left_out_or_changed_is_refused():
    lines = session()
    i = first(lines, "pick-up")
    refused(tampered(lines, i, drop=True), i, "but the rules give a pick-up line here")
    refused(tampered(lines, i, lambda line: line.update(cards=line["cards"][:-1])), i, "pick-up cards")
    refused(tampered(lines, i, lambda line: line.update(seat=(line["seat"] + 1) % 5)), i, "pick-up seat")


def test_a_seat_that_could_follow_picks_up_instead_or_follows_with_another_suit():
    lines = session()
    j = answering_play(lines)  # it follows another seat's play in the same trick
    bad = tampered(lines, j, lambda line: (line.pop("card"), line.update(move="pass")))
    refused(bad, j, "illegal move pass", "you must follow suit when you can")


def test_the_trick_limit_in_the_header_is_part_of_the_game():
    lines = session()
    tricks = [line for line in lines if line.get("move") == "pass"]
    assert tricks
    # A limit of 1: the first trick's end blocks the deal, which the record does not show.
    bad = tampered(lines, 0, lambda line: line["options"].update(trick_limit=1))
    report = verify(bad, key=SIGNER.public_hex)
    assert not report.verified and "hand-end" in report.error.reason


def test_the_report_shows_every_deal_every_trick_and_the_standings():
    lines = session()
    report = verify(list(lines), key=SIGNER.public_hex)
    text = text_report(report)
    assert text.endswith("\nVERIFIED\n")
    assert len(report.hands) == 5
    for hand in report.hands:
        for cards in hand.summary.to_json()["deal"]:
            assert " ".join(Card.parse(c).display for c in cards) in text
            assert all(Card.parse(c).rank not in (2, 3, 4) for c in cards)  # 5 players: the 5s and 6s added
    tricks = sum(len(hand.summary.to_json()["tricks"]) for hand in report.hands)
    assert sum(1 for line in text.splitlines() if line.startswith("  trick ")) == tricks
    assert text.count(" cannot follow and picks it up") == sum(1 for line in lines if line["type"] == "pick-up")
    assert "; all followed: put aside, seat " in text
    final = lines[-2]["standings"]
    data = json.loads(json_report(report))
    assert data["verified"] is True and data["standings"] == final
    assert [h["tricks"] for h in data["hands"]] == [h.summary.to_json()["tricks"] for h in report.hands]


def test_the_move_by_move_replay_shows_the_trick_and_the_pick_ups(tmp_path):
    out = replayed_moves(tmp_path, session())
    assert any("; trick " in line and " play " in line for line in out)
    assert any(" picks up the trick: " in line for line in out)


def test_a_resigned_untouched_record_still_verifies():
    assert verify(resign(session(), SIGNER), key=SIGNER.public_hex).verified
