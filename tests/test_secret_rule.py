"""Eleusis's secret-rule language: spec/games/eleusis.md ("The rule language"), rule by rule.

Plays are written as card codes: a mainline ``"7C 4H"`` is the starter 7♣ then the
accepted 4♥. The first section is the rule text's four examples; then the names,
operators, canonical text, errors, limits, and the dealer's library.
"""

from __future__ import annotations

import pickle
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from fairdeal.cards import ALL_CARDS
from fairdeal.cards import Card
from fairdeal.cards import parse_cards
from fairdeal.rules.secret_rule import EXAMPLES
from fairdeal.rules.secret_rule import LIBRARY
from fairdeal.rules.secret_rule import MAX_DEPTH
from fairdeal.rules.secret_rule import MAX_NODES
from fairdeal.rules.secret_rule import MAX_RULE_CHARS
from fairdeal.rules.secret_rule import SYNTAX_HELP
from fairdeal.rules.secret_rule import RuleError
from fairdeal.rules.secret_rule import SecretRule

SPEC = Path(__file__).resolve().parent.parent / "spec" / "games" / "eleusis.md"


def right(rule: SecretRule | str, mainline: str, card: str, sidelines: int = 0) -> bool:
    """Whether ``card`` is right on ``mainline`` (codes, starter first) under ``rule``."""
    if isinstance(rule, str):
        rule = SecretRule.parse(rule)
    return rule.accepts(parse_cards(mainline), Card.parse(card), sidelines)


def holds(text: str, mainline: str = "5C", card: str = "9D", sidelines: int = 0) -> bool:
    """The value of a rule that tests arithmetic or logic rather than the card."""
    return right(text, mainline, card, sidelines)


def right_cards(rule: SecretRule, mainline: str) -> set[str]:
    """The codes of every card (of 52) that is right on ``mainline``."""
    line = parse_cards(mainline)
    return {c.code for c in ALL_CARDS if rule.accepts(line, c, 0)}


# --- the rule text's examples --------------------------------------------------------------


def test_the_examples_are_the_library_s_first_four_in_the_text_s_order():
    assert LIBRARY[:4] == EXAMPLES
    assert len(EXAMPLES) == 4


def test_the_examples_written_any_way_are_the_examples():
    written = [
        "IF odd(last.rank) THEN card.colour = black ELSE card.colour = red",
        "if (last.colour = black) then (card.rank >= last.rank) else (card.rank <= last.rank)",
        "if last.suit=spades then card.suit=hearts else (if last.suit=hearts then card.suit=diamonds "
        "else (if last.suit=diamonds then card.suit=clubs else card.suit=spades))",
        "abs( card.rank - last.rank ) = 1",
    ]
    assert tuple(SecretRule.parse(text) for text in written) == EXAMPLES


def test_example_1_black_after_an_odd_card_red_after_an_even_one():
    odd_even = EXAMPLES[0]
    # The last card is the 7♣, odd: a black card is right, a red one wrong.
    assert right(odd_even, "7C", "2S") and right(odd_even, "7C", "KC")
    assert not right(odd_even, "7C", "2H") and not right(odd_even, "7C", "9D")
    # Even: a red card.
    assert right(odd_even, "8S", "3D") and not right(odd_even, "8S", "3S")
    # Ace is 1, jack 11, queen 12, king 13: A, J and K are odd, Q even.
    assert right(odd_even, "AH", "4C") and right(odd_even, "JH", "4C") and right(odd_even, "KD", "4S")
    assert right(odd_even, "QC", "4H") and not right(odd_even, "QC", "4S")


def test_example_1_the_last_card_is_the_last_accepted_one_not_a_rejected_one():
    odd_even = EXAMPLES[0]
    # Starter 7♣, then 2♠ accepted (a wrong 5♥ went to a sideline: it is not the last card).
    assert right(odd_even, "7C 2S", "4H", sidelines=1)
    assert not right(odd_even, "7C 2S", "4C", sidelines=1)


