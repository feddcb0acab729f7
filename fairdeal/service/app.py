"""The FastAPI application: :func:`create_app` wires settings, keys, the store and the routers.

>>> import tempfile
>>> from fastapi.testclient import TestClient
>>> app = create_app(Settings(data_dir=tempfile.mkdtemp(), bot_delay=0, next_hand_seconds=0, tick_seconds=0))
>>> with TestClient(app) as client:
...     client.get("/health").json()
{'status': 'ok', 'store': 'sqlite'}
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import math
import os
import threading
import time
import traceback
from collections.abc import AsyncIterator
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi import HTTPException
from fastapi import Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp
from starlette.types import Message
from starlette.types import Receive
from starlette.types import Scope
from starlette.types import Send

from fairdeal import __version__
from fairdeal.rules import in_language
from fairdeal.service.deps import request_lang
from fairdeal.service.errors import LONG_HEX
from fairdeal.service.errors import ServiceError
from fairdeal.service.games import GameService
from fairdeal.service.keys import load_keys
from fairdeal.service.limits import Limits
from fairdeal.service.live import LiveRecords
from fairdeal.service.live import Notifier
from fairdeal.service.routes import ROUTERS
from fairdeal.service.routes.hot import HotRoutes
from fairdeal.service.schemas import errors
from fairdeal.service.schemas import typed_moves
from fairdeal.service.schemas import typed_new_games
from fairdeal.service.schemas import typed_views
from fairdeal.service.sessions import SessionService
from fairdeal.service.settings import Settings
from fairdeal.service.store import open_store
from fairdeal.service.timer import TurnTimer
from fairdeal.service.transparency import PublicLog
from fairdeal.service.witnesses import Witnesses
from fairdeal.web import mount as mount_pages

__all__ = ["create_app", "json_safe"]

log = logging.getLogger("fairdeal.service")
access_log = logging.getLogger("fairdeal.access")


def create_app(
    settings: Settings | None = None,
    *,
    clock: Callable[[], float] | None = None,
    new_ids: Callable[[], tuple[str, str]] | None = None,
    witness_transport: Any = None,
) -> FastAPI:
    """The service, with ``settings`` (default: from the ``FAIRDEAL_*`` environment).

    For tests: ``clock`` (a ``time.time`` stand-in) drives turn deadlines, and
    ``new_ids`` (default: the OS CSPRNG) gives each new game's id and server
    seed, so that a test's games are the same on every run; ``witness_transport`` (an
    ``httpx`` async transport) carries the requests to the witnesses (the witnesses in-process).
    """
    settings = settings or Settings.from_env()
    signer, sealer = load_keys(settings.data_dir)
    store = open_store(settings.database_url)
    store.announce(settings.live_updates == "notify")  # polling streams listen to no announcement
    notifier = Notifier()
    games = GameService(
        store,
        signer,
        sealer,
        turn_seconds=settings.turn_seconds,
        bot_delay=settings.bot_delay,
        next_hand_seconds=settings.next_hand_seconds,
        clock=clock or time.time,
        notifier=notifier,
        new_ids=new_ids,
        cache_bytes=settings.cache_mb * 1024 * 1024,
    )
    games.max_games, games.max_games_per_client = settings.max_games, settings.max_games_per_client
    games.bot_game_idle_seconds, games.bot_game_max_seconds = (
        settings.bot_game_idle_seconds,
        settings.bot_game_max_seconds,
    )
    sessions = SessionService(
        store, signer, sealer, notifier, clock=games.clock, cache_bytes=settings.cache_mb * 1024 * 1024
    )
    games.log = sessions.log = public_log = PublicLog(store, signer, sealer, settings.log_origin)
    witnesses = None
    if settings.witness_list:
        witnesses = Witnesses(
            public_log,
            settings.witness_list,
            settings.witness_timeout,
            settings.witness_interval,
            transport=witness_transport,
        )

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        _take_over_collection()
        await store.open_async()
        tasks = [asyncio.create_task(_collect_now_and_then({"games": games, "sessions": sessions}))]
        if witnesses is not None:
            await witnesses.start()
            if settings.witness_interval > 0:
                tasks.append(asyncio.create_task(witnesses.run()))
        if store.announces and settings.live_updates == "notify":
            # One listening connection for the process: every stream waits on the notifier it feeds.
            tasks.append(asyncio.create_task(store.listen(notifier.notify, notifier.set_shared)))
        if settings.tick_seconds > 0:
            tasks.append(asyncio.create_task(TurnTimer(games, settings.tick_seconds).run()))
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            if witnesses is not None:
                await witnesses.stop()
            _give_back_collection()
            await store.close_async()
            store.close()

    app = FastAPI(
        title="fairdeal",
        version=__version__,
        summary="Provably-fair card tables and dealing sessions, with signed hash-chained records.",
        lifespan=lifespan,
        responses=errors(413),  # any request over the body limit, whatever its route (BodyLimit)
    )
    app.state.settings = settings
    app.state.signer = signer
    app.state.store = store
    app.state.games = games
    app.state.sessions = sessions
    app.state.log = public_log
    app.state.witnesses = witnesses
    app.state.limits = Limits(
        settings.create_rate, settings.move_rate, settings.max_streams_per_client, clock=clock or time.monotonic
    )
    for router in ROUTERS:
        app.include_router(router)
    mount_pages(app)  # the lobby, the table and the verify page (fairdeal/web), after the API routes

    fastapi_openapi = app.openapi

    def openapi() -> dict[str, Any]:
        # FastAPI's document (made once, and kept), with each game's view and new table typed by its own declaration.
        if app.openapi_schema is None:
            app.openapi_schema = typed_new_games(typed_moves(typed_views(fastapi_openapi())))
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

    # Every refusal has the one body of fairdeal.service.schemas.Error: {"detail": ...}.
    @app.exception_handler(ServiceError)
    async def service_error(request: Request, exc: ServiceError) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
        if exc.retry_after is not None:
            headers = {"Retry-After": str(max(1, math.ceil(exc.retry_after)))}  # whole seconds (RFC 9110)
        # In the request's language, where fairdeal translates it (a move's refusal, a stale seq...).
        detail = in_language(exc.detail, request_lang(request))
        return AsciiJSONResponse({"detail": detail}, status_code=exc.status, headers=headers)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        # FastAPI's (an unknown path, a wrong method, a body it could not parse, one over the limit).
        if exc.status_code in (204, 304):
            return Response(status_code=exc.status_code, headers=exc.headers)
        return AsciiJSONResponse({"detail": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        # As FastAPI's own, but a field's input is echoed escaped: it may not even be valid Unicode,
        # and a body that is not JSON is echoed as its bytes, which may not even be UTF-8; and a
        # NaN or an Infinity (which Python's JSON reads, and JSON cannot write) is echoed as text.
        errors = jsonable_encoder(exc.errors(), custom_encoder={bytes: lambda b: b.decode("utf-8", "backslashreplace")})
        return AsciiJSONResponse({"detail": json_safe(errors)}, status_code=422)

    # Innermost first: the hot routes' answers are still limited and logged as every other's.
    app.add_middleware(HotRoutes)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    every, errors_too = settings.access_log_sample
    app.add_middleware(AccessLog, every=every, errors=errors_too)
    return app


class AsciiJSONResponse(JSONResponse):
    """JSON with every non-ASCII character escaped: renders whatever a client sent."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode()


