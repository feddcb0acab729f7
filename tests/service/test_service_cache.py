"""The cache of replayed games: bounded by memory, each game kept as its state at the last line
(not its lines), and a game that fell out of it replayed once when next touched (issue 18).

The counters are :class:`~fairdeal.service.live.LiveRecords`' ``restores`` (a record read whole
and replayed), ``catch_ups`` (another process's lines applied to a cached record) and
``evictions``.
"""

from __future__ import annotations

import asyncio
import gc
import tracemalloc
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from helpers import service_settings
from service_helpers import Api
from service_helpers import choose

from fairdeal.fairness import client_commitment
from fairdeal.record import RecordError
from fairdeal.rules import get
from fairdeal.service import Settings
from fairdeal.service import create_app
from fairdeal.service.live import DEFAULT_CACHE_BYTES
from fairdeal.table import Seat
from fairdeal.table import Table
from fairdeal.verification import verify


@pytest.fixture
def sqlite_app(tmp_path: Any, clock: Any, new_ids: Any) -> Iterator[Any]:
    """An app on SQLite in memory, with the default cache (the cache is the same on either store;
    in memory, a thousand games' appends wait for no disk)."""
    app = create_app(service_settings(tmp_path / "data", "sqlite:///:memory:"), clock=clock, new_ids=new_ids)
    yield app
    app.state.store.close()


def running_tables(games: Any, count: int, options: dict[str, int] | None = None) -> list[str]:
    """``count`` Crazy Eights tables of one person (who has revealed a seed, and then answers no
    more) and three bots that move at once: each due turn is an auto-move and the bots' replies."""

    async def one() -> str:
        created = await games.create_async(
            "crazy-eights",
            options or {},
            [Seat("Ann"), Seat("Bot 1", True), Seat("Bot 2", True), Seat("Bot 3", True)],
            turn_seconds=20,
            bot_seconds=0,
            next_hand_seconds=0,
        )
        game_id = created["game_id"]
        await games.commit_async(game_id, 0, client_commitment("ann"))
        await games.reveal_and_view_async(game_id, 0, "ann")
        return game_id

    async def all_of_them() -> list[str]:
        ids: list[str] = []
        for start in range(0, count, 100):  # at once, a hundred at a time: they share the disk's flushes
            ids += await asyncio.gather(*(one() for _ in range(start, min(count, start + 100))))
        return ids

    # In a thread of its own: a loop may be running in this one (Playwright's, in a full run).
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, all_of_them()).result()


def timer_round(games: Any, clock: Any) -> int:
    """Every person's turn runs out once: the timer plays them all; how many games moved."""
    clock.advance(21)
    moved = 0
    while True:
        now = games.run_due()
        if not now:
            return moved
        moved += now


def test_1100_running_tables_are_played_by_the_timer_without_one_replay(sqlite_app, clock):
    # The old cache held 1,024 games: at 1,100 every timer move read and replayed its record.
    games = sqlite_app.state.games
    assert games.cache_bytes == DEFAULT_CACHE_BYTES
    ids = running_tables(games, 1100)
    assert games.restores == 0 and games.evictions == 0
    lengths = [games._cache[game_id].live.seq for game_id in ids]
    for _ in range(3):
        assert timer_round(games, clock) == 1100
    assert (games.restores, games.catch_ups, games.evictions) == (0, 0, 0)
    assert all(games._cache[game_id].live.seq > length for game_id, length in zip(ids, lengths))
    # Each keeps its state, not its lines: the last line, and a few kilobytes in all.
    assert all(len(games._cache[game_id].live.lines) == 1 for game_id in ids)
    assert games.cache_used < 1100 * 20_000


def joined_table(api: Api) -> tuple[str, str]:
    """A table of Ann and a bot, Ann's seed revealed: its id and Ann's token."""
    game = api.create([("Ann", False), ("Bot", True)])
    return game["game_id"], api.join(game)[0]


def test_a_game_the_budget_dropped_is_replayed_once_when_next_touched_then_no_more(api):
    games = api.app.state.games
    (first, first_token), (second, second_token), (third, third_token) = [joined_table(api) for _ in range(3)]
    view = api.view(first, 0, first_token)
    api.view(second, 0, second_token)
    api.view(third, 0, third_token)
    assert (games.restores, games.evictions) == (0, 0)
    games.cache_bytes = games.cache_used - games._cache[first].size // 2  # room for two and a half
    assert games.evictions == 1 and first not in games._cache  # the least recently used

    assert api.view(first, 0, first_token) == view  # rebuilt as it was
    assert games.restores == 1
    assert second not in games._cache and third in games._cache  # the least recently used made room
    after = api.ok("POST", f"/games/{first}/moves", first_token, json={"seq": view["seq"], **choose(view)})["view"]
    assert api.view(first, 0, first_token) == after
    assert api.view(third, 0, third_token)["seq"] > 0
    assert (games.restores, games.evictions) == (1, 2)


def test_a_budget_of_nothing_keeps_only_the_game_in_use(api):
    games = api.app.state.games
    games.cache_bytes = 0
    tables = [joined_table(api) for _ in range(2)]
    assert list(games._cache) == [tables[1][0]]
    for game_id, token in reversed(tables):
        api.view(game_id, 0, token)
    assert games.restores == 1  # the second was still there; the first was read again
    assert list(games._cache) == [tables[0][0]] and games.cache_used == games._cache[tables[0][0]].size


