"""What the games say, in other languages than English: each game's package carries its own.

English is what a game declares in its rules class (``title``, ``summary_line``, ``family``, its
options' ``help``, ``unit``, ``low_means`` and ``choices``, its moves' ``label``, ``hint``, ``said``
and fields' ``doc``, its layout's ``hands``, ``cut_down`` and ``extra``) and its ``help/<name>.md``.
Another language is two more things in the same package, beside the help:

- ``i18n/<lang>.json``: by rules name, the game's words in that language; a word left out stays
  English (``lang`` is the language's first subtag, lowercase: ``nb``)::

    {"sjueren": {"title": "Sjueren", "summary": "...", "family": "Fan Tan-familien",
                 "options": {"deals": {"help": "utdelinger i økten", "low_means": "..."},
                             "partners": {"choices": {"0": "...", "1": "..."}}},
                 "moves": {"pass": {"label": "Pass", "hint": "passer", "said": "passet"}},
                 "layout": {"hands": "hele kortstokken, delt rundt (...)"}}}

  A move's words are by its kind (a field's ``doc`` by the field's name: ``"fields": {"amount":
  {"doc": "..."}}``); its ``said`` keeps the English's ``{member}`` placeholders. A game's ``table``
  is what a page calls the members of its table that the game labels (its ``table_json``'s
  :class:`~fairdeal.rules.schema.Label`), by name: ``"table": {"penalty": {"label": "..."},
  "direction": {"label": "...", "values": {"clockwise": "..."}}, "next": {"fields": {...}}}``.

  Beside the games, the member ``messages`` (no game's name) holds what the package's games write
  for people as :class:`~fairdeal.said.Said` (a card's why-not note, a blocked hand's reason, a
  refused move), by English template, with the same ``{name}`` placeholders::

    {"messages": {"{card} does not match {top} in suit or rank":
                  "{card} passer ikke til {top} i sort eller valør"}}

  fairdeal's own words besides its games' (the rules' shared ones in ``base.py``, the table's, the
  service's, the verifier's) are the same member of ``fairdeal/i18n/<lang>.json``
  (:data:`FAIRDEAL`). :func:`say` looks a template up in the packages it is given, in order.

- ``help/<lang>/<name>.md``: its "How to play", the same small markdown as the English.

>>> from fairdeal.rules import RULES
>>> entry = translated(RULES["sjueren"].declaration(), texts(RULES["sjueren"], "nb"))
>>> entry["title"], entry["options"][0]["low_means"], entry["move_forms"][1]["said"]
('Sjueren', 'hver spiller gir én gang', 'passet')
>>> help_in(RULES["michigan"], "nb").lang, help_in(RULES["michigan"], "de").lang
('nb', 'en')
>>> from fairdeal.said import Said
>>> from fairdeal.cards import Card
>>> say(Said("{card} does not match {top} in suit or rank", card=Card.parse("8H"), top=Card.parse("9C")),
...     "nb", ("fairdeal.rules",))
'8♥ passer ikke til 9♣ i sort eller valør'
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from collections.abc import Sequence
from importlib import resources
from typing import Any
from typing import NamedTuple

from fairdeal.rules.base import Rules
from fairdeal.said import Said
from fairdeal.said import shown

__all__ = [
    "ENGLISH",
    "FAIRDEAL",
    "MESSAGES",
    "LANGUAGE_TAG",
    "GAME_FIELDS",
    "OPTION_FIELDS",
    "MOVE_FIELDS",
    "FIELD_FIELDS",
    "LAYOUT_FIELDS",
    "TABLE_FIELDS",
    "LanguageError",
    "TranslationError",
    "Help",
    "language",
    "texts",
    "messages",
    "say",
    "said_in",
    "placeholders",
    "translated",
    "translated_catalogue",
    "help_in",
]

ENGLISH = "en"
"""The language the games declare themselves in, and the one an answer falls back to."""

FAIRDEAL = "fairdeal"
"""The package whose ``i18n/<lang>.json`` holds fairdeal's own words besides its games' (its
``messages`` member: the rules' shared ones, the table's, the service's, the verifier's)."""

MESSAGES = "messages"
"""The member of a package's ``i18n/<lang>.json`` that holds its :class:`~fairdeal.said.Said`
templates' translations (no game is called this)."""

