"""Live card tables: create, client seeds, moves, bots, the turn timer, the reveal; views for seats.

Every change to a game is a :class:`~fairdeal.table.Table` call whose new
record lines are appended atomically (:class:`~fairdeal.service.live.LiveRecords`);
everything a client reads is computed from the table those lines replay to.

The table's own rules live here too:

- a bot seat (marked in the header, or a seat the host started without)
  moves by itself, ``bot_delay`` seconds after it got the turn; with a delay
  of 0 it moves within the request that handed it the turn;
- a human seat has ``turn_seconds`` for its turn; when the deadline passes
  the server plays the rules' auto-move for it (``"auto": true`` in the
  record) until the turn moves on or a card is played. A turn is what a seat
  does until it hands the turn on or makes a move other than a draw: the
  clock goes on through Crazy Eights' draws, and starts again for each card
  of a run a seat plays on its own (Sequence, Michigan);
- the server seed is revealed in the same append as the match's end or the
  host's abandon.

Deadlines are stored with the game, so a restarted server (or another
process) carries on where the last one was; :meth:`GameService.run_due`
does what is due, and the append's expected length makes sure that only
one process does it.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from fairdeal.bots import BotError, make_bot
from fairdeal.cards import Card
from fairdeal.fairness import FairnessError, new_server_seed
from fairdeal.record import Signer, canonical
from fairdeal.rules import IllegalMove, Move, MoveError, OptionsError, get
from fairdeal.service.errors import Forbidden, Rejected, Stale
from fairdeal.service.keys import Sealer, hash_token, new_token
from fairdeal.service.live import Cached, LiveRecords, Notifier
from fairdeal.service.store import KEEP, GameRow, Store
from fairdeal.table import Seat, Table, TableError

__all__ = ["GameService", "Created", "iso_time", "now_iso"]

log = logging.getLogger("fairdeal.service")

MAX_FOLLOW_UP_MOVES = 200
"""Bot and timed-out moves made in one append at most; the timer carries on with the rest."""


def iso_time(t: float) -> str:
    return datetime.fromtimestamp(t, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def now_iso() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def status_of(table: Table) -> str:
    if table.abandoned:
        return "abandoned"
    if table.match.over:
        return "over"
    return "playing" if table.started else "seeding"


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

    def __init__(
        self,
        store: Store,
        signer: Signer,
        sealer: Sealer,
        *,
        turn_seconds: float = 20.0,
        bot_delay: float = 0.3,
        clock: Callable[[], float] = time.time,
        notifier: Notifier | None = None,
        new_ids: Callable[[], tuple[str, str]] | None = None,
    ) -> None:
        super().__init__(store, signer, sealer, notifier)
        self.turn_seconds = turn_seconds
        self.bot_delay = bot_delay
        self.clock = clock
        self.new_ids = new_ids or _fresh_ids

    # -- creating ------------------------------------------------------------------

    def _row(self, record_id: str) -> GameRow | None:
        return self.store.game(record_id)

    async def _row_async(self, record_id: str) -> GameRow | None:
        return await self.store.game_async(record_id)

    def _host_hash(self, row: GameRow) -> str:
        return row.host_hash

    def _restore(self, lines: list[dict[str, Any]], server_seed: str, row: GameRow) -> Table:
        return Table.restore(lines, server_seed, self.signer, secret=self._secret(row))

    def _catch_up(self, cached: Cached[Table], row: GameRow, texts: list[str]) -> None:
        cached.live.catch_up([json.loads(text) for text in texts], secret=self._secret(row))

    # A round's secret (a dealer's typed rule) is sealed like the seed, under its own
    # associated data so that neither opens as the other.
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
    ) -> Created:
        """A new table; its host token and one join token per human seat (only their hashes are kept).

        Stored from the event loop where the store allows, else through :meth:`Store.call`."""
        new = self._new_game(rules_name, options, seats, turn_seconds)
        if not (self.store.async_ready() and await self.store.create_game_async(new.row, new.seat_hashes, new.lines)):
            await self.store.call(self.store.create_game, new.row, new.seat_hashes, new.lines)
        return self._created(new)

    def _new_game(
        self, rules_name: str, options: dict[str, int], seats: Sequence[Seat], turn_seconds: float | None
    ) -> _NewGame:
        try:
            rules = get(rules_name, options)
            rules.check_seats(len(seats))
        except OptionsError as exc:
            raise Rejected(str(exc)) from None
        turn_seconds = self.turn_seconds if turn_seconds is None else turn_seconds
        game_id, server_seed = self.new_ids()
        try:
            table = Table.new(game_id, rules, seats, self.signer, created=now_iso(), server_seed=server_seed)
        except (TableError, FairnessError) as exc:
            raise Rejected(str(exc)) from None
        host_token = new_token()
        join_tokens = {i: new_token() for i, seat in enumerate(seats) if not seat.bot}
        columns = self._follow_up(table, turn_seconds)  # a table of bots alone starts at once
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
        )
        seat_hashes = {seat: hash_token(token) for seat, token in join_tokens.items()}
        return _NewGame(table, row, seat_hashes, [canonical(line).decode() for line in table.lines], host_token, join_tokens)

    def _created(self, new: _NewGame) -> Created:
        """The answer to a create, once stored; the new table is cached as it is (no reading it back)."""
        self._keep_new(new.row.id, Cached(new.table, new.row.host_hash, new.seat_hashes, new.row))
        return Created(
            game_id=new.row.id,
            commitment=new.table.dealer.commitment,
            host_token=new.host_token,
            seats=[
                {"seat": i, "name": seat.name, "bot": seat.bot,
                 **({"join_token": new.join_tokens[i]} if i in new.join_tokens else {})}
                for i, seat in enumerate(new.table.seats)
            ],
            public_key=self.signer.public_hex,
            seq=new.table.seq,
            status=new.row.status,
        )

    # -- the steps of a game ----------------------------------------------------------

    def _act(
        self,
        game_id: str,
        action: Callable[[Table, GameRow], Any],
        expected_seq: int | None = None,
        then: Callable[[Table, GameRow, Any], Any] | None = None,
    ) -> Any:
        guarded, after = self._steps(action)
        return self.act(game_id, guarded, expected_seq=expected_seq, after=after, then=then)

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
            turn_before = _turn_key(table)
            seq_before = table.seq
            try:
                result = action(table, row)
                same_turn = _turn_key(table) == turn_before and _drew(table, seq_before)
                return result
            except IllegalMove as exc:
                raise Rejected(exc.reason) from None
            except (MoveError, FairnessError) as exc:
                raise Rejected(str(exc)) from None
            except TableError as exc:
                raise Stale(str(exc)) from None

        def after(table: Table, row: GameRow) -> dict[str, Any]:
            columns = self._follow_up(table, row.turn_seconds, row, same_turn)
            if table.secret != secret_before:
                columns["sealed_secret"] = self._sealed_secret(table)
            return columns

        return guarded, after

    async def commit_async(self, game_id: str, seat: int, commitment: str) -> dict[str, Any]:
        """Record a human seat's client-seed commitment; returns its signed receipt."""
        return await self._act_async(game_id, _committing(seat, commitment))

    async def reveal_and_view_async(self, game_id: str, seat: int, seed: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """Record a seat's client seed (reveals open once every human seat has committed); its
        receipt, and the seat's view just after it (the last reveal starts the game)."""
        return await self._act_async(game_id, _revealing(seat, seed), then=self._view_of(seat))

    def start(self, game_id: str) -> dict[str, Any]:
        """The host starts now: seats without a revealed seed are played by bots."""
        return self._act(game_id, lambda table, row: table.start())

    async def move_and_view_async(
        self, game_id: str, seat: int, move: Move, expected_seq: int
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """``seat``'s move, if the record is still ``expected_seq`` lines long: its signed receipt,
        and the seat's view just after it (the bots' replies made), from the state the move's
        append left, not from reading the game again.

        Like every ``*_async`` action here, it runs on the event loop where the store allows
        (see :meth:`~fairdeal.service.live.LiveRecords.act_async`), else in a worker thread."""
        return await self._act_async(game_id, self._play(seat, move), expected_seq, then=self._view_of(seat))

    def _view_of(self, seat: int) -> Callable[[Table, GameRow, dict[str, Any]], tuple[dict[str, Any], dict[str, Any]]]:
        return lambda table, row, receipt: (receipt, self._describe(table, row, seat))

    @staticmethod
    def _play(seat: int, move: Move) -> Callable[[Table, GameRow], dict[str, Any]]:
        def play(table: Table, row: GameRow) -> dict[str, Any]:
            if not table.started:
                raise Stale("the game has not started: client seeds are still open")
            if table.finished:
                raise Stale(f"the game is {status_of(table)}")
            if seat in table.bots:
                raise Forbidden(f"seat {seat} is played by a bot")
            return table.move(seat, move)

        return play

    def abandon(self, game_id: str, reason: str) -> dict[str, Any]:
        """The host ends the game; the server seed is revealed with it."""
        return self._act(game_id, lambda table, row: table.abandon(reason))

    # -- what follows by itself --------------------------------------------------------

    def _follow_up(
        self, table: Table, turn_seconds: float, row: GameRow | None = None, same_turn: bool = False
    ) -> dict[str, Any]:
        """Bots' moves (when they move at once) and the reveal at the end, then the game's status and
        next deadline (for an existing game: only what changed, ``None`` / ``KEEP`` otherwise).

        ``same_turn``: the action left the turn with the seat that had it (a draw), so its time goes on.
        """
        if self.bot_delay == 0:
            for _ in range(MAX_FOLLOW_UP_MOVES):
                if not table.started or table.finished or table.match.turn not in table.bots:
                    break
                self._bot_move(table)
                same_turn = False
        if table.finished and not table.revealed:
            table.reveal()
        status = status_of(table)
        deadline = self._deadline(table, None if row is None else row.deadline, same_turn, turn_seconds)
        if row is None:
            return {"status": status, "deadline": deadline}
        return {
            "status": None if status == row.status else status,
            "deadline": KEEP if deadline == row.deadline else deadline,
        }

    def _deadline(self, table: Table, before: float | None, same_turn: bool, turn_seconds: float) -> float | None:
        if not table.started or table.finished:
            return None
        now = self.clock()
        if table.match.turn in table.bots:
            # With no delay, a bot still to move here is one the follow-up cap left: due now.
            return now + self.bot_delay
        if before is not None and same_turn:
            return before  # the same turn goes on (a draw): its time does not start again
        return now + turn_seconds

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

    def run_due(self, now: float | None = None) -> int:
        """Make every move that is due (bots, timed-out turns) in the games of the store; how many games moved."""
        now = self.clock() if now is None else now
        moved = 0
        for game_id in self.store.due_games(now):
            try:
                if self._play_due(game_id, now):
                    moved += 1
            except Stale:
                pass  # another process made that move
            except Exception:
                log.exception("timer: could not play the due turn of game %s", game_id)
        return moved

    def _play_due(self, game_id: str, now: float) -> bool:
        played = False

        def due(table: Table, row: GameRow) -> None:
            nonlocal played
            if row.deadline is None or row.deadline > now or not table.started or table.finished:
                return  # not due (any more); the follow-up puts the right deadline back
            seat = table.match.turn
            bot = seat in table.bots
            if not bot:
                log.info("timer: seat %s of game %s timed out", seat, game_id)
            # A whole turn: a bot's, or the table's auto-moves for a seat out of time (draws, then a play).
            turn = _turn_key(table)
            for _ in range(MAX_FOLLOW_UP_MOVES):
                before = table.seq
                if bot:
                    self._bot_move(table)
                else:
                    table.move(seat, table.match.auto_move(), auto=True, receipt=False)
                if table.finished or _turn_key(table) != turn or not _drew(table, before):
                    break
            played = True

        self._act(game_id, due)
        return played

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
        deadline = row.deadline if table.started and not table.finished and turn not in table.bots else None
        public = None
        view = None
        if match.state is not None:
            view = match.view(seat)
            public = view.to_json()
            for private in ("seat", "hand", "pending"):
                public.pop(private, None)
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
            "standings": match.standings if match.over else None,
        }
        if table.revealed:
            out["server_seed"] = next(line["server_seed"] for line in reversed(table.lines) if line["type"] == "reveal")
        if seat is not None:
            hand: Sequence[Card] = view.hand if view is not None else ()
            # A card drawn that must be played or kept (Crazy Eights); another game's view may
            # keep something else under that name (Eleusis: the play awaiting the Forecaster's call).
            pending = getattr(view, "pending", None)
            if not isinstance(pending, Card):
                pending = None
            out.update(
                seat=seat,
                your_turn=turn == seat,
                hand=[card.code for card in hand],
                pending=None if pending is None else pending.code,
                # From the one view, not through Match (which builds the view again for every card).
                legal_moves=_legal_json(table, view),
                cards=[_card_note(table, view, card) for card in hand],
            )
        return out


def _legal_json(table: Table, view: Any) -> list[dict[str, Any]]:
    """The seat's legal moves as the API takes them; once each (a dealer's many possible rules are
    one ``{"move": "rule"}``: a rule's text is the dealer's to type, not the API's to list)."""
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


def _turn_key(table: Table) -> tuple[int, int | None]:
    return (table.match.hand_no, table.match.turn)


def _drew(table: Table, start: int) -> bool:
    """Whether the first line added since ``start`` is a draw: the one move after which a turn goes on."""
    lines = table.lines
    return len(lines) > start and lines[start].get("type") == "move" and lines[start].get("move") == "draw"


def _card_note(table: Table, view: Any, card: Card) -> dict[str, Any]:
    if table.abandoned:
        why_not: str | None = "the game was abandoned"
    else:
        why_not = "the match is over" if table.match.over else table.rules.explain(view, card)
    return {"card": card.code, "playable": why_not is None, "why_not": why_not}

