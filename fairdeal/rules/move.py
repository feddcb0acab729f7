"""Moves, and the declarations a game makes of the moves it reads.

A :class:`Move` is one action of a seat. What kinds of move there are, which fields each
names, how each is written as text and as JSON, and its JSON Schema, is declared by the game
that uses it, as a :class:`MoveKind`: the four every game reads (:data:`PLAY`, :data:`DRAW`,
:data:`KEEP`, :data:`PASS`) are here; Michigan declares its auction, Eleusis its strings and
calls, a plugin its own. The drivers (the service's move body and its OpenAPI schema, the
browser's move forms, the verifier) read the declarations and name no kind.

Michigan's bid, as the Sequence family's module declares it:
``BID = MoveKind("bid", (Field("amount", Count(1, 1_000_000)),), label="Bid", key="B")``.

>>> from fairdeal.rules.sequence import BID
>>> BID(3), str(BID(3)), BID(3).to_json()
(Move.parse('bid 3'), 'bid 3', {'move': 'bid', 'amount': 3})
>>> Move.parse("bid 3") == Move.from_json({"move": "bid", "amount": 3}) == BID(3)
True
>>> BID.syntax, PLAY.syntax
('bid N', 'play CARD [naming SUIT]')
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from dataclasses import InitVar
from dataclasses import dataclass
from dataclasses import field as _field
from typing import Any
from typing import ClassVar

from fairdeal.cards import Card
from fairdeal.cards import CardError
from fairdeal.cards import Suit

__all__ = [
    "BASIC",
    "CARD",
    "COUNT",
    "Cards",
    "Count",
    "DRAW",
    "Field",
    "KEEP",
    "Move",
    "MoveError",
    "MoveKind",
    "PASS",
    "PLAY",
    "PLAY_THEN",
    "SUIT",
    "Choice",
    "Text",
    "Value",
    "a",
    "declared",
    "kinds",
    "members",
    "secret_members",
]


class MoveError(ValueError):
    """A move that cannot even be read, e.g. ``{"move": "fly"}``: an unknown kind, a missing or
    malformed field."""


def a(word: str) -> str:
    """``word`` with the article a sentence says it with.

    >>> [a(w) for w in ("play", "auction", "exchange", "8", "ace", "10", "jack")]
    ['a play', 'an auction', 'an exchange', 'an 8', 'an ace', 'a 10', 'a jack']
    """
    return ("an " if word[:1].lower() in "aeiou8" or word in ("11", "18") else "a ") + word


# --- What a field holds ---------------------------------------------------------------------


class Value:
    """The type of a field: how it is read from a word of text and from JSON, written back,
    and described to a client (its JSON Schema). One instance serves every field of its type."""

    placeholder: ClassVar[str] = "VALUE"
    """How the text form's syntax shows it: ``play CARD``."""
    phrase: ClassVar[str] = "a value"
    rest: ClassVar[bool] = False
    """Whether it takes the rest of the words (a string of cards, a rule's text)."""

    def read(self, words: list[str]) -> Any:
        """The value of the text form's ``words`` (one word unless :attr:`rest`)."""
        raise NotImplementedError

    def write(self, value: Any) -> str:
        return str(value)

    def load(self, data: Any) -> Any:
        """The value of a JSON member; raises ``ValueError`` (or :class:`CardError`)."""
        raise NotImplementedError

    def dump(self, value: Any) -> Any:
        return value

    def valid(self, value: Any) -> bool:
        raise NotImplementedError

    def schema(self) -> dict[str, Any]:
        raise NotImplementedError

    def form(self) -> dict[str, Any]:
        """What the browser builds a control from (the catalogue's ``move_forms``)."""
        return {"type": type(self).__name__.lower()}


class _Word(Value):
    """A value of one word that its class's ``parse`` reads (a card, a suit), as :meth:`write` spells it."""

    made: ClassVar[type[Card] | type[Suit]]

    def read(self, words: list[str]) -> Any:
        return self.made.parse(words[0])

    def load(self, data: Any) -> Any:
        if not isinstance(data, str):
            raise ValueError(self.phrase)
        return self.made.parse(data)

    def dump(self, value: Any) -> str:
        return self.write(value)

    def valid(self, value: Any) -> bool:
        return isinstance(value, self.made)


