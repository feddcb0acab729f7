"""The verifier: what it reports of an honest record, and what it refuses.

Records come from the real Table and Match with fixed seeds (test_verifier_support).
"""

from __future__ import annotations

import doctest
import json

import pytest
from test_verifier_support import SIGNER
from test_verifier_support import auto_play
from test_verifier_support import new_table
from test_verifier_support import play
from test_verifier_support import seed_for
from test_verifier_support import text_of

import fairdeal.verification
import fairdeal.verification.receipts
import fairdeal.verification.replay
import verifier
import verifier.cli
import verifier.report
from fairdeal.cards import pack
from fairdeal.fairness import commitment
from fairdeal.fairness import game_key
from fairdeal.fairness import shuffle
from fairdeal.record import RecordError
from fairdeal.record import Signer
from fairdeal.record import canonical
from fairdeal.record import check_chain
from fairdeal.record import line_hash
from fairdeal.record import parse_record
from fairdeal.record import resign
from fairdeal.rules import get
from fairdeal.service.dealing import DealingSession
from fairdeal.table import Seat
from fairdeal.table import Table
from fairdeal.table import client_commitment
from fairdeal.verification import NOT_REVEALED
from fairdeal.verification import Failure
from fairdeal.verification import verify
from fairdeal.verification.replay import read_lines


@pytest.mark.parametrize(
    "module",
    [
        verifier,
        fairdeal.verification,
        fairdeal.verification.replay,
        fairdeal.verification.receipts,
        verifier.report,
        verifier.cli,
    ],
    ids=lambda m: m.__name__,
)
def test_docstring_examples(module):
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert attempted > 0
    assert failed == 0


# -- an honest record ---------------------------------------------------------


@pytest.fixture(scope="module")
def game():
    # A game id chosen for a record that shows everything: an eight turned back into
    # the stock, restocks, hands that went out and a blocked hand.
    return play("honest-454", 4, humans=2, options={"target": 100, "restock_limit": 2}, use_bots=False)


def test_an_honest_record_verifies_from_its_text_and_from_its_lines(game):
    for source in (game.text, game.text.encode(), game.lines):
        report = verify(source)
        assert report.verified, report.error
        assert report.error is None
    assert report.game_id == "honest-454"
    assert report.rules == "crazy-eights"
    assert report.options == {"target": 100, "restock_limit": 2}
    assert [s["name"] for s in report.seats] == ["P0", "P1", "P2", "P3"]
    assert report.lines == len(game.lines)
    assert report.moves == sum(1 for line in game.lines if line["type"] == "move")


def test_the_report_deals_every_hand_as_the_seed_dictates(game):
    """The report's deals are those of the protocol, derived here without the match."""
    report = verify(game.text)
    start = next(line for line in game.lines if line["type"] == "start")
    key = game_key(seed_for("honest-454"), "honest-454", start["client_seeds"])
    assert report.client_seeds == start["client_seeds"]
    assert len(report.hands) >= 2
    for hand in report.hands:
        order = shuffle(key, f"hand/{hand.hand}/deal", pack())
        first = (hand.dealer + 1) % 4
        # Five cards each, one at a time from the dealer's left.
        expected = [[order[i].code for i in range(20) if (first + i) % 4 == seat] for seat in range(4)]
        assert hand.deal == expected
        turned = [c.code for c in order[20:21]]
        assert hand.summary.to_json()["starter"] == hand.summary.to_json()["turned"][-1]
        if order[20].rank != 8:
            assert hand.summary.to_json()["turned"] == turned
        for restock in hand.summary.to_json()["restocks"]:
            assert len(restock["stock"]) > 0


def test_the_report_adds_up_scores_totals_and_standings(game):
    report = verify(game.text)
    running = [0, 0, 0, 0]
    ends = [line for line in game.lines if line["type"] == "hand-end"]
    assert len(ends) == len(report.hands)
    for hand, end in zip(report.hands, ends):
        running = [t + s for t, s in zip(running, hand.scores)]
        assert list(hand.totals) == running == end["totals"]
        assert list(hand.scores) == end["scores"]
        assert hand.how == end["how"] and list(hand.winners) == end["winners"]
    assert max(running) >= 100
    assert {hand.how for hand in report.hands} == {"out", "blocked"}
    assert [row.to_json() for row in report.standings] == game.lines[-2]["standings"]
    assert report.standings[0].total == max(running)


