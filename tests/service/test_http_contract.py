"""The HTTP contract: /openapi.json describes every answer, and the service keeps to it.

- Every route documents every status it can answer, each with a schema; every refusal has
  the one error body (``{"detail": ...}``).
- Every game, played through the API from its deal to its end (or its abandon), answers
  bodies that fit their schemas exactly (no field missing, none undocumented), and so do
  the dealing sessions.
- Schemathesis reads /openapi.json and sends generated and malformed requests to every
  route, with real ids and the right, a wrong or no token: every answer's status is
  documented for its route and its body fits that status's schema.
- A body with ``NaN`` or ``Infinity`` is a 422 that says which field, never a 500.

Deterministic: the games' ids and seeds are fixed by the test's name (``new_ids``), the
clock stands still, and the generation is derandomized with a fixed number of examples.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode, checks
from service_helpers import Api, Party, choose

from fairdeal.fairness import client_commitment
from fairdeal.rules import RULES

EXAMPLES = 12
"""Generated requests per route, of each kind (fitting its schema, and not)."""

MOVES_PER_GAME = 60
"""A game is played this far through the API at most, then abandoned: some finish, all deal."""

CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_schema_conformance,
    checks.response_headers_conformance,
]


@pytest.fixture
def database_url(tmp_path: Any) -> str:
    """SQLite alone: the answers' shapes do not depend on the store (the other tests run both)."""
    return f"sqlite:///{tmp_path / 'data' / 'fairdeal.db'}"


@pytest.fixture
def contract(app: Any) -> Any:
    """The app's own /openapi.json, as schemathesis reads it."""
    return schemathesis.openapi.from_asgi("/openapi.json", app)


def operation(contract: Any, method: str, path: str) -> Any:
    return contract[path][method.upper()]


def answers_as_documented(contract: Any, method: str, path: str, response: Any) -> Any:
    """``response``'s status is documented for the route, and its body fits that status's schema."""
    op = operation(contract, method, path)
    documented = op.definition.raw["responses"]
    assert str(response.status_code) in documented, (
        f"{method} {path}: {response.status_code} is not documented ({sorted(documented)}): {response.text[:300]}"
    )
    op.validate_response(response)
    return response.json() if response.headers.get("content-type", "").startswith("application/json") else response.text


@dataclass
class Walk:
    """An API client that checks every answer against the contract, route by route."""

    api: Api
    contract: Any

    def __call__(self, method: str, route: str, token: str | None = None, status: int = 200, **kwargs: Any) -> Any:
        params = kwargs.pop("path", {})
        response = self.api.call(method, route.format(**params), token, **kwargs)
        assert response.status_code == status, f"{method} {route}: {response.status_code} {response.text[:300]}"
        return answers_as_documented(self.contract, method, route, response)


# -- what /openapi.json says -----------------------------------------------------------------------


def test_every_route_documents_its_answers_and_each_has_a_schema(app):
    doc = app.openapi()
    schemas = doc["components"]["schemas"]
    assert "HTTPValidationError" not in schemas  # FastAPI's own 422 body: replaced by the one error body
    for path, methods in doc["paths"].items():
        for method, op in methods.items():
            where = f"{method.upper()} {path}"
            responses = op["responses"]
            successes = [code for code in responses if code.startswith("2")]
            assert len(successes) == 1, where
            for code, response in responses.items():
                content = response.get("content")
                assert content, f"{where} {code}: no content"
                for media, body in content.items():
                    schema = body.get("schema")
                    assert schema, f"{where} {code} {media}: no schema"
                    if media == "application/json":
                        ref = schema.get("$ref", "")
                        assert ref.startswith("#/components/schemas/"), f"{where} {code}: {schema}"
                        if not code.startswith("2") and code != "503":  # /health's 503 is a Health
                            assert ref.endswith("/Error"), f"{where} {code}: {ref}"
            takes_body = "requestBody" in op
            parameters = op.get("parameters", [])
            bearer = any("HTTPBearer" in s for s in op.get("security", []))
            expected = {successes[0], "413"}  # a body over the limit, on any route
            expected |= {"400", "422"} if takes_body else set()
            expected |= (
                {"422"}
                if any(p.get("schema", {}).get("pattern") or "maximum" in p.get("schema", {}) for p in parameters)
                else set()
            )
            expected |= {"401"} if bearer else set()  # and 403, where a token may be the wrong one
            expected |= {"404"} if any(p["in"] == "path" for p in parameters) else set()
            assert expected <= set(responses), (
                f"{where}: documents {sorted(responses)}, not {sorted(expected - set(responses))}"
            )
    assert doc["paths"]["/health"]["get"]["responses"]["503"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "/Health"
    )


