"""Moves: a seat plays, draws, keeps or passes, on the record length it saw."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from fairdeal.rules import Move, MoveError
from fairdeal.service.deps import GameId, GamesDep, PlayerDep
from fairdeal.service.errors import Forbidden, Rejected
from fairdeal.service.models import MoveIn

router = APIRouter(prefix="/games/{game_id}/moves", tags=["moves"])


@router.post("")
def submit_move(game_id: GameId, seat: PlayerDep, body: MoveIn, games: GamesDep) -> dict[str, Any]:
    """Make the token's seat's move. ``seq`` is the record length the move was chosen on:
    if anything happened since, the answer is 409 and nothing is written.

    Answers the signed receipt of the move's record line and the seat's new view.
    """
    if body.seat is not None and body.seat != seat:
        raise Forbidden(f"this is seat {seat}'s token, not seat {body.seat}'s")
    try:
        move = Move.from_json(body.model_dump(include={"move", "card", "suit"}, exclude_none=True))
    except MoveError as exc:
        raise Rejected(str(exc)) from None
    receipt = games.move(game_id, seat, move, body.seq)
    return {"receipt": receipt, "view": games.seat_view(game_id, seat)}
