"""The hot routes (#33 item 2): a move and a seat's view are answered without FastAPI's routing and
dependency solving (fairdeal.service.routes.hot), byte for byte as FastAPI's routes answer them.

Two apps share the keys and the clock, each on a database of its own, and make the same games (the
same ids and seeds): one answers as the service does, the other with :class:`HotRoutes` taken out,
every request through FastAPI. Every request goes to both, and the two answers must be the same.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import logging
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import HIGH_LIMITS
from fastapi.testclient import TestClient
from service_helpers import Clock

from fairdeal.fairness import client_commitment
from fairdeal.service import Settings
from fairdeal.service import create_app
from fairdeal.service.routes.hot import HotRoutes

Answer = tuple[int, dict[str, str], bytes]


def ids() -> Callable[[], tuple[str, str]]:
    count = itertools.count(1)

    def new() -> tuple[str, str]:
        digest = hashlib.sha256(f"hot/{next(count)}".encode()).digest()
        return f"h{digest[:6].hex()}", digest.hex()

    return new


class Twins:
    """The service's app and its twin without the hot routes; each request to both.

    Tokens are random, each app's own: a request names whose token it carries (``"host"``, a seat
    number), and each app gets its own; in the answers, each app's tokens read as whose they are.
    """

    def __init__(self, tmp_path: Path, **settings: Any) -> None:
        clock = Clock()
        self.clients: list[TestClient] = []
        self.tokens: list[dict[Any, str]] = [{}, {}]
        self.passed_on: list[str] = []  # the hot app's requests that its HotRoutes handed to the router
        for name in ("hot", "plain"):
            app = create_app(
                Settings(
                    data_dir=tmp_path / "keys",  # one signing key: the same receipts
                    database_url=f"sqlite:///{tmp_path / name}.db",
                    bot_delay=0,
                    next_hand_seconds=0,
                    tick_seconds=0,
                    **{**HIGH_LIMITS, **settings},
                ),
                clock=clock,
                new_ids=ids(),
            )
            if name == "plain":
                app.user_middleware = [m for m in app.user_middleware if m.cls is not HotRoutes]
            self.clients.append(TestClient(app).__enter__())
        hot = self._hot_routes(self.clients[0].app)
        router, passed_on = hot.app, self.passed_on

        async def counted(scope: Any, receive: Any, send: Any) -> None:
            passed_on.append(f"{scope['method']} {scope['path']}")
            await router(scope, receive, send)

        hot.app = counted

    @staticmethod
    def _hot_routes(app: Any) -> HotRoutes:
        layer = app.middleware_stack  # built when the client started the app
        while not isinstance(layer, HotRoutes):
            layer = layer.app
        return layer

    def close(self) -> None:
        for client in self.clients:
            client.__exit__(None, None, None)

    def both(self, method: str, url: str, who: Any = None, scheme: str = "Bearer {}", **kwargs: Any) -> Answer:
        """The two apps' answer to one request, which must be the same; ``who``'s token (``None``:
        none; a key :attr:`tokens` does not have: itself) in an Authorization header of ``scheme``."""
        answers = []
        for client, tokens in zip(self.clients, self.tokens):
            headers = dict(kwargs.get("headers", {}))
            if who is not None:
                headers["Authorization"] = scheme.format(tokens.get(who, who))
            content = kwargs.get("content")
            content = content() if callable(content) else content  # a generator's chunks, made again for each
            response = client.request(method, url, **{**kwargs, "headers": headers, "content": content})
            body = response.content
            for whose, token in tokens.items():
                body = body.replace(token.encode(), f"<{whose}>".encode())
            answers.append((response.status_code, dict(response.headers), body))
        assert answers[0][0] == answers[1][0] and answers[0][2] == answers[1][2], f"{method} {url}"
        # Content-Length apart: a token and its stand-in need not be as long.
        assert {**answers[0][1], "content-length": ""} == {**answers[1][1], "content-length": ""}, f"{method} {url}"
        return answers[0]

    def ok(self, method: str, url: str, who: Any = None, status: int = 200, **kwargs: Any) -> Any:
        got, _, body = self.both(method, url, who, **kwargs)
        assert got == status, body
        return json.loads(body)

    def table(self) -> str:
        """A table of Ann, Bob and a bot, both people's seeds brought: its id (its tokens in :attr:`tokens`)."""
        game = {"seats": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Bot", "bot": True}]}
        made = [client.post("/games", json=game).json() for client in self.clients]
        for tokens, answer in zip(self.tokens, made):
            tokens["host"] = answer["host_token"]
            tokens.update((seat["seat"], seat["join_token"]) for seat in answer["seats"] if "join_token" in seat)
        game_id = made[0]["game_id"]
        assert made[1]["game_id"] == game_id
        for seat in (0, 1):
            commitment = client_commitment(f"seed {seat}")
            self.ok("POST", f"/games/{game_id}/seats/{seat}/commit", seat, json={"commitment": commitment})
        for seat in (0, 1):
            self.ok("POST", f"/games/{game_id}/seats/{seat}/reveal", seat, json={"seed": f"seed {seat}"})
        return game_id


@pytest.fixture
def twins(tmp_path: Path) -> Iterator[Twins]:
    twins = Twins(tmp_path)
    yield twins
    twins.close()


def choose(view: dict[str, Any]) -> dict[str, Any]:
    plays = [move for move in view["legal_moves"] if move["move"] == "play"]
    return (plays or view["legal_moves"])[0]


def test_the_openapi_document_is_the_routes_as_declared(twins):
    document = twins.ok("GET", "/openapi.json")  # the same with the hot routes as without
    assert document["paths"]["/games/{game_id}/moves"]["post"]["operationId"]
    assert document["paths"]["/games/{game_id}/seats/{seat}/view"]["get"]["operationId"]


def test_views_are_answered_as_fastapi_answers_them(twins):
    game_id = twins.table()
    twins.passed_on.clear()
    for seat in (0, 1):
        view = twins.ok("GET", f"/games/{game_id}/seats/{seat}/view", seat)
        assert view["seat"] == seat and "hand" in view
    # Refused: another seat's token, the host's, none, another scheme, an unknown game or token.
    for url, who, status in [
        (f"/games/{game_id}/seats/1/view", 0, 403),
        (f"/games/{game_id}/seats/0/view", "host", 403),
        (f"/games/{game_id}/seats/0/view", None, 401),
        (f"/games/{game_id}/seats/0/view", "not-a-token", 401),
        (f"/games/{game_id}/seats/2/view", 0, 403),  # the bot's seat
        (f"/games/{game_id}/seats/9/view", 0, 403),  # no such seat at this table
        ("/games/nosuchgame/seats/0/view", 0, 404),
    ]:
        got, headers, body = twins.both("GET", url, who)
        assert got == status and headers["content-type"] == "application/json", (url, body)
        assert json.loads(body)["detail"]
    url = f"/games/{game_id}/seats/0/view"
    assert twins.both("GET", url, 0, scheme="Basic {}")[0] == 401
    assert twins.both("GET", url, 0, scheme="Bearer")[0] == 401
    assert twins.both("GET", url, 0, scheme="bearer  {} ")[0] == 200
    assert not twins.passed_on
    # The paths the routes' own checks read some other way, or refuse, are theirs to answer.
    seats = [twins.both("GET", f"/games/{game_id}/seats/{seat}/view", 0)[0] for seat in ("16", "00", "x")]
    assert seats == [422, 200, 422]  # FastAPI reads "00" as seat 0
    assert twins.both("GET", f"/games/{'x' * 65}/seats/0/view", 0)[0] == 422
    assert twins.both("HEAD", f"/games/{game_id}/seats/0/view", 0)[0] == 405
    assert len(twins.passed_on) == 5


def test_moves_are_answered_as_fastapi_answers_them(twins):
    game_id = twins.table()
    twins.passed_on.clear()
    url = f"/games/{game_id}/moves"
    for _ in range(12):
        seat = twins.ok("GET", f"/games/{game_id}/seats/0/view", 0)["turn"]
        view = twins.ok("GET", f"/games/{game_id}/seats/{seat}/view", seat)
        assert view["status"] == "playing"
        move = {"seq": view["seq"], **choose(view)}
        # Refused first, changing nothing: the other seat (not its turn, or not its card), a stale seq,
        # the host, a seat not the token's, no token (before the body is read), an unknown game.
        assert twins.both("POST", url, 1 - seat, json=move)[0] in (403, 409, 422)
        assert twins.both("POST", url, seat, json={**move, "seq": view["seq"] - 1})[0] == 409
        assert twins.both("POST", url, "host", json=move)[0] == 403
        assert twins.both("POST", url, seat, json={**move, "seat": 1 - seat})[0] == 403
        assert twins.both("POST", url, None, json={"seq": "not even a number"})[0] == 401
        assert twins.both("POST", "/games/nosuchgame/moves", seat, json=move)[0] == 404
        # JSON with a charset (what some clients send) is JSON.
        charset = {"Content-Type": "application/json; charset=UTF-8"}
        answer = twins.ok("POST", url, seat, content=json.dumps(move).encode(), headers=charset)
        assert answer["receipt"]["seq"] == view["seq"] and answer["view"]["seat"] == seat
    assert not twins.passed_on, twins.passed_on


@pytest.mark.parametrize(
    ("body", "headers"),
    [
        (b'{"move": "pass"}', {}),  # no seq
        (b'{"seq": 5, "move": "play", "card": "ZZ"}', {}),  # a card that is none
        (b'{"seq": 5, "move": "play", "colour": "red"}', {}),  # a member no move has
        (b'{"seq": 5, "move":', {}),  # not JSON
        (b'[{"seq": 5, "move": "pass"}]', {}),  # JSON, not an object
        (b'"pass"', {}),
        (b"", {}),
        (b'{"seq": NaN, "move": "pass"}', {}),
        (b'{"seq": 5, "move": "pass"}', {"Content-Type": "text/plain"}),
        (b'{"seq": 5, "move": "pass"}', {"Content-Type": "application/merge-patch+json"}),
        (b'{"seq": 5, "move": "pass"}', {"Content-Type": ""}),
        (b"\xff\xfe{", {}),
        (b"[" * 10_000, {}),  # too deep for json.loads
    ],
)
def test_a_move_the_hot_route_does_not_read_is_fastapis_to_answer(tmp_path, body, headers):
    twins = Twins(tmp_path, max_body_bytes=16 * 1024)
    try:
        game_id = twins.table()
        twins.passed_on.clear()
        got, answered, text = twins.both(
            "POST", f"/games/{game_id}/moves", 0, content=body, headers={"Content-Type": "application/json", **headers}
        )
        assert 400 <= got < 500 and answered["content-type"] == "application/json", text
        assert json.loads(text)["detail"]
        assert twins.passed_on == [f"POST /games/{game_id}/moves"]
    finally:
        twins.close()


def test_a_move_over_the_body_limit_or_the_rate_is_refused_as_before(tmp_path):
    twins = Twins(tmp_path, max_body_bytes=1024, move_rate="2/minute")
    try:
        game_id = twins.table()
        url = f"/games/{game_id}/moves"
        got, _, body = twins.both("POST", url, 0, json={"seq": 0, "move": "pass", "x": "y" * 2000})
        assert got == 413 and b"over 1024 bytes" in body

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it streams in
            yield b'{"seq": 0, "move": "pass", "x": "'
            for _ in range(4):
                yield b"y" * 512
            yield b'"}'

        got, _, body = twins.both("POST", url, 0, content=chunks, headers={"Content-Type": "application/json"})
        assert got == 413 and b"over 1024 bytes" in body
        stale = {"seq": 0, "move": "pass"}
        assert [twins.both("POST", url, 0, json=stale)[0] for _ in range(3)] == [409, 409, 429]
        got, headers, body = twins.both("POST", url, 0, json=stale)
        assert got == 429 and headers["retry-after"] == "30" and b"at most 2/minute" in body
    finally:
        twins.close()


def test_the_access_log_names_a_hot_route_as_any_other(twins, caplog):
    caplog.set_level(logging.INFO, "fairdeal.access")
    game_id = twins.table()
    caplog.clear()
    twins.both("GET", f"/games/{game_id}/seats/0/view", 0)
    twins.both("GET", f"/games/{game_id}/seats/1/view", 0)
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "fairdeal.access"]
    assert [(line["path"], line["status"], line["game_id"]) for line in lines] == [
        ("/games/{game_id}/seats/{seat}/view", 200, game_id)
    ] * 2 + [("/games/{game_id}/seats/{seat}/view", 403, game_id)] * 2


