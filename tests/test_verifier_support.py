"""Records for the verifier's tests, built by the real table and match with fixed seeds.

Not a test module of its own (it holds one self-check); the verifier tests
import it. Seats that are bots in the header are played by
:mod:`fairdeal.bots`; human seats mix sensible moves (the heuristic bot's),
random legal moves and the table's timed-out auto-moves, so records hold
every kind of move line. ``use_bots=False`` leaves the bots out entirely.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from fairdeal.bots import make_bot
from fairdeal.record import Clock
from fairdeal.record import Signer
from fairdeal.record import canonical
from fairdeal.record import fixed_clock
from fairdeal.rules import get
from fairdeal.table import Seat
from fairdeal.table import Table
from fairdeal.table import Timing
from fairdeal.table import client_commitment

SIGNER = Signer.from_seed(bytes(range(32)))
CREATED = "2026-01-01T00:00:00Z"

SIMULATED = 250
"""How many seeded matches a "simulated matches verify" test plays of each game (tests/test_*_records.py,
tests/test_fan_tan_sessions.py): every seat count the test names with 0 to 2 human seats, each
record verified. The number is for variety, not for the odds of a rare case: with these seeds every
line type, every move kind (timed-out auto-moves, eights naming a suit, a play with a second card,
keeps and exchanges), every chips reason, every way a hand ends and every seat count with every
number of human seats first comes within the first 35 matches of each game's sweep (measured over
1,000 matches a game, when the sweeps played 1,000); 250 meets each of them several times over."""


def seed_for(label: str) -> str:
    """A fixed server seed per test label (tests only: a real seed comes from the CSPRNG)."""
    return hashlib.sha256(f"fairdeal tests/{label}".encode()).hexdigest()


@dataclass
class Played:
    table: Table
    receipts: list[dict[str, Any]] = field(default_factory=list)

    @property
    def lines(self) -> list[dict[str, Any]]:
        return self.table.lines

    @property
    def text(self) -> str:
        return self.table.writer.text()


def play(
    game_id: str,
    players: int = 3,
    *,
    humans: int = 2,
    rules: str = "crazy-eights",
    options: dict[str, int] | None = None,
    receipts: bool = False,
    silent: int = 0,
    abandon_after: int | None = None,
    reveal: bool = True,
    signer: Signer = SIGNER,
    use_bots: bool = True,
    clock: Clock | None = None,
    timing: Timing = Timing(),
) -> Played:
    """One whole game. ``humans`` seats bring client seeds, except the last ``silent``
    of them, which never reveal (the host starts without them: they become bots).

    ``receipts`` keeps every receipt the table gives (slower: each is signed);
    ``abandon_after`` abandons the game after that many moves. ``use_bots=False``
    plays bot seats like human ones (random legal moves and auto-moves, from the
    rules alone), for records that must not change when the bots get cleverer.
    ``clock`` and ``timing`` as :meth:`Table.new` takes them (default: every line at CREATED).
    """
    rng = random.Random(game_id)
    seats = [Seat(f"P{s}", bot=s >= humans) for s in range(players)]
    table = Table.new(
        game_id,
        get(rules, options),
        seats,
        signer,
        created=CREATED,
        clock=clock,
        timing=timing,
        server_seed=seed_for(game_id),
    )
    kept: list[dict[str, Any]] = []
    human = list(range(min(humans, players)))
    client = {s: f"seed of {game_id}/{s}" for s in human}
    for s in human:
        kept.append(table.commit(s, client_commitment(client[s])))
    revealing = human[: len(human) - silent]
    for s in revealing:
        kept.append(table.reveal_client_seed(s, client[s]))
    if not table.started:
        table.start()
    bots, players_bot = {}, None
    if use_bots:
        bots = {
            s: make_bot("heuristic" if (s + len(game_id)) % 2 else "random", seed=f"{game_id}/{s}") for s in table.bots
        }
        players_bot = make_bot("heuristic")  # a human seat's sensible moves
    match, rules_obj = table.match, table.rules
    moves = 0
    while not match.over:
        if abandon_after is not None and moves >= abandon_after:
            table.abandon("the host closed the table")
            break
        seat = match.turn
        auto = False
        if seat in bots:
            move = bots[seat].choose(rules_obj, match.view(seat))
        else:
            # (The fixed-id records of the tests depend on this exact sequence of draws.)
            luck = rng.random()
            if luck < 0.25:
                move, auto = match.auto_move(), True  # the turn timer ran out
            elif luck < 0.55 or players_bot is None:
                move = rng.choice(match.legal_moves(seat))
            else:
                move = players_bot.choose(rules_obj, match.view(seat))
        if receipts:
            kept.append(table.move(seat, move, auto=auto))
        else:
            # Table.move without its receipt (signing each receipt is most of the cost):
            # the same lines, appended the same way.
            table.writer.extend(match.apply(seat, move, auto=auto))
        moves += 1
    if reveal:
        table.reveal()
    return Played(table, kept)


def new_table(game_id: str, rules: Any, seats: list[Seat], seeds: dict[int, str] | None = None) -> Table:
    """A table of ``seats`` for ``rules`` signed by :data:`SIGNER`, made at :data:`CREATED` with
    the server seed :func:`seed_for` gives ``game_id``; ``seeds``: the client seeds human seats
    bring (all committed, then all revealed)."""
    table = Table.new(game_id, rules, seats, SIGNER, created=CREATED, server_seed=seed_for(game_id))
    for seat, seed in (seeds or {}).items():
        table.commit(seat, client_commitment(seed))
    for seat, seed in (seeds or {}).items():
        table.reveal_client_seed(seat, seed)
    return table


def auto_play(table: Table, moves: int | None = None) -> None:
    """The turn timer's auto-moves at a started ``table``: ``moves`` of them, or to the end of
    its match and its server seed's reveal."""
    while not table.match.over and (moves is None or moves > 0):
        table.move(table.match.turn, table.match.auto_move(), auto=True)
        moves = None if moves is None else moves - 1
    if moves is None:
        table.reveal()


