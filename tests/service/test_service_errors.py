"""Every refusal has its status and its reason, and a refused request writes nothing."""

from __future__ import annotations

import pytest
from service_helpers import Api

from fairdeal.fairness import client_commitment


def two_humans_and_a_bot(api: Api) -> tuple[dict, str, str]:
    game = api.create([("Ann", False), ("Bob", False), ("Bot", True)])
    ann, bob = game["seats"][0]["join_token"], game["seats"][1]["join_token"]
    return game, ann, bob


def refused(api: Api, status: int, method: str, url: str, token: str | None = None, **kwargs) -> str:
    """Make a request that must be refused with ``status``; the record must not change. Returns the reason."""
    game_id = url.split("/")[2] if url.startswith("/games/") else None
    before = api.client.get(f"/games/{game_id}/record").text if game_id else None
    response = api.call(method, url, token, **kwargs)
    assert response.status_code == status, response.text
    if game_id and before is not None:
        assert api.client.get(f"/games/{game_id}/record").text == before
    detail = response.json()["detail"]
    return detail if isinstance(detail, str) else " ".join(str(e.get("msg")) for e in detail)


def test_tokens_no_token_a_wrong_token_another_seats_token(api):
    game, ann, bob = two_humans_and_a_bot(api)
    url = f"/games/{game['game_id']}/seats/0/commit"
    body = {"json": {"commitment": client_commitment("x")}}
    response = api.call("POST", url, **body)
    assert response.status_code == 401 and response.headers["www-authenticate"] == "Bearer"
    assert "Authorization: Bearer" in response.json()["detail"]
    assert "not a token of this game" in refused(api, 401, "POST", url, "not-a-token", **body)
    assert "not a token of this game" in refused(api, 401, "POST", url, "x" * 5000, **body)
    assert refused(api, 403, "POST", url, bob, **body) == "this is seat 1's token, not seat 0's"
    assert refused(api, 403, "POST", url, game["host_token"], **body) == "this is the host's token, not seat 0's"
    # A token of another game is no token here.
    other = api.create([("Zed", False), ("Bot", True)])
    assert "not a token" in refused(api, 401, "POST", url, other["seats"][0]["join_token"], **body)
    # Only the host starts or abandons.
    assert refused(api, 403, "POST", f"/games/{game['game_id']}/start", ann) == "only the host's token may do this"
    assert refused(api, 403, "POST", f"/games/{game['game_id']}/abandon", bob) == "only the host's token may do this"
    assert refused(api, 401, "GET", f"/games/{game['game_id']}/seats/0/view")


def test_unknown_games_are_404(api):
    for method, url in [
        ("GET", "/games/nope"),
        ("GET", "/games/nope/record"),
        ("GET", "/games/nope/verify"),
        ("GET", "/games/nope/events"),
        ("GET", "/games/nope/seats/0/view"),
        ("POST", "/games/nope/start"),
    ]:
        assert refused(api, 404, method, url, "some-token") == "there is no game 'nope'"
    assert (
        refused(api, 404, "POST", "/games/nope/moves", "t", json={"seq": 1, "move": "draw"})
        == "there is no game 'nope'"
    )
    assert refused(api, 404, "GET", "/sessions/nope") == "there is no session 'nope'"


def test_client_seeds_out_of_order_are_409_and_a_wrong_seed_is_422(api):
    game, ann, bob = two_humans_and_a_bot(api)
    gid = game["game_id"]
    api.ok("POST", f"/games/{gid}/seats/0/commit", ann, json={"commitment": client_commitment("ann")})
    reason = refused(api, 409, "POST", f"/games/{gid}/seats/0/reveal", ann, json={"seed": "ann"})
    # The words of the one seed phase, the verifier's for the same step in a record.
    assert reason == "seat 0 revealed its client seed before every seat committed (waiting for seats [1])"
    assert "already committed" in refused(
        api, 409, "POST", f"/games/{gid}/seats/0/commit", ann, json={"commitment": client_commitment("again")}
    )
    api.ok("POST", f"/games/{gid}/seats/1/commit", bob, json={"commitment": client_commitment("bob")})
    assert refused(api, 422, "POST", f"/games/{gid}/seats/1/reveal", bob, json={"seed": "not bob"}) == (
        "seat 1's client seed does not match its commitment"
    )
    assert "has not started" in refused(api, 409, "POST", f"/games/{gid}/moves", ann, json={"seq": 3, "move": "draw"})
    api.ok("POST", f"/games/{gid}/seats/1/reveal", bob, json={"seed": "bob"})
    api.ok("POST", f"/games/{gid}/seats/0/reveal", ann, json={"seed": "ann"})
    assert "closed" in refused(api, 409, "POST", f"/games/{gid}/seats/0/reveal", ann, json={"seed": "ann"})
    assert "already started" in refused(api, 409, "POST", f"/games/{gid}/start", game["host_token"])


