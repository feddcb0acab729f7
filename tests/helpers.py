"""What the game tests share: positions written as card codes, shufflers, the check that
``legal_moves``, ``apply`` and ``explain`` agree, a session played by the heuristic bot and
chance, a table played out by bots, the records the tamper tests rewrite, the verifier's
move-by-move replay of one, and the small tools that find, change and re-sign the lines of a record.

Imported as ``from helpers import ...`` (tests/conftest.py keeps this folder on ``sys.path``).
Not a test module: it holds no tests. The tamper tests' own helpers (the mutations of a record)
are in tests/test_tamper.py, the verifier tests' driver in tests/test_verifier_support.py.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import ssl
import subprocess
import sys
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from hypothesis import settings
from test_verifier_support import SIGNER
from test_verifier_support import play as play_game
from test_verifier_support import text_of

from fairdeal.bots import make_bot
from fairdeal.cards import Card
from fairdeal.cards import Suit
from fairdeal.cards import parse_cards
from fairdeal.fairness import game_key
from fairdeal.fairness import shuffle
from fairdeal.record import Signer
from fairdeal.record import check_chain
from fairdeal.record import parse_record
from fairdeal.record import resign
from fairdeal.rules import IllegalMove
from fairdeal.rules import Move
from fairdeal.rules.sequence import RunState
from fairdeal.table import Seat
from fairdeal.table import Table
from fairdeal.verification import Report
from fairdeal.verification import verify
from verifier.report import json_report
from verifier.report import text_report

SEED = "00" * 32

FUZZ = settings(derandomize=True, deadline=None, database=None)
"""What the fuzz tests' settings start from: the same examples on every run, however slow each
is, none kept between runs (``@settings(FUZZ, max_examples=...)``)."""


# One TLS context for every client the tests make. httpx builds one and reads the CA bundle for
# each client (60 ms of CPU; ``httpx.get`` makes a client a call), and tests that poll a server
# paid that hundreds of times, though they speak plain HTTP to localhost.
_TLS = ssl.create_default_context()


def local_client(**options: Any) -> httpx.Client:
    """``httpx.Client(**options)`` for the tests' own servers, without a TLS context of its own."""
    return httpx.Client(verify=_TLS, **options)


def http(method: str, url: str, **options: Any) -> httpx.Response:
    """One request, as ``httpx.request(method, url, **options)`` sends it, on a :func:`local_client`."""
    with local_client() as client:
        return client.request(method, url, **options)


def service_settings(data_dir: Any, database_url: str = "", **more: Any) -> Any:
    """The settings of a test's app: its data in ``data_dir`` and its database ``database_url``
    (empty: SQLite there), bots that move at once, hands dealt at once and no timer of its own
    (a test moves the time itself); ``more`` on top."""
    from fairdeal.service import Settings  # (only where a test runs the service: it needs its extra)

    return Settings(
        data_dir=data_dir, database_url=database_url, bot_delay=0, next_hand_seconds=0, tick_seconds=0, **more
    )


VECTORS_DIR = Path(__file__).resolve().parents[1] / "spec" / "vectors"
"""spec/vectors/: what any implementation must reproduce, and the scripts that write it."""