class _Card(_Word):
    placeholder = "CARD"
    phrase = "a card code such as 9C"
    made = Card

    def write(self, value: Card) -> str:
        return value.code

    def schema(self) -> dict[str, Any]:
        return {"type": "string", "pattern": "^[A2-9TJQK][CDHS]$", "examples": ["9C"]}

    def form(self) -> dict[str, Any]:
        return {"type": "card"}


class _Suit(_Word):
    placeholder = "SUIT"
    phrase = "a suit, one of C, D, H, S"
    made = Suit

    def write(self, value: Suit) -> str:
        return value.letter

    def schema(self) -> dict[str, Any]:
        # Suit.parse also reads a name or a symbol, so the body takes a short text; records write the letter.
        return {"type": "string", "minLength": 1, "maxLength": 8, "examples": ["H"]}

    def form(self) -> dict[str, Any]:
        return {"type": "suit", "choices": ["C", "D", "H", "S"]}


@dataclass(frozen=True)
class Count(Value):
    """A whole number from ``least`` (to ``most``, if given)."""

    least: int = 1
    most: int | None = None
    placeholder: ClassVar[str] = "N"

    @property
    def phrase(self) -> str:  # type: ignore[override]
        return f"a whole number, at least {self.least}" + ("" if self.most is None else f" and at most {self.most}")

    def read(self, words: list[str]) -> int:
        word = words[0]
        if not (word.isascii() and word.isdigit()):
            raise ValueError(self.phrase)
        return self.load(int(word))

    def load(self, data: Any) -> int:
        if not self.valid(data):
            raise ValueError(self.phrase)
        return int(data)

    def valid(self, value: Any) -> bool:
        return type(value) is int and value >= self.least and (self.most is None or value <= self.most)

    def schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "integer", "minimum": self.least}
        if self.most is not None:
            schema["maximum"] = self.most
        return schema

    def form(self) -> dict[str, Any]:
        return {"type": "count", "least": self.least, "most": self.most}


@dataclass(frozen=True)
class Choice(Value):
    """One word of a fixed few (a Forecaster's ``right`` or ``wrong``)."""

    words: tuple[str, ...]

    @property
    def placeholder(self) -> str:  # type: ignore[override]
        return "|".join(self.words)

    @property
    def phrase(self) -> str:  # type: ignore[override]
        return " or ".join(repr(w) for w in self.words)

    def read(self, words: list[str]) -> str:
        return self.load(words[0])

    def load(self, data: Any) -> str:
        if data not in self.words:
            raise ValueError(self.phrase)
        return str(data)

    def valid(self, value: Any) -> bool:
        return value in self.words

    def schema(self) -> dict[str, Any]:
        return {"type": "string", "enum": list(self.words)}

    def form(self) -> dict[str, Any]:
        return {"type": "choice", "choices": list(self.words)}


@dataclass(frozen=True)
class Cards(Value):
    """Cards in the order played, ``least`` to ``most`` of them."""

    least: int
    most: int
    placeholder: ClassVar[str] = "CARD CARD ..."
    rest: ClassVar[bool] = True

    @property
    def phrase(self) -> str:  # type: ignore[override]
        return f"{self.least} to {self.most} cards in the order played"

    def read(self, words: list[str]) -> tuple[Card, ...]:
        if not self.least <= len(words) <= self.most:
            raise ValueError(self.phrase)
        return tuple(Card.parse(w) for w in words)

    def write(self, value: tuple[Card, ...]) -> str:
        return " ".join(c.code for c in value)

    def load(self, data: Any) -> tuple[Card, ...]:
        if not isinstance(data, list) or not all(isinstance(c, str) for c in data):
            raise ValueError('a list of card codes, e.g. ["3H", "4H"]')
        return self.read(data)

    def dump(self, value: tuple[Card, ...]) -> list[str]:
        return [c.code for c in value]

    def valid(self, value: Any) -> bool:
        return (
            isinstance(value, tuple)
            and self.least <= len(value) <= self.most
            and all(isinstance(c, Card) for c in value)
        )

    def schema(self) -> dict[str, Any]:
        return {"type": "array", "items": _Card().schema(), "minItems": self.least, "maxItems": self.most}

    def form(self) -> dict[str, Any]:
        return {"type": "cards", "least": self.least, "most": self.most}


