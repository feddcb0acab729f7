"""Moves: a seat plays, draws, keeps or passes, on the record length it saw."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi import Depends
from fastapi import Request
from fastapi.responses import JSONResponse

from fairdeal.rules import in_language
from fairdeal.said import Said
from fairdeal.service.deps import GameId
from fairdeal.service.deps import Lang
from fairdeal.service.deps import PlayerDep
from fairdeal.service.errors import Forbidden
from fairdeal.service.games import GameService
from fairdeal.service.limits import Limits
from fairdeal.service.limits import request_client
from fairdeal.service.models import MoveIn
from fairdeal.service.models import one_value_each
from fairdeal.service.schemas import MoveAnswer
from fairdeal.service.schemas import errors

router = APIRouter(prefix="/games/{game_id}/moves", tags=["moves"])


@router.post(
    "",
    response_model=MoveAnswer,
    responses=errors(400, 401, 403, 404, 409, 422, 429),
    dependencies=[Depends(one_value_each)],
)
async def submit_move(
    request: Request, game_id: GameId, seat: PlayerDep, body: MoveIn, lang: Lang = None
) -> JSONResponse:
    """Make the token's seat's move. ``seq`` is the record length the move was chosen on:
    if anything happened since, the answer is 409 and nothing is written.

    Answers the signed receipt of the move's record line and the seat's new view; 429 when
    this client moves faster than the service allows. With ``lang``, the view's words and a
    refusal's ``detail`` (the rules' reason for an illegal move) are in that language.
    """
    return await submit(request, game_id, seat, body, lang)


async def submit(request: Request, game_id: str, seat: int, body: MoveIn, lang: str | None = None) -> JSONResponse:
    """:func:`submit_move` once its dependencies and body are solved; also what
    :class:`~fairdeal.service.routes.hot.HotRoutes` answers a move with."""
    state = request.app.state
    limits: Limits = state.limits
    limits.moves.check(request_client(request), limits.now(), "moves")
    if body.seat is not None and body.seat != seat:
        raise Forbidden(Said("this is seat {own}'s token, not seat {seat}'s", own=seat, seat=body.seat))
    games: GameService = state.games
    receipt, view = await games.move_and_view_async(game_id, seat, body.read(), body.seq)
    # Answered as it is: FastAPI would first check the dict against MoveAnswer, a walk through
    # the whole view that cost more than the move itself (the model documents it; the tests check it).
    return JSONResponse({"receipt": receipt, "view": in_language(view, lang)})