def test_example_2_higher_or_equal_after_black_lower_or_equal_after_red():
    up_down = EXAMPLES[1]
    assert right_cards(up_down, "9S") == {r + s for r in "9TJQK" for s in "CDHS"}
    assert right_cards(up_down, "9H") == {r + s for r in "A23456789" for s in "CDHS"}
    assert right(up_down, "9S", "9H")  # equal is right either way
    assert not right(up_down, "9S", "8S") and not right(up_down, "9H", "TH")
    # A king after black leaves only kings; after a black ace everything is right.
    assert right_cards(up_down, "KC") == {"KC", "KD", "KH", "KS"}
    assert len(right_cards(up_down, "AS")) == 52


def test_example_3_the_suit_cycle():
    cycle = EXAMPLES[2]
    for last, wanted in (("5S", "H"), ("5H", "D"), ("5D", "C"), ("5C", "S")):
        assert right_cards(cycle, last) == {r + wanted for r in "A23456789TJQK"}
    # A string goes round the cycle: spade, heart, diamond, club, spade.
    assert cycle.accepts_all(parse_cards("5S"), parse_cards("9H 4D KC 2S"), 0)
    assert not cycle.accepts_all(parse_cards("5S"), parse_cards("4D 9H"), 0)


def test_example_4_one_point_higher_or_lower():
    step = EXAMPLES[3]
    assert right_cards(step, "7C") == {r + s for r in "68" for s in "CDHS"}
    assert not right(step, "7C", "7D") and not right(step, "7C", "9C")
    # No going round the corner: after a king only a queen, after an ace only a two.
    assert right_cards(step, "KH") == {"QC", "QD", "QH", "QS"}
    assert right_cards(step, "AH") == {"2C", "2D", "2H", "2S"}


# --- names -----------------------------------------------------------------------------------


def test_card_attributes():
    assert holds("card.rank = 13 and card.suit = spades and card.colour = black and card.face", card="KS")
    assert holds("card.rank = 10 and card.suit = diamonds and card.colour = red and not card.face", card="TD")
    assert holds("card.rank = 1 and not card.face", card="AH")
    assert [c.code for c in ALL_CARDS if right("card.face", "5C", c.code)] == [r + s for s in "CDHS" for r in "JQK"]
    assert {c.code for c in ALL_CARDS if right("card.colour = red", "5C", c.code)} == {
        c.code for c in ALL_CARDS if c.code[1] in "DH"
    }


def test_last2_and_last3_are_the_starter_while_the_mainline_is_short():
    names = "last.rank * 100 + last2.rank * 10 + last3.rank"
    for mainline, value in (
        ("2C", 222),
        ("2C 3C", 322),
        ("2C 3C 4C", 432),
        ("2C 3C 4C 5C", 543),
        ("2C 3C 4C 5C 6C 7C", 765),
    ):
        assert holds(f"{names} = {value}", mainline=mainline), mainline


def test_the_counts():
    rule = "mainline = 3 and sidelines = 4 and layout = 7"
    assert holds(rule, mainline="AC 2D 3H", sidelines=4)
    assert not holds(rule, mainline="AC 2D", sidelines=4)
    assert holds("mainline = 1 and layout = 1", mainline="QS")


def test_constants_and_truth():
    assert holds("true") and not holds("false")
    assert holds("hearts != spades and clubs = clubs and red != black and diamonds = diamonds")
    assert holds("true = (1 = 1) and false != true")


# --- operators -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "1 + 2 * 3 = 7",
        "(1 + 2) * 3 = 9",
        "10 - 3 - 2 = 5",
        "10 - (3 - 2) = 9",
        "7 mod 4 * 2 = 6",
        "2 * 7 mod 4 = 2",
        "2 * (7 mod 4) = 6",
        "1 + 1 = 2",
        "not false and false = false",  # not binds tighter than and, and = tighter than not
        "true or false and false",  # and binds tighter than or
        "not (true and false)",
        "(true or false) and true",
        "3 < 4 and 4 <= 4 and 5 > 4 and 4 >= 4 and 3 != 4",
    ],
)
def test_precedence(text):
    assert holds(text)