def test_a_view_and_a_move_in_the_pages_language_are_answered_as_fastapi_answers_them(twins):
    game_id = twins.table()
    twins.passed_on.clear()
    url = f"/games/{game_id}/moves?lang=nb"
    for _ in range(6):
        seat = twins.ok("GET", f"/games/{game_id}/seats/0/view?lang=nb", 0)["turn"]
        view = twins.ok("GET", f"/games/{game_id}/seats/{seat}/view?lang=nb-NO", seat)
        move = {"seq": view["seq"], **choose(view)}
        # Refused in Norwegian (a stale seq, not the seat's turn, the host's token), then made.
        stale = twins.both("POST", url, seat, json={**move, "seq": view["seq"] - 1})
        assert stale[0] == 409 and "protokollen er ved seq" in json.loads(stale[2])["detail"]
        assert twins.both("POST", url, 1 - seat, json=move)[0] in (403, 409, 422)
        assert "vertens nøkkel" in json.loads(twins.both("POST", url, "host", json=move)[2])["detail"]
        assert twins.ok("POST", url, seat, json=move)["view"]["seat"] == seat
    assert not twins.passed_on, twins.passed_on
    # A language the routes refuse (not a tag, or given twice), or another query: theirs to answer.
    view = f"/games/{game_id}/seats/0/view"
    assert [twins.both("GET", f"{view}?{query}", 0)[0] for query in ("lang=nb_NO", "lang=", "lang=nb&lang=en")] == [
        422,
        422,
        422,
    ]
    assert twins.both("GET", f"{view}?other=1", 0)[0] == 200
    assert twins.both("POST", f"/games/{game_id}/moves?lang=x%20y", 0, json={"seq": 0, "move": "pass"})[0] == 422
    assert len(twins.passed_on) == 5
