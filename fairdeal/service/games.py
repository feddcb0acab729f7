"""Live card tables: create, client seeds, moves, bots, the turn timer, the reveal; views for seats.

Every change to a game is a :class:`~fairdeal.table.Table` call whose new
record lines are appended atomically (:class:`~fairdeal.service.live.LiveRecords`);
everything a client reads is computed from the table those lines replay to.

The table's own rules live here too:

- a bot seat (marked in the header, or a seat the host started without)
  moves by itself, the table's ``bot_seconds`` after it got the turn; with a
  delay of 0 it moves within the request that handed it the turn;
- a table with people (``next_hand_seconds`` > 0) holds the next deal after a
  hand's end: it deals when every person has said they are ready, or when its
  countdown (the row's deadline) runs out. Who is ready is the row's, not the
  record's: the record's lines are the same as a table's that deals at once;
- a human seat has ``turn_seconds`` for its turn; when the deadline passes
  the server plays the rules' auto-move for it (``"auto": true`` in the
  record) until the turn moves on or a card is played. A turn is what a seat
  does until it hands the turn on or makes a move other than a draw: the
  clock goes on through Crazy Eights' draws, and starts again for each card
  of a run a seat plays on its own (Sequence, Michigan);
- the server seed is revealed in the same append as the match's end or the
  host's abandon.

Every record line's time (``at``, record format 2) and every deadline come from
the service's one clock, the deadline in whole milliseconds from the time of the
line after which the turn began: so the verifier, computing a turn's deadline
from the record's times and the header's ``timing``, finds every auto-move at or
after it (spec/record.md).

Deadlines are stored with the game, so a restarted server (or another
process) carries on where the last one was; :meth:`GameService.run_due`
does what is due, and the append's expected length makes sure that only
one process does it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from fairdeal.bots import BotError, make_bot
from fairdeal.cards import Card
from fairdeal.fairness import FairnessError, new_server_seed
from fairdeal.record import Signer, canonical, time_ms
from fairdeal.rules import IllegalMove, Move, MoveError, OptionsError, get
from fairdeal.rules.base import SEAT_OWN, standings_json
from fairdeal.service.errors import Forbidden, Rejected, Stale, TooMany, Unavailable
from fairdeal.service.keys import Sealer, hash_token, new_token
from fairdeal.service.live import Cached, LiveRecords, Notifier
from fairdeal.service.store import KEEP, GameRow, Store
from fairdeal.table import Seat, Table, TableError, Timing

if TYPE_CHECKING:  # pragma: no cover
    from fairdeal.service.transparency import PublicLog

__all__ = ["GameService", "Created", "iso_time", "now_iso"]

log = logging.getLogger("fairdeal.service")

MAX_FOLLOW_UP_MOVES = 200
"""Bot and timed-out moves made in one append at most; the timer carries on with the rest."""


def iso_time(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def status_of(table: Table) -> str:
    if table.abandoned:
        return "abandoned"
    if table.match.over:
        return "over"
    if table.between_hands:
        return "between-hands"
    return "playing" if table.started else "seeding"


BETWEEN_HANDS = "between-hands"
MAX_BOT_SECONDS = 10.0
MAX_NEXT_HAND_SECONDS = 120.0


class Created(dict):
    """The answer to creating a game: ids and the tokens, shown this once."""


@dataclass(frozen=True)
class _NewGame:
    """A game made and not yet stored: what the store keeps, and the tokens for the answer."""

    table: Table
    row: GameRow
    seat_hashes: dict[int, str]
    lines: list[str]
    host_token: str
    join_tokens: dict[int, str]


class GameService(LiveRecords[Table]):
    """The live games of one process, over a shared store."""

    table_name = "games"
    what = "game"
    log: PublicLog | None = None
    """The transparency log the create answers prove their start entry against (set by the app)."""

    def __init__(
        self,
        store: Store,
        signer: Signer,
        sealer: Sealer,
        *,
        turn_seconds: float = 20.0,
        bot_delay: float = 1.0,
        next_hand_seconds: float = 20.0,
        clock: Callable[[], float] = time.time,
        notifier: Notifier | None = None,
        new_ids: Callable[[], tuple[str, str]] | None = None,
        cache_bytes: int | None = None,
    ) -> None:
        super().__init__(store, signer, sealer, notifier, cache_bytes=cache_bytes)
        self.turn_seconds = turn_seconds
        self.bot_delay = bot_delay
        """A bot's wait at a table with people that does not say its own (a table of bots alone: 0)."""
        self.next_hand_seconds = next_hand_seconds
        """The pause between hands of a table with people that does not say its own (bots alone: 0)."""
        self.clock = clock
        self.new_ids = new_ids or _fresh_ids
        self.max_games = 0
        """Games running in all at most (0: no limit; the app sets the operator's)."""
        self.max_games_per_client = 0
        """Games running per creator at most (0: no limit)."""
        self.bot_game_idle_seconds = 0.0
        """A table of bots alone no one looked at for this long expires (0: never)."""
        self.bot_game_max_seconds = 0.0
        """A table of bots alone expires this long after it was made (0: never)."""
        self._touched: dict[str, float] = {}  # game: when this process last noted a look at it
        self.on_deadline: Callable[[float], None] | None = None
        """Told every deadline this process sets (from any thread): the turn timer, which sleeps
        until the earliest one it knows (see :class:`~fairdeal.service.timer.TurnTimer`)."""

    # -- creating ------------------------------------------------------------------

    def _row(self, record_id: str) -> GameRow | None:
        return self.store.game(record_id)

    async def _row_async(self, record_id: str) -> GameRow | None:
        return await self.store.game_async(record_id)

    def _host_hash(self, row: GameRow) -> str:
        return row.host_hash

    def _restore(self, lines: list[dict[str, Any]], server_seed: str, row: GameRow) -> Table:
        return Table.restore(
            lines,
            server_seed,
            self.signer,
            secret=self._secret(row),
            hold_deals=row.next_hand_seconds > 0,
            clock=self.clock,
        )

    def _bot_seconds(self, row: GameRow) -> float:
        # A row made before tables kept their own pace has none: the service's setting.
        return self.bot_delay if row.bot_seconds is None else row.bot_seconds

    def _catch_up(self, cached: Cached[Table], row: GameRow, texts: list[str]) -> None:
        cached.live.catch_up([json.loads(text) for text in texts], secret=self._secret(row))

    # A hand's secret (Table.secret: what a game that declares one keeps until its reveal) is
    # sealed like the seed, under its own associated data so that neither opens as the other.
    def _secret(self, row: GameRow) -> str | None:
        return None if row.sealed_secret is None else self.sealer.open(f"{row.id}/secret", row.sealed_secret)

    def _sealed_secret(self, table: Table) -> bytes | None:
        return None if table.secret is None else self.sealer.seal(f"{table.game_id}/secret", table.secret)

    # -- creating ------------------------------------------------------------------

    async def create_async(
        self,
        rules_name: str,
        options: dict[str, int],
        seats: Sequence[Seat],
        turn_seconds: float | None = None,
        bot_seconds: float | None = None,
        next_hand_seconds: float | None = None,
        host: str = "-",
        creator: str | None = None,
    ) -> Created:
        """A new table; its host token and one join token per human seat (only their hashes are kept).
        ``host`` is who opened it, as the log's start entry says (spec/log.md); ``creator`` the
        pseudonym of the client's address, whose running games are capped (429; all games: 503).

        ``bot_seconds`` and ``next_hand_seconds`` (``None``: the service's, for a table with
        people; 0 for a table of bots alone) are its bots' wait and its pause between hands.
        Stored from the event loop where the store allows, else through :meth:`Store.call`."""
        new = self._new_game(rules_name, options, seats, turn_seconds, bot_seconds, next_hand_seconds, creator)
        await self.check_caps_async(creator)
        index = None
        if self.store.async_ready():
            try:
                index = await self.store.create_game_async(new.row, new.seat_hashes, new.lines, host=host)
            except self.store.loop_errors:
                # The loop's connection failed, before or after its commit: the game is made
                # if its start entry is in the log (the id is new: no one else's), else made now.
                entries = await self.store.call(self.store.log_of, new.row.id)
                index = entries[0][0] if entries else None
        if index is None:
            index = await self.store.call(self.store.create_game, new.row, new.seat_hashes, new.lines, host=host)
        self._deadline_set(new.row.deadline)
        created = self._created(new)
        if self.log is not None and index is not None:
            created["log"] = await self.log.announce_async(index)
        return created

    def _new_game(
        self,
        rules_name: str,
        options: dict[str, int],
        seats: Sequence[Seat],
        turn_seconds: float | None,
        bot_seconds: float | None = None,
        next_hand_seconds: float | None = None,
        creator: str | None = None,
    ) -> _NewGame:
        try:
            rules = get(rules_name, options)
            rules.check_new()  # a record may hold more (an earlier version's maximum), a new table not
            rules.check_seats(len(seats))
        except OptionsError as exc:
            raise Rejected(str(exc)) from None
        turn_seconds = self.turn_seconds if turn_seconds is None else turn_seconds
        people = any(not seat.bot for seat in seats)
        if bot_seconds is None:
            bot_seconds = self.bot_delay if people else 0.0
        if next_hand_seconds is None:
            next_hand_seconds = self.next_hand_seconds if people else 0.0
        if not (0 <= bot_seconds <= MAX_BOT_SECONDS and 0 <= next_hand_seconds <= MAX_NEXT_HAND_SECONDS):
            raise Rejected(f"bot_seconds is 0 to {MAX_BOT_SECONDS:g}, next_hand_seconds 0 to {MAX_NEXT_HAND_SECONDS:g}")
        game_id, server_seed = self.new_ids()
        pace = _Pace(turn_seconds, bot_seconds, next_hand_seconds)
        try:
            # The record's times and the deadlines come from the one clock (spec/record.md).
            table = Table.new(
                game_id,
                rules,
                seats,
                self.signer,
                clock=self.clock,
                timing=pace.timing,
                server_seed=server_seed,
                hold_deals=next_hand_seconds > 0,
            )
        except (TableError, FairnessError) as exc:
            raise Rejected(str(exc)) from None
        host_token = new_token()
        join_tokens = {i: new_token() for i, seat in enumerate(seats) if not seat.bot}
        columns = self._follow_up(table, pace)  # a table of bots alone starts at once
        row = GameRow(
            id=game_id,
            rules=rules.name,
            created=table.lines[0]["created"],
            status=columns["status"],
            sealed_seed=self.sealer.seal(game_id, server_seed),
            host_hash=hash_token(host_token),
            turn_seconds=turn_seconds,
            deadline=columns["deadline"],
            length=table.seq,
            sealed_secret=self._sealed_secret(table),  # a table of bots may be dealing already
            bot_seconds=bot_seconds,
            next_hand_seconds=next_hand_seconds,
            creator=creator,
            bots_only=int(not people),
            opened=self.clock(),
            touched=self.clock(),
        )
        seat_hashes = {seat: hash_token(token) for seat, token in join_tokens.items()}
        return _NewGame(
            table, row, seat_hashes, [canonical(line).decode() for line in table.lines], host_token, join_tokens
        )

    def _created(self, new: _NewGame) -> Created:
        """The answer to a create, once stored; the new table is cached as it is (no reading it back)."""
        self._keep_new(new.row.id, Cached(new.table, new.row.host_hash, new.seat_hashes, new.row))
        return Created(
            game_id=new.row.id,
            commitment=new.table.dealer.commitment,
            host_token=new.host_token,
            seats=[
                {
                    "seat": i,
                    "name": seat.name,
                    "bot": seat.bot,
                    **({"join_token": new.join_tokens[i]} if i in new.join_tokens else {}),
                }
                for i, seat in enumerate(new.table.seats)
            ],
            public_key=self.signer.public_hex,
            seq=new.table.seq,
            status=new.row.status,
        )

    # -- the steps of a game ----------------------------------------------------------

    def _act(self, game_id: str, action: Callable[[Table, GameRow], Any]) -> Any:
        """:meth:`_act_async` from a thread: the steps that name no move's seq and want no answer
        (the start, an expiry, an abandon, the timer's move)."""
        guarded, after = self._steps(action)
        return self.act(game_id, guarded, after=after)

    async def _act_async(
        self,
        game_id: str,
        action: Callable[[Table, GameRow], Any],
        expected_seq: int | None = None,
        then: Callable[[Table, GameRow, Any], Any] | None = None,
    ) -> Any:
        guarded, after = self._steps(action)
        return await self.act_async(game_id, guarded, expected_seq=expected_seq, after=after, then=then)

    def _steps(
        self, action: Callable[[Table, GameRow], Any]
    ) -> tuple[Callable[[Table, GameRow], Any], Callable[[Table, GameRow], dict[str, Any]]]:
        """``action`` with the engine's errors as the service's, and what follows it (bots, the
        reveal, status and deadline): the ``action`` and ``after`` of :meth:`act`."""
        same_turn = False
        secret_before: str | None = None

        def guarded(table: Table, row: GameRow) -> Any:
            nonlocal same_turn, secret_before
            secret_before = table.secret
            # Who is ready is the row's (another process may have noted one since this one cached the table).
            table.readied = _seats_of(row.ready) if table.between_hands else set()
            turn_before = _turn_key(table)
            seq_before = table.seq
            try:
                result = action(table, row)
                same_turn = _turn_key(table) == turn_before and _last_move_drew(table, seq_before)
                return result
            except IllegalMove as exc:
                raise Rejected(exc.reason) from None
            except (MoveError, FairnessError) as exc:
                raise Rejected(str(exc)) from None
            except TableError as exc:
                raise Stale(str(exc)) from None

        def after(table: Table, row: GameRow) -> dict[str, Any]:
            columns = self._follow_up(table, self._pace(row), row, same_turn)
            if table.secret != secret_before:
                columns["sealed_secret"] = self._sealed_secret(table)
            return columns

        return guarded, after

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

        def start(table: Table, row: GameRow) -> Any:
            result = table.start()
            people.extend(table.people)
            return result

        result = self._act(game_id, start)
        if not people:
            self.store.set_bots_only(game_id, self.clock())
        return result

    # -- the operator's limits ------------------------------------------------------------

    def check_caps(self, creator: str | None) -> None:
        """:class:`Unavailable` (503) when :attr:`max_games` games are running, :class:`TooMany`
        (429) when ``creator`` runs :attr:`max_games_per_client`. (Two creates at once in two
        processes may both pass: a cap, not a count to the game.)"""
        total = self.store.running_games() if self.max_games else 0
        mine = self.store.running_games(creator) if creator is not None and self.max_games_per_client else 0
        self._caps(total, mine)

    async def check_caps_async(self, creator: str | None) -> None:
        """:meth:`check_caps` from async code (on the event loop where the store allows)."""
        total = await self.store.running_games_async() if self.max_games else 0
        mine = await self.store.running_games_async(creator) if creator is not None and self.max_games_per_client else 0
        self._caps(total, mine)

    def _caps(self, total: int, mine: int) -> None:
        if self.max_games and total >= self.max_games:
            raise Unavailable(
                f"the service runs {self.max_games} games, its most: try again when some have ended", retry_after=60
            )
        if self.max_games_per_client and mine >= self.max_games_per_client:
            raise TooMany(
                f"this address runs {mine} games, the most one may: finish or abandon one first", retry_after=60
            )

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
                raise Stale(f"no hand is waiting to be dealt: the game is {status_of(table)}")
            if seat in table.bots:
                raise Forbidden(f"seat {seat} is played by a bot")
            if table.ready(seat):
                table.next_hand()

        return ready

    def _view_of(self, seat: int) -> Callable[[Table, GameRow, dict[str, Any]], tuple[dict[str, Any], dict[str, Any]]]:
        return lambda table, row, receipt: (receipt, self._describe(table, row, seat))

    @staticmethod
    def _play(seat: int, move: Move) -> Callable[[Table, GameRow], dict[str, Any]]:
        def play(table: Table, row: GameRow) -> dict[str, Any]:
            if not table.started:
                raise Stale("the game has not started: client seeds are still open")
            if table.finished or table.between_hands:
                raise Stale(f"the game is {status_of(table)}")
            if seat in table.bots:
                raise Forbidden(f"seat {seat} is played by a bot")
            return table.move(seat, move)

        return play

    def abandon(self, game_id: str, reason: str) -> dict[str, Any]:
        """The host ends the game; the server seed is revealed with it."""
        return self._act(game_id, lambda table, row: table.abandon(reason))

    # -- what follows by itself --------------------------------------------------------

    def _answer(
        self,
        record_id: str,
        cached: Cached[Table],
        row: GameRow,
        columns: dict[str, Any],
        result: Any,
        then: Callable[[Table, GameRow, Any], Any] | None,
    ) -> Any:
        # After the append, not before: a timer woken before the commit would look at the store,
        # find no deadline yet, and sleep its whole tick.
        self._deadline_set(columns.get("deadline"))
        return super()._answer(record_id, cached, row, columns, result, then)

    def _deadline_set(self, deadline: float | None) -> None:
        """A deadline this process stored: the timer is told (see :attr:`on_deadline`)."""
        if self.on_deadline is not None and deadline is not None and deadline is not KEEP:
            self.on_deadline(deadline)

    def _pace(self, row: GameRow) -> _Pace:
        return _Pace(row.turn_seconds, self._bot_seconds(row), row.next_hand_seconds)

    def _follow_up(
        self, table: Table, pace: _Pace, row: GameRow | None = None, same_turn: bool = False
    ) -> dict[str, Any]:
        """Bots' moves (when they move at once), the next deal when no person is left to wait for,
        and the reveal at the end; then the game's status, next deadline and who is ready (for an
        existing game: only what changed, ``None`` / ``KEEP`` otherwise).

        ``same_turn``: the action left the turn with the seat that had it (a draw), so its time goes on.
        """
        for _ in range(MAX_FOLLOW_UP_MOVES):
            if table.between_hands and not table.people:
                table.next_hand()  # every person's seat went to a bot: no one to wait for
            elif pace.bot_seconds == 0 and table.started and not table.finished and table.match.turn in table.bots:
                self._bot_move(table)
            else:
                break
            same_turn = False
        if table.finished and not table.revealed:
            table.reveal()
        status = status_of(table)
        paused_before = row is not None and row.status == BETWEEN_HANDS
        deadline = self._deadline(table, None if row is None else row.deadline, same_turn, pace, paused_before)
        ready = _mask(table.readied) if table.between_hands else 0
        if row is None:
            return {"status": status, "deadline": deadline}
        return {
            "status": None if status == row.status else status,
            "deadline": KEEP if deadline == row.deadline else deadline,
            "ready": KEEP if ready == row.ready else ready,
        }

    def _deadline(
        self, table: Table, before: float | None, same_turn: bool, pace: _Pace, paused_before: bool
    ) -> float | None:
        if not table.started or table.finished:
            return None
        # In whole milliseconds from the last line's time at the latest (the writer's floor):
        # the verifier computes a turn's deadline from the record's times just so.
        # (A game begun in format 1 goes on without times: its deadlines are the clock's alone.)
        now_ms = table.writer.now_ms() if table.writer.clock is not None else time_ms(self.clock())
        now = now_ms / 1000
        if table.between_hands:
            # The countdown to the next deal: set when the pause begins, kept while it lasts.
            return before if paused_before and before is not None else now + pace.next_hand_seconds
        if table.match.turn in table.bots:
            # With no delay, a bot still to move here is one the follow-up cap left: due now.
            return now + pace.bot_seconds
        if before is not None and same_turn:
            return before  # the same turn goes on (a draw): its time does not start again
        # Some decisions take longer than a turn (an Eleusis dealer writing the round's rule).
        return (now_ms + pace.timing.turn_ms * table.rules.turn_factor(table.match.state)) / 1000

    def _bot_move(self, table: Table) -> None:
        seat = table.match.turn
        rules = table.rules
        view = table.match.view(seat)
        try:
            if "heuristic" in rules.bot_kinds():
                move = make_bot("heuristic").choose(rules, view)
            else:
                move = make_bot("random", f"{table.game_id}/{table.seq}").choose(rules, view)
            table.move(seat, move, receipt=False)
        except (BotError, IllegalMove):
            # A bot that cannot choose must not stall the table: it makes the table's own move.
            log.warning("bot could not move; game=%s seat=%s: auto-move instead", table.game_id, seat)
            table.move(seat, table.match.auto_move(), receipt=False)

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
                    **({} if h.sheet is None else h.sheet.record()),
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
            hand: Sequence[Card] = view.hand if view is not None else ()
            out.update(
                seat=seat,
                your_turn=turn == seat,
                hand=[card.code for card in hand],
                pending=seen.get("pending"),
                # From the one view, not through Match (which builds the view again for every card).
                legal_moves=_legal_json(table, view),
                cards=[_card_note(table, view, card) for card in hand],
            )
        return out

    def _next_hand(self, table: Table, row: GameRow) -> dict[str, Any]:
        """The pause between hands: the hand to come, its countdown, who is ready and who is
        waited for, and every seat's cards left (shown at the hand's end, to be counted)."""
        ready = _seats_of(row.ready)
        end = row.deadline
        return {
            "hand": table.match.hand_no + 1,
            "deadline": None if end is None else iso_time(end),
            "seconds_left": None if end is None else round(max(0.0, end - self.clock()), 3),
            "ready": [s for s in table.people if s in ready],
            "waiting": [s for s in table.people if s not in ready],
            "cards_left": [[card.code for card in hand] for hand in table.match.state.hands],
        }

    def _again_for(self, row: GameRow, seat: int | None) -> dict[str, Any]:
        """The table played again from this one; for a seat's own view, its join token there too."""
        again: dict[str, Any] = {"game_id": row.again_id}
        if seat is not None and row.sealed_again is not None:
            tokens = json.loads(self.sealer.open(f"{row.id}/again", row.sealed_again))
            if str(seat) in tokens:
                again.update(seat=seat, token=tokens[str(seat)])
        return again

    # -- playing again -----------------------------------------------------------------

    async def again_async(self, game_id: str) -> Created:
        """A new table with this one's seats, rules, options and pace, once this one is over or
        abandoned; noted in this one's row (each human seat's new token sealed for its own view)."""
        return await self.store.call(self.again, game_id)

    def again(self, game_id: str) -> Created:
        """:meth:`again_async`, from a thread."""
        table, row = self.read(game_id, lambda table, row: (table, row))
        if row.again_id is not None:
            raise Stale(f"this table was played again already: {row.again_id}")
        if not table.finished:
            raise Stale(f"the game is {status_of(table)}: play again once it is over or abandoned")
        seats = [Seat(seat.name, seat.bot) for seat in table.seats]
        self.check_caps(row.creator)
        new = self._new_game(
            table.rules.name,
            dict(table.rules.options),
            seats,
            row.turn_seconds,
            self._bot_seconds(row),
            row.next_hand_seconds,
            row.creator,
        )
        tokens = {str(seat): token for seat, token in new.join_tokens.items()}
        sealed = self.sealer.seal(f"{game_id}/again", json.dumps(tokens, sort_keys=True))
        # Noted first, so that of two racing calls only one makes a table.
        if not self.store.set_again(game_id, new.row.id, sealed):
            made = self.store.game(game_id)
            raise Stale(f"this table was played again already: {made.again_id if made else '?'}")
        # The new table was opened by whoever opened this one (its start entry's host).
        host = next((json.loads(text).get("host", "-") for _, text in self.store.log_of(game_id)[:1]), "-")
        index = self.store.create_game(new.row, new.seat_hashes, new.lines, host=host)
        self.notifier.changed(game_id)  # the old table's views now say where the next one is
        created = self._created(new)
        if self.log is not None and index is not None:
            created["log"] = self.log.announce(index)
        return created


