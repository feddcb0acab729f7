"""The pause between hands: a table that holds its deals writes the very record an unheld one does.

A table with people pauses after each hand's end until its people are ready (the service's
countdown); the pause is only *when* the next deal's lines are written, never *what* they are.
"""

from __future__ import annotations

import pytest

from fairdeal.fairness import game_key
from fairdeal.fairness import shuffle
from fairdeal.match import Match
from fairdeal.record import Signer
from fairdeal.rules import RULES
from fairdeal.rules import IllegalMove
from fairdeal.rules import get
from fairdeal.table import Seat
from fairdeal.table import Table
from fairdeal.table import TableError
from fairdeal.table import client_commitment
from verifier import verify

SIGNER = Signer.generate()
SEED = "5e" * 32
CREATED = "2026-01-01T00:00:00Z"


def _table(name: str, *, hold: bool, options: dict[str, int] | None = None) -> Table:
    rules = get(name, options)
    seats = [Seat(f"P{i}") for i in range(max(rules.min_seats, 3))]
    table = Table.new(f"hold-{name}", rules, seats, SIGNER, created=CREATED, server_seed=SEED, hold_deals=hold)
    _seeds(table)
    return table


def _seeds(table: Table) -> None:
    """Every human seat brings its client seed: the table starts with its people (none a bot)."""
    humans = [i for i, seat in enumerate(table.seats) if not seat.bot]
    for seat in humans:
        table.commit(seat, client_commitment(f"seed {seat}"))
    for seat in humans:
        table.reveal_client_seed(seat, f"seed {seat}")


def _play(table: Table, *, pauses: list[int] | None = None) -> Table:
    """Auto-moves to the match's end; a held table is dealt on at once after each pause."""
    while not table.match.over:
        if table.between_hands:
            if pauses is not None:
                pauses.append(table.seq)
            assert table.turn is None and table.legal_moves(0) == []
            table.next_hand()
            continue
        table.move(table.match.turn, table.match.auto_move(), auto=True)
    table.reveal()
    return table


@pytest.mark.parametrize("name", sorted(RULES))
def test_a_held_table_writes_the_same_record_byte_for_byte(name: str) -> None:
    pauses: list[int] = []
    held = _play(_table(name, hold=True), pauses=pauses)
    unheld = _play(_table(name, hold=False))
    assert held.record_text() == unheld.record_text()
    assert verify(held.record_text(), key=SIGNER.public_hex).verified
    # Every pause came right after a hand-end and was followed by the next deal's first line.
    for at in pauses:
        assert held.lines[at - 1]["type"] == "hand-end"
    assert len(pauses) == len(held.match.hands) - 1


def test_the_match_holds_its_deal_until_next_hand() -> None:
    rules = get("crazy-eights", {"target": 10_000})
    key = game_key(SEED, "m", ["", ""])
    held = Match(rules, 2, lambda label, cards: shuffle(key, label, cards), hold_deals=True)
    unheld = Match(rules, 2, lambda label, cards: shuffle(key, label, cards))
    events_held, events_unheld = held.start(), unheld.start()
    while not held.between_hands:
        move = held.auto_move()
        events_held += held.apply(held.turn, move, auto=True)
        events_unheld += unheld.apply(unheld.turn, move, auto=True)
    assert events_held[-1]["type"] == "hand-end" and held.turn is None
    with pytest.raises(IllegalMove, match="not dealt yet"):
        held.apply(0, unheld.auto_move())
    with pytest.raises(IllegalMove):
        held.auto_move()
    assert held.legal_moves(0) == [] and held.explain(0, held.view(0).hand[0]) == "the hand is over"
    events_held += held.next_hand()
    assert events_held == events_unheld and not held.between_hands and held.turn == unheld.turn
    with pytest.raises(IllegalMove, match="no hand is waiting"):
        held.next_hand()


def _to_first_pause() -> Table:
    table = _table("crazy-eights", hold=True, options={"target": 10_000})
    while not table.between_hands:
        table.move(table.match.turn, table.match.auto_move(), auto=True)
    return table


def test_a_table_restored_between_hands_is_between_hands() -> None:
    table = _to_first_pause()
    restored = Table.restore(table.lines, SEED, SIGNER, hold_deals=True)
    assert restored.between_hands and restored.turn is None and restored.seq == table.seq
    # Caught up line by line from before the pause, through it, and past the next deal.
    cut = table.seq - 3
    behind = Table.restore(table.lines[:cut], SEED, SIGNER, hold_deals=True)
    table.next_hand()
    table.move(table.match.turn, table.match.auto_move(), auto=True)
    behind.catch_up(table.lines[cut:])
    assert not behind.between_hands and behind.turn == table.turn is not None
    assert behind.record_text() == table.record_text()
    # An unheld restore of the same lines deals at once, as before.
    assert not Table.restore(table.lines, SEED, SIGNER).between_hands


def test_readiness_and_an_abandon_between_hands() -> None:
    table = _to_first_pause()
    with pytest.raises(TableError, match="not played by a person"):
        Table.ready(_with_bot(), 1)
    assert table.waiting == table.people == [0, 1, 2]
    assert not table.ready(0) and not table.ready(2)
    assert table.waiting == [1]
    assert table.ready(1)
    # Abandoned during the pause: the next deal is written first, so every hand-end that does
    # not end the match is followed by a deal, and the record verifies like any other.
    table.abandon()
    assert table.lines[-1]["type"] == "abandon" and table.lines[-2]["type"] != "hand-end"
    table.reveal()
    assert verify(table.record_text(), key=SIGNER.public_hex).verified
    with pytest.raises(TableError, match="no hand is waiting"):
        table.ready(0)


def _with_bot() -> Table:
    rules = get("crazy-eights", {"target": 10_000})
    table = Table.new(
        "hold-bot",
        rules,
        [Seat("Ann"), Seat("Bot", bot=True)],
        SIGNER,
        created=CREATED,
        server_seed=SEED,
        hold_deals=True,
    )
    _seeds(table)
    while not table.between_hands:
        table.move(table.match.turn, table.match.auto_move(), auto=True)
    assert table.people == [0]
    return table
