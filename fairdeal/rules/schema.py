"""JSON Schema (draft 2020-12) from type hints: how a game's view is typed for clients.

A game declares what its seat's view shows as a :class:`typing.TypedDict` (its
:attr:`~fairdeal.rules.base.Rules.table_json`), in the vocabulary of the record and of
spec/state.md: :class:`~fairdeal.cards.Card` is a card code, :class:`~fairdeal.cards.Suit`
and :class:`~fairdeal.cards.Rank` are letters, tuples and lists are arrays, ``X | None`` may be
``null``, a ``Literal`` is one of its values. :func:`schema_of` turns such a hint into a closed
schema (no member but those declared; ``NotRequired`` members may be left out), which the
service's OpenAPI document carries for each game and which a test holds every view to.

A member may say what a page calls it: ``Annotated[int, Label("Cards to draw")]`` (a
:class:`Label`, with what each of a text member's ``values`` means). :func:`labels_of` gives a
declaration's labels as the catalogue shows them (its entry's ``table``), for the table page's
renderer that knows nothing of a game (``generic.js``, a plugin's game's), and the schema gives
the label as the member's ``title``.

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
from typing import Annotated
from typing import Any
from typing import Literal
from typing import NotRequired
from typing import Required

from fairdeal.cards import Card
from fairdeal.cards import Rank
from fairdeal.cards import Suit

__all__ = ["CARD", "Label", "schema_of", "labels_of"]

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


@dataclasses.dataclass(frozen=True, slots=True)
class Label:
    """What a page calls a member of a game's table (``Annotated[int, Label("Cards to draw")]``),
    and, for a text member with a few values, what each value means (``values``). The words are
    English, as the game declares all its words; the game's package translates them (its
    ``i18n/<lang>.json``, the game's ``table``: :mod:`fairdeal.rules.translations`).

    A member whose type is an object declared elsewhere (without labels) labels its members with
    ``fields``, by name.

    >>> Label("Direction of play", values={"clockwise": "to the left"}).to_json()
    {'label': 'Direction of play', 'values': {'clockwise': 'to the left'}}
    >>> Label("What fits", fields={"suit": Label("suit")}).to_json()
    {'label': 'What fits', 'fields': {'suit': {'label': 'suit'}}}
    """

    text: str
    values: dict[str, str] | None = None
    fields: dict[str, Label] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"label": self.text}
        if self.values:
            out["values"] = dict(self.values)
        if self.fields:
            out["fields"] = {name: label.to_json() for name, label in self.fields.items()}
        return out


def labels_of(hint: Any) -> dict[str, Any]:
    r"""What a :class:`~typing.TypedDict` declares of its members' :class:`Label`\ s, by member: each
    labelled one's ``label`` (and ``values``), and ``fields``, its own members' the same way (for a
    member that is a typed object itself); empty when nothing is labelled.

    >>> from typing import Annotated, TypedDict
    >>> class Table(TypedDict):
    ...     penalty: Annotated[int, Label("Cards to draw")]
    ...     next: Annotated[dict[str, str], Label("What fits", fields={"suit": Label("suit")})]
    ...     turn: int | None
    >>> labels_of(Table)
    {'penalty': {'label': 'Cards to draw'}, 'next': {'label': 'What fits', 'fields': {'suit': {'label': 'suit'}}}}
    >>> schema_of(Table)["properties"]["penalty"]
    {'type': 'integer', 'title': 'Cards to draw'}
    """
    if not typing.is_typeddict(hint):
        return {}
    out: dict[str, Any] = {}
    for name, member in typing.get_type_hints(hint, include_extras=True).items():
        if typing.get_origin(member) in (NotRequired, Required):
            member = typing.get_args(member)[0]
        if typing.get_origin(member) is not Annotated:
            continue
        base, *extras = typing.get_args(member)
        label = next((extra for extra in extras if isinstance(extra, Label)), None)
        if label is None:
            continue
        words = label.to_json()
        inner = {**labels_of(base), **words.get("fields", {})}
        if inner:
            words["fields"] = inner
        out[name] = words
    return out


def schema_of(hint: Any) -> dict[str, Any]:
    """The JSON Schema of what a value of type ``hint`` is in JSON.

    >>> schema_of(tuple[Card, ...])["items"]["pattern"], schema_of(Literal["out", "blocked"])
    ('^[A2-9TJQK][CDHS]$', {'enum': ['out', 'blocked']})
    >>> schema_of(dict[str, int])
    {'type': 'object', 'additionalProperties': {'type': 'integer'}}
    """
    if hint is Any:
        return {}
    if typing.get_origin(hint) is Annotated:
        base, *extras = typing.get_args(hint)
        schema = schema_of(base)
        label = next((extra for extra in extras if isinstance(extra, Label)), None)
        if label is not None:
            schema["title"] = label.text
        return schema
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
