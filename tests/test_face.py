"""The face an operator embeds: ``from fairdeal import ...``, a Table that answers for itself,
one text form of a move both ways, and ``fairdeal.verify`` without the CLI."""

import pytest

import fairdeal
from fairdeal import IllegalMove, Move, MoveError, Seat, Signer, Table, TableError, get_rules, verify
from fairdeal.rules import RULES

SIGNER = Signer.from_seed(bytes(32))


def bot_table(name: str, seats: int) -> Table:
    return Table.new(f"face-{name}", get_rules(name), [Seat(f"P{s}", bot=True) for s in range(seats)], SIGNER,
                     created="2026-01-01T00:00:00Z", server_seed="ab" * 32)


def test_the_face_imports_from_the_package():
    for name in ("Table", "Move", "IllegalMove", "verify", "get_rules", "Seat", "Signer", "catalogue"):
        assert name in fairdeal.__all__ and hasattr(fairdeal, name)


@pytest.mark.parametrize("name", list(RULES))
def test_every_move_of_every_game_reads_back_from_its_text(name):
    table = bot_table(name, RULES[name].min_seats + 1 if RULES[name].max_seats > RULES[name].min_seats else RULES[name].min_seats)
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
    table = Table.new("face", get_rules("crazy-eights", {"target": 20}), [Seat("Ann"), Seat("Bot", bot=True)], SIGNER,
                      created="2026-01-01T00:00:00Z", server_seed="00" * 32)
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
    assert [row["place"] for row in table.standings] == sorted(row["place"] for row in table.standings)
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