def json_safe(value: Any) -> Any:
    """``value`` (JSON-ready) with every NaN and infinity written as the text a client sent.

    A request may carry ``NaN`` or ``Infinity``: Python's JSON reads them, and a 422 that echoes
    such an input must still be JSON, which has no such numbers.

    >>> json_safe({"input": [float("nan"), float("-inf"), 1.5], "loc": ["body", "turn_seconds"]})
    {'input': ['NaN', '-Infinity', 1.5], 'loc': ['body', 'turn_seconds']}
    """
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, dict):
        return {key: json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(item) for item in value]
    return value


COLLECTION_SECONDS = 1.0
"""How often the app collects what it made since the last time (see :func:`_collect_now_and_then`)."""

FULL_COLLECTION_GROWTH = 1.5
"""How much the process's memory grows between two full collections (see :func:`_collect_now_and_then`)."""

COLLECTION_LOG_SECONDS = 60.0
"""How often the collections' log line is written."""

_NEVER = 1_000_000_000

_running = 0  # apps running in this process (tests and embedders may run several at once)
_running_lock = threading.Lock()
_thresholds = gc.get_threshold()


def _take_over_collection() -> None:
    """The first app to start in a process takes Python's full collections over (see
    :func:`_collect_now_and_then`): what startup made is frozen, Python's own are off."""
    global _running, _thresholds
    with _running_lock:
        if _running == 0:
            _thresholds = gc.get_threshold()
            gc.freeze()
            gc.set_threshold(_thresholds[0], _thresholds[1], _NEVER)
        _running += 1


def _give_back_collection() -> None:
    """The last app to stop gives them back as they were (an app that stopped while another ran
    would have had the other's every frozen object walked again, once a second)."""
    global _running
    with _running_lock:
        _running -= 1
        if _running == 0:
            gc.set_threshold(*_thresholds)
            gc.unfreeze()


