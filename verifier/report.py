"""What ``fairdeal-verify`` prints: the text report, the JSON report, and the move-by-move replay.

The text report's last line is the verdict, ``VERIFIED`` or
``NOT VERIFIED: line N: <reason>``. Names and other text that a record
brings are shown escaped when they hold control or line-breaking
characters, so that a record cannot print a verdict of its own.

What each game shows of a hand (and of a move, with ``--moves``) is its rules'
to say: a hand's typed summary gives its lines (:meth:`HandSummary.lines
<fairdeal.rules.summary.HandSummary.lines>`), its score sheet what it keeps
besides the totals, and the rules describe each deal, move and event. This
module names no game.

>>> from fairdeal.record import Signer
>>> from fairdeal.rules import DEFAULT, get
>>> from fairdeal.table import Seat, Table
>>> from fairdeal.verification import verify
>>> rules = get(DEFAULT, {"target": 20})
>>> table = Table.new("doc", rules, [Seat("Ann", bot=True), Seat("Bob", bot=True)],
...                   Signer.from_seed(bytes(32)), created="2026-01-01T00:00:00Z", server_seed="00" * 32)
>>> while not table.match.over:
...     _ = table.move(table.match.turn, table.match.auto_move(), auto=True)
>>> _ = table.reveal()
>>> text = text_report(verify(table.writer.text()))
>>> text.splitlines()[0].startswith(f"game doc: {rules.title} ({rules.name}), target 20")
True
>>> text.splitlines()[-1]
'VERIFIED'
"""

from __future__ import annotations

import json
from collections.abc import Callable
from collections.abc import Sequence
from typing import Any

from fairdeal.rules import RULES
from fairdeal.rules import Move
from fairdeal.rules import Rules
from fairdeal.rules import Standing
from fairdeal.rules.base import GameState
from fairdeal.rules.summary import SeatNames
from fairdeal.rules.summary import display
from fairdeal.rules.summary import safe
from fairdeal.verification import Hand
from fairdeal.verification import Report
from fairdeal.verification import Step
from fairdeal.verification.receipts import ReceiptCheck

__all__ = ["text_report", "json_report", "verdict", "MovePrinter", "display", "safe"]


def verdict(report: Report) -> str:
    """``VERIFIED`` or ``NOT VERIFIED: line N: <reason>``."""
    if report.verified:
        return "VERIFIED"
    return f"NOT VERIFIED: {safe(report.error)}"


def _seat(report: Report, seat: int | None) -> str:
    return SeatNames.of(report.seats).seat(seat)


def _title(report: Report) -> str:
    cls = RULES.get(report.rules or "")
    title = f"{cls.title} ({report.rules})" if cls else safe(report.rules)
    options = ", ".join(f"{k} {v}" for k, v in report.options.items())
    return f"game {safe(report.game_id)}: {title}" + (f", {options}" if options else "")


def _table(report: Report, rows: Sequence[tuple[str, Sequence[int]]], indent: str = "  ") -> list[str]:
    """Per-seat numbers in columns headed by the seat names."""
    names = [safe(s["name"]) for s in report.seats]
    width = max([len(label) for label, _ in rows] + [0])
    cols = [max(len(n), *(len(str(v[i])) for _, v in rows if i < len(v))) for i, n in enumerate(names)]
    out = [indent + " " * width + "  " + "  ".join(n.rjust(c) for n, c in zip(names, cols))]
    for label, values in rows:
        cells = "  ".join(str(v).rjust(c) for v, c in zip(values, cols))
        out.append(f"{indent}{label.ljust(width)}  {cells}")
    return out


def _hand(report: Report, hand: Hand) -> list[str]:
    """One hand: its header, what its summary shows, how it ended, and its numbers by seat.
    What a game shows is its summary's and its score sheet's to say."""
    names = SeatNames.of(report.seats)
    out = [f"hand {hand.hand}, dealer {names.seat(hand.dealer)}"]
    out.extend(hand.summary.lines(names))
    sheet = hand.score_sheet
    if sheet is not None:
        out.extend(sheet.describe(names))
    out.append(f"  ended: {hand.summary.ended(hand.result, names)}")
    if hand.dealt_at is not None:  # format 2: when the server wrote the deal and the end
        out.append(f"  dealt at {safe(hand.dealt_at)}, ended at {safe(hand.ended_at)}")
    rows: list[tuple[str, Sequence[int]]] = [("counts", hand.counts), ("scores", hand.scores), ("totals", hand.totals)]
    if sheet is not None:
        rows += sheet.table_rows()
    out.extend(_table(report, rows))
    return out


def _standings(report: Report, standings: Sequence[Standing]) -> list[str]:
    places = [s.place for s in standings]
    rows = []
    for row in standings:
        shared = places.count(row.place) > 1  # "2=": a place shared by equal totals
        rows.append((f"{row.place}{'=' if shared else ''}", _seat(report, row.seat), str(row.total)))
    w0, w1, w2 = (max(len(r[i]) for r in rows) for i in range(3))
    return [f"  {p.ljust(w0)}  {who.ljust(w1)}  {total.rjust(w2)}" for p, who, total in rows]


