"""The Fan Tan family end to end: simulated sessions whose records the verifier replays, and
tampered records it refuses.

Records are built by the verifier tests' own driver (tests/test_verifier_support.py: the real
table and match with fixed seeds, bots and human seats that mix random moves with timed-out
auto-moves), for every game of the family.
"""

from __future__ import annotations

import functools

import pytest
from helpers import bare
from helpers import check_session_report
from helpers import first
from helpers import refused
from helpers import replayed_moves
from helpers import session_record
from helpers import tampered
from test_verifier_support import SIGNER
from test_verifier_support import SIMULATED
from test_verifier_support import play

from fairdeal.record import resign
from fairdeal.rules import get
from fairdeal.verification import verify

GAMES = ("fan-tan", "sjueren", "five-or-nine", "play-or-pay", "liberty-fan-tan")


@pytest.mark.parametrize("name", GAMES)
def test_simulated_sessions_of_each_game_verify(name):
    """:data:`~test_verifier_support.SIMULATED` one-deal sessions (``deals=1`` keeps this to
    seconds); every seat count the game allows, 0 to 2 human seats; the full-length sessions are in
    test_fan_tan.py and below."""
    rules = get(name)
    counts = range(rules.min_seats, rules.max_seats + 1)
    chip_lines = 0
    for n in range(SIMULATED):
        played = play(f"{name}-{n}", counts[n % len(counts)], humans=n % 3, rules=name, options={"deals": 1})
        report = verify(played.lines, key=SIGNER.public_hex)
        assert report.verified, (n, str(report.error))
        assert report.standings == played.table.match.standings
        assert len(report.hands) == 1
        chips = [line for line in played.lines if line["type"] == "chips"]
        assert [bare(c) for c in chips] == report.hands[0].summary.to_json()["chips"]
        chip_lines += len(chips)
    assert (chip_lines == 0) == (name == "sjueren")


# --- tampered records ---------------------------------------------------------------
#
# Each tamper is re-chained and re-signed with the server's own key (fairdeal.record.resign),
# so the chain and every signature hold: only replaying the rules can catch it.

CHIP_GAMES = tuple(name for name in GAMES if name != "sjueren")


@functools.cache
def session(name: str, variant: int = 0, **options: int) -> tuple[dict, ...]:
    """A full session (one deal per player) with two human seats that also time out."""
    # Bot seats play like the human ones (random moves, timeouts): the record must not change
    # when the bots get cleverer.
    return session_record(f"tamper-{name}-{variant}-{sorted(options.items())}", 4, name, options)


@pytest.mark.parametrize("name", GAMES)
def test_a_resigned_untouched_record_still_verifies(name):
    assert verify(resign(session(name), SIGNER), key=SIGNER.public_hex).verified


@pytest.mark.parametrize("name", GAMES)
def test_a_line_changed_without_new_signatures_breaks_the_chain(name):
    lines = [dict(line) for line in session(name)]
    i = first(lines, "move")
    lines[i]["seat"] = (lines[i]["seat"] + 1) % 4
    report = verify(lines, key=SIGNER.public_hex)
    # The changed move itself is refused, or else the next line's "prev".
    assert not report.verified and report.error.line in (i + 1, i + 2)


@pytest.mark.parametrize("name", GAMES)
def test_a_play_that_was_a_pass(name):
    lines = session(name)
    i = first(lines, "move", move="play", auto=None)
    bad = tampered(lines, i, lambda line: (line.pop("card"), line.update(move="pass")))
    refused(bad, i, "illegal move pass", "you must play when you can")


@pytest.mark.parametrize("name", GAMES)
def test_a_card_the_seat_could_not_play(name):
    lines = session(name)
    i = first(lines, "move", move="pass", auto=None)
    seat = lines[i]["seat"]
    hand = session_hand(name, lines, i, seat)
    bad = tampered(lines, i, lambda line: line.update(move="play", card=hand[0]))
    refused(bad, i, f"illegal move play {hand[0]} by seat {seat}")


def session_hand(name: str, lines, index: int, seat: int) -> list[str]:
    """The cards ``seat`` holds before line ``index``, from the replay of the untouched record."""
    seen = {}

    def watch(step):
        if step.line == index + 1 and step.before is not None:
            seen["hand"] = [c.code for c in step.before.hands[seat]]

    assert verify(list(lines), key=SIGNER.public_hex, watch=watch).verified
    return seen["hand"]


