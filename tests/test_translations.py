"""What the games say in Norwegian Bokmål, from their own packages (fairdeal.rules.translations):
every game of fairdeal's own translates every word it declares (its moves' and layout's too), and has
its "How to play" in nb; the catalogue in a language differs from the English in its words alone."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from fairdeal.rules import RULES
from fairdeal.rules import catalogue
from fairdeal.rules import how_to_play
from fairdeal.rules import own
from fairdeal.rules.translations import GAME_FIELDS
from fairdeal.rules.translations import LAYOUT_FIELDS
from fairdeal.rules.translations import LanguageError
from fairdeal.rules.translations import TranslationError
from fairdeal.rules.translations import _file
from fairdeal.rules.translations import help_in
from fairdeal.rules.translations import language
from fairdeal.rules.translations import texts
from fairdeal.rules.translations import translated

ROOT = Path(__file__).resolve().parent.parent
OWN = [name for name, cls in RULES.items() if own(cls)]
NB = json.loads((ROOT / "fairdeal" / "rules" / "i18n" / "nb.json").read_text(encoding="utf-8"))
"""fairdeal's own games' words in Bokmål, by rules name, and their messages (``"messages"``)."""
WORDS = ("title", "family", "summary", "options", "move_forms", "layout", "table")
"""An entry's members that hold words for people: everything else is the same in every language."""
MOVE_WORDS = ("label", "hint", "said")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def test_the_nb_file_names_fairdeal_s_own_games_and_no_other():
    assert sorted(NB) == sorted([*OWN, "messages"])


@pytest.mark.parametrize("name", OWN)
def test_every_word_a_game_declares_has_its_bokmal(name):
    english = RULES[name].declaration()
    words = texts(RULES[name], "nb")
    for field in GAME_FIELDS:
        assert words.get(field, "").strip(), f"{name}: no nb {field}"
    assert sorted(words.get("options", {})) == sorted(o["name"] for o in english["options"]), name
    for option in english["options"]:
        said = words["options"][option["name"]]
        declared = {key for key in ("help", "unit", "low_means", "choices") if key in option}
        assert set(said) == declared, f"{name}: option {option['name']}: {sorted(said)} for {sorted(declared)}"
        if "choices" in option:
            assert sorted(said["choices"]) == sorted(option["choices"]), (name, option["name"])
    layout = {key for key in LAYOUT_FIELDS if english["layout"][key]}
    assert set(words.get("layout", {})) == layout, (
        f"{name}: layout {sorted(words.get('layout', {}))} for {sorted(layout)}"
    )


@pytest.mark.parametrize("name", OWN)
def test_every_move_kind_a_game_declares_has_its_bokmal_words(name):
    # What the table's buttons, its key hint and its play log say of each move (the move forms).
    english = RULES[name].declaration()["move_forms"]
    said = texts(RULES[name], "nb").get("moves", {})
    assert sorted(said) == sorted(form["kind"] for form in english), name
    for form in english:
        words = said[form["kind"]]
        assert {key for key in words if key != "fields"} == {key for key in MOVE_WORDS if form[key]}, (
            name,
            form["kind"],
        )
        docs = {field["name"] for field in form["fields"] if field.get("doc")}
        assert {field for field, doc in words.get("fields", {}).items() if doc.get("doc")} == docs, (name, form["kind"])
        if form["said"]:
            # The log puts the move's members in: the same ones, in any order.
            assert sorted(PLACEHOLDER.findall(words["said"])) == sorted(PLACEHOLDER.findall(form["said"]))


def test_a_family_has_one_name_in_bokmal():
    families: dict[str, set[str]] = {}
    for name in OWN:
        families.setdefault(RULES[name].family, set()).add(NB[name]["family"])
    assert all(len(names) == 1 for names in families.values()), families
    assert len({next(iter(names)) for names in families.values()}) == len(families)


NB_HELP = ROOT / "fairdeal" / "rules" / "help" / "nb"


def _shape(markdown: str) -> list[str]:
    """Paragraphs and bullets, in order: what the page draws of a text, less its words."""
    return ["-" if line.startswith("- ") else "p" for line in markdown.splitlines() if line.strip()]