def test_the_error_body_is_one_shape(app):
    error = app.openapi()["components"]["schemas"]["Error"]
    assert error["required"] == ["detail"] and error["additionalProperties"] is False


# -- every answer of every game fits its schema -----------------------------------------------------


def play_through(walk: Walk, rules: str, seats: int) -> dict[str, Any]:
    """One human seat and bots, from the create to the end or to an abandon; every answer checked."""
    people = [{"name": "Ann", "bot": False}] + [{"name": f"Bot {i}", "bot": True} for i in range(1, seats)]
    game = walk("POST", "/games", status=201, json={"rules": rules, "seats": people})
    ids = {"game_id": game["game_id"], "seat": 0}
    token = game["seats"][0]["join_token"]
    walk("GET", "/games/{game_id}", path=ids)
    walk("GET", "/games/{game_id}/seats/{seat}/view", token, path=ids)
    walk("POST", "/games/{game_id}/seats/{seat}/commit", token, path=ids, json={"commitment": client_commitment("ann")})
    view = walk("POST", "/games/{game_id}/seats/{seat}/reveal", token, path=ids, json={"seed": "ann"})["view"]
    for _ in range(MOVES_PER_GAME):
        if view["status"] != "playing":
            break
        if not view["legal_moves"]:
            view = walk("GET", "/games/{game_id}/seats/{seat}/view", token, path=ids)
            continue
        view = walk("POST", "/games/{game_id}/moves", token, path=ids, json={"seq": view["seq"], **choose(view)})[
            "view"
        ]
    if view["status"] == "playing":
        walk("POST", "/games/{game_id}/abandon", game["host_token"], path=ids, json={"reason": "enough"})
    walk("GET", "/games/{game_id}/seats/{seat}/view", token, path=ids)
    walk("GET", "/games/{game_id}/record", path=ids)
    walk("GET", "/games/{game_id}/events", path=ids, params={"wait": 0})
    report = walk("GET", "/games/{game_id}/verify", path=ids)
    assert report["verified"], report["error"]
    assert len(walk("GET", "/games/{game_id}/log", path=ids)["entries"]) == 2  # its start and its end
    return walk("GET", "/games/{game_id}", path=ids)


