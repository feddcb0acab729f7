"""The table's clock: turn deadlines, auto-moves, bots that take their time, and a restart in between."""

from __future__ import annotations

import dataclasses
import time

from fastapi.testclient import TestClient
from service_helpers import Api

from fairdeal.record import check_at
from fairdeal.record import parse_record
from fairdeal.service import create_app
from fairdeal.verification import verify


def test_a_turn_that_runs_out_is_played_by_the_table_and_recorded_as_auto(api, clock):
    game_id, token = api.ann_and_a_bot()
    view = api.view(game_id, 0, token)
    assert view["turn"] == 0 and view["seconds_left"] == 20.0  # the bot moved at once
    games = api.app.state.games

    clock.advance(19.9)
    assert games.run_due() == 0
    assert api.view(game_id, 0, token)["seconds_left"] == 0.1

    clock.advance(0.2)
    length = len(api.record(game_id))
    assert games.run_due() == 1
    new = api.record(game_id)[length:]
    ann = [line for line in new if line["type"] == "move" and line["seat"] == 0]
    assert ann and all(line["auto"] is True for line in ann)
    assert ann[-1]["move"] in ("play", "keep", "pass")  # the auto-moves went on until the turn was over
    assert all("auto" not in line for line in new if line["type"] == "move" and line["seat"] == 1)
    view = api.view(game_id, 0, token)
    assert view["turn"] == 0 and view["seconds_left"] == 20.0  # the bot answered; a fresh turn
    assert games.run_due() == 0


def test_a_draw_does_not_restart_the_turn_time(api, clock):
    game_id, token = api.ann_and_a_bot(turn_seconds=30)
    view = api.view(game_id, 0, token)
    assert view["seconds_left"] == 30.0
    clock.advance(12)
    view = api.ok("POST", f"/games/{game_id}/moves", token, json={"seq": view["seq"], "move": "draw"})["view"]
    assert view["turn"] == 0 and view["seconds_left"] == 18.0


def test_a_restarted_server_keeps_the_deadline_and_plays_the_timed_out_turn(settings, clock, new_ids):
    first = create_app(settings, clock=clock, new_ids=new_ids)
    with TestClient(first) as client:
        api = Api(client)
        game_id, token = api.ann_and_a_bot()
        deadline = api.view(game_id, 0, token)["deadline"]
    first.state.store.close()

    clock.advance(25)  # the server was down when the turn ran out
    restarted = create_app(settings, clock=clock, new_ids=new_ids)
    with TestClient(restarted) as client:
        api = Api(client)
        view = api.view(game_id, 0, token)
        assert view["deadline"] == deadline and view["seconds_left"] == 0
        assert restarted.state.games.run_due() == 1
        assert any(line.get("auto") for line in api.record(game_id))
        assert api.view(game_id, 0, token)["seconds_left"] == 20.0
    restarted.state.store.close()


def test_only_one_process_plays_a_due_turn(two_processes, clock):
    a, b = two_processes
    game_id, token = a.ann_and_a_bot()
    b.view(game_id, 0, token)  # both processes have the game cached
    clock.advance(21)
    assert a.app.state.games.run_due() == 1
    assert b.app.state.games.run_due() == 0
    record = b.record(game_id)
    assert [line["seq"] for line in record] == list(range(len(record)))


def test_bots_take_their_time_when_they_have_a_delay(settings, clock):
    app = create_app(dataclasses.replace(settings, bot_delay=1.5), clock=clock)
    with TestClient(app) as client:
        api = Api(client)
        game_id, token = api.ann_and_a_bot()
        games = app.state.games
        for _ in range(3):  # let the bot play until it is Ann's turn (once a hand ends, it may deal and lead)
            if api.view(game_id, 0, token)["turn"] == 0:
                break
            clock.advance(1.5)
            games.run_due()
        view = api.view(game_id, 0, token)
        assert view["turn"] == 0
        for _ in range(100):  # Ann plays or draws until the turn is the bot's
            if view["turn"] != 0:
                break
            moves = view["legal_moves"]
            move = next((m for m in moves if m["move"] in ("play", "keep", "pass")), moves[0])
            view = api.ok("POST", f"/games/{game_id}/moves", token, json={"seq": view["seq"], **move})["view"]
        assert view["turn"] == 1 and view["deadline"] is None  # a bot's turn shows no countdown
        length = len(api.record(game_id))
        clock.advance(1.4)
        assert games.run_due() == 0 and len(api.record(game_id)) == length
        clock.advance(0.1)
        assert games.run_due() == 1
        bot_moves = [line for line in api.record(game_id)[length:] if line["type"] == "move"]
        assert bot_moves[0]["seat"] == 1 and "auto" not in bot_moves[0]
    app.state.store.close()