@pytest.mark.parametrize("name", OWN)
def test_every_game_has_its_how_to_play_in_bokmal(name):
    text = (NB_HELP / f"{name}.md").read_text(encoding="utf-8")
    assert how_to_play(name, "nb") == text and help_in(RULES[name], "nb").lang == "nb"
    words = re.findall(r"[\w♠♥♦♣]+(?:['’]\w+)?", text)
    assert 80 <= len(words) <= 230, f"{name}: {len(words)} words"
    assert all(re.match(r"^[^<>`#|\[\]]*$", line) for line in text.splitlines()), name
    assert text.count("**") % 2 == 0, f"{name}: an unclosed **"
    for heading in ("**Mål.**", "**Utdelingen.**", "**En tur.**"):
        assert heading in text, f"{name} says nothing under {heading}"
    assert _shape(text) == _shape(how_to_play(name)), f"{name}: not the English's paragraphs and bullets"


def test_the_help_folder_holds_fairdeal_s_own_games_and_no_other():
    assert sorted(path.stem for path in NB_HELP.glob("*.md")) == sorted(OWN)


def test_the_example_plugin_ships_its_own_bokmal():
    assert "switch" in RULES, "examples/switch is not installed (make test installs it)"
    switch = RULES["switch"]
    assert texts(switch, "nb")["family"] == NB["crazy-eights"]["family"]  # it joins its family's group
    assert help_in(switch, "nb").text.startswith("**Mål.**")
    assert catalogue(lang="nb")["games"][[g["name"] for g in catalogue()["games"]].index("switch")]["summary"] != (
        switch.summary_line
    )


def test_the_catalogue_in_bokmal_differs_from_the_english_in_its_words_alone():
    english, nb = catalogue(), catalogue(lang="nb")
    assert nb["lang"] == "nb" and "lang" not in english
    assert [key for key in nb if key != "lang"] == list(english)
    assert nb["version"] == english["version"] and nb["default"] == english["default"]
    assert len(nb["families"]) == len(english["families"])
    for en_entry, nb_entry in zip(english["games"], nb["games"], strict=True):
        assert list(nb_entry) == list(en_entry)
        assert {k: v for k, v in nb_entry.items() if k not in WORDS} == {
            k: v for k, v in en_entry.items() if k not in WORDS
        }
        assert nb_entry["family"] == nb["families"][english["families"].index(en_entry["family"])]
        for en_form, nb_form in zip(en_entry["move_forms"], nb_entry["move_forms"], strict=True):
            assert list(nb_form) == list(en_form)
            assert {k: v for k, v in nb_form.items() if k not in (*MOVE_WORDS, "fields")} == {
                k: v for k, v in en_form.items() if k not in (*MOVE_WORDS, "fields")
            }
            assert [{k: v for k, v in f.items() if k != "doc"} for f in nb_form["fields"]] == [
                {k: v for k, v in f.items() if k != "doc"} for f in en_form["fields"]
            ]
        assert list(nb_entry["layout"]) == list(en_entry["layout"])
        assert {k: v for k, v in nb_entry["layout"].items() if k not in LAYOUT_FIELDS} == {
            k: v for k, v in en_entry["layout"].items() if k not in LAYOUT_FIELDS
        }
        for en_option, nb_option in zip(en_entry["options"], nb_entry["options"], strict=True):
            assert list(nb_option) == list(en_option)
            assert {k: v for k, v in nb_option.items() if k not in ("help", "unit", "low_means", "choices")} == {
                k: v for k, v in en_option.items() if k not in ("help", "unit", "low_means", "choices")
            }
        if own(RULES[en_entry["name"]]):
            assert nb_entry["summary"] != en_entry["summary"], en_entry["name"]
            assert nb_entry["layout"]["hands"] != en_entry["layout"]["hands"], en_entry["name"]


def test_a_language_no_game_speaks_is_the_english_saying_so():
    english = catalogue()
    for tag in ("de", "en", "en-GB", "fr-CA"):
        answer = catalogue(lang=tag)
        assert answer.pop("lang") == "en" and answer == english, tag
    assert how_to_play("michigan", "de") == how_to_play("michigan")
    assert catalogue(lang="nb-NO") == catalogue(lang="NB") == catalogue(lang="nb")