_TAG = re.compile(r"[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*")
LANGUAGE_TAG = f"^{_TAG.pattern}$"
"""What a language tag looks like (BCP 47's shape, loosely): ``nb``, ``nb-NO``, ``en-GB``; at most
35 characters. The service's ``?lang=`` is checked against it (a 422 otherwise)."""

GAME_FIELDS = ("title", "summary", "family")
"""A game's words a translation may give, besides its options'."""

OPTION_FIELDS = ("help", "unit", "low_means", "choices")
"""An option's words a translation may give (``choices``: by value, as the catalogue's keys)."""

MOVE_FIELDS = ("label", "hint", "said", "fields")
"""A move form's words a translation may give, by its kind (``fields``: by a field's name, its
:data:`FIELD_FIELDS`). ``said`` is the log's template: the same ``{member}`` placeholders as the English."""

FIELD_FIELDS = ("doc",)
"""A move field's words a translation may give."""

LAYOUT_FIELDS = ("hands", "cut_down", "extra")
"""The layout's words a translation may give."""

TABLE_FIELDS = ("label", "values", "fields")
"""A labelled table member's words a translation may give, by the member's name: its ``label``,
what each of its ``values`` means, and its own members' (``fields``, by name, the same again)."""

_NESTED = ("options", "choices", "moves", "fields", "layout", "table", "values")
"""Members that hold more members, not words."""

_PLACEHOLDER = re.compile(r"(?<!\{)\{(\w+)\}")


class LanguageError(ValueError):
    """A language tag that is not one.

    >>> language("nb no")
    Traceback (most recent call last):
    ...
    fairdeal.rules.translations.LanguageError: not a language tag: 'nb no' (letters and subtags, like nb or nb-NO)
    """

    def __init__(self, tag: str) -> None:
        self.tag = tag
        super().__init__(f"not a language tag: {tag!r} (letters and subtags, like nb or nb-NO)")


class TranslationError(ValueError):
    """A game package's translation file that is not what fairdeal reads: the file, and what is wrong.

    >>> str(TranslationError("house_games", "nb", "poker: 'title' is not a string"))
    "house_games/i18n/nb.json: poker: 'title' is not a string"
    """

    def __init__(self, package: str, lang: str, reason: str) -> None:
        self.package = package
        self.lang = lang
        self.reason = reason
        super().__init__(f"{package.replace('.', '/')}/i18n/{lang}.json: {reason}")


class Help(NamedTuple):
    """A game's "How to play" and the language it is in."""

    text: str
    lang: str


def language(tag: str) -> str:
    """The language a tag names, as the games file their translations: its first subtag, lowercase;
    :class:`LanguageError` for a tag that is not one.

    >>> language("nb-NO"), language("EN")
    ('nb', 'en')
    """
    if not isinstance(tag, str) or len(tag) > 35 or not _TAG.fullmatch(tag):
        raise LanguageError(tag)
    return tag.split("-", 1)[0].lower()


def _strings(package: str, lang: str, where: str, words: Any, fields: Sequence[str]) -> dict[str, Any]:
    # A member outside ``fields`` is a typo (``titel``) that would silently leave the English.
    if not isinstance(words, dict):
        raise TranslationError(package, lang, f"{where} is not an object")
    for key, value in words.items():
        if key not in fields:
            raise TranslationError(package, lang, f"{where} has {key!r}; it may have {', '.join(fields)}")
        if key not in _NESTED and not (isinstance(value, str) and value.strip()):
            raise TranslationError(package, lang, f"{where}: {key!r} is not a string of words")
    return words


