"""No driver names a game: outside fairdeal/rules/ (and the browser's js/games/, checked by the
browser tests) no code of the package compares against a rules name or lists the games."""

import re
from pathlib import Path

from fairdeal.rules import RULES

ROOT = Path(__file__).resolve().parent.parent
GAME_NAME = re.compile(r"""["'`](%s)["'`]""" % "|".join(re.escape(name) for name in sorted(RULES, key=len, reverse=True)))


def _driver_files() -> list[Path]:
    files = []
    for folder in ("fairdeal", "verifier"):
        for path in sorted((ROOT / folder).rglob("*")):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith(("fairdeal/rules/", "fairdeal/web/js/games/")):
                continue
            if path.suffix in (".py", ".js", ".html"):
                files.append(path)
    return files


def test_no_driver_names_a_game():
    found = []
    for path in _driver_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if GAME_NAME.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


def test_the_search_would_find_a_name():
    assert GAME_NAME.search('if rules.name == "jig":') and GAME_NAME.search("rules === 'crazy-eights'")
    assert not GAME_NAME.search('"crazy"') and len(_driver_files()) > 30
