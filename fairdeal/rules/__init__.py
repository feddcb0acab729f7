"""The games fairdeal deals, by rules name.

>>> rules = get("crazy-eights", {"target": 50})
>>> rules.title, rules.options["target"]
('Crazy Eights', 50)
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

from fairdeal.rules import move as _move
from fairdeal.rules.base import Event
from fairdeal.rules.base import HandResult
from fairdeal.rules.base import IllegalMove
from fairdeal.rules.base import Move
from fairdeal.rules.base import MoveError
from fairdeal.rules.base import OptionsError
from fairdeal.rules.base import Outcome
from fairdeal.rules.base import Rules
from fairdeal.rules.base import ScoreSheet
from fairdeal.rules.base import Shuffler
from fairdeal.rules.base import Standing
from fairdeal.rules.base import standings
from fairdeal.rules.commit import Commit
from fairdeal.rules.crazy_eights import CrazyEights
from fairdeal.rules.eights import BookCrazyEights
from fairdeal.rules.eights import Eights
from fairdeal.rules.eights import HollywoodEights
from fairdeal.rules.eleusis import Eleusis
from fairdeal.rules.fan_tan import FanTan
from fairdeal.rules.fan_tan import FiveOrNine
from fairdeal.rules.fan_tan import LibertyFanTan
from fairdeal.rules.fan_tan import PlayOrPay
from fairdeal.rules.fan_tan import Sjueren
from fairdeal.rules.go_boom import GoBoom
from fairdeal.rules.go_boom import HollywoodGoBoom
from fairdeal.rules.michigan import DoubleStops
from fairdeal.rules.michigan import Michigan
from fairdeal.rules.michigan import Spin
from fairdeal.rules.move import Field
from fairdeal.rules.move import MoveKind
from fairdeal.rules.position import PositionError
from fairdeal.rules.rolling_stone import RollingStone
from fairdeal.rules.sequence import Sequence
from fairdeal.rules.snip_snap import EarlOfCoventry
from fairdeal.rules.snip_snap import Jig
from fairdeal.rules.snip_snap import SnipSnapSnorem
from fairdeal.rules.summary import HandSummary
from fairdeal.rules.summary import SeatNames
from fairdeal.rules.translations import ENGLISH
from fairdeal.rules.translations import FAIRDEAL
from fairdeal.rules.translations import LanguageError
from fairdeal.rules.translations import TranslationError
from fairdeal.rules.translations import help_in
from fairdeal.rules.translations import language
from fairdeal.rules.translations import said_in
from fairdeal.rules.translations import translated_catalogue

__all__ = [
    "GROUP",
    "RULES",
    "PluginError",
    "discover",
    "own",
    "DEFAULT",
    "catalogue",
    "catalogue_json",
    "get",
    "how_to_play",
    "in_language",
    "LanguageError",
    "TranslationError",
    "Event",
    "HandResult",
    "HandSummary",
    "IllegalMove",
    "Field",
    "Move",
    "MoveError",
    "MoveKind",
    "OptionsError",
    "PositionError",
    "Rules",
    "ScoreSheet",
    "SeatNames",
    "Shuffler",
    "Outcome",
    "Standing",
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

GROUP = "fairdeal.games"
"""The entry-point group a game registers in, fairdeal's own included (pyproject.toml's
``[project.entry-points."fairdeal.games"]``): the entry's name is the game's rules name, its
value the :class:`Rules` subclass, ``"package.module:Class"``."""


class PluginError(ValueError):
    """A registered game that cannot be loaded: its entry point, and what is wrong with it.

    >>> str(PluginError("poker = house_games:Poker", "its class's name is 'stud'"))
    "game plugin 'poker = house_games:Poker': its class's name is 'stud'"
    """

    def __init__(self, entry: str, reason: str) -> None:
        self.entry = entry
        self.reason = reason
        super().__init__(f"game plugin {entry!r}: {reason}")


def _source_tree_entry_points() -> list[metadata.EntryPoint]:
    # fairdeal run from a checkout on PYTHONPATH (the verifier's bare environment) is not an
    # installed distribution and has no entry points: its own games are the ones its
    # pyproject.toml registers, read from there.
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    try:
        import tomllib

        table = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["entry-points"][GROUP]
    except (OSError, ImportError, KeyError, ValueError):
        return []
    return [metadata.EntryPoint(name, value, GROUP) for name, value in table.items()]


def discover() -> dict[str, type[Rules[Any, Any]]]:
    """Every registered game, by rules name, in the catalogue's order (:attr:`Rules.lobby_order`,
    then name, family by family): the entry points of :data:`GROUP` of every installed distribution.
    :class:`PluginError` for an entry that does not load, is not a :class:`Rules` subclass, or
    whose name is not its class's or another's.

    >>> list(discover())[:3]
    ['crazy-eights', 'crazy-eights-book', 'eights']
    """
    entries = list(metadata.entry_points(group=GROUP))
    if not any(entry.value.startswith("fairdeal.") for entry in entries):
        entries += _source_tree_entry_points()
    found: dict[str, type[Rules[Any, Any]]] = {}
    for entry in entries:
        said = f"{entry.name} = {entry.value}"
        try:
            cls = entry.load()
        except Exception as exc:  # whatever a broken plugin raises, named with its entry
            raise PluginError(said, f"does not load: {type(exc).__name__}: {exc}") from exc
        if not (isinstance(cls, type) and issubclass(cls, Rules)):
            raise PluginError(said, "is not a subclass of fairdeal.rules.Rules")
        if getattr(cls, "name", None) != entry.name:
            raise PluginError(said, f"its class's name is {getattr(cls, 'name', None)!r}, not the entry's")
        if found.get(entry.name, cls) is not cls:
            raise PluginError(said, f"another game is already registered as {entry.name!r}")
        found[entry.name] = cls
    ordered = sorted(found.values(), key=lambda cls: (cls.lobby_order, cls.name))
    # Family by family, as the lobby groups them: a plugin's game joins its family's group.
    families = list(dict.fromkeys(cls.family for cls in ordered))
    return {cls.name: cls for cls in sorted(ordered, key=lambda cls: families.index(cls.family))}


class _Registry(Mapping[str, type[Rules[Any, Any]]]):
    """The games by rules name, found by :func:`discover` when first asked for, not when
    ``fairdeal.rules`` is imported: a plugin imports fairdeal, so discovering during that import
    would load the plugin while the package it builds on is half made."""

    def __init__(self) -> None:
        self._games: dict[str, type[Rules[Any, Any]]] | None = None
        self._loading = False

    def _found(self) -> dict[str, type[Rules[Any, Any]]]:
        if self._games is None:
            if self._loading:
                raise PluginError(GROUP, "a game plugin asked for the games while they were being loaded")
            self._loading = True
            try:
                self._games = discover()
            finally:
                self._loading = False
        return self._games

    def __getitem__(self, name: str) -> type[Rules[Any, Any]]:
        return self._found()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._found())

    def __len__(self) -> int:
        return len(self._found())

    def __contains__(self, name: object) -> bool:
        return name in self._found()

    def __repr__(self) -> str:
        return f"RULES({list(self._found())})"


RULES: Mapping[str, type[Rules[Any, Any]]] = _Registry()
"""Every game fairdeal knows, by rules name, in the catalogue's order: its own and every installed
plugin's (:func:`discover`, on first use)."""