def _members(package: str, lang: str, where: str, words: Mapping[str, Any], member: str) -> dict[str, Any]:
    """``words[member]``, an object by name (moves by kind, a move's fields, options, choices); empty if absent."""
    found = words.get(member, {})
    if not isinstance(found, dict):
        raise TranslationError(package, lang, f"{where}: {member!r} is not an object")
    return found


@functools.cache
def _document(package: str, lang: str) -> tuple[Mapping[str, Mapping[str, Any]], Mapping[str, str]]:
    """The translations into ``lang`` that ``package`` ships: its games' words by rules name, and
    its :data:`MESSAGES` (read once, checked)."""
    path = resources.files(package).joinpath("i18n", f"{lang}.json")
    if not path.is_file():
        return {}, {}
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:  # not UTF-8, or not JSON
        raise TranslationError(package, lang, f"does not read as JSON: {exc}") from exc
    if not isinstance(document, dict):
        raise TranslationError(package, lang, "is not an object of games")
    said = document.pop(MESSAGES, {})
    if not isinstance(said, dict):
        raise TranslationError(package, lang, f"{MESSAGES!r} is not an object of templates")
    for template, words in said.items():
        if not (isinstance(words, str) and words.strip()):
            raise TranslationError(package, lang, f"message {template!r} is not a string of words")
        if placeholders(words) != placeholders(template):
            raise TranslationError(
                package, lang, f"message {template!r} puts in {sorted(placeholders(words))}, not its own"
            )
    for name, words in document.items():
        _strings(package, lang, name, words, (*GAME_FIELDS, "options", "moves", "layout", "table"))
        _strings(package, lang, f"{name}: layout", words.get("layout", {}), LAYOUT_FIELDS)
        for kind, said_of in _members(package, lang, name, words, "moves").items():
            where = f"{name}: move {kind!r}"
            _strings(package, lang, where, said_of, MOVE_FIELDS)
            for field, words_of in _members(package, lang, where, said_of, "fields").items():
                _strings(package, lang, f"{where}: field {field!r}", words_of, FIELD_FIELDS)
        for option, said_of in _members(package, lang, name, words, "options").items():
            _strings(package, lang, f"{name}: option {option!r}", said_of, OPTION_FIELDS)
            choices = _members(package, lang, f"{name}: option {option!r}", said_of, "choices")
            if not all(isinstance(v, str) and v.strip() for v in choices.values()):
                raise TranslationError(
                    package, lang, f"{name}: option {option!r}: 'choices' is not an object of strings"
                )
        _table(package, lang, f"{name}: table", _members(package, lang, name, words, "table"))
    return document, said


def _table(package: str, lang: str, where: str, members: Mapping[str, Any]) -> None:
    for member, words in members.items():
        _strings(package, lang, f"{where} {member!r}", words, TABLE_FIELDS)
        values = _members(package, lang, f"{where} {member!r}", words, "values")
        if not all(isinstance(v, str) and v.strip() for v in values.values()):
            raise TranslationError(package, lang, f"{where} {member!r}: 'values' is not an object of strings")
        _table(package, lang, f"{where} {member!r}:", _members(package, lang, f"{where} {member!r}", words, "fields"))


def _file(package: str, lang: str) -> Mapping[str, Mapping[str, Any]]:
    """The translations into ``lang`` that ``package`` ships, by rules name (read once, checked)."""
    return _document(package, lang)[0]


def messages(package: str, lang: str) -> Mapping[str, str]:
    """The translations into ``lang`` of the :class:`~fairdeal.said.Said` templates that ``package``
    ships (its ``i18n/<lang>.json``'s :data:`MESSAGES`), by English template; empty when it has none.

    >>> messages(FAIRDEAL, "nb")["it is not your turn"], messages(FAIRDEAL, "de")
    ('det er ikke din tur', {})
    """
    if lang == ENGLISH:
        return {}
    return _document(package, lang)[1]


def placeholders(template: str) -> frozenset[str]:
    """The names a template puts values in for.

    >>> sorted(placeholders("{card} does not match {top}: {{braces}}"))
    ['card', 'top']
    """
    return frozenset(_PLACEHOLDER.findall(template.replace("{{", "")))


