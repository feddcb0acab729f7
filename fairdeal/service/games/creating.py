"""Creating games: a new table (the operator's caps checked first), and a finished one played again."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fairdeal.fairness import FairnessError
from fairdeal.record import canonical
from fairdeal.rules import OptionsError
from fairdeal.rules import get
from fairdeal.said import Said
from fairdeal.service.errors import Rejected
from fairdeal.service.errors import Stale
from fairdeal.service.errors import TooMany
from fairdeal.service.errors import Unavailable
from fairdeal.service.games.core import GameCore
from fairdeal.service.games.core import _Pace
from fairdeal.service.games.core import status_words
from fairdeal.service.keys import hash_token
from fairdeal.service.keys import new_token
from fairdeal.service.live import Cached
from fairdeal.service.store import GameRow
from fairdeal.table import Seat
from fairdeal.table import Table
from fairdeal.table import TableError

MAX_BOT_SECONDS = 10.0
MAX_NEXT_HAND_SECONDS = 120.0


class Created(dict[str, Any]):
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


class Creating(GameCore):
    """Making tables: :meth:`create_async`, and :meth:`again` once one is over."""

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
                Said("the service runs {n} games, its most: try again when some have ended", n=self.max_games),
                retry_after=60,
            )
        if self.max_games_per_client and mine >= self.max_games_per_client:
            raise TooMany(
                Said("this address runs {n} games, the most one may: finish or abandon one first", n=mine),
                retry_after=60,
            )

    # -- playing again -----------------------------------------------------------------

    async def again_async(self, game_id: str) -> Created:
        """A new table with this one's seats, rules, options and pace, once this one is over or
        abandoned; noted in this one's row (each human seat's new token sealed for its own view)."""
        return await self.store.call(self.again, game_id)

    def again(self, game_id: str) -> Created:
        """:meth:`again_async`, from a thread."""
        table, row = self.read(game_id, lambda table, row: (table, row))
        if row.again_id is not None:
            raise Stale(Said("this table was played again already: {id}", id=row.again_id))
        if not table.finished:
            raise Stale(
                Said("the game is {status}: play again once it is over or abandoned", status=status_words(table))
            )
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
            raise Stale(Said("this table was played again already: {id}", id=made.again_id if made else "?"))
        # The new table was opened by whoever opened this one (its start entry's host).
        host = next((json.loads(text).get("host", "-") for _, text in self.store.log_of(game_id)[:1]), "-")
        index = self.store.create_game(new.row, new.seat_hashes, new.lines, host=host)
        self.notifier.notify(game_id)  # the old table's views now say where the next one is
        created = self._created(new)
        if self.log is not None and index is not None:
            created["log"] = self.log.announce(index)
        return created