def test_every_game_answers_as_its_schemas_say(api, contract):
    walk = Walk(api, contract)
    ended = set()
    for rules, cls in RULES.items():
        state = play_through(walk, rules, cls.min_seats)
        assert state["status"] in ("over", "abandoned") and "server_seed" in state
        ended.add(state["status"])
    assert ended == {"over", "abandoned"}
    # Bots alone play at once, to the end: a create's answer, then the standings.
    over = walk(
        "POST",
        "/games",
        status=201,
        json={"seats": [{"name": "A", "bot": True}, {"name": "B", "bot": True}], "options": {"target": 5}},
    )
    for _ in range(50):
        if walk("GET", "/games/{game_id}", path={"game_id": over["game_id"]})["status"] == "over":
            break
        api.app.state.games.run_due(now=float("inf"))
    assert walk("GET", "/games/{game_id}", path={"game_id": over["game_id"]})["standings"]
    # The host starts a table whose seats have not all revealed: they become bots.
    early = walk("POST", "/games", status=201, json={"seats": [{"name": "A"}, {"name": "B"}]})
    walk("POST", "/games/{game_id}/start", early["host_token"], path={"game_id": early["game_id"]})
    for route in ("/health", "/.well-known/fairdeal-key", "/rules", "/log/checkpoint", "/.well-known/fairdeal-log"):
        walk("GET", route)
    size = walk("GET", "/log/entries", params={"start": 0})["size"]
    walk("GET", "/log/entries", params={"start": 1, "end": size})
    walk("GET", "/log/proof/inclusion", params={"index": 0})
    walk("GET", "/log/proof/inclusion", params={"index": 1, "size": 2})
    walk("GET", "/log/proof/consistency", params={"first": 1})
    walk("GET", "/log/proof/consistency", params={"first": 1, "second": 3})
    for params in ({"index": size}, {"index": 0, "size": size + 1}, {"index": -1}):
        walk("GET", "/log/proof/inclusion", status=422, params=params)
    walk("GET", "/log/proof/consistency", status=422, params={"first": 3, "second": 2})
    walk("GET", "/log/entries", status=422, params={"start": 2, "end": 1})
    walk("GET", "/games/{game_id}/log", status=404, path={"game_id": "nosuchgame"})
    for rules in RULES:
        walk("GET", "/rules/{name}", path={"name": rules})
        walk("GET", "/rules/{name}/help", path={"name": rules})


def test_a_dealing_session_answers_as_its_schemas_say(api, contract):
    walk = Walk(api, contract)
    session = walk("POST", "/sessions", status=201, json={"seats": 2, "label_prefix": "round/"})
    ids = {"session_id": session["session_id"]}
    owner = session["owner_key"]
    tokens = {s["seat"]: s["token"] for s in session["seats"]}
    walk("GET", "/sessions/{session_id}", path=ids)
    for seat, token in tokens.items():
        walk(
            "POST",
            "/sessions/{session_id}/seats/{seat}/commit",
            token,
            path={**ids, "seat": seat},
            json={"commitment": client_commitment(f"seat {seat}")},
        )
    walk(
        "POST",
        "/sessions/{session_id}/seats/{seat}/reveal",
        tokens[0],
        path={**ids, "seat": 0},
        json={"seed": "seat 0"},
    )
    walk("POST", "/sessions/{session_id}/start", owner, path=ids)
    walk(
        "POST",
        "/sessions/{session_id}/shuffle",
        owner,
        path=ids,
        json={"label": "round/1", "cards": ["AS", "KH", "8D"]},
    )
    walk("POST", "/sessions/{session_id}/shuffle", owner, path=ids, json={"label": "round/2", "packs": 2})
    walk("GET", "/sessions/{session_id}/shuffles/{label}", owner, path={**ids, "label": "round/1"})
    walk("POST", "/sessions/{session_id}/reveal", owner, path=ids)
    state = walk("GET", "/sessions/{session_id}", path=ids)
    assert state["status"] == "revealed" and "server_seed" in state
    walk("GET", "/sessions/{session_id}/shuffles/{label}", path={**ids, "label": "round/2"})
    walk("GET", "/sessions/{session_id}/record", path=ids)
    assert len(walk("GET", "/sessions/{session_id}/log", path=ids)["entries"]) == 2