def test_an_else_branch_reaches_the_end():
    # Read as "if true then false else (false or true)": false.
    assert not holds("if true then false else false or true")
    assert holds("(if true then false else false) or true")


def test_if_then_else():
    by_colour = SecretRule.parse("if last.colour = red then card.rank > 7 else card.rank <= 7")
    assert right(by_colour, "2H", "8C") and not right(by_colour, "2H", "7C")
    assert right(by_colour, "2S", "7C") and not right(by_colour, "2S", "8C")
    assert holds("(if card.face then 10 else card.rank) = 10", card="QH")
    assert holds("(if card.face then 10 else card.rank) = 4", card="4H")
    assert holds("(if last.suit = hearts then spades else clubs) = card.suit", mainline="3H", card="9S")
    assert holds("odd(if card.face then 1 else 2)", card="JC")
    assert holds("if false then false else if false then false else true")


def test_mod_is_total_and_never_negative():
    assert holds("7 mod 0 = 7 and 0 mod 0 = 0")
    assert holds("(0 - 7) mod 3 = 2 and 7 mod (0 - 3) = 1 and (0 - 7) mod (0 - 3) = 2")
    assert holds("12 mod 4 = 0 and 3 mod 13 = 3")
    assert holds("(card.rank - last.rank) mod 0 = 0 - 4", mainline="9C", card="5C")


def test_parity_and_abs():
    assert holds("odd(1) and even(0) and odd(0 - 3) and even(0 - 4) and not odd(12)")
    assert holds("abs(0 - 5) = 5 and abs(5) = 5 and abs(0) = 0")


def test_arithmetic_is_exact():
    product = " * ".join(["999"] * 20)
    assert holds(f"{product} mod 997 = {999**20 % 997} and {product} > 999")


# --- judging strings -------------------------------------------------------------------------


def test_a_string_is_right_only_if_each_card_is_right_after_the_ones_before_it():
    alternate = SecretRule.parse("card.colour != last.colour")
    assert alternate.accepts_all(parse_cards("5S"), parse_cards("2H 9C 7D 4S"), 2)
    assert not alternate.accepts_all(parse_cards("5S"), parse_cards("2H 7D"), 2)
    assert not alternate.accepts_all(parse_cards("5S"), parse_cards("2C 7D"), 2)


def test_a_string_moves_last2_last3_and_the_mainline_count():
    pairs = SecretRule.parse("card.suit = last2.suit")
    # Starter 3H: the 4H is right (last2 is the starter), then the next must match the 3H, then the 4H.
    assert pairs.accepts_all(parse_cards("3H"), parse_cards("4H 9H"), 0)
    assert pairs.accepts_all(parse_cards("3H 4C"), parse_cards("9H 2C 5H"), 0)
    assert not pairs.accepts_all(parse_cards("3H 4C"), parse_cards("9H 2H"), 0)
    by_place = SecretRule.parse("if odd(mainline) then card.colour = red else card.colour = black")
    assert by_place.accepts_all(parse_cards("KS"), parse_cards("2H 2C 2D"), 5)
    assert not by_place.accepts_all(parse_cards("KS"), parse_cards("2H 2D"), 5)
    counts = SecretRule.parse("sidelines = 5 and layout = mainline + 5")
    assert counts.accepts_all(parse_cards("KS"), parse_cards("2H 2C 2D"), 5)


def test_a_string_is_the_same_as_consecutive_plays():
    rng = random.Random(7)
    for rule in LIBRARY:
        for _ in range(60):
            mainline = [rng.choice(ALL_CARDS) for _ in range(rng.randint(1, 6))]
            string = [rng.choice(ALL_CARDS) for _ in range(rng.randint(2, 4))]
            sidelines = rng.randint(0, 30)
            one_by_one = all(rule.accepts(mainline + string[:i], card, sidelines) for i, card in enumerate(string))
            assert rule.accepts_all(mainline, string, sidelines) == one_by_one, rule.text


