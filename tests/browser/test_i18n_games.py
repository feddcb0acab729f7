"""The table in Norwegian Bokmål, game by game: a browser that prefers Norwegian opens a table of each
renderer of js/games/ (one game for each, Eleusis and the example plugin's Switch, which generic.js
draws, among them) at its seat's turn, and a few turns on; no English is left of what the renderer
says (js/games/i18n/en.json, its sentences with their values put in too) nor of what the game
declares in the catalogue (its move forms' label, hint, log words and fields, its layout), nor of
the pages' own messages (tests/browser/test_i18n.py's english_left).

And, without a browser: the renderers' catalogues have every word of a suit's and a rank's family
(phrases.js asks for them by letter), and every key the renderers ask for."""

from __future__ import annotations

import functools
import json
import re
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser
from playwright.sync_api import Page

from .conftest import LAPTOP
from .conftest import SEEDED_RANDOM
from .conftest import _seed_of
from .conftest import api
from .play import MY_TURN
from .play import OVER
from .test_i18n import SHOWN
from .test_i18n import english_left as pages_english_left

GAMES_JS = Path(__file__).resolve().parents[2] / "fairdeal" / "web" / "js" / "games"
EN, NB = (json.loads((GAMES_JS / "i18n" / f"{lang}.json").read_text(encoding="utf-8")) for lang in ("en", "nb"))
PLACEHOLDER = re.compile(r"\{\{\s*\w+\s*\}\}|\{\w+\}")  # the renderers' {{name}}, a move's said {member}

# One table of each renderer (the catalogue's `renderer`): the game, and its options. Hollywood
# Eights for the Eights renderer and The Earl of Coventry for Snip Snap's (their sheet and verses
# are the renderer's words too); Eleusis twice, the server dealing and the seats.
TABLES = {
    "crazy_eights": ("crazy-eights", {}),
    "eights": ("hollywood-eights", {}),
    "go_boom": ("go-boom", {}),
    "fan_tan": ("fan-tan", {}),
    "sequence": ("sequence", {}),
    "michigan": ("michigan", {}),
    "commit": ("commit", {}),
    "snip_snap": ("earl-of-coventry", {}),
    "rolling_stone": ("rolling-stone", {}),
    "eleusis": ("eleusis", {}),
    "eleusis-seats-deal": ("eleusis", {"dealer": 1}),
    "generic": ("switch", {}),
}
NAMES = ["Kari", "Ola", "Liv", "Per"]
TURNS = 5
"""How many of its own turns the seat plays (through the API, the page following) after the first look."""


def _pattern(text: str) -> re.Pattern[str] | None:
    """What finds an English message in a page's text: a word alone ("hearts", "Draw") as the whole
    of a text; more words anywhere in one, whatever the values put in ("This trick: Ola 7♥, …");
    None for a message with fewer than two words of its own ("{{count}} card", "{{name}} leads"),
    too few to tell from other English."""
    text = text.strip()
    parts = PLACEHOLDER.split(text)
    words = len(re.findall(r"[A-Za-z]{2,}", " ".join(parts)))
    if len(parts) == 1 and words == 1:
        return re.compile(r"\A" + re.escape(text) + r"\Z")
    if words < 2:
        return None
    body = "(?:.+?)".join(re.escape(part) for part in parts)
    return re.compile(
        ("(?<!\\w)" if re.match(r"\w", text) else "") + body + ("(?!\\w)" if re.search(r"\w$", text) else "")
    )


def _renderers_english() -> dict[str, re.Pattern[str]]:
    """The renderers' English messages whose Norwegian says something else, by key."""
    found = {}
    for key, text in EN.items():
        if PLACEHOLDER.sub("", NB[key]).strip() == PLACEHOLDER.sub("", text).strip():
            continue  # "{{name}}: pass", "Pass": the same words in both
        pattern = _pattern(text)
        if pattern is not None:
            found[key] = pattern
    return found


RENDERERS_ENGLISH = _renderers_english()


def _declared_words(document: dict[str, Any], name: str) -> set[str]:
    """What a game's catalogue entry says of its moves, its layout and its table's members, for people."""
    entry = next(entry for entry in document["games"] if entry["name"] == name)
    words = set()
    for form in entry["move_forms"]:
        words |= {form[key] for key in ("label", "hint", "said") if form[key]}
        words |= {field["doc"] for field in form["fields"] if field.get("doc")}
    words |= {entry["layout"][key] for key in ("hands", "cut_down", "extra") if entry["layout"][key]}
    return words | set(_table_labels(entry.get("table", {})))