@dataclass(frozen=True)
class _Pace:
    """A table's times: a person's turn, a bot's wait, the pause between hands."""

    turn_seconds: float
    bot_seconds: float
    next_hand_seconds: float

    @property
    def timing(self) -> Timing:
        """As the record's header gives them (whole milliseconds)."""
        return Timing.of_seconds(self.turn_seconds, self.bot_seconds, self.next_hand_seconds)


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


def _mask(seats: set[int]) -> int:
    return sum(1 << seat for seat in seats)


def _seats_of(mask: int) -> set[int]:
    return {seat for seat in range(mask.bit_length()) if mask >> seat & 1}


def _legal_json(table: Table, view: Any) -> list[dict[str, Any]]:
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


def _committing(seat: int, commitment: str) -> Callable[[Table, GameRow], dict[str, Any]]:
    return lambda table, row: table.commit(seat, commitment)


def _revealing(seat: int, seed: str) -> Callable[[Table, GameRow], dict[str, Any]]:
    # A seed that does not match its commitment is a FairnessError (422); a reveal out of
    # order a TableError (409): the table's seed phase tells them apart.
    return lambda table, row: table.reveal_client_seed(seat, seed)


def _fresh_ids() -> tuple[str, str]:
    """A new game's id and server seed, both from the OS CSPRNG."""
    return secrets.token_urlsafe(12), new_server_seed()


