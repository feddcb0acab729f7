"""JSON Schema (draft 2020-12) from type hints: how a game's view is typed for clients.

A game declares what its seat's view shows as a :class:`typing.TypedDict` (its
:attr:`~fairdeal.rules.base.Rules.table_json`), in the vocabulary of the record and of
spec/state.md: :class:`~fairdeal.cards.Card` is a card code, :class:`~fairdeal.cards.Suit`
and :class:`~fairdeal.cards.Rank` are letters, tuples and lists are arrays, ``X | None`` may be
``null``, a ``Literal`` is one of its values. :func:`schema_of` turns such a hint into a closed
schema (no member but those declared; ``NotRequired`` members may be left out), which the
service's OpenAPI document carries for each game and which a test holds every view to.

>>> from typing import NotRequired, TypedDict
>>> class Pile(TypedDict):
...     top: Card
...     named: Suit | None
...     sizes: tuple[int, ...]
...     note: NotRequired[str]
>>> schema = schema_of(Pile)
>>> schema["required"], schema["additionalProperties"], schema["properties"]["named"]["anyOf"][1]
(['top', 'named', 'sizes'], False, {'type': 'null'})
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any
from typing import Literal
from typing import NotRequired
from typing import Required

from fairdeal.cards import Card
from fairdeal.cards import Rank
from fairdeal.cards import Suit

__all__ = ["CARD", "schema_of"]

CARD: dict[str, Any] = {
    "type": "string",
    "pattern": "^[A2-9TJQK][CDHS]$",
    "description": "A card code: rank, then suit.",
}
_SUIT: dict[str, Any] = {"enum": [suit.letter for suit in Suit], "description": "A suit letter."}
_RANK: dict[str, Any] = {"enum": [rank.letter for rank in Rank], "description": "A rank letter."}
_PLAIN: dict[Any, dict[str, Any]] = {
    int: {"type": "integer"},
    str: {"type": "string"},
    bool: {"type": "boolean"},
    float: {"type": "number"},
    type(None): {"type": "null"},
}


def schema_of(hint: Any) -> dict[str, Any]:
    """The JSON Schema of what a value of type ``hint`` is in JSON.

    >>> schema_of(tuple[Card, ...])["items"]["pattern"], schema_of(Literal["out", "blocked"])
    ('^[A2-9TJQK][CDHS]$', {'enum': ['out', 'blocked']})
    >>> schema_of(dict[str, int])
    {'type': 'object', 'additionalProperties': {'type': 'integer'}}
    """
    if hint is Any:
        return {}
    if hint is Card:
        return dict(CARD)
    if hint is Suit:
        return dict(_SUIT)
    if hint is Rank:
        return dict(_RANK)
    if hint in _PLAIN:
        return dict(_PLAIN[hint])
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [schema_of(arg) for arg in args]}
    if origin is Literal:
        return {"enum": list(args)}
    if origin in (tuple, list, frozenset, set):
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            return {
                "type": "array",
                "prefixItems": [schema_of(a) for a in args],
                "minItems": len(args),
                "maxItems": len(args),
            }
        return {"type": "array", "items": schema_of(args[0])}
    if origin is dict:
        return {"type": "object", "additionalProperties": schema_of(args[1])}
    if typing.is_typeddict(hint):
        # Under postponed annotations __required_keys__ cannot see NotRequired: the hints can.
        hints = typing.get_type_hints(hint, include_extras=True)
        optional = {name for name, h in hints.items() if typing.get_origin(h) is NotRequired}
        return _object(hint, hints, {name for name in hints if name not in optional and hint.__total__})
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        fields = dataclasses.fields(hint)
        return _object(hint, typing.get_type_hints(hint), {f.name for f in fields})
    raise TypeError(f"no JSON Schema for {hint!r}")


def _object(cls: type, hints: dict[str, Any], required: set[str]) -> dict[str, Any]:
    properties = {}
    for name, hint in hints.items():
        if typing.get_origin(hint) in (NotRequired, Required):
            hint = typing.get_args(hint)[0]
        properties[name] = schema_of(hint)
    schema: dict[str, Any] = {
        "type": "object",
        "title": cls.__name__,
        "properties": properties,
        "required": [name for name in hints if name in required],
        "additionalProperties": False,
    }
    if cls.__doc__ and not dataclasses.is_dataclass(cls):
        schema["description"] = " ".join(cls.__doc__.split())
    return schema
