"""The catalogue: every game the service deals, as its rules module declares it."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path
from fastapi.responses import JSONResponse

from fairdeal.rules import DEFAULT, RULES, catalogue, how_to_play
from fairdeal.service.errors import NotFound
from fairdeal.service.schemas import Catalogue, Declaration, HowToPlay, errors

router = APIRouter(tags=["rules"])


# Answered as the registry gives it, the same dicts spec/games.json is written from.
@router.get("/rules", response_model=Catalogue)
def list_rules() -> JSONResponse:
    """Every game: its name, title, family, seats, options (type, default, range), the unit its
    standings count and how it deals, in the lobby's order. spec/games.json holds the same."""
    return JSONResponse(catalogue())


# A name as long as a new game's rules may be (CreateGame.rules): a longer one is 422, as there.
RulesName = Annotated[str, Path(max_length=40, description="The game's name, as in the catalogue.", examples=[DEFAULT])]


@router.get("/rules/{name}", response_model=Declaration, responses=errors(404, 422))
def one_rules(name: RulesName) -> JSONResponse:
    """One game's declaration, as in ``GET /rules``."""
    cls = RULES.get(name)
    if cls is None:
        raise NotFound(f"unknown rules {name!r}; known: {', '.join(RULES)}")
    return JSONResponse(cls.declaration())


@router.get("/rules/{name}/help", response_model=HowToPlay, responses=errors(404, 422))
def rules_help(name: RulesName) -> HowToPlay:
    """One game's "How to play" for players: a small markdown (paragraphs, ``- `` bullet lists,
    ``**bold**``) the lobby and the table show."""
    cls = RULES.get(name)
    if cls is None:
        raise NotFound(f"unknown rules {name!r}; known: {', '.join(RULES)}")
    return HowToPlay(name=name, title=cls.title, help=how_to_play(name))