def test_json_shape_of_a_hand(game):
    data = verify(game.text).to_json()
    assert set(data) >= {"verified", "game_id", "rules", "hands", "standings", "error"}
    hand = data["hands"][0]
    assert set(hand) >= {"hand", "dealer", "deal", "starter", "restocks", "result", "scores", "totals"}
    assert set(hand["result"]) >= {"how", "winners", "counts"}
    assert all(isinstance(code, str) and len(code) == 2 for seat in hand["deal"] for code in seat)


# -- unfinished, abandoned ------------------------------------------------------


def test_a_game_in_progress_is_not_verified_the_seed_is_not_revealed():
    table = new_table("live", get("crazy-eights"), [Seat("Ann"), Seat("Bot", bot=True)], {0: "ann"})
    auto_play(table, moves=6)
    report = verify(table.writer.text())
    assert not report.verified
    assert report.error.line == len(table.lines)
    assert report.error.reason == NOT_REVEALED
    assert "not revealed" in report.error.reason


@pytest.mark.parametrize("cut", [1, 2, 5, 30])
def test_a_truncated_record_is_not_verified(game, cut):
    lines = game.lines[:-cut]
    report = verify(text_of(lines))
    assert not report.verified
    assert report.error.line <= len(lines)
    if lines[-1]["type"] not in ("hand-end", "match-end"):
        assert report.error.reason == NOT_REVEALED
    else:
        assert report.error.reason in (NOT_REVEALED, "the last line is not signed")


def test_a_record_cut_in_the_middle_of_a_line_is_not_verified(game):
    text = game.text
    report = verify(text[: len(text) - 40])
    assert not report.verified
    assert report.error.line == len(game.lines)
    assert "truncated" in report.error.reason


def test_an_abandoned_game_verifies_with_no_standings():
    game = play("abandoned", 3, humans=1, abandon_after=25)
    assert game.lines[-2]["type"] == "abandon"
    report = verify(game.text)
    assert report.verified, report.error
    assert report.abandoned == "the host closed the table"
    assert report.standings is None
    assert report.moves == 25


def test_a_game_abandoned_before_the_start_verifies():
    table = new_table("early", get("crazy-eights"), [Seat("Ann"), Seat("Bob")])
    table.commit(0, client_commitment("a"))
    table.abandon("nobody came")
    table.reveal()
    report = verify(table.writer.text())
    assert report.verified, report.error
    assert report.hands == [] and report.abandoned == "nobody came"


def test_a_host_start_makes_silent_seats_bots():
    game = play("silent", 4, humans=3, silent=1)
    start = next(line for line in game.lines if line["type"] == "start")
    assert start["client_seeds"][2] == "" and 2 in start["bots"]
    assert verify(game.text).verified


# -- versions, keys, encoding ---------------------------------------------------


def _resigned(lines, change, signer=SIGNER):
    lines = [dict(line) for line in lines]
    change(lines)
    return resign(lines, signer)


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        (
            "format",
            "fairdeal-record/3",
            "unknown record format 'fairdeal-record/3': this verifier reads fairdeal-record/1 and fairdeal-record/2",
        ),
        ("protocol", "fairdeal/v2", "unknown fairness protocol 'fairdeal/v2': this verifier knows fairdeal/v1 only"),
        ("rules", "whist", "header: unknown rules 'whist'"),
        ("options", {"target": 0}, "header: target must be between 1 and 100000 points"),
        ("options", {"target": True}, "header: option 'target' must be an integer, not True"),
        ("seats", [{"name": "solo", "bot": False}], "header seats: Crazy Eights is for 2 to 6 players, not 1"),
        (
            "seats",
            [{"name": "", "bot": False}, {"name": "b", "bot": True}],
            "header seat 0: a seat name is 1 to 40 characters",
        ),
        ("commitment", "AB" * 32, "header commitment is not 64 lowercase hex digits"),
    ],
)
def test_the_header_is_checked_first(game, field, value, reason):
    report = verify(_resigned(game.lines, lambda lines: lines[0].__setitem__(field, value)))
    assert not report.verified
    assert report.error.line == 1
    assert report.error.reason.startswith(reason)