class _DueTurn:
    """The timer's action on one claimed game (see :meth:`GameService.play_due`): its due turn,
    if it is still due by ``now``: the next deal after a pause, a bot's turn, or a seat out
    of time played for (draws, then a play). :attr:`played` says whether it moved."""

    def __init__(self, games: GameService, game_id: str, now: float) -> None:
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


def _turn_key(table: Table) -> tuple[int, int | None]:
    return (table.match.hand_no, table.match.turn)


def _drew(table: Table, start: int) -> bool:
    """Whether the first line added since ``start`` is a draw: the one move after which a turn goes on."""
    lines = table.lines_since(start)
    return bool(lines) and lines[0].get("type") == "move" and lines[0].get("move") == "draw"


def _last_move_drew(table: Table, start: int) -> bool:
    """Whether the last move added since ``start`` is a draw: the turn it was part of goes on
    (the timer's draws then a play that keeps the turn start a new turn, as the verifier reads it)."""
    moves = [line for line in table.lines_since(start) if line.get("type") == "move"]
    return bool(moves) and moves[-1].get("move") == "draw"


def _card_note(table: Table, view: Any, card: Card) -> dict[str, Any]:
    if table.abandoned:
        why_not: str | None = "the game was abandoned"
    else:
        why_not = "the match is over" if table.match.over else table.rules.explain(view, card)
    return {"card": card.code, "playable": why_not is None, "why_not": why_not}
