"""A game's state as JSON, and a position built by hand checked before it is played: fairdeal's FEN.

Every game's state is a frozen dataclass of cards, suits, ranks, seats and
counts. :func:`state_to_json` writes it as a JSON object, one member per field
(cards as codes ``"8H"``, suits and ranks as letters ``"H"``, ``"T"``, tuples and
sets as arrays); :func:`state_from_json` reads such an object back into the
very same state, and refuses anything malformed or impossible with a
:class:`PositionError` that names what is wrong. The codec is generic: it is
driven by the type hints of the state's fields. What is particular to a family
of games, the rules class says through a few hooks:

- ``state_type``: the state class its :meth:`~Rules.deal` makes;
- ``card_places(state)``: where every card of the pack is now, as
  ``(place, cards)`` pairs such as ``("in seat 1's hand", ...)``, ``("on the pile", ...)``
  (the fields that keep history, like the hands as dealt, are not places);
- ``check_position(state)``: what else its positions must hold true (a Fan Tan row
  holds its opening card, a run goes on from its last card, ...), raising
  :class:`PositionError`;
- ``pack_for(seats)`` (optional): the pack when the :class:`~Layout` cannot say it
  (Rolling Stone's cut-down pack).

The pack the places are checked against comes from the game's layout: its
``packs`` (two from ``two_packs_from`` seats on), less its ``removed`` cards.
spec/state.md is the format's contract.

>>> from fairdeal.rules import get
>>> rules = get("crazy-eights")
>>> state, _ = rules.deal(2, dealer=0, hand=1, shuffle=lambda label, cards: list(cards))
>>> data = state_to_json(rules, state)
>>> data["pile"], data["named"], data["turn"]
(['2D'], None, 1)
>>> state_from_json(rules, data) == state
True
>>> data["stock"][0] = "2C"   # the two of clubs is in seat 0's hand too
>>> state_from_json(rules, data)
Traceback (most recent call last):
...
fairdeal.rules.position.PositionError: 2C is both in seat 0's hand and in the stock
"""

from __future__ import annotations

import dataclasses
import functools
import json
import types
import typing
from collections import Counter
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from fairdeal.cards import Card
from fairdeal.cards import Rank
from fairdeal.cards import Suit
from fairdeal.cards import pack

__all__ = [
    "PositionError",
    "check_chip_tally",
    "check_seat",
    "check_seat_list",
    "check_shape",
    "check_to_act",
    "game_pack",
    "hand_places",
    "position_text",
    "read_position",
    "state_from_json",
    "state_to_json",
]

Places = list[tuple[str, Iterable[Card]]]
"""Where the cards are: ``(place, cards)``, the place said as a sentence says it (``"on the pile"``)."""

_CARDS: dict[str, Card] = {card.code: card for card in pack()}
_SUITS: dict[str, Suit] = {suit.letter: suit for suit in Suit}
_RANKS: dict[str, Rank] = {rank.letter: rank for rank in Rank}
_NONE = type(None)
_COUNTS = ("none", "one", "two", "three", "four", "five", "six", "seven", "eight")


class PositionError(ValueError):
    """A state's JSON that is malformed, or a position no game can be in.

    ``field`` names where (``"hands[1][3]"``, ``"result.scores"``), or is ``None`` when the
    position as a whole is wrong (a card in two places); ``reason`` is the message without it.

    >>> error = PositionError("not a card code: 'ZZ'", field="stock[0]")
    >>> str(error), error.field, isinstance(error, ValueError)
    ("stock[0]: not a card code: 'ZZ'", 'stock[0]', True)
    """

    def __init__(self, reason: str, *, field: str | None = None) -> None:
        self.reason = reason
        self.field = field
        super().__init__(f"{field}: {reason}" if field else reason)


# -- the codec: driven by the dataclass fields' type hints -------------------------------


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    # Cached: a replay may write or read every state of a match.
    return typing.get_type_hints(cls)


def _is_union(hint: Any) -> bool:
    return typing.get_origin(hint) in (typing.Union, types.UnionType)


# The codec is compiled: one function per type hint, made once (a replay or a thousand positions
# read and write states field by field, and reading the hints again for every value took most of
# the time). A path to a value is kept as (parent, key) pairs and written out only for an error.
Path = str | tuple[Any, str | int]


def _text(path: Path) -> str:
    """A value's path as an error names it: ``hands[2][0]``, ``result.how``."""
    if isinstance(path, str):
        return path
    parent, key = path
    return _at(_text(parent), key)


