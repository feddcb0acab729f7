"""The catalogue: each game declares itself once, and GET /rules and spec/games.json say the same."""

import re
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from helpers import service_settings

from fairdeal.rules import DEFAULT
from fairdeal.rules import RULES
from fairdeal.rules import OptionsError
from fairdeal.rules import catalogue
from fairdeal.rules import catalogue_json
from fairdeal.rules import get
from fairdeal.rules import how_to_play
from fairdeal.rules import own

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "spec" / "games.json"


def test_spec_games_json_is_the_catalogue_generated_from_the_rules():
    # Regenerate with: fairdeal catalogue --own > spec/games.json (fairdeal's own games: no plugin's)
    assert SPEC.read_text(encoding="utf-8") == catalogue_json(own_only=True)


def test_every_game_declares_its_seats_options_unit_and_deal():
    entries = catalogue()["games"]
    assert [e["name"] for e in entries] == list(RULES)
    assert len(catalogue(own_only=True)["games"]) == 21
    for entry in entries:
        cls = RULES[entry["name"]]
        assert entry["title"] == cls.title and entry["summary"]
        assert entry["family"] in catalogue()["families"]
        assert 2 <= entry["seats"]["min"] <= entry["seats"]["max"] <= 10
        assert entry["unit"] in ("points", "chips", "counters", "deals")
        assert entry["layout"]["hands"]
        for option in entry["options"]:
            assert option["type"] == "integer"
            assert option["min"] <= option["default"] <= option["max"]
        assert {o["name"]: o["default"] for o in entry["options"]} == get(entry["name"]).options


def test_the_default_game_is_in_the_catalogue():
    assert DEFAULT in RULES and catalogue()["default"] == DEFAULT


@pytest.mark.parametrize("name", list(RULES))
def test_each_declared_range_is_what_the_rules_accept(name):
    for option in RULES[name].OPTIONS:
        get(name, {option.name: option.low})
        get(name, {option.name: option.high}).check_new()
        top = option.high if option.record_high is None else option.record_high
        get(name, {option.name: top})  # a record may hold an earlier version's maximum
        with pytest.raises(OptionsError, match=option.name):
            get(name, {option.name: top + 1})
        with pytest.raises(OptionsError, match=option.name):
            get(name, {option.name: option.high + 1}).check_new()
        with pytest.raises(OptionsError, match=option.name):
            get(name, {option.name: option.low - 1})


def test_declared_facts_match_the_books():
    by_name = {e["name"]: e for e in catalogue()["games"]}
    assert by_name["crazy-eights"]["seats"] == {"min": 2, "max": 6}
    assert by_name["commit"]["layout"]["removed"] == ["8D"] and by_name["commit"]["layout"]["extra"] == "stops"
    assert by_name["michigan"]["layout"]["extra"] == "extra hand"
    assert by_name["michigan"]["moves"] == ["play", "keep", "pass", "exchange", "auction", "bid"]
    assert by_name["sequence"]["moves"] == ["play"] and by_name["fan-tan"]["moves"] == ["play", "pass"]
    assert by_name["eights"]["layout"]["two_packs_from"] == 6
    assert by_name["fan-tan"]["unit"] == "chips" and by_name["michigan"]["unit"] == "counters"
    assert by_name["rolling-stone"]["unit"] == "deals" and by_name["spin"]["two_card_plays"]


def test_get_rules_serves_the_catalogue(tmp_path):
    from fairdeal.service.app import create_app

    with TestClient(create_app(service_settings(str(tmp_path)))) as client:
        answer = client.get("/rules")
        assert answer.status_code == 200 and answer.json() == catalogue()
        one = client.get("/rules/michigan")
        assert one.status_code == 200 and one.json() == RULES["michigan"].declaration()
        missing = client.get("/rules/poker")
        assert missing.status_code == 404 and "unknown rules 'poker'" in missing.json()["detail"]
        help_ = client.get("/rules/fan-tan/help")
        assert help_.status_code == 200
        assert help_.json() == {"name": "fan-tan", "title": "Fan Tan", "help": how_to_play("fan-tan")}
        unknown = client.get("/rules/poker/help")
        assert unknown.status_code == 404 and "unknown rules 'poker'" in unknown.json()["detail"]
        assert client.get("/rules/" + "x" * 41 + "/help").status_code == 422


HELP_MARKUP = re.compile(r"^(?:[^<>`#|\[\]]*)$")
"""What a "How to play" may hold: text, ``- `` bullets and ``**bold**``; no HTML, code, heading, table or link."""


@pytest.mark.parametrize("name", list(RULES))
def test_every_game_has_a_how_to_play_for_players(name):
    """Every catalogue game's text: the package carries it, its spec page links it, and it is the
    small markdown the pages draw, of a length a player reads (80 to about 200 words)."""
    text = how_to_play(name)
    words = re.findall(r"[A-Za-z0-9♠♥♦♣]+(?:['’][a-z]+)?", text)
    assert 80 <= len(words) <= 210, f"{name}: {len(words)} words"
    assert all(HELP_MARKUP.match(line) for line in text.splitlines()), name
    assert text.count("**") % 2 == 0, f"{name}: an unclosed **"
    for heading in ("**Goal.**", "**The deal.**", "**A turn.**"):
        assert heading in text, f"{name} says nothing under {heading}"
    # fairdeal's own pages are in spec/games/; a plugin's (examples/) in its package's spec/.
    candidates = [*(ROOT / "spec" / "games").glob("*.md"), *(ROOT / "examples").glob("*/spec/*.md")]
    pages = [p for p in candidates if f"Rules name: `{name}`" in p.read_text()]
    package = Path(sys.modules[RULES[name].__module__].__file__).parent  # (fairdeal/rules, or the plugin's)
    help_file = package / "help" / f"{name}.md"
    assert help_file.read_text(encoding="utf-8") == text
    said = help_file.relative_to(ROOT if own(RULES[name]) else package.parent).as_posix()
    assert len(pages) == 1 and said in pages[0].read_text(), (said, pages)


def test_how_to_play_refuses_an_unknown_game():
    with pytest.raises(OptionsError, match="unknown rules 'poker'"):
        how_to_play("poker")


@pytest.mark.parametrize("name", list(RULES))
def test_a_game_declares_exactly_the_move_kinds_its_seats_are_offered(name):
    import itertools
    import random

    from fairdeal import Seat
    from fairdeal import Signer
    from fairdeal import Table

    cls = RULES[name]
    offered = set()
    # Each value of a choice (Eleusis: the server deals, or the seats do and give their rule).
    variants = [{}] + [{o.name: v} for o in cls.OPTIONS if o.choices for v in o.choices if v != o.default]
    for options, seats in itertools.product(variants, range(cls.min_seats, min(cls.max_seats, 5) + 1)):
        table = Table.new(
            f"kinds-{seats}",
            get(name, options),
            [Seat(f"P{s}", bot=True) for s in range(seats)],
            Signer.from_seed(bytes(32)),
            created="2026-01-01T00:00:00Z",
            server_seed="0d" * 32,
        )
        rng = random.Random(seats)
        for _ in range(1500):
            if table.over:
                break
            moves = table.legal_moves(table.turn)
            offered |= {m.kind for m in moves}
            table.move(table.turn, rng.choice(moves))
    declared = set(cls.declaration()["moves"])
    assert offered <= declared
    # A pass that comes only once the restocks run out (a game with a restock limit) may not
    # show up in these games; every other declared kind does.
    assert declared - offered <= {"pass"} if "restock_limit" in cls.defaults else declared == offered