@functools.cache
def _said(packages: tuple[str, ...], lang: str) -> Mapping[str, str]:
    """Every template's translation into ``lang`` that ``packages`` give, the first package's first."""
    merged: dict[str, str] = {}
    for package in reversed(packages):
        merged.update(messages(package, lang))
    return merged


def say(text: str, lang: str, packages: Sequence[str]) -> str:
    """``text`` in the language ``lang`` (a :func:`language`): a :class:`~fairdeal.said.Said`'s
    template as the first of ``packages`` that translates it gives it, its values said the same
    way (a card is a card in every language); English, plain text, and a template no package
    translates, as it is.

    >>> from fairdeal.said import seats_words
    >>> say(seats_words([0, 2]), "nb", (FAIRDEAL,)), say("plain", "nb", (FAIRDEAL,))
    ('plassene 0 og 2', 'plain')
    """
    if lang == ENGLISH or not isinstance(text, Said):
        return text
    return _say(text, _said(tuple(packages), lang))


def _say(text: Said, table: Mapping[str, str]) -> str:
    template = table.get(text.template)
    if template is None:
        return str.__str__(text)  # (the English, as a plain str)
    # The other values the English's way: a card's face, a name, a number are the same in every language.
    return template.format_map(
        {name: _say(value, table) if isinstance(value, Said) else shown(value) for name, value in text.values.items()}
    )


def said_in(value: Any, lang: str, packages: Sequence[str]) -> Any:
    """``value``, JSON-ready, with every :class:`~fairdeal.said.Said` in it (a member's value, a
    list's item, itself) :func:`say`-d in ``lang``: the same value in English.

    >>> said_in({"why_not": Said("the hand is over"), "n": [1, Said("seat {seat}", seat=2)]}, "nb", (FAIRDEAL,))
    {'why_not': 'hånden er over', 'n': [1, 'plass 2']}
    """
    if lang == ENGLISH:
        return value
    table = _said(tuple(packages), lang)
    return _said_in(value, table)


def _said_in(value: Any, table: Mapping[str, str]) -> Any:
    if isinstance(value, Said):
        return _say(value, table)
    if isinstance(value, dict):
        return {key: _said_in(item, table) for key, item in value.items()}
    if isinstance(value, list):
        return [_said_in(item, table) for item in value]
    return value


def texts(cls: type[Rules[Any, Any]], lang: str) -> Mapping[str, Any]:
    """The words of the game ``cls`` in the language ``lang`` (a :func:`language`), from its package's
    ``i18n/<lang>.json``: empty when it has none (English: always empty, the rules class says it).

    >>> from fairdeal.rules import RULES
    >>> texts(RULES["michigan"], "nb")["family"], texts(RULES["michigan"], "de")
    ('Sekvensspill', {})
    """
    if lang == ENGLISH:
        return {}
    return _file(cls.package(), lang).get(cls.name, {})


def translated(entry: Mapping[str, Any], words: Mapping[str, Any]) -> dict[str, Any]:
    """A catalogue entry (:meth:`Rules.declaration`) with the words a translation gives (:func:`texts`).
    Only what the English has is translated: a translation adds no help an option lacks.

    >>> from fairdeal.rules import RULES
    >>> entry = translated(RULES["eights"].declaration(), {"options": {"partners": {"choices": {"1": "to lag"}}}})
    >>> entry["title"], entry["options"][1]["choices"]
    ('Eights', {'0': 'every player for himself', '1': 'to lag'})
    >>> entry = translated(RULES["eights"].declaration(), {"moves": {"draw": {"hint": "trekker", "said": "trakk"}}})
    >>> [(form["label"], form["hint"], form["said"]) for form in entry["move_forms"][1:3]]
    [('Draw', 'trekker', 'trakk'), ('Pass', 'passes', 'passed')]
    """
    out = dict(entry)
    for key in GAME_FIELDS:
        if key in words:
            out[key] = words[key]
    said = words.get("options", {})
    out["options"] = [_option(option, said.get(option["name"], {})) for option in entry["options"]]
    moves = words.get("moves", {})
    out["move_forms"] = [_move_form(form, moves.get(form["kind"], {})) for form in entry["move_forms"]]
    layout = words.get("layout", {})
    out["layout"] = {
        key: layout[key] if key in LAYOUT_FIELDS and value and key in layout else value
        for key, value in entry["layout"].items()
    }
    if "table" in entry:
        out["table"] = _table_words(entry["table"], words.get("table", {}))
    return out


