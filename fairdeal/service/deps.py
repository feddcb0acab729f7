"""The API's dependencies, as ``Annotated`` aliases: the services, and who a token says the caller is.

A token comes as ``Authorization: Bearer <token>``. No token, or one that
belongs to nobody at that game, is 401; a valid token for someone else
(another seat, the host where a seat is needed) is 403.

The dependencies are ``async``: FastAPI runs a plain ``def`` dependency in
its thread pool, one hand-off per dependency per request, which cost more
than all of fairdeal's own work on a move. Those that read the store do it
through :meth:`Store.call <fairdeal.service.store.Store.call>`, as the routes do.
"""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import Depends
from fastapi import Path
from fastapi import Query
from fastapi import Request
from fastapi.security import HTTPAuthorizationCredentials
from fastapi.security import HTTPBearer

from fairdeal.rules.translations import LANGUAGE_TAG
from fairdeal.said import Said
from fairdeal.service.errors import Forbidden
from fairdeal.service.games import GameService
from fairdeal.service.live import Role
from fairdeal.service.sessions import SessionService
from fairdeal.service.settings import Settings
from fairdeal.service.store import Store

__all__ = [
    "GamesDep",
    "SessionsDep",
    "StoreDep",
    "SettingsDep",
    "TokenDep",
    "GameId",
    "SessionId",
    "SeatNo",
    "HostDep",
    "SeatDep",
    "PlayerDep",
    "OwnerDep",
    "SessionSeatDep",
    "StreamRoleDep",
    "seat_of",
    "player_of",
    "Lang",
    "request_lang",
]


async def _games(request: Request) -> GameService:
    games: GameService = request.app.state.games
    return games


async def _sessions(request: Request) -> SessionService:
    sessions: SessionService = request.app.state.sessions
    return sessions


async def _store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


async def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


GamesDep = Annotated[GameService, Depends(_games)]
SessionsDep = Annotated[SessionService, Depends(_sessions)]
StoreDep = Annotated[Store, Depends(_store)]
SettingsDep = Annotated[Settings, Depends(_settings)]

# Ids are URL-safe base64; anything else cannot name a game (and never reaches the database).
GameId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,64}$", description="The game id.")]
SessionId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,64}$", description="The session id.")]
SeatNo = Annotated[int, Path(ge=0, le=15, description="The seat number, 0 first.")]

_bearer = HTTPBearer(auto_error=False, description="A host, seat (join) or owner token.")


async def _token(credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]) -> str | None:
    return None if credentials is None else credentials.credentials


TokenDep = Annotated[str | None, Depends(_token)]

# The page passes its language (as GET /rules does; Accept-Language is not read): a well-formed tag no
# game speaks is English. It changes the words for people alone, never the record nor any other value.
Lang = Annotated[
    str | None,
    Query(
        max_length=35,
        pattern=LANGUAGE_TAG,
        description="The language of what the answer says for people (a card's `why_not`, a hand's `reason`, "
        "a refusal's `detail`): where fairdeal and the game translate it, else English. Left out: English.",
        examples=["nb"],
    ),
]


def request_lang(request: Request) -> str | None:
    """The language a request asks its words in (its ``lang`` query parameter), for an answer made
    outside its route (a refusal): ``None`` (English) when it names none, or not one tag.

    >>> from starlette.requests import Request
    >>> request_lang(Request({"type": "http", "query_string": b"lang=nb-NO"})), request_lang(Request({"type": "http", "query_string": b"lang=x y"}))
    ('nb-NO', None)
    """
    return one_tag(request.query_params.getlist("lang"))


def one_tag(values: list[str]) -> str | None:
    """The language tag of a query's ``lang`` values, as :data:`Lang` takes it: one value, a well-formed
    tag of at most 35 characters; else ``None``.

    >>> one_tag(["nb"]), one_tag(["nb", "nb"]), one_tag(["x y"]), one_tag([])
    ('nb', None, None, None)
    """
    if len(values) != 1 or len(values[0]) > 35 or not re.fullmatch(LANGUAGE_TAG, values[0]):
        return None
    return values[0]


Bearer = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


async def _game_role(request: Request, game_id: str, credentials: HTTPAuthorizationCredentials | None) -> Role:
    """Who the bearer token is at ``game_id``.

    A helper of the three dependencies below, not a dependency itself: each level of
    dependencies costs FastAPI a step per request, and every authenticated request
    comes here (on a move, FastAPI's dependency solving cost as much as the move's append).
    """
    games: GameService = request.app.state.games
    return await games.authenticate_async(game_id, None if credentials is None else credentials.credentials)


def seat_of(role: Role, seat: int) -> int:
    """``seat``, when ``role`` is that seat's; else :class:`Forbidden` (:data:`SeatDep`'s check)."""
    if role.seat != seat:
        if role.is_host:
            raise Forbidden(Said("this is the host's token, not seat {seat}'s", seat=seat))
        raise Forbidden(Said("this is seat {own}'s token, not seat {seat}'s", own=role.seat, seat=seat))
    return seat


def player_of(role: Role) -> int:
    """The seat ``role`` plays; :class:`Forbidden` for the host (:data:`PlayerDep`'s check)."""
    if role.is_host:
        raise Forbidden(Said("the host's token makes no moves: use the seat's join token"))
    return role.seat


async def _host(request: Request, game_id: GameId, credentials: Bearer) -> Role:
    role = await _game_role(request, game_id, credentials)
    if not role.is_host:
        raise Forbidden(Said("only the host's token may do this"))
    return role


async def _seat(request: Request, game_id: GameId, seat: SeatNo, credentials: Bearer) -> int:
    return seat_of(await _game_role(request, game_id, credentials), seat)


async def _player(request: Request, game_id: GameId, credentials: Bearer) -> int:
    return player_of(await _game_role(request, game_id, credentials))


HostDep = Annotated[Role, Depends(_host)]
SeatDep = Annotated[int, Depends(_seat)]
"""The seat of the path, when the token is that seat's."""
PlayerDep = Annotated[int, Depends(_player)]
"""The seat the token belongs to."""


async def _session_role(session_id: SessionId, sessions: SessionsDep, token: TokenDep) -> Role:
    return await sessions.authenticate_async(session_id, token)


async def _owner(role: Annotated[Role, Depends(_session_role)]) -> Role:
    if not role.is_host:
        raise Forbidden(Said("only the session's owner key may do this"))
    return role


async def _session_seat(seat: SeatNo, role: Annotated[Role, Depends(_session_role)]) -> int:
    if role.seat != seat:
        if role.is_host:
            raise Forbidden(Said("this is the owner's key, not seat {seat}'s", seat=seat))
        raise Forbidden(Said("this is seat {own}'s key, not seat {seat}'s", own=role.seat, seat=seat))
    return seat


OwnerDep = Annotated[Role, Depends(_owner)]
SessionSeatDep = Annotated[int, Depends(_session_seat)]


async def _stream_role(
    game_id: GameId,
    games: GamesDep,
    token: TokenDep,
    query_token: Annotated[
        str | None,
        Query(alias="token", max_length=100, description="A seat token, for clients that cannot set headers."),
    ] = None,
) -> Role | None:
    """A spectator (``None``) unless a token is given; a given token must be valid."""
    token = token or query_token
    if token is None:
        await games.read_async(game_id, lambda table, row: None)  # 404 for an unknown game
        return None
    return await games.authenticate_async(game_id, token)


StreamRoleDep = Annotated[Role | None, Depends(_stream_role)]
