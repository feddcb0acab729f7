"""The run games end to end, Sequence here (Michigan's games and Commit in their own files, which
use the checks below): simulated one-deal matches verify; the record's tamper tests
(tests/test_tamper.py) run over a record of the game: every single edit is caught by the chain,
and every re-signed rewrite that breaks the rules by the replay; ``fairdeal simulate`` plays it.

Records are built by the verifier tests' own driver (tests/test_verifier_support.py: the real
table and match, fixed seeds, bots, and human seats that mix random moves with timed-out
auto-moves).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import test_tamper as tamper
from helpers import bare
from helpers import tamper_record
from helpers import the_end
from test_verifier_support import SIGNER
from test_verifier_support import SIMULATED
from test_verifier_support import play

from fairdeal.rules import get
from fairdeal.simulate import simulate
from fairdeal.verification import verify

# --- the checks each run game gets ------------------------------------------------------


def check_matches(name: str) -> set[str]:
    """:data:`~test_verifier_support.SIMULATED` one-deal matches of ``name`` (``deals=1`` keeps this
    to seconds; whole sessions are in the games' own tests), every seat count the game allows, 0 to
    2 human seats: each verifies,
    with the standings, every counter and every card the report shows. Returns the move kinds
    (``play-then`` for a play with a second card) and chips reasons the records held."""
    rules = get(name)
    counts = range(rules.min_seats, rules.max_seats + 1)
    seen: set[str] = set()
    for n in range(SIMULATED):
        played = play(f"{name}-{n}", counts[n % len(counts)], humans=n % 3, rules=name, options={"deals": 1})
        report = verify(played.lines, key=SIGNER.public_hex)
        assert report.verified, (n, str(report.error))
        assert report.standings == played.table.match.standings
        (hand,) = report.hands
        # Every counter that moved is in the report, as the record has it.
        chips = [bare(line) for line in played.lines if line["type"] == "chips"]
        assert chips == hand.summary.to_json().get("chips", [])
        # Every card is somewhere: on the table, left in a hand, dead, or a stop.
        where = [
            *sum(hand.summary.to_json()["runs"], []),
            *sum(hand.summary.to_json()["left"], []),
            *hand.summary.to_json().get("dead", []),
            *hand.summary.to_json().get("stops", []),
        ]
        assert len(where) == len(set(where)) == (51 if name == "commit" else 52)
        seen |= {line["reason"] for line in played.lines if line["type"] == "chips"}
        seen |= {line["move"] + ("-then" if "then" in line else "") for line in played.lines if line["type"] == "move"}
    return seen


@functools.cache
def record(game_id: str, name: str, seats: int) -> tuple[dict, ...]:
    """A one-deal record; human seats mix random moves with the timer's auto-moves, and bot seats
    play the same way (the record must not change when the bots get cleverer)."""
    return tuple(tamper_record(game_id, seats, name, {"deals": 1}))


def stops(lines) -> list[int]:
    """Lines where a seat leads again after its own card stopped the run (two moves in a row)."""
    return [
        i
        for i in range(1, len(lines))
        if lines[i]["type"] == lines[i - 1]["type"] == "move" and lines[i]["seat"] == lines[i - 1]["seat"]
    ]


def touched(lines) -> set[int]:
    """The lines to rewrite: the header, the deal and its first stakes, the dealer's say and the
    auction, the first pay card, spin, 9♦ and stop, and the end (the last move, the payments,
    the scores, the standings). The lines every game shares are in tests/test_tamper.py."""
    kinds = [line["type"] for line in lines]
    deal = kinds.index("deal")
    out = {0, deal, deal + 1, deal + 2}
    for i, line in enumerate(lines):
        if line.get("move") in ("keep", "exchange", "auction", "bid") or line.get("reason") == "auction":
            out.add(i)
    for wanted in ("pay-card", "pair", "nine-of-diamonds"):
        hits = [i for i, line in enumerate(lines) if line.get("reason") == wanted]
        if hits:
            out |= {hits[0] - 1, hits[0]}
    spins = [i for i, line in enumerate(lines) if "then" in line]
    if spins:
        out |= {spins[0], spins[0] + 1}
    found = stops(lines)
    out |= {found[0] - 1, found[0]}
    return out | the_end(lines)


def edited(lines) -> set[int]:
    """For the forger's edits, fewer lines: the chain does not care which game it is."""
    kinds = [line["type"] for line in lines]
    marked = [
        i for i, line in enumerate(lines) if "then" in line or line.get("move") == "bid" or line["type"] == "hand-end"
    ]
    return {0, kinds.index("deal") + 1, *marked[:3]}


def check_edits(lines) -> None:
    """Every single edit of ``lines`` is rejected, at the line it touches or the next."""
    assert tamper._edits_missed(list(lines), edited(lines), more_than=100) == ([], [])


def same_auction(lines, changed) -> bool:
    """Whether ``changed`` differs from ``lines`` only in a bid that still loses: the same buyer at
    the same price, so the server could have written it (another valid record)."""
    diff = [i for i, (a, b) in enumerate(zip(lines, changed)) if bare(a) != bare(b)]
    if len(lines) != len(changed) or len(diff) != 1:
        return False
    old, new = lines[diff[0]], changed[diff[0]]
    if (
        old.get("move") != "bid"
        or set(bare(new)) != set(bare(old))
        or {k for k in bare(old) if old[k] != new[k]} != {"amount"}
    ):
        return False
    amount = new["amount"]
    if type(amount) is not int or not 1 <= amount <= get(lines[0]["rules"], lines[0]["options"]).options["max_bid"]:
        return False

    def winner(record) -> tuple[Any, ...]:
        bids = [(line["amount"], line["seat"]) for line in record if line.get("move") == "bid"]
        best = max(a for a, _ in bids)
        return best, next(s for a, s in bids if a == best)

    return winner(lines) == winner(changed)


def check_rewrites(lines) -> None:
    """Every re-signed single rewrite of the :func:`touched` lines that breaks the rules is refused
    (those that make another valid record are allowed: tests/test_tamper.py, and a losing bid
    changed to another losing bid)."""
    lines = list(lines)
    assert tamper._forgeries_accepted(lines, touched(lines), at_least=300, also_valid=same_auction) == []


def check_simulate(name: str, out: Path) -> None:
    """``fairdeal simulate`` plays whole sessions of ``name`` whose records verify."""
    players = get(name).min_seats + 1
    paths = simulate(name, players, 2, out, seed=f"sim-{name}", bot="mixed")
    assert len(paths) == 2
    for path in paths:
        report = verify(path.read_text())
        assert report.verified and report.rules == name and len(report.hands) == players


# --- Sequence -------------------------------------------------------------------------------

SEQUENCE = ("run-tamper-sequence-0", "sequence", 3)


def test_simulated_matches_verify():
    assert check_matches("sequence") == {"play"}


def test_the_record_holds_a_stop_after_which_the_same_seat_leads():
    assert stops(record(*SEQUENCE))


def test_every_single_edit_is_rejected_at_the_line_it_touches():
    check_edits(record(*SEQUENCE))


def test_every_single_rewrite_that_breaks_the_rules_is_rejected():
    check_rewrites(record(*SEQUENCE))


def test_fairdeal_simulate_plays_sequence(tmp_path):
    check_simulate("sequence", tmp_path)
