"""The busiest requests, answered without FastAPI's routing and dependency solving.

A running service's requests are nearly all moves (``POST
/games/{game_id}/moves``) and seats' views (``GET
/games/{game_id}/seats/{seat}/view``). Through FastAPI each paid about 0.3 ms
of the server's CPU before and after fairdeal's own work: matching the path
against every route, solving the dependencies (the token's bearer scheme, the
path's checks, the seat's role), reading the body into a model, and an exit
stack, an exception wrapper and a ``send`` wrapper of its own per request. For
a view that was twice fairdeal's work, for a move a third of it.

:class:`HotRoutes` sits in front of the router and answers them itself, with
the routes' own code (:func:`fairdeal.service.deps.player_of` and
:func:`~fairdeal.service.deps.seat_of`, :func:`.moves.submit`,
:func:`.seats.seat_view`), in FastAPI's order: the path, the body's JSON,
the token, the body's model, the endpoint. The routes stay registered: they
are what ``/openapi.json`` describes, and they answer every request this does
not take, replayed to them as it came: a path, header, query or body of any but
the common well-formed kind (a 422 is worded by FastAPI's own validation), a body
that did not arrive whole. The one query parameter taken is the page's ``lang``,
once, well formed (:data:`~fairdeal.service.deps.Lang`); any other query is the
routes' (a parameter given twice is their 422, :func:`~fairdeal.service.models.one_value_each`). Nothing this takes changes anything before a request
is handed on; a refusal (a :class:`~fairdeal.service.errors.ServiceError`) is
answered by the app's own exception handler.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qsl

from pydantic import ValidationError
from starlette.requests import Request
from starlette.types import ASGIApp
from starlette.types import Message
from starlette.types import Receive
from starlette.types import Scope
from starlette.types import Send

from fairdeal.service.deps import one_tag
from fairdeal.service.deps import player_of
from fairdeal.service.deps import seat_of
from fairdeal.service.games import GameService
from fairdeal.service.models import MoveIn
from fairdeal.service.models import one_value_each
from fairdeal.service.routes import moves
from fairdeal.service.routes import seats
from fairdeal.service.routes.moves import submit
from fairdeal.service.routes.seats import seat_view

__all__ = ["HotRoutes"]

# The routes' own path checks (deps.GameId, deps.SeatNo) in their common form: a seat written any
# other way ("03", "+3") is for FastAPI's validation to read or refuse.
_MOVES = re.compile(r"/games/([A-Za-z0-9_-]{1,64})/moves")
_VIEW = re.compile(r"/games/([A-Za-z0-9_-]{1,64})/seats/(1[0-5]|[0-9])/view")
MOVES_PATH = "/games/{game_id}/moves"
VIEW_PATH = "/games/{game_id}/seats/{seat}/view"


class HotRoutes:
    """ASGI middleware: moves and seats' views answered directly (see the module's docstring)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        # The routes it answers for, as the router would have named them in the scope (the access log reads their paths).
        by_path = {getattr(route, "path", None): route for route in [*moves.router.routes, *seats.router.routes]}
        self.moves, self.view = by_path[MOVES_PATH], by_path[VIEW_PATH]
        for route in (self.moves, self.view):
            # What this does is what the routes declare today; a check added to one (a dependency
            # of the route's own) would be skipped here: it must be added here too. The one each
            # has, one_value_each, is made by _lang (a query it does not take is the route's).
            if [d.dependency for d in getattr(route, "dependencies", [])] != [one_value_each]:
                raise RuntimeError(f"{route.path} has dependencies HotRoutes does not solve")  # type: ignore[attr-defined]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # Mounted under a root path, the router's matching is the one to trust.
        if scope["type"] == "http" and not scope.get("root_path"):
            path, method = scope["path"], scope["method"]
            if method == "POST" and path.endswith("/moves"):
                found = _MOVES.fullmatch(path)
                lang = _lang(scope)
                if found is not None and lang != _THEIRS:
                    await self._move(scope, receive, send, found[1], lang)
                    return
            elif method == "GET" and path.endswith("/view"):
                found = _VIEW.fullmatch(path)
                lang = _lang(scope)
                if found is not None and lang != _THEIRS:
                    await self._view(scope, receive, send, found[1], found[2], lang)
                    return
        await self.app(scope, receive, send)

    async def _move(self, scope: Scope, receive: Receive, send: Send, game_id: str, lang: str | None) -> None:
        # JSON as FastAPI takes it (its parameters, a charset, change nothing: json.loads reads the
        # bytes); any other kind, or none, is FastAPI's to read or refuse.
        content_type = _header(scope, b"content-type")
        if content_type is None or content_type.partition(b";")[0].strip().lower() != b"application/json":
            await self.app(scope, receive, send)
            return
        messages: list[Message] = []
        try:
            while True:
                message = await receive()
                messages.append(message)
                if message["type"] != "http.request" or not message.get("more_body", False):
                    break
        except Exception as exc:  # noqa: BLE001 (over the body limit, say: raised again to FastAPI, where it was)
            await self.app(scope, _replay(messages, receive, exc), send)
            return
        body = b"".join(message.get("body", b"") for message in messages)
        try:
            data = json.loads(body) if body and messages[-1]["type"] == "http.request" else None
        except Exception:  # noqa: BLE001 (not JSON, or too deep: FastAPI's answer, worded its way)
            data = None
        if not isinstance(data, dict):
            await self.app(scope, _replay(messages, receive), send)
            return
        scope["route"], scope["path_params"] = self.moves, {"game_id": game_id}
        request = Request(scope, receive, send)
        games: GameService = request.app.state.games
        try:
            seat = player_of(await games.authenticate_async(game_id, _token(scope)))
        except Exception as exc:  # noqa: BLE001 (answered by the app's handler for its class, or raised again)
            await (await _refusal(request, exc))(scope, receive, send)
            return
        move = _model(data)
        if move is None:
            # FastAPI's 422, in its words: the token is checked again there (which changes nothing).
            del scope["route"], scope["path_params"]
            await self.app(scope, _replay(messages, receive), send)
            return
        try:
            answer = await submit(request, game_id, seat, move, lang)
        except Exception as exc:  # noqa: BLE001 (as above)
            answer = await _refusal(request, exc)
        await answer(scope, receive, send)

    async def _view(
        self, scope: Scope, receive: Receive, send: Send, game_id: str, seat: str, lang: str | None
    ) -> None:
        scope["route"], scope["path_params"] = self.view, {"game_id": game_id, "seat": seat}
        request = Request(scope, receive, send)
        games: GameService = request.app.state.games
        try:
            role = await games.authenticate_async(game_id, _token(scope))
            answer = await seat_view(games, game_id, seat_of(role, int(seat)), lang)
        except Exception as exc:  # noqa: BLE001 (as above)
            answer = await _refusal(request, exc)
        await answer(scope, receive, send)


