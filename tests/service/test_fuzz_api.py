"""Property-based fuzzing of the HTTP API: whatever a client sends, never a 5xx.

Hypothesis draws requests over every route of the app (its OpenAPI paths,
and the pages): known and unknown ids, seats in and out of range, valid
tokens of the right or the wrong party, garbage tokens and none, bodies that
are right, nearly right (a legal move on a stale seq, a card not in hand),
random JSON, broken JSON, wrong content types, and bodies over the size
limit; now and then a wrong method or an unknown path. About a third of the
examples are a seat's real legal move (on the right seq, or a stale one),
so games go on through hands, restocks and match ends while the fuzzing
runs; tables and sessions the fuzzing creates join the pool.

Besides "no 5xx" (and every JSON answer parses), each request is checked for
two promises of the service: a refused request (4xx) writes nothing to the
record it names, and no answer holds the server seed of a game or session
not yet revealed.

Deterministic: ``derandomize=True`` and a fixed number of examples (ids and
tokens differ from run to run, but which one is drawn does not).
"""

from __future__ import annotations

import json
import random
import string
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from helpers import FUZZ
from helpers import service_settings
from hypothesis import HealthCheck
from hypothesis import Phase
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from service_helpers import Api
from service_helpers import Party
from service_helpers import played_out

from fairdeal.cards import pack
from fairdeal.fairness import client_commitment
from fairdeal.rules import RULES
from fairdeal.rules.move import kinds
from fairdeal.service import create_app

EXAMPLES = 400
"""Examples per store, a third of them a seat's legal move; some 10-20 s each."""

ROUTES: list[tuple[str, str]] = [
    ("GET", "/health"),
    ("GET", "/.well-known/fairdeal-key"),
    ("GET", "/rules"),
    ("GET", "/rules/{name}"),
    ("GET", "/rules/{name}/help"),
    ("POST", "/games"),
    ("GET", "/games/{game_id}"),
    ("GET", "/games/{game_id}/record"),
    ("GET", "/games/{game_id}/verify"),
    ("POST", "/games/{game_id}/start"),
    ("POST", "/games/{game_id}/abandon"),
    ("POST", "/games/{game_id}/ready"),
    ("POST", "/games/{game_id}/again"),
    ("POST", "/games/{game_id}/seats/{seat}/commit"),
    ("POST", "/games/{game_id}/seats/{seat}/reveal"),
    ("GET", "/games/{game_id}/seats/{seat}/view"),
    ("POST", "/games/{game_id}/moves"),
    ("GET", "/games/{game_id}/events"),
    ("POST", "/sessions"),
    ("GET", "/sessions/{session_id}"),
    ("POST", "/sessions/{session_id}/seats/{seat}/commit"),
    ("POST", "/sessions/{session_id}/seats/{seat}/reveal"),
    ("POST", "/sessions/{session_id}/start"),
    ("POST", "/sessions/{session_id}/shuffle"),
    ("GET", "/sessions/{session_id}/shuffles/{label}"),
    ("POST", "/sessions/{session_id}/reveal"),
    ("GET", "/sessions/{session_id}/record"),
    ("GET", "/log/checkpoint"),
    ("GET", "/.well-known/fairdeal-log"),
    ("GET", "/log/entries"),
    ("GET", "/log/proof/inclusion"),
    ("GET", "/log/proof/consistency"),
    ("GET", "/log/tile/{path}"),
    ("GET", "/games/{game_id}/log"),
    ("GET", "/sessions/{session_id}/log"),
    ("GET", "/"),
    ("GET", "/table/{game_id}"),
    ("GET", "/verify"),
    ("GET", "/docs"),
    ("GET", "/openapi.json"),
]
"""Every route; :func:`test_the_fuzzing_covers_every_route_of_the_app` keeps this list complete."""

CODES = [card.code for card in pack()]
TILES = [
    "0/000.p/1",
    "0/000.p/3",
    "0/000",
    "1/000.p/1",
    "entries/000.p/2",
    "entries/x001/000",
    "0/x000/000",
    "00/000",
    "64/000",
    "63/x999/x999/999",
    "0/000.p/0",
    "0/000.p/256",
    "entries",
    "0/" + "x001/" * 50 + "000",
]
"""Tile paths under /log/tile/ (spec/log.md section 10): ones that are, ones beyond the log, ones that are not."""
MOVE_KINDS = sorted(kinds())
SEEDS = ["", "a", "seed ✓", "x" * 128, "y" * 129, "\u00e9" * 65, "\x00", "\ud800"]


