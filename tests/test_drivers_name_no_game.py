"""No driver names a game: outside fairdeal/rules/ (and the browser's js/games/, checked by the
browser tests) no code of the package compares against a rules name or lists the games."""

import re
from pathlib import Path

from fairdeal.rules import RULES

ROOT = Path(__file__).resolve().parent.parent
GAME_NAME = re.compile(
    r"""["'`](%s)["'`]""" % "|".join(re.escape(name) for name in sorted(RULES, key=len, reverse=True))
)


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


def _game_features() -> set[str]:
    """What a game declares that no driver may branch on by name: its move kinds beyond the basic
    four (play, draw, keep, pass, which every game reads) and its secret's line types and move."""
    from fairdeal.rules.move import BASIC

    features = {kind for cls in RULES.values() for kind in cls.move_kinds} - {kind.name for kind in BASIC}
    for cls in RULES.values():
        if cls.secret is not None:
            features |= {cls.secret.move, cls.secret.commitment, cls.secret.reveal}
    return features


def _branching_on(words: set[str]) -> re.Pattern[str]:
    """A comparison with, a lookup of or a case of one of ``words`` as a quoted string:
    ``kind == "rule"``, ``in ("bid", ...)``, ``line["rule"]``, ``.get("rule-reveal")``, ``case "call"``."""
    quoted = r"""["'](?:%s)["']""" % "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(
        rf"(?:==|!=|\bin|\bcase)\s*[(\[{{]?\s*{quoted}|\[\s*{quoted}\s*\]|\.get\(\s*{quoted}|{quoted}\s*(?:==|!=|\bin\b)"
    )


def test_the_feature_search_would_find_a_branch():
    pattern = _branching_on({"rule", "rule-reveal"})
    for text in (
        'if move.kind == "rule":',
        'kind in ("rule", "x")',
        'line["rule"]',
        "line.get('rule-reveal')",
        'if "rule" in line:',
        'case "rule":',
    ):
        assert pattern.search(text), text
    assert not pattern.search('{"schema": {"type": "rule"}}') and not pattern.search('FIELDS = ("move", "rule")')


def test_no_python_driver_branches_on_a_game_feature():
    # The table, the service, the verifier and the CLI read a game's moves and secrets through
    # its declaration (Rules.move_kinds, Rules.secret), never by a kind's or a line type's name.
    features = _game_features()
    assert {"rule", "rule-reveal", "rule-commitment", "bid", "string"} <= features
    pattern = _branching_on(features)
    found = []
    for path in _driver_files():
        if path.suffix != ".py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


TYPEOF = re.compile(r"""typeof\s+[\w.?]+\s*[!=]==?\s*["'`]\w+["'`]""")
"""JavaScript's ``typeof x === "string"``: a type's name, not a move's (Eleusis's ``string``)."""


def test_no_page_script_names_a_game_feature():
    # The table's controls, keys and log words of every kind but a card's play come from the
    # game's declared move forms (the catalogue's move_forms), its secret from the declaration:
    # a driver's script names none of a game's own kinds or line types, even as a plain string.
    features = _game_features()
    quoted = re.compile(r"""["'`](%s)["'`]""" % "|".join(re.escape(w) for w in sorted(features, key=len, reverse=True)))
    found = []
    for path in _driver_files():
        if path.suffix not in (".js", ".html") or "vendor" in path.parts:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if quoted.search(TYPEOF.sub("", line)):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []
    assert quoted.search('if (legal("bid")) box.focus();') and not quoted.search(
        TYPEOF.sub("", 'typeof x === "string"')
    )