def test_the_mainline_is_never_empty():
    rule = EXAMPLES[0]
    with pytest.raises(ValueError, match="starter"):
        rule.accepts([], Card.parse("2C"), 0)
    with pytest.raises(ValueError, match="starter"):
        rule.accepts_all([], parse_cards("2C 3C"), 0)
    with pytest.raises(ValueError, match="negative"):
        rule.accepts(parse_cards("5C"), Card.parse("2C"), -1)


# --- canonical text --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "written, canonical",
    [
        ("card.colour=red", "card.colour = red"),
        ("  CARD . Colour   =   RED  ", "card.colour = red"),
        ("((card.colour = red))", "card.colour = red"),
        ("card.rank = 007", "card.rank = 7"),
        ("card.rank+1=last.rank", "card.rank + 1 = last.rank"),
        ("(card.rank - (last.rank - 1)) = ((1 + 2) + 3)", "card.rank - (last.rank - 1) = 1 + 2 + 3"),
        ("(card.rank * 2) mod 3 = (1 * (2 * 3))", "card.rank * 2 mod 3 = 1 * (2 * 3)"),
        ("card.face AND (last.face and (last2.face))", "card.face and last.face and last2.face"),
        ("(card.face or last.face) or last2.face", "card.face or last.face or last2.face"),
        ("(card.face or last.face) and last2.face", "(card.face or last.face) and last2.face"),
        ("card.face or (last.face and last2.face)", "card.face or last.face and last2.face"),
        ("not (card.face)", "not card.face"),
        ("not(not card.face)", "not not card.face"),
        ("not (card.face and last.face)", "not (card.face and last.face)"),
        ("(not card.face) and last.face", "not card.face and last.face"),
        ("not (card.rank = 1)", "not card.rank = 1"),
        ("(card.rank = 1) = (last.rank = 1)", "(card.rank = 1) = (last.rank = 1)"),
        ("Odd( card.rank )", "odd(card.rank)"),
        ("odd((card.rank + 1))", "odd(card.rank + 1)"),
        (
            "If card.face Then true Else (if last.face then true else false)",
            "if card.face then true else if last.face then true else false",
        ),
        (
            "if (if card.face then true else false) then true else false",
            "if (if card.face then true else false) then true else false",
        ),
        ("(if card.face then 1 else 2) + 1 = 2", "(if card.face then 1 else 2) + 1 = 2"),
        ("if card.face or last.face then true else false", "if card.face or last.face then true else false"),
        ("card.rank=1AND card.face", "card.rank = 1 and card.face"),  # a number may touch the name after it
        # the spec's example
        (
            " IF Odd( last.rank )THEN ((card.colour=BLACK)) else card.colour = red",
            "if odd(last.rank) then card.colour = black else card.colour = red",
        ),
    ],
)
def test_canonical_text(written, canonical):
    rule = SecretRule.parse(written)
    assert rule.text == canonical
    assert SecretRule.parse(canonical).text == canonical
    assert rule == SecretRule.parse(canonical) and hash(rule) == hash(SecretRule.parse(canonical))


def test_every_library_rule_is_written_in_canonical_text():
    for rule in LIBRARY:
        assert SecretRule.parse(rule.text).text == rule.text
        assert str(rule) == rule.text


def test_a_rule_made_from_any_spelling_keeps_the_canonical_one_and_pickles():
    rule = SecretRule("card.colour!=last.colour")
    assert rule.text == "card.colour != last.colour"
    assert repr(rule) == "SecretRule(text='card.colour != last.colour')"
    copied = pickle.loads(pickle.dumps(rule))
    assert copied == rule and copied.accepts(parse_cards("2C"), Card.parse("3H"), 0)


# --- a property: any well-typed tree, spelt any way ----------------------------------------
# The generator below builds rules with their meaning as a plain Python function, written here
# independently of the module: the judge must agree with it, and every spelling must reach one
# canonical text that reads back as itself.

_CARD_NAMES = ("card", "last", "last2", "last3")
_SUITS = ("clubs", "diamonds", "hearts", "spades")


def _mod(a: int, b: int) -> int:
    if b == 0:
        return a
    r = a % b
    return r - b if r < 0 else r  # Python's % takes the divisor's sign; the language's is never negative


