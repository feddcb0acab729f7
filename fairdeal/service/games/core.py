"""What every concern of :class:`~fairdeal.service.games.GameService` shares: its state, its
stored rows and their replays, and the steps of every action, with what follows each by itself
(bots that move at once, the next deal, the reveal, the status and the next deadline)."""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING
from typing import Any
from typing import TypeVar
from typing import overload

from fairdeal.bots import BotError
from fairdeal.bots import make_bot
from fairdeal.fairness import FairnessError
from fairdeal.fairness import new_server_seed
from fairdeal.record import Signer
from fairdeal.record import time_ms
from fairdeal.rules import IllegalMove
from fairdeal.rules import MoveError
from fairdeal.said import Said
from fairdeal.service.errors import Rejected
from fairdeal.service.errors import Stale
from fairdeal.service.keys import Sealer
from fairdeal.service.live import Cached
from fairdeal.service.live import LiveRecords
from fairdeal.service.live import Notifier
from fairdeal.service.store import KEEP
from fairdeal.service.store import GameRow
from fairdeal.service.store import Store
from fairdeal.table import Table
from fairdeal.table import TableError
from fairdeal.table import Timing

if TYPE_CHECKING:  # pragma: no cover
    from fairdeal.service.transparency import PublicLog

log = logging.getLogger("fairdeal.service")

T = TypeVar("T")  # what an action returns
U = TypeVar("U")  # what the answer made from it is

MAX_FOLLOW_UP_MOVES = 200
"""Bot and timed-out moves made in one append at most; the timer carries on with the rest."""


def status_of(table: Table) -> str:
    if table.abandoned:
        return "abandoned"
    if table.match.over:
        return "over"
    if table.between_hands:
        return "between-hands"
    return "playing" if table.started else "seeding"


BETWEEN_HANDS = "between-hands"

_STATUS_WORDS = {
    "seeding": Said("seeding"),
    "playing": Said("playing"),
    "between-hands": Said("between-hands"),
    "over": Said("over"),
    "abandoned": Said("abandoned"),
}


def status_words(table: Table) -> Said:
    """The game's status (:func:`status_of`) as a refusal says it: ``the game is over``."""
    return _STATUS_WORDS[status_of(table)]


def bot_seat(seat: int) -> Said:
    """Why a person's action for ``seat``, which a bot plays, is refused."""
    return Said("seat {seat} is played by a bot", seat=seat)


class GameCore(LiveRecords[Table]):
    """The live games of one process, over a shared store: the state and the plumbing every concern uses."""

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

    # -- the stored rows and their replays ----------------------------------------------

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

    # -- the steps of a game ----------------------------------------------------------

    def _act(self, game_id: str, action: Callable[[Table, GameRow], T]) -> T:
        """:meth:`_act_async` from a thread: the steps that name no move's seq and want no answer
        (the start, an expiry, an abandon, the timer's move)."""
        guarded, after = self._steps(action)
        return self.act(game_id, guarded, after=after)

    @overload
    async def _act_async(
        self,
        game_id: str,
        action: Callable[[Table, GameRow], T],
        expected_seq: int | None = None,
        then: None = None,
    ) -> T: ...

    @overload
    async def _act_async(
        self,
        game_id: str,
        action: Callable[[Table, GameRow], T],
        expected_seq: int | None = None,
        *,
        then: Callable[[Table, GameRow, T], U],
    ) -> U: ...

    async def _act_async(
        self,
        game_id: str,
        action: Callable[[Table, GameRow], T],
        expected_seq: int | None = None,
        then: Callable[[Table, GameRow, T], Any] | None = None,
    ) -> Any:
        guarded, after = self._steps(action)
        return await self.act_async(game_id, guarded, expected_seq=expected_seq, after=after, then=then)

    def _steps(
        self, action: Callable[[Table, GameRow], T]
    ) -> tuple[Callable[[Table, GameRow], T], Callable[[Table, GameRow], dict[str, Any]]]:
        """``action`` with the engine's errors as the service's, and what follows it (bots, the
        reveal, status and deadline): the ``action`` and ``after`` of :meth:`act`."""
        same_turn = False
        secret_before: str | None = None

        def guarded(table: Table, row: GameRow) -> T:
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
        assert seat is not None, "a bot moves on its turn: asked only when the seat to act is a bot"
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


def _mask(seats: set[int]) -> int:
    return sum(1 << seat for seat in seats)


def _seats_of(mask: int) -> set[int]:
    return {seat for seat in range(mask.bit_length()) if mask >> seat & 1}


def _turn_key(table: Table) -> tuple[int, int | None]:
    return (table.match.hand_no, table.match.turn)


def _last_move_drew(table: Table, start: int) -> bool:
    """Whether the last move added since ``start`` is a draw: the turn it was part of goes on
    (the timer's draws then a play that keeps the turn start a new turn, as the verifier reads it)."""
    moves = [line for line in table.lines_since(start) if line.get("type") == "move"]
    return bool(moves) and moves[-1].get("move") == "draw"


def _fresh_ids() -> tuple[str, str]:
    """A new game's id and server seed, both from the OS CSPRNG."""
    return secrets.token_urlsafe(12), new_server_seed()