def _encode(value: Any, hint: Any) -> Any:
    return _encoder(hint)(value)


def _same(value: Any) -> Any:
    return value


@functools.cache
def _encoder(hint: Any) -> Callable[[Any], Any]:
    """The function that writes a value of type ``hint`` as JSON."""
    if hint is Any:
        return lambda value: json.loads(json.dumps(value))
    if hint is Card:
        return lambda value: value.code
    if hint is Suit or hint is Rank:
        return lambda value: value.letter
    if hint in (int, str, bool, _NONE):
        return _same
    if _is_union(hint):
        arms = [(typing.get_origin(arg) or arg, _encoder(arg)) for arg in typing.get_args(hint) if arg is not _NONE]

        def union(value: Any) -> Any:
            if value is None:
                return None
            for kind, write in arms:
                if isinstance(value, kind):
                    return write(value)
            raise TypeError(f"{value!r} is none of {hint}")

        return union
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _encoder(args[0])
        return lambda value: [item(v) for v in value]
    if origin is tuple:
        items = [_encoder(a) for a in args]
        return lambda value: [write(v) for v, write in zip(value, items)]
    if origin is frozenset:
        member = _encoder(args[0])
        # A set has no order: written sorted, so that one state has one JSON text.
        return lambda value: sorted((member(v) for v in value), key=json.dumps)
    if origin is dict:
        entry = _encoder(args[1])
        return lambda value: {k: entry(v) for k, v in value.items()}
    if dataclasses.is_dataclass(hint):
        return _encode_object
    raise TypeError(f"no JSON form for {hint!r}")


@functools.cache
def _object_encoder(cls: type) -> tuple[tuple[str, Callable[[Any], Any]], ...]:
    hints = _hints(cls)
    return tuple((f.name, _encoder(hints[f.name])) for f in dataclasses.fields(cls))


def _encode_object(value: Any) -> dict[str, Any]:
    # By the value's own class: a field may hold a subclass of the one its hint names. (Annotated:
    # mypy does not take a type(...) for Hashable, as the cache's key must be.)
    cls: type = type(value)
    return {name: write(getattr(value, name)) for name, write in _object_encoder(cls)}


def _what(hint: Any) -> str:
    """How an error message names what a field should hold."""
    if hint is Card:
        return "a card code (rank A23456789TJQK, suit CDHS: '8H', 'TD')"
    if hint is Suit:
        return "a suit letter (C, D, H or S)"
    if hint is Rank:
        return "a rank letter (A23456789TJQK)"
    if hint is int:
        return "a whole number"
    if hint is bool:
        return "true or false"
    if hint is str:
        return "a string"
    if hint is _NONE:
        return "null"
    if _is_union(hint):
        return " or ".join(_what(a) for a in typing.get_args(hint))
    origin = typing.get_origin(hint)
    if origin in (tuple, frozenset):
        return "an array"
    return "an object"


def _at(path: str, key: str | int) -> str:
    return f"{path}[{key}]" if isinstance(key, int) else (f"{path}.{key}" if path else key)


def _decode(data: Any, hint: Any, path: Path) -> Any:
    return _decoder(hint)(data, path)


Decoder = Callable[[Any, Path], Any]