def test_moves_stale_illegal_not_your_turn_host_and_seat_mismatch(api):
    game, ann, bob = two_humans_and_a_bot(api)
    gid = game["game_id"]
    tokens = api.join(game)
    view = {seat: api.view(gid, seat, token) for seat, token in tokens.items()}
    turn = view[0]["turn"]
    assert turn in (0, 1), "the bot has moved: it is a human's turn"
    me, other = turn, 1 - turn
    mine, theirs = view[me], view[other]
    seq = mine["seq"]

    assert refused(api, 409, "POST", f"/games/{gid}/moves", tokens[me], json={"seq": seq - 1, "move": "draw"}) == (
        f"the record is at seq {seq}, not {seq - 1}: fetch the view again"
    )
    assert refused(api, 422, "POST", f"/games/{gid}/moves", tokens[other], json={"seq": seq, "move": "draw"}) == (
        "it is not your turn"
    )
    unplayable = [c for c in mine["cards"] if not c["playable"]]
    if unplayable:
        card = unplayable[0]
        reason = refused(
            api, 422, "POST", f"/games/{gid}/moves", tokens[me], json={"seq": seq, "move": "play", "card": card["card"]}
        )
        assert reason == card["why_not"] and "does not match" in reason
    a_card_not_mine = next(c for c in theirs["hand"])
    assert "you do not hold" in refused(
        api, 422, "POST", f"/games/{gid}/moves", tokens[me], json={"seq": seq, "move": "play", "card": a_card_not_mine}
    )
    assert "keep" in refused(api, 422, "POST", f"/games/{gid}/moves", tokens[me], json={"seq": seq, "move": "keep"})
    assert refused(api, 403, "POST", f"/games/{gid}/moves", game["host_token"], json={"seq": seq, "move": "draw"}) == (
        "the host's token makes no moves: use the seat's join token"
    )
    assert refused(
        api, 403, "POST", f"/games/{gid}/moves", tokens[me], json={"seq": seq, "move": "draw", "seat": other}
    ) == (f"this is seat {me}'s token, not seat {other}'s")
    # Still nothing written: the move that is legal now goes through on the same seq.
    api.ok("POST", f"/games/{gid}/moves", tokens[me], json={"seq": seq, "move": "draw", "seat": me})


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"seq": "three", "move": "draw"},
        {"seq": 3},
        {"seq": 3, "move": "fly"},
        {"seq": 3, "move": "draw", "extra": 1},
        {"seq": -1, "move": "draw"},
        {"seq": 3, "move": "play", "card": "X" * 50},
        {"seq": 3, "move": "play", "card": "1X"},
        {"seq": 3, "move": "play"},
        {"seq": 3, "move": "draw", "card": "9C"},
        {"seq": 3, "move": "play", "card": "8C", "suit": "Q"},
        [1, 2, 3],
        "draw",
    ],
)
def test_malformed_moves_are_422_and_write_nothing(api, body):
    game = api.create([("Ann", False), ("Bot", True)])
    token = api.join(game)[0]
    refused(api, 422, "POST", f"/games/{game['game_id']}/moves", token, json=body)


def test_malformed_bodies_and_limits(api):
    def create(**body):
        return api.call("POST", "/games", json=body)

    assert create(seats=[{"name": "a" * 41}, {"name": "b"}]).status_code == 422
    assert create(seats=[{"name": ""}, {"name": "b"}]).status_code == 422
    assert create(seats=[{"name": f"p{i}"} for i in range(7)]).status_code == 422
    one = create(seats=[{"name": "alone"}])
    assert one.status_code == 422 and one.json()["detail"] == "Crazy Eights is for 2 to 6 players, not 1"
    unknown = create(rules="snap", seats=[{"name": "a"}, {"name": "b"}])
    assert unknown.status_code == 422 and unknown.json()["detail"].startswith("unknown rules 'snap'")
    option = create(seats=[{"name": "a"}, {"name": "b"}], options={"target": 0})
    assert option.status_code == 422 and "target" in option.json()["detail"]
    assert create(seats=[{"name": "a"}, {"name": "b"}], options={"colour": 1}).status_code == 422
    assert create(seats=[{"name": "a"}, {"name": "b"}], turn_seconds=0).status_code == 422
    assert create(seats=[{"name": "a", "bot": "yes"}, {"name": "b"}]).status_code == 422
    bad_json = api.call("POST", "/games", content=b"{not json", headers={"content-type": "application/json"})
    assert bad_json.status_code == 422

    game = api.create([("Ann", False), ("Bot", True)])
    token = game["seats"][0]["join_token"]
    gid = game["game_id"]
    refused(api, 422, "POST", f"/games/{gid}/seats/0/commit", token, json={"commitment": "not hex"})
    refused(api, 422, "POST", f"/games/{gid}/seats/0/commit", token, json={"commitment": "ab" * 33})
    api.ok("POST", f"/games/{gid}/seats/0/commit", token, json={"commitment": client_commitment("é" * 64)})
    assert "at most 128 UTF-8 bytes" in refused(
        api, 422, "POST", f"/games/{gid}/seats/0/reveal", token, json={"seed": "é" * 65}
    )
    api.ok("POST", f"/games/{gid}/seats/0/reveal", token, json={"seed": "é" * 64})  # 128 bytes is fine
    refused(api, 422, "GET", f"/games/{gid}/seats/99/view", token)