def _resident_bytes() -> int | None:
    """The process's resident memory, where /proc tells it (Linux); else ``None``."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


async def _collect_now_and_then(caches: dict[str, LiveRecords[Any]]) -> None:
    """Python's garbage collection on the app's schedule, in short pauses, instead of when Python decides.

    A full collection walks every object the process holds and stops the
    loop, and every request in flight, meanwhile: 30 ms under bench/load.py,
    0.3-0.4 s with 10,000 running tables (about 35 objects each, at most a
    microsecond each), long enough to make hundreds of due turns late. So the
    app's lifespan freezes what startup made (``gc.freeze``: no collection
    walks it again) and keeps Python's own full collections off; then every
    :data:`COLLECTION_SECONDS` this collects what was made since the last
    time and freezes what is still alive (a few milliseconds: at 10,000 tables
    about 500 turns' new objects). A frozen object is still freed when its
    last reference goes (reference counting: a game's objects make no cycle,
    tests/service/test_reliability_hot_path.py); only a cycle of frozen
    objects waits for a full collection, made when the process's memory has
    grown :data:`FULL_COLLECTION_GROWTH` times since the last one (as the
    tables grow; in a steady state, never), or once an hour where the memory
    is not known.

    Logs (level info) a line for each full collection and one every
    :data:`COLLECTION_LOG_SECONDS` with the longest pause since the last line:
    ``collected: {"full":false,"pause_ms":..,"collections":..,"games":{..},"sessions":{..}}``
    (a full one: ``"full":true`` and the cyclic garbage it found, ``"unreachable"``), with the
    ``caches``' counts (:meth:`LiveRecords.counts`): an operator sees the pauses, and whether
    any record was replayed (bench/scale.py reads them).
    """
    loop = asyncio.get_running_loop()
    memory_at_full = _resident_bytes()
    full_at = logged_at = loop.time()
    longest, collections = 0.0, 0
    while True:
        await asyncio.sleep(COLLECTION_SECONDS)
        memory = _resident_bytes()
        if memory is not None and memory_at_full is not None:
            full = memory > FULL_COLLECTION_GROWTH * memory_at_full
        else:
            full = loop.time() - full_at >= 3600
        started = time.perf_counter()
        if full:
            gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        pause_ms = (time.perf_counter() - started) * 1000
        longest, collections = max(longest, pause_ms), collections + 1
        if full:
            memory_at_full, full_at = _resident_bytes(), loop.time()
        if full or loop.time() - logged_at >= COLLECTION_LOG_SECONDS:
            if log.isEnabledFor(logging.INFO):
                line: dict[str, Any] = (
                    {"full": True, "pause_ms": round(pause_ms, 1), "unreachable": found}
                    if full
                    else {"full": False, "pause_ms": round(longest, 1), "collections": collections}
                )
                line.update((name, cache.counts()) for name, cache in caches.items())
                log.info("collected: %s", json.dumps(line, separators=(",", ":")))
            if not full:
                longest, collections, logged_at = 0.0, 0, loop.time()


class BodyLimit:
    """413 for a request body over ``max_bytes``, by its Content-Length or as it streams in."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                if not value.isdigit() or int(value) > self.max_bytes:
                    too_large = {"detail": f"the request body is over {self.max_bytes} bytes"}
                    await JSONResponse(too_large, status_code=413)(scope, receive, send)
                    return
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    # Raised inside the body read, before any handler ran: nothing is written.
                    raise HTTPException(413, f"the request body is over {self.max_bytes} bytes")
            return message

        await self.app(scope, limited, send)


ANSWERED = "fairdeal.answered"
"""The scope's key for the status the server's HTTP protocol answered a request with itself, in place
of the app's answer (408: its body did not arrive in time; see fairdeal.service.http)."""


class AccessLog:
    """A JSON log line per request (never a token, seed or body), and a plain 500 for a bug.

    A line for every ``every``-th request (0: none), and if ``errors``, for every answer of 400
    and up (``FAIRDEAL_ACCESS_LOG``, :func:`fairdeal.service.settings.access_sample`).
    """

    def __init__(self, app: ASGIApp, every: int = 1, errors: bool = True) -> None:
        self.app = app
        self.every, self.errors = every, errors
        self._count = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500
        response_started = False

        async def watch(message: Message) -> None:
            nonlocal status, response_started
            if message["type"] == "http.response.start":
                status = message["status"]
                response_started = True
            await send(message)

        try:
            await self.app(scope, receive, watch)
        except Exception as exc:  # noqa: BLE001 (a bug anywhere in the app: a plain 500, logged)
            status = 500
            trace = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
            log.error(
                "internal error on %s %s\n%s", scope["method"], _route(scope), LONG_HEX.sub("<hex hidden>", trace)
            )
            if not response_started:
                await JSONResponse({"detail": "internal error"}, status_code=500)(scope, receive, send)
        finally:
            # What the client got: the server's own answer, where it answered for the app (the
            # app, told the client left, answered a 400 that went nowhere).
            status = scope.get(ANSWERED, status)
            self._count += 1
            sampled = self.every and self._count % self.every == 0
            if (sampled or (self.errors and status >= 400)) and access_log.isEnabledFor(logging.INFO):
                params = scope.get("path_params") or {}
                entry: dict[str, Any] = {
                    "method": scope["method"],
                    "path": _route(scope),
                    "status": status,
                    "ms": round((time.perf_counter() - started) * 1000, 2),
                }
                record_id = params.get("game_id") or params.get("session_id")
                if isinstance(record_id, str):
                    entry["game_id" if "game_id" in params else "session_id"] = record_id[:64]
                access_log.info(json.dumps(entry, separators=(",", ":")))


def _route(scope: Scope) -> str:
    """The route's path template (``/games/{game_id}/moves``); never the query string, where a token may be."""
    path = getattr(scope.get("route"), "path", None)
    return path if isinstance(path, str) else str(scope.get("path", ""))[:100]