@functools.cache
def _decoder(hint: Any) -> Decoder:
    """The function that reads a value of type ``hint`` from JSON, or names what is wrong with it."""

    def wrong(data: Any, path: Path) -> Any:
        raise _not(data, hint, path)

    if hint is Any:
        return _json_value
    if hint is Card or hint is Suit or hint is Rank:
        table: Mapping[str, Any] = _CARDS if hint is Card else _SUITS if hint is Suit else _RANKS

        def code(data: Any, path: Path) -> Any:
            if isinstance(data, str) and data in table:
                return table[data]
            raise _not(data, hint, path)

        return code
    if hint is int:

        def whole(data: Any, path: Path) -> Any:
            if isinstance(data, int) and not isinstance(data, bool):
                return data
            raise _not(data, hint, path)

        return whole
    if hint is bool or hint is str:

        def plain(data: Any, path: Path) -> Any:
            if isinstance(data, hint):
                return data
            raise _not(data, hint, path)

        return plain
    if hint is _NONE:

        def null(data: Any, path: Path) -> Any:
            if data is None:
                return None
            raise _not(data, hint, path)

        return null
    if _is_union(hint):
        args = typing.get_args(hint)
        nullable = _NONE in args
        arms = [_decoder(a) for a in args if a is not _NONE]
        if len(arms) == 1:
            [only] = arms

            def optional(data: Any, path: Path) -> Any:
                if data is None and nullable:
                    return None
                try:
                    return only(data, path)
                except PositionError as exc:
                    if exc.field != _text(path):
                        raise
                    raise _not(data, hint, path) from None

            return optional

        def either(data: Any, path: Path) -> Any:
            if data is None and nullable:
                return None
            for arm in arms:
                try:
                    return arm(data, path)
                except PositionError:
                    continue
            raise _not(data, hint, path)

        return either
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _decoder(args[0])

        def array(data: Any, path: Path) -> Any:
            if isinstance(data, list):
                return tuple([item(v, (path, i)) for i, v in enumerate(data)])
            raise _not(data, hint, path)

        return array
    if origin is tuple:
        items = [_decoder(a) for a in args]

        def fixed(data: Any, path: Path) -> Any:
            if not isinstance(data, list):
                raise _not(data, hint, path)
            if len(data) != len(items):
                raise PositionError(f"an array of {len(items)} items, not {len(data)}", field=_text(path))
            return tuple([read(v, (path, i)) for i, (v, read) in enumerate(zip(data, items))])

        return fixed
    if origin is frozenset:
        member = _decoder(args[0])

        def members(data: Any, path: Path) -> Any:
            if not isinstance(data, list):
                raise _not(data, hint, path)
            read = [member(v, (path, i)) for i, v in enumerate(data)]
            if len(set(read)) != len(read):
                raise PositionError("a set lists an item twice", field=_text(path))
            return frozenset(read)

        return members
    if origin is dict:
        entry = _decoder(args[1])

        def mapping(data: Any, path: Path) -> Any:
            if isinstance(data, dict):
                return {k: entry(v, (path, k)) for k, v in data.items()}
            raise _not(data, hint, path)

        return mapping
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        cls = hint

        def record(data: Any, path: Path) -> Any:
            if isinstance(data, Mapping):
                return _decode_object(data, cls, path)
            raise _not(data, hint, path)

        return record
    return wrong


def _not(data: Any, hint: Any, path: Path) -> PositionError:
    """The error for ``data`` that is not what a field of type ``hint`` holds."""
    # A string that is no code is quoted as written: 'hearts' is not a suit letter.
    said = (
        repr(data)
        if isinstance(data, str) and _what(hint).startswith(("a card", "a suit", "a rank"))
        else _json_type(data)
    )
    return PositionError(f"{said} is not {_what(hint)}", field=_text(path))


@functools.cache
def _object_decoder(cls: type) -> tuple[tuple[str, Decoder], ...]:
    hints = _hints(cls)
    return tuple((f.name, _decoder(hints[f.name])) for f in dataclasses.fields(cls))


@functools.cache
def _required(cls: type) -> tuple[str, ...]:
    # A field with a default may be left out (a puzzle need not write the history);
    # the others say the position and must be given.
    return tuple(
        f.name
        for f in dataclasses.fields(cls)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    )


def _decode_object(data: Mapping[str, Any], cls: type, path: Path) -> Any:
    fields = _object_decoder(cls)
    names = [name for name, _ in fields]
    unknown = [key for key in data if key not in names]
    if unknown:
        field = _text(path) or None
        raise PositionError(f"unknown key {unknown[0]!r}; {cls.__name__} has {', '.join(names)}", field=field)
    for name in _required(cls):
        if name not in data:
            raise PositionError(f"missing key {name!r}", field=_text(path) or None)
    values = {name: read(data[name], (path, name)) for name, read in fields if name in data}
    try:
        return cls(**values)
    except (TypeError, ValueError) as exc:
        raise PositionError(str(exc), field=_text(path) or None) from None


def _json_type(data: Any) -> str:
    if data is None:
        return "null"
    if isinstance(data, bool):
        return "true" if data else "false"
    if isinstance(data, str):
        return f"the string {data!r}"
    if isinstance(data, (int, float)):
        return f"the number {data!r}"
    if isinstance(data, list):
        return "an array"
    if isinstance(data, Mapping):
        return "an object"
    return f"{type(data).__name__} {data!r}"


def _json_value(data: Any, path: Path) -> Any:
    """A copy of a free-form JSON value (a report's record of a finished round), whole numbers only."""
    if data is None or isinstance(data, (bool, int, str)):
        return data
    if isinstance(data, list):
        return [_json_value(v, (path, i)) for i, v in enumerate(data)]
    if isinstance(data, Mapping) and all(isinstance(k, str) for k in data):
        return {k: _json_value(v, (path, k)) for k, v in data.items()}
    raise PositionError(f"{_json_type(data)} is not a JSON value of a state (whole numbers only)", field=_text(path))


