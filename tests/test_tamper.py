"""Every change to a record is rejected.

Two kinds of forger: one who edits a record (the hash chain and the
signatures catch it), and the server itself, who can re-chain and re-sign
whatever it likes (fairdeal.record.resign): then the replay must catch every
change the rules or the seed do not allow, with the right reason.

The records are short real games (fixed seeds, chosen so that between them
they hold draws, keeps, eights naming a suit, auto-moves, a restock, a silent
seat, an abandon); each single mutation is verified on its own.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from test_verifier_support import SIGNER
from test_verifier_support import play
from test_verifier_support import seed_for
from test_verifier_support import text_of

from fairdeal.cards import ALL_CARDS
from fairdeal.cards import Card
from fairdeal.fairness import client_commitment
from fairdeal.fairness import commitment
from fairdeal.record import RecordError
from fairdeal.record import RecordWriter
from fairdeal.record import canonical
from fairdeal.record import check_at
from fairdeal.record import check_created
from fairdeal.record import resign
from fairdeal.verification import Failure
from fairdeal.verification import Step
from fairdeal.verification import verify

RECORDS = {
    # 2 players, 1 human: draws, a keep, an eight naming a suit, auto-moves; 43 lines.
    "two": dict(game_id="short-2-10", players=2, humans=1, options={"target": 10}),
    # 3 players, 3 humans of whom one never reveals its seed (the host starts without it); 37 lines.
    "three": dict(game_id="short-3-46", players=3, humans=3, silent=1, options={"target": 10}),
    # 4 players, abandoned after 14 moves; 24 lines.
    "abandoned": dict(game_id="tamper-4-0", players=4, humans=2, abandon_after=14),
}
# A longer game with a restock (96 lines), for the reasons and for the lines around its restock.
LONG = dict(game_id="tamper-2-32", players=2, humans=1, options={"target": 15, "restock_limit": 1})


def _play(name: str):
    spec = dict(LONG if name == "long" else RECORDS[name])
    return play(spec.pop("game_id"), spec.pop("players"), use_bots=False, **spec)


@pytest.fixture(scope="module", params=sorted(RECORDS))
def record(request):
    game = _play(request.param)
    assert verify(game.text).verified
    return game


# -- mutations ----------------------------------------------------------------------


def _hex_flip(text: str) -> str:
    return text[:-1] + ("0" if text[-1] != "0" else "1")


def _variants(value: Any) -> Iterator[Any]:
    """Other values for a field: the same type changed, and other JSON types (never the value itself)."""
    for other in _candidates(value):
        if canonical(other) != canonical(value):
            yield other


def _candidates(value: Any) -> Iterator[Any]:
    if value is None:
        yield 0
        yield ""
    elif isinstance(value, bool):
        yield not value
        yield int(value)
    elif isinstance(value, int):
        yield value + 1
        yield value - 1
        yield bool(value)
        yield str(value)
    elif isinstance(value, str):
        if len(value) in (64, 128) and all(c in "0123456789abcdef" for c in value):
            yield _hex_flip(value)
        elif value in {card.code for card in ALL_CARDS}:
            card = Card.parse(value)
            yield ALL_CARDS[(card.index + 1) % 52].code
            yield ALL_CARDS[(card.index + 13) % 52].code
        else:
            yield value + "x"
        yield ""
        yield 0
    elif isinstance(value, list):
        if value:
            yield value[:-1]
            yield value + value[-1:]
            if len(value) > 1 and value != value[::-1]:
                yield value[::-1]
            for other in _variants(value[0]):
                yield [other, *value[1:]]
        else:
            yield [0]
    elif isinstance(value, dict):
        yield {}
        if value:
            key = sorted(value)[0]
            for other in _variants(value[key]):
                yield {**value, key: other}
    if value is not None:
        yield None


def mutations(
    lines: list[dict[str, Any]], only: set[int] | None = None
) -> Iterator[tuple[str, int, list[dict[str, Any]]]]:
    """Every single mutation: (description, index of the first line it touches, new lines).

    ``only`` limits them to those lines. Only the touched line is copied (the
    others are shared, and never changed).
    """

    def with_line(i: int, line: dict[str, Any]) -> list[dict[str, Any]]:
        return [*lines[:i], line, *lines[i + 1 :]]

    for i, line in enumerate(lines):
        if only is not None and i not in only:
            continue
        for key in sorted(line):
            for value in _variants(line[key]):
                yield f"line {i + 1} {key} = {value!r}", i, with_line(i, {**line, key: value})
            yield f"line {i + 1} without {key}", i, with_line(i, {k: v for k, v in line.items() if k != key})
        yield f"line {i + 1} with an extra field", i, with_line(i, {**line, "note": "x"})
        yield f"line {i + 1} dropped", i, lines[:i] + lines[i + 1 :]
        yield f"line {i + 1} twice", i, lines[: i + 1] + lines[i:]
        if i + 1 < len(lines):
            yield f"lines {i + 1} and {i + 2} swapped", i, lines[:i] + [lines[i + 1], lines[i]] + lines[i + 2 :]
    if only is None:
        yield "first and last lines swapped", 0, [lines[-1], *lines[1:-1], lines[0]]


def _rejected(text: str) -> tuple[bool, Failure | None]:
    try:
        report = verify(text)
    except RecordError:
        return True, None  # not even a record (its first line is no longer a header)
    return not report.verified, report.error


def _edits_missed(lines, only, more_than):
    """The forger's single edits of the ``only`` lines (more than ``more_than`` of them) that
    verify, and those caught later than the next line: the tests of each game's records want
    ``([], [])``."""
    accepted, late, count = [], [], 0
    for what, index, changed in mutations(lines, only):
        count += 1
        rejected, error = _rejected(text_of(changed))
        if not rejected:
            accepted.append(what)
        elif error is not None and error.line > index + 2:
            late.append(f"{what}: {error}")
    assert count > more_than
    return accepted, late


# -- an edited record: the chain catches it ------------------------------------------


def test_every_single_edit_is_rejected_at_the_line_it_touches(record):
    lines = record.lines
    accepted, late, count = [], [], 0
    for what, index, changed in mutations(lines):
        count += 1
        rejected, error = _rejected(text_of(changed))
        if not rejected:
            accepted.append(what)
        elif error is None:
            assert index == 0 or what.startswith("first and last"), what
        elif error.line > index + 2:
            # The change is caught at the line itself, or at the next one whose prev no longer matches.
            late.append(f"{what}: {error}")
    assert count > 500
    assert accepted == []
    assert late == []


def test_an_edited_signature_or_seed_is_rejected(record):
    lines = copy.deepcopy(record.lines)
    lines[-1]["sig"] = _hex_flip(lines[-1]["sig"])
    assert verify(text_of(lines)).error == Failure(len(lines), "bad signature")
    lines = copy.deepcopy(record.lines)
    lines[-1]["server_seed"] = _hex_flip(lines[-1]["server_seed"])
    assert not verify(text_of(lines)).verified


# -- a rewritten record, re-chained and re-signed: the replay catches it ----------------


def _iso(value: Any) -> bool:
    try:
        check_created(value)
    except ValueError:
        return False
    return True


def _times_hold(lines: list[dict[str, Any]]) -> bool:
    """Format 2's times, checked apart from the verifier: each well formed, none going back,
    the header's the same second as its created (these records' turns have no time: turn_ms 0)."""
    try:
        times = [check_at(line.get("at")) for line in lines]
    except ValueError:
        return False
    return (
        times == sorted(times)
        and lines[0]["at"][:19] + "Z" == lines[0]["created"]
        and lines[0]["timing"]["turn_ms"] == 0
    )


def _event(line: dict[str, Any]) -> bytes:
    """A line without its chain fields, as canonical JSON (in Python true == 1; in a record they differ)."""
    return canonical({k: v for k, v in line.items() if k not in ("seq", "prev", "sig", "server_key")})


def _may_verify(lines: list[dict[str, Any]], changed: list[dict[str, Any]]) -> bool:
    """Whether a server could legitimately have written ``changed`` instead of ``lines``:
    then the re-signed record is a different valid record, and the verifier must not be
    expected to refuse it. Everything else must be refused.
    """
    old_events, new_events = [_event(line) for line in lines], [_event(line) for line in changed]
    if old_events == new_events:
        return True  # only the chain fields changed, which resign rebuilds
    types = [line["type"] for line in lines]
    if len(changed) == len(lines) - 1:
        # The last move before an abandon, dropped: the game was abandoned a move earlier.
        gone = next(i for i, (a, b) in enumerate(zip(old_events, new_events + [b""])) if a != b)
        return types[gone] == "move" and types[gone + 1] == "abandon" and old_events[gone + 1 :] == new_events[gone:]
    if len(changed) != len(lines):
        return False
    diff = [i for i, (a, b) in enumerate(zip(old_events, new_events)) if a != b]
    if len(diff) == 2 and diff[1] == diff[0] + 1 and old_events[diff[0]] == new_events[diff[1]]:
        i, j = diff
        # Two seats' commitments (or reveals) in the other order; a seat's two draws
        # of which one was made by the timer (auto) and the other by the player.
        if types[i] == types[j] in ("client-commit", "client-reveal"):
            return True
        same_draws = all(lines[k]["type"] == "move" and lines[k]["move"] == "draw" for k in (i, j))
        return same_draws and lines[i]["seat"] == lines[j]["seat"]
    if len(diff) != 1:
        return False
    old, new = lines[diff[0]], changed[diff[0]]
    kind = old["type"]
    keys = {k for k in set(old) | set(new) if k not in old or k not in new or canonical(old[k]) != canonical(new[k])}
    keys -= {"seq", "prev", "sig", "server_key"}
    if keys == {"at"}:
        return _times_hold(changed)  # another time of writing, as long as the times still hold
    if kind == "header" and keys == {"timing"}:
        # Another bot pace or pause (nothing the verifier can check), the same turn.
        timing = new.get("timing")
        return (
            isinstance(timing, dict)
            and timing.keys() == old["timing"].keys()
            and all(type(v) is int and v >= 0 for v in timing.values())
            and timing["turn_ms"] == old["timing"]["turn_ms"]
        )
    if kind == "header" and keys <= {"created", "note", "seats", "options"}:
        # Another date, extra field, seat name (1 to 40 characters) or option value the
        # game never reached (a complete set of integers) is another valid header.
        seats, options = new.get("seats"), new.get("options")
        if "created" in keys and not _iso(new.get("created")):
            return False
        if "seats" in keys and not (
            isinstance(seats, list)
            and len(seats) == len(old["seats"])
            and all(isinstance(s, dict) and isinstance(s.get("name"), str) and 1 <= len(s["name"]) <= 40 for s in seats)
            and [canonical({**s, "name": ""}) for s in old["seats"]] == [canonical({**s, "name": ""}) for s in seats]
        ):
            return False
        if "options" in keys and not (
            isinstance(options, dict)
            and options.keys() == old["options"].keys()
            and all(type(v) is int and v > 0 for v in options.values())
        ):
            return False
        return True
    if kind == "client-commit" and keys == {"commitment"} and "commitment" in new:
        # A seat that never reveals (the host started without it) never opens its commitment.
        reveals = {line["seat"] for line in lines if line["type"] == "client-reveal"}
        return old["seat"] not in reveals and isinstance(new["commitment"], str) and len(new["commitment"]) == 64
    if kind == "move" and keys == {"auto"} and "auto" not in new:
        return True  # the same move made by the player instead of by the timer
    if kind == "abandon" and keys == {"reason"}:
        return isinstance(new.get("reason"), str)
    return False


def test_every_single_rewrite_that_breaks_the_rules_is_rejected(record):
    assert _forgeries_accepted(record.lines) == []


def test_every_rewrite_around_a_restock_and_a_hand_end_is_rejected(long):
    lines = long.lines
    restock = _first(lines, lambda l: l["type"] == "restock")
    end = _first(lines, lambda l: l["type"] == "hand-end")
    only = {restock - 1, restock, restock + 1, end - 1, end, end + 1}
    assert _forgeries_accepted(lines, only, at_least=100) == []


class _Resigned:
    """``resign(changed, SIGNER)`` and its text, for the single mutations of one record, without
    re-signing and re-writing the lines before the one a mutation touches: those are the same
    lines, hashes and signatures as in the honest record re-signed (resign is deterministic, and
    Ed25519 signatures are too), so only the lines from the touched one on are signed again, by the
    same :class:`RecordWriter` steps that :func:`resign` takes. A mutation of the header is
    re-signed whole. The first re-signing from each line is also done whole and compared, so the
    shortcut is checked against :func:`resign` in every test that uses it."""

    def __init__(self, lines: list[dict[str, Any]]) -> None:
        self.honest = resign(lines, SIGNER)
        self.texts = [canonical(line).decode() + "\n" for line in self.honest]
        self.checked: set[int] = set()

    def forged(self, index: int, changed: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], str]:
        if index == 0:
            forged = resign(changed, SIGNER)
            return forged, text_of(forged)
        writer = RecordWriter(SIGNER, self.honest[:index])
        for line in changed[index:]:
            writer.append(
                {k: v for k, v in line.items() if k not in ("seq", "prev", "sig")}, sign=("sig" in line) or None
            )
        forged = writer.lines
        if index not in self.checked:
            self.checked.add(index)
            assert forged == resign(changed, SIGNER), f"re-signing from line {index + 1} is not resign's"
        return forged, "".join(self.texts[:index]) + text_of(forged[index:])


def _forgeries_accepted(lines, only=None, at_least=500, also_valid=None):
    """The re-signed single mutations of ``lines`` that verify though they should not
    (``also_valid(lines, changed)``: another valid record in this game, beyond :func:`_may_verify`).

    Every mutation is re-signed and verified from its text, as a whole record; what they share
    with the honest record (its lines before the touched one, re-signed) is made once
    (:class:`_Resigned`)."""
    accepted, count = [], 0
    resigned = _Resigned(lines)
    for what, index, changed in mutations(lines, only):
        if what.startswith("first and last") or "without type" in what:
            continue
        try:
            forged, text = resigned.forged(index, changed)
        except (KeyError, TypeError, AttributeError, ValueError):
            continue  # resign itself needs a header with a game id to sign with
        count += 1
        rejected, _error = _rejected(text)
        if not rejected and not _may_verify(lines, changed) and not (also_valid and also_valid(lines, changed)):
            accepted.append(what)
    assert count >= at_least
    return accepted


def test_rewrites_that_make_another_valid_record_verify():
    """The other side: the verifier does not refuse what the format allows."""
    game = _play("abandoned")
    lines = game.lines
    move = _first(lines, lambda l: l["type"] == "move" and l.get("auto"))
    commits = [i for i, l in enumerate(lines) if l["type"] == "client-commit"]
    rewrites = {
        "a seat's name": lambda ls: ls[0]["seats"][0].__setitem__("name", "Ann Lee ♥"),
        "the creation time": lambda ls: (
            [ls[0].__setitem__("created", "2026-02-03T04:05:06Z")]
            + [line.__setitem__("at", "2026-02-03T04:05:06.500Z") for line in ls]
        ),
        "an extra header field": lambda ls: ls[0].__setitem__("timer", {"seconds": 20}),
        "the abandon's reason": lambda ls: ls[-2].__setitem__("reason", ""),
        "a timed-out move made by the player": lambda ls: ls[move].pop("auto"),
        "commitments in the other order": lambda ls: ls.__setitem__(
            slice(commits[0], commits[1] + 1), [ls[commits[1]], ls[commits[0]]]
        ),
        "an extra signature": lambda ls: ls[move].__setitem__("sig", "0" * 128),
    }
    for what, change in rewrites.items():
        changed = copy.deepcopy(lines)
        change(changed)
        report = verify(text_of(resign(changed, SIGNER)))
        assert report.verified, f"{what}: {report.error}"


# -- rewrites with the reason a person needs -------------------------------------------


@pytest.fixture(scope="module")
def long():
    return _play("long")


@pytest.fixture(scope="module")
def two(long):
    return long


def _forge(lines, change):
    lines = copy.deepcopy(lines)
    change(lines)
    return verify(text_of(resign(lines, SIGNER)))


def _first(lines, predicate):
    return next(i for i, line in enumerate(lines) if predicate(line))


def _states_before_moves(game) -> dict[int, Any]:
    """The hand's state before each move line (by index), from the verifier's own replay."""
    states = {}

    def watch(step: Step) -> None:
        if step.before is not None:
            states[step.line - 1] = step.before

    assert verify(game.text, watch=watch).verified
    return states


def test_an_illegal_card_is_named_with_its_reason(two):
    """The reason a person reads: which card, which seat, and why it does not fit."""
    lines = two.lines
    states = _states_before_moves(two)
    # A card the seat does not hold.
    i = _first(lines, lambda l: l["type"] == "move" and l["move"] == "play" and not l.get("auto"))
    seat, state = lines[i]["seat"], states[i]
    absent = next(c for c in ALL_CARDS if c not in state.hands[seat] and c.rank != 8)
    report = _forge(lines, lambda ls: ls[i].__setitem__("card", absent.code))
    assert report.error == Failure(
        i + 1, f"illegal move play {absent.code} by seat {seat}: you do not hold {absent.display}"
    )
    # A card it holds that does not follow the suit an eight named.
    for i, line in enumerate(lines):
        state = states.get(i)
        if state is None or line["move"] != "play" or line.get("auto") or state.named is None or state.drawn:
            continue
        seat = line["seat"]
        wrong = [c for c in state.hands[seat] if c.suit != state.named and c.rank != 8]
        if not wrong:
            continue
        card = wrong[0]
        report = _forge(lines, lambda ls: (ls[i].__setitem__("card", card.code), ls[i].pop("suit", None)))
        assert report.error == Failure(
            i + 1,
            f"illegal move play {card.code} by seat {seat}: {card.display} does not match "
            f"{state.named.symbol}, the suit named with {state.top.display}",
        )
        break
    else:
        pytest.fail("no play after a named suit in this record")
    # An eight must name a suit; no other card may.
    j = _first(lines, lambda l: l["type"] == "move" and l.get("suit") and not l.get("auto"))
    report = _forge(lines, lambda ls: ls[j].pop("suit"))
    assert report.error == Failure(
        j + 1,
        f"illegal move play {lines[j]['card']} by seat {lines[j]['seat']}: "
        f"name a suit for {Card.parse(lines[j]['card']).display}",
    )


def test_a_wrong_auto_move(two):
    lines = two.lines
    i = _first(lines, lambda l: l.get("auto") and l["move"] == "play" and l["card"][0] != "8")
    report = _forge(lines, lambda ls: ls[i].update(move="draw", card=None) or ls[i].pop("card"))
    assert report.error.line == i + 1
    assert (
        report.error.reason
        == f"illegal move draw by seat {lines[i]['seat']}: the auto-move here is play {lines[i]['card']}"
    )


def test_a_wrong_score_claim(two):
    lines = two.lines
    i = _first(lines, lambda l: l["type"] == "hand-end")
    true_scores = lines[i]["scores"]
    claimed = [s + 4 if s else s for s in true_scores]
    report = _forge(lines, lambda ls: ls[i].__setitem__("scores", claimed))
    assert report.error == Failure(i + 1, f"hand-end scores {claimed} but the rules give {true_scores}")


def test_a_wrong_total_and_a_wrong_winner(two):
    lines = two.lines
    i = _first(lines, lambda l: l["type"] == "hand-end")
    report = _forge(lines, lambda ls: ls[i].__setitem__("winners", [1 - ls[i]["winners"][0]]))
    assert report.error.reason.startswith("hand-end winners")
    j = _first(lines, lambda l: l["type"] == "match-end")
    standings = copy.deepcopy(lines[j]["standings"])
    standings[0]["total"] += 1
    report = _forge(lines, lambda ls: ls[j].__setitem__("standings", standings))
    assert report.error.line == j + 1 and report.error.reason.startswith("match-end standings")


def test_a_wrong_seed_does_not_match_the_commitment(two):
    other = seed_for("another seed")
    report = _forge(two.lines, lambda ls: ls[-1].__setitem__("server_seed", other))
    assert report.error == Failure(
        len(two.lines), "the revealed server seed does not match the commitment in the header"
    )


def test_a_seed_committed_in_the_header_but_not_the_one_that_dealt(two):
    """A server that commits to seed B and reveals B, but dealt with seed A: the deal says so."""
    other = seed_for("another seed")

    def swap_seed(ls):
        ls[0]["commitment"] = commitment(other)
        ls[-1]["server_seed"] = other

    report = _forge(two.lines, swap_seed)
    i = _first(two.lines, lambda l: l["type"] == "draw-for-deal")
    assert report.error.line == i + 1
    assert report.error.reason.startswith("draw-for-deal cards [") and "but the seed gives [" in report.error.reason


def test_a_deal_that_does_not_match_the_seed(two):
    lines = two.lines
    i = _first(lines, lambda l: l["type"] == "deal")
    truth = lines[i]["turned"]
    claim = ["8S", "9C"] if truth != ["8S", "9C"] else ["4D"]
    report = _forge(lines, lambda ls: ls[i].__setitem__("turned", claim))
    assert report.error == Failure(i + 1, f"deal turned {claim} but the seed gives {truth}")


def test_a_restock_that_does_not_match_the_seed(two):
    lines = two.lines
    i = _first(lines, lambda l: l["type"] == "restock")
    cards = lines[i]["cards"]
    report = _forge(lines, lambda ls: ls[i].__setitem__("cards", cards - 1))
    assert report.error == Failure(i + 1, f"restock cards {cards - 1} but the seed gives {cards}")


def test_a_client_reveal_that_does_not_match_its_commitment(two):
    lines = two.lines
    i = _first(lines, lambda l: l["type"] == "client-reveal")
    report = _forge(lines, lambda ls: ls[i].__setitem__("seed", "a seed chosen later"))
    assert report.error == Failure(i + 1, f"seat {lines[i]['seat']}'s client seed does not match its commitment")


def test_a_reveal_before_every_seat_committed():
    game = _play("three")
    lines = game.lines
    commits = [i for i, l in enumerate(lines) if l["type"] == "client-commit"]
    reveal = _first(lines, lambda l: l["type"] == "client-reveal")

    def early(ls):
        line = ls.pop(reveal)
        ls.insert(commits[-1], line)  # before the last seat's commitment

    report = _forge(lines, early)
    assert report.error.line == commits[-1] + 1
    assert "before every seat committed (waiting for seats [2])" in report.error.reason


def test_client_seeds_come_from_human_seats_once_and_are_fixed_at_the_start():
    game = _play("three")
    lines = game.lines
    start = _first(lines, lambda l: l["type"] == "start")
    commit = _first(lines, lambda l: l["type"] == "client-commit")
    # A bot seat cannot bring a seed.
    two = _play("two")
    c2 = _first(two.lines, lambda l: l["type"] == "client-commit")
    report = _forge(
        two.lines,
        lambda ls: ls.insert(c2 + 1, {"type": "client-commit", "seat": 1, "commitment": client_commitment("bot")}),
    )
    assert report.error == Failure(c2 + 2, "seat 1 is played by a bot and brings no client seed")
    # Each seat commits once.
    report = _forge(lines, lambda ls: ls.insert(commit + 1, dict(ls[commit])))
    assert report.error == Failure(commit + 2, "seat 0 has already committed to a client seed")
    # The start names the revealed seeds, and the seats without one as bots.
    report = _forge(lines, lambda ls: ls[start]["client_seeds"].__setitem__(2, "late seed"))
    assert report.error == Failure(start + 1, "start client_seeds[2] is 'late seed' but seat 2 revealed none")
    report = _forge(lines, lambda ls: ls[start].__setitem__("bots", []))
    assert report.error == Failure(start + 1, "start bots [] but the seats without a client seed are [2]")
    # Nothing after the start changes a seed.
    reveal_line = {"type": "client-reveal", "seat": 2, "seed": "late"}
    report = _forge(lines, lambda ls: ls.insert(start + 4, reveal_line))
    assert report.error == Failure(
        start + 5, "a client-reveal line after the start: the client seeds were fixed at the start"
    )


def test_the_end_of_a_record(two):
    lines = two.lines
    end = _first(lines, lambda l: l["type"] == "match-end")
    # No match-end: the reveal comes where the rules say the match ends.
    report = _forge(lines, lambda ls: ls.pop(end))
    assert report.error == Failure(end + 1, "a reveal line, but the rules give a match-end line here")
    # Nothing but the reveal after the match-end, and nothing after the reveal.
    extra = {"type": "move", "seat": 0, "move": "draw"}
    report = _forge(lines, lambda ls: ls.insert(end + 1, dict(extra)))
    assert report.error == Failure(end + 2, "a move line after the match-end: only the reveal may follow")
    report = _forge(lines, lambda ls: ls.append({"type": "abandon", "reason": "late"}))
    assert report.error == Failure(len(lines) + 1, "a abandon line after the reveal: the reveal is the last line")
    # A reveal in the middle of the game.
    i = _first(lines, lambda l: l["type"] == "move") + 3
    report = _forge(lines, lambda ls: ls.insert(i, dict(ls[-1])))
    assert report.error == Failure(i + 1, "the server seed is revealed before the game is over")


def test_an_abandon_ends_the_play():
    game = _play("abandoned")
    lines = game.lines
    abandon = _first(lines, lambda l: l["type"] == "abandon")
    move = {"type": "move", "seat": 0, "move": "draw"}
    report = _forge(lines, lambda ls: ls.insert(abandon + 1, move))
    assert report.error == Failure(abandon + 2, "a move line after the abandon: only the reveal may follow")
