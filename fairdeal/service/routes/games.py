"""Tables: create one, read its public state and record, start it early, abandon it, verify it."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi import Body
from fastapi import Depends
from fastapi import Request
from fastapi import Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from fairdeal.rules import in_language
from fairdeal.service.deps import GameId
from fairdeal.service.deps import GamesDep
from fairdeal.service.deps import HostDep
from fairdeal.service.deps import Lang
from fairdeal.service.deps import PlayerDep
from fairdeal.service.limits import request_client
from fairdeal.service.models import AbandonIn
from fairdeal.service.models import CreateGame
from fairdeal.service.models import one_value_each
from fairdeal.service.schemas import GameCreated
from fairdeal.service.schemas import PublicState
from fairdeal.service.schemas import SeatView
from fairdeal.service.schemas import VerifyReport
from fairdeal.service.schemas import errors
from fairdeal.table import Seat

router = APIRouter(prefix="/games", tags=["games"])

# A state, a view or a report is answered as it is (a JSONResponse): FastAPI would first check it
# against its model, a walk through the whole body that cost more than a move. The model still
# describes it in /openapi.json, and tests/service/test_http_contract.py checks that it does.

HOST_ONLY = errors(401, 403, 404, 409, 422)


@router.post(
    "",
    status_code=201,
    response_model=GameCreated,
    response_model_exclude_unset=True,
    responses=errors(400, 422, 429, 503),
)
async def create_game(body: CreateGame, games: GamesDep, request: Request) -> dict[str, Any]:
    """Open a table: the commitment to its server seed, the host token, one join token per human seat,
    and its start entry's place in the transparency log (``log``, spec/log.md).

    The tokens are shown this once; the server keeps only their hashes. 429 when this client
    creates too fast or runs too many games, 503 when the service runs its most.
    """
    client = request_client(request)
    limits = request.app.state.limits
    limits.creates.check(client, limits.now(), "games and sessions created")
    seats = [Seat(seat.name, seat.bot) for seat in body.seats]
    public_log = request.app.state.log
    host = public_log.host_of(body.host_id, client)
    creator = None if client is None else public_log.host_of(None, client)
    return await games.create_async(
        body.rules,
        body.options,
        seats,
        body.turn_seconds,
        body.bot_seconds,
        body.next_hand_seconds,
        host=host,
        creator=creator,
    )


@router.get(
    "/{game_id}", response_model=PublicState, responses=errors(404, 422), dependencies=[Depends(one_value_each)]
)
async def public_state(game_id: GameId, games: GamesDep, lang: Lang = None) -> JSONResponse:
    """What a spectator sees: the public table, scores, whose turn; no hidden card (its words in ``lang``)."""
    await games.touch_async(game_id)
    return JSONResponse(in_language(await games.public_state_async(game_id), lang))


@router.get(
    "/{game_id}/record",
    response_class=Response,
    responses={
        200: {
            "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
            "description": "The record, one canonical JSON object per line (spec/record.md).",
        },
        **errors(404, 422),
    },
)
async def record(game_id: GameId, games: GamesDep) -> Response:
    """The game's record, one canonical JSON object per line. Public at any time:
    it holds no hidden card, and the server seed only once revealed."""
    await games.touch_async(game_id)
    return Response(await games.store.call(games.record_text, game_id), media_type="application/x-ndjson")


@router.get("/{game_id}/verify", response_model=VerifyReport, responses=errors(404, 422))
async def verify(game_id: GameId, games: GamesDep) -> JSONResponse:
    """Run the standalone verifier on the stored record, pinned to this server's key; its JSON report."""
    from fairdeal.verification import verify as verify_record

    text = await games.store.call(games.record_text, game_id)
    # A whole replay: in a worker thread, whatever the store, so that other requests go on meanwhile.
    report = await run_in_threadpool(verify_record, text, key=games.signer.public_hex)
    return JSONResponse(report.to_json())


@router.post(
    "/{game_id}/start", response_model=PublicState, responses=HOST_ONLY, dependencies=[Depends(one_value_each)]
)
async def start(game_id: GameId, games: GamesDep, host: HostDep, lang: Lang = None) -> JSONResponse:
    """The host starts now; seats that have not revealed a client seed are played by bots (marked).
    Answers the public state (its words in ``lang``)."""
    await games.store.call(games.start, game_id)
    return JSONResponse(in_language(await games.store.call(games.public_state, game_id), lang))


@router.post(
    "/{game_id}/abandon",
    response_model=PublicState,
    responses={**HOST_ONLY, **errors(400)},
    dependencies=[Depends(one_value_each)],
)
async def abandon(
    game_id: GameId, games: GamesDep, host: HostDep, body: AbandonIn | None = Body(None), lang: Lang = None
) -> JSONResponse:
    """The host ends the game; the server seed is revealed and appended to the record. Answers the
    public state (its words in ``lang``; the abandon's reason is the record's, as given)."""
    await games.store.call(games.abandon, game_id, (body or AbandonIn()).reason)
    return JSONResponse(in_language(await games.store.call(games.public_state, game_id), lang))


@router.post(
    "/{game_id}/ready",
    response_model=SeatView,
    responses=errors(401, 403, 404, 409, 422),
    dependencies=[Depends(one_value_each)],
)
async def ready(game_id: GameId, games: GamesDep, seat: PlayerDep, lang: Lang = None) -> JSONResponse:
    """Between hands: the token's seat is ready for the next hand, which is dealt when every
    person at the table is (or when the countdown runs out). Answers the seat's view (its words
    in ``lang``); 409 when no hand is waiting to be dealt."""
    return JSONResponse(in_language(await games.ready_and_view_async(game_id, seat), lang))  # as it is (see above)


@router.post(
    "/{game_id}/again",
    status_code=201,
    response_model=GameCreated,
    response_model_exclude_unset=True,
    responses={**HOST_ONLY, **errors(429, 503)},
)
async def again(game_id: GameId, games: GamesDep, host: HostDep, request: Request) -> dict[str, Any]:
    """Play again: a new table with the same seats, rules, options and pace, once this one is over
    or abandoned; answered like a new table (host and join tokens). Each human seat's own view of
    this table then names the new one and its join token there. 409 when the game is still on, or
    was played again already (the answer names that table). 429 and 503 as for a new table
    (the new table is its creator's, who made this one)."""
    limits = request.app.state.limits
    limits.creates.check(request_client(request), limits.now(), "games and sessions created")
    return await games.again_async(game_id)
