"""Moving: a seat's move, its readiness for the next hand, and the host's abandon."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fairdeal.rules import Move
from fairdeal.said import Said
from fairdeal.service.errors import Forbidden
from fairdeal.service.errors import Stale
from fairdeal.service.games.core import bot_seat
from fairdeal.service.games.core import status_words
from fairdeal.service.games.reading import Reading
from fairdeal.service.store import GameRow
from fairdeal.table import Table


class Moving(Reading):
    """What seats and the host do once the game is on; answers with the seat's view (:class:`Reading`)."""

    async def move_and_view_async(
        self, game_id: str, seat: int, move: Move, expected_seq: int
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """``seat``'s move, if the record is still ``expected_seq`` lines long: its signed receipt,
        and the seat's view just after it (the bots' replies made), from the state the move's
        append left, not from reading the game again.

        Like every ``*_async`` action here, it runs on the event loop where the store allows
        (see :meth:`~fairdeal.service.live.LiveRecords.act_async`), else in a worker thread."""
        return await self._act_async(game_id, self._play(seat, move), expected_seq, then=self._view_of(seat))

    async def ready_and_view_async(self, game_id: str, seat: int) -> dict[str, Any]:
        """``seat``'s person is ready for the next hand (dealt now if every person is); the seat's view."""
        return await self._act_async(
            game_id, self._ready(seat), then=lambda table, row, _: self._describe(table, row, seat)
        )

    @staticmethod
    def _ready(seat: int) -> Callable[[Table, GameRow], None]:
        def ready(table: Table, row: GameRow) -> None:
            if not table.between_hands:
                raise Stale(Said("no hand is waiting to be dealt: the game is {status}", status=status_words(table)))
            if seat in table.bots:
                raise Forbidden(bot_seat(seat))
            if table.ready(seat):
                table.next_hand()

        return ready

    @staticmethod
    def _play(seat: int, move: Move) -> Callable[[Table, GameRow], dict[str, Any]]:
        def play(table: Table, row: GameRow) -> dict[str, Any]:
            if not table.started:
                raise Stale(Said("the game has not started: client seeds are still open"))
            if table.finished or table.between_hands:
                raise Stale(Said("the game is {status}", status=status_words(table)))
            if seat in table.bots:
                raise Forbidden(bot_seat(seat))
            return table.move(seat, move)

        return play

    def abandon(self, game_id: str, reason: str) -> dict[str, Any]:
        """The host ends the game; the server seed is revealed with it."""
        return self._act(game_id, lambda table, row: table.abandon(reason))