@dataclass
class World:
    """The games and sessions the fuzzing can name, in every state, and how to check on them."""

    api: Api = field(repr=False)
    parties: list[Party] = field(default_factory=list, repr=False)

    @property
    def app(self) -> Any:
        return self.api.app

    def add_game(self, game: dict[str, Any]) -> Party:
        party = Party(
            "games",
            game["game_id"],
            game["host_token"],
            {s["seat"]: s["join_token"] for s in game["seats"] if "join_token" in s},
        )
        self.parties.append(party)
        return party

    def add_session(self, session: dict[str, Any]) -> Party:
        party = Party(
            "sessions", session["session_id"], session["owner_key"], {s["seat"]: s["token"] for s in session["seats"]}
        )
        self.parties.append(party)
        return party

    def tokens(self) -> list[str]:
        return [token for party in self.parties for token in (party.host, *party.seats.values())]

    def service(self, party: Party) -> Any:
        return self.app.state.games if party.kind == "games" else self.app.state.sessions

    def length(self, party: Party) -> int:
        return self.app.state.store.length(party.id)

    def server_seed(self, party: Party) -> str:
        if not party.server_seed:
            party.server_seed = self.service(party).read(party.id, lambda live, row: live.dealer._server_seed)
        return party.server_seed

    def revealed(self, party: Party) -> bool:
        return any('"type":"reveal"' in line for line in self.app.state.store.lines(party.id))


def build_world(api: Api) -> World:
    """Tables and sessions in each state a request can meet."""
    world = World(api)
    world.add_game(api.create([("Ann", False), ("Bob", False), ("Bot", True)]))  # seeding, nobody committed
    half = world.add_game(api.create([("Ann", False), ("Bob", False)]))
    api.ok(
        "POST", f"/games/{half.id}/seats/0/commit", half.seats[0], json={"commitment": client_commitment("ann")}
    )  # one committed
    for seats, body in (
        ([("Ann", False), ("Bot 1", True), ("Bot 2", True), ("Bot 3", True)], {"options": {"target": 30}}),
        ([("Ann", False), ("Bob", False), ("Bot", True)], {}),
        ([("Ann", False), ("Bot 1", True), ("Bot 2", True)], {"rules": "fan-tan", "options": {"stack": 20}}),
        ([("Ann", False), ("Bot 1", True), ("Bot 2", True)], {"rules": "sjueren"}),
    ):
        game = api.create(seats, **body)
        world.add_game(game)
        api.join(game)
    over = world.add_game(api.create([("Bot 1", True), ("Bot 2", True)], options={"target": 5}))  # bots alone
    assert played_out(api.app, lambda: api.ok("GET", f"/games/{over.id}")["status"]) == "over"
    abandoned = world.add_game(api.create([("Ann", False), ("Bot", True)]))
    api.ok("POST", f"/games/{abandoned.id}/abandon", abandoned.host)
    world.add_session(api.ok("POST", "/sessions", status=201, json={"seats": 2}))  # seeding
    dealing = world.add_session(api.ok("POST", "/sessions", status=201, json={"seats": 1, "label_prefix": "round/"}))
    api.ok("POST", f"/sessions/{dealing.id}/start", dealing.host)
    api.ok("POST", f"/sessions/{dealing.id}/shuffle", dealing.host, json={"label": "round/1", "packs": 1})
    revealed = world.add_session(api.ok("POST", "/sessions", status=201, json={"seats": 1}))
    api.ok("POST", f"/sessions/{revealed.id}/start", revealed.host)
    api.ok("POST", f"/sessions/{revealed.id}/shuffle", revealed.host, json={"label": "deal", "cards": ["AS", "KH"]})
    api.ok("POST", f"/sessions/{revealed.id}/reveal", revealed.host)
    return world


# -- strategies -------------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
garbage_text = st.text(max_size=30) | st.sampled_from(["", " ", "..", "%00", "null", "-1", "9" * 30, "x" * 200])
header_text = st.text(alphabet=string.printable.strip() + " ", max_size=60)