def _load_games() -> None:
    """Load every game, so that their modules declare their kinds of move (a move of a kind
    no game loaded so far declares, e.g. ``Move.parse("bid 3")`` first thing)."""
    if isinstance(RULES, _Registry) and RULES._games is None and not RULES._loading:
        RULES._found()


_move._FIND_MORE.append(_load_games)


def own(cls: type[Rules[Any, Any]]) -> bool:
    """Whether a game is one of fairdeal's own (not a plugin's).

    >>> own(RULES["crazy-eights"])
    True
    """
    return cls.__module__.startswith("fairdeal.")


DEFAULT = "crazy-eights"
"""The game a driver offers when none is named: the online table's."""

CATALOGUE_VERSION = 1
"""The version of the catalogue's format (``GET /rules``, spec/games.json)."""


def catalogue(*, own_only: bool = False, lang: str | None = None) -> dict[str, Any]:
    """Every game's declaration, in the lobby's order: what ``GET /rules`` serves, plugins
    included; ``own_only``: fairdeal's own games alone, as spec/games.json holds them.

    ``lang``, a language tag: the games' words in that language where their packages translate
    them (:mod:`fairdeal.rules.translations`), the rest in English, and a ``lang`` member saying
    which (``en`` when no game speaks it); :class:`LanguageError` for a tag that is not one.
    Without it: English, and no ``lang`` member (spec/games.json).

    >>> entries = catalogue(own_only=True)["games"]
    >>> len(entries), entries[0]["name"], catalogue()["default"]
    (21, 'crazy-eights', 'crazy-eights')
    >>> nb = catalogue(lang="nb")
    >>> nb["lang"], nb["games"][0]["title"], nb["games"][0]["options"][0]["help"]
    ('nb', 'Vri åtter', 'summen som avslutter kampen')
    """
    games = [cls for cls in RULES.values() if own(cls) or not own_only]
    document = {
        "version": CATALOGUE_VERSION,
        "default": DEFAULT,
        "families": list(dict.fromkeys(cls.family for cls in games)),
        "games": [cls.declaration() for cls in games],
    }
    return document if lang is None else translated_catalogue(document, games, lang)