def _leaf(draw, kind):
    if kind == "number":
        choice = draw(st.sampled_from(["literal", "attr", "count"]))
        if choice == "literal":
            n = draw(st.integers(0, 999))
            return f"{n:0{draw(st.integers(1, 4))}d}", lambda env: n
        if choice == "count":
            name = draw(st.sampled_from(["mainline", "sidelines", "layout"]))
            return name, lambda env: env[name]
        card = draw(st.sampled_from(_CARD_NAMES))
        return f"{card}.rank", lambda env: int(env[card].rank)
    if kind == "bool":
        choice = draw(st.sampled_from(["const", "face"]))
        if choice == "const":
            value = draw(st.booleans())
            return ("true" if value else "false"), lambda env: value
        card = draw(st.sampled_from(_CARD_NAMES))
        return f"{card}.face", lambda env: env[card].rank >= 11
    if kind == "suit":
        if draw(st.booleans()):
            index = draw(st.integers(0, 3))
            return _SUITS[index], lambda env: index
        card = draw(st.sampled_from(_CARD_NAMES))
        return f"{card}.suit", lambda env: int(env[card].suit)
    if draw(st.booleans()):
        colour = draw(st.sampled_from(["red", "black"]))
        return colour, lambda env: colour
    card = draw(st.sampled_from(_CARD_NAMES))
    return f"{card}.colour", lambda env: "red" if int(env[card].suit) in (1, 2) else "black"


@st.composite
def _expression(draw, kind="bool", budget=4):
    """(text with every operand in parentheses, meaning) for a tree of ``kind``."""
    if budget <= 0 or draw(st.integers(0, 3)) == 0:
        return _leaf(draw, kind)
    sub = lambda k: _expression(kind=k, budget=budget - 1)  # noqa: E731
    if draw(st.integers(0, 5)) == 0:
        (ct, cf), (at, af), (bt, bf) = draw(sub("bool")), draw(sub(kind)), draw(sub(kind))
        return f"(if {ct} then {at} else {bt})", lambda env: af(env) if cf(env) else bf(env)
    if kind == "number":
        op = draw(st.sampled_from(["+", "-", "*", "mod", "abs"]))
        (at, af), (bt, bf) = draw(sub("number")), draw(sub("number"))
        if op == "abs":
            return f"abs({at})", lambda env: abs(af(env))
        apply = {"+": int.__add__, "-": int.__sub__, "*": int.__mul__, "mod": _mod}[op]
        return f"({at} {op} {bt})", lambda env: apply(af(env), bf(env))
    if kind != "bool":
        return _leaf(draw, kind)
    op = draw(st.sampled_from(["and", "or", "not", "cmp", "eq", "odd", "even"]))
    if op in ("and", "or"):
        (at, af), (bt, bf) = draw(sub("bool")), draw(sub("bool"))
        if op == "and":
            return f"({at} and {bt})", lambda env: af(env) and bf(env)
        return f"({at} or {bt})", lambda env: af(env) or bf(env)
    if op == "not":
        at, af = draw(sub("bool"))
        return f"(not {at})", lambda env: not af(env)
    if op in ("odd", "even"):
        at, af = draw(sub("number"))
        want = 1 if op == "odd" else 0
        return f"{op}({at})", lambda env: abs(af(env)) % 2 == want
    if op == "cmp":
        cmp = draw(st.sampled_from(["<", "<=", ">", ">="]))
        (at, af), (bt, bf) = draw(sub("number")), draw(sub("number"))
        test = {"<": int.__lt__, "<=": int.__le__, ">": int.__gt__, ">=": int.__ge__}[cmp]
        return f"({at} {cmp} {bt})", lambda env: test(af(env), bf(env))
    typ = draw(st.sampled_from(["number", "bool", "suit", "colour"]))
    eq = draw(st.sampled_from(["=", "!="]))
    (at, af), (bt, bf) = draw(sub(typ)), draw(sub(typ))
    return f"({at} {eq} {bt})", lambda env: (af(env) == bf(env)) == (eq == "=")