@pytest.mark.parametrize("tag", ["", "n", "nb_NO", "nb-", "-nb", "nb NO", "nb\n", "123", "nb-" + "x" * 9, "x" * 40])
def test_a_tag_that_is_not_one_is_refused(tag):
    with pytest.raises(LanguageError, match="not a language tag"):
        language(tag)
    with pytest.raises(LanguageError):
        catalogue(lang=tag)
    with pytest.raises(LanguageError):
        how_to_play("michigan", tag)


def test_a_translation_gives_only_the_words_the_english_has():
    entry = RULES["crazy-eights"].declaration()
    out = translated(
        entry,
        {
            "title": "X",
            "options": {"restock_limit": {"unit": "ganger"}, "target": {"help": "y"}},
            "moves": {"play": {"hint": "spiller", "fields": {"card": {"doc": "z"}, "then": {"doc": "w"}}}},
            "layout": {"hands": "h", "extra": "e"},
        },
    )
    assert out["title"] == "X" and out["summary"] == entry["summary"]
    assert "unit" not in out["options"][1] and out["options"][0]["help"] == "y"
    assert out["move_forms"][0]["hint"] == "" and out["move_forms"][0]["fields"][0]["doc"] == "z"
    assert len(out["move_forms"][0]["fields"]) == 2  # no field the English lacks
    assert out["layout"]["hands"] == "h" and out["layout"]["extra"] is None
    assert entry["title"] == "Crazy Eights" and entry["move_forms"][0]["fields"][0]["doc"] == "The card played."


@pytest.mark.parametrize(
    ("document", "said"),
    [
        ("[]", "is not an object of games"),
        ("{", "does not read as JSON"),
        (
            '{"poker": {"titel": "Poker"}}',
            "poker has 'titel'; it may have title, summary, family, options, moves, layout",
        ),
        ('{"poker": {"title": 7}}', "poker: 'title' is not a string of words"),
        ('{"poker": {"options": []}}', "poker: 'options' is not an object"),
        ('{"poker": {"options": {"ante": {"hint": "x"}}}}', "poker: option 'ante' has 'hint'"),
        ('{"poker": {"options": {"ante": {"choices": {"0": ""}}}}}', "'choices' is not an object of strings"),
        ('{"poker": {"moves": []}}', "poker: 'moves' is not an object"),
        (
            '{"poker": {"moves": {"raise": {"labl": "Høyn"}}}}',
            "poker: move 'raise' has 'labl'; it may have label, hint",
        ),
        ('{"poker": {"moves": {"raise": {"said": " "}}}}', "poker: move 'raise': 'said' is not a string of words"),
        ('{"poker": {"moves": {"raise": {"fields": {"amount": {"help": "x"}}}}}}', "field 'amount' has 'help'"),
        ('{"poker": {"layout": {"hands": "5 kort", "cards": "x"}}}', "poker: layout has 'cards'"),
        ('{"poker": {"table": {"pot": {"labl": "Potten"}}}}', "poker: table 'pot' has 'labl'; it may have label"),
        ('{"poker": {"table": {"pot": {"values": {"open": 1}}}}}', "poker: table 'pot': 'values' is not an object"),
        ('{"messages": []}', "'messages' is not an object of templates"),
        ('{"messages": {"{pot} chips": " "}}', "message '{pot} chips' is not a string of words"),
        (
            '{"messages": {"{pot} chips": "{potten} sjetonger"}}',
            "message '{pot} chips' puts in ['potten'], not its own",
        ),
    ],
)
def test_a_broken_translation_file_is_refused_naming_the_file_and_the_fault(tmp_path, monkeypatch, document, said):
    package = f"house_games_{abs(hash(document))}"
    (tmp_path / package / "i18n").mkdir(parents=True)
    (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / package / "i18n" / "nb.json").write_text(document, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        with pytest.raises(TranslationError, match=re.escape(said)) as caught:
            _file(package, "nb")
        assert str(caught.value).startswith(f"{package}/i18n/nb.json: ")
    finally:
        sys.modules.pop(package, None)