def test_the_size_of_a_cached_game_is_what_dropping_it_frees(sqlite_app, clock):
    games = sqlite_app.state.games
    tracemalloc.start()
    try:
        [game_id] = running_tables(games, 1, {"target": 1000})
        for _ in range(40):  # past RESIZE_EVERY appends: the size was estimated again on the way
            timer_round(games, clock)
        cached = games._cache[game_id]
        assert cached.appends < games.RESIZE_EVERY and cached.live.seq > 200
        size = cached.size
        gc.collect()
        held = tracemalloc.get_traced_memory()[0]
        games.drop(game_id)
        del cached
        gc.collect()
        freed = held - tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert freed / 2 < size < freed * 2, (size, freed)
    assert games.cache_used == 0


def test_a_cached_game_keeps_no_more_lines_the_longer_it_plays(sqlite_app, clock):
    games = sqlite_app.state.games
    [game_id] = running_tables(games, 1, {"target": 1000})
    sizes = []
    for _ in range(4):
        for _ in range(games.RESIZE_EVERY):
            timer_round(games, clock)
        sizes.append(games._cache[game_id].size)
    table = games._cache[game_id].live
    assert len(table.lines) == 1 and table.writer.forgotten == table.seq - 1 > 500
    record = games.record_text(game_id)
    assert max(sizes) < len(record) / 4
    # The finished hands are what it keeps more of (their scores, for the view): a kilobyte each.
    assert sizes[-1] - sizes[0] < 1500 * (table.match.hand_no + 1), sizes


def test_a_record_written_by_a_forgetting_table_verifies_to_its_end(api, clock):
    games = api.app.state.games
    game = api.create([("Ann", False), ("Bot", True)], options={"target": 50})
    token = api.join(game)[0]
    game_id = game["game_id"]
    for _ in range(2000):
        if api.view(game_id, 0, token)["status"] in ("over", "abandoned"):
            break
        clock.advance(21)
        games.run_due()
    view = api.view(game_id, 0, token)
    assert view["status"] == "over" and view["server_seed"]
    table = games._cache[game_id].live
    assert table.writer.forgotten > 100 and table.revealed_seed == view["server_seed"]
    text = api.call("GET", f"/games/{game_id}/record").text
    report = verify(text, key=games.signer.public_hex)
    assert report.verified, report.error
    assert report.lines == view["seq"]
    assert games.restores == 0


def test_another_process_lines_are_a_catch_up_not_a_replay(two_processes):
    a, b = two_processes
    game = a.create([("Ann", False), ("Bot", True)])
    token = a.join(game)[0]
    game_id = game["game_id"]
    view = b.view(game_id, 0, token)
    other = b.app.state.games
    assert (other.restores, other.catch_ups) == (1, 0)  # the first touch reads it whole
    a.ok("POST", f"/games/{game_id}/moves", token, json={"seq": view["seq"], **choose(view)})
    assert b.view(game_id, 0, token) == a.view(game_id, 0, token)
    assert (other.restores, other.catch_ups) == (1, 1)
    assert len(other._cache[game_id].live.lines) == 1


def test_a_table_forgets_its_lines_only_when_told():
    # The library keeps the whole record (the command line, simulations); the service forgets.
    from fairdeal.record import Signer

    signer = Signer.generate()
    seats = [Seat("Bot 1", bot=True), Seat("Bot 2", bot=True)]
    table = Table.new("t1", get("crazy-eights"), seats, signer, created="2026-01-01T00:00:00Z", server_seed="00" * 32)
    for _ in range(30):
        table.move(table.match.turn, table.match.auto_move(), auto=True, receipt=False)
    whole = table.record_text()
    assert len(table.lines) == table.seq
    stored = list(table.lines)
    assert table.forget_written() == len(stored) - 1
    for _ in range(30):
        start = table.seq
        table.move(table.match.turn, table.match.auto_move(), auto=True, receipt=False)
        stored += table.lines_since(start)
        table.forget_written()
    with pytest.raises(RecordError, match="forgotten"):
        table.record_text()
    with pytest.raises(RecordError, match="forgotten"):
        table.lines_since(0)
    again = Table.new("t1", get("crazy-eights"), seats, signer, created="2026-01-01T00:00:00Z", server_seed="00" * 32)
    for _ in range(60):
        again.move(again.match.turn, again.match.auto_move(), auto=True, receipt=False)
    assert again.lines == stored and again.record_text().startswith(whole)
    assert Table.restore(stored, "00" * 32, signer).lines == stored


def test_a_dealing_session_is_cached_as_made_and_forgets_its_lines_too(api):
    sessions = api.app.state.sessions
    created = api.ok("POST", "/sessions", status=201, json={"seats": 1})
    sid, owner = created["session_id"], created["owner_key"]
    api.ok("POST", f"/sessions/{sid}/start", owner)
    for n in range(20):
        api.ok("POST", f"/sessions/{sid}/shuffle", owner, json={"label": f"deal/{n}", "packs": 1})
    seed = api.ok("POST", f"/sessions/{sid}/reveal", owner)["server_seed"]
    state = api.ok("GET", f"/sessions/{sid}")
    assert state["server_seed"] == seed and len(state["shuffles"]) == 20
    assert sessions.restores == 0 and len(sessions._cache[sid].live.lines) == 1
    text = api.call("GET", f"/sessions/{sid}/record").text
    assert verify(text, key=sessions.signer.public_hex).verified


def test_the_budget_is_the_operators_setting(tmp_path):
    assert Settings.from_env({}).cache_mb * 1024 * 1024 == DEFAULT_CACHE_BYTES
    settings = Settings.from_env({"FAIRDEAL_DATA_DIR": str(tmp_path), "FAIRDEAL_CACHE_MB": "64"})
    assert Settings.from_env(settings.to_env()) == settings
    app = create_app(settings)
    try:
        assert app.state.games.cache_bytes == app.state.sessions.cache_bytes == 64 * 1024 * 1024
    finally:
        app.state.store.close()
