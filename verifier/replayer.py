"""The hand replayer: every hand of a verified record, move by move, with every card face up.

:func:`hand_steps` verifies the record with :func:`fairdeal.verification.verify` and, as
that replay goes (its ``watch``), notes one step for each deal and each move: the
record's line, the seat, the move and the rule that allowed it
(:meth:`~fairdeal.rules.Rules.why_legal`), and what the table shows after it,
as the rules' own views give it, with every seat's hand (the seed is revealed,
so nothing is hidden any more) and every other place a card can be. The web
page ``/replay`` draws these steps with the table page's renderers; the JSON is
described in spec/replay.md. Given the page's language, the answer says its words
for people in it too (``words``: why each move was allowed, where the cards lie).

A record that does not verify, or whose server seed is not revealed, is refused
with a :class:`ReplayError` that says why (the verifier's first failing line).

>>> from fairdeal.record import Signer
>>> from fairdeal.rules import DEFAULT, get
>>> from fairdeal.table import Seat, Table
>>> table = Table.new("doc", get(DEFAULT, {"target": 20}), [Seat("Ann", bot=True), Seat("Bob", bot=True)],
...                   Signer.from_seed(bytes(32)), created="2026-01-01T00:00:00Z", server_seed="00" * 32)
>>> while not table.match.over:
...     _ = table.move(table.match.turn, table.match.auto_move(), auto=True)
>>> _ = table.reveal()
>>> replay = hand_steps(table.writer.text())
>>> replay["rules"] == DEFAULT, replay["module"] == type(get(DEFAULT)).module(), [seat["name"] for seat in replay["seats"]]
(True, True, ['Ann', 'Bob'])
>>> step = replay["hands"][0]["steps"][1]
>>> step["kind"], step["seat"], step["move"], step["why"]
('move', 1, 'play 2S', '2♠ on 2♦: same rank')
>>> words = hand_steps(table.writer.text(), lang="nb")["words"]     # the words in the page's language
>>> words["hands"][0]["why"][1], words["places"]["on the pile"]
('2♠ på 2♦: samme valør', 'i kastebunken')
>>> table.lines[7]["card"] = "KD"
>>> hand_steps(table.lines)
Traceback (most recent call last):
...
verifier.replayer.ReplayError: the record does not verify, so its hands are not replayed: line 8: illegal move play KD by seat 0: the auto-move here is play TS
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fairdeal.cards import codes
from fairdeal.fairness import game_key
from fairdeal.fairness import shuffle
from fairdeal.match import Match
from fairdeal.record import RecordError
from fairdeal.rules import Move
from fairdeal.rules import Rules
from fairdeal.rules import SeatNames
from fairdeal.rules import Shuffler
from fairdeal.rules import in_language
from fairdeal.rules.base import GameState
from fairdeal.rules.base import standings_json
from fairdeal.said import Said
from fairdeal.verification import NOT_REVEALED
from fairdeal.verification import Step
from fairdeal.verification import verify

__all__ = ["hand_steps", "ReplayError", "FORMAT"]

FORMAT = "fairdeal-replay/1"
"""The steps' JSON format (spec/replay.md)."""

# A seat's view holds its own hand and what only it knows; the replay gives every hand apart.
_PRIVATE = ("seat", "hand", "pending")


class ReplayError(ValueError):
    """A record the replayer will not step through: it does not verify, or its seed is not revealed."""


