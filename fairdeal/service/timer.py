"""The turn timer of one process: every due turn played at its deadline, by one process only.

Deadlines live in the store (``games.deadline``, indexed). The timer claims
the games that are due (:meth:`Store.claim_due`: on PostgreSQL with ``FOR
UPDATE SKIP LOCKED``, so that processes claiming at once take different
games), plays them (:meth:`GameService.play_due_async`), and, when none is left,
sleeps until the earliest deadline no process holds, or until this process
sets an earlier one (:attr:`GameService.on_deadline`), or for ``tick`` seconds
at most: the longest a deadline set by another process that stopped, or a
claim that ran out, waits to be seen.

>>> import tempfile
>>> from fairdeal.service.app import create_app
>>> from fairdeal.service.settings import Settings
>>> app = create_app(Settings(data_dir=tempfile.mkdtemp(), tick_seconds=0))
>>> timer = TurnTimer(app.state.games, tick=1.0)
>>> timer.wake(0.0)  # a deadline set before the timer runs: nothing to wake yet
"""

from __future__ import annotations

import asyncio
import logging
import math
from typing import TYPE_CHECKING

from fairdeal.service.errors import LONG_HEX

if TYPE_CHECKING:  # pragma: no cover
    from fairdeal.service.games import GameService

__all__ = ["TurnTimer"]

log = logging.getLogger("fairdeal.service")


class TurnTimer:
    """Plays the due turns of ``games``' store (bots, timed-out seats, the deal after a pause).

    ``tick``: the longest it sleeps without looking at the store. Tables of bots
    alone past their time are expired once a ``tick`` at most.
    """

    GATHER_SECONDS = 0.01
    """After a round that played due turns, the least time until the next round: the turns that
    fall due meanwhile are claimed and played together. At 10,000 tables' 500 due turns a
    second, a round for each turn paid a claim and a look for the next deadline of its own
    (with the turns played one by one, on PostgreSQL it fell seconds behind); now a turn waits
    this much longer at most. A round after a quiet spell waits for nothing."""

    def __init__(self, games: GameService, tick: float) -> None:
        self.games = games
        self.tick = tick
        self._loop: asyncio.AbstractEventLoop | None = None
        self._woken: asyncio.Event | None = None
        self._sleeping_until = -math.inf  # while it sleeps: when it would wake by itself
        self._expired_at = -math.inf
        games.on_deadline = self.wake

    def wake(self, deadline: float) -> None:
        """A deadline was set (from any thread): wake the timer if it sleeps past it."""
        loop, woken = self._loop, self._woken
        if loop is not None and woken is not None and deadline < self._sleeping_until:
            self._sleeping_until = -math.inf  # one wake is enough
            try:
                loop.call_soon_threadsafe(woken.set)
            except RuntimeError:  # the loop has closed
                pass

    async def run(self) -> None:
        """Play due turns until cancelled."""
        self._loop, self._woken = asyncio.get_running_loop(), asyncio.Event()
        games, store = self.games, self.games.store
        while True:
            try:
                now = games.clock()
                if now - self._expired_at >= self.tick:
                    self._expired_at = now
                    await store.call(games.expire_bot_games)
                started = games.clock()
                claimed, _ = await games.play_due_async()
                if claimed == games.TIMER_BATCH:
                    await asyncio.sleep(0)  # more may be due: let requests in between batches
                    continue
                # Told of a deadline from here on: a wake while the store is asked is not lost.
                self._woken.clear()
                self._sleeping_until = math.inf
                next_deadline = await store.call(store.next_deadline, games.clock())
                until = games.clock() + self.tick
                if next_deadline is not None:
                    until = min(until, next_deadline)
                if claimed:
                    until = max(until, started + self.GATHER_SECONDS)
                self._sleeping_until = until
                wait = until - games.clock()
                if wait > 0:
                    try:
                        await asyncio.wait_for(self._woken.wait(), wait)
                    except TimeoutError:
                        pass
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 (the database may be away for a moment: look again in a tick)
                log.warning("timer: %s", LONG_HEX.sub("<hex hidden>", f"{type(exc).__name__}: {exc}"))
                self._sleeping_until = -math.inf
                await asyncio.sleep(self.tick)
            finally:
                self._sleeping_until = -math.inf
