"""What ``fairdeal-verify`` prints: the text report, the JSON report, and the move-by-move replay.

The text report's last line is the verdict, ``VERIFIED`` or
``NOT VERIFIED: line N: <reason>``. Names and other text that a record
brings are shown escaped when they hold control or line-breaking
characters, so that a record cannot print a verdict of its own.

>>> from fairdeal.record import Signer
>>> from fairdeal.rules import get
>>> from fairdeal.table import Seat, Table
>>> from verifier.replay import verify
>>> table = Table.new("doc", get("crazy-eights", {"target": 20}), [Seat("Ann", bot=True), Seat("Bob", bot=True)],
...                   Signer.from_seed(bytes(32)), created="2026-01-01T00:00:00Z", server_seed="00" * 32)
>>> while not table.match.over:
...     _ = table.move(table.match.turn, table.match.auto_move(), auto=True)
>>> _ = table.reveal()
>>> text = text_report(verify(table.writer.text()))
>>> text.splitlines()[0]
'game doc: Crazy Eights (crazy-eights), target 20, restock_limit 20'
>>> text.splitlines()[-1]
'VERIFIED'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from fairdeal.cards import Card, CardError, Suit
from fairdeal.rules import RULES
from verifier.receipts import ReceiptCheck
from verifier.replay import Hand, Report, Step

__all__ = ["text_report", "json_report", "verdict", "MovePrinter", "display", "safe"]


def safe(text: Any) -> str:
    """``text`` as it may be printed: quoted and escaped if it holds anything unprintable.

    >>> safe("Ann"), safe("Ann\\nVERIFIED")
    ('Ann', "'Ann\\\\nVERIFIED'")
    """
    text = str(text)
    return text if text.isprintable() else repr(text)


def display(codes: Sequence[str] | str) -> str:
    """Card codes as a person reads them: ``['8H', 'TC']`` -> ``'8♥ 10♣'``."""
    if isinstance(codes, str):
        codes = [codes]
    out = []
    for code in codes:
        try:
            out.append(Card.parse(code).display)
        except CardError:
            out.append(safe(code))
    return " ".join(out)


def verdict(report: Report) -> str:
    """``VERIFIED`` or ``NOT VERIFIED: line N: <reason>``."""
    if report.verified:
        return "VERIFIED"
    return f"NOT VERIFIED: {safe(report.error)}"


def _seat(report: Report, seat: int) -> str:
    if 0 <= seat < len(report.seats):
        name = safe(report.seats[seat]["name"])
        return f"seat {seat} ({name})"
    return f"seat {seat}"


def _seats(report: Report, seats: Sequence[int]) -> str:
    return ", ".join(_seat(report, s) for s in seats)


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
    out = [f"hand {hand.hand}, dealer {_seat(report, hand.dealer)}"]
    summary = dict(hand.summary)
    deal = summary.pop("deal", None)
    if deal is not None:
        names = [f"seat {s} {safe(report.seats[s]['name'])}" if s < len(report.seats) else f"seat {s}"
                 for s in range(len(deal))]
        width = max(len(n) for n in names) if names else 0
        for name, cards in zip(names, deal):
            out.append(f"  {name.ljust(width)}  {display(cards)}")
    starter = summary.pop("starter", None)
    turned = summary.pop("turned", None)
    if starter is not None:
        back = [c for c in (turned or [])[:-1]]
        out.append(f"  starter {display(starter)}" + (f" (eights turned back into the stock: {display(back)})" if back else ""))
    for restock in summary.pop("restocks", []):
        stock = restock.get("stock", [])
        out.append(f"  restock {restock.get('restock')}: {len(stock)} cards, new stock (top first) {display(stock)}")
    for move in summary.pop("chips", []):
        # Chip games (the Fan Tan family): each movement of chips, in order.
        if isinstance(move, dict):
            out.append(f"  {_chips(report, move)}")
    # The Fan Tan family's table: the rank that opened the rows, the suits' first cards, the rows.
    if isinstance(summary.get("opening"), str):
        out.append(f"  opening rank: {safe(summary.pop('opening'))}")
    if isinstance(summary.get("leads"), list):
        out.append(f"  suits begun with: {display(summary.pop('leads'))}")
    if isinstance(summary.get("rows"), dict):
        out.append(f"  rows at the end: {_rows(summary.pop('rows'))}")
    # The draw-pile games (Eights, Go Boom): partners, every draw, the order out, Go Boom's rounds.
    partners = summary.pop("partners", None) if _is_sides(summary.get("partners")) else None
    if partners is not None:
        out.append(f"  partners: {' against '.join(_side(report, side) for side in partners)}")
    if _is_draws(summary.get("draws")):
        out.append(f"  draws: {_draws(report, summary.pop('draws'))}")
    if isinstance(summary.get("out"), list) and all(isinstance(s, int) for s in summary["out"]):
        gone = summary.pop("out")
        if gone:
            out.append(f"  out of cards, in order: {_seats(report, gone)}")
    if isinstance(summary.get("rounds"), list) and all(isinstance(r, dict) for r in summary["rounds"]):
        for number, round_ in enumerate(summary.pop("rounds"), 1):
            out.append(f"  round {number}: {_round(report, round_)}")
    out.extend(_run_games(report, summary, hand.sheet))
    out.extend(_groups_and_tricks(report, summary))
    for key, value in summary.items():
        out.append(f"  {safe(key)}: {safe(json.dumps(value, ensure_ascii=False))}")
    if hand.how == "out":
        ended = f"{_side(report, hand.winners)} went out"
    elif not hand.winners:
        ended = f"{hand.how} ({safe(hand.reason)}); nobody wins"
    elif partners is not None or report.rules in _FEWEST_CARDS:
        ended = f"{hand.how} ({safe(hand.reason)}); won by {_side(report, hand.winners)}"
    else:
        ended = f"{hand.how} ({safe(hand.reason)}); lowest count: {_seats(report, hand.winners)}"
    out.append(f"  ended: {ended}")
    rows = [("counts", hand.counts), ("scores", hand.scores), ("totals", hand.totals)]
    games = hand.sheet.get("games")
    if isinstance(games, list):
        # Hollywood scoring: the three games' scores after the hand.
        rows += [(f"game {g}", scores) for g, scores in enumerate(games, 1) if isinstance(scores, list)]
    out.extend(_table(report, rows))
    return out


def _cards(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(code, str) for code in value)


def _run_games(report: Report, summary: dict[str, Any], sheet: dict[str, Any]) -> list[str]:
    """The run games (Sequence, Michigan, Double Stops, Spin, Commit): the extra hand and its
    auction, the dead hand or the stops, every run, the cards left, the counters on the layout.
    Takes what it shows out of ``summary``."""
    out = []
    if _cards(summary.get("extra")):
        out.append(f"  extra hand (dealt at the dealer's left): {display(summary.pop('extra'))}")
    bids = summary.get("bids")
    if isinstance(bids, list) and all(isinstance(b, dict) and isinstance(b.get("seat"), int) for b in bids):
        said = [f"{_seat(report, b['seat'])} " + ("passes" if b.get("bid") is None else f"bids {b['bid']}") for b in summary.pop("bids")]
        out.append(f"  the extra hand is auctioned: {', '.join(said)}")
    exchange = summary.get("exchange")
    if isinstance(exchange, dict) and isinstance(exchange.get("seat"), int):
        summary.pop("exchange")
        price = exchange.get("price")
        paid = f", for {price} counters" if price else ""
        out.append(f"  {_seat(report, exchange['seat'])} plays the extra hand{paid}")
    if _cards(summary.get("dead")):
        out.append(f"  dead hand: {display(summary.pop('dead'))}")
    if _cards(summary.get("stops")):
        out.append(f"  stops (face down): {display(summary.pop('stops'))}")
    runs = summary.get("runs")
    if isinstance(runs, list) and all(_cards(run) for run in runs):
        for number, run in enumerate(summary.pop("runs"), 1):
            out.append(f"  run {number}: {display(run)}")
    left = summary.get("left")
    if isinstance(left, list) and all(_cards(cards) for cards in left):
        held = [f"{_seat(report, s)} {display(cards)}" for s, cards in enumerate(summary.pop("left")) if cards]
        out.append(f"  left in hand: {'; '.join(held) if held else 'nothing'}")
    layout = sheet.get("layout")
    if isinstance(layout, dict) and all(isinstance(n, int) for n in layout.values()):
        out.append(f"  counters left on the layout: {', '.join(f'{display(code)} {n}' for code, n in layout.items())}")
    return out


_FEWEST_CARDS = frozenset({"eights", "hollywood-eights", "rolling-stone"})
"""Games whose blocked hand goes to the fewest cards, not the lowest count."""


def _groups_and_tricks(report: Report, summary: dict[str, Any]) -> list[str]:
    """Snip Snap Snorem, The Earl of Coventry and Jig: every group (Jig: series), turn by turn,
    with the calls; Rolling Stone: every trick and how it ended. Takes what it shows out of
    ``summary``."""
    out = []
    groups = summary.get("groups")
    if isinstance(groups, list) and all(isinstance(g, dict) and isinstance(g.get("turns"), list) for g in groups):
        word = "series" if report.rules == "jig" else "group"
        for number, group in enumerate(summary.pop("groups"), 1):
            out.append(f"  {word} {number}: {_group(report, group)}")
    tricks = summary.get("tricks")
    if isinstance(tricks, list) and all(isinstance(t, dict) and isinstance(t.get("plays"), list) for t in tricks):
        for number, trick in enumerate(summary.pop("tricks"), 1):
            out.append(f"  trick {number}: {_trick(report, trick)}")
    return out


_GROUP_ENDS = {
    "four": "",
    "ace": " (ends at the ace)",
    "stopped": " (stopped: no card of the next rank is left in any hand)",
    "out": " (the deal ends in it)",
}


def _group(report: Report, group: dict[str, Any]) -> str:
    """``seat 1 (Bob) 6♥; seat 2 (Cy) passes; seat 0 (Ann) 6♦ "Snip", 6♠ "Snap"``."""
    turns = []
    for turn in group["turns"]:
        if not isinstance(turn, dict):
            continue
        cards, calls = turn.get("cards") or [], turn.get("calls") or []
        said = [display(card) + (f' "{safe(call)}"' if call else "") for card, call in zip(cards, calls + [None] * len(cards))]
        turns.append(f"{_seat(report, turn.get('seat'))} " + (", ".join(said) if said else "passes"))
    return "; ".join(turns) + _GROUP_ENDS.get(group.get("end"), f" ({safe(group.get('end'))})")


def _trick(report: Report, trick: dict[str, Any]) -> str:
    """A Rolling Stone trick: its cards in order and how it ended."""
    plays = [p for p in trick["plays"] if isinstance(p, dict)]
    shown = ", ".join(f"{_seat(report, p.get('seat'))} {display(p.get('card', '?'))}" for p in plays)
    by, end = trick.get("by"), trick.get("end")
    who = _seat(report, by) if isinstance(by, int) else safe(by)
    if end == "aside":
        return f"{shown}; all followed: put aside, {who} leads"
    if end == "picked-up":
        return f"{shown}; {who} cannot follow and picks it up"
    if end == "out":
        return f"{shown}; {who} went out"
    return f"{shown}; {safe(end)}"


def _is_sides(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(side, list) and all(isinstance(s, int) for s in side) for side in value)


def _is_draws(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(d, dict) and isinstance(d.get("seat"), int) for d in value)


def _side(report: Report, seats: Sequence[int]) -> str:
    """``seat 1 (Bob)``, or ``seats 0 (Ann) and 2 (Cy)`` for partners."""
    if len(seats) == 1:
        return _seat(report, seats[0])
    names = [_seat(report, s).removeprefix("seat ") for s in seats]
    return "seats " + " and ".join(names)


def _draws(report: Report, draws: Sequence[dict[str, Any]]) -> str:
    """Every draw in order, a seat's draws in a row together: ``seat 1 (Bob) 7♥ 7♣, seat 2 (Cy) 9♣``."""
    if not draws:
        return "none"
    runs: list[tuple[int, list[str]]] = []
    for draw in draws:
        if runs and runs[-1][0] == draw["seat"]:
            runs[-1][1].append(draw.get("card"))
        else:
            runs.append((draw["seat"], [draw.get("card")]))
    return ", ".join(f"{_seat(report, seat)} {display([c if isinstance(c, str) else '?' for c in cards])}" for seat, cards in runs)


