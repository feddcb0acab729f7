"""The face an operator embeds: ``from fairdeal import ...``, a Table that answers for itself
(made from its game, rules, seats and signer alone), one text form of a move and of a position
both ways, the server seed kept and never shown, a typed outcome, and ``fairdeal.verify``
without the CLI."""

import json

import pytest

import fairdeal
import fairdeal.fairness
from fairdeal import IllegalMove
from fairdeal import Move
from fairdeal import MoveError
from fairdeal import Outcome
from fairdeal import Seat
from fairdeal import Signer
from fairdeal import Standing
from fairdeal import Table
from fairdeal import TableError
from fairdeal import get_rules
from fairdeal import verify
from fairdeal.match import Match
from fairdeal.rules import RULES
from fairdeal.rules import PositionError

SIGNER = Signer.from_seed(bytes(32))


def bot_table(name: str, seats: int) -> Table:
    return Table.new(
        f"face-{name}",
        get_rules(name),
        [Seat(f"P{s}", bot=True) for s in range(seats)],
        SIGNER,
        created="2026-01-01T00:00:00Z",
        server_seed="ab" * 32,
    )


def test_the_face_imports_from_the_package():
    for name in ("Table", "Move", "IllegalMove", "verify", "get_rules", "Seat", "Signer", "catalogue"):
        assert name in fairdeal.__all__ and hasattr(fairdeal, name)


@pytest.mark.parametrize("name", list(RULES))
def test_every_move_of_every_game_reads_back_from_its_text(name):
    table = bot_table(
        name, RULES[name].min_seats + 1 if RULES[name].max_seats > RULES[name].min_seats else RULES[name].min_seats
    )
    kinds = set()
    for _ in range(400):
        if table.over:
            break
        seat = table.turn
        for move in table.legal_moves(seat):
            kinds.add(move.kind)
            assert Move.parse(str(move)) == move, str(move)
            assert Move.from_json(move.to_json()) == move
        table.move(seat, table.match.auto_move(), auto=True)
    assert "play" in kinds


def test_a_move_text_that_cannot_be_read_says_why():
    for text, reason in [
        ("fly", "unknown move 'fly'"),
        ("play", "a play names its card"),
        ("play 8H naming X", "X"),
        ("play 8H then", "'then' is followed by a card"),
        ("draw 8H", "a draw takes nothing after it"),
        ("bid three", "a bid is 'bid N'"),
        ("bid 0", "at least 1"),
        ("play 8H dancing", "unexpected 'dancing'"),
    ]:
        with pytest.raises(MoveError, match=reason):
            Move.parse(text)
    assert issubclass(MoveError, ValueError)


def test_a_table_answers_turn_moves_view_over_and_standings():
    table = Table.new(
        "face",
        get_rules("crazy-eights", {"target": 20}),
        [Seat("Ann"), Seat("Bot", bot=True)],
        SIGNER,
        created="2026-01-01T00:00:00Z",
        server_seed="00" * 32,
    )
    assert table.turn is None and table.legal_moves(0) == [] and not table.over
    with pytest.raises(TableError, match="has not started"):
        table.view(0)
    table.commit(0, fairdeal.client_commitment("seed"))
    table.reveal_client_seed(0, "seed")
    seat = table.turn
    assert seat in (0, 1) and table.legal_moves(1 - seat) == []
    assert table.view(seat).hand and table.view(None).hand == ()
    with pytest.raises(IllegalMove, match="not your turn"):
        table.move(1 - seat, Move.parse("draw"))
    while not table.over:
        table.move(table.turn, table.match.auto_move(), auto=True)
    assert table.turn is None and table.legal_moves(0) == []
    assert [row.place for row in table.standings] == sorted(row.place for row in table.standings)
    table.reveal()
    report = verify(table.record_text())
    assert report.verified and report.verdict == "VERIFIED"
    assert report.standings == table.standings and len(report.hands) == len(table.match.hands)


def test_verify_names_the_first_failing_line():
    table = bot_table("fan-tan", 3)
    while not table.over:
        table.move(table.turn, table.match.auto_move(), auto=True)
    table.reveal()
    lines = table.record_text().splitlines()
    first_move = next(i for i, line in enumerate(lines) if '"type":"move"' in line)
    lines[first_move] = lines[first_move].replace('"seat":', '"seat": ', 1)  # not canonical any more
    report = verify("\n".join(lines) + "\n")
    assert not report.verified and report.error.line == first_move + 1
    assert report.verdict.startswith(f"NOT VERIFIED: line {first_move + 1}: ")


# -- the defaults: a table from its game, rules, seats and signer alone --------------------------


def test_a_table_with_neither_clock_nor_created_reads_the_wall_clock(monkeypatch):
    monkeypatch.setattr("time.time", lambda: 1767225600.25)  # the wall clock, held still for the test
    table = Table.new("face-clock", get_rules("crazy-eights"), [Seat("A", bot=True), Seat("B", bot=True)], SIGNER)
    header = table.lines[0]
    assert (header["created"], header["at"]) == ("2026-01-01T00:00:00Z", "2026-01-01T00:00:00.250Z")
    assert len(table.server_seed) == 64 and table.commitment == fairdeal.fairness.commitment(table.server_seed)
    while not table.over:
        table.move(table.turn, table.match.auto_move(), auto=True, receipt=False)
    table.reveal()
    assert verify(table.record_text()).verified