def catalogue_json(*, own_only: bool = False) -> str:
    """:func:`catalogue` as spec/games.json writes it: two-space indents, a newline at the end."""
    return json.dumps(catalogue(own_only=own_only), indent=2, ensure_ascii=False) + "\n"


def get(name: str, options: Mapping[str, Any] | None = None) -> Rules[Any, Any]:
    """The rules called ``name`` with ``options``; :class:`OptionsError` for an unknown game."""
    try:
        cls = RULES[name]
    except (KeyError, TypeError):
        raise OptionsError(f"unknown rules {name!r}; known: {', '.join(sorted(RULES))}") from None
    return cls(options)


def how_to_play(name: str, lang: str | None = None) -> str:
    """The "How to play" text of the game called ``name``, for players (:meth:`Rules.help_text`:
    fairdeal's own keep theirs in ``fairdeal/rules/help/<name>.md``, and spec/games/<page>.md
    points there); ``lang``, a language tag: in that language where the game's package has it
    (``help/<lang>/<name>.md``), else in English. :class:`OptionsError` for an unknown game,
    :class:`LanguageError` for a tag that is not one.

    >>> how_to_play("michigan").startswith("**Goal.**"), how_to_play("michigan", "nb").startswith("**Mål.**")
    (True, True)
    """
    if name not in RULES:
        raise OptionsError(f"unknown rules {name!r}; known: {', '.join(sorted(RULES))}")
    if lang is None:
        return RULES[name].help_text()
    return help_in(RULES[name], language(lang)).text


def in_language(value: Any, lang: str | None) -> Any:
    """``value``, JSON-ready, with what fairdeal wrote in it for people (every
    :class:`~fairdeal.said.Said`: a card's why-not note, a hand's reason, a refusal) said in the
    language tag ``lang`` where fairdeal and the games translate it (fairdeal's own words, then
    fairdeal's games', then each plugin's package's: :func:`~fairdeal.rules.translations.say`),
    else in English; ``None`` or English: ``value`` as it is. :class:`LanguageError` for a tag
    that is not one.

    >>> from fairdeal.rules.base import not_held
    >>> from fairdeal.cards import Card
    >>> in_language({"why_not": not_held(Card.parse("TC"))}, "nb-NO"), in_language("plain", "nb")
    ({'why_not': 'du har ikke 10♣'}, 'plain')
    """
    if lang is None:
        return value
    code = language(lang)
    if code == ENGLISH:
        return value
    return said_in(value, code, _message_packages())


def _message_packages() -> tuple[str, ...]:
    """Where a template's translation is looked for, in order: fairdeal's own words, its games',
    then every plugin's package's (in the catalogue's order)."""
    own_games = "fairdeal.rules"
    return tuple(dict.fromkeys([FAIRDEAL, own_games, *(cls.package() for cls in RULES.values())]))
