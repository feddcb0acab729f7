"""Each game's view is typed by its own declaration (Rules.table_json): every view a seat or a
spectator is shown, in random games of every game at every seat count, is valid under the game's
closed JSON Schema, and a member the declaration does not list is refused."""

from __future__ import annotations

import random

import jsonschema
import pytest

from fairdeal.fairness import GameShuffle
from fairdeal.fairness import game_key
from fairdeal.match import Match
from fairdeal.rules import RULES
from fairdeal.rules import get
from fairdeal.rules.base import SEAT_OWN
from fairdeal.rules.base import TableJSON


def _views(name: str):
    """The public tables of the views of random games of ``name``: each option choice, each seat
    count up to five, every seat's and a spectator's view after every move."""
    cls = RULES[name]
    variants = [{}] + [{o.name: v} for o in cls.OPTIONS if o.choices for v in o.choices if v != o.default]
    for options in variants:
        for seats in range(cls.min_seats, min(cls.max_seats, 5) + 1):
            rules = get(name, options)
            match = Match(rules, seats, GameShuffle(game_key("00" * 32, f"views-{seats}", [""] * seats)))
            match.start()
            rng = random.Random(seats)
            for _ in range(60):
                for seat in (None, match.turn):
                    data = rules.view(match.state, seat).to_json()
                    yield {key: value for key, value in data.items() if key not in SEAT_OWN}
                if match.over or match.turn is None:
                    break
                moves = rules.legal_moves(rules.view(match.state, match.turn))
                match.apply(match.turn, rng.choice(moves))


@pytest.mark.parametrize("name", list(RULES))
def test_every_view_is_valid_under_its_game_s_closed_schema(name):
    cls = RULES[name]
    assert cls.table_json is not TableJSON, f"{name} does not declare its table"
    schema = cls.table_schema()
    assert schema["additionalProperties"] is False
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    seen = 0
    members: set[str] = set()
    for table in _views(name):
        error = jsonschema.exceptions.best_match(validator.iter_errors(table))
        assert error is None, f"{name}: {error.message} at {list(error.absolute_path)} in {table}"
        members |= table.keys()
        seen += 1
    assert seen > 60
    # The declaration lists nothing the game never shows.
    assert set(schema["properties"]) - members <= {
        "library",
        "examples",
        "syntax_help",
        "suggested",
        "fork",
        "privilege",
    }


def test_a_member_the_game_does_not_declare_is_refused():
    schema = RULES["crazy-eights"].table_schema()
    table = next(_views("crazy-eights"))
    jsonschema.validate(table, schema)
    with pytest.raises(jsonschema.ValidationError, match="Additional properties"):
        jsonschema.validate({**table, "hidden_cards": ["AS"]}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**table, "top": "ZZ"}, schema)