def _messy(draw, text: str) -> str:
    """The same rule spelt carelessly: case changed, spaces dropped or doubled where allowed."""
    if draw(st.booleans()):
        text = text.upper()
    if draw(st.booleans()):
        text = re.sub(r" *([()=<>!+*-]+) *", r"\1", text)
    return text.replace(" ", " " * draw(st.integers(1, 3)))


@settings(derandomize=True, max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_spelling_reads_to_one_canonical_text_with_the_same_meaning(data):
    text, meaning = data.draw(_expression())
    messy = _messy(data.draw, text)
    rule = SecretRule.parse(text)
    assert SecretRule.parse(messy).text == rule.text
    again = SecretRule.parse(rule.text)
    assert again.text == rule.text
    rng = random.Random(len(rule.text))
    for _ in range(8):
        line = [rng.choice(ALL_CARDS) for _ in range(rng.randint(1, 4))]
        card, sidelines = rng.choice(ALL_CARDS), rng.randint(0, 20)
        env = {
            "card": card,
            "last": line[-1],
            "last2": line[max(0, len(line) - 2)],
            "last3": line[max(0, len(line) - 3)],
            "mainline": len(line),
            "sidelines": sidelines,
            "layout": len(line) + sidelines,
        }
        assert again.accepts(line, card, sidelines) == bool(meaning(env)), (rule.text, [c.code for c in line], card)


# --- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, column, reason",
    [
        # syntax
        ("card.rank >", 12, "expected a number, a name or '(', found the end of the rule"),
        ("(card.rank = 1", 15, "expected ')' to close the '(' at column 1"),
        ("card.rank = 1)", 14, "unbalanced ')'"),
        ("card.colour = red black", 19, "expected an operator or the end of the rule, found 'black'"),
        ("card.rank = 1 then", 15, "'then' with no 'if' before it"),
        ("if card.face card.face else true", 14, "expected 'then' for the 'if' at column 1"),
        ("if card.face then true", 23, "expected 'else' for the 'if' at column 1"),
        ("card.rank < 3 < 4", 15, "comparisons do not chain"),
        ("1 + if true then 1 else 2 = 3", 5, "this 'if' must be in parentheses"),
        ("if true then if true then true else false else false", 14, "this 'if' must be in parentheses"),
        ("card.rank = -1", 13, "a negative one is written 0 - 1"),
        ("card.rank = and", 13, "expected a number, a name or '(', found 'and'"),
        ("", 1, "the rule is empty"),
        ("   ", 1, "the rule is empty"),
        # names
        ("card.suit = harts", 13, "unknown name 'harts'; did you mean 'hearts'?"),
        ("lst.rank = 1", 1, "unknown name 'lst'; did you mean 'last'?"),
        ("card.color = red", 6, "unknown attribute 'color'; did you mean 'colour'?"),
        ("card.value = 1", 6, "unknown attribute 'value'"),
        ("card.odd", 6, "odd is a function of a number: odd(card.rank)"),
        ("card. = 1", 7, "expected rank, suit, colour or face after 'card.'"),
        ("card = last", 6, "card is a card: read it as card.rank"),
        ("rank(card) = 1", 1, "write card.rank, not rank(card)"),
        ("suit = hearts", 1, "suit is read from a card"),
        ("odd card.rank", 5, "expected '(' after odd"),
        ("odd(card.rank", 14, "expected ')' to close the '(' at column 4"),
        # tokens
        ("card.rank == 3", 11, "equality is written '='"),
        ("card.rank <> 3", 11, "write '!='"),
        ("card.rank % 2 = 0", 11, "write 'mod'"),
        ("card.rank / 2 = 0", 11, "there is no division"),
        ("card.face && last.face", 11, "write 'and'"),
        ("!card.face", 1, "write 'not'"),
        ("card.rank = 1000", 13, "numbers go from 0 to 999"),
        ("card.rank = 3 # three", 15, "'#' is not part of the rule language"),
        # characters
        ("card.suit = hearts\n", 19, "U+000A is a control character"),
        ("card.rank\t= 3", 10, "U+0009 is a control character"),
        ("card.suit = h\u00e9arts", 14, "U+00E9 is not plain ASCII"),
        ("card.suit = \u2665", 13, "U+2665 is not plain ASCII"),
        # types
        ("card.suit = 3", 11, "card.suit = 3: a suit compares with a suit, not a number"),
        ("card.colour != hearts", 13, "a colour compares with a colour, not a suit"),
        ("card.suit < hearts", 11, "'<' compares numbers; a suit has only = and !="),
        ("card.rank + card.suit = 1", 11, "card.rank + card.suit: '+' takes numbers, not a suit"),
        ("card.rank mod red = 1", 11, "'mod' takes numbers, not a colour"),
        ("card.rank and true", 11, "card.rank and true: 'and' joins conditions, not a number"),
        ("true or card.suit", 6, "'or' joins conditions, not a suit"),
        ("not card.rank", 1, "not card.rank: 'not' takes a condition, not a number"),
        ("odd(card.suit)", 5, "odd takes a number, not a suit"),
        ("even(  card.colour)", 8, "even takes a number, not a colour"),
        ("if card.rank then true else false", 4, "the condition of an 'if' must be true or false, not a number"),
        ("if true then 1 else red", 16, "'then' gives a number, 'else' gives a colour"),
        ("card.rank", 1, "a rule must be a condition (true or false for the card), not a number"),
        ("if true then hearts else spades", 1, "a rule must be a condition"),
    ],
)
def test_errors_say_what_was_expected_and_where(text, column, reason):
    with pytest.raises(RuleError) as caught:
        SecretRule.parse(text)
    err = caught.value
    assert (err.position, err.text) == (column, text)
    assert reason in err.reason
    assert str(err) == f"rule {text!r} at column {column}: {err.reason}"
    assert isinstance(err, ValueError)