def test_created_without_a_clock_still_stamps_every_line_with_it():
    texts = []
    for _ in range(2):
        table = bot_table("crazy-eights", 2)
        while not table.over:
            table.move(table.turn, table.match.auto_move(), auto=True, receipt=False)
        table.reveal()
        texts.append(table.record_text())
        assert {line["at"] for line in table.lines} == {"2026-01-01T00:00:00.000Z"}
    assert texts[0] == texts[1]  # reproducible


def test_a_created_that_is_no_time_names_the_field():
    with pytest.raises(TableError, match="created 'yesterday' is not a UTC date and time"):
        Table.new(
            "face", get_rules("crazy-eights"), [Seat("A", bot=True), Seat("B", bot=True)], SIGNER, created="yesterday"
        )


# -- the server seed: readable for storage, shown nowhere, closing nothing ------------------------


def test_the_server_seed_is_read_for_storage_without_closing_the_client_seeds():
    seed = "5e" * 32
    table = Table.new(
        "face-seed",
        get_rules("crazy-eights"),
        [Seat("Ann"), Seat("Bot", bot=True)],
        SIGNER,
        created="2026-01-01T00:00:00Z",
        server_seed=seed,
    )
    assert table.server_seed == seed and table.dealer.server_seed == seed and table.revealed_seed is None
    table.commit(0, fairdeal.client_commitment("ann"))  # reading the seed closed nothing
    table.reveal_client_seed(0, "ann")
    assert table.started
    for shown in (repr(table), repr(table.dealer), repr(table.match), table.record_text()):
        assert seed not in shown
    restored = Table.restore(table.lines, table.server_seed, SIGNER)
    assert restored.seq == table.seq and restored.server_seed == seed and seed not in repr(restored)


def test_a_bad_server_seed_is_refused_without_repeating_it():
    bad = "zz" * 32
    with pytest.raises(ValueError) as caught:
        Table.new(
            "face",
            get_rules("crazy-eights"),
            [Seat("A", bot=True), Seat("B", bot=True)],
            SIGNER,
            created="2026-01-01T00:00:00Z",
            server_seed=bad,
        )
    assert bad not in str(caught.value) and "server seed" in str(caught.value)


# -- the position: one exact text both ways --------------------------------------------------------


def test_a_tables_position_is_read_back_into_a_match_that_plays_on():
    table = bot_table("go-boom", 3)
    with pytest.raises(TableError, match="no position yet"):
        Table.new(
            "face-p", get_rules("go-boom"), [Seat("Ann"), Seat("Bot", bot=True)], SIGNER, created="2026-01-01T00:00:00Z"
        ).position()
    for _ in range(5):
        table.move(table.turn, table.match.auto_move(), auto=True)
    text = table.position()
    assert text.startswith('{"hand":1,') and " " not in text
    assert json.loads(text) == table.rules.state_to_json(table.match.state)
    match = Match.from_position(table.rules, text, table.dealer.shuffler)
    assert match.state == table.match.state and match.position() == text and match.seats == 3
    assert match.legal_moves(table.turn) == table.legal_moves(table.turn)
    move = table.match.auto_move()
    assert match.apply(table.turn, move) == table.match.apply(table.turn, move)


@pytest.mark.parametrize(
    "edit, error",
    [
        (lambda text: text.replace('"turn":', '"turn":9,"x":', 1), "unknown key 'x'"),
        (lambda text: text.replace('"turn":', '"turn":7,"turn":', 1), "'turn' is given twice"),
        (lambda text: text[:-1], "the position is not JSON"),
        (lambda text: text.replace('"hand":1', '"hand":NaN', 1), "NaN is not a JSON value"),
    ],
)
def test_a_position_that_cannot_be_read_says_what_is_wrong(edit, error):
    table = bot_table("go-boom", 3)
    with pytest.raises(PositionError, match=error):
        Match.from_position(table.rules, edit(table.position()), table.dealer.shuffler)


def test_a_position_error_names_its_field():
    table = bot_table("go-boom", 3)
    data = json.loads(table.position())
    data["hands"][1][0] = "1X"
    with pytest.raises(PositionError) as caught:
        Match.from_position(table.rules, json.dumps(data), table.dealer.shuffler)
    assert caught.value.field == "hands[1][0]" and isinstance(caught.value, ValueError)


# -- outcome and standings: typed, with the JSON they always had ---------------------------------


def test_the_outcome_of_a_finished_game_is_the_verifiers():
    table = bot_table("fan-tan", 3)
    assert table.outcome is None
    while not table.over:
        table.move(table.turn, table.match.auto_move(), auto=True, receipt=False)
    outcome = table.outcome
    assert outcome.standings == table.standings and outcome.abandoned is None
    assert all(isinstance(row, Standing) for row in table.standings)
    assert outcome.winners == tuple(row.seat for row in table.standings if row.place == 1) != ()
    assert table.lines[-1]["standings"] == [row.to_json() for row in table.standings]  # the record as before
    table.reveal()
    report = verify(table.record_text())
    assert report.outcome == outcome
    assert {k: report.to_json()[k] for k in ("standings", "abandoned")} == outcome.to_json()


def test_the_outcome_of_an_abandoned_game_is_its_reason():
    table = bot_table("crazy-eights", 2)
    table.move(table.turn, table.match.auto_move(), auto=True)
    table.abandon("the host left")
    assert table.outcome == Outcome(None, "the host left") and table.outcome.winners == ()
    assert Table.restore(table.lines, table.server_seed, SIGNER).outcome == table.outcome
    table.reveal()
    report = verify(table.record_text())
    assert report.verified and report.outcome == table.outcome
    assert report.to_json()["standings"] is None and report.to_json()["abandoned"] == "the host left"
