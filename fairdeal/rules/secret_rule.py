"""Eleusis's secret rules: a small language, its reader and its judge.

A secret rule is one expression that is true or false for the card played,
judged against the layout so far (spec/games/eleusis.md, "The rule language", is the
contract). A rule is read once, checked for types, and turned into Python
closures; judging a card never reads text again. Its canonical text is what
the table commits to before the first card.

>>> from fairdeal.cards import Card, parse_cards
>>> rule = SecretRule.parse("IF odd(last.rank) THEN card.colour=black ELSE card.colour=red")
>>> rule.text
'if odd(last.rank) then card.colour = black else card.colour = red'
>>> rule.accepts(parse_cards("7C"), Card.parse("2S"), sidelines=0)
True
>>> rule.accepts(parse_cards("7C"), Card.parse("2H"), sidelines=0)
False
>>> SecretRule.parse("card.suit = 3")
Traceback (most recent call last):
...
fairdeal.rules.secret_rule.RuleError: rule 'card.suit = 3' at column 11: card.suit = 3: a suit compares with a suit, not a number
"""

from __future__ import annotations

import difflib
import enum
import operator
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import Literal
from typing import NoReturn

from fairdeal.cards import Card
from fairdeal.cards import Suit
from fairdeal.said import Said

__all__ = [
    "EXAMPLES",
    "Env",
    "LIBRARY",
    "MAX_DEPTH",
    "MAX_NODES",
    "MAX_RULE_CHARS",
    "RuleError",
    "Play",
    "SecretRule",
    "SYNTAX_HELP",
]

MAX_RULE_CHARS = 500
"""The longest rule, in characters, both as written and in canonical text."""
MAX_NODES = 200
"""The most numbers, names and operators a rule may hold."""
MAX_DEPTH = 32
"""The deepest a rule's tree may nest (and parentheses, as written)."""

SYNTAX_HELP = """\
A rule is true or false for the card played; "last" is the last card on the mainline (at first, the starter).
Cards: card, last, last2, last3 (the ones before last; the starter when the mainline is shorter).
Read a card as card.rank (A=1 ... 10, J=11, Q=12, K=13), card.suit (clubs diamonds hearts spades),
card.colour (red black) or card.face (J, Q or K). Counts: mainline, sidelines, layout. Numbers 0 to 999.
Functions odd(n), even(n), abs(n); operators + - * mod, = != < <= > >=, not, and, or, true, false,
if ... then ... else ..., and ( ). Example: if odd(last.rank) then card.colour = black else card.colour = red"""


class RuleError(ValueError):
    """A rule that cannot be read: ``position`` (1-based character column, or None), ``reason``.

    >>> err = RuleError("card.rank >", 12, "expected a number, a name or '(', found the end of the rule")
    >>> str(err)
    "rule 'card.rank >' at column 12: expected a number, a name or '(', found the end of the rule"
    >>> err.position, isinstance(err, ValueError)
    (12, True)
    """

    text: str
    position: int | None
    reason: str

    def __init__(self, text: str, position: int | None, reason: str) -> None:
        self.text = text
        self.position = position
        self.reason = reason
        quoted = repr(_excerpt(text, position))
        if position is None:
            super().__init__(Said("rule {rule}: {reason}", rule=quoted, reason=reason))
        else:
            super().__init__(
                Said("rule {rule} at column {column}: {reason}", rule=quoted, column=position, reason=reason)
            )