def test_the_error_message_shape():
    with pytest.raises(RuleError) as caught:
        SecretRule.parse("card.rank >")
    assert (
        str(caught.value)
        == "rule 'card.rank >' at column 12: expected a number, a name or '(', found the end of the rule"
    )


def test_a_long_rule_is_quoted_around_the_fault():
    text = "card.rank = 1 or " * 10 + "card.suit = 3"
    with pytest.raises(RuleError) as caught:
        SecretRule.parse(text)
    assert caught.value.position == len(text) - 2
    assert "card.suit = 3" in str(caught.value) and "..." in str(caught.value)


def test_a_rule_is_text():
    with pytest.raises(RuleError, match="a rule is text, not int"):
        SecretRule.parse(3)  # type: ignore[arg-type]


# --- limits ----------------------------------------------------------------------------------


def _padded(rule: str, length: int) -> str:
    return rule + " " * (length - len(rule))


def test_at_most_500_characters():
    assert MAX_RULE_CHARS == 500
    SecretRule.parse(_padded("card.face", 500))
    with pytest.raises(RuleError) as caught:
        SecretRule.parse(_padded("card.face", 501))
    assert caught.value.position == 501 and "at most 500 characters" in caught.value.reason


def test_a_compact_rule_whose_canonical_text_is_too_long_is_refused():
    compact = "+".join(["last.rank"] * 46) + "=1"
    assert len(compact) <= 500
    with pytest.raises(RuleError) as caught:
        SecretRule.parse(compact)
    assert caught.value.position is None and "canonical text has" in caught.value.reason


def test_at_most_200_nodes():
    assert MAX_NODES == 200
    # 99 ones and 98 pluses, '=', card.rank: 199 nodes; one more '+ 1' makes 201.
    fits = "card.rank = " + " + ".join(["1"] * 99)
    SecretRule.parse(fits)
    too_many = fits + " + 1"
    with pytest.raises(RuleError) as caught:
        SecretRule.parse(too_many)
    assert caught.value.position == len(too_many)  # the 201st node is the last '1'
    assert "at most 200" in caught.value.reason