def _table_labels(table: dict[str, Any]) -> list[str]:
    """A catalogue entry's table labels (and its values' words), all the way down."""
    words = []
    for member in table.values():
        words += [member["label"], *member.get("values", {}).values(), *_table_labels(member.get("fields", {}))]
    return words


@functools.cache
def declared_english(origin: str, name: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """A game's declared words in English (GET /rules) that its Norwegian (?lang=nb) does not also say."""
    with urllib.request.urlopen(f"{origin}/rules", timeout=30) as answer:
        english = _declared_words(json.load(answer), name)
    with urllib.request.urlopen(f"{origin}/rules?lang=nb", timeout=30) as answer:
        norwegian = _declared_words(json.load(answer), name)
    return tuple((words, p) for words in sorted(english - norwegian) if (p := _pattern(words)) is not None)


# The page's texts (test_i18n.py's SHOWN) but a key's letter (<kbd>D</kbd> draws in every language,
# though "D" is also the English dealer's chip). The reasons a card cannot be played (its `why-`
# note) are among them: the seat's view brings them in the page's language.
SHOWN_BUT_KEYS = SHOWN.replace("dialog:not([open])", "dialog:not([open]), kbd")
assert SHOWN_BUT_KEYS != SHOWN


def english_left(page: Page) -> list[str]:
    """test_i18n.py's english_left, over SHOWN_BUT_KEYS (the pages' English messages whose Norwegian
    differs, the games' English words, fairdeal's English sentences)."""
    return pages_english_left(page, seen=SHOWN_BUT_KEYS)


def games_english_left(page: Page, game: str) -> list[str]:
    """What the page shows that holds one of the renderers' English messages or the game's declared
    English words, each as "the text shown <- what it holds"."""
    origin = "{0.scheme}://{0.netloc}".format(urllib.parse.urlsplit(page.url))
    wanted = [*RENDERERS_ENGLISH.items(), *declared_english(origin, game)]
    shown = page.evaluate(SHOWN_BUT_KEYS)
    return [f"{text!r} <- {key}" for text in shown for key, pattern in wanted if pattern.search(text)]


def open_norwegian(browser: Browser, path: str, seed: int) -> tuple[Page, list[str]]:
    """``path`` in a fresh context whose browser prefers Norwegian; the page and the errors it logs."""
    context = browser.new_context(viewport=LAPTOP, locale="nb-NO", reduced_motion="reduce")
    context.set_default_timeout(30_000)
    context.add_init_script(SEEDED_RANDOM % seed)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.goto(path)
    return page, errors


def a_move(view: dict[str, Any]) -> dict[str, Any]:
    """The seat's move: a play where it has one, else the first legal (a dealer's rule: the one the
    table suggests)."""
    moves = view["legal_moves"]
    move = next((m for m in moves if m["move"] == "play"), moves[0])
    if move["move"] == "rule":
        table = view["table"]
        return {**move, "rule": table.get("suggested") or table["library"][0]}
    return move


@pytest.mark.parametrize("table", list(TABLES))
def test_a_table_in_bokmal_says_no_english(browser, server, table):
    name, options = TABLES[table]
    entry = next((entry for entry in api(server, "GET", "/rules")["games"] if entry["name"] == name), None)
    assert entry is not None, f"{name} is not installed (make test installs examples/switch)"
    seats = [{"name": n, "bot": i > 0} for i, n in enumerate(NAMES[: max(3, entry["seats"]["min"])])]
    game = api(server, "POST", "/games", {"rules": name, "seats": seats, "options": options})
    token = game["seats"][0]["join_token"]
    page, errors = open_norwegian(browser, f"{server}/table/{game['game_id']}#seat=0&token={token}", _seed_of(table))
    path = f"/games/{game['game_id']}/seats/0/view"
    looks = 0
    games_left: list[str] = []  # the renderer's and the game's English, look by look
    pages_left: list[str] = []  # the pages' own messages in English
    try:
        for _ in range(TURNS + 1):
            page.wait_for_selector(f"{MY_TURN}, {OVER}")
            assert page.evaluate("document.documentElement.lang") == "nb"
            games_left += [f"look {looks}: {left}" for left in games_english_left(page, name)]
            pages_left += [f"look {looks}: {left!r}" for left in english_left(page)]
            looks += 1
            view = api(server, "GET", path, token=token)
            if view["status"] != "playing" or not view["your_turn"]:
                break
            api(server, "POST", f"/games/{game['game_id']}/moves", {"seq": view["seq"], **a_move(view)}, token=token)
            page.wait_for_selector(f"body[data-seq='{api(server, 'GET', path, token=token)['seq']}']:not([data-busy])")
        assert looks >= 2, f"{table}: the seat had no turn after its first"
        assert not errors, errors
        assert games_left == [], table
        assert pages_left == [], table
        if table == "generic":
            # The plugin's own fields, by the labels it declares (its catalogue entry's table, in Bokmål).
            nb_entry = next(e for e in api(server, "GET", "/rules?lang=nb")["games"] if e["name"] == name)
            labels = {member["label"] for member in nb_entry["table"].values()}
            shown = page.eval_on_selector_all(
                "#generic-facts .fact-label, #generic-rows .row-label", "nodes => nodes.map(n => n.textContent)"
            )
            assert shown and {label.removesuffix(":") for label in shown} <= labels, (shown, labels)
            assert "Kort å trekke:" in shown and "Spilleretning:" in shown, shown
            facts = page.locator("#generic-facts").inner_text()
            assert ("med klokka" in facts or "mot klokka" in facts) and "clockwise" not in facts, facts
            assert "sort" in facts and "suit" not in facts, facts
    finally:
        page.context.close()


# -- the catalogues, without a browser ---------------------------------------------------------


@pytest.mark.parametrize(
    ("family", "letters"),
    [
        ("game.suit", "CDHS"),
        ("game.a_suit", "CDHS"),
        ("game.rank", "AJQK"),
        ("game.a_rank", "A23456789TJQK"),
        ("game.ranks", "A23456789TJQK"),
        ("snip_snap.verse_1", "A23456789TJQK"),
        ("snip_snap.verse_3", "A23456789TJQK"),
    ],
)
def test_a_family_of_words_has_every_letter_in_both_languages(family, letters):
    for catalogue in (EN, NB):
        assert sorted(key for key in catalogue if key.startswith(f"{family}.")) == sorted(
            f"{family}.{x}" for x in letters
        )


def test_every_key_a_renderer_asks_for_is_in_its_catalogue():
    # Any "prefix.key" string of js/games/*.js whose prefix is the renderers' (a key chosen by a
    # ternary too, which tests/test_i18n.py's t("...") search does not see).
    prefixes = {key.split(".")[0] for key in EN}
    plain = {re.sub(r"_(one|other)$", "", key) for key in EN}
    asked = {
        key
        for script in GAMES_JS.glob("*.js")
        for key in re.findall(r"\"((?:%s)\.[\w.]+)\"" % "|".join(prefixes), script.read_text(encoding="utf-8"))
    }
    families = {
        "game.suit",
        "game.a_suit",
        "game.rank",
        "game.a_rank",
        "game.ranks",
        "snip_snap.verse_1",
        "snip_snap.verse_3",
        "generic.kind",
    }
    by_letter = {key for key in plain if key.rsplit(".", 1)[0] in families}  # asked for as `${family}.${letter}`
    assert asked and sorted(asked - plain - families) == []
    assert sorted(plain - asked - by_letter) == [], "keys no renderer asks for"


def test_the_rule_language_s_help_is_the_rules_own_in_english():
    # The rule box shows the renderer's words for it (eleusis.syntax_help), in the page's language;
    # its English is the rules' SYNTAX_HELP, which the view carries, word for word.
    from fairdeal.rules.secret_rule import SYNTAX_HELP

    assert EN["eleusis.syntax_help"] == SYNTAX_HELP
    assert all(
        word in NB["eleusis.syntax_help"] for word in ("card.colour", "last.rank", "mainline", "if odd(last.rank)")
    )


def test_generic_js_says_every_kind_of_move_of_fairdeal_s_games():
    # The generic renderer's status line names the kinds a seat may make ("draw, or pass"): each
    # kind fairdeal's own games declare but the play (said with its card) has its words.
    from fairdeal.rules import RULES
    from fairdeal.rules import own

    kinds = {kind for cls in RULES.values() if own(cls) for kind in cls.move_kinds} - {"play"}
    for catalogue in (EN, NB):
        said = {key.removeprefix("generic.kind.") for key in catalogue if key.startswith("generic.kind.")}
        assert said == {kind.replace("-", "_") for kind in kinds}
