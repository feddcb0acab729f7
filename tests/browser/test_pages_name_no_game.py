"""The pages name no game (issue 13): outside fairdeal/web/js/games/, no file of fairdeal/web holds a
rules name or a game's title as a string, an object key or an attribute; the lobby, the table and the
verify page read the catalogue (GET /rules) and the game's module in js/games/ instead. And every
game of the catalogue has its renderer there (js/games/<renderer>.js)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fairdeal.rules import RULES
from fairdeal.rules import catalogue
from fairdeal.web import WEB_DIR

GAMES_DIR = WEB_DIR / "js" / "games"


def _page_files() -> list[Path]:
    files = [p for p in WEB_DIR.rglob("*") if p.suffix in (".js", ".html", ".css") and GAMES_DIR not in p.parents]
    assert any(p.name == "table.js" for p in files) and any(p.name == "index.html" for p in files)
    return files


def _naming(text: str, word: str) -> list[str]:
    """Where ``text`` holds ``word`` as a quoted string, an unquoted object key, or a name in a CSS selector."""
    w = re.escape(word)
    patterns = [rf"[\"'`]{w}[\"'`]", rf"(?<![\w.$-]){w}\s*:(?!:)", rf"\[data-rules=[\"']?{w}"]
    return [m.group(0) for p in patterns for m in re.finditer(p, text)]


def test_no_page_outside_js_games_names_a_game():
    games = catalogue()["games"]
    assert len(games) == len(RULES) >= 21
    found = {}
    for path in _page_files():
        text = path.read_text(encoding="utf-8")
        for game in games:
            for word in (game["name"], game["title"]):
                hits = _naming(text, word)
                if hits:
                    found.setdefault(str(path.relative_to(WEB_DIR)), []).extend(hits)
    assert not found, f"game names outside js/games/: {found}"


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ('if (rules === "spin")', "spin"),
        ("const SEATS = { sjueren: [3, 6] };", "sjueren"),
        ("<option value='jig'>", "jig"),
        ("`commit`", "commit"),
        ('body[data-rules="fan-tan"]', "fan-tan"),
        ('const TITLES = { eights: "Eights" };', "Eights"),
    ],
)
def test_the_search_catches_each_way_of_naming_a_game(text, word):
    # The check above is only as good as its patterns.
    assert _naming(text, word)


def test_the_search_passes_words_that_are_no_game_name():
    assert not _naming("client-commit commitment sequence of moves; commit(seed)", "commit")


def test_every_game_has_its_renderer_in_js_games():
    # A plugin's game without a renderer of its own names "generic" (generic.js: drawn from its view).
    renderers = {game["renderer"] for game in catalogue()["games"]} | {"generic"}
    for renderer in renderers:
        assert (GAMES_DIR / f"{renderer}.js").is_file(), renderer
        text = (GAMES_DIR / f"{renderer}.js").read_text(encoding="utf-8")
        assert "export default" in text, f"{renderer}.js draws no table"