def test_nesting_at_most_32_deep():
    assert MAX_DEPTH == 32
    SecretRule.parse("not " * 31 + "card.face")  # 32 levels
    deep = "not " * 32 + "card.face"
    with pytest.raises(RuleError) as caught:
        SecretRule.parse(deep)
    assert caught.value.position == deep.index("card.face") + 1
    assert "at most 32 levels deep; this one nests 33" in caught.value.reason
    # A chain of one level is one level, however long.
    SecretRule.parse(" and ".join(["true"] * 50))
    SecretRule.parse("card.rank = " + " + ".join(["1"] * 60))


def test_parentheses_nest_at_most_32_deep():
    SecretRule.parse("(" * 32 + "card.face" + ")" * 32)
    deep = "(" * 33 + "card.face" + ")" * 33
    with pytest.raises(RuleError) as caught:
        SecretRule.parse(deep)
    assert caught.value.position == 33 and "parentheses nest at most 32 deep" in caught.value.reason
    calls = "abs(" * 33 + "1" + ")" * 33 + " = 1"
    with pytest.raises(RuleError) as caught:
        SecretRule.parse(calls)
    assert caught.value.position == 4 * 32 + 4


# --- the library ---------------------------------------------------------------------------


def test_the_library_has_about_two_dozen_different_rules():
    assert len(LIBRARY) == 24
    assert len({rule.text for rule in LIBRARY}) == len(LIBRARY)


def test_every_library_rule_accepts_some_card_after_every_last_card():
    for rule in LIBRARY:
        for last in ALL_CARDS:
            assert any(rule.accepts([last], card, 0) for card in ALL_CARDS), (rule.text, last.code)


def test_every_library_rule_can_always_be_followed():
    # Mainlines of every length up to 4 from a fixed seed, so last, last2, last3 and the counts vary.
    rng = random.Random(2024)
    for rule in LIBRARY:
        for _ in range(400):
            mainline = [rng.choice(ALL_CARDS) for _ in range(rng.randint(1, 4))]
            sidelines = rng.randint(0, 45)
            assert any(rule.accepts(mainline, card, sidelines) for card in ALL_CARDS), (rule.text, mainline)


def test_every_library_rule_is_a_puzzle():
    # Something is wrong after some last card, and no two rules judge every play alike.
    rng = random.Random(5)
    plays = [([rng.choice(ALL_CARDS) for _ in range(rng.randint(1, 4))], rng.choice(ALL_CARDS)) for _ in range(3000)]
    verdicts = {}
    for rule in LIBRARY:
        assert not all(rule.accepts([last], card, 0) for last in ALL_CARDS for card in ALL_CARDS), rule.text
        verdicts[rule.text] = tuple(rule.accepts(line, card, 0) for line, card in plays)
    assert len(set(verdicts.values())) == len(LIBRARY)


def test_the_spec_lists_the_library_in_order():
    rows = re.findall(r"^\| (\d+) \| `([^`]+)` \|", SPEC.read_text(), re.M)
    assert [(int(n), text) for n, text in rows] == list(enumerate(rule.text for rule in LIBRARY))


# --- help ------------------------------------------------------------------------------------


def test_the_syntax_help_names_everything_and_its_example_is_a_rule():
    for name in (
        "card",
        "last",
        "last2",
        "last3",
        "rank",
        "suit",
        "colour",
        "face",
        "clubs",
        "diamonds",
        "hearts",
        "spades",
        "red",
        "black",
        "mainline",
        "sidelines",
        "layout",
        "odd",
        "even",
        "abs",
        "mod",
        "not",
        "and",
        "or",
        "if",
        "then",
        "else",
        "true",
        "false",
    ):
        assert re.search(rf"\b{name}\b", SYNTAX_HELP), name
    example = SYNTAX_HELP.rsplit("Example: ", 1)[1].strip()
    assert SecretRule.parse(example) == EXAMPLES[0]
    assert len(SYNTAX_HELP.splitlines()) <= 8


def test_the_module_never_evaluates_text():
    source = Path(__file__).resolve().parent.parent.joinpath("fairdeal", "rules", "secret_rule.py").read_text()
    assert not re.search(r"(?<![\w.])(eval|exec|compile)\(", source)