def test_an_oversized_body_is_413_and_writes_nothing(api):
    game = api.create([("Ann", False), ("Bot", True)])
    token = game["seats"][0]["join_token"]
    big = {"commitment": client_commitment("x"), "padding": "x" * 20_000}
    assert "over 16384 bytes" in refused(api, 413, "POST", f"/games/{game['game_id']}/seats/0/commit", token, json=big)

    # A body that does not say its length up front is cut off as it streams in.
    def chunks():
        yield b'{"seats": ['
        for _ in range(2000):
            yield b'{"name": "a", "bot": true},'
        yield b'{"name": "b"}]}'

    response = api.client.post("/games", content=chunks(), headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert api.app.state.store.next_deadline(now=1e12) is None  # and no game was made


def test_no_500_for_odd_input(api):
    game = api.create([("Ann", False), ("Bot", True)])
    gid = game["game_id"]
    token = game["seats"][0]["join_token"]
    odd = [
        ("GET", f"/games/{'x' * 500}"),
        ("GET", "/games/%00%ff"),
        ("GET", f"/games/{gid}/seats/-1/view"),
        ("GET", f"/games/{gid}/seats/abc/view"),
        ("GET", f"/games/{gid}/events?from=-5"),
        ("GET", f"/games/{gid}/events?wait=nan"),
        ("POST", f"/games/{gid}/moves"),
        ("POST", "/sessions/x/shuffle"),
        ("DELETE", f"/games/{gid}"),
    ]
    for method, url in odd:
        response = api.call(method, url, token)
        assert 400 <= response.status_code < 500, (url, response.status_code, response.text)
    wrong_scheme = api.client.get(f"/games/{gid}/seats/0/view", headers={"Authorization": f"Basic {token}"})
    assert wrong_scheme.status_code == 401


@pytest.mark.parametrize("field", ["name", "rules", "option", "seed", "reason"])
def test_text_that_is_not_unicode_is_422_not_500(api, field):
    """JSON may carry a lone surrogate ("\\ud800"), which no UTF-8 record can hold."""
    game = api.create([("Ann", False), ("Bot", True)])
    gid, token = game["game_id"], game["seats"][0]["join_token"]
    bad = r'"\ud800"'
    url, body, who = {
        "name": ("/games", '{"seats":[{"name":%s},{"name":"b"}]}' % bad, None),
        "rules": ("/games", '{"rules":%s,"seats":[{"name":"a"},{"name":"b"}]}' % bad, None),
        "option": ("/games", '{"options":{%s:1},"seats":[{"name":"a"},{"name":"b"}]}' % bad, None),
        "seed": (f"/games/{gid}/seats/0/reveal", '{"seed":%s}' % bad, token),
        "reason": (f"/games/{gid}/abandon", '{"reason":%s}' % bad, game["host_token"]),
    }[field]
    refused(api, 422, "POST", url, who, content=body.encode(), headers={"content-type": "application/json"})


def test_the_openapi_document_lists_every_route(api):
    paths = api.ok("GET", "/openapi.json")["paths"]
    for path in [
        "/games",
        "/games/{game_id}",
        "/games/{game_id}/moves",
        "/games/{game_id}/seats/{seat}/view",
        "/games/{game_id}/events",
        "/games/{game_id}/record",
        "/games/{game_id}/verify",
        "/sessions",
        "/sessions/{session_id}/shuffle",
        "/health",
        "/.well-known/fairdeal-key",
    ]:
        assert path in paths
    assert api.call("GET", "/docs").status_code == 200