@dataclass(frozen=True)
class Text(Value):
    """Free text, the rest of the move's text form as typed (a dealer's rule)."""

    most: int = 2000
    placeholder: ClassVar[str] = "TEXT"
    phrase: ClassVar[str] = "text"
    rest: ClassVar[bool] = True

    def read(self, words: list[str]) -> str:
        return " ".join(words)  # replaced by the raw text in Move.parse, spacing kept

    def load(self, data: Any) -> str:
        if not isinstance(data, str) or not 1 <= len(data) <= self.most:
            raise ValueError(f"text of 1 to {self.most} characters")
        return data

    def valid(self, value: Any) -> bool:
        return isinstance(value, str)

    def schema(self) -> dict[str, Any]:
        return {"type": "string", "minLength": 1, "maxLength": self.most}

    def form(self) -> dict[str, Any]:
        return {"type": "text", "most": self.most}


CARD: Value = _Card()
SUIT: Value = _Suit()
COUNT = Count()


# --- Declarations ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Field:
    """One field of a kind of move.

    ``name`` is the :class:`Move` attribute (``card``, ``suit``, ``then``, ``amount``,
    ``cards``, ``verdict``, ``text``; any other name is kept in :attr:`Move.extra` and read
    with :meth:`Move.get`); ``member`` its JSON member if another (``call`` for ``verdict``);
    ``word`` the text form's keyword before it (``naming``), or none for a field that stands
    in its place; ``noun`` how errors name it; ``secret`` a field a record never holds (a
    dealer's rule: its commitment and reveal do); ``unread`` what a game whose declaration
    lacks the field says of a move that names it.
    """

    name: str
    value: Value
    optional: bool = False
    word: str | None = None
    member: str = ""
    noun: str = ""
    secret: bool = False
    unread: str = ""
    doc: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "member", self.member or self.name)
        object.__setattr__(self, "noun", self.noun or self.member)
        object.__setattr__(self, "unread", self.unread or f"names no {self.noun}")

    def to_json(self) -> dict[str, Any]:
        out = {"name": self.member, "optional": self.optional, **self.value.form()}
        if self.doc:
            out["doc"] = self.doc
        return out


Check = Callable[["Move"], "str | None"]


