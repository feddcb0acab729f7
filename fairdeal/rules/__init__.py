"""The games fairdeal deals, by rules name.

>>> rules = get("crazy-eights", {"target": 50})
>>> rules.title, rules.options["target"]
('Crazy Eights', 50)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from typing import Any

from fairdeal.rules.base import (
    Event,
    HandResult,
    IllegalMove,
    Move,
    MoveError,
    OptionsError,
    Rules,
    ScoreSheet,
    Shuffler,
    standings,
)
from fairdeal.rules.summary import HandSummary, SeatNames
from fairdeal.rules.commit import Commit
from fairdeal.rules.position import PositionError
from fairdeal.rules.crazy_eights import CrazyEights
from fairdeal.rules.eleusis import Eleusis
from fairdeal.rules.eights import BookCrazyEights, Eights, HollywoodEights
from fairdeal.rules.fan_tan import FanTan, FiveOrNine, LibertyFanTan, PlayOrPay, Sjueren
from fairdeal.rules.go_boom import GoBoom, HollywoodGoBoom
from fairdeal.rules.michigan import DoubleStops, Michigan, Spin
from fairdeal.rules.rolling_stone import RollingStone
from fairdeal.rules.snip_snap import EarlOfCoventry, Jig, SnipSnapSnorem
from fairdeal.rules.sequence import Sequence

__all__ = [
    "RULES",
    "DEFAULT",
    "catalogue",
    "catalogue_json",
    "get",
    "how_to_play",
    "Event",
    "HandResult",
    "HandSummary",
    "IllegalMove",
    "Move",
    "MoveError",
    "OptionsError",
    "PositionError",
    "Rules",
    "ScoreSheet",
    "SeatNames",
    "Shuffler",
    "standings",
    "BookCrazyEights",
    "Commit",
    "CrazyEights",
    "DoubleStops",
    "EarlOfCoventry",
    "Eights",
    "Eleusis",
    "FanTan",
    "FiveOrNine",
    "GoBoom",
    "HollywoodEights",
    "HollywoodGoBoom",
    "Jig",
    "LibertyFanTan",
    "Michigan",
    "PlayOrPay",
    "RollingStone",
    "Sequence",
    "Sjueren",
    "SnipSnapSnorem",
    "Spin",
]

RULES: dict[str, type[Rules]] = {
    cls.name: cls
    for cls in (
        # The catalogue's order: the lobby's, family by family.
        CrazyEights,
        BookCrazyEights,
        Eights,
        HollywoodEights,
        GoBoom,
        HollywoodGoBoom,
        FanTan,
        Sjueren,
        FiveOrNine,
        PlayOrPay,
        LibertyFanTan,
        Sequence,
        Michigan,
        DoubleStops,
        Spin,
        Commit,
        SnipSnapSnorem,
        EarlOfCoventry,
        Jig,
        RollingStone,
        Eleusis,
    )
}
"""Every game fairdeal knows, by rules name."""


DEFAULT = "crazy-eights"
"""The game a driver offers when none is named: the online table's."""

CATALOGUE_VERSION = 1
"""The version of the catalogue's format (``GET /rules``, spec/games.json)."""


def catalogue() -> dict[str, Any]:
    """Every game's declaration, in the lobby's order: what ``GET /rules`` serves and
    spec/games.json holds.

    >>> entries = catalogue()["games"]
    >>> len(entries), entries[0]["name"], catalogue()["default"]
    (21, 'crazy-eights', 'crazy-eights')
    """
    return {
        "version": CATALOGUE_VERSION,
        "default": DEFAULT,
        "families": list(dict.fromkeys(cls.family for cls in RULES.values())),
        "games": [cls.declaration() for cls in RULES.values()],
    }


def catalogue_json() -> str:
    """:func:`catalogue` as spec/games.json writes it: two-space indents, a newline at the end."""
    return json.dumps(catalogue(), indent=2, ensure_ascii=False) + "\n"


def get(name: str, options: Mapping[str, Any] | None = None) -> Rules:
    """The rules called ``name`` with ``options``; :class:`OptionsError` for an unknown game."""
    try:
        cls = RULES[name]
    except (KeyError, TypeError):
        raise OptionsError(f"unknown rules {name!r}; known: {', '.join(sorted(RULES))}") from None
    return cls(options)


def how_to_play(name: str) -> str:
    """The "How to play" text of the game called ``name``, for players: a small markdown
    (paragraphs, ``- `` bullet lists, ``**bold**``), kept in ``fairdeal/rules/help/<name>.md`` so
    the package carries it; spec/games/<page>.md points there. :class:`OptionsError` for an
    unknown game.

    >>> how_to_play("michigan").startswith("**Goal.**")
    True
    """
    if name not in RULES:
        raise OptionsError(f"unknown rules {name!r}; known: {', '.join(sorted(RULES))}")
    return resources.files(__package__).joinpath("help", f"{name}.md").read_text(encoding="utf-8")