def play_golden(game_id: str, players: int, **kwargs: Any) -> Played:
    """:func:`play` as tests/golden's format 2 records are played: a line every 250 ms, a 250 ms
    turn, and the bots' seats played like people's (``use_bots=False``: records that must not
    change when the bots get cleverer). ``kwargs`` as :func:`play` takes them."""
    return play(game_id, players, use_bots=False, clock=fixed_clock(CREATED, 250), timing=Timing(turn_ms=250), **kwargs)


def text_of(lines: list[dict[str, Any]]) -> str:
    """A record's text from its lines (canonical, one per line)."""
    return "".join(canonical(line).decode() + "\n" for line in lines)


def jsonl(items: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(item) + "\n" for item in items)


def write_records(folder: Any, ids: tuple[str, str], targets: tuple[int, int]) -> tuple[Played, int]:
    """The record files the command-line tests read, in ``folder``: a 3-player game with the
    receipts of its seats (``good.jsonl``, ``receipts.jsonl``), a 2-player one (``other.jsonl``),
    the first with its first hand's scores changed and re-signed (``scores.jsonl``), cut before its
    reveal (``unfinished.jsonl``), and two files that are no records (``notes.jsonl``,
    ``binary.jsonl``). The good game and the index of its first hand-end line."""
    from fairdeal.record import resign

    good = play(ids[0], 3, humans=2, receipts=True, options={"target": targets[0]}, use_bots=False)
    other = play(ids[1], 2, humans=1, options={"target": targets[1]}, use_bots=False)
    (folder / "good.jsonl").write_text(good.text)
    (folder / "other.jsonl").write_text(other.text)
    (folder / "receipts.jsonl").write_text(jsonl(good.receipts))
    lines = [dict(line) for line in good.lines]
    hand_end = next(i for i, line in enumerate(lines) if line["type"] == "hand-end")
    lines[hand_end]["scores"] = [s + 1 for s in lines[hand_end]["scores"]]
    (folder / "scores.jsonl").write_text(text_of(resign(lines, SIGNER)))
    (folder / "unfinished.jsonl").write_text(text_of(good.lines[:-1]))
    (folder / "notes.jsonl").write_text('{"note": "not a record"}\n')
    (folder / "binary.jsonl").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    return good, hand_end


def test_support_builds_the_same_record_as_table_move() -> None:
    # The receipt-free driver must write exactly what Table.move writes.
    with_receipts = play("support-1", 4, humans=2, receipts=True, options={"target": 50})
    without = play("support-1", 4, humans=2, receipts=False, options={"target": 50})
    assert with_receipts.text == without.text
    assert len(with_receipts.receipts) > 10
    assert any(line.get("auto") for line in without.lines)
    assert {line.get("move") for line in without.lines} >= {"play", "draw"}