def test_refusals_have_the_one_error_body(api, contract):
    walk = Walk(api, contract)
    game = walk("POST", "/games", status=201, json={"seats": [{"name": "Ann"}, {"name": "Bob"}]})
    ids = {"game_id": game["game_id"], "seat": 0}
    ann, bob = (s["join_token"] for s in game["seats"])
    commit = {"commitment": client_commitment("ann")}
    assert walk("POST", "/games/{game_id}/seats/{seat}/commit", path=ids, json=commit, status=401)["detail"]
    assert walk("POST", "/games/{game_id}/seats/{seat}/commit", bob, path=ids, json=commit, status=403)["detail"]
    walk("POST", "/games/{game_id}/seats/{seat}/commit", ann, path=ids, json=commit)
    assert (
        "already committed"
        in walk("POST", "/games/{game_id}/seats/{seat}/commit", ann, path=ids, json=commit, status=409)["detail"]
    )
    assert walk("GET", "/games/{game_id}", path={"game_id": "nope"}, status=404)["detail"] == "there is no game 'nope'"
    assert walk("GET", "/rules/{name}", path={"name": "poker"}, status=404)["detail"].startswith(
        "unknown rules 'poker'"
    )
    assert walk("GET", "/rules/{name}/help", path={"name": "poker"}, status=404)["detail"].startswith(
        "unknown rules 'poker'"
    )
    [error] = walk("GET", "/games/{game_id}/seats/{seat}/view", ann, path={**ids, "seat": 99}, status=422)["detail"]
    assert error["loc"] == ["path", "seat"]
    assert walk("POST", "/games/{game_id}/moves", ann, path=ids, json={"seq": 1, "move": "draw"}, status=409)["detail"]
    too_big = walk(
        "POST", "/games/{game_id}/abandon", game["host_token"], path=ids, json={"reason": "x" * 20_000}, status=413
    )
    assert "over 16384 bytes" in too_big["detail"]
    assert "over 16384 bytes" in walk("GET", "/rules", content=b"x" * 20_000, status=413)["detail"]  # any route
    deep = walk("POST", "/games", content=b"[" * 10_000, headers={"content-type": "application/json"}, status=400)
    assert deep["detail"] == "There was an error parsing the body"
    # FastAPI's own refusals (no such path, a wrong method) have the same body.
    for method, url, status in (("GET", "/no/such/path", 404), ("DELETE", "/games", 405)):
        response = api.call(method, url)
        assert response.status_code == status and isinstance(response.json()["detail"], str)
        assert set(response.json()) == {"detail"}


# -- NaN and Infinity ------------------------------------------------------------------------------


SEATS = '[{"name": "Ann"}, {"name": "Bot", "bot": true}]'


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ('{"seats": %s, "turn_seconds": NaN}' % SEATS, ["body", "turn_seconds"]),
        ('{"seats": %s, "turn_seconds": Infinity}' % SEATS, ["body", "turn_seconds"]),
        ('{"seats": %s, "turn_seconds": -Infinity}' % SEATS, ["body", "turn_seconds"]),
        ('{"seats": %s, "options": {"target": NaN}}' % SEATS, ["body", "options", "target"]),
        ('{"seats": %s, "options": {"target": Infinity}}' % SEATS, ["body", "options", "target"]),
        ('{"seats": [{"name": "Ann", "bot": NaN}, {"name": "Bob"}]}', ["body", "seats", 0, "bot"]),
        ('{"seats": %s, "rules": NaN}' % SEATS, ["body", "rules"]),
        ('{"seats": %s, "colour": Infinity}' % SEATS, ["body", "colour"]),
        ("NaN", ["body"]),
        ("[Infinity, -Infinity]", ["body"]),
    ],
)
def test_nan_and_infinity_in_a_new_game_are_422_with_the_field(api, contract, caplog, body, where):
    caplog.set_level(logging.INFO, logger="fairdeal")
    response = api.call("POST", "/games", content=body.encode(), headers={"content-type": "application/json"})
    assert response.status_code == 422, response.text
    answer = answers_as_documented(contract, "POST", "/games", response)
    assert where in [error["loc"] for error in answer["detail"]]
    assert "NaN" in response.text or "Infinity" in response.text  # the input, echoed as text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]  # no traceback in the log
    if where == ["body", "turn_seconds"]:
        assert answer["detail"][0]["msg"] == "Input should be a finite number"


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_nan_and_infinity_anywhere_else_are_422(api, contract, caplog, value):
    caplog.set_level(logging.INFO, logger="fairdeal")
    game = api.create([("Ann", False), ("Bot", True)])
    token = api.join(game)[0]
    gid = game["game_id"]
    session = api.ok("POST", "/sessions", status=201, json={"seats": 1})
    sid, owner = session["session_id"], session["owner_key"]
    for method, route, token_, raw in [
        ("POST", "/games/{game_id}/moves", token, '{"seq": %s, "move": "draw"}' % value),
        ("POST", "/games/{game_id}/moves", token, '{"seq": 3, "move": "bid", "amount": %s}' % value),
        ("POST", "/games/{game_id}/abandon", game["host_token"], '{"reason": %s}' % value),
        ("POST", "/sessions", None, '{"seats": %s}' % value),
        ("POST", "/sessions/{session_id}/shuffle", owner, '{"label": "deal", "packs": %s}' % value),
        ("POST", "/sessions/{session_id}/seats/{seat}/reveal", session["seats"][0]["token"], '{"seed": %s}' % value),
    ]:
        url = route.format(game_id=gid, session_id=sid, seat=0)
        response = api.call(method, url, token_, content=raw.encode(), headers={"content-type": "application/json"})
        assert response.status_code == 422, (route, response.text)
        detail = answers_as_documented(contract, method, route, response)["detail"]
        assert detail and all(error["loc"][0] == "body" for error in detail)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


