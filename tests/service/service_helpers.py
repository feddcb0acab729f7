"""What the service tests share: a hand-moved clock, an API client that keeps every response, a player."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from fastapi.testclient import TestClient

from fairdeal.fairness import client_commitment

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

    def join(self, game: dict[str, Any], seeds: dict[int, str] | None = None) -> dict[int, str]:
        """Every human seat commits, then reveals; returns the join tokens by seat."""
        tokens = {s["seat"]: s["join_token"] for s in game["seats"] if "join_token" in s}
        seeds = seeds or {seat: f"seed of seat {seat}" for seat in tokens}
        for seat, token in tokens.items():
            self.ok("POST", f"/games/{game['game_id']}/seats/{seat}/commit", token,
                    json={"commitment": client_commitment(seeds[seat])})
        for seat, token in tokens.items():
            self.ok("POST", f"/games/{game['game_id']}/seats/{seat}/reveal", token, json={"seed": seeds[seat]})
        return tokens

    def view(self, game_id: str, seat: int, token: str) -> dict[str, Any]:
        return self.ok("GET", f"/games/{game_id}/seats/{seat}/view", token)

    def record(self, game_id: str) -> list[dict[str, Any]]:
        response = self.call("GET", f"/games/{game_id}/record")
        assert response.status_code == 200
        return [json.loads(line) for line in response.text.splitlines()]


def server_hands(app: Any, game_id: str) -> tuple[tuple[str, ...], ...]:
    """Every seat's hand as the server holds it (for checking that views hide them)."""
    def hands(table: Any, row: Any) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(card.code for card in hand) for hand in table.match.state.hands)

    return app.state.games.read(game_id, hands)


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