# -- the two entry points ------------------------------------------------------------------


def state_to_json(rules: Any, state: Any) -> dict[str, Any]:
    """``state`` as a JSON object (see :meth:`Rules.state_to_json`); every field is written."""
    if not isinstance(state, rules.state_type):
        raise TypeError(f"{rules.title} plays {rules.state_type.__name__}, not {type(state).__name__}")
    return _encode_object(state)


def state_from_json(rules: Any, data: Any) -> Any:
    """The state ``data`` describes, checked (see :meth:`Rules.state_from_json`)."""
    if not isinstance(data, Mapping):
        raise PositionError(f"a state is a JSON object, not {_json_type(data)}")
    state = _decode_object(data, rules.state_type, "")
    _check(rules, state)
    return state


def position_text(rules: Any, state: Any) -> str:
    """``state`` as its exact JSON text: :func:`state_to_json`'s object, compact, its members in
    the state's field order (every field written): one state, one text. :func:`read_position`
    reads it back.

    >>> from fairdeal.rules import get
    >>> rules = get("go-boom")
    >>> state, _ = rules.deal(2, dealer=1, hand=1, shuffle=lambda label, cards: list(cards))
    >>> position_text(rules, state)[:41]
    '{"hand":1,"dealer":1,"hands":[["AC","3C",'
    >>> read_position(rules, position_text(rules, state)) == state
    True
    """
    return json.dumps(state_to_json(rules, state), ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def read_position(rules: Any, text: Any) -> Any:
    """The state a position's JSON text describes (any JSON spelling of the object), checked
    as :func:`state_from_json` checks it. Text that is no JSON, or names a member twice (JSON
    would keep one silently), is a :class:`PositionError` too.

    >>> from fairdeal.rules import get
    >>> read_position(get("go-boom"), '{"hand": 1, "hand": 2}')
    Traceback (most recent call last):
    ...
    fairdeal.rules.position.PositionError: 'hand' is given twice
    """
    if not isinstance(text, (str, bytes)):
        raise PositionError(f"a position is JSON text, not {type(text).__name__}")
    try:
        data = json.loads(text, object_pairs_hook=_members_once, parse_constant=_no_constant)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise PositionError(f"the position is not JSON: {exc}") from None
    return state_from_json(rules, data)


def _members_once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise PositionError(f"{key!r} is given twice")
            seen.add(key)
    return data


def _no_constant(name: str) -> Any:
    raise PositionError(f"{name} is not a JSON value of a state (whole numbers only)")


# -- the checks -----------------------------------------------------------------------------


def game_pack(rules: Any, seats: int) -> list[Card]:
    """The cards a hand of ``rules`` at ``seats`` seats is dealt from, as its :class:`Layout` says
    (``pack_for(seats)`` when the game has its own).

    >>> from fairdeal.rules import get
    >>> len(game_pack(get("crazy-eights-book"), 6)), len(game_pack(get("commit"), 4)), len(game_pack(get("rolling-stone"), 5))
    (104, 51, 40)
    """
    own = getattr(rules, "pack_for", None)
    if own is not None:
        return list(own(seats))
    layout = rules.layout
    packs = 2 if layout.two_packs_from is not None and seats >= layout.two_packs_from else layout.packs
    removed = {Card.parse(code) for code in layout.removed}
    return [card for card in pack(packs) if card not in removed]


def hand_places(hands: Sequence[Sequence[Card]]) -> Places:
    """Each seat's hand as a place: ``("in seat 0's hand", cards)``, ..."""
    return [(f"in seat {seat}'s hand", hand) for seat, hand in enumerate(hands)]


def check_seat(value: Any, seats: int, field: str, *, none: bool = False) -> None:
    """``value`` must be a seat of the table (or ``None``, if ``none``).

    >>> check_seat(4, 4, "dealer")
    Traceback (most recent call last):
    ...
    fairdeal.rules.position.PositionError: dealer: 4 is not a seat of this 4-seat table (seats 0 to 3)
    """
    if value is None and none:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
        raise PositionError(f"{value!r} is not a seat of this {seats}-seat table (seats 0 to {seats - 1})", field=field)


def check_seat_list(
    values: Sequence[Any], seats: int, field: str, *, length: bool = False, distinct: bool = False
) -> None:
    """Each of ``values`` a seat (with ``distinct``, no seat twice); or, with ``length``, a list of
    one entry per seat (counts, scores, chips won)."""
    if length:
        if len(values) != seats:
            raise PositionError(f"{len(values)} entries for {seats} seats", field=field)
        return
    for i, value in enumerate(values):
        check_seat(value, seats, f"{field}[{i}]")
    if distinct and len(set(values)) != len(values):
        raise PositionError("a seat is listed twice", field=field)


def check_to_act(state: Any) -> None:
    """The seat to act (``turn``, if any) must hold cards: a seat out of cards takes no turn.

    >>> from types import SimpleNamespace
    >>> check_to_act(SimpleNamespace(turn=1, hands=((), ())))
    Traceback (most recent call last):
    ...
    fairdeal.rules.position.PositionError: turn: seat 1 is out of cards and cannot be the seat to act
    """
    if state.turn is not None and not state.hands[state.turn]:
        raise PositionError(f"seat {state.turn} is out of cards and cannot be the seat to act", field="turn")


def check_chip_tally(state: Any, *, boxes: Sequence[str] = (), pot: bool = True) -> None:
    """A deal's ``net`` (and ``pot``) must be what its ``chips`` add up to; a payer or payee is a
    seat, the pot (``None``) or one of ``boxes`` (layout cards' codes)."""
    seats = len(state.hands)
    check_seat_list(state.net, seats, "net", length=True)
    net, total = [0] * seats, 0
    for i, move in enumerate(state.chips):
        if move.amount < 0:
            raise PositionError(f"{move.amount} chips", field=f"chips[{i}].amount")
        for side, sign in (("payer", -1), ("payee", 1)):
            party = getattr(move, side)
            if isinstance(party, str):
                if party not in boxes:
                    raise PositionError(
                        f"{party!r} is not "
                        + (f"a layout card ({', '.join(boxes)})" if boxes else "a seat or the pot"),
                        field=f"chips[{i}].{side}",
                    )
            elif party is None:
                if not pot:
                    raise PositionError("this game has no pot", field=f"chips[{i}].{side}")
                total += sign * move.amount
            else:
                check_seat(party, seats, f"chips[{i}].{side}")
                net[party] += sign * move.amount
    if tuple(net) != state.net:
        raise PositionError(f"the chips moved add up to {net}, not {list(state.net)}", field="net")
    if pot and total != state.pot:
        raise PositionError(f"the chips moved leave {total} in the pot, not {state.pot}", field="pot")


def check_shape(value: Any, shape: Any, field: str, seats: int) -> list[Card]:
    """Check a free-form record (a finished round, group or trick) against ``shape``; its cards.

    A shape is ``"seat"``, ``"seat?"`` (or null), ``"card"``, ``"str"``, ``"str?"``, a tuple of
    the strings allowed, ``[shape]`` (an array of them) or ``{key: shape}`` (an object with
    exactly those keys; a key ending in ``?`` may be left out).

    >>> check_shape({"seat": 1, "card": "8H"}, {"seat": "seat", "card": "card"}, "rounds[0]", 3)
    [Card.parse('8H')]
    >>> check_shape({"seat": 3, "card": "8H"}, {"seat": "seat", "card": "card"}, "rounds[0]", 3)
    Traceback (most recent call last):
    ...
    fairdeal.rules.position.PositionError: rounds[0].seat: 3 is not a seat of this 3-seat table (seats 0 to 2)
    """
    cards: list[Card] = []
    if shape in ("seat", "seat?"):
        check_seat(value, seats, field, none=shape == "seat?")
    elif shape == "card":
        cards.append(_decode(value, Card, field))
    elif shape in ("str", "str?"):
        if not (isinstance(value, str) or (value is None and shape == "str?")):
            raise PositionError(f"{_json_type(value)} is not a string", field=field)
    elif isinstance(shape, tuple):
        if value not in shape:
            raise PositionError(f"{value!r} is not one of {', '.join(map(repr, shape))}", field=field)
    elif isinstance(shape, list):
        if not isinstance(value, list):
            raise PositionError(f"{_json_type(value)} is not an array", field=field)
        for i, item in enumerate(value):
            cards += check_shape(item, shape[0], f"{field}[{i}]", seats)
    else:
        if not isinstance(value, Mapping):
            raise PositionError(f"{_json_type(value)} is not an object", field=field)
        keys = {key.rstrip("?"): key for key in shape}
        for key in value:
            if key not in keys:
                raise PositionError(f"unknown key {key!r}; expected {', '.join(keys)}", field=field)
        for key, spec in shape.items():
            name = key.rstrip("?")
            if name in value:
                cards += check_shape(value[name], spec, f"{field}.{name}", seats)
            elif not key.endswith("?"):
                raise PositionError(f"missing key {name!r}", field=field)
    return cards


def _check(rules: Any, state: Any) -> None:
    seats = len(state.hands)
    if not rules.min_seats <= seats <= rules.max_seats:
        raise PositionError(
            f"{seats} hands: {rules.title} is for {rules.min_seats} to {rules.max_seats} players", field="hands"
        )
    if state.hand < 1:
        raise PositionError(f"hands are numbered from 1, not {state.hand}", field="hand")
    check_seat(state.dealer, seats, "dealer")
    check_seat(state.turn, seats, "turn", none=True)
    result = state.result
    if (result is None) != (state.turn is not None):
        raise PositionError("a hand in play has a seat to act; a finished hand has none (and a result)", field="turn")
    if result is not None:
        if result.how not in ("out", "blocked"):
            raise PositionError(f"{result.how!r} is not 'out' or 'blocked'", field="result.how")
        check_seat_list(result.winners, seats, "result.winners", distinct=True)
        check_seat_list(result.counts, seats, "result.counts", length=True)
        check_seat_list(result.scores, seats, "result.scores", length=True)
    if state.dealt:
        check_seat_list(state.dealt, seats, "dealt", length=True)
    rules.check_position(state)
    _check_cards(rules, state, seats)


def _count(n: int) -> str:
    return _COUNTS[n] if n < len(_COUNTS) else str(n)


def _check_cards(rules: Any, state: Any, seats: int) -> None:
    """Every card of the pack in exactly one place (two places of two packs), and nothing else."""
    expected = Counter(game_pack(rules, seats))
    where: dict[Card, list[str]] = {}
    for place, cards in rules.card_places(state):
        for card in cards:
            where.setdefault(card, []).append(place)
    history: list[tuple[str, Card]] = []
    for f in dataclasses.fields(state):
        # The fields that keep history (the hands as dealt, the draws) hold cards of the pack too.
        history += ((f.name, card) for card in _cards_in(getattr(state, f.name)))
    if (
        len(where) == len(expected)
        and all(len(places) == expected[card] for card, places in where.items())
        and all(card in expected for _, card in history)
    ):
        return  # each card of the pack as often as the pack has it, and no other: nothing to name
    held = sum(len(places) for places in where.values())
    total = sum(expected.values())
    for card in sorted(where):
        places, copies = where[card], expected[card]
        if copies == 0:
            raise PositionError(f"{card} is {places[0]} but is not in the pack of {rules.title} for {seats} players")
        if len(places) > copies:
            more = "" if held <= total else f" (the position has {held} cards, the pack {total})"
            if len(places) == 2 and places[0] == places[1]:
                raise PositionError(f"{card} is twice {places[0]}{more}")
            if len(places) == 2:
                raise PositionError(f"{card} is both {places[0]} and {places[1]}{more}")
            raise PositionError(
                f"{card} is in {_count(len(places))} places ({'; '.join(places)}) but the pack has {_count(copies)}{more}"
            )
    for name, card in history:
        if card not in expected:
            raise PositionError(f"{card} is not in the pack of {rules.title} for {seats} players", field=name)
    for card in sorted(expected):
        missing = expected[card] - len(where.get(card, ()))
        if missing:
            if expected[card] == 1:
                raise PositionError(f"the pack's {card} is nowhere")
            raise PositionError(
                f"{_count(missing)} of the pack's {_count(expected[card])} {card} {'is' if missing == 1 else 'are'} nowhere"
            )


def _cards_in(value: Any, found: list[Card] | None = None) -> list[Card]:
    """Every card in ``value``: a card, a tuple or set of them, or a dataclass holding them, at any depth."""
    found = [] if found is None else found
    if isinstance(value, Card):
        found.append(value)
    elif isinstance(value, (tuple, frozenset)):
        for item in value:
            # Most are hands and piles of cards, or counts: no call for each.
            if isinstance(item, Card):
                found.append(item)
            elif item is not None and not isinstance(item, (int, str)):
                _cards_in(item, found)
    elif hasattr(type(value), "__dataclass_fields__"):
        cls: type = type(value)  # annotated: mypy takes no type(...) for the cache's Hashable key
        for name in _field_names(cls):
            _cards_in(getattr(value, name), found)
    return found


@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))