# -- schemathesis: generated and malformed requests to every route ----------------------------------


def build_world(api: Api) -> list[Party]:
    """Tables and sessions in the states a request can meet, for the generated requests to name."""
    parties = []

    def game(seats: list[tuple[str, bool]], **body: Any) -> dict[str, Any]:
        made = api.create(seats, **body)
        parties.append(
            Party(
                "games",
                made["game_id"],
                made["host_token"],
                {s["seat"]: s["join_token"] for s in made["seats"] if "join_token" in s},
            )
        )
        return made

    game([("Ann", False), ("Bob", False)])  # seeding
    api.join(game([("Ann", False), ("Bot", True), ("Bot", True)]))  # playing
    most_moves = max(RULES.values(), key=lambda cls: len(cls.declaration()["moves"]))  # an auction, bids
    api.join(game([("Ann", False)] + [("Bot", True)] * (most_moves.min_seats - 1), rules=most_moves.name))
    over = game([("A", True), ("B", True)], options={"target": 5})
    for _ in range(50):
        if api.ok("GET", f"/games/{over['game_id']}")["status"] == "over":
            break
        api.app.state.games.run_due(now=float("inf"))
    abandoned = game([("Ann", False), ("Bot", True)])
    api.ok("POST", f"/games/{abandoned['game_id']}/abandon", abandoned["host_token"])
    for seats, started in ((2, False), (1, True)):
        made = api.ok("POST", "/sessions", status=201, json={"seats": seats})
        parties.append(
            Party("sessions", made["session_id"], made["owner_key"], {s["seat"]: s["token"] for s in made["seats"]})
        )
        if started:
            api.ok("POST", f"/sessions/{made['session_id']}/start", made["owner_key"])
            api.ok(
                "POST", f"/sessions/{made['session_id']}/shuffle", made["owner_key"], json={"label": "deal", "packs": 1}
            )
    return parties


@pytest.fixture
def world(app: Any) -> Iterator[list[Party]]:
    with TestClient(app) as client:
        yield build_world(Api(client))