REFUSED_CREATED = [
    "2026-01-01",  # a date alone
    "2026-01-01T00:00:00",  # a time without a zone
    "2026-01-01T05:00:00+05:00",  # an offset
    "2026-01-01T00:00:00+00:00",  # UTC, but not spelled Z
    "2026-W01-4T00:00:00Z",  # a week date
    "2026-001T00:00:00Z",  # an ordinal date
    "2026-01-01 00:00:00Z",  # a space for T
    "2026-01-01t00:00:00z",  # small letters
    "20260101T000000Z",  # the basic format
    "2026-01-01T00:00:00.5Z",  # a fraction of a second
    "2026-02-29T00:00:00Z",  # not a date: 2026 is no leap year
    "2026-01-01T24:00:00Z",  # not a time
    "2026-01-01T23:59:60Z",  # a leap second
    "٢٠٢٦-01-01T00:00:00Z",  # digits, but not ASCII ones
    20260101,
    None,
]


@pytest.mark.parametrize("created", REFUSED_CREATED, ids=repr)
def test_the_header_created_has_one_grammar(game, created):
    report = verify(_resigned(game.lines, lambda lines: lines[0].__setitem__("created", created)))
    assert report.error == Failure(
        1, f"header created {created!r} is not a UTC date and time written YYYY-MM-DDTHH:MM:SSZ"
    )
    if created is None:
        return  # a table or a session made without one reads the wall clock (tests/test_face.py)
    # Nor does a table or a dealing session write one.
    with pytest.raises(ValueError, match="is not a UTC date and time written YYYY-MM-DDTHH:MM:SSZ"):
        Table.new("when", get("crazy-eights"), [Seat("Ann"), Seat("Bob", bot=True)], SIGNER, created=created)
    with pytest.raises(ValueError, match="is not a UTC date and time written YYYY-MM-DDTHH:MM:SSZ"):
        DealingSession.new("when", 1, SIGNER, created=created)


@pytest.mark.parametrize("created", ["2028-02-29T23:59:59Z", "0001-01-01T00:00:00Z", "9999-12-31T12:30:05Z"])
def test_any_real_utc_second_is_a_created(game, created):
    def when(lines):
        lines[0]["created"] = created
        for line in lines:  # format 2: the header's at is its created, and no line is earlier
            line["at"] = created[:-1] + ".000Z"

    assert verify(_resigned(game.lines, when)).verified


def test_a_human_seat_that_reveals_the_empty_seed_is_a_human_with_an_empty_seed():
    # Bea commits to "" and reveals it: a seed like any other, and she plays her seat herself.
    seats = [Seat("Ann"), Seat("Bea"), Seat("Cid", bot=True)]
    table = new_table("empty-seed", get("crazy-eights", {"target": 10}), seats, {0: "ann's seed", 1: ""})
    start = next(line for line in table.lines if line["type"] == "start")
    assert start["client_seeds"] == ["ann's seed", "", ""] and start["bots"] == [2]
    assert table.bots == {2}
    auto_play(table)
    report = verify(table.writer.text())
    assert report.verified, report.error
    assert report.client_seeds == ["ann's seed", "", ""] and report.bots == [2]
    seat_lines = verifier.report.text_report(report).split("seats\n", 1)[1].splitlines()[:3]
    assert seat_lines == ['  0  Ann, client seed "ann\'s seed"', "  1  Bea, client seed ''", "  2  Cid (bot)"]
    assert json.loads(verifier.report.json_report(report))["seats"] == [
        {"name": "Ann", "bot": False},
        {"name": "Bea", "bot": False},
        {"name": "Cid", "bot": True},
    ]


def test_a_human_seat_without_a_seed_is_played_by_a_bot_in_the_report():
    game = play("silent", 4, humans=3, silent=1)
    report = verify(game.text)
    assert 2 in report.bots and report.client_seeds[2] == ""
    assert "  2  P2, no client seed (played by a bot)" in verifier.report.text_report(report).splitlines()


def test_a_pinned_key_must_be_the_records_key(game):
    assert verify(game.text, key=SIGNER.public_hex).verified
    other = Signer.from_seed(bytes(32))
    report = verify(game.text, key=other.public_hex)
    assert not report.verified
    assert report.error.line == 1
    assert "is not the key you gave" in report.error.reason
    # A record re-signed by another key verifies only without the pin.
    forged = text_of(resign(game.lines, other))
    assert verify(forged).verified
    assert not verify(forged, key=SIGNER.public_hex).verified


