"""The operator's limits (README "Limits"): each answers its 4xx with a reason, and is a documented setting."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import HIGH_LIMITS
from fastapi.testclient import TestClient
from service_helpers import Api
from test_verifier_support import play

from fairdeal.service import Settings
from fairdeal.service import create_app
from fairdeal.service.errors import TooMany
from fairdeal.service.limits import Rate
from fairdeal.service.limits import RateLimiter
from fairdeal.service.limits import StreamCounter
from fairdeal.service.limits import client_address
from fairdeal.service.limits import parse_networks
from fairdeal.verification import verify

ROOT = Path(__file__).resolve().parents[2]
BOTS = [("Bot A", True), ("Bot B", True)]


def limited(
    settings: Settings, clock: Any, new_ids: Any, client: tuple[str, int] = ("testclient", 50000), **limits: Any
) -> Api:
    app = create_app(dataclasses.replace(settings, **limits), clock=clock, new_ids=new_ids)
    return Api(TestClient(app, client=client))


def refused(api: Api, status: int, method: str, url: str, token: str | None = None, **kwargs: Any) -> dict[str, Any]:
    response = api.call(method, url, token, **kwargs)
    assert response.status_code == status, response.text
    return {"detail": response.json()["detail"], "retry_after": response.headers.get("retry-after")}


# -- options in range -------------------------------------------------------------------------


def test_a_target_over_the_games_maximum_is_refused(api):
    answer = refused(
        api,
        422,
        "POST",
        "/games",
        json={
            "rules": "crazy-eights",
            "options": {"target": 100_000},
            "seats": [{"name": "A", "bot": True}, {"name": "B", "bot": True}],
        },
    )
    assert answer["detail"] == "target must be between 1 and 1000 points"
    assert (
        "deals must be between 0 (each player deals once) and 50"
        in refused(
            api,
            422,
            "POST",
            "/games",
            json={
                "rules": "fan-tan",
                "options": {"deals": 51},
                "seats": [{"name": f"B{i}", "bot": True} for i in range(3)],
            },
        )["detail"]
    )
    made = api.ok(
        "POST",
        "/games",
        status=201,
        json={
            "rules": "crazy-eights",
            "options": {"target": 1000},
            "seats": [{"name": "A", "bot": False}, {"name": "B", "bot": True}],
        },
    )
    assert api.ok("GET", f"/games/{made['game_id']}")["options"]["target"] == 1000
    catalogue = {g["name"]: g for g in api.ok("GET", "/rules")["games"]}
    assert next(o for o in catalogue["crazy-eights"]["options"] if o["name"] == "target")["max"] == 1000


def test_a_record_an_earlier_version_wrote_with_a_larger_target_still_verifies():
    game = play("old-target", 3, humans=0, options={"target": 100_000}, abandon_after=40)
    report = verify(game.text)
    assert report.verified and report.options["target"] == 100_000, report.to_json()


# -- running games, per client and in all ------------------------------------------------------


def test_running_games_per_client_are_capped_429(settings, clock, new_ids):
    with limited(settings, clock, new_ids, max_games_per_client=2, bot_game_idle_seconds=0).client as client:
        api = Api(client)
        games = [api.create([("Ann", False), ("Bot", True)]) for _ in range(2)]
        answer = refused(api, 429, "POST", "/games", json={"seats": [{"name": "Ann"}, {"name": "Bot", "bot": True}]})
        assert answer["detail"] == "this address runs 2 games, the most one may: finish or abandon one first"
        assert answer["retry_after"] == "60"
        # Another address is another creator; an abandoned game runs no more.
        other = Api(TestClient(client.app, client=("192.0.2.7", 4000)))
        other.create([("Ann", False), ("Bot", True)])
        api.ok("POST", f"/games/{games[0]['game_id']}/abandon", games[0]["host_token"])
        api.create([("Ann", False), ("Bot", True)])
        # Play again is a create of the first table's creator.
        again = refused(api, 429, "POST", f"/games/{games[0]['game_id']}/again", games[0]["host_token"])
        assert "this address runs 2 games" in again["detail"]


def test_running_games_in_all_are_capped_503(settings, clock, new_ids):
    with limited(settings, clock, new_ids, max_games=1).client as client:
        api = Api(client)
        api.create([("Ann", False), ("Bot", True)])
        answer = refused(api, 503, "POST", "/games", json={"seats": [{"name": "Ann"}, {"name": "Bot", "bot": True}]})
        assert answer["detail"] == "the service runs 1 games, its most: try again when some have ended"
        assert answer["retry_after"] == "60"
        assert client.app.state.store.running_games() == 1


# -- tables of bots alone expire ------------------------------------------------------------------


def _bots_table(api: Api) -> dict[str, Any]:
    # A long match (target 1000): its bots are still playing when the table expires.
    return api.create(BOTS, rules="crazy-eights", options={"target": 1000})


def _expired(api: Api, game_id: str, reason: str) -> None:
    state = api.ok("GET", f"/games/{game_id}")
    assert state["status"] == "abandoned" and "server_seed" in state
    lines = api.record(game_id)
    assert [line["type"] for line in lines[-2:]] == ["abandon", "reveal"] and lines[-2]["reason"] == reason
    assert api.ok("GET", f"/games/{game_id}/verify")["verified"]
    store = api.app.state.store
    assert [json.loads(text)["type"] for _, text in store.log_of(game_id)] == ["start", "end"]


def test_a_table_of_bots_alone_expires_after_its_total_time(settings, clock, new_ids):
    with limited(settings, clock, new_ids, bot_game_idle_seconds=0, bot_game_max_seconds=3600).client as client:
        api = Api(client)
        game = _bots_table(api)
        with_people = api.create([("Ann", False), ("Bot", True)])
        clock.advance(3599)
        api.app.state.games.run_due()
        assert api.ok("GET", f"/games/{game['game_id']}")["status"] == "playing"
        clock.advance(2)
        api.app.state.games.run_due()
        _expired(api, game["game_id"], "expired: a table of bots alone for more than 1 hour")
        assert (
            api.ok("GET", f"/games/{with_people['game_id']}")["status"] == "seeding"
        )  # a person's table never expires


def test_a_table_of_bots_alone_no_one_looks_at_expires(settings, clock, new_ids):
    with limited(settings, clock, new_ids, bot_game_idle_seconds=600, bot_game_max_seconds=0).client as client:
        api = Api(client)
        watched, idle = _bots_table(api), _bots_table(api)
        # The host started without its person: a table of bots alone from then on.
        started = api.create([("Ann", False), ("Bot", True)], rules="crazy-eights", options={"target": 1000})
        api.ok("POST", f"/games/{started['game_id']}/start", started["host_token"])
        for _ in range(3):
            clock.advance(300)
            api.ok("GET", f"/games/{watched['game_id']}")  # someone looks: it does not expire for being idle
            api.app.state.games.run_due()
        assert api.ok("GET", f"/games/{watched['game_id']}")["status"] == "playing"
        # (the reads below are after the expiry: the timer ran first)
        _expired(api, idle["game_id"], "expired: a table of bots alone that no one looked at for 10 minutes")
        _expired(api, started["game_id"], "expired: a table of bots alone that no one looked at for 10 minutes")


# -- rates per client address ---------------------------------------------------------------------------


def test_creates_and_moves_are_rate_limited_per_client_429(settings, clock, new_ids):
    with limited(settings, clock, new_ids, create_rate="2/minute", move_rate="1/hour").client as client:
        api = Api(client)
        game = api.create([("Ann", False), ("Bot", True)])
        api.ok("POST", "/sessions", status=201, json={"seats": 2})  # the same rate as games
        answer = refused(api, 429, "POST", "/games", json={"seats": [{"name": "Ann"}, {"name": "Bot", "bot": True}]})
        assert (
            answer["detail"]
            == "too many games and sessions created from this address: at most 2/minute; try again in 30 s"
        )
        assert answer["retry_after"] == "30"
        token = api.join(game)[0]
        move = {"seq": 0, "move": "draw"}
        assert api.call("POST", f"/games/{game['game_id']}/moves", token, json=move).status_code == 409  # counted
        answer = refused(api, 429, "POST", f"/games/{game['game_id']}/moves", token, json=move)
        assert (
            answer["detail"].startswith("too many moves from this address: at most 1/hour")
            and answer["retry_after"] == "3600"
        )
        # Another address has its own bucket.
        other = Api(TestClient(client.app, client=("192.0.2.7", 4000)))
        other.create([("Ann", False), ("Bot", True)])


def test_behind_a_trusted_proxy_the_forwarded_address_is_the_client(settings, clock, new_ids):
    with limited(
        settings, clock, new_ids, client=("10.0.0.5", 4000), create_rate="1/minute", trusted_proxies="10.0.0.0/8"
    ).client as client:
        api = Api(client)
        body = {"seats": [{"name": "Ann"}, {"name": "Bot", "bot": True}]}
        first = api.ok("POST", "/games", status=201, json=body, headers={"X-Forwarded-For": "203.0.113.1"})
        # A client's own X-Forwarded-For entry (left of the proxy's) is not believed.
        api.ok(
            "POST", "/games", status=201, json=body, headers={"X-Forwarded-For": "198.51.100.9, 203.0.113.2, 10.0.0.9"}
        )
        again = refused(api, 429, "POST", "/games", json=body, headers={"X-Forwarded-For": "9.9.9.9, 203.0.113.1"})
        assert "at most 1/minute" in again["detail"]
        # No forwarded address from the proxy: no client known, no per-client limit.
        for _ in range(3):
            api.ok("POST", "/games", status=201, json=body)
        # The log's host pseudonym is the forwarded client's too.
        store = client.app.state.store
        start = json.loads(store.log_of(first["game_id"])[0][1])
        assert start["host"] == client.app.state.log.host_of(None, "203.0.113.1")


def test_client_address_takes_the_right_most_untrusted_hop():
    trusted = parse_networks("10.0.0.0/8, ::1")
    xff = [(b"x-forwarded-for", b"1.1.1.1, 2.2.2.2"), (b"x-forwarded-for", b"10.1.1.1")]
    assert client_address("::1", xff, trusted) == "2.2.2.2"
    assert client_address("192.0.2.1", xff, trusted) == "192.0.2.1"
    assert (
        client_address("10.0.0.1", [(b"x-forwarded-for", b"10.0.0.2")], trusted) == "10.0.0.2"
    )  # all trusted: the first
    assert client_address("10.0.0.1", xff, ()) == "10.0.0.1"
    with pytest.raises(ValueError, match="'nope' is no address or network"):
        parse_networks("10.0.0.0/8 nope")


def test_a_token_bucket_refills_evenly():
    bucket = RateLimiter(Rate.parse("60/minute"))
    assert all(bucket.take("a", 0.0) is None for _ in range(60))
    assert bucket.take("a", 0.0) == 1.0 and bucket.take("a", 0.5) == 0.5 and bucket.take("a", 1.0) is None
    assert bucket.take(None, 0.0) is None and RateLimiter(Rate.parse("off")).take("a", 0.0) is None
    with pytest.raises(ValueError, match="a rate is N/second"):
        Rate.parse("30 per minute")


# -- streams per client --------------------------------------------------------------------------------


def test_live_update_streams_per_client_are_capped_429(settings, clock, new_ids):
    with limited(settings, clock, new_ids, max_streams_per_client=1).client as client:
        api = Api(client)
        game = api.create([("Ann", False), ("Bot", True)])
        url = f"/games/{game['game_id']}/events"
        with client.stream("GET", url, params={"wait": 5}) as first:
            assert first.status_code == 200
            next(first.iter_lines())
            answer = refused(api, 429, "GET", url, params={"wait": 0})
            assert answer["detail"] == "this address has 1 live-update streams open, the most allowed: close one first"
            assert answer["retry_after"] == "5"
        counter = StreamCounter(1)
        lease = counter.open("a")
        with pytest.raises(TooMany):
            counter.open("a")
        lease.release()
        lease.release()  # once only
        counter.open("a")


# -- bodies -------------------------------------------------------------------------------------------------


def test_a_body_over_the_setting_is_413_by_length_or_as_it_streams(settings, clock, new_ids):
    with limited(settings, clock, new_ids, max_body_bytes=1024).client as client:
        api = Api(client)
        assert (
            refused(api, 413, "POST", "/games", content=b"x" * 2000)["detail"] == "the request body is over 1024 bytes"
        )

        def chunks():
            for _ in range(4):
                yield b"x" * 512

        assert "over 1024 bytes" in refused(api, 413, "POST", "/games", content=chunks())["detail"]


# -- every limit is a documented setting ----------------------------------------------------------------


def test_the_readme_lists_every_setting():
    readme = (ROOT / "README.md").read_text()
    names = set(Settings().to_env())
    missing = sorted(name for name in names if f"`{name}`" not in readme)
    assert not missing, missing
    limits = readme[readme.index("### Settings and limits") : readme.index("## Embed fairdeal")]
    for name in (
        "MAX_GAMES",
        "MAX_GAMES_PER_CLIENT",
        "CREATE_RATE",
        "MOVE_RATE",
        "MAX_STREAMS_PER_CLIENT",
        "BOT_GAME_IDLE_SECONDS",
        "BOT_GAME_MAX_SECONDS",
        "MAX_BODY_BYTES",
        "MAX_HEADER_BYTES",
        "HEADER_TIMEOUT",
        "KEEP_ALIVE_TIMEOUT",
        "MAX_CONNECTIONS",
        "TRUSTED_PROXIES",
    ):
        assert f"`FAIRDEAL_{name}`" in limits, name
    assert set(HIGH_LIMITS) <= {field.name for field in dataclasses.fields(Settings)}
    assert re.search(r"FAIRDEAL_MAX_GAMES.*\| 10000 \|", limits)
