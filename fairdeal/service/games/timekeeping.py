"""Timekeeping: the turns that fall due (bots, seats out of time, the deal after a pause) played
by the timer, and tables of bots alone expired when no one looks at them or they ran too long."""

from __future__ import annotations

import asyncio
import logging
import math
from typing import Any

from fairdeal.record import time_ms
from fairdeal.service.errors import Stale
from fairdeal.service.games.core import MAX_FOLLOW_UP_MOVES
from fairdeal.service.games.core import GameCore
from fairdeal.service.games.core import _turn_key
from fairdeal.service.store import GameRow
from fairdeal.table import Table

log = logging.getLogger("fairdeal.service")


class Timekeeping(GameCore):
    """What the clock does: due turns played (:meth:`run_due`), bot tables expired, looks noted."""

    # -- the turns that fall due ---------------------------------------------------------

    TIMER_BATCH = 16
    """Due games claimed at a time: few, so that a batch played on the event loop (SQLite) holds
    up requests for milliseconds, and a process claims no more than it is about to play."""

    def run_due(self, now: float | None = None) -> int:
        """Make every move that is due by ``now`` (bots, timed-out turns, the next deal after a
        pause) and expire tables of bots alone; how many games moved. Each due game is claimed
        first (:meth:`Store.claim_due`): another process doing the same plays other games."""
        moved = self.expire_bot_games(now)
        while True:
            claimed, played = self.play_due(now)
            moved += played
            if claimed < self.TIMER_BATCH:
                return moved

    def play_due(self, now: float | None = None) -> tuple[int, int]:
        """Claim up to :attr:`TIMER_BATCH` games due by ``now`` (default: the clock's time) and
        play their due turns; how many were claimed and how many moved. A claimed game that
        could not be played (an error, logged) keeps its claim until it runs out, so that it is
        tried again a little later, not in a loop."""
        clock_now = self.clock()
        due_by = clock_now if now is None else now
        claimed = self.store.claim_due(clock_now, self.TIMER_BATCH, due_by=due_by)
        return len(claimed), sum(self._play_due(game_id, due_by) for game_id, _ in claimed)

    async def play_due_async(self, now: float | None = None) -> tuple[int, int]:
        """:meth:`play_due`, awaited. Where the store talks to its database from the event loop
        (PostgreSQL), the claimed games are played there side by side: each awaits its own
        append, so one game's commit does not wait for the last one's (played one after
        another in a thread, 10,000 tables' 500 due turns a second were more than it could
        play). Otherwise :meth:`play_due` through :meth:`Store.call`."""
        if not self.store.async_ready():
            return await self.store.call(self.play_due, now)
        clock_now = self.clock()
        due_by = clock_now if now is None else now
        claimed = await self.store.call(self.store.claim_due, clock_now, self.TIMER_BATCH, due_by=due_by)
        played = await asyncio.gather(*(self._play_due_async(game_id, due_by) for game_id, _ in claimed))
        return len(claimed), sum(played)

    def _play_due(self, game_id: str, now: float) -> bool:
        """The due turn of a claimed game, if it is still due by ``now``; whether it moved."""
        with _DueTurn(self, game_id, now) as turn:
            self._act(game_id, turn)
        return turn.played

    async def _play_due_async(self, game_id: str, now: float) -> bool:
        """:meth:`_play_due`, awaited."""
        with _DueTurn(self, game_id, now) as turn:
            await self._act_async(game_id, turn)
        return turn.played

    # -- tables of bots alone: looked at, or expired --------------------------------------

    def touch(self, game_id: str) -> None:
        """Someone looked at ``game_id`` (its state, record, live updates): a table of bots alone
        that is looked at does not expire for being idle. Written at most every tenth of the idle
        time per game and process, and never for a table this process knows has people."""
        if self._touch_due(game_id):
            self.store.touch(game_id, self._touched[game_id])

    async def touch_async(self, game_id: str) -> None:
        """:meth:`touch` from async code: no hand-off at all when nothing is to be written."""
        if self._touch_due(game_id):
            await self.store.call(self.store.touch, game_id, self._touched[game_id])

    def _touch_due(self, game_id: str) -> bool:
        if not self.bot_game_idle_seconds:
            return False
        now = self.clock()
        if now - self._touched.get(game_id, -math.inf) < self.bot_game_idle_seconds / 10:
            return False
        cached = self._cache.get(game_id)  # a peek: the cache's order is the readers' to keep
        if cached is not None and cached.live.people:
            return False  # a table with people never expires
        if len(self._touched) > 100_000:
            self._touched.clear()
        self._touched[game_id] = now
        return True

    def expire_bot_games(self, now: float | None = None) -> int:
        """Abandon (the seed revealed) every table of bots alone past its idle or total time; how many."""
        if not (self.bot_game_idle_seconds or self.bot_game_max_seconds):
            return 0
        now = self.clock() if now is None else now
        total, idle = self.bot_game_max_seconds, self.bot_game_idle_seconds
        expired = self.store.expired_bot_games(now - total if total else -math.inf, now - idle if idle else -math.inf)
        done = 0
        for game_id in expired:
            row = self.store.game(game_id)
            if row is None:
                continue
            if total and row.opened is not None and row.opened < now - total:
                reason = f"expired: a table of bots alone for more than {_duration(total)}"
            else:
                reason = f"expired: a table of bots alone that no one looked at for {_duration(idle)}"

            def expire(table: Table, row: GameRow, reason: str = reason) -> None:
                if not table.finished and not table.people:
                    table.abandon(reason)

            try:
                self._act(game_id, expire)
                done += 1
                log.info("timer: game %s %s", game_id, reason)
            except Stale:
                pass  # another process moved it meanwhile: the next tick looks again
            except Exception:
                log.exception("timer: could not expire game %s", game_id)
        return done