def _excerpt(text: str, position: int | None, width: int = 60) -> str:
    """The rule as an error message quotes it: whole when short, else the part around ``position``."""
    if len(text) <= width:
        return text
    start = max(0, min((position or 1) - 1 - width // 2, len(text) - width))
    piece = text[start : start + width]
    return ("..." if start > 0 else "") + piece + ("..." if start + width < len(text) else "")


# --- the vocabulary -------------------------------------------------------


class _Type(enum.Enum):
    NUMBER = "a number"
    CONDITION = "a condition"
    SUIT = "a suit"
    COLOUR = "a colour"

    @property
    def noun(self) -> Said:
        return _NOUNS[self]


_N, _B, _S, _C = _Type.NUMBER, _Type.CONDITION, _Type.SUIT, _Type.COLOUR
_NOUNS = {_N: Said("a number"), _B: Said("a condition"), _S: Said("a suit"), _C: Said("a colour")}

# Typed as the literal slots so that ``env[slot]`` is known to be a card (or a count).
_CARD_VALUES: dict[str, Literal[0, 1, 2, 3]] = {"card": 0, "last": 1, "last2": 2, "last3": 3}
"""Card names and their place in the judging environment."""
_ATTRIBUTES = {"rank": _N, "suit": _S, "colour": _C, "face": _B}
_COUNTS: dict[str, Literal[4, 5, 6]] = {"mainline": 4, "sidelines": 5, "layout": 6}
"""Count names and their place in the judging environment."""
_CONSTANTS: dict[str, tuple[_Type, object]] = {
    "clubs": (_S, Suit.CLUBS),
    "diamonds": (_S, Suit.DIAMONDS),
    "hearts": (_S, Suit.HEARTS),
    "spades": (_S, Suit.SPADES),
    "red": (_C, "red"),
    "black": (_C, "black"),
    "true": (_B, True),
    "false": (_B, False),
}
_FUNCTIONS = {"odd": _B, "even": _B, "abs": _N}
"""Each function takes one number; what it gives."""
_KEYWORDS = frozenset({"and", "or", "not", "if", "then", "else", "mod"})
_VOCABULARY = sorted({*_CARD_VALUES, *_ATTRIBUTES, *_COUNTS, *_CONSTANTS, *_FUNCTIONS, *_KEYWORDS})

_COLOUR_OF_SUIT = ("black", "red", "red", "black")
"""Indexed by suit: clubs, diamonds, hearts, spades."""

# Foreign spellings a person may try, and what this language writes instead.
_FOREIGN = {
    "==": Said("equality is written '='"),
    "<>": Said("write '!=' for not equal"),
    "=<": Said("write {op}", op="'<='"),
    "=>": Said("write {op}", op="'>='"),
    "&&": Said("write {op}", op="'and'"),
    "||": Said("write {op}", op="'or'"),
    "!": Said("write 'not', or '!=' for not equal"),
    "&": Said("write {op}", op="'and'"),
    "|": Said("write {op}", op="'or'"),
    "%": Said("write {op}", op="'mod'"),
    "/": Said("there is no division; 'mod' gives the remainder"),
}
_OPERATORS = ("!=", "<=", ">=", "(", ")", ".", "=", "<", ">", "+", "-", "*")

# --- the tree -------------------------------------------------------------
# Every node keeps the column where it starts as written (for the depth error
# only); it takes no part in comparing trees.

_IF, _OR, _AND, _NOT, _CMP, _ADD, _MUL, _ATOM = range(8)
"""Precedence levels, loosest first."""


@dataclass(frozen=True, slots=True)
class _Number:
    value: int
    column: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class _Name:
    """A constant (``hearts``, ``red``, ``true``) or a count (``mainline``)."""

    name: str
    column: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class _Attribute:
    card: str
    attribute: str
    column: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class _Call:
    function: str
    argument: _Node
    column: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class _Not:
    operand: _Node
    column: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class _Compare:
    op: str
    left: _Node
    right: _Node
    column: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class _Chain:
    """Operands joined by operators of one level: ``a - b + c``, ``a and b and c``."""

    ops: tuple[str, ...]
    operands: tuple[_Node, ...]
    column: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class _If:
    condition: _Node
    then: _Node
    otherwise: _Node
    column: int = field(default=0, compare=False)


_Node = _Number | _Name | _Attribute | _Call | _Not | _Compare | _Chain | _If

_CHAIN_LEVEL = {"or": _OR, "and": _AND, "+": _ADD, "-": _ADD, "*": _MUL, "mod": _MUL}


def _level(node: _Node) -> int:
    if isinstance(node, _If):
        return _IF
    if isinstance(node, _Chain):
        return _CHAIN_LEVEL[node.ops[0]]
    if isinstance(node, _Not):
        return _NOT
    if isinstance(node, _Compare):
        return _CMP
    return _ATOM


def _type(node: _Node) -> _Type:
    if isinstance(node, _Number):
        return _N
    if isinstance(node, _Name):
        return _N if node.name in _COUNTS else _CONSTANTS[node.name][0]
    if isinstance(node, _Attribute):
        return _ATTRIBUTES[node.attribute]
    if isinstance(node, _Call):
        return _FUNCTIONS[node.function]
    if isinstance(node, _Chain):
        return _B if _level(node) in (_OR, _AND) else _N
    if isinstance(node, _If):
        return _type(node.then)
    return _B


def _canonical(node: _Node, need: int = _IF) -> str:
    """The one spelling of ``node``, in parentheses when its level is looser than ``need``."""
    text = _bare(node)
    return f"({text})" if _level(node) < need else text


def _bare(node: _Node) -> str:
    if isinstance(node, _Number):
        return str(node.value)
    if isinstance(node, _Name):
        return node.name
    if isinstance(node, _Attribute):
        return f"{node.card}.{node.attribute}"
    if isinstance(node, _Call):
        return f"{node.function}({_canonical(node.argument)})"
    if isinstance(node, _Not):
        return "not " + _canonical(node.operand, _NOT)
    if isinstance(node, _Compare):
        return f"{_canonical(node.left, _ADD)} {node.op} {_canonical(node.right, _ADD)}"
    if isinstance(node, _Chain):
        level = _level(node)
        # Operators are read from the left: an operand to the right of one needs
        # parentheses when it is a chain of the same level (a - (b - c)).
        parts = [_canonical(node.operands[0], level)]
        for op, operand in zip(node.ops, node.operands[1:]):
            parts.append(f"{op} {_canonical(operand, level + 1)}")
        return " ".join(parts)
    assert isinstance(node, _If)
    return f"if {_canonical(node.condition, _OR)} then {_canonical(node.then, _OR)} else {_canonical(node.otherwise)}"


def _snippet(node: _Node, width: int = 60) -> str:
    text = _canonical(node)
    return text if len(text) <= width else text[: width - 3] + "..."


def _depth(node: _Node) -> tuple[int, int]:
    """The tree's height under ``node`` (a leaf is 1) and the column of its deepest leaf."""
    if isinstance(node, _Call):
        children: tuple[_Node, ...] = (node.argument,)
    elif isinstance(node, _Not):
        children = (node.operand,)
    elif isinstance(node, _Compare):
        children = (node.left, node.right)
    elif isinstance(node, _Chain):
        children = node.operands
    elif isinstance(node, _If):
        children = (node.condition, node.then, node.otherwise)
    else:
        return 1, node.column
    height, column = max((_depth(child) for child in children), key=lambda hc: hc[0])
    return height + 1, column


# --- reading: characters, tokens, the tree ---------------------------------


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str
    """``"number"``, ``"name"`` (keywords too, lower-cased), ``"op"`` or ``"end"``."""
    text: str
    column: int
    value: int = 0

    def describe(self) -> str:
        if self.kind == "end":
            return Said("the end of the rule")
        if self.kind == "number":
            return Said("the number {n}", n=self.text)
        return f"'{self.text}'"


def _tokens(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        column = i + 1
        if ch == " ":
            i += 1
        elif "0" <= ch <= "9":
            j = i
            while j < n and "0" <= text[j] <= "9":
                j += 1
            value = int(text[i:j])
            if value > 999:
                raise RuleError(text, column, Said("numbers go from 0 to 999, not {n}", n=text[i:j]))
            tokens.append(_Token("number", str(value), column, value))
            i = j
        elif ch.isascii() and ch.isalpha():
            j = i
            while j < n and text[j].isascii() and (text[j].isalnum() or text[j] == "_"):
                j += 1
            tokens.append(_Token("name", text[i:j].lower(), column))
            i = j
        else:
            two = text[i : i + 2]
            if two in _FOREIGN:
                raise RuleError(text, column, Said("{op}: {hint}", op=f"'{two}'", hint=_FOREIGN[two]))
            if two in _OPERATORS:
                tokens.append(_Token("op", two, column))
                i += 2
            elif ch in _FOREIGN:
                raise RuleError(text, column, Said("{op}: {hint}", op=f"'{ch}'", hint=_FOREIGN[ch]))
            elif ch in _OPERATORS:
                tokens.append(_Token("op", ch, column))
                i += 1
            else:
                raise RuleError(text, column, Said("{char} is not part of the rule language", char=f"'{ch}'"))
    tokens.append(_Token("end", "", n + 1))
    return tokens


def _check_characters(text: str) -> None:
    for i, ch in enumerate(text):
        if not " " <= ch <= "~":
            kind = Said("a control character") if ord(ch) < 32 or ord(ch) == 127 else Said("not plain ASCII")
            said = Said(
                "character {code} is {kind}; a rule is written in plain ASCII", code=f"U+{ord(ch):04X}", kind=kind
            )
            raise RuleError(text, i + 1, said)


_ATOM_EXPECTED = Said("a number, a name or '('")


class _Reader:
    """Recursive descent over the tokens, one method per precedence level; types are
    checked as each node is built, so an error points at the operator that has them wrong."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokens(text)
        self.at = 0
        self.nodes = 0
        self.parens = 0

    @property
    def token(self) -> _Token:
        return self.tokens[self.at]

    def is_name(self, *names: str) -> bool:
        return self.token.kind == "name" and self.token.text in names

    def is_op(self, *ops: str) -> bool:
        return self.token.kind == "op" and self.token.text in ops

    def take(self, node_token: bool = False) -> _Token:
        """The token under the reader, moving past it; ``node_token`` if it makes a node."""
        token = self.token
        self.at += 1
        if node_token:
            self.nodes += 1
            if self.nodes > MAX_NODES:
                self.fail(token.column, Said("a rule holds at most {n} numbers, names and operators", n=MAX_NODES))
        return token

    def fail(self, column: int | None, reason: str) -> NoReturn:
        raise RuleError(self.text, column, reason)

    def expected(self, what: str) -> NoReturn:
        self.fail(self.token.column, Said("expected {what}, found {found}", what=what, found=self.token.describe()))

    def type_error(self, column: int, node: _Node, reason: str) -> NoReturn:
        self.fail(column, Said("{part}: {reason}", part=_snippet(node), reason=reason))

    # rule = expr
    def rule(self) -> _Node:
        if self.token.kind == "end":
            self.fail(1, Said("the rule is empty; it must say which cards are right, e.g. card.colour != last.colour"))
        node = self.expr()
        if self.token.kind != "end":
            if self.is_op(")"):
                self.fail(self.token.column, Said("unbalanced ')': there is no '(' for it"))
            if self.is_name("then", "else"):
                self.fail(self.token.column, Said("{word} with no 'if' before it", word=f"'{self.token.text}'"))
            self.expected(Said("an operator or the end of the rule"))
        if _type(node) is not _B:
            self.fail(
                1, Said("a rule must be a condition (true or false for the card), not {noun}", noun=_type(node).noun)
            )
        return node

    # expr = if_expr | or_expr
    def expr(self) -> _Node:
        if self.is_name("if"):
            return self.if_expr()
        return self.chain(("or",), self.and_expr)

    # if_expr = "if" or_expr "then" or_expr "else" expr
    # (an 'if' may follow 'else' bare, so else-if chains read plainly; elsewhere it is in parentheses)
    def if_expr(self) -> _Node:
        start = self.take(node_token=True).column
        condition_column = self.token.column
        condition = self.chain(("or",), self.and_expr)
        if _type(condition) is not _B:
            self.type_error(
                condition_column,
                condition,
                Said("the condition of an 'if' must be true or false, not {noun}", noun=_type(condition).noun),
            )
        if not self.is_name("then"):
            self.expected(Said("'then' for the 'if' at column {column}", column=start))
        self.take()
        then = self.chain(("or",), self.and_expr)
        if not self.is_name("else"):
            self.expected(Said("'else' for the 'if' at column {column} (every 'if' has one)", column=start))
        else_column = self.take().column
        otherwise = self.expr()
        if _type(then) is not _type(otherwise):
            self.fail(
                else_column,
                Said(
                    "the branches of the 'if' at column {column} must be of one type: "
                    "'then' gives {then}, 'else' gives {otherwise}",
                    column=start,
                    then=_type(then).noun,
                    otherwise=_type(otherwise).noun,
                ),
            )
        return _If(condition, then, otherwise, start)

    def and_expr(self) -> _Node:
        return self.chain(("and",), self.not_expr)

    def chain(self, ops: tuple[str, ...], operand: Callable[[], _Node]) -> _Node:
        """``operand { op operand }`` for one level; and/or merge nested chains of themselves."""
        first = operand()
        if not (self.is_name(*ops) or self.is_op(*ops)):
            return first
        logical = ops[0] in ("and", "or")
        wanted = _B if logical else _N
        node_ops: list[str] = []
        operands = [first]
        if isinstance(first, _Chain) and first.ops[0] in ops:
            # (a + b) - c is a + b - c: the same tree, so the same text.
            node_ops, operands = list(first.ops), list(first.operands)
        unchecked = [first]
        while self.is_name(*ops) or self.is_op(*ops):
            token = self.take(node_token=True)
            right = operand()
            if logical and isinstance(right, _Chain) and right.ops[0] == token.text:
                # a and (b and c) is a and b and c: and/or do not care how they group.
                node_ops += [token.text] * len(right.operands)
                operands += right.operands
            else:
                node_ops.append(token.text)
                operands.append(right)
            for side in unchecked + [right]:
                if _type(side) is not wanted:
                    built = _Chain(tuple(node_ops), tuple(operands), first.column)
                    op, noun = f"'{token.text}'", _type(side).noun
                    if logical:
                        self.type_error(
                            token.column, built, Said("{op} joins conditions, not {noun}", op=op, noun=noun)
                        )
                    self.type_error(token.column, built, Said("{op} takes numbers, not {noun}", op=op, noun=noun))
            unchecked = []
        return _Chain(tuple(node_ops), tuple(operands), first.column)

    # not_expr = "not" not_expr | comparison
    def not_expr(self) -> _Node:
        if not self.is_name("not"):
            return self.comparison()
        token = self.take(node_token=True)
        operand = self.not_expr()
        node = _Not(operand, token.column)
        if _type(operand) is not _B:
            self.type_error(token.column, node, Said("'not' takes a condition, not {noun}", noun=_type(operand).noun))
        return node

    # comparison = sum [ ("=" | "!=" | "<" | "<=" | ">" | ">=") sum ]
    def comparison(self) -> _Node:
        comparisons = ("=", "!=", "<", "<=", ">", ">=")
        left = self.chain(("+", "-"), self.product)
        if not self.is_op(*comparisons):
            return left
        token = self.take(node_token=True)
        right = self.chain(("+", "-"), self.product)
        node = _Compare(token.text, left, right, left.column)
        if self.is_op(*comparisons):
            self.fail(
                self.token.column,
                Said(
                    "comparisons do not chain; join them with 'and': a {first} b and b {second} c",
                    first=token.text,
                    second=self.token.text,
                ),
            )
        lt, rt = _type(left), _type(right)
        if token.text in ("=", "!="):
            if lt is not rt:
                self.type_error(
                    token.column, node, Said("{left} compares with {left}, not {right}", left=lt.noun, right=rt.noun)
                )
        elif lt is not _N or rt is not _N:
            other = lt if lt is not _N else rt
            self.type_error(
                token.column,
                node,
                Said("{op} compares numbers; {noun} has only = and !=", op=f"'{token.text}'", noun=other.noun),
            )
        return node

    def product(self) -> _Node:
        return self.chain(("*", "mod"), self.atom)

    # atom = number | constant | count | card_value "." attribute | function "(" expr ")" | "(" expr ")"
    def atom(self) -> _Node:
        token = self.token
        if token.kind == "number":
            self.take(node_token=True)
            return _Number(token.value, token.column)
        if self.is_op("("):
            return self.parenthesised(self.take())
        if self.is_op("-"):
            self.fail(
                token.column,
                Said(
                    "expected {what}, found '-': numbers go from 0 to 999; a negative one is written 0 - 1",
                    what=_ATOM_EXPECTED,
                ),
            )
        if token.kind != "name":
            self.expected(_ATOM_EXPECTED)
        name = token.text
        if name in _CARD_VALUES:
            self.take(node_token=True)
            if not self.is_op("."):
                self.fail(
                    self.token.column,
                    Said(
                        "{name} is a card: read it as {name}.rank, {name}.suit, {name}.colour or {name}.face", name=name
                    ),
                )
            self.take()
            attribute = self.token
            if attribute.kind != "name" or attribute.text not in _ATTRIBUTES:
                self.fail(attribute.column, self._unknown_attribute(name, attribute))
            self.take()
            return _Attribute(name, attribute.text, token.column)
        if name in _CONSTANTS or name in _COUNTS:
            self.take(node_token=True)
            return _Name(name, token.column)
        if name in _FUNCTIONS:
            self.take(node_token=True)
            if not self.is_op("("):
                self.expected(Said("'(' after {name}: {name}(card.rank)", name=name))
            opened = self.take()
            argument_column = self.token.column
            argument = self.parenthesised(opened)
            node = _Call(name, argument, token.column)
            if _type(argument) is not _N:
                self.type_error(
                    argument_column,
                    node,
                    Said("{name} takes a number, not {noun}", name=name, noun=_type(argument).noun),
                )
            return node
        if name in _ATTRIBUTES:
            if self.tokens[self.at + 1].text == "(":
                self.fail(
                    token.column, Said("{name} is read from a card: write card.{name}, not {name}(card)", name=name)
                )
            self.fail(token.column, Said("{name} is read from a card: card.{name}, last.{name}, ...", name=name))
        if name == "if":
            self.fail(
                token.column,
                Said(
                    "this 'if' must be in parentheses, (if ... then ... else ...): "
                    "only a whole rule, the part after 'else' or a part in parentheses is a bare 'if'"
                ),
            )
        if name in _KEYWORDS:
            self.expected(_ATOM_EXPECTED)
        close = difflib.get_close_matches(name, _VOCABULARY, n=1, cutoff=0.6)
        if close:
            self.fail(
                token.column,
                Said("unknown name {name}; did you mean {close}?", name=f"'{name}'", close=f"'{close[0]}'"),
            )
        self.fail(token.column, Said("unknown name {name}", name=f"'{name}'"))

    def parenthesised(self, opened: _Token) -> _Node:
        """The expression after the '(' ``opened``, up to its ')'."""
        # Counted as written, so that a text of redundant parentheses cannot recurse deep.
        self.parens += 1
        if self.parens > MAX_DEPTH:
            self.fail(opened.column, Said("parentheses nest at most {n} deep", n=MAX_DEPTH))
        node = self.expr()
        if not self.is_op(")"):
            self.expected(Said("')' to close the '(' at column {column}", column=opened.column))
        self.take()
        self.parens -= 1
        return node

    @staticmethod
    def _unknown_attribute(card: str, token: _Token) -> str:
        if token.kind != "name":
            return Said(
                "expected rank, suit, colour or face after {card}, found {found}",
                card=f"'{card}.'",
                found=token.describe(),
            )
        if token.text in _FUNCTIONS:
            return Said("{name} is a function of a number: {name}({card}.rank)", name=token.text, card=card)
        close = difflib.get_close_matches(token.text, list(_ATTRIBUTES), n=1, cutoff=0.6)
        if close:
            return Said(
                "unknown attribute {name}; did you mean {close}?", name=f"'{token.text}'", close=f"'{close[0]}'"
            )
        return Said("unknown attribute {name}; a card has rank, suit, colour and face", name=f"'{token.text}'")


# --- judging ---------------------------------------------------------------

Env = tuple[Card, Card, Card, Card, int, int, int]
"""A judging environment, one per card of a :class:`Play`: card, last, last2, last3, mainline,
sidelines, layout."""
_Judge = Callable[[Env], Any]


def _mod(x: int, y: int) -> int:
    """x mod y: 0 to |y| - 1 for any sign of x or y; x mod 0 is x."""
    return x % abs(y) if y else x


_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "mod": _mod,
    "=": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def _compile(node: _Node) -> _Judge:
    """Closures that compute ``node`` from a judging environment (no text is read here)."""
    if isinstance(node, _Number):
        value = node.value
        return lambda env: value
    if isinstance(node, _Name):
        if node.name in _COUNTS:
            count_slot = _COUNTS[node.name]
            return lambda env: env[count_slot]
        constant = _CONSTANTS[node.name][1]
        return lambda env: constant
    if isinstance(node, _Attribute):
        slot = _CARD_VALUES[node.card]
        if node.attribute == "rank":
            return lambda env: env[slot].rank
        if node.attribute == "suit":
            return lambda env: env[slot].suit
        if node.attribute == "colour":
            return lambda env: _COLOUR_OF_SUIT[env[slot].suit]
        return lambda env: env[slot].rank > 10
    if isinstance(node, _Call):
        argument = _compile(node.argument)
        if node.function == "odd":
            return lambda env: argument(env) % 2 == 1
        if node.function == "even":
            return lambda env: argument(env) % 2 == 0
        return lambda env: abs(argument(env))
    if isinstance(node, _Not):
        operand = _compile(node.operand)
        return lambda env: not operand(env)
    if isinstance(node, _Compare):
        return _compile_binary(_BINARY[node.op], node.left, node.right)
    if isinstance(node, _If):
        condition, then, otherwise = _compile(node.condition), _compile(node.then), _compile(node.otherwise)
        return lambda env: then(env) if condition(env) else otherwise(env)
    assert isinstance(node, _Chain)
    if node.ops[0] in ("and", "or"):
        parts = tuple(_compile(operand) for operand in node.operands)
        if len(parts) == 2:
            a, b = parts
            if node.ops[0] == "and":
                return lambda env: a(env) and b(env)
            return lambda env: a(env) or b(env)
        if node.ops[0] == "and":
            return lambda env: all(part(env) for part in parts)
        return lambda env: any(part(env) for part in parts)
    if len(node.ops) == 1:
        return _compile_binary(_BINARY[node.ops[0]], node.operands[0], node.operands[1])
    first = _compile(node.operands[0])
    steps = tuple((_BINARY[op], _compile(operand)) for op, operand in zip(node.ops, node.operands[1:]))

    def fold(env: Env) -> int:
        total: int = first(env)
        for apply, operand in steps:
            total = apply(total, operand(env))
        return total

    return fold


def _compile_binary(apply: Callable[[Any, Any], Any], left: _Node, right: _Node) -> _Judge:
    a = _compile(left)
    if isinstance(right, (_Number, _Name)) and not (isinstance(right, _Name) and right.name in _COUNTS):
        # A constant on the right (card.suit = hearts) is read once, here.
        constant = right.value if isinstance(right, _Number) else _CONSTANTS[right.name][1]
        return lambda env: apply(a(env), constant)
    b = _compile(right)
    return lambda env: apply(a(env), b(env))


def _read(text: str) -> _Node:
    """The checked tree of ``text``, or :class:`RuleError`."""
    if not isinstance(text, str):
        raise RuleError(repr(text), None, Said("a rule is text, not {type}", type=type(text).__name__))
    if len(text) > MAX_RULE_CHARS:
        raise RuleError(
            text,
            MAX_RULE_CHARS + 1,
            Said("a rule is at most {most} characters; this one has {n}", most=MAX_RULE_CHARS, n=len(text)),
        )
    _check_characters(text)
    tree = _Reader(text).rule()
    depth, column = _depth(tree)
    if depth > MAX_DEPTH:
        raise RuleError(
            text, column, Said("a rule nests at most {most} levels deep; this one nests {n}", most=MAX_DEPTH, n=depth)
        )
    return tree


def _last_three(mainline: Sequence[Card], count: int) -> tuple[Card, Card, Card]:
    """What a rule calls ``last``, ``last2`` and ``last3`` on a mainline of ``count`` cards (the
    starter stands in where it is shorter); ``ValueError`` for an empty mainline.

    >>> from fairdeal.cards import parse_cards
    >>> [c.code for c in _last_three(parse_cards("2C 5H"), 2)]
    ['5H', '2C', '2C']
    """
    if count == 0:
        raise ValueError("the mainline holds at least the starter card")
    first = mainline[0]
    return mainline[-1], mainline[-2] if count >= 2 else first, mainline[-3] if count >= 3 else first


class Play:
    """A card or string as a rule judges it: each card with the three mainline cards before it
    and the layout's counts then (:meth:`SecretRule.accepts_play`)."""

    __slots__ = ("envs",)

    def __init__(self, envs: tuple[Env, ...]) -> None:
        self.envs = envs

    @classmethod
    def of(cls, mainline: Sequence[Card], cards: Sequence[Card], sidelines: int, count: int | None = None) -> Play:
        """``cards`` played in order on ``mainline`` (starter first) with ``sidelines`` cards
        rejected so far. ``count``, when given, is the mainline's length and only its last three
        cards (and its first) need be in ``mainline``."""
        count = len(mainline) if count is None else count
        last, last2, last3 = _last_three(mainline, count)
        envs = []
        for card in cards:
            envs.append((card, last, last2, last3, count, sidelines, count + sidelines))
            last, last2, last3 = card, last, last2
        return cls(tuple(envs))


@dataclass(frozen=True)
class SecretRule:
    """A checked secret rule and its judge; ``text`` is its canonical text.

    Made from any spelling, it keeps the canonical one, so two spellings of
    one rule are equal:

    >>> SecretRule("card.colour!=last.colour") == SecretRule.parse("(CARD.COLOUR != LAST.COLOUR)")
    True
    >>> str(SecretRule.parse("abs(card.rank-last.rank)=1"))
    'abs(card.rank - last.rank) = 1'
    """

    text: str
    _judge: _Judge = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        tree = _read(self.text)
        canonical = _canonical(tree)
        if len(canonical) > MAX_RULE_CHARS:
            raise RuleError(
                self.text,
                None,
                Said(
                    "its canonical text has {n} characters; a rule is at most {most}",
                    n=len(canonical),
                    most=MAX_RULE_CHARS,
                ),
            )
        object.__setattr__(self, "text", canonical)
        object.__setattr__(self, "_judge", _compile(tree))

    @classmethod
    def parse(cls, text: str) -> SecretRule:
        """The rule ``text`` says, or :class:`RuleError` saying what was expected where.

        >>> SecretRule.parse("card.rank >")
        Traceback (most recent call last):
        ...
        fairdeal.rules.secret_rule.RuleError: rule 'card.rank >' at column 12: expected a number, a name or '(', found the end of the rule
        >>> SecretRule.parse("card.suit = harts")
        Traceback (most recent call last):
        ...
        fairdeal.rules.secret_rule.RuleError: rule 'card.suit = harts' at column 13: unknown name 'harts'; did you mean 'hearts'?
        """
        return cls(text)

    def __str__(self) -> str:
        return self.text

    def __reduce__(self) -> tuple[type[SecretRule], tuple[str]]:
        # The judge is closures, which do not pickle: a copy reads the text again.
        return (SecretRule, (self.text,))

    def accepts(self, mainline: Sequence[Card], card: Card, sidelines: int) -> bool:
        """Whether ``card`` is right on ``mainline`` (starter first, never empty) when
        ``sidelines`` cards have been rejected so far.

        >>> from fairdeal.cards import Card, parse_cards
        >>> rule = SecretRule.parse("card.suit != last2.suit")
        >>> rule.accepts(parse_cards("3H"), Card.parse("9H"), 0), rule.accepts(parse_cards("3H 4C"), Card.parse("9H"), 0)
        (False, False)
        >>> rule.accepts(parse_cards("3H 4C"), Card.parse("9S"), 0)
        True
        """
        return self.accepts_all(mainline, (card,), sidelines)

    def accepts_play(self, play: Play) -> bool:
        """Whether the rule accepts a :class:`Play` (one card or a string, judged where it was
        made): :meth:`accepts_all` for a player who asks many rules of one layout (a bot),
        which reads the layout once instead of once a rule.

        >>> from fairdeal.cards import parse_cards
        >>> play = Play.of(parse_cards("5S"), parse_cards("2H 9C"), 0)
        >>> SecretRule.parse("card.colour != last.colour").accepts_play(play)
        True
        """
        judge = self._judge
        return all(judge(env) for env in play.envs)

    def accepts_all(self, mainline: Sequence[Card], cards: Sequence[Card], sidelines: int) -> bool:
        """Whether a string of ``cards`` is right: each card right once the ones before it
        in the string are on the mainline ("the same as consecutive plays").

        The game says how long a string may be (2 to 4 cards); this judges any length.

        >>> from fairdeal.cards import parse_cards
        >>> rule = SecretRule.parse("card.colour != last.colour")
        >>> rule.accepts_all(parse_cards("5S"), parse_cards("2H 9C 7D"), 0)
        True
        >>> rule.accepts_all(parse_cards("5S"), parse_cards("2H 7D"), 0)
        False
        """
        count = len(mainline)
        last, last2, last3 = _last_three(mainline, count)
        if sidelines < 0:
            raise ValueError(f"sidelines counts cards, so it is never negative: {sidelines}")
        judge = self._judge
        for card in cards:
            if not judge((card, last, last2, last3, count, sidelines, count + sidelines)):
                return False
            last, last2, last3 = card, last, last2
            count += 1
        return True


EXAMPLES: tuple[SecretRule, ...] = tuple(
    SecretRule(text)
    for text in (
        # If the last card is odd (A, 3, 5, ..., J, K), a black card; if even, a red one.
        "if odd(last.rank) then card.colour = black else card.colour = red",
        # After a black card, one of its rank or higher; after a red one, its rank or lower.
        "if last.colour = black then card.rank >= last.rank else card.rank <= last.rank",
        # Spades, hearts, diamonds, clubs, spades, ...: after a spade a heart, and so on.
        "if last.suit = spades then card.suit = hearts else if last.suit = hearts then card.suit = diamonds "
        "else if last.suit = diamonds then card.suit = clubs else card.suit = spades",
        # One point higher or one point lower than the last card.
        "abs(card.rank - last.rank) = 1",
    )
)
"""The rule text's four examples, in its order."""

LIBRARY: tuple[SecretRule, ...] = EXAMPLES + tuple(
    SecretRule(text)
    for text in (
        "card.colour != last.colour",
        "card.suit = last.suit or card.rank = last.rank",
        "odd(card.rank) != odd(last.rank)",
        "card.rank > last.rank or card.rank = 1",
        "card.face != last.face",
        "if odd(mainline) then card.colour = red else card.colour = black",
        "card.suit = last2.suit",
        "(card.rank - last.rank) mod 13 >= 1 and (card.rank - last.rank) mod 13 <= 3",
        "card.rank mod last.rank = 0 or last.rank mod card.rank = 0",
        "card.rank + last.rank <= 14",
        "if card.colour = red then card.rank < last.rank else card.rank > last.rank",
        "not (card.colour = last.colour and card.colour = last2.colour)",
        "card.suit != last.suit and card.suit != last2.suit and card.suit != last3.suit",
        "(card.rank <= 6) != (last.rank <= 6)",
        "card.colour = last.colour",
        "if mainline mod 3 = 0 then card.face else not card.face",
        "if last.rank > last2.rank then card.rank <= last.rank else card.rank >= last.rank",
        "odd(card.rank) = (card.colour = red)",
        "card.rank mod 3 = (last.rank + 1) mod 3",
        "abs(card.rank - last.rank) >= 4",
    )
)
"""The rules a server dealer picks from (by index, from the fair dealer's stream):
EXAMPLES first; every one accepts some card after any last card. Their meanings
are listed in spec/games/eleusis.md ("The rule language")."""