def test_the_background_timer_plays_a_short_turn_on_the_real_clock(settings):
    app = create_app(dataclasses.replace(settings, tick_seconds=0.05))
    with TestClient(app) as client:
        api = Api(client)
        game_id, token = api.ann_and_a_bot(turn_seconds=0.2)
        give_up = time.monotonic() + 10
        while not any(line.get("auto") for line in api.record(game_id)):
            assert time.monotonic() < give_up, "the timer never played the timed-out turn"
            time.sleep(0.05)
        assert api.view(game_id, 0, token)["status"] in ("playing", "over")
    app.state.store.close()


def test_each_card_of_a_run_a_seat_plays_on_its_own_gets_a_fresh_turn(api, clock):
    # Sequence: turns follow the cards, so a seat holding the next card plays again at once.
    game = api.create([("Ann", False), ("Bot", True)], rules="sequence", turn_seconds=30)
    game_id, token = game["game_id"], api.join(game)[0]
    games = api.app.state.games
    view = api.view(game_id, 0, token)
    again = 0
    while view["status"] == "playing" and again < 3:
        assert view["turn"] == 0 and view["seconds_left"] == 30.0
        clock.advance(10)
        move = view["legal_moves"][0]
        hand_no = view["hand_no"]
        view = api.ok("POST", f"/games/{game_id}/moves", token, json={"seq": view["seq"], **move})["view"]
        if view["turn"] == 0 and view["hand_no"] == hand_no:
            again += 1  # Ann played and holds the next card: a new turn, its time starts again
    assert again == 3

    # Out of time in the middle of a run, the table plays one card for her; her next card gets fresh time.
    while view["status"] == "playing":
        clock.advance(30)
        length = len(api.record(game_id))
        assert games.run_due() == 1
        new = [line for line in api.record(game_id)[length:] if line["type"] == "move" and line["seat"] == 0]
        assert len(new) == 1 and new[0]["auto"] is True and new[0]["move"] == "play"
        view = api.view(game_id, 0, token)
        if view["turn"] == 0 and view["status"] == "playing":
            assert view["seconds_left"] == 30.0
            break
    else:
        raise AssertionError("the hand ended before Ann played twice in a row")


def test_the_timers_auto_move_is_written_at_its_deadline_and_the_record_verifies_with_its_times(api, clock):
    """Format 2: every line has the service clock's time; the header the table's timing; the
    timer's auto-move is written no earlier than the deadline the same clock set, even when the
    timer runs with a ``now`` ahead of that clock; and the whole record verifies, times and all."""
    game = api.create([("Ann", False), ("Bot", True)], turn_seconds=5, bot_seconds=0, next_hand_seconds=0)
    game_id, token = game["game_id"], api.join(game)[0]
    deadline = api.view(game_id, 0, token)["deadline"]
    header = api.record(game_id)[0]
    assert header["format"] == "fairdeal-record/2"
    assert header["timing"] == {"turn_ms": 5000, "bot_ms": 0, "next_hand_ms": 0}
    assert header["at"][:19] + "Z" == header["created"]

    length = len(api.record(game_id))
    assert api.app.state.games.run_due(now=clock.now + 60) == 1  # the clock itself has not moved
    auto = [line for line in api.record(game_id)[length:] if line.get("auto")]
    assert auto and auto[0]["at"] == deadline  # at its deadline, never before

    clock.advance(7.25)
    deadline = api.view(game_id, 0, token)["deadline"]
    clock.advance(5)
    length = len(api.record(game_id))
    assert api.app.state.games.run_due() == 1
    auto = [line for line in api.record(game_id)[length:] if line.get("auto")]
    assert auto and all(check_at(line["at"]) >= check_at(deadline) for line in auto)

    api.ok("POST", f"/games/{game_id}/abandon", game["host_token"], json={"reason": "enough"})
    text = api.call("GET", f"/games/{game_id}/record").text
    report = verify(text, key=header["server_key"])
    assert report.verified, report.error
    assert report.timing == header["timing"]
    times = [check_at(line["at"]) for line in parse_record(text)]
    assert times == sorted(times) and times[-1] - times[0] == 12_250  # the clock moved 12.25 s