class _Steps:
    """Watches the verifier's replay and notes a step for every deal and every move."""

    def __init__(self) -> None:
        self.hands: list[dict[str, Any]] = []
        # The game's rules, the seats' names and its shuffle: known from the first step, the start.
        self.rules: Rules[Any, Any] | None = None
        self.names: SeatNames | None = None
        self.shuffler: Shuffler | None = None
        self.totals: list[int] = []

    def _game(self) -> tuple[Rules[Any, Any], SeatNames, Shuffler]:
        """The rules, the names and the shuffle, once the first step has set them."""
        assert self.rules is not None and self.names is not None and self.shuffler is not None
        return self.rules, self.names, self.shuffler

    def __call__(self, step: Step) -> None:
        match = step.match
        if self.rules is None:
            report = step.report
            self.rules = match.rules
            self.names = SeatNames.of(report.seats)
            # (Known to a replay that deals: the seed revealed, the header and the start read.)
            seed, game_id, client_seeds = report.server_seed, report.game_id, report.client_seeds
            assert seed is not None and game_id is not None and client_seeds is not None
            key = game_key(seed, game_id, client_seeds)
            self.shuffler = lambda label, cards: shuffle(key, label, cards)
        state = match.state
        assert state is not None  # (every step is the start, whose deal is done, or a move)
        if step.before is None:
            self.deal(step.line, state, step.events, list(match.totals))
            return
        before, line = step.before, step.record
        after = state
        same_hand = after.hand == before.hand
        seat = line["seat"]
        move = Move.from_json(line)  # the verifier has just read it
        if not same_hand:
            # The match has dealt the next hand already: the hand as this move left it is
            # the rules' answer to the move again (pure, and the same shuffle).
            rules, _, shuffler = self._game()
            after, _ = rules.apply(before, seat, move, shuffler)
        self.move(step.line, line, move, before, after, same_hand, step.events)
        if after.result is not None:
            self.end(after, match)
        if not same_hand:
            dealt = next(i for i, e in enumerate(step.events) if e.get("type") == "deal")
            self.deal(step.line, state, step.events[dealt:], list(match.totals))

    def table(self, state: GameState) -> dict[str, Any]:
        """What the table shows of ``state`` (a spectator's view), every hand, and every other place."""
        rules, _, _ = self._game()
        view = rules.view(state, None).to_json()
        for private in _PRIVATE:
            view.pop(private, None)
        places = rules.card_places(state)
        seats = len(state.hands)
        return {
            "table": view,
            "hands": [codes(cards) for cards in state.hands],
            "places": [{"place": place, "cards": codes(cards)} for place, cards in places[seats:] if cards],
            "turn": state.turn if state.result is None else None,
        }

    def deal(self, line: int, state: GameState, events: Sequence[dict[str, Any]], totals: list[int]) -> None:
        rules, names, _ = self._game()
        kinds = [event.get("type") for event in events]
        after_deal = events[kinds.index("deal") + 1 :] if "deal" in kinds else []
        self.totals = totals
        hand: dict[str, Any] = {"hand": state.hand, "dealer": state.dealer, "result": None, "steps": []}
        hand["steps"].append(
            {
                "kind": "deal",
                "line": line,
                "seat": state.dealer,
                "move": None,
                "auto": False,
                "words": "\n".join(rules.describe_deal(state, names)),
                "why": None,
                "events": [rules.describe_event(e, names) for e in after_deal],
                "totals": totals,
                **self.table(state),
            }
        )
        self.hands.append(hand)

    def move(
        self,
        line: int,
        record: dict[str, Any],
        move: Move,
        before: GameState,
        after: GameState,
        same_hand: bool,
        events: Sequence[dict[str, Any]],
    ) -> None:
        rules, names, _ = self._game()
        seat = record["seat"]
        auto = bool(record.get("auto"))
        words = rules.describe_move(before, seat, move, after if same_hand else None, names, auto=auto)
        said = []
        for event in events[1:]:
            if event.get("type") == "deal":
                break  # the next hand's: its own first step shows it
            said.append(rules.describe_event(event, names))
        self.hands[-1]["steps"].append(
            {
                "kind": "move",
                "line": line,
                "seat": seat,
                "move": str(move),
                "auto": auto,
                "words": f"{names.seat(seat)} {words}",
                "why": rules.why_legal(rules.view(before, seat), move),
                "events": said,
                "totals": self.totals,
                **self.table(after),
            }
        )

    def end(self, state: GameState, match: Match) -> None:
        report = match.hands[-1]
        result = report.result
        self.hands[-1]["result"] = {
            "how": result.how,
            "winners": list(result.winners),
            "counts": list(result.counts),
            "scores": list(result.scores),
            "reason": result.reason,
            "totals": list(report.totals),
        }