def _session(report: Report) -> list[str]:
    """A dealing session (spec/sessions.md): its seeds and each shuffle with the order it dealt."""
    out = [
        f"dealing session {safe(report.game_id)}: {len(report.seats)} seats, labels start with {report.label_prefix!r}"
    ]
    if report.created:
        out.append(f"created {safe(report.created)}")
    out.append(f"server key  {report.server_key}")
    out.append(f"commitment  {report.commitment}")
    out.append(
        f"server seed {report.server_seed} (matches the commitment)"
        if report.server_seed
        else "server seed not revealed"
    )
    if report.client_seeds is not None:
        out.append(
            "client seeds: "
            + ", ".join(
                f"seat {s} {seed!r}" if seed else f"seat {s} none" for s, seed in enumerate(report.client_seeds)
            )
        )
    for dealt in report.shuffles or []:
        out.append("")
        out.append(
            f"shuffle {safe(dealt['label'])} (line {dealt['line']}), {dealt['count']} cards: {display(dealt['cards'])}"
        )
        if "order" in dealt:
            out.append(f"  order (top first): {display(dealt['order'])}")
    return out


def text_report(report: Report, receipts: Sequence[ReceiptCheck] = ()) -> str:
    """The whole report of one record, ending with its verdict line."""
    out: list[str] = []
    if report.kind == "session" and report.game_id is not None:
        out.extend(_session(report))
    elif report.game_id is not None:
        out.append(_title(report))
        if report.created:
            out.append(f"created {safe(report.created)}")
        if report.timing is not None:
            t = report.timing
            out.append(
                f"timing: a turn {t['turn_ms']} ms (every auto-move checked against it), "
                f"bots {t['bot_ms']} ms, a pause between hands up to {t['next_hand_ms']} ms"
            )
        out.append(f"server key  {report.server_key}")
        out.append(f"commitment  {report.commitment}")
        if report.server_seed:
            out.append(f"server seed {report.server_seed} (matches the commitment)")
        else:
            out.append("server seed not revealed")
        out.append("seats")
        for s, seat in enumerate(report.seats):
            who = f"  {s}  {safe(seat['name'])}" + (" (bot)" if seat["bot"] else "")
            if report.client_seeds is not None:
                seed = report.client_seeds[s]
                # The start line's bots say who revealed no seed: "" revealed is a seed, and a human's.
                if seed or not (seat["bot"] or s in (report.bots or ())):
                    who += f", client seed {seed!r}"
                elif not seat["bot"]:
                    who += ", no client seed (played by a bot)"
            out.append(who)
    if report.draw:
        out.append(
            f"draw for the first dealer: {display(report.draw)}: {_seat(report, report.first_dealer)} deals first"
        )
    for hand in report.hands:
        out.append("")
        out.extend(_hand(report, hand))
    if report.abandoned is not None:
        out.append("")
        out.append(f"abandoned: {safe(report.abandoned)}")
    if report.standings is not None:
        out.append("")
        out.append("final standings")
        out.extend(_standings(report, report.standings))
    if receipts:
        out.append("")
        out.append("receipts")
        out.extend(f"  {check}" for check in receipts)
    if out:
        out.append("")
    out.append(verdict(report))
    return "\n".join(out) + "\n"


def json_report(report: Report, *, file: str | None = None, receipts: Sequence[ReceiptCheck] | None = None) -> str:
    """One line of JSON for one record (no newline at the end)."""
    data: dict[str, Any] = {}
    if file is not None:
        data["file"] = file
    data.update(report.to_json())
    if receipts is not None:
        data["receipts"] = [check.to_json() for check in receipts]
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


class MovePrinter:
    """Watches a replay (:func:`fairdeal.verification.verify`'s ``watch``) and prints every move
    with every hand visible: the seat, the move, the card a draw drew, the table after it
    and each seat's hand, as the game's rules describe them. ``hand`` limits it to one hand."""

    def __init__(self, write: Callable[[str], None], hand: int | None = None) -> None:
        self.write = write
        self.hand = hand

    def __call__(self, step: Step) -> None:
        match = step.match
        names = SeatNames.of(step.report.seats)
        if step.before is None:  # the start: the first hand is dealt
            dealt = match.state
            assert dealt is not None
            self._deal(match.rules, dealt, names)
            self._dealt(match.rules, step.events, dealt.hand, names)
            return
        before, after = step.before, match.state
        same_hand = after is not None and after.hand == before.hand
        if self.hand is None or before.hand == self.hand:
            self._move(step, before, after if same_hand else None, names)
        if not same_hand and after is not None:
            self._deal(match.rules, after, names)
            self._dealt(match.rules, step.events, after.hand, names)

    def _dealt(self, rules: Rules[Any, Any], events: Sequence[dict[str, Any]], hand_no: int, names: SeatNames) -> None:
        """What the deal itself moved: the antes of a chip game, after the new hand's header."""
        if not self._show(hand_no):
            return
        kinds = [event.get("type") for event in events]
        if "deal" in kinds:
            for event in events[kinds.index("deal") + 1 :]:
                if event.get("type") == "chips":
                    self.write(f"  {rules.describe_event(event, names)}")

    def _show(self, hand_no: int) -> bool:
        return self.hand is None or hand_no == self.hand

    def _deal(self, rules: Rules[Any, Any], state: GameState, names: SeatNames) -> None:
        if not self._show(state.hand):
            return
        self.write("")
        for line in rules.describe_deal(state, names):
            self.write(line)

    def _move(self, step: Step, before: GameState, after: GameState | None, names: SeatNames) -> None:
        rules, line = step.match.rules, step.record
        seat = line["seat"]
        move = Move.from_json(line)  # the line replayed: it reads as a move
        text = rules.describe_move(before, seat, move, after, names, auto=bool(line.get("auto")))
        when = f"at {safe(line['at'])}, " if isinstance(line.get("at"), str) else ""  # format 2: its time
        self.write(f"line {step.line}: {when}{names.seat(seat)} {text}")
        for event in step.events[1:]:
            if event.get("type") == "deal":
                break  # the next hand's: shown under its header
            self.write(f"  {rules.describe_event(event, names)}")