def test_every_line_must_be_canonical(game):
    lines = game.text.splitlines()
    lines[5] = lines[5].replace(",", ", ")
    report = verify("\n".join(lines) + "\n")
    assert (report.error.line, report.verified) == (6, False)
    assert report.error.reason.startswith("not in canonical form")
    # A key given twice is not canonical either (parsers disagree on which one counts).
    lines = game.text.splitlines()
    lines[3] = lines[3][:-1] + ',"type":"move"}'
    assert verify("\n".join(lines)).error.line == 4


def test_windows_line_ends_are_read(game):
    assert verify(game.text.replace("\n", "\r\n")).verified


def test_numbers_are_integers_only(game):
    lines = game.text.splitlines()
    lines[2] = lines[2].replace('"seq":2', '"seq":2.0')
    report = verify("\n".join(lines))
    assert report.error == Failure(3, "the number 2.0 is not an integer (records hold integers only)")


def test_true_is_not_one(game):
    """JSON true equals 1 in Python; a verifier in another language would read it differently."""
    ends = [i for i, line in enumerate(game.lines) if line["type"] == "hand-end"]
    moves = [i for i, line in enumerate(game.lines) if line["type"] == "move" and line["seat"] == 1]

    assert game.lines[ends[0]]["hand"] == 1
    report = verify(_resigned(game.lines, lambda lines: lines[ends[0]].__setitem__("hand", True)))
    assert not report.verified
    assert report.error == Failure(ends[0] + 1, "hand-end hand True but the rules give 1")
    report = verify(_resigned(game.lines, lambda lines: lines[moves[0]].__setitem__("seat", True)))
    assert not report.verified and report.error.reason == "move seat True is not a seat number"
    report = verify(_resigned(game.lines, lambda lines: lines[moves[0]].__setitem__("auto", 1)))
    assert not report.verified and report.error.reason == "move auto 1: auto is true when present"


def test_check_chain_refuses_a_boolean_seq_and_a_null_sig(game):
    """Two holes fixed in fairdeal.record.check_chain (true == 1 in Python; "sig": null)."""
    lines = [dict(line) for line in game.lines]
    lines[1]["seq"] = True
    lines = resign(lines, SIGNER)
    lines[1]["seq"] = True  # resign renumbers; put it back (hash of seq true)
    rechained = [lines[0], lines[1]]
    for line in game.lines[2:]:
        rechained.append({**line, "prev": line_hash(rechained[-1])})
    with pytest.raises(Exception, match="sequence number True, expected 1"):
        check_chain(rechained)
    lines = [dict(line) for line in game.lines]
    lines[-1]["sig"] = None
    with pytest.raises(Exception, match="bad signature"):
        check_chain(lines)


def test_parse_record_splits_only_at_newlines():
    """A seat name or client seed may hold U+2028 or U+0085, which canonical JSON leaves raw."""
    seats = [Seat("Ann\u2028Lee"), Seat("Bo\x85", bot=True)]
    table = new_table("names", get("crazy-eights", {"target": 10}), seats, {0: "seed\u2029"})
    auto_play(table)
    assert len(parse_record(table.writer.text())) == len(table.lines)
    report = verify(table.writer.text())
    assert report.verified, report.error
    assert report.seats[0]["name"] == "Ann\u2028Lee"


def test_not_a_record_at_all_raises_record_error():
    for data in (b"", b"\n", b"hello\n", b'{"type":"move"}\n', b"[1,2]\n", b"\xff\xfe\n", b'{"a":1}'):
        with pytest.raises(RecordError):
            read_lines(data)


def test_a_second_header_or_a_line_before_the_start(game):
    report = verify(_resigned(game.lines, lambda lines: lines.insert(1, dict(lines[0]))))
    assert report.error == Failure(2, "a second header")
    moved = _resigned(game.lines, lambda lines: lines.insert(1, {"type": "move", "seat": 0, "move": "draw"}))
    assert verify(moved).error == Failure(2, "a move line before the start (client seeds come first)")


def test_hashes_of_lines_read_from_text_are_their_line_hashes(game):
    lines, hashes, failure = read_lines(game.text)
    assert failure is None
    assert hashes == [line_hash(line) for line in game.lines]
    assert canonical(lines[0]) == game.text.splitlines()[0].encode()


def test_commitment_of_the_revealed_seed(game):
    report = verify(game.text)
    assert report.server_seed == seed_for("honest-454")
    assert commitment(report.server_seed) == report.commitment == game.lines[0]["commitment"]