def installed(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    """The console script ``script`` (``fairdeal``, ``fairdeal-verify``) that pip installed next to
    this interpreter, run with ``args``: its exit code and output, as text."""
    command = [str(Path(sys.executable).with_name(script)), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def vectors(name: str) -> Any:
    """The vectors of spec/vectors/``name`` (a JSON file), parsed."""
    return json.loads((VECTORS_DIR / name).read_text(encoding="utf-8"))


def vector_script(name: str) -> ModuleType:
    """spec/vectors/``name``.py, the independent script that writes some vectors, as a module."""
    spec = importlib.util.spec_from_file_location(name, VECTORS_DIR / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- positions -------------------------------------------------------------------------------


def cards(text: str) -> tuple[Card, ...]:
    """The cards of a text of card codes (``"AS 9D"``), in order."""
    return tuple(parse_cards(text))


def play(code: str, suit: str | None = None) -> Move:
    """A play of the card ``code``, an eight naming ``suit``: ``play("8H", "S")``."""
    return Move.play(Card.parse(code), None if suit is None else Suit.parse(suit))


def table_runs(text: str) -> tuple[tuple[tuple[int, Card], ...], tuple[int, ...]]:
    """The runs on a run game's table written as ``"4S 5S | 2H"`` (cards in the order played):
    the plays (by seat -1, who played them does not matter) and the index where each run starts."""
    played = [cards(run) for run in text.split("|")] if text else []
    plays = tuple((-1, c) for run in played for c in run)
    starts, at = [], 0
    for run in played:
        starts.append(at)
        at += len(run)
    return plays, tuple(starts)


def run_position(
    *hands: str, turn: int = 0, runs: str = "", current: str | None = None, dealer: int | None = None, **fields: Any
) -> RunState:
    """A run game's hand in progress (Sequence, Michigan, Commit): the seats' hands, the runs on the
    table as :func:`table_runs` reads them and ``current``, the card to follow, as card codes; the
    last seat deals unless ``dealer`` says. ``fields`` are the game's own, given as they are."""
    plays, starts = table_runs(runs)
    dealt = tuple(cards(h) for h in hands)
    return RunState(
        hand=1,
        dealer=(len(hands) - 1) if dealer is None else dealer,
        hands=dealt,
        turn=turn,
        plays=plays,
        runs=tuple(starts),
        current=None if current is None else Card.parse(current),
        net=(0,) * len(hands),
        dealt=dealt,
        **fields,
    )


def pile_state(
    state_type,
    *hands: str,
    pile: str,
    stock: str = "",
    named: str | None = None,
    turn: int = 0,
    dealer: int | None = None,
    pending: str | None = None,
    hand: int = 1,
    **fields: Any,
):
    """A draw-pile game's hand in progress, a ``state_type``
    (:class:`~fairdeal.rules.crazy_eights.PileState`): ``pile`` is bottom first (its last card is the
    top), ``stock`` top first, ``named`` the suit a wild card named and ``pending`` the card drawn
    that must be played or kept, as codes; the seat before ``turn`` deals unless ``dealer`` says.
    ``fields`` are the game's own, given as they are."""
    if pending is not None:
        fields["pending"] = Card.parse(pending)
    return state_type(
        hand=hand,
        dealer=(turn - 1) % len(hands) if dealer is None else dealer,
        hands=tuple(cards(h) for h in hands),
        stock=cards(stock),
        pile=cards(pile),
        named=None if named is None else Suit.parse(named),
        turn=turn,
        **fields,
    )


# --- shufflers ---------------------------------------------------------------------------------


def in_order(label: str, cards: Sequence[Card]) -> list[Card]:
    """A shuffler that leaves the pack in card order."""
    return list(cards)


def protocol_shuffler(game_id: str, seats: int, server_seed: str = SEED):
    """The real protocol shuffle of ``game_id`` under a fixed server seed and empty client seeds:
    the game key, and the shuffler."""
    key = game_key(server_seed, game_id, [""] * seats)
    return key, lambda label, cards_: shuffle(key, label, cards_)


# --- moves and what they do ------------------------------------------------------------------


def legal(rules, state, seat: int | None = None) -> list[str]:
    """The legal moves of ``seat`` (the seat to play when ``None``), as text."""
    seat = state.turn if seat is None else seat
    return [str(m) for m in rules.legal_moves(rules.view(state, seat))]


def run(rules, state, *moves: tuple[int, str]):
    """Apply ``(seat, "9S" | "pass")`` moves in order; the final state and every event."""
    events = []
    for seat, what in moves:
        move = Move.pass_() if what == "pass" else Move.play(Card.parse(what))
        state, new = rules.apply(state, seat, move, None)
        events += new
    return state, events


def refusal(rules, state, seat: int, move: Move, shuffler=in_order) -> str:
    """The reason ``apply`` gives for refusing ``move`` (it must refuse it)."""
    with pytest.raises(IllegalMove) as caught:
        rules.apply(state, seat, move, shuffler)
    return caught.value.reason


def chips(events) -> list[tuple]:
    """The chips events as (reason, from, to, amount)."""
    return [(e["reason"], e["from"], e["to"], e["amount"]) for e in events if e["type"] == "chips"]


def net_chips(events, seats: int) -> list[int]:
    """What each seat won or lost by these chips events (the pot is nobody's)."""
    net = [0] * seats
    for chip in events:
        if chip["from"] != "pot":
            net[chip["from"]] -= chip["amount"]
        if chip["to"] != "pot":
            net[chip["to"]] += chip["amount"]
    return net


def played_for_chips(match, rng) -> Iterator[tuple[dict | None, list[dict]]]:
    """Start ``match`` and play it to its end with ``rng``'s random legal moves, checking that every
    ``chips`` event moves some chips between two parties, that each hand's report holds the chips
    its events moved, and that the last events end the match. After the start and after each move:
    the ``hand-end`` event and the hand's chips events when that ended a hand, else ``None`` and
    the chips of the hand so far."""
    events, chips = match.start(), []
    while True:
        ended, hand_chips = None, chips
        for event in events:
            if event["type"] == "chips":
                assert event["amount"] > 0 and event["from"] != event["to"]
                chips.append(event)
            elif event["type"] == "hand-end":
                assert match.hands[event["hand"] - 1].summary.to_json()["chips"] == chips
                ended, hand_chips, chips = event, chips, []  # the next hand's ante may follow
        yield ended, hand_chips
        if match.over:
            assert events[-1] == {"type": "match-end", "standings": [row.to_json() for row in match.standings]}
            return
        events = match.apply(match.turn, rng.choice(match.legal_moves(match.turn)))


# --- legal_moves, apply and explain agree ------------------------------------------------------


def check_legal_moves(rules, state, moves: Sequence[Move], shuffler=None) -> None:
    """For every seat, each of ``moves`` is in ``legal_moves`` exactly when ``apply`` accepts it,
    and ``explain`` gives no reason against a card exactly when its play is accepted; the timer's
    move is legal."""
    for seat in range(state.seats):
        view = rules.view(state, seat)
        listed = rules.legal_moves(view)
        for move in moves:
            try:
                rules.apply(state, seat, move, shuffler)
                accepted = True
            except IllegalMove:
                accepted = False
            assert accepted == (move in listed), (seat, move, state)
            if move.kind == "play":
                assert (rules.explain(view, move.card) is None) == accepted, (seat, move)
    if state.result is None:
        assert rules.auto_move(state) in rules.legal_moves(rules.view(state, state.turn))


def check_explain(match, seat: int, view, moves: Sequence[Move]) -> None:
    """``explain`` gives no reason against a card in ``seat``'s ``view`` exactly when one of its
    legal ``moves`` plays it."""
    playable = {m.card for m in moves if m.kind == "play"}
    for card in view.hand:
        assert (match.explain(seat, card) is None) == (card in playable), card


def play_session(
    match, rng, bot_share: float, check: Callable[[int, Sequence[Move]], None] | None = None
) -> list[dict]:
    """Start ``match`` and play it to its end, each move the heuristic bot's with probability
    ``bot_share``, else a random legal one: the match's lines. At every turn the seat has legal
    moves, :func:`check_explain` holds, and so does ``check(seat, moves)`` if given."""
    lines = match.start()
    bot = make_bot("heuristic")
    while not match.over:
        seat = match.turn
        view = match.view(seat)
        moves = match.legal_moves(seat)
        assert moves
        check_explain(match, seat, view, moves)
        if check is not None:
            check(seat, moves)
        move = bot.choose(match.rules, view) if rng.random() < bot_share else rng.choice(moves)
        assert move in moves
        lines += match.apply(seat, move)
    return lines


def check_legal_moves_in_play(rules, match, rng, every: int, moves: Sequence[Move], shuffler=None) -> None:
    """Start ``match`` and play it out with random legal moves; :func:`check_legal_moves` holds
    before every ``every``-th move and at the end."""
    match.start()
    step = 0
    while not match.over:
        if step % every == 0:
            check_legal_moves(rules, match.state, moves, shuffler)
        match.apply(match.turn, rng.choice(match.legal_moves(match.turn)))
        step += 1
    check_legal_moves(rules, match.state, moves, shuffler)


# --- records -----------------------------------------------------------------------------------


def played_by_bots(game_id: str, rules, seats: Sequence[Seat], bots, signer: Signer, server_seed: str):
    """A table of ``seats`` whose every move ``bots`` (one a seat) choose, played to its end and
    revealed: the table, and its record's lines (their chain checked)."""
    table = Table.new(game_id, rules, seats, signer, created="2026-01-01T00:00:00Z", server_seed=server_seed)
    table.start()
    while not table.match.over:
        seat = table.match.turn
        table.move(seat, bots[seat].choose(table.rules, table.match.view(seat)))
    table.reveal()
    lines = parse_record(table.writer.text())
    check_chain(lines, signer.public_hex)
    return table, lines


def tamper_record(game_id: str, seats: int, rules: str, options: dict | None) -> list[dict]:
    """The lines of a record for the tamper tests, which verifies: two human seats that mix
    random moves with the timer's auto-moves, and bot seats that play the same way (the record
    must not change when the bots get cleverer)."""
    game = play_game(game_id, seats, humans=2, rules=rules, options=options, use_bots=False)
    assert verify(game.text).verified
    return game.lines


def session_record(game_id: str, seats: int, rules: str, options: dict | None = None) -> tuple[dict, ...]:
    """The lines of a record played like :func:`tamper_record`'s, which verifies with the server's key."""
    played = play_game(game_id, seats, humans=2, rules=rules, options=options, use_bots=False)
    assert verify(played.lines, key=SIGNER.public_hex).verified
    return tuple(played.lines)


def replayed_moves(tmp_path, lines) -> list[str]:
    """What ``fairdeal-verify --moves --hand 1`` prints of a record of ``lines``, which verifies:
    its lines."""
    from click.testing import CliRunner

    from verifier.cli import main

    path = tmp_path / "game.jsonl"
    path.write_text(text_of(lines), encoding="utf-8")
    result = CliRunner().invoke(main, ["--moves", "--hand", "1", str(path)])
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def first(lines, kind: str, **fields) -> int:
    """The index of the first line of type ``kind`` with these field values (``None``: absent)."""
    return next(
        i for i, line in enumerate(lines) if line["type"] == kind and all(line.get(k) == v for k, v in fields.items())
    )


def answering_play(lines) -> int:
    """The index of the first play, chosen by its seat (no auto-move), right after another seat's
    play: one that answers it (follows in a trick, carries a group on)."""
    return next(
        k
        for k in range(1, len(lines))
        if lines[k].get("move") == "play"
        and lines[k - 1].get("move") == "play"
        and lines[k - 1]["seat"] != lines[k]["seat"]
        and "auto" not in lines[k]
    )


def the_end(lines) -> set[int]:
    """The last move and the lines after it but the last (the payments, the scores, the
    standings): the end of a record that tamper tests rewrite."""
    last_move = max(i for i, line in enumerate(lines) if line["type"] == "move")
    return set(range(last_move, len(lines) - 1))


def bare(line: dict) -> dict:
    """A line without its chain fields and its time: the event the rules produced."""
    return {k: v for k, v in line.items() if k not in ("seq", "prev", "sig", "at")}


def tampered(lines, index, change: Callable[[dict], Any] | None = None, *, drop=False, insert=None) -> list[dict]:
    """``lines`` with line ``index`` changed in place by ``change``, dropped, or with ``insert``
    put before it; then re-chained and re-signed (signed lines stay signed)."""
    out = [
        copy.deepcopy(bare(line))
        | ({"at": line["at"]} if "at" in line else {})
        | ({"sig": ""} if "sig" in line else {})
        for line in lines
    ]
    if drop:
        del out[index]
    elif insert is not None:
        out.insert(index, insert)
    else:
        change(out[index])
    return resign(out, SIGNER)


def refused(lines, index: int, *words: str) -> str:
    """The verifier refuses ``lines`` at line ``index`` (0-based) with a reason holding ``words``."""
    report = verify(lines, key=SIGNER.public_hex)
    assert not report.verified
    assert report.error.line == index + 1, str(report.error)
    for word in words:
        assert word in report.error.reason, str(report.error)
    return report.error.reason


def check_session_report(lines, hands: int) -> tuple[Report, str, dict]:
    """What a person checks in the verifier's reports of the session ``lines`` (signed with
    SIGNER): the text ends VERIFIED, shows the deal of each of its ``hands`` hands, every chips
    line and the final standings; the JSON has the same standings, chips and totals. Returns the
    report, the text and the JSON data, for the game's own checks."""
    report = verify(list(lines), key=SIGNER.public_hex)
    text = text_report(report)
    assert text.endswith("\nVERIFIED\n")
    ends = [line for line in lines if line["type"] == "hand-end"]
    assert len(report.hands) == len(ends) == hands
    for hand in report.hands:
        for dealt in hand.summary.to_json()["deal"]:
            assert " ".join(Card.parse(c).display for c in dealt) in text
    chips = [line for line in lines if line["type"] == "chips"]
    assert text.count("  chips: ") == len(chips)
    final = lines[-2]["standings"]
    standings = text[text.index("final standings") :].splitlines()[1 : 1 + len(final)]
    assert [row.split()[-1] for row in standings] == [str(row["total"]) for row in final]

    data = json.loads(json_report(report))
    assert data["verified"] is True and data["standings"] == final
    assert sum(len(h["chips"]) for h in data["hands"]) == len(chips)
    assert [h["totals"] for h in data["hands"]] == [line["totals"] for line in ends]
    return report, text, data