@pytest.mark.parametrize("name", GAMES)
def test_scores_and_standings_changed(name):
    lines = session(name)
    i = first(lines, "hand-end")
    bad = tampered(lines, i, lambda line: line["scores"].__setitem__(0, line["scores"][0] + 1))
    refused(bad, i, "hand-end scores", "but the rules give")
    j = first(lines, "match-end")
    bad = tampered(lines, j, lambda line: line["standings"][0].update(total=line["standings"][0]["total"] + 5))
    refused(bad, j, "match-end standings")


@pytest.mark.parametrize("name", GAMES)
def test_the_dealer_and_the_draw_for_the_deal(name):
    lines = session(name)
    i = first(lines, "deal")
    bad = tampered(lines, i, lambda line: line.update(dealer=(line["dealer"] + 1) % 4))
    refused(bad, i, "deal dealer", "the seed gives")
    j = first(lines, "draw-for-deal")
    bad = tampered(lines, j, lambda line: line.update(cards=line["cards"][1:]))
    refused(bad, j, "draw-for-deal cards", "the seed gives")


@pytest.mark.parametrize("name", CHIP_GAMES)
def test_a_chip_amount_changed(name):
    lines = session(name)
    i = first(lines, "chips", reason="pot")
    bad = tampered(lines, i, lambda line: line.update(amount=line["amount"] + 1))
    refused(bad, i, "chips amount", "but the rules give")


@pytest.mark.parametrize("name", CHIP_GAMES)
def test_a_chip_paid_by_another_seat(name):
    lines = session(name)
    i = first(lines, "chips", reason="pass")
    bad = tampered(lines, i, lambda line: line.update({"from": (line["from"] + 1) % 4}))
    refused(bad, i, "chips from", "but the rules give")


@pytest.mark.parametrize("name", CHIP_GAMES)
def test_a_chip_payment_left_out(name):
    lines = session(name)
    i = first(lines, "chips", reason="pass")
    refused(tampered(lines, i, drop=True), i, "but the rules give a chips line here")


@pytest.mark.parametrize("name", CHIP_GAMES)
def test_chips_from_nowhere(name):
    lines = session(name)
    i = first(lines, "move")
    gift = {"type": "chips", "hand": 1, "reason": "pot", "from": "pot", "to": lines[i]["seat"], "amount": 10}
    refused(tampered(lines, i, insert=gift), i, "a chips line where the rules expect a move")


@pytest.mark.parametrize("name", CHIP_GAMES)
def test_another_starting_stack_in_the_header(name):
    lines = session(name)
    bad = tampered(lines, 0, lambda line: line["options"].update(stack=60))
    i = first(lines, "hand-end")
    refused(bad, i, "hand-end totals")


def test_fan_tan_penalties_left_out_or_added():
    lines = session("fan-tan", passing=1)
    i = first(lines, "chips", reason="penalty")
    assert lines[i - 1]["reason"] == "pass" and lines[i - 2]["move"] == "pass"
    refused(tampered(lines, i, drop=True), i, "but the rules give")
    j = first(lines, "chips", reason="held-seven")
    refused(tampered(lines, j, lambda line: line.update(to=(line["to"] + 1) % 4)), j, "chips to", "but the rules give")
    refused(tampered(lines, j, drop=True), j, "but the rules give")
    # A pass that could not have been helped pays no penalty: one added is refused.
    k = next(n for n in range(len(lines) - 2) if lines[n].get("move") == "pass" and lines[n + 2].get("type") != "chips")
    fine = {**bare(lines[k + 1]), "reason": "penalty", "amount": 3}
    refused(tampered(lines, k + 2, insert=fine), k + 2, "a chips line where the rules expect")
    # The same record read as compulsory play: the penalized pass becomes illegal.
    bad = tampered(lines, 0, lambda line: line["options"].update(passing=0))
    refused(bad, i - 2, "illegal move pass", "you must play when you can")


# --- the verifier's report of a Fan Tan session ----------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_the_report_shows_every_deal_every_chip_and_the_standings(name):
    lines = session(name)
    report, text, data = check_session_report(lines, 4)
    chips = [line for line in lines if line["type"] == "chips"]
    if chips:
        pot = chips[-1]
        assert f"  chips: pot: {pot['amount']} from pot to seat {pot['to']} (P{pot['to']})" in text
    assert "  rows at the end: ♣ " in text
    assert [h["chips"] for h in data["hands"]] == [h.summary.to_json()["chips"] for h in report.hands]


def test_the_move_by_move_replay_shows_the_rows_and_the_antes(tmp_path):
    out = replayed_moves(tmp_path, session("fan-tan"))
    header = out.index(next(line for line in out if line.startswith("hand 1, dealer")))
    assert out[header + 5].startswith("  chips: ante: 1 from seat")
    assert any("; rows ♣ " in line and " play 7" in line for line in out)