class _DueTurn:
    """The timer's action on one claimed game (see :meth:`GameService.play_due`): its due turn,
    if it is still due by ``now``: the next deal after a pause, a bot's turn, or a seat out
    of time played for (draws, then a play). :attr:`played` says whether it moved."""

    def __init__(self, games: GameCore, game_id: str, now: float) -> None:
        self.games, self.game_id, self.now = games, game_id, now
        self.played = False
        self._floored: list[Table] = []

    def __call__(self, table: Table, row: GameRow) -> None:
        self.played = False  # (run again when its first try met another process's append)
        if row.deadline is None or row.deadline > self.now or not table.started or table.finished:
            return  # not due (any more); the follow-up puts the right deadline back
        # The lines are written at the deadline at the earliest, even when the caller's
        # ``now`` is ahead of the clock: an auto-move's time is never before its deadline
        # (nor the deal after a pause before the pause's end).
        table.writer.not_before_ms = time_ms(row.deadline)
        self._floored.append(table)
        if table.between_hands:
            log.info("timer: the pause of game %s is over: the next hand is dealt", self.game_id)
            table.next_hand()  # the countdown ran out: no seat is played for
            self.played = True
            return
        seat = table.match.turn
        assert seat is not None, "a started table not between hands nor finished has a seat to act"
        bot = seat in table.bots
        if not bot:
            log.info("timer: seat %s of game %s timed out", seat, self.game_id)
        # A whole turn: a bot's, or the table's auto-moves for a seat out of time (draws, then a play).
        turn = _turn_key(table)
        for _ in range(MAX_FOLLOW_UP_MOVES):
            before = table.seq
            if bot:
                self.games._bot_move(table)
            else:
                table.move(seat, table.match.auto_move(), auto=True, receipt=False)
            if table.finished or _turn_key(table) != turn or not _drew(table, before):
                break
        self.played = True

    def __enter__(self) -> _DueTurn:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, trace: Any) -> bool:
        """The floor on the lines' times is this action's, not the cached table's; a turn that
        failed did not move, and is logged unless another action reached the record first.
        An error goes no further: the claim stays until it runs out, and the game is tried again."""
        for table in self._floored:
            table.writer.not_before_ms = 0
        if not isinstance(exc, Exception):
            return False  # none, or a cancellation
        self.played = False
        if not isinstance(exc, Stale):
            log.error("timer: could not play the due turn of game %s", self.game_id, exc_info=exc)
        return True


def _duration(seconds: float) -> str:
    """``3600`` as ``1 hour``, ``600`` as ``10 minutes``, ``90`` as ``90 seconds``.

    >>> _duration(3600), _duration(600), _duration(90)
    ('1 hour', '10 minutes', '90 seconds')
    """
    for unit, size in (("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            n = int(seconds // size)
            return f"{n} {unit}{'s' if n != 1 else ''}"
    return f"{seconds:g} seconds"


def _drew(table: Table, start: int) -> bool:
    """Whether the first line added since ``start`` is a draw: the one move after which a turn goes on."""
    lines = table.lines_since(start)
    return bool(lines) and lines[0].get("type") == "move" and lines[0].get("move") == "draw"
