"""The games fairdeal deals, by rules name.

>>> rules = get("crazy-eights", {"target": 50})
>>> rules.title, rules.options["target"]
('Crazy Eights', 50)
"""

from __future__ import annotations

from collections.abc import Mapping
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
from fairdeal.rules.commit import Commit
from fairdeal.rules.crazy_eights import CrazyEights
from fairdeal.rules.eights import BookCrazyEights, Eights, HollywoodEights
from fairdeal.rules.fan_tan import FanTan, FiveOrNine, LibertyFanTan, PlayOrPay, Sjueren
from fairdeal.rules.go_boom import GoBoom, HollywoodGoBoom
from fairdeal.rules.michigan import DoubleStops, Michigan, Spin
from fairdeal.rules.rolling_stone import RollingStone
from fairdeal.rules.snip_snap import EarlOfCoventry, Jig, SnipSnapSnorem
from fairdeal.rules.sequence import Sequence

__all__ = [
    "RULES",
    "get",
    "Event",
    "HandResult",
    "IllegalMove",
    "Move",
    "MoveError",
    "OptionsError",
    "Rules",
    "ScoreSheet",
    "Shuffler",
    "standings",
    "BookCrazyEights",
    "Commit",
    "CrazyEights",
    "DoubleStops",
    "EarlOfCoventry",
    "Eights",
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
        CrazyEights,
        FanTan,
        Sjueren,
        FiveOrNine,
        PlayOrPay,
        LibertyFanTan,
        BookCrazyEights,
        Eights,
        HollywoodEights,
        GoBoom,
        HollywoodGoBoom,
        SnipSnapSnorem,
        EarlOfCoventry,
        Jig,
        RollingStone,
        Sequence,
        Michigan,
        DoubleStops,
        Spin,
        Commit,
    )
}
"""Every game fairdeal knows, by rules name."""


def get(name: str, options: Mapping[str, Any] | None = None) -> Rules:
    """The rules called ``name`` with ``options``; :class:`OptionsError` for an unknown game."""
    try:
        cls = RULES[name]
    except (KeyError, TypeError):
        raise OptionsError(f"unknown rules {name!r}; known: {', '.join(sorted(RULES))}") from None
    return cls(options)
