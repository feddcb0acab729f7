"""Tables: create one, read its public state and record, start it early, abandon it, verify it."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from fairdeal.service.deps import GameId, GamesDep, HostDep
from fairdeal.service.models import AbandonIn, CreateGame
from fairdeal.table import Seat

router = APIRouter(prefix="/games", tags=["games"])


@router.post("", status_code=201)
async def create_game(body: CreateGame, games: GamesDep) -> dict[str, Any]:
    """Open a table: the commitment to its server seed, the host token, one join token per human seat.

    The tokens are shown this once; the server keeps only their hashes.
    """
    seats = [Seat(seat.name, seat.bot) for seat in body.seats]
    return await games.create_async(body.rules, body.options, seats, body.turn_seconds)


@router.get("/{game_id}", response_model=dict[str, Any])
async def public_state(game_id: GameId, games: GamesDep) -> JSONResponse:
    """What a spectator sees: the public table, scores, whose turn; no hidden card."""
    return JSONResponse(await games.public_state_async(game_id))  # as it is (see submit_move)


@router.get("/{game_id}/record", response_class=Response, responses={200: {"content": {"application/x-ndjson": {}}}})
async def record(game_id: GameId, games: GamesDep) -> Response:
    """The game's record, one canonical JSON object per line. Public at any time:
    it holds no hidden card, and the server seed only once revealed."""
    return Response(await games.store.call(games.record_text, game_id), media_type="application/x-ndjson")


@router.get("/{game_id}/verify")
async def verify(game_id: GameId, games: GamesDep) -> dict[str, Any]:
    """Run the standalone verifier on the stored record, pinned to this server's key; its JSON report."""
    from verifier.replay import verify as verify_record

    text = await games.store.call(games.record_text, game_id)
    # A whole replay: in a worker thread, whatever the store, so that other requests go on meanwhile.
    report = await run_in_threadpool(verify_record, text, key=games.signer.public_hex)
    return report.to_json()


@router.post("/{game_id}/start")
async def start(game_id: GameId, games: GamesDep, host: HostDep) -> dict[str, Any]:
    """The host starts now; seats that have not revealed a client seed are played by bots (marked)."""
    await games.store.call(games.start, game_id)
    return await games.store.call(games.public_state, game_id)


@router.post("/{game_id}/abandon")
async def abandon(game_id: GameId, games: GamesDep, host: HostDep, body: AbandonIn | None = Body(None)) -> dict[str, Any]:
    """The host ends the game; the server seed is revealed and appended to the record."""
    await games.store.call(games.abandon, game_id, (body or AbandonIn()).reason)
    return await games.store.call(games.public_state, game_id)
