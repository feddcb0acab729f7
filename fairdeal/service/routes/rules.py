"""The catalogue: every game the service deals, as its rules module declares it."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException

from fairdeal.rules import RULES, catalogue

router = APIRouter(tags=["rules"])


@router.get("/rules")
def list_rules() -> dict[str, Any]:
    """Every game: its name, title, family, seats, options (type, default, range), the unit its
    standings count and how it deals, in the lobby's order. spec/games.json holds the same."""
    return catalogue()


@router.get("/rules/{name}", responses={404: {"description": "No game has that name."}})
def one_rules(name: str) -> dict[str, Any]:
    """One game's declaration, as in ``GET /rules``."""
    cls = RULES.get(name)
    if cls is None:
        raise HTTPException(404, f"unknown rules {name!r}; known: {', '.join(RULES)}")
    return cls.declaration()