def aim(case: Any, choice: int, parties: list[Party]) -> None:
    """Half the time, point ``case`` at a real table or session, with its host's, a seat's or no token."""
    kind = "sessions" if case.path.startswith("/sessions/") else "games"
    mine = [p for p in parties if p.kind == kind]
    if choice % 2 and case.path_parameters:
        party = mine[choice // 2 % len(mine)]
        for name in ("game_id", "session_id"):
            if name in case.path_parameters:
                case.path_parameters[name] = party.id
        if "seat" in case.path_parameters and party.seats and choice // 32 % 2:
            case.path_parameters["seat"] = sorted(party.seats)[choice // 64 % len(party.seats)]
        tokens = [party.host, *party.seats.values(), None]
        token = tokens[choice // 256 % len(tokens)]
        case.headers = {k: v for k, v in (case.headers or {}).items() if k.lower() != "authorization"}
        if token is not None:
            case.headers["Authorization"] = f"Bearer {token}"
    if case.path.endswith("/events"):
        case.query = {**(case.query or {}), "wait": 0}  # a live stream that ends at once


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=str)
def test_generated_requests_get_documented_answers(contract, world, mode):
    """Schemathesis's requests to every route of /openapi.json: ones that fit the schema (positive)
    and ones that do not (negative), half of them naming a real table or session."""
    operations = [result.ok() for result in contract.get_all_operations()]
    assert len(operations) == sum(len(methods) for methods in contract.raw_schema["paths"].values())
    for op in operations:
        if mode == GenerationMode.NEGATIVE and not (op.definition.raw.get("parameters") or op.body):
            continue  # nothing to get wrong (GET /health)

        @settings(
            max_examples=EXAMPLES,
            derandomize=True,
            deadline=None,
            database=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(case=op.as_strategy(mode), choice=st.integers(0, 2**16))
        def requests_to(case: Any, choice: int) -> None:
            aim(case, choice, world)
            case.call_and_validate(checks=CHECKS)

        requests_to()


def test_a_whole_number_written_5_0_is_the_integer_the_schema_says(api, contract):
    # JSON Schema's "integer" holds 5.0; the server once refused it (strict integers) while the
    # schema offered it. A fraction, a string or a boolean is still refused, naming the field.
    session = api.call("POST", "/sessions", content=b'{"seats": 2.0}', headers={"content-type": "application/json"})
    assert (
        session.status_code == 201 and len(answers_as_documented(contract, "POST", "/sessions", session)["seats"]) == 2
    )
    game = api.call(
        "POST",
        "/games",
        content=b'{"seats": %s, "options": {"target": 50.0}}' % SEATS.encode(),
        headers={"content-type": "application/json"},
    )
    assert game.status_code == 201, game.text
    assert api.ok("GET", f"/games/{game.json()['game_id']}")["options"]["target"] == 50
    for raw in (b'{"seats": 2.5}', b'{"seats": "2"}', b'{"seats": true}'):
        refused = api.call("POST", "/sessions", content=raw, headers={"content-type": "application/json"})
        assert refused.status_code == 422
        [error] = answers_as_documented(contract, "POST", "/sessions", refused)["detail"]
        assert error["loc"] == ["body", "seats"] and "whole number" in error["msg"]


def test_a_seed_is_bounded_in_bytes_as_the_schema_says(api, contract):
    # The protocol's bound is 128 UTF-8 bytes; JSON Schema counts characters. The schema says both
    # (maxLength 128, x-maxBytes 128): 128 characters of "ø" (256 bytes) are refused with the reason,
    # 64 of them (128 bytes) are a seed.
    schema = contract.raw_schema["components"]["schemas"]["RevealIn"]["properties"]["seed"]
    assert schema["maxLength"] == 128 and schema["x-maxBytes"] == 128
    for seed, status in (("ø" * 128, 422), ("ø" * 64, 200)):
        game = api.create([("Ann", False), ("Bot", True)])
        path = f"/games/{game['game_id']}/seats/0"
        token = game["seats"][0]["join_token"]
        committed = client_commitment(seed if status == 200 else "a seed of its bounds")  # the too long one has none
        api.ok("POST", f"{path}/commit", token, json={"commitment": committed})
        answer = api.call("POST", f"{path}/reveal", token, json={"seed": seed})
        assert answer.status_code == status, answer.text
        if status == 422:
            [error] = answers_as_documented(contract, "POST", "/games/{game_id}/seats/{seat}/reveal", answer)["detail"]
            assert error["loc"] == ["body", "seed"] and "at most 128 UTF-8 bytes, this one is 256" in error["msg"]