def _round(report: Report, round_: dict[str, Any]) -> str:
    """A Go Boom round: its cards in order, who passed, and who leads the next."""
    plays = [p for p in round_.get("plays", []) if isinstance(p, dict)]
    shown = ", ".join(f"{_seat(report, p.get('seat'))} {display(p.get('card', '?'))}" for p in plays)
    passed = [s for s in round_.get("passed", []) if isinstance(s, int)]
    if passed:
        shown += f"; passed: {_seats(report, passed)}"
    won_by = round_.get("won_by")
    if isinstance(won_by, int):
        shown += f"; highest card: {_seat(report, won_by)} leads next"
    else:
        shown += "; the hand ended in it"
    return shown


def _chips(report: Report, move: dict[str, Any]) -> str:
    payer, payee = move.get("from"), move.get("to")
    payer = _seat(report, payer) if isinstance(payer, int) else safe(payer)
    payee = _seat(report, payee) if isinstance(payee, int) else safe(payee)
    return f"chips: {safe(move.get('reason'))}: {safe(move.get('amount'))} from {payer} to {payee}"


def _rows(rows: dict[str, Any]) -> str:
    """A Fan Tan table, each suit's row by its two end cards: ``♣ 2♣-Q♣, ♦ none, ...``."""
    out = []
    for letter, ends in rows.items():
        try:
            symbol = Suit.parse(letter).symbol
        except CardError:
            symbol = safe(letter)
        shown = display(ends).replace(" ", "-") if isinstance(ends, list) and ends else "none"
        out.append(f"{symbol} {shown}")
    return ", ".join(out)