@dataclass(frozen=True, eq=False)
class MoveKind:
    """A kind of move as a game declares it: its name, its fields (in text order), what the
    browser's button says (``label``), its key and what the key hint says it does (``hint``:
    "bids (the amount box)"), how the table's log says it (``said``, a template of the JSON
    members: "bid {amount} for the extra hand"), and a check across fields (``check`` returns
    why a move is malformed, or ``None``). Calling it makes a move.

    Two games may declare one name with more or fewer optional fields (Crazy Eights'
    :data:`PLAY`, Spin's :data:`PLAY_THEN`): a move is well formed if the widest reads it,
    and a game reads only the fields its own declaration has (:meth:`Rules.unread`).
    """

    name: str
    fields: tuple[Field, ...] = ()
    label: str = ""
    key: str = ""
    doc: str = ""
    check: Check | None = None
    hint: str = ""
    said: str = ""
    declare: InitVar[bool] = True
    """Whether this is a game's declaration (the widest of same-named ones is not)."""
    _absent: tuple[str, ...] = _field(default=(), repr=False, init=False)

    def __post_init__(self, declare: bool) -> None:
        object.__setattr__(self, "label", self.label or self.name.replace("-", " ").capitalize())
        mine = {f.name for f in self.fields}
        object.__setattr__(self, "_absent", tuple(n for n in Move.VOCABULARY if n not in mine))
        if declare:
            _declare(self)

    def __call__(self, *values: Any, **named: Any) -> Move:
        """The move of this kind with these field values, positional in declared order.

        >>> DRAW() is DRAW(), PLAY(Card.parse("8H"), Suit.SPADES)
        (True, Move.play(Card.parse('8H'), Suit.SPADES))
        """
        if not values and not named and not self.fields:
            return _simple(self.name)
        for f, value in zip(self.fields, values):
            named[f.name] = value
        return Move.of(self.name, named)

    @property
    def syntax(self) -> str:
        """The text form: ``play CARD [naming SUIT] [then CARD]``."""
        parts = [self.name]
        for f in self.fields:
            part = f.value.placeholder if f.word is None else f"{f.word} {f.value.placeholder}"
            parts.append(f"[{part}]" if f.optional else part)
        return " ".join(parts)

    def problem(self, move: Move) -> str | None:
        """Why ``move`` (of this kind's name) is malformed for this declaration, or ``None``."""
        for name in self._absent:
            if getattr(move, name) is not None:
                return f"{a(self.name)} {VOCABULARY_UNREAD[name]}"
        for f in self.fields:
            value = move.get(f.name)
            if value is None:
                if not f.optional:
                    return f"{a(self.name)} names its {f.noun}"
            elif not f.value.valid(value):
                return f"{a(self.name)}'s {f.noun}: {f.value.phrase}, not {value!r}"
        mine = {f.name for f in self.fields}
        for name, _ in move.extra:
            if name not in mine:
                return f"{a(self.name)} names no {name}"
        return self.check(move) if self.check is not None else None

    def schema(self) -> dict[str, Any]:
        """The JSON Schema of this kind's JSON form (without the secret-less record's caveats:
        a secret field is in the body a seat sends, never in a record line)."""
        properties: dict[str, Any] = {"move": {"const": self.name}}
        for f in self.fields:
            properties[f.member] = {**f.value.schema(), "description": f.doc or f.noun.capitalize()}
        return {
            "title": "".join(part.capitalize() for part in self.name.split("-")) + "Move",
            "description": self.doc or f"{a(self.name).capitalize()}: {self.syntax}",
            "type": "object",
            "properties": properties,
            "required": ["move", *(f.member for f in self.fields if not f.optional)],
        }

    def form(self) -> dict[str, Any]:
        """What the catalogue's ``move_forms`` says of it, for the browser's controls."""
        return {
            "kind": self.name,
            "label": self.label,
            "key": self.key,
            "hint": self.hint,
            "said": self.said,
            "syntax": self.syntax,
            "fields": [f.to_json() for f in self.fields],
        }


VOCABULARY_UNREAD = {
    "card": "names no card",
    "suit": "names no suit",
    "then": "names no second card",
    "amount": "names no amount",
    "cards": "names no string of cards",
    "verdict": "makes no call",
    "text": "gives no rule",
}
"""What a move says of a field it names that its kind does not have (a field of
:attr:`Move.VOCABULARY`; a plugin's own fields are named by name)."""


_DECLARED: dict[str, list[MoveKind]] = {}
_WIDEST: dict[str, MoveKind] = {}
_MEMBERS: list[str] = ["move"]
_FIND_MORE: list[Callable[[], None]] = []
"""What to call when a kind is not declared yet: fairdeal.rules loads every game (their
modules declare their kinds) without this module importing it."""


def _declare(kind: MoveKind) -> None:
    """Record ``kind``; same-named declarations must agree on every field they share."""
    known = _DECLARED.setdefault(kind.name, [])
    if any(k is kind for k in known):
        return
    for other in known:
        for f in kind.fields:
            same = next((g for g in other.fields if g.name == f.name), None)
            if same is not None and (same.value, same.word, same.member, same.secret) != (
                f.value,
                f.word,
                f.member,
                f.secret,
            ):
                raise MoveError(f"move {kind.name!r}: field {f.name!r} is declared twice, differently")
    known.append(kind)
    _WIDEST[kind.name] = kind if len(known) == 1 else _widest(kind.name, known)
    # A wider declaration may check more: moves made under the narrower one are made again.
    _SIMPLE.pop(kind.name, None)
    if kind.name == "play":
        _PLAYS.clear()
    for f in kind.fields:
        if f.member not in _MEMBERS:
            _MEMBERS.append(f.member)
    _MEMBERS_KNOWN[:] = [
        tuple(_MEMBERS),
        tuple(dict.fromkeys(f.member for ks in _DECLARED.values() for k in ks for f in k.fields if f.secret)),
    ]


