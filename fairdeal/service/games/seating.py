"""Seating: a seat's client-seed commitment and reveal, and the host's start (bots for the seats left)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fairdeal.service.games.reading import Reading
from fairdeal.service.store import GameRow
from fairdeal.table import Table


class Seating(Reading):
    """The seed phase, up to the start; answers with the seat's view (:class:`Reading`)."""

    async def commit_async(self, game_id: str, seat: int, commitment: str) -> dict[str, Any]:
        """Record a human seat's client-seed commitment; returns its signed receipt, with the
        game's start entry in the log (``log``, spec/log.md) when the log announced it."""
        receipt = await self._act_async(game_id, _committing(seat, commitment))
        if self.log is not None:
            announced = await self.log.announced_async(game_id)
            if announced is not None:
                receipt = {**receipt, "log": announced}
        return receipt

    async def reveal_and_view_async(self, game_id: str, seat: int, seed: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """Record a seat's client seed (reveals open once every human seat has committed); its
        receipt, and the seat's view just after it (the last reveal starts the game)."""
        return await self._act_async(game_id, _revealing(seat, seed), then=self._view_of(seat))

    def start(self, game_id: str) -> dict[str, Any]:
        """The host starts now: seats without a revealed seed are played by bots (then, when no
        person is left, it is a table of bots alone, which expires)."""
        people: list[int] = []

        def start(table: Table, row: GameRow) -> dict[str, Any]:
            result = table.start()
            people.extend(table.people)
            return result

        result = self._act(game_id, start)
        if not people:
            self.store.set_bots_only(game_id, self.clock())
        return result


def _committing(seat: int, commitment: str) -> Callable[[Table, GameRow], dict[str, Any]]:
    return lambda table, row: table.commit(seat, commitment)


def _revealing(seat: int, seed: str) -> Callable[[Table, GameRow], dict[str, Any]]:
    # A seed that does not match its commitment is a FairnessError (422); a reveal out of
    # order a TableError (409): the table's seed phase tells them apart.
    return lambda table, row: table.reveal_client_seed(seat, seed)
