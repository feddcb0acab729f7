"""A seat: commit to and reveal its client seed, and see its view (its join token required)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi import Depends
from fastapi.responses import JSONResponse

from fairdeal.rules import in_language
from fairdeal.service.deps import GameId
from fairdeal.service.deps import GamesDep
from fairdeal.service.deps import Lang
from fairdeal.service.deps import SeatDep
from fairdeal.service.games import GameService
from fairdeal.service.models import CommitIn
from fairdeal.service.models import RevealIn
from fairdeal.service.models import one_value_each
from fairdeal.service.schemas import CommitAnswer
from fairdeal.service.schemas import RevealAnswer
from fairdeal.service.schemas import SeatView
from fairdeal.service.schemas import errors

router = APIRouter(prefix="/games/{game_id}/seats/{seat}", tags=["seats"])

SEAT_STEP = errors(400, 401, 403, 404, 409, 422)


@router.post("/commit", response_model=CommitAnswer, response_model_exclude_unset=True, responses=SEAT_STEP)
async def commit(game_id: GameId, seat: SeatDep, body: CommitIn, games: GamesDep) -> dict[str, Any]:
    """Commit to a client seed. Reveals open once every human seat has committed."""
    return {"receipt": await games.commit_async(game_id, seat, body.commitment.lower())}


@router.post("/reveal", response_model=RevealAnswer, responses=SEAT_STEP, dependencies=[Depends(one_value_each)])
async def reveal(game_id: GameId, seat: SeatDep, body: RevealIn, games: GamesDep, lang: Lang = None) -> JSONResponse:
    """Reveal the client seed committed to; the game starts when every human seat has revealed.
    Answers the receipt and the seat's view (its words in ``lang``)."""
    receipt, view = await games.reveal_and_view_async(game_id, seat, body.seed)
    return JSONResponse({"receipt": receipt, "view": in_language(view, lang)})  # as it is (see routes/games.py)


@router.get(
    "/view", response_model=SeatView, responses=errors(401, 403, 404, 422), dependencies=[Depends(one_value_each)]
)
async def view(game_id: GameId, seat: SeatDep, games: GamesDep, lang: Lang = None) -> JSONResponse:
    """The seat's hand, the public table, whose turn and until when, the legal moves,
    and for every card in hand whether it can be played now and why not (in ``lang``)."""
    return await seat_view(games, game_id, seat, lang)


async def seat_view(games: GameService, game_id: str, seat: int, lang: str | None = None) -> JSONResponse:
    """:func:`view` once its dependencies are solved; also what
    :class:`~fairdeal.service.routes.hot.HotRoutes` answers a view with."""
    view = await games.seat_view_async(game_id, seat)
    return JSONResponse(in_language(view, lang))  # as it is (see routes/games.py)