def _standings(report: Report, standings: Sequence[dict[str, int]]) -> list[str]:
    places = [s["place"] for s in standings]
    rows = []
    for row in standings:
        shared = places.count(row["place"]) > 1  # "2=": a place shared by equal totals
        rows.append((f"{row['place']}{'=' if shared else ''}", _seat(report, row["seat"]), str(row["total"])))
    w0, w1, w2 = (max(len(r[i]) for r in rows) for i in range(3))
    return [f"  {p.ljust(w0)}  {who.ljust(w1)}  {total.rjust(w2)}" for p, who, total in rows]


def _session(report: Report) -> list[str]:
    """A dealing session (spec/sessions.md): its seeds and each shuffle with the order it dealt."""
    out = [f"dealing session {safe(report.game_id)}: {len(report.seats)} seats, labels start with {report.label_prefix!r}"]
    if report.created:
        out.append(f"created {safe(report.created)}")
    out.append(f"server key  {report.server_key}")
    out.append(f"commitment  {report.commitment}")
    out.append(f"server seed {report.server_seed} (matches the commitment)" if report.server_seed else "server seed not revealed")
    if report.client_seeds is not None:
        out.append("client seeds: " + ", ".join(
            f"seat {s} {seed!r}" if seed else f"seat {s} none" for s, seed in enumerate(report.client_seeds)))
    for dealt in report.shuffles or []:
        out.append("")
        out.append(f"shuffle {safe(dealt['label'])} (line {dealt['line']}), {dealt['count']} cards: {display(dealt['cards'])}")
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
        out.append(f"draw for the first dealer: {display(report.draw)}: {_seat(report, report.first_dealer)} deals first")
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
    """Watches a replay (:func:`verifier.replay.verify`'s ``watch``) and prints every move
    with every hand visible: the seat, the move, the card a draw drew, the pile top and
    each seat's hand after it. ``hand`` limits it to one hand."""

    def __init__(self, write: Callable[[str], None], hand: int | None = None) -> None:
        self.write = write
        self.hand = hand

    def __call__(self, step: Step) -> None:
        match, report = step.match, step.report
        if step.before is None:
            self._deal(step.match.state, step.line, report)
            self._dealt(step.events, step.match.state.hand, report)
            return
        before, after = step.before, match.state
        same_hand = after is not None and after.hand == before.hand
        if self.hand is None or before.hand == self.hand:
            self._move(step, before, after if same_hand else None, report)
        if not same_hand and after is not None:
            self._deal(after, step.line, report)
            self._dealt(step.events, after.hand, report)

    def _dealt(self, events: Sequence[dict[str, Any]], hand_no: int, report: Report) -> None:
        """What the deal itself moved: the antes of a chip game, after the new hand's header."""
        if not self._show(hand_no):
            return
        kinds = [event.get("type") for event in events]
        if "deal" in kinds:
            for event in events[kinds.index("deal") + 1 :]:
                if event.get("type") == "chips":
                    self.write(f"  {_chips(report, event)}")

    def _show(self, hand_no: int) -> bool:
        return self.hand is None or hand_no == self.hand

    def _deal(self, state: Any, line: int, report: Report) -> None:
        if not self._show(state.hand):
            return
        self.write("")
        header = f"hand {state.hand}, dealer {_seat(report, state.dealer)}"
        top = getattr(state, "pile", None)
        if top:
            header += f", starter {display(top[-1].code)}"
        self.write(header)
        for s, cards in enumerate(getattr(state, "hands", ())):
            self.write(f"  {_seat(report, s)}: {display([c.code for c in cards])}")
        if getattr(state, "extra", None):
            self.write(f"  extra hand: {display([c.code for c in state.extra])}")  # Michigan
        elif getattr(state, "dead", None):
            self.write(f"  stops: {display([c.code for c in state.dead])}")  # Commit

    def _move(self, step: Step, before: Any, after: Any, report: Report) -> None:
        line = step.record
        seat = line["seat"]
        text = line["move"]
        if "card" in line:
            text += " " + display(line["card"])
        if "suit" in line:
            text += " naming " + Suit.parse(line["suit"]).symbol
        if "then" in line:
            text += " then " + display(line["then"])
        if "amount" in line:
            text += f" {line['amount']}"
        if line["move"] == "draw" and after is not None:
            grew = len(after.hands[seat]) - len(before.hands[seat])
            if grew == 1:
                text += " -> " + after.hands[seat][-1].display
            elif grew == 0:
                text += " -> no card"
        if line.get("auto"):
            text += " (auto)"
        out = f"line {step.line}: {_seat(report, seat)} {text}"
        if after is not None:
            if isinstance(getattr(after, "rows", None), tuple):
                rows = {suit.letter: None if row is None else [c.code for c in row] for suit, row in zip(Suit, after.rows)}
                out += f"; rows {_rows(rows)}"
            if isinstance(getattr(after, "plays", None), tuple) and isinstance(getattr(after, "rounds", None), tuple):
                # Go Boom: the round so far, and who leads when a round was just completed.
                if len(after.rounds) > len(before.rounds):
                    out += f"; round over, {_seat(report, after.leader)} leads"
                else:
                    out += "; round so far: " + ", ".join(f"seat {s} {c.display}" for s, c in after.plays)
            if callable(getattr(after, "run_cards", None)) and after.plays:
                # The run games: the run going on (or the one that just stopped).
                out += f"; run {display([c.code for c in after.run_cards()[-1]])}"
                if after.current is None and after.result is None:
                    out += f", stopped: {_seat(report, after.turn)} leads"
            if isinstance(getattr(after, "turns", None), tuple) and hasattr(after, "groups"):
                # Snip Snap Snorem, The Earl of Coventry, Jig: the group being put down.
                group = [c.code for _, c in after.group]
                out += f"; group {display(group)}" if group else "; group over"
            if isinstance(getattr(after, "trick", None), tuple) and hasattr(after, "aside"):
                # Rolling Stone: the trick in play.
                out += f"; trick {display([c.code for _, c in after.trick])}" if after.trick else "; trick over"
            if hasattr(after, "pile") and after.pile:
                top = after.pile[-1].display
                named = getattr(after, "named", None)
                out += f"; pile {top}" + (f" ({named.symbol} named)" if named is not None else "")
            hands = getattr(after, "hands", None)
            if hands is not None:
                out += " | " + " | ".join(f"{s}: {display([c.code for c in h])}" for s, h in enumerate(hands))
        self.write(out)
        for event in step.events[1:]:
            kind = event.get("type")
            if kind == "deal":
                break  # the next hand's: shown under its header
            if kind == "restock":
                self.write(f"  the stock ran out: restock {event['restock']}, {event['cards']} cards")
            elif kind == "hand-end":
                self.write(f"  hand {event['hand']} ends ({event['how']}): scores {event['scores']}, totals {event['totals']}")
            elif kind == "chips":
                self.write(f"  {_chips(report, event)}")
            elif kind == "put-down":
                self.write(f"  and with it: {display(event['cards'])}")
            elif kind == "pick-up":
                self.write(f"  {_seat(report, event['seat'])} picks up the trick: {display(event['cards'])}")
            elif kind == "match-end":
                places = ", ".join(f"{r['place']}. seat {r['seat']} {r['total']}" for r in event["standings"])
                self.write(f"  the match is over: {places}")
            elif kind not in ("deal",):
                self.write(f"  {safe(json.dumps(event, ensure_ascii=False))}")
