"""The pages' message catalogues (fairdeal/web/js/i18n/<lang>.json and the renderers'
fairdeal/web/js/games/i18n/<lang>.json, i18next JSON v4): Norwegian
Bokmål says everything English does, with the same values put in, and every key a page asks for
is in them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[1] / "fairdeal" / "web"
FOLDERS = (WEB / "js" / "i18n", WEB / "js" / "games" / "i18n")  # the pages' words, the renderers' words


def catalogue(lang: str) -> dict[str, str]:
    """Both catalogues of ``lang`` as the pages merge them; no key in both."""
    parts = [json.loads((folder / f"{lang}.json").read_text(encoding="utf-8")) for folder in FOLDERS]
    assert not set(parts[0]) & set(parts[1]), "a key in both catalogues"
    return {key: text for part in parts for key, text in part.items()}


CATALOGUES = {lang: catalogue(lang) for lang in ("en", "nb")}
PLACEHOLDER = re.compile(r"\{\{\s*(\w+)\s*\}\}")
PLURAL = re.compile(r"_(zero|one|two|few|many|other)$")


def test_norwegian_has_every_key_of_english_and_no_other():
    assert sorted(CATALOGUES["nb"]) == sorted(CATALOGUES["en"])


@pytest.mark.parametrize("lang", sorted(CATALOGUES))
def test_every_message_is_words_with_the_same_values_put_in(lang):
    for key, text in CATALOGUES[lang].items():
        assert isinstance(text, str) and text.strip(), (lang, key)
        assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(CATALOGUES["en"][key])), (lang, key)


def test_a_count_has_its_other_form():
    for key in CATALOGUES["en"]:
        if PLURAL.search(key):
            assert PLURAL.sub("_other", key) in CATALOGUES["en"], key


def test_every_key_the_pages_ask_for_is_in_the_catalogue():
    # t("key", ...) in the scripts and data-i18n / data-i18n-attrs in the pages.
    asked: set[str] = set()
    for script in (WEB / "js").rglob("*.js"):
        code = re.sub(r"^\s*//.*$", "", script.read_text(encoding="utf-8"), flags=re.M)  # not the examples in comments
        asked |= set(re.findall(r"\bt\(\s*\"([\w.]+)\"", code))
    for page in WEB.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        asked |= set(re.findall(r'data-i18n="([\w.]+)"', text))
        for attrs in re.findall(r'data-i18n-attrs="([^"]+)"', text):
            asked |= {pair.split(":")[1].strip() for pair in attrs.split(";") if ":" in pair}
    plain = {PLURAL.sub("", key) for key in CATALOGUES["en"]}
    assert asked and not {key for key in asked if key not in plain}
