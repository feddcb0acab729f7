"""Reading games: what a seat sees (its hand, its legal moves, why each card can or cannot go) and what a spectator sees."""

from __future__ import annotations

import json
from collections.abc import Callable
from collections.abc import Sequence
from datetime import UTC
from datetime import datetime
from typing import Any

from fairdeal.cards import Card
from fairdeal.match import MATCH_OVER
from fairdeal.record import canonical
from fairdeal.rules.base import SEAT_OWN
from fairdeal.rules.base import GameState
from fairdeal.rules.base import GameView
from fairdeal.rules.base import standings_json
from fairdeal.service.games.core import GameCore
from fairdeal.service.games.core import _seats_of
from fairdeal.service.games.core import status_of
from fairdeal.service.store import GameRow
from fairdeal.table import ABANDONED
from fairdeal.table import Table


def iso_time(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class Reading(GameCore):
    """The views: a seat's own and a spectator's, read or made just after an action."""

    # -- what clients see -------------------------------------------------------------------

    def seat_view(self, game_id: str, seat: int) -> dict[str, Any]:
        """What ``seat`` sees: its hand, the public table, its legal moves and why each card can or cannot go."""
        return self.read(game_id, lambda table, row: self._describe(table, row, seat))

    def public_state(self, game_id: str) -> dict[str, Any]:
        """What a spectator sees: the public table, no hidden card."""
        return self.read(game_id, lambda table, row: self._describe(table, row, None))

    async def seat_view_async(self, game_id: str, seat: int) -> dict[str, Any]:
        """:meth:`seat_view` from async code (see :meth:`move_and_view_async`)."""
        return await self.read_async(game_id, lambda table, row: self._describe(table, row, seat))

    async def public_state_async(self, game_id: str) -> dict[str, Any]:
        """:meth:`public_state` from async code (see :meth:`move_and_view_async`)."""
        return await self.read_async(game_id, lambda table, row: self._describe(table, row, None))

    def _describe(self, table: Table, row: GameRow, seat: int | None) -> dict[str, Any]:
        match = table.match
        dealer = table.dealer
        turn = match.turn
        paused = table.between_hands
        playing = table.started and not table.finished and not paused
        deadline = row.deadline if playing and turn not in table.bots else None
        public = None
        view = None
        seen: dict[str, Any] = {}
        if match.state is not None:
            view = match.view(seat)
            seen = view.to_json()
            public = {name: value for name, value in seen.items() if name not in SEAT_OWN}
        # The hand that has just ended (between hands, or the match's last): every seat's cards
        # left are shown with it, to be counted, as the hand's summary shows them.
        ended = match.state if match.state is not None and match.state.result is not None else None
        out: dict[str, Any] = {
            "game_id": table.game_id,
            "rules": table.rules.name,
            "options": dict(table.rules.options),
            "status": status_of(table),
            "seq": table.seq,
            "commitment": dealer.commitment,
            "seats": [{"seat": i, "name": s.name, "bot": i in table.bots} for i, s in enumerate(table.seats)],
            "client_seeds": {
                "open": not table.started,
                "committed": sorted(dealer.client_commitments),
                "revealed": sorted(dealer.client_seeds),
            },
            "turn": turn,
            "turn_seconds": row.turn_seconds,
            "bot_seconds": self._bot_seconds(row),
            "next_hand_seconds": row.next_hand_seconds,
            "deadline": None if deadline is None else iso_time(deadline),
            "seconds_left": None if deadline is None else round(max(0.0, deadline - self.clock()), 3),
            "table": public,
            "hand_no": match.hand_no,
            "totals": list(match.totals),
            # The score sheet as a hand-end line shows it: the totals, and what a game keeps
            # besides (Hollywood scoring: "games", each of the three games' scores by seat).
            "sheet": match.sheet.record(),
            "hands": [
                {
                    "hand": h.hand,
                    "dealer": h.dealer,
                    "how": h.result.how,
                    "winners": list(h.result.winners),
                    "counts": list(h.result.counts),
                    "scores": list(h.result.scores),
                    "totals": list(h.totals),
                    "reason": h.result.reason,
                    **({} if h.sheet is None else h.sheet.record()),
                    **({"cards_left": _cards_left(ended)} if ended is not None and ended.hand == h.hand else {}),
                }
                for h in match.hands
            ],
            "standings": standings_json(match.standings) if match.over else None,
        }
        if paused:
            out["next_hand"] = self._next_hand(table, row)
        if row.again_id is not None:
            out["again"] = self._again_for(row, seat)
        if table.revealed:
            out["server_seed"] = table.revealed_seed
        if seat is not None:
            hand: Sequence[Card] = () if view is None else view.hand
            out.update(
                seat=seat,
                your_turn=turn == seat,
                hand=[card.code for card in hand],
                pending=seen.get("pending"),
                # From the one view, not through Match (which builds the view again for every card).
                legal_moves=_legal_json(table, view),
                cards=[] if view is None else [_card_note(table, view, card) for card in hand],
            )
        return out

    def _next_hand(self, table: Table, row: GameRow) -> dict[str, Any]:
        """The pause between hands: the hand to come, its countdown, who is ready and who is
        waited for, and every seat's cards left (shown at the hand's end, to be counted)."""
        ready = _seats_of(row.ready)
        end = row.deadline
        state = table.match.state
        assert state is not None, "a table between hands holds the hand that ended"
        return {
            "hand": table.match.hand_no + 1,
            "deadline": None if end is None else iso_time(end),
            "seconds_left": None if end is None else round(max(0.0, end - self.clock()), 3),
            "ready": [s for s in table.people if s in ready],
            "waiting": [s for s in table.people if s not in ready],
            "cards_left": _cards_left(state),
        }

    def _again_for(self, row: GameRow, seat: int | None) -> dict[str, Any]:
        """The table played again from this one; for a seat's own view, its join token there too."""
        again: dict[str, Any] = {"game_id": row.again_id}
        if seat is not None and row.sealed_again is not None:
            tokens = json.loads(self.sealer.open(f"{row.id}/again", row.sealed_again))
            if str(seat) in tokens:
                again.update(seat=seat, token=tokens[str(seat)])
        return again

    def _view_of(self, seat: int) -> Callable[[Table, GameRow, dict[str, Any]], tuple[dict[str, Any], dict[str, Any]]]:
        return lambda table, row, receipt: (receipt, self._describe(table, row, seat))


def _cards_left(state: GameState) -> list[list[str]]:
    """Every seat's cards at the end of the hand ``state``, as codes, by seat."""
    return [[card.code for card in hand] for hand in state.hands]


def _legal_json(table: Table, view: GameView | None) -> list[dict[str, Any]]:
    """The seat's legal moves as the API takes them, once each: a move that gives the game's
    secret is listed by its record form, without the secret (the seat's to type, not the API's
    to list)."""
    if view is None or table.finished:
        return []
    seen: dict[bytes, dict[str, Any]] = {}
    for move in table.rules.legal_moves(view):
        data = move.to_json()
        seen.setdefault(canonical(data), data)
    return list(seen.values())


def _card_note(table: Table, view: GameView, card: Card) -> dict[str, Any]:
    if table.abandoned:
        why_not: str | None = ABANDONED
    else:
        why_not = MATCH_OVER if table.match.over else table.rules.explain(view, card)
    return {"card": card.code, "playable": why_not is None, "why_not": why_not}
