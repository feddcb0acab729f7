"""The HTTP contract: /openapi.json describes every answer, and the service keeps to it.

- Every route documents every status it can answer, each with a schema; every refusal has
  the one error body (``{"detail": ...}``).
- Every game, played through the API from its deal to its end (or its abandon), answers
  bodies that fit their schemas exactly (no field missing, none undocumented), and so do
  the dealing sessions.
- Schemathesis reads /openapi.json and sends generated and malformed requests to every
  route (its fuzzing, positive and negative, and its coverage phase: each bound, each wrong
  type, each method a route has not), with real ids and the right, a wrong or no token, and
  judges every answer with every check it has (its CLI's ``--checks all``): the status is
  documented for the route and the body fits that status's schema; what the schema allows is
  accepted, what it forbids refused; a token is enforced where the schema asks one; a method a
  route has not is a 405 with ``Allow``; what a create made is there for every route that
  names it. One (check, route) pair is left out, for a reason (``EXCLUDED``).
- What those checks found stays fixed: every bound written as JSON Schema writes it, a new
  table's body as its game takes it, numbers that are numbers, card codes that are cards,
  optional tokens said so, a query parameter once.
- A body with ``NaN`` or ``Infinity`` is a 422 that says which field, never a 500.

Deterministic: the games' ids and seeds are fixed by the test's name (``new_ids``), the
clock stands still, and the generation is derandomized with a fixed number of examples.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import jsonschema
import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck
from hypothesis import Phase
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis import checks
from schemathesis.config import SchemathesisConfig
from schemathesis.core import NOT_SET
from schemathesis.core.failures import FailureGroup
from schemathesis.engine.recorder import ScenarioRecorder
from schemathesis.generation.meta import CoverageScenario
from service_helpers import Api
from service_helpers import Party
from service_helpers import choose
from service_helpers import played_out

from fairdeal.fairness import client_commitment
from fairdeal.rules import RULES

EXAMPLES = 12
"""Generated requests per route, of each kind (fitting its schema, and not)."""

MOVES_PER_GAME = 60
"""A game is played this far through the API at most, then abandoned: some finish, all deal."""

checks.load_all_checks()
CHECKS = [checks.CHECKS.get_one(name) for name in checks.CHECKS.get_all_names()]
"""Every check schemathesis has: what its CLI runs with ``--checks all`` (the registry's every name)."""

ALL_CHECKS = frozenset(
    {
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_headers_conformance",
        "response_schema_conformance",
        "negative_data_rejection",
        "positive_data_acceptance",
        "missing_required_header",
        "unsupported_method",
        "allow_header_conformance",
        "use_after_free",
        "ensure_resource_availability",
        "ignored_auth",
        "object_level_authorization",
    }
)
"""The checks schemathesis 4.32 has: each must still be among :data:`CHECKS`."""


@pytest.fixture
def database_url(tmp_path: Any) -> str:
    """SQLite alone: the answers' shapes do not depend on the store (the other tests run both)."""
    return f"sqlite:///{tmp_path / 'data' / 'fairdeal.db'}"


REFUSALS = [*SchemathesisConfig().projects.get_default().checks_config_for().negative_data_rejection.expected_statuses]
"""What ``negative_data_rejection`` takes for a refusal of a request that does not fit its schema:
schemathesis's own list, and 413: a body over the service's limit is refused unread (every route
documents it), as much a refusal as a 422 (a long enough list of wrong cards is both)."""
REFUSALS.append("413")


@pytest.fixture
def contract(app: Any) -> Any:
    """The app's own /openapi.json, as schemathesis reads it (with :data:`REFUSALS`)."""
    config = SchemathesisConfig.from_dict({"checks": {"negative_data_rejection": {"expected-statuses": REFUSALS}}})
    return schemathesis.openapi.from_asgi("/openapi.json", app, config=config)


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
    played_out(api.app, lambda: walk("GET", "/games/{game_id}", path={"game_id": over["game_id"]})["status"])
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
    # What the log does not hold (yet) is a 404, as an unknown id; a parameter outside its schema a 422.
    for params in ({"index": size}, {"index": 0, "size": size + 1}):
        walk("GET", "/log/proof/inclusion", status=404, params=params)
    walk("GET", "/log/proof/inclusion", status=422, params={"index": -1})
    walk("GET", "/log/proof/consistency", status=404, params={"first": 3, "second": 2})
    walk("GET", "/log/proof/consistency", status=404, params={"first": size + 1})
    assert walk("GET", "/log/entries", params={"start": 2, "end": 1})["entries"] == []  # an empty range
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
    played_out(api.app, lambda: api.ok("GET", f"/games/{over['game_id']}")["status"])
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


def aim(case: Any, choice: int, parties: list[Party], *, tokens: bool = True) -> dict[str, str]:
    """Half the time, point ``case`` at a real table or session, with its host's, a seat's or no token:
    the headers to send it with. A real token is also given as the caller's own (``call_and_validate``'s
    ``headers``), so that ``ignored_auth`` knows it for a valid one and checks that the same request
    without it, or with a wrong one, is refused (a token it generated, it expects refused). Without
    ``tokens``, no token: the case is one without."""
    kind = "sessions" if case.path.startswith("/sessions/") else "games"
    mine = [p for p in parties if p.kind == kind]
    headers = {}
    if choice % 2 and case.path_parameters:
        party = mine[choice // 2 % len(mine)]
        for name in ("game_id", "session_id"):
            if name in case.path_parameters:
                case.path_parameters[name] = party.id
        if "seat" in case.path_parameters and party.seats and choice // 32 % 2:
            case.path_parameters["seat"] = sorted(party.seats)[choice // 64 % len(party.seats)]
        held = [party.host, *party.seats.values(), None] if tokens else [None]
        token = held[choice // 256 % len(held)]
        case.headers = {k: v for k, v in (case.headers or {}).items() if k.lower() != "authorization"}
        if token is not None:
            case.headers["Authorization"] = headers["Authorization"] = f"Bearer {token}"
    if case.path.endswith("/events"):
        case.query = {**(case.query or {}), "wait": 0}  # a live stream that ends at once
    return headers


EXCLUDED = {("positive_data_acceptance", "POST /games/{game_id}/moves")}
"""The one (check, route) pair not judged, and only for a move sent to a real table with a token:
there the body's schema says a kind of move, and the game the path names judges it, with a 422
(spec/catalogue.md; the table's page shows that 422 as the rules' words): a move its seat may not
make now (an illegal card, a stale turn), a field its game does not read ("Crazy Eights plays one
card at a time"), and two checks of the kinds' own that the kinds' schemas (fairdeal.rules.move,
MoveKind.schema) do not yet say: a play's ``then`` another card than its ``card``, and an Eleusis
call naming a card only when ``wrong``. Without a token or with an unknown table, the check judges."""


def send(case: Any, headers: dict[str, str]) -> None:
    """``case``, sent with ``headers`` (see :func:`aim`); its answer judged by every check but
    :data:`EXCLUDED`'s, where they apply."""
    excluded = [checks.CHECKS.get_one(name) for name, label in EXCLUDED if label == case.operation.label and headers]
    case.call_and_validate(headers=headers, checks=CHECKS, excluded_checks=excluded)


@pytest.fixture
def checks_run(contract: Any) -> set[str]:
    """The names of the checks that ran on some answer (schemathesis's ``after_validate`` hook)."""
    names: set[str] = set()

    @contract.hook
    def after_validate(context: Any, case: Any, response: Any, results: list[Any]) -> None:
        names.update(result.name for result in results)

    return names


def test_the_checks_are_every_one_schemathesis_has():
    # The CLI's `--checks all` is every check of this registry; CHECKS is the same list. Those this
    # test was written against are named, so that a check schemathesis drops (or renames) is seen too.
    # Each generated-request test below also asserts that every one of them ran on some answer.
    # Two run with nothing to find here, which no setting can change: use_after_free (a read after a
    # DELETE; the API deletes nothing: asserted below) and object_level_authorization (user A's object
    # read with user B's credentials: fairdeal has no users, a token is one table's, seat's or
    # session's key; that a seat's token opens its own view only is asserted below).
    assert [check.__name__ for check in CHECKS] == checks.CHECKS.get_all_names()
    assert set(checks.CHECKS.get_all_names()) >= ALL_CHECKS


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=str)
def test_generated_requests_get_documented_answers(contract, world, checks_run, mode):
    """Schemathesis's requests to every route of /openapi.json: ones that fit the schema (positive)
    and ones that do not (negative), half of them naming a real table or session; every check of
    schemathesis's runs on every answer (and every one did run: a narrowed list fails here)."""
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
            send(case, aim(case, choice, world))

        requests_to()
    assert checks_run == set(checks.CHECKS.get_all_names())


def test_coverage_requests_get_documented_answers(contract, world, checks_run):
    """Schemathesis's coverage phase (its CLI's first): for every route, each value at and past each
    bound (numbers, lengths, counts of items), each wrong type, each missing part, each method the
    route does not have (a 405 with ``Allow``), a missing or wrong ``Content-Type``; half of them
    naming a real table or session. ``missing_required_header`` and ``unsupported_method`` judge
    these cases only. One case is sent for each route and case that schemathesis describes alike
    (``"options -> target: Value above maximum"``): the 22 games' variants of a new table's body,
    and the 12 kinds of move with their ``seq``, repeat one another's, 3,500 cases for 700."""
    sent = set()
    for op in (result.ok() for result in contract.get_all_operations()):
        cases = contract.iter_coverage_cases(
            op,
            generation_modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE],
            generation_config=contract.config.generation_for(operation=op, phase="coverage"),
        )
        for case in cases:
            scenario = case.meta.phase.data
            key = (op.label, case.method, scenario.scenario, scenario.description)
            if key in sent:
                continue
            sent.add(key)
            without = scenario.scenario == CoverageScenario.MISSING_PARAMETER and scenario.parameter == "Authorization"
            send(case, aim(case, len(sent) * 40_503 % 2**16, world, tokens=not without))
    assert len(sent) > 500 and checks_run == set(checks.CHECKS.get_all_names())


def test_a_new_table_session_or_shuffle_is_there_for_every_route_that_names_it(contract, api, checks_run):
    """``ensure_resource_availability`` judges a request made with what an earlier one created (as
    schemathesis's stateful phase links them): after a create, no route that names what it made,
    every parameter given, answers 404. Here: a new table for every ``/games/{game_id}`` route, a
    new session for every ``/sessions/{session_id}`` one, a shuffle for its label's order; each
    with the host's (owner's) token."""
    # use_after_free judges a read after a DELETE: there is none, the API frees nothing. A DELETE
    # route would need its own chain here (create, delete, read: a 404).
    assert not any("delete" in methods for methods in contract.raw_schema["paths"].values())
    recorder = ScenarioRecorder(label="created")

    def send(parent: Any, op: Any, token: str | None, path: dict[str, Any], **parts: Any) -> Any:
        body = parts.pop("body", {}) if op.body else NOT_SET
        query, headers = parts.get("query", {}), parts.get("headers", {})
        blank = {"path_parameters": path, "query": query, "headers": headers}
        case = op.Case(
            body=body,
            media_type="application/json" if op.body else None,
            **{part: dict.fromkeys(values, "") for part, values in blank.items()},
        )
        # Given after the case is made, over blanks: schemathesis counts such values as a link's (its
        # override), and ensure_resource_availability judges a request whose every parameter is.
        case.path_parameters, case.query, case.headers = path, query, headers
        recorder.record_case(parent_id=None if parent is None else parent.id, case=case)
        response = case.call(headers={"Authorization": f"Bearer {token}"} if token else None)
        recorder.record_response(case_id=case.id, response=response)
        case.validate_response(response, checks=CHECKS, recorder=recorder)
        return case, response

    def named(prefix: str) -> list[Any]:
        return [r.ok() for r in contract.get_all_operations() if r.ok().path.startswith(prefix)]

    def lang_of(op: Any) -> dict[str, str]:
        """The page's language, for a route that takes one: every parameter given."""
        names = {p["name"] for p in op.definition.raw.get("parameters", []) if p["in"] == "query"}
        return {"lang": "nb"} if "lang" in names else {}

    game, made = send(
        None,
        operation(contract, "POST", "/games"),
        None,
        {},
        body={"seats": [{"name": "Ann"}, {"name": "Bot", "bot": True}]},
    )
    assert made.status_code == 201, made.text
    host, ids = made.json()["host_token"], {"game_id": made.json()["game_id"], "seat": 0}
    for op in named("/games/{game_id}"):
        path = {name: ids[name] for name in ("game_id", "seat") if "{" + name + "}" in op.path}
        live = {"query": {"wait": 0, "from": 0, "token": host, **lang_of(op)}, "headers": {"last-event-id": "0"}}
        send(game, op, host, path, **(live if op.path.endswith("/events") else {"query": lang_of(op)}))
    session, made = send(None, operation(contract, "POST", "/sessions"), None, {}, body={"seats": 1})
    owner, sid = made.json()["owner_key"], {"session_id": made.json()["session_id"]}
    api.ok("POST", f"/sessions/{sid['session_id']}/start", owner)
    shuffle = operation(contract, "POST", "/sessions/{session_id}/shuffle")
    dealt, answer = send(session, shuffle, owner, sid, body={"label": "deal", "packs": 1})
    assert answer.status_code == 200, answer.text
    order = operation(contract, "GET", "/sessions/{session_id}/shuffles/{label}")
    assert send(dealt, order, owner, {**sid, "label": "deal"})[1].status_code == 200
    for op in named("/sessions/{session_id}"):  # the reveal among them: the shuffle came first
        if "{label}" not in op.path:
            send(session, op, owner, {**sid, "seat": 0} if "{seat}" in op.path else sid)
    assert "ensure_resource_availability" in checks_run
    # And the check bites: a table the create did not make, named as if it had.
    with pytest.raises(FailureGroup, match="Created resource not found"):
        read = operation(contract, "GET", "/games/{game_id}")
        send(game, read, None, {"game_id": "nosuchgame"}, query=lang_of(read))


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


# -- what the schema says, the server reads (found by the checks above) -----------------------------


def fits(contract: Any, component: str, body: Any) -> bool:
    """Whether ``body`` fits ``#/components/schemas/<component>`` of /openapi.json."""
    schema = {"$ref": f"#/components/schemas/{component}", "components": contract.raw_schema["components"]}
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker()).is_valid(body)


def test_every_bound_is_written_as_json_schema_writes_it(contract):
    # pydantic wrote a bound it could not place ({"ge": 1, "le": 19}, an optional whole number's) under
    # its own names, which JSON Schema ignores: the schema offered packs 457 and the server refused it.
    def walk(node: Any, where: str) -> Iterator[str]:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("ge", "le", "gt", "lt", "min_length", "max_length") and not where.endswith("properties"):
                    yield f"{where}/{key}"
                yield from walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                yield from walk(value, f"{where}/{i}")

    assert list(walk(contract.raw_schema, "#")) == []
    packs = contract.raw_schema["components"]["schemas"]["ShuffleIn"]["properties"]["packs"]["anyOf"][0]
    assert (packs["minimum"], packs["maximum"]) == (1, 19)


def test_a_new_table_is_what_its_game_takes(api, contract):
    # One schema per game: its seats and its options, each bound as a new table's (the catalogue's).
    for name, cls in RULES.items():
        options = {o.name: (max(o.choices) if o.choices else o.high) for o in cls.OPTIONS}
        seats = [{"name": "Ann"}] + [{"name": f"Bot {i}", "bot": True} for i in range(1, cls.min_seats)]
        body = {"rules": name, "seats": seats, "options": options}
        assert fits(contract, "CreateGame", body), name
        assert api.call("POST", "/games", json=body).status_code == 201, name
        for wrong in (
            {**body, "seats": seats[:-1]},
            {**body, "seats": seats * cls.max_seats},
            *(
                {**body, "options": {**options, o.name: (max(o.choices) + 1 if o.choices else o.high + 1)}}
                for o in cls.OPTIONS
            ),
            {**body, "options": {**options, "no_such_option": 1}},
        ):
            assert not fits(contract, "CreateGame", wrong), (name, wrong)
            assert api.call("POST", "/games", json=wrong).status_code == 422, (name, wrong)
    assert fits(contract, "CreateGame", {"seats": [{"name": "A"}, {"name": "B"}]})  # the default game's
    assert not fits(contract, "CreateGame", {"rules": "poker", "seats": [{"name": "A"}, {"name": "B"}]})


def test_a_number_is_a_number_and_a_card_a_card(api, contract):
    # pydantic's lax floats read "5" and false as numbers, where the schema's "number" refuses them;
    # a card code the schema allowed ("b") was a 422 from the card reader; an "ip-" host_id too.
    for field in ("turn_seconds", "bot_seconds", "next_hand_seconds"):
        for value in (False, "5"):
            answer = api.call("POST", "/games", json={"seats": [{"name": "A"}, {"name": "B"}], field: value})
            assert answer.status_code == 422, (field, value)
            assert answers_as_documented(contract, "POST", "/games", answer)["detail"][0]["loc"] == ["body", field]
    for host_id, allowed in (("alice", True), ("ip-00", False), ("IP-00", True)):
        assert fits(contract, "CreateSession", {"host_id": host_id}) is allowed
        assert (api.call("POST", "/sessions", json={"host_id": host_id}).status_code == 201) is allowed
    session = api.ok("POST", "/sessions", status=201, json={"seats": 1})
    owner, path = session["owner_key"], f"/sessions/{session['session_id']}"
    api.ok("POST", f"{path}/start", owner)
    for n, (cards, allowed) in enumerate(((["AS", "10h", "td"], True), (["b"], False), ([" AS"], False))):
        body = {"label": f"deal-{n}", "cards": cards}
        assert fits(contract, "ShuffleIn", body) is allowed
        assert (api.call("POST", f"{path}/shuffle", owner, json=body).status_code == 200) is allowed
    for body in ({"label": "x"}, {"label": "x", "cards": ["AS"], "packs": 1}, {"label": "x", "cards": None}):
        assert not fits(contract, "ShuffleIn", body)  # cards or packs, one of the two
        assert api.call("POST", f"{path}/shuffle", owner, json=body).status_code == 422
    assert fits(contract, "ShuffleIn", {"label": "y", "cards": None, "packs": 1})


def test_a_token_is_optional_where_a_route_answers_without_one(contract):
    optional = {
        f"{method.upper()} {path}"
        for path, methods in contract.raw_schema["paths"].items()
        for method, op in methods.items()
        if {} in op.get("security", [])
    }
    assert optional == {"GET /games/{game_id}/events", "GET /sessions/{session_id}/shuffles/{label}"}


def test_a_seat_s_token_opens_its_own_view_only(api, contract):
    # object_level_authorization's question in fairdeal's terms: one key, one seat's hidden cards.
    game = api.create([("Ann", False), ("Bob", False)])
    tokens = api.join(game)
    for seat, token in tokens.items():
        for other in tokens:
            answer = api.call("GET", f"/games/{game['game_id']}/seats/{other}/view", token)
            assert answer.status_code == (200 if other == seat else 403)
            answers_as_documented(contract, "GET", "/games/{game_id}/seats/{seat}/view", answer)
    session = api.ok("POST", "/sessions", status=201, json={"seats": 2})
    first, second = (s["token"] for s in session["seats"])
    commit = {"commitment": client_commitment("x")}
    answer = api.call("POST", f"/sessions/{session['session_id']}/seats/1/commit", first, json=commit)
    assert answer.status_code == 403
    assert api.call("POST", f"/sessions/{session['session_id']}/seats/1/commit", second, json=commit).status_code == 200


def test_a_query_parameter_given_twice_is_refused(api, contract):
    # FastAPI reads the last of them; the schema has one value each.
    for route, query in (
        ("/log/proof/inclusion", "index=0&index=1"),
        ("/log/entries", "start=0&start=1"),
        ("/log/proof/consistency", "first=0&first=1"),
    ):
        answer = api.call("GET", f"{route}?{query}")
        assert answer.status_code == 422, route
        [error] = answers_as_documented(contract, "GET", route, answer)["detail"]
        assert error["loc"] == ["query", query.split("=")[0]] and "takes one value, not 2" in error["msg"]
    game = api.create([("A", True), ("B", True)])
    answer = api.call("GET", f"/games/{game['game_id']}/events?wait=0&wait=1")
    assert answer.status_code == 422 and answer.json()["detail"][0]["loc"] == ["query", "wait"]