def _widest(name: str, kinds: list[MoveKind]) -> MoveKind:
    """One declaration reading every field any of ``kinds`` has (required where all require it)."""
    fields: dict[str, Field] = {}
    for kind in sorted(kinds, key=lambda k: -len(k.fields)):
        for f in kind.fields:
            fields.setdefault(f.name, f)
    for f in list(fields.values()):
        if not f.optional and not all(any(g.name == f.name for g in k.fields) for k in kinds):
            fields[f.name] = Field(f.name, f.value, True, f.word, f.member, f.noun, f.secret, f.unread, f.doc)
    checks = [k.check for k in kinds if k.check is not None]

    def check(move: Move) -> str | None:
        return next((p for p in (c(move) for c in checks) if p), None)

    first = kinds[0]
    return MoveKind(
        name,
        tuple(fields.values()),
        first.label,
        first.key,
        first.doc,
        check if checks else None,
        first.hint,
        first.said,
        declare=False,
    )


def declared(name: str) -> MoveKind:
    """The widest declaration of the kind ``name`` (every installed game's kinds are found);
    raises :class:`MoveError`.

    >>> declared("play").syntax
    'play CARD [naming SUIT] [then CARD]'
    """
    kind = _WIDEST.get(name)
    if kind is None:
        for find in _FIND_MORE:
            find()
        kind = _WIDEST.get(name)
        if kind is None:
            raise MoveError(f"unknown move {name!r}: expected one of {', '.join(kinds())}")
    return kind


def kinds() -> list[str]:
    """Every declared kind's name (after loading every game), in declaration order."""
    for find in _FIND_MORE:
        find()
    return list(_WIDEST)


def members() -> tuple[str, ...]:
    """Every JSON member a move line may have (``move`` first): what a move read from JSON depends on.

    >>> members()[:4]
    ('move', 'card', 'suit', 'then')
    """
    for find in _FIND_MORE:
        find()
    return _MEMBERS_KNOWN[0]


def secret_members() -> tuple[str, ...]:
    """The members that carry a secret (a dealer's rule): in a seat's move, never in a record."""
    for find in _FIND_MORE:
        find()
    return _MEMBERS_KNOWN[1]


_MEMBERS_KNOWN: list[tuple[str, ...]] = [("move",), ()]
""":func:`members` and :func:`secret_members`, made again when a declaration adds one."""