def _table_words(labels: Mapping[str, Any], words: Mapping[str, Any]) -> dict[str, Any]:
    """A catalogue entry's ``table`` (its members' labels) with the words a translation gives."""
    out = {}
    for member, label in labels.items():
        said = words.get(member, {})
        member_out = {**label, "label": said.get("label", label["label"])}
        if "values" in label:
            member_out["values"] = {v: said.get("values", {}).get(v, meaning) for v, meaning in label["values"].items()}
        if "fields" in label:
            member_out["fields"] = _table_words(label["fields"], said.get("fields", {}))
        out[member] = member_out
    return out


def _move_form(form: Mapping[str, Any], words: Mapping[str, Any]) -> dict[str, Any]:
    # A hint or a said the English leaves empty stays empty: the page reads "" as "none".
    out = dict(form)
    for key in ("label", "hint", "said"):
        if form.get(key) and key in words:
            out[key] = words[key]
    fields = words.get("fields", {})
    out["fields"] = [
        {**field, "doc": fields[field["name"]]["doc"]}
        if "doc" in field and "doc" in fields.get(field["name"], {})
        else dict(field)
        for field in form["fields"]
    ]
    return out


def _option(option: Mapping[str, Any], words: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(option)
    for key in ("help", "unit", "low_means"):
        if key in option and key in words:
            out[key] = words[key]
    if "choices" in option and "choices" in words:
        out["choices"] = {value: words["choices"].get(value, meaning) for value, meaning in option["choices"].items()}
    return out


def translated_catalogue(
    document: Mapping[str, Any], games: Sequence[type[Rules[Any, Any]]], lang: str
) -> dict[str, Any]:
    """The catalogue ``document`` of ``games`` (in its order) in the language tag ``lang``, saying which
    (its ``lang``: the language asked for, if a game has texts in it; else English). A family's name
    is the one the first of its games to translate it gives, for all of them: a plugin's game
    joins its family's group in every language. :class:`LanguageError` for a tag that is not one.

    >>> from fairdeal.rules import catalogue
    >>> nb = catalogue(lang="nb-NO")
    >>> nb["lang"], nb["families"][1], catalogue(lang="de")["lang"]
    ('nb', 'Fan Tan-familien', 'en')
    """
    code = language(lang)
    said = [texts(cls, code) for cls in games]
    families: dict[str, str] = {}
    for entry, words in zip(document["games"], said, strict=True):
        if "family" in words:
            families.setdefault(entry["family"], words["family"])
    entries = []
    for entry, words in zip(document["games"], said, strict=True):
        out = translated(entry, words)
        out["family"] = families.get(entry["family"], entry["family"])
        entries.append(out)
    out_document = dict(document)
    out_document["families"] = [families.get(family, family) for family in document["families"]]
    out_document["games"] = entries
    return {"version": document["version"], "lang": code if any(said) else ENGLISH, **out_document}


def help_in(cls: type[Rules[Any, Any]], lang: str) -> Help:
    """The "How to play" of the game ``cls`` in the language ``lang`` (a :func:`language`): its
    package's ``help/<lang>/<name>.md``, else the English (:meth:`Rules.help_text`)."""
    if lang != ENGLISH:
        path = resources.files(cls.package()).joinpath("help", lang, f"{cls.name}.md")
        if path.is_file():
            return Help(path.read_text(encoding="utf-8"), lang)
    return Help(cls.help_text(), ENGLISH)
