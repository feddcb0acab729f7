"""Live updates without polling: server-sent events for spectators and seats.

Each new record line is sent as an ``event: line`` (its ``id`` is its seq,
so a reconnecting ``EventSource`` resumes with ``Last-Event-ID``), then one
``event: state`` with the public state, or ``event: view`` with the seat's
own view when the request carries that seat's token. The stream ends after
the reveal, or after ``wait`` seconds (the client reconnects).

A stream waits for its record to change, as :class:`~fairdeal.service.live.Notifier`
tells: at once for this process's changes, and on PostgreSQL for every
process's (``LISTEN``/``NOTIFY``): such a stream asks the store nothing until
woken. Without announcements (SQLite, which several worker processes may
share; or PostgreSQL while the listening connection is down, or with
``FAIRDEAL_LIVE_UPDATES=poll``) it also looks at the game's row every
quarter of a second, for changes another process made: new lines, and
changes beside the record (who is ready between hands, a table played again).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import weakref
from collections.abc import AsyncIterator
from typing import Annotated
from typing import Any

from fastapi import APIRouter
from fastapi import Depends
from fastapi import Header
from fastapi import Query
from fastapi import Request
from fastapi.responses import StreamingResponse

from fairdeal.rules import in_language
from fairdeal.service.deps import GameId
from fairdeal.service.deps import GamesDep
from fairdeal.service.deps import Lang
from fairdeal.service.deps import StreamRoleDep
from fairdeal.service.limits import request_client
from fairdeal.service.models import one_value_each
from fairdeal.service.schemas import LIVE_EVENT
from fairdeal.service.schemas import OPTIONAL_TOKEN
from fairdeal.service.schemas import errors
from fairdeal.service.store import GameRow

router = APIRouter(prefix="/games/{game_id}/events", tags=["live updates"])

POLL_SECONDS = 0.25
KEEPALIVE_SECONDS = 15.0


def _mark(row: GameRow | None) -> tuple[Any, ...] | None:
    """What of a game's row a stream shows: its length, and the changes beside the record."""
    return None if row is None else (row.length, row.status, row.ready, row.again_id)


def _event(kind: str, data: str, event_id: int | None = None) -> str:
    head = "" if event_id is None else f"id: {event_id}\n"
    return f"{head}event: {kind}\ndata: {data}\n\n"


@router.get(
    "",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {"text/event-stream": {"schema": LIVE_EVENT}},
            "description": "`event: line` for each new record line; `event: state` (or `view`) after each batch, "
            "and after a change beside the record (who is ready between hands, a table played again).",
        },
        **errors(401, 404, 422, 429),
    },
    openapi_extra=OPTIONAL_TOKEN,  # a spectator's stream has none
    dependencies=[Depends(one_value_each)],
)
async def live_updates(
    request: Request,
    game_id: GameId,
    games: GamesDep,
    role: StreamRoleDep,
    from_seq: Annotated[
        int | None,
        Query(alias="from", ge=0, le=1_000_000_000, description="The first seq to send (default: the next line)."),
    ] = None,
    wait: Annotated[float, Query(ge=0, le=3600, description="Close the stream after this many seconds.")] = 300,
    last_event_id: Annotated[str | None, Header(max_length=20)] = None,
    lang: Lang = None,
) -> StreamingResponse:
    """Server-sent events: every new record line, and after each batch the fresh state (or the seat's view),
    its words in ``lang``. 429 when this client has the most streams open that one may."""
    store = games.store
    lease = request.app.state.limits.streams.open(request_client(request))
    seat = None if role is None or role.is_host else role.seat
    if from_seq is None and last_event_id is not None and last_event_id.isdigit() and len(last_event_id) <= 9:
        from_seq = int(last_event_id) + 1
    try:
        if from_seq is None:
            from_seq = await store.call(store.length, game_id)
        await games.touch_async(game_id)
    except BaseException:
        lease.release()
        raise

    def snapshot() -> dict[str, Any]:
        games.touch(game_id)  # someone is watching (a write now and then at most)
        state = games.public_state(game_id) if seat is None else games.seat_view(game_id, seat)
        # The page's words in its language, as its own view asks them (state["status"] stays a code).
        translated: dict[str, Any] = in_language(state, lang)
        return translated

    async def stream() -> AsyncIterator[str]:
        try:
            async for event in updates():
                yield event
        finally:
            lease.release()

    async def updates() -> AsyncIterator[str]:
        loop = asyncio.get_running_loop()
        ends = loop.time() + wait
        quiet_since = loop.time()
        seq = from_seq
        notifier = games.notifier
        with notifier.listen(game_id) as changed:
            yield "retry: 1000\n\n"
            seen = None if notifier.shared else _mark(await store.call(store.game, game_id))
            state = await store.call(snapshot)
            yield _event("view" if seat is not None else "state", json.dumps(state, separators=(",", ":")))
            done = state["status"] in ("over", "abandoned") and "server_seed" in state and seq >= state["seq"]
            # Lines appended after from_seq was read, before this stream listened, woke no one.
            look = state["seq"] > seq
            while not done and loop.time() < ends:
                if not look:
                    # Announced (shared): the notifier alone; a stream that was told of every
                    # change has nothing to look for meanwhile (see the module's docstring).
                    step = KEEPALIVE_SECONDS if notifier.shared else POLL_SECONDS
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(changed.wait(), timeout=min(step, max(0.0, ends - loop.time())))
                # Cleared before looking: a change from now on wakes the next wait.
                woken, look = changed.is_set() or look, False
                changed.clear()
                if not notifier.shared:
                    # Polling: the row says whether anything changed, here or in another process.
                    mark = _mark(await store.call(store.game, game_id))
                    woken, seen = woken or mark != seen, mark
                    if woken and mark is not None and mark[0] <= seq:
                        # beside the record: the fresh state
                        state = await store.call(snapshot)
                        yield _event("view" if seat is not None else "state", json.dumps(state, separators=(",", ":")))
                        quiet_since = loop.time()
                        continue
                if not woken:
                    if loop.time() - quiet_since >= KEEPALIVE_SECONDS:
                        quiet_since = loop.time()
                        yield ": keepalive\n\n"
                    continue
                texts = await store.call(store.lines, game_id, seq)
                if not texts:
                    # Woken with no new line: a change beside the record (between hands, a
                    # person said they are ready; a table played again): the fresh state.
                    state = await store.call(snapshot)
                    yield _event("view" if seat is not None else "state", json.dumps(state, separators=(",", ":")))
                    quiet_since = loop.time()
                    continue
                events = []
                for text in texts:
                    events.append(_event("line", text, seq))
                    seq += 1
                    # Read only where it may be the reveal (the record's last line): a line is canonical JSON.
                    done = done or ('"reveal"' in text and json.loads(text)["type"] == "reveal")
                state = await store.call(snapshot)
                events.append(_event("view" if seat is not None else "state", json.dumps(state, separators=(",", ":"))))
                # The wake's events in one piece: each piece is a send through every layer of the app
                # and a write to the socket of its own (a move and the bots' replies made five).
                # (Lines and state are read in two calls to the store, as before: on PostgreSQL one
                # call of both, one longer job in a worker thread, made the moves' p99 worse.)
                yield "".join(events)
                quiet_since = loop.time()

    body = stream()
    weakref.finalize(body, lease.release)  # a stream never started (the client went first) gives it back too
    return StreamingResponse(
        body, media_type="text/event-stream", headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    )
