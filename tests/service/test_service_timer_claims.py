"""The turn timer across processes: every due turn is claimed by one process, played once; the
timer sleeps until the next deadline and wakes for a nearer one (on SQLite and PostgreSQL)."""

from __future__ import annotations

import dataclasses
import threading
import time

import pytest
from fastapi.testclient import TestClient
from service_helpers import Api

from fairdeal.service import create_app


def attempts(app) -> list[str]:
    """The games this app's timer tried to play, in order (each try, whether it moved or not)."""
    games, tried = app.state.games, []
    play, play_async = games._play_due, games._play_due_async

    def counting(game_id: str, now: float) -> bool:
        tried.append(game_id)
        return play(game_id, now)

    async def counting_async(game_id: str, now: float) -> bool:
        tried.append(game_id)
        return await play_async(game_id, now)

    games._play_due, games._play_due_async = counting, counting_async
    return tried


async def run_due_async(games) -> int:
    """What the background timer does, from its loop: claimed batches, each played side by side."""
    moved = 0
    while True:
        claimed, played = await games.play_due_async()
        moved += played
        if claimed < games.TIMER_BATCH:
            return moved


@pytest.mark.parametrize("way", ["threads", "loop"])
def test_two_processes_playing_due_turns_at_once_never_both_try_one(two_processes, clock, way):
    # "threads": run_due, as the tests and a thread would; "loop": play_due_async, the timer's way
    # (on PostgreSQL the batch's games are played side by side on the loop).
    api, other = two_processes
    games = [api.ann_and_a_bot() for _ in range(40)]
    other.view(games[0][0], 0, games[0][1])  # the second process has a game cached too
    tried = {"first": attempts(api.app), "second": attempts(other.app)}
    clock.advance(21)  # every person's turn ran out
    moved: dict[str, int] = {}
    start = threading.Barrier(2)

    def run(name: str, process: Api) -> None:
        start.wait()
        if way == "threads":
            moved[name] = process.app.state.games.run_due()
        else:
            moved[name] = process.client.portal.call(run_due_async, process.app.state.games)

    threads = [threading.Thread(target=run, args=pair) for pair in (("first", api), ("second", other))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Each game was tried by one process, once, and moved.
    assert sorted(tried["first"] + tried["second"]) == sorted(game_id for game_id, _ in games)
    assert moved["first"] + moved["second"] == 40
    for game_id, token in games:
        record = api.record(game_id)
        assert sum(1 for line in record if line.get("auto")) >= 1
        assert api.view(game_id, 0, token)["seconds_left"] == 20.0  # the next turn's full time
    assert api.app.state.games.run_due() == 0 and other.app.state.games.run_due() == 0


def test_a_claim_that_runs_out_passes_to_another_process(two_processes, clock):
    api, other = two_processes
    game_id, token = api.ann_and_a_bot()
    clock.advance(21)
    store = api.app.state.store
    assert [claimed for claimed, _ in store.claim_due(clock.now)] == [game_id]  # and then the process died
    assert other.app.state.games.run_due() == 0  # held by the first
    clock.advance(store.CLAIM_SECONDS)
    assert other.app.state.games.run_due() == 1
    assert api.view(game_id, 0, token)["seconds_left"] == 20.0
    record = api.record(game_id)
    assert [line["seq"] for line in record] == list(range(len(record)))  # one auto-move, no fork


def test_a_move_lifts_the_claim_so_the_next_deadline_is_anyones(settings, clock, new_ids):
    app = create_app(settings, clock=clock, new_ids=new_ids)
    with TestClient(app) as client:
        api = Api(client)
        game_id, token = api.ann_and_a_bot()
        clock.advance(21)
        assert app.state.games.run_due() == 1
        assert app.state.store.game(game_id).claimed is None
        assert app.state.store.next_deadline(clock.now) == app.state.store.game(game_id).deadline
        clock.advance(21)
        assert app.state.games.run_due() == 1  # the next turn ran out too, and nothing held it
    app.state.store.close()


def test_the_background_timer_wakes_for_a_deadline_nearer_than_its_tick(settings):
    # The timer looks at the store every 60 s at most; a 0.3 s turn set after it went to sleep
    # is played long before that: the deadline itself woke it.
    app = create_app(dataclasses.replace(settings, tick_seconds=60))
    with TestClient(app) as client:
        api = Api(client)
        time.sleep(0.2)  # the timer has looked and sleeps, with nothing due
        game_id, token = api.ann_and_a_bot(turn_seconds=0.3)
        give_up = time.monotonic() + 20
        while not any(line.get("auto") for line in api.record(game_id)):
            assert time.monotonic() < give_up, "the timer slept through the deadline"
            time.sleep(0.05)
        view = api.view(game_id, 0, token)
        assert view["status"] in ("playing", "over")
        if view["status"] == "playing":  # and it sleeps until the next one, which it plays too
            while sum(1 for line in api.record(game_id) if line.get("auto") and line["seat"] == 0) < 2:
                assert time.monotonic() < give_up, "the timer did not play the next deadline"
                time.sleep(0.05)
    app.state.store.close()


def test_a_due_turn_that_fails_is_logged_and_tried_again_when_its_claim_runs_out(
    settings, clock, new_ids, monkeypatch, caplog
):
    app = create_app(settings, clock=clock, new_ids=new_ids)
    with TestClient(app) as client:
        api = Api(client)
        game_id, token = api.ann_and_a_bot()
        games, store = app.state.games, app.state.store
        clock.advance(21)

        def broken(*args, **kwargs):
            raise RuntimeError("the disk is full")

        monkeypatch.setattr(games, "_act", broken)
        assert games.run_due() == 0  # not moved, and the timer goes on
        assert "could not play the due turn of game " + game_id in caplog.text
        assert store.game(game_id).claimed is not None  # held: not tried again at once, in a loop
        monkeypatch.undo()
        assert games.run_due() == 0
        clock.advance(store.CLAIM_SECONDS)
        assert games.run_due() == 1
        assert api.view(game_id, 0, token)["seconds_left"] == 20.0
    store.close()
