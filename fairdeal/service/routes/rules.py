"""The catalogue: every game the service deals, as its rules module declares it."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter
from fastapi import Path
from fastapi import Query
from fastapi.responses import JSONResponse

from fairdeal.rules import DEFAULT
from fairdeal.rules import RULES
from fairdeal.rules import catalogue
from fairdeal.rules.translations import LANGUAGE_TAG
from fairdeal.rules.translations import help_in
from fairdeal.rules.translations import language
from fairdeal.rules.translations import texts
from fairdeal.service.errors import NotFound
from fairdeal.service.schemas import Catalogue
from fairdeal.service.schemas import Declaration
from fairdeal.service.schemas import HowToPlay
from fairdeal.service.schemas import errors

router = APIRouter(tags=["rules"])


# The pages pass their language (not Accept-Language): a well-formed tag no game speaks is English.
Lang = Annotated[
    str | None,
    Query(
        max_length=35,
        pattern=LANGUAGE_TAG,
        description="The language of the games' words (`nb`): where a game translates them, else English; "
        "the answer's `lang` says which. Left out: English, and no `lang` member.",
        examples=["nb"],
    ),
]


# Answered as the registry gives it, the same dicts spec/games.json is written from.
@router.get("/rules", response_model=Catalogue, responses=errors(422))
def list_rules(lang: Lang = None) -> JSONResponse:
    """Every game: its name, title, family, seats, options (type, default, range), the unit its
    standings count and how it deals, in the lobby's order. spec/games.json holds the same."""
    return JSONResponse(catalogue(lang=lang))


# A name as long as a new game's rules may be (CreateGame.rules): a longer one is 422, as there.
RulesName = Annotated[str, Path(max_length=40, description="The game's name, as in the catalogue.", examples=[DEFAULT])]


@router.get("/rules/{name}", response_model=Declaration, responses=errors(404, 422))
def one_rules(name: RulesName, lang: Lang = None) -> JSONResponse:
    """One game's declaration, as in ``GET /rules``."""
    cls = RULES.get(name)
    if cls is None:
        raise NotFound(f"unknown rules {name!r}; known: {', '.join(RULES)}")
    if lang is None:
        return JSONResponse(cls.declaration())
    translated = catalogue(lang=lang)  # its family's name may come from another game
    entry = next(entry for entry in translated["games"] if entry["name"] == name)
    return JSONResponse({**entry, "lang": translated["lang"]})


@router.get(
    "/rules/{name}/help", response_model=HowToPlay, response_model_exclude_unset=True, responses=errors(404, 422)
)
def rules_help(name: RulesName, lang: Lang = None) -> HowToPlay:
    """One game's "How to play" for players: a small markdown (paragraphs, ``- `` bullet lists,
    ``**bold**``) the lobby and the table show."""
    cls = RULES.get(name)
    if cls is None:
        raise NotFound(f"unknown rules {name!r}; known: {', '.join(RULES)}")
    if lang is None:
        return HowToPlay(name=name, title=cls.title, help=cls.help_text())
    code = language(lang)
    said = help_in(cls, code)
    return HowToPlay(name=name, title=texts(cls, code).get("title", cls.title), help=said.text, lang=said.lang)
