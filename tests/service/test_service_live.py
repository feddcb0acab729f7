"""Live updates by server-sent events: new record lines, and the seat's own view, as they happen."""

from __future__ import annotations

import json
import threading

from service_helpers import CARD_CODE
from service_helpers import choose
from service_helpers import server_hands


def read_events(response, until) -> list[tuple[str, dict, str | None]]:
    """(event, data, id) triples from an SSE response, until ``until(events)`` is true or the stream ends."""
    events: list[tuple[str, dict, str | None]] = []
    kind, data, event_id = None, None, None
    for line in response.iter_lines():
        if line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("data: "):
            data = json.loads(line[6:])
        elif line.startswith("id: "):
            event_id = line[4:]
        elif line == "" and kind is not None:
            events.append((kind, data, event_id))
            kind, data, event_id = None, None, None
            if until(events):
                break
    return events


def test_a_seat_stream_pushes_each_new_line_and_its_fresh_view(api):
    game = api.create([("Ann", False), ("Bot", True)])
    game_id = game["game_id"]
    token = api.join(game)[0]
    view = api.view(game_id, 0, token)
    move = choose(view)
    moved = threading.Event()

    def play_when_listening():
        moved.wait(5)
        api.ok("POST", f"/games/{game_id}/moves", token, json={"seq": view["seq"], **move})

    player = threading.Thread(target=play_when_listening)
    player.start()
    with api.client.stream("GET", f"/games/{game_id}/events?wait=10&token={token}") as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")

        def until(events):
            if len(events) == 1:
                moved.set()  # the stream is open: now make the move
            return any(kind == "view" and data["seq"] > view["seq"] for kind, data, _ in events[1:])

        events = read_events(response, until)
    player.join()
    assert events[0][0] == "view" and events[0][1]["seq"] == view["seq"]
    lines = [(data, event_id) for kind, data, event_id in events if kind == "line"]
    assert lines[0][0]["seq"] == view["seq"] and lines[0][0]["type"] == "move" and lines[0][0]["seat"] == 0
    assert [int(event_id) for _, event_id in lines] == [data["seq"] for data, _ in lines]
    fresh = events[-1][1]
    assert fresh["hand"] == api.view(game_id, 0, token)["hand"]
    hands = server_hands(api.app, game_id)
    assert not set(hands[1]) & set(CARD_CODE.findall(json.dumps(events)))


def test_a_spectator_stream_replays_from_a_seq_and_ends_after_the_reveal(api):
    game = api.create([("Ann", False), ("Bot", True)])
    game_id = game["game_id"]
    api.join(game)
    api.ok("POST", f"/games/{game_id}/abandon", game["host_token"])
    record = api.record(game_id)
    with api.client.stream("GET", f"/games/{game_id}/events?from=0&wait=10") as response:
        events = read_events(response, lambda events: False)  # the stream ends by itself
    lines = [data for kind, data, _ in events if kind == "line"]
    assert lines == record
    states = [data for kind, data, _ in events if kind == "state"]
    assert states[-1]["status"] == "abandoned" and "hand" not in states[-1]
    # Resuming after the last line seen gives only what came after it.
    with api.client.stream(
        "GET", f"/games/{game_id}/events?wait=10", headers={"Last-Event-ID": str(len(record) - 2)}
    ) as response:
        events = read_events(response, lambda events: False)
    assert [data for kind, data, _ in events if kind == "line"] == record[-1:]


def test_a_stream_with_a_wrong_token_is_refused(api):
    game = api.create([("Ann", False), ("Bot", True)])
    assert api.call("GET", f"/games/{game['game_id']}/events?token=nope").status_code == 401
    response = api.call("GET", f"/games/{game['game_id']}/events?wait=0")
    assert response.status_code == 200 and "event: state" in response.text
