"""What the service tests share: a hand-moved clock, an API client that keeps every response, a player,
a game played through, the auditor's fetch, a free port."""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from fastapi.testclient import TestClient

from fairdeal.audit import Unreachable
from fairdeal.fairness import client_commitment
from fairdeal.verification import verify

CARD_CODE = re.compile(r'"([A2-9TJQK][CDHS])"')


class Clock:
    """A clock the test moves by hand: deadlines come due exactly when the test says."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class Api:
    """A TestClient and the few steps every test needs, keeping every response it saw."""

    client: TestClient
    seen: list[str] = field(default_factory=list)

    @property
    def app(self) -> Any:
        return self.client.app

    def call(self, method: str, url: str, token: str | None = None, **kwargs: Any) -> Any:
        headers = kwargs.pop("headers", {})
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        response = self.client.request(method, url, headers=headers, **kwargs)
        self.seen.append(response.text)
        return response

    def ok(self, method: str, url: str, token: str | None = None, status: int = 200, **kwargs: Any) -> Any:
        response = self.call(method, url, token, **kwargs)
        assert response.status_code == status, response.text
        return response.json()

    def create(self, seats: list[tuple[str, bool]], **body: Any) -> dict[str, Any]:
        return self.ok("POST", "/games", status=201, json={"seats": [{"name": n, "bot": b} for n, b in seats], **body})

    def ann_and_a_bot(self, **body: Any) -> tuple[str, str]:
        """A new table of Ann (seat 0) and a bot, Ann's seed brought: its id, and her token."""
        game = self.create([("Ann", False), ("Bot", True)], **body)
        return game["game_id"], self.join(game)[0]

    def join(self, game: dict[str, Any], seeds: dict[int, str] | None = None) -> dict[int, str]:
        """Every human seat commits, then reveals; returns the join tokens by seat."""
        tokens = {s["seat"]: s["join_token"] for s in game["seats"] if "join_token" in s}
        seeds = seeds or {seat: f"seed of seat {seat}" for seat in tokens}
        for seat, token in tokens.items():
            self.ok(
                "POST",
                f"/games/{game['game_id']}/seats/{seat}/commit",
                token,
                json={"commitment": client_commitment(seeds[seat])},
            )
        for seat, token in tokens.items():
            self.ok("POST", f"/games/{game['game_id']}/seats/{seat}/reveal", token, json={"seed": seeds[seat]})
        return tokens

    def view(self, game_id: str, seat: int, token: str) -> dict[str, Any]:
        return self.ok("GET", f"/games/{game_id}/seats/{seat}/view", token)

    def record(self, game_id: str) -> list[dict[str, Any]]:
        response = self.call("GET", f"/games/{game_id}/record")
        assert response.status_code == 200
        return [json.loads(line) for line in response.text.splitlines()]


def free_port() -> int:
    """A TCP port of 127.0.0.1 that no one listens on (for a server a test starts)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def fetcher(api: Api) -> Callable[[str], bytes]:
    """The auditor's (or a witness's) fetch over the test client: the app in-process, no sockets."""

    def fetch(url: str) -> bytes:
        answer = api.client.get(url)
        if answer.status_code != 200:
            raise Unreachable(f"{url}: HTTP {answer.status_code}")
        content: bytes = answer.content
        return content

    return fetch


def server_hands(app: Any, game_id: str) -> tuple[tuple[str, ...], ...]:
    """Every seat's hand as the server holds it (for checking that views hide them)."""

    def hands(table: Any, row: Any) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(card.code for card in hand) for hand in table.match.state.hands)

    return app.state.games.read(game_id, hands)


def played_out(app: Any, status: Callable[[], str]) -> str:
    """Play a table of bots alone to its end; its last ``status()``. Bots play at once only up to
    a cap of moves a request, the timer plays the rest: its due turns alone (``play_due``), since
    ``run_due`` at an infinite now would first expire the table as one no one looked at."""
    for _ in range(50):
        if (now := status()) == "over":
            return now
        app.state.games.play_due(now=float("inf"))
    return status()


def play_through(
    api: Api, rules: str, seats: int, options: dict[str, int], check: Callable[[dict, dict, tuple], None]
) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """Ann (seat 0) against bots, from the table's creation to a verified record, Ann playing her
    first legal move: the game, the views Ann saw, the record.

    At each view (bots move at once, so every one is Ann's turn) her hand is the server's, and
    every card is explained, the playable ones those the legal moves play; ``check(game, view,
    hands)``, given the server's hands, checks what else the game lets her see."""
    game = api.create([("Ann", False)] + [(f"Bot {i}", True) for i in range(1, seats)], rules=rules, options=options)
    token = api.join(game)[0]
    view = api.view(game["game_id"], 0, token)
    seen = []
    for _ in range(3000):
        if view["status"] != "playing":
            break
        assert view["your_turn"] and view["turn"] == 0  # bots move at once
        seen.append(view)
        hands = server_hands(api.app, game["game_id"])
        assert sorted(view["hand"]) == sorted(hands[0])
        check(game, view, hands)
        playable = {m["card"] for m in view["legal_moves"] if m["move"] == "play"}
        assert {c["card"] for c in view["cards"] if c["playable"]} == playable
        assert all(c["why_not"] for c in view["cards"] if not c["playable"])
        view = api.ok(
            "POST", f"/games/{game['game_id']}/moves", token, json={"seq": view["seq"], **view["legal_moves"][0]}
        )["view"]
    assert view["status"] == "over" and view["rules"] == rules
    assert api.ok("GET", f"/games/{game['game_id']}/verify")["verified"]
    text = api.client.get(f"/games/{game['game_id']}/record").text
    assert verify(text, key=game["public_key"]).verified
    return game, seen, api.record(game["game_id"])


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """A plain player: the first legal play, else whatever else is legal (draw, keep, pass)."""
    moves = view["legal_moves"]
    plays = [m for m in moves if m["move"] == "play"]
    return (plays or moves)[0]


@dataclass
class Party:
    """A game or a session, and its tokens: the host's or owner's, and each seat's."""

    kind: str  # "games" or "sessions"
    id: str
    host: str
    seats: dict[int, str]
    server_seed: str = ""
    """Read from the server once, to check that no answer shows it before its reveal."""