_THEIRS = "\x00theirs"
"""What :func:`_lang` says of a query the routes are to read (or refuse): no language tag is it."""


def _lang(scope: Scope) -> str | None:
    """The query's ``lang`` (``None``: no query), as the routes read it (:data:`~fairdeal.service.deps.Lang`),
    or :data:`_THEIRS` for any other query: a parameter given twice, one not a tag, another one."""
    query: bytes = scope.get("query_string", b"")
    if not query:
        return None
    params = parse_qsl(query.decode("latin-1"), keep_blank_values=True)
    if any(name != "lang" for name, _ in params):
        return _THEIRS
    lang = one_tag([value for _, value in params])
    return _THEIRS if lang is None else lang


def _model(data: dict[str, Any]) -> MoveIn | None:
    """The move ``data`` gives, or ``None`` when it is not one (FastAPI is to say why)."""
    try:
        return MoveIn.model_validate(data)
    except ValidationError:
        return None


def _header(scope: Scope, name: bytes) -> bytes | None:
    """The first header ``name`` (lower case, as the server gives them), as Starlette's ``Headers.get``."""
    for key, value in scope["headers"]:
        if key == name:
            return value  # type: ignore[no-any-return]
    return None


def _token(scope: Scope) -> str | None:
    """The bearer token, read as FastAPI's ``HTTPBearer(auto_error=False)`` reads it."""
    authorization = _header(scope, b"authorization")
    if not authorization:
        return None
    scheme, _, token = authorization.decode("latin-1").partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def _replay(messages: list[Message], receive: Receive, error: Exception | None = None) -> Receive:
    """``receive`` as it was before ``messages`` were taken from it (and ``error`` raised where it was)."""
    pending = list(messages)

    async def again() -> Message:
        if pending:
            return pending.pop(0)
        if error is not None:
            raise error
        return await receive()

    return again


async def _refusal(request: Request, exc: Exception) -> Any:
    """The app's answer to ``exc``, from the handler registered for its class (FastAPI's
    ``ExceptionMiddleware`` looks them up the same way); raised again if none is."""
    handlers = request.app.exception_handlers
    for cls in type(exc).__mro__:
        if cls is not Exception and cls in handlers:
            return await handlers[cls](request, exc)
    raise exc