def _maybe(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A field present with a value from ``strategy``, or one of the wrong kinds, or absent (``...``)."""
    return st.one_of(strategy, strategy, json_values, st.just(...))


def _body(fields: dict[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({name: _maybe(s) for name, s in fields.items()}).map(
        lambda d: {k: v for k, v in d.items() if v is not ...}
    )


option_names = sorted({name for cls in RULES.values() for name in cls.defaults})
seat_bodies = st.fixed_dictionaries({"name": st.text(min_size=0, max_size=70), "bot": st.booleans()})
bodies: dict[str, st.SearchStrategy[Any]] = {
    "/games": _body(
        {
            "rules": st.sampled_from(sorted(RULES)) | garbage_text,
            "options": st.dictionaries(
                st.sampled_from(option_names) | st.text(max_size=5), st.integers(-5, 2000), max_size=4
            ),
            "seats": st.lists(seat_bodies, min_size=0, max_size=9),
            "turn_seconds": st.floats(allow_nan=True) | st.integers(-10, 100_000),
        }
    ),
    "commit": _body({"commitment": st.sampled_from([client_commitment(s) for s in SEEDS[:4]]) | st.text(max_size=70)}),
    "reveal": _body({"seed": st.sampled_from(SEEDS) | st.text(max_size=140)}),
    "moves": _body(
        {
            "seq": st.integers(-2, 400) | st.sampled_from([2**63, 10**12]),
            "move": st.sampled_from(MOVE_KINDS) | st.sampled_from(["PLAY", "", "fold"]),
            "card": st.sampled_from(CODES) | st.sampled_from(["10H", "ZZ", "8", ""]),
            "suit": st.sampled_from(["C", "D", "H", "S", "X", "clubs"]),
            "then": st.sampled_from(CODES) | st.sampled_from(["ZZ", ""]),
            "amount": st.integers(-1, 2_000_000),
            "seat": st.integers(-1, 12),
        }
    ),
    "abandon": _body({"reason": st.text(max_size=220)}),
    "/sessions": _body(
        {"seats": st.integers(-1, 20), "label_prefix": st.sampled_from(["", "round/", "Bad"]) | garbage_text}
    ),
    "shuffle": _body(
        {
            "label": st.sampled_from(["deal", "round/1", "round/2", "Round", "a" * 65]) | garbage_text,
            "cards": st.lists(st.sampled_from(CODES) | st.text(max_size=5), max_size=8),
            "packs": st.integers(-1, 30),
        }
    ),
}


def dice(draw: st.DrawFn) -> random.Random:
    """A ``random.Random`` that Hypothesis seeds (so derandomized runs repeat), for the choices that
    should be uniform: which route, which game, which kind of token or body. Hypothesis's own draws
    favour the first of a list (they would fuzz /health a hundred times), and the games, tokens and
    legal moves to choose from change as the fuzzing goes, which Hypothesis's draws must not
    depend on."""
    return draw(st.randoms(use_true_random=True))


@st.composite
def _valid_game(draw: st.DrawFn) -> dict[str, Any]:
    rules = draw(st.sampled_from(sorted(RULES)))
    cls = RULES[rules]
    seats = draw(st.integers(cls.min_seats, min(cls.max_seats, 5)))
    humans = draw(st.integers(0, 2))
    options = {"target": draw(st.sampled_from([5, 20, 100]))} if rules == "crazy-eights" else {}
    return {"rules": rules, "options": options, "seats": [{"name": f"P{i}", "bot": i >= humans} for i in range(seats)]}


valid_bodies: dict[str, st.SearchStrategy[Any]] = {
    "/games": _valid_game(),
    "commit": st.sampled_from(SEEDS[:4]).map(lambda seed: {"commitment": client_commitment(seed)}),
    "reveal": st.sampled_from(SEEDS[:4]).map(lambda seed: {"seed": seed}),
    "abandon": st.just({"reason": "fuzz"}),
    "/sessions": st.fixed_dictionaries({"seats": st.integers(1, 3), "label_prefix": st.sampled_from(["", "round/"])}),
    "shuffle": st.fixed_dictionaries(
        {"label": st.sampled_from(["deal", "round/1", "round/2"]), "packs": st.integers(1, 2)}
    ),
}


@st.composite
def requests(draw: st.DrawFn, world: World) -> dict[str, Any]:
    """One request: method, path, headers, query, body; and the party whose record it names."""
    rnd = dice(draw)
    # What is picked from the pool (which grows as the fuzzing goes) comes from a Random of its own:
    # what the request looks like, and so what Hypothesis draws next, must not depend on the pool's size.
    pick = dice(draw)
    method, template = rnd.choice(ROUTES)
    kind = "sessions" if template.startswith("/sessions/") else "games"
    party = pick.choice([p for p in world.parties if p.kind == kind])
    named = party
    if rnd.random() < 0.1:
        ident, named = quote(draw(garbage_text), safe=""), None  # an id that names nothing (or is no id at all)
    else:
        ident = party.id
    seat = pick.choice(sorted(party.seats) or [0]) if draw(st.booleans()) else draw(st.integers(-2, 17))
    path = template.format(
        game_id=ident,
        session_id=ident,
        seat=seat,
        label=draw(st.sampled_from(["deal", "round/1", "round/1/x", "UP", "%2e%2e"]) | garbage_text.map(quote)),
        name=draw(st.sampled_from(sorted(RULES)) | garbage_text.map(quote)),
        path=draw(st.sampled_from(TILES) | garbage_text.map(lambda t: quote(t, safe="/."))),
    )
    # Whose token: the right one, another party's, garbage, or none.
    token_kind = rnd.choice(["seat", "host", "other", "garbage", "none"])
    other, garbage = pick.choice(world.tokens()), draw(header_text)
    if token_kind == "seat":
        token = party.seats.get(seat) or pick.choice(list(party.seats.values()) or [party.host])
    else:
        token = {"host": party.host, "other": other, "garbage": garbage, "none": None}[token_kind]
    headers = {}
    if token is not None:
        scheme = draw(st.sampled_from(["Bearer ", "Bearer ", "bearer ", "Basic ", ""]))
        headers["Authorization"] = scheme + token
    query: dict[str, Any] = {}
    if template.endswith("/events"):
        # Always a short wait (a valid long one is a long poll, by design), or a value refused at once.
        query["wait"] = draw(st.sampled_from([0, 0.01, 0.05, -1, 3601, "x", "inf", "nan"]))
        if draw(st.booleans()):
            query["from"] = draw(st.integers(-1, 300) | st.sampled_from([10**10, "x"]))
        if draw(st.booleans()) and token is not None:
            query["token"] = token
            headers.pop("Authorization")
        if draw(st.booleans()):
            headers["Last-Event-ID"] = draw(
                st.sampled_from(["0", "5", "-1", "99999999999999999999", "x"]) | header_text
            )
    request: dict[str, Any] = {"method": method, "path": path, "headers": headers, "params": query, "party": named}
    if method == "POST":
        key = template if template in bodies else template.rsplit("/", 1)[-1]
        shape = rnd.choice(["valid", "valid", "fits", "fits", "json", "broken", "huge", "form", "none"])
        if shape == "valid" and key in valid_bodies:
            request["json"] = draw(valid_bodies[key])
        elif shape in ("valid", "fits") and key in bodies:
            request["json"] = draw(bodies[key])
            if key == "moves" and named is not None and rnd.random() < 0.5:
                request["json"]["seq"] = world.length(named)  # the right seq: the move itself is judged
        elif shape in ("valid", "fits", "json"):
            request["json"] = draw(json_values)
        elif shape == "broken":
            request["content"] = draw(st.sampled_from([b"{", b"\xff\xfe", b'{"seq": 1,}', b"[" * 5000, b'{"a":' * 100]))
            headers["Content-Type"] = draw(st.sampled_from(["application/json", "text/plain"]))
        elif shape == "huge":
            request["content"] = b'{"reason": "' + b"x" * draw(st.sampled_from([16 * 1024, 100_000])) + b'"}'
            headers["Content-Type"] = "application/json"
        elif shape == "form":
            request["data"] = {"seq": "1", "move": "draw"}
    if rnd.random() < 0.05:
        request["method"] = draw(st.sampled_from(["PUT", "DELETE", "PATCH", "GET", "POST"]))
    if rnd.random() < 0.03:
        request["path"] = path + draw(st.sampled_from(["/", "/x", "//", "?", "/../../etc/passwd"]))
    return request


# -- the tests ----------------------------------------------------------------------------------------


@pytest.fixture
def world(app: Any) -> Iterator[World]:
    with TestClient(app, raise_server_exceptions=False) as client:
        yield build_world(Api(client))


def check_answer(world: World, response: Any, request: dict[str, Any], before: int | None) -> None:
    assert response.status_code < 500, (
        f"{request['method']} {request['path']}: {response.status_code} {response.text[:500]}"
    )
    if response.headers.get("content-type", "").startswith("application/json"):
        json.loads(response.text)
    party = request["party"]
    if response.status_code >= 400 and party is not None and before is not None:
        assert world.length(party) == before, f"a refused {request['method']} {request['path']} wrote to the record"
    for other in world.parties:
        seed = world.server_seed(other)
        if seed in response.text:
            assert world.revealed(other), f"{request['method']} {request['path']} showed a sealed server seed"


def play_a_legal_move(world: World, data: st.DataObject) -> None:
    """A seat's real move (from its view), on the right seq or a stale one: games move on."""
    rnd = dice(data.draw)
    party = rnd.choice([p for p in world.parties if p.kind == "games" and p.seats])
    turn = world.api.call("GET", f"/games/{party.id}").json()["turn"]
    seat = turn if turn in party.seats else rnd.choice(sorted(party.seats))
    token = party.seats[seat]
    view = world.api.call("GET", f"/games/{party.id}/seats/{seat}/view", token)
    check_answer(world, view, {"method": "GET", "path": "view", "party": party}, None)
    view = view.json()
    if not view.get("legal_moves"):
        return
    move = rnd.choice(view["legal_moves"])
    seq = view["seq"] + rnd.choice([0, 0, 0, -1, 1])
    request = {"method": "POST", "path": f"/games/{party.id}/moves", "party": party}
    before = world.length(party)
    response = world.api.call("POST", request["path"], token, json={"seq": seq, **move})
    check_answer(world, response, request, before)
    assert response.status_code == (200 if seq == view["seq"] else 409), response.text


# Generation only: the server's state moves on with every request, so a shrunk replay would not
# meet the same state; a failure names its request (method, path, status, answer) instead.
@settings(
    FUZZ,
    max_examples=EXAMPLES,
    phases=[Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_no_request_gets_a_5xx(world, data):
    if dice(data.draw).random() < 0.35:
        play_a_legal_move(world, data)
        return
    request = data.draw(requests(world))
    party = request["party"]
    before = world.length(party) if party is not None else None
    kwargs = {k: request[k] for k in ("content", "data") if k in request}
    if "json" in request:
        # Encoded here: a float may be NaN or infinite, which Python writes (as NaN, Infinity) and httpx refuses.
        kwargs["content"] = json.dumps(request["json"]).encode()
        request["headers"].setdefault("Content-Type", "application/json")
    response = world.api.client.request(
        request["method"], request["path"], headers=request["headers"], params=request["params"], **kwargs
    )
    check_answer(world, response, request, before)
    if response.status_code == 201 and request["path"] in ("/games", "/sessions"):
        world.add_game(response.json()) if request["path"] == "/games" else world.add_session(response.json())


def test_the_fuzzing_covers_every_route_of_the_app(tmp_path):
    app = create_app(service_settings(tmp_path))
    paths = app.openapi()["paths"]
    api_routes = {(method.upper(), path) for path, methods in paths.items() for method in methods}
    pages = {("GET", path) for path in ("/", "/table/{game_id}", "/verify", "/docs", "/openapi.json")}
    assert api_routes | pages == set(ROUTES)
    app.state.store.close()


@pytest.mark.parametrize("content_type", ["text/plain", None])
def test_a_body_that_is_neither_json_nor_utf8_is_refused_with_422(api, content_type):
    """Found by the fuzzing: FastAPI echoes a non-JSON body's bytes in its 422, and failed on non-UTF-8."""
    headers = {"Content-Type": content_type} if content_type else {}
    response = api.client.post("/games", content=b"\xff\xfe{", headers=headers)
    assert response.status_code == 422
    [error] = response.json()["detail"]
    assert error["loc"] == ["body"] and error["input"] == "\\xff\\xfe{"
