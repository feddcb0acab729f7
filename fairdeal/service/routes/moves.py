"""Moves: a seat plays, draws, keeps or passes, on the record length it saw."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi import Request
from fastapi.responses import JSONResponse

from fairdeal.service.deps import GameId
from fairdeal.service.deps import PlayerDep
from fairdeal.service.errors import Forbidden
from fairdeal.service.games import GameService
from fairdeal.service.limits import Limits
from fairdeal.service.limits import request_client
from fairdeal.service.models import MoveIn
from fairdeal.service.schemas import MoveAnswer
from fairdeal.service.schemas import errors

router = APIRouter(prefix="/games/{game_id}/moves", tags=["moves"])


@router.post("", response_model=MoveAnswer, responses=errors(400, 401, 403, 404, 409, 422, 429))
async def submit_move(request: Request, game_id: GameId, seat: PlayerDep, body: MoveIn) -> JSONResponse:
    """Make the token's seat's move. ``seq`` is the record length the move was chosen on:
    if anything happened since, the answer is 409 and nothing is written.

    Answers the signed receipt of the move's record line and the seat's new view; 429 when
    this client moves faster than the service allows.
    """
    return await submit(request, game_id, seat, body)


async def submit(request: Request, game_id: str, seat: int, body: MoveIn) -> JSONResponse:
    """:func:`submit_move` once its dependencies and body are solved; also what
    :class:`~fairdeal.service.routes.hot.HotRoutes` answers a move with."""
    state = request.app.state
    limits: Limits = state.limits
    limits.moves.check(request_client(request), limits.now(), "moves")
    if body.seat is not None and body.seat != seat:
        raise Forbidden(f"this is seat {seat}'s token, not seat {body.seat}'s")
    games: GameService = state.games
    receipt, view = await games.move_and_view_async(game_id, seat, body.read(), body.seq)
    # Answered as it is: FastAPI would first check the dict against MoveAnswer, a walk through
    # the whole view that cost more than the move itself (the model documents it; the tests check it).
    return JSONResponse({"receipt": receipt, "view": view})