# --- The move -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Move:
    """One action of a seat: its ``kind`` and the fields its declaration (:class:`MoveKind`)
    names. The fields common to many games are attributes (``card`` played, the ``suit`` an
    eight names, ``then`` a second card played with it, a bid's ``amount``, a string's
    ``cards``, a call's ``verdict``, a rule's ``text``); a plugin's other fields are in
    :attr:`extra`, read with :meth:`get`.

    >>> Move.play(Card.parse("8H"), Suit.SPADES).to_json()
    {'move': 'play', 'card': '8H', 'suit': 'S'}
    >>> Move.from_json({"move": "draw"})
    Move.draw()
    >>> str(Move.play(Card.parse("9C"))), Move.parse("play 9C then AD").to_json()
    ('play 9C', {'move': 'play', 'card': '9C', 'then': 'AD'})
    """

    kind: str
    card: Card | None = None
    suit: Suit | None = None
    then: Card | None = None
    amount: int | None = None
    cards: tuple[Card, ...] | None = None
    verdict: str | None = None
    text: str | None = None
    """A secret field's value (a dealer's rule as typed): never in a record; ``None`` in a move read from one."""
    extra: tuple[tuple[str, Any], ...] = ()
    """A plugin's own fields, ``(name, value)`` in name order."""

    VOCABULARY: ClassVar[tuple[str, ...]] = ("card", "suit", "then", "amount", "cards", "verdict", "text")

    def __post_init__(self) -> None:
        # Refuse a malformed move where it is made, not deep inside a game's rules (which
        # kinds and fields a game reads is the game's to say: Rules.unread).
        kind = _WIDEST.get(self.kind) or declared(self.kind)
        problem = kind.problem(self)
        if problem:
            raise MoveError(problem)

    @classmethod
    def of(cls, kind: str, values: Mapping[str, Any]) -> Move:
        """The move of ``kind`` with these fields by name (a plugin's among them)."""
        slots = {k: v for k, v in values.items() if k in cls.VOCABULARY}
        extra = tuple(sorted((k, v) for k, v in values.items() if k not in cls.VOCABULARY and v is not None))
        return cls(kind, **slots, extra=extra)

    def get(self, name: str) -> Any:
        """The field ``name``'s value, or ``None``."""
        if name in self.VOCABULARY:
            return getattr(self, name)
        return next((v for k, v in self.extra if k == name), None)

    @classmethod
    def play(cls, card: Card, suit: Suit | None = None, *, then: Card | None = None) -> Move:
        # The games make every legal play afresh at every turn; a move is a value, so each
        # (card, suit, then) is made, and checked, once.
        key = (card, suit, then)
        try:
            move = _PLAYS.get(key)
        except TypeError:  # not a card at all: the check below says so
            return cls("play", card, suit, then)
        if move is None:
            move = _PLAYS[key] = cls("play", card, suit, then)
        return move

    @classmethod
    def draw(cls) -> Move:
        return _simple("draw")

    @classmethod
    def keep(cls) -> Move:
        return _simple("keep")

    @classmethod
    def pass_(cls) -> Move:
        return _simple("pass")

    def __str__(self) -> str:
        parts = [self.kind]
        for f in _WIDEST[self.kind].fields:
            value = self.get(f.name)
            if value is not None:
                if f.word is not None:
                    parts.append(f.word)
                parts.append(f.value.write(value))
        return " ".join(parts)

    def __repr__(self) -> str:
        if self.kind == "play" and self.card is not None:
            return (
                f"Move.play(Card.parse({self.card.code!r})"
                + ("" if self.suit is None else f", Suit.{self.suit.name}")
                + ("" if self.then is None else f", then=Card.parse({self.then.code!r})")
                + ")"
            )
        if self.kind in ("draw", "keep", "pass"):
            return f"Move.{'pass_' if self.kind == 'pass' else self.kind}()"
        return f"Move.parse({str(self)!r})"

    def to_json(self) -> dict[str, Any]:
        """The move's fields as they appear in a record line (a secret field never does)."""
        out: dict[str, Any] = {"move": self.kind}
        for f in _WIDEST[self.kind].fields:
            value = self.get(f.name)
            if value is not None and not f.secret:
                out[f.member] = f.value.dump(value)
        return out

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move from its text form, the one ``str(move)`` writes (its kind's
        :attr:`MoveKind.syntax`); raises :class:`MoveError`.

        >>> Move.parse("play 8H naming S")
        Move.play(Card.parse('8H'), Suit.SPADES)
        >>> str(Move.parse("play 9C then AD")), Move.parse("pass")
        ('play 9C then AD', Move.pass_())
        >>> Move.parse("play 8H naming")
        Traceback (most recent call last):
        ...
        fairdeal.rules.move.MoveError: cannot read move 'play 8H naming': 'naming' is followed by a suit, one of C, D, H, S
        """
        if not isinstance(text, str):
            raise MoveError(f"a move's text is a string, not {text!r}")
        words = text.split()
        if not words:
            raise MoveError("cannot read an empty move")

        def fail(reason: str) -> MoveError:
            return MoveError(f"cannot read move {text!r}: {reason}")

        try:
            kind = declared(words[0])
        except MoveError as exc:
            raise fail(str(exc)) from None
        if not kind.fields:
            if len(words) > 1:
                raise fail(f"{a(kind.name)} takes nothing after it")
            return _simple(kind.name)
        values: dict[str, Any] = {}
        rest = words[1:]
        keyed = [f for f in kind.fields if f.word is not None]
        try:
            for f in kind.fields:
                if f.word is not None:
                    continue
                if not rest or rest[0] in {k.word for k in keyed}:
                    if f.optional:
                        continue
                    raise fail(f"{a(kind.name)} names its {f.noun}: '{kind.syntax}'")
                if f.value.rest:
                    taken, rest = rest, []
                    # Free text keeps its spacing as typed: everything after the kind's word.
                    values[f.name] = (
                        text.strip().split(None, 1)[1] if isinstance(f.value, Text) else f.value.read(taken)
                    )
                else:
                    values[f.name] = f.value.read(rest[:1])
                    rest = rest[1:]
            for f in keyed:
                if rest and rest[0] == f.word:
                    if len(rest) < 2:
                        raise fail(f"'{f.word}' is followed by {f.value.phrase}")
                    values[f.name] = f.value.read(rest[1:] if f.value.rest else rest[1:2])
                    rest = [] if f.value.rest else rest[2:]
            if rest:
                raise fail(f"unexpected {rest[0]!r}: {a(kind.name)} is '{kind.syntax}'")
            return cls.of(kind.name, values)
        except MoveError as exc:
            if str(exc).startswith("cannot read move"):
                raise
            raise fail(str(exc)) from None
        except (CardError, ValueError) as exc:
            raise fail(f"{a(kind.name)} is '{kind.syntax}' ({exc})") from None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Move:
        """Read a move from its JSON form, ``{"move": kind, ...fields}`` as :meth:`to_json`
        writes it (a seat's body may add its secret fields); members no move has (a record
        line's ``type``, ``seat``) are not read. Raises :class:`MoveError`."""
        if not isinstance(data, Mapping):
            raise MoveError("a move is a JSON object")
        name = data.get("move")
        if not isinstance(name, str):
            raise MoveError(f"unknown move {name!r}: expected one of {', '.join(kinds())}")
        kind = declared(name)
        if not kind.fields:
            for member in _MEMBERS[1:]:
                if data.get(member) is not None:
                    raise MoveError(f"{a(name)} {_unread_member(member)}")
            return _simple(name)
        values: dict[str, Any] = {}
        mine = {f.member for f in kind.fields}
        for member in _MEMBERS[1:]:
            if member not in mine and data.get(member) is not None:
                raise MoveError(f"{a(name)} {_unread_member(member)}")
        for f in kind.fields:
            raw = data.get(f.member)
            if raw is None:
                continue
            try:
                values[f.name] = f.value.load(raw)
            except CardError as exc:
                raise MoveError(str(exc)) from None
            except ValueError:
                raise MoveError(f"{a(name)}'s {f.noun}: {f.value.phrase}, not {raw!r}") from None
        return cls.of(name, values)


def _unread_member(member: str) -> str:
    for kinds_ in _DECLARED.values():
        for kind in kinds_:
            for f in kind.fields:
                if f.member == member:
                    return VOCABULARY_UNREAD.get(f.name, f"names no {f.noun}")
    return f"names no {member}"


_SIMPLE: dict[str, Move] = {}
_PLAYS: dict[tuple[Card, Suit | None, Card | None], Move] = {}


def _simple(name: str) -> Move:
    """The one move of a kind without fields (``Move.draw() is Move.draw()``)."""
    move = _SIMPLE.get(name)
    if move is None:
        move = _SIMPLE[name] = Move(name)
    return move


def _then_is_another(move: Move) -> str | None:
    if move.then is not None and move.then == move.card:
        return "a play's second card ('then') is another card than its own"
    return None


PLAY = MoveKind(
    "play",
    (
        Field("card", CARD, doc="The card played."),
        Field("suit", SUIT, optional=True, word="naming", doc="The suit an eight names: C, D, H or S."),
    ),
    label="Play",
    doc="Play a card (an eight names a suit).",
)
PLAY_THEN = MoveKind(
    "play",
    PLAY.fields
    + (
        Field(
            "then",
            CARD,
            optional=True,
            word="then",
            noun="second card",
            unread="plays one card at a time",
            doc="A second card played with the card (Spin's AD, Commit's 9D).",
        ),
    ),
    label="Play",
    doc="Play a card, and perhaps a second with it.",
    check=_then_is_another,
)
DRAW = MoveKind("draw", label="Draw", key="D", hint="draws", said="drew a card", doc="Draw a card from the stock.")
KEEP = MoveKind(
    "keep",
    label="Keep",
    key="K",
    hint="keeps",
    said="kept the card",
    doc="Keep the card just drawn (or one's own hand).",
)
PASS = MoveKind("pass", label="Pass", key="P", hint="passes", said="passed", doc="Pass the turn.")

BASIC = (PLAY, DRAW, KEEP, PASS)
"""The four every game reads (or refuses with its own reason)."""