def hand_steps(text: str | bytes | Sequence[dict[str, Any]], lang: str | None = None) -> dict[str, Any]:
    """Every hand of the record ``text``, step by step (spec/replay.md), JSON-ready.

    With ``lang``, a language tag (the page's), the answer also says in that language what the
    replay writes for people (``words``, where fairdeal and the game translate it, else English:
    :func:`fairdeal.rules.in_language`): each step's ``why``, each hand's ``reason``, the names of
    the ``places``; the steps themselves stay as they are, the English of ``fairdeal-verify``.

    Raises :class:`ReplayError` when the record does not verify (naming the verifier's
    first failing line) or its server seed is not revealed, and
    :class:`~fairdeal.record.RecordError` for text that is no fairdeal record at all, each
    saying why in ``lang``.

    >>> hand_steps("", lang="nb")
    Traceback (most recent call last):
    ...
    fairdeal.record.RecordError: ikke en fairdeal-protokoll: filen er tom
    """
    try:
        return _replayed(text, lang)
    except (RecordError, ReplayError) as exc:
        if lang is None:
            raise
        raise type(exc)(in_language(str(exc), lang)) from exc


def _replayed(text: str | bytes | Sequence[dict[str, Any]], lang: str | None) -> dict[str, Any]:
    steps = _Steps()
    report = verify(text, watch=steps)
    failure = report.error
    if report.kind == "session":
        raise ReplayError(
            Said("a dealing session's record has no moves to replay (fairdeal-verify shows its shuffles)")
        )
    if report.server_seed is None or (failure is not None and failure.reason == NOT_REVEALED):
        if failure is None:
            raise ReplayError(Said("the server seed is not revealed, so the hidden cards cannot be shown yet"))
        raise ReplayError(
            Said(
                "the server seed is not revealed, so the hidden cards cannot be shown yet (line {line}: {reason})",
                line=failure.line,
                reason=failure.reason,
            )
        )
    if failure is not None:  # (a report is verified when it has no failure)
        raise ReplayError(
            Said(
                "the record does not verify, so its hands are not replayed: line {line}: {reason}",
                line=failure.line,
                reason=failure.reason,
            )
        )
    declaration = type(steps.rules).declaration() if steps.rules is not None else {}
    answer = {
        "format": FORMAT,
        "game_id": report.game_id,
        "rules": report.rules,
        "title": declaration.get("title"),
        "module": declaration.get("module"),
        "renderer": declaration.get("renderer"),
        "unit": declaration.get("unit"),
        "options": report.options,
        "seats": [{"seat": i, "name": s["name"], "bot": s["bot"]} for i, s in enumerate(report.seats)],
        "first_dealer": report.first_dealer,
        "draw": list(report.draw),
        "abandoned": report.abandoned,
        "standings": standings_json(report.standings),
        "moves": report.moves,
        "hands": steps.hands,
    }
    if lang is not None:
        answer["words"] = in_language(_words(steps.hands), lang)
    return answer


def _words(hands: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """What the replay of ``hands`` writes for people (:func:`hand_steps`'s ``words``), as it is:
    each hand's reason and each step's ``why``, and every place's name by its English."""
    places = {place["place"]: place["place"] for hand in hands for step in hand["steps"] for place in step["places"]}
    return {
        "hands": [
            {
                "reason": None if hand["result"] is None else hand["result"]["reason"],
                "why": [step["why"] for step in hand["steps"]],
            }
            for hand in hands
        ],
        "places": places,
    }
