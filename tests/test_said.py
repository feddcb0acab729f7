"""What fairdeal writes for people, in another language (fairdeal.said, fairdeal.rules.translations):
every template the code writes has its Bokmål, with the same placeholders, in the catalogue of the
package that writes it; a card's why-not note, a blocked hand's reason, a refused move, a verifier's
failure and the hand replayer's words (why each move was allowed, where the cards lie, why a record
is refused) come out in Norwegian when asked for, and as the same English as ever when not.
"""

from __future__ import annotations

import ast
import json
import pickle
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fairdeal.cards import ALL_CARDS
from fairdeal.cards import Card
from fairdeal.cards import parse_cards
from fairdeal.fairness import GameShuffle
from fairdeal.fairness import game_key
from fairdeal.match import Match
from fairdeal.rules import RULES
from fairdeal.rules import IllegalMove
from fairdeal.rules import Move
from fairdeal.rules import get
from fairdeal.rules import in_language
from fairdeal.rules import own
from fairdeal.rules.base import HandResult
from fairdeal.rules.crazy_eights import CrazyEightsState
from fairdeal.rules.eights import EightsState
from fairdeal.rules.eights import sides_of
from fairdeal.rules.translations import FAIRDEAL
from fairdeal.rules.translations import LanguageError
from fairdeal.rules.translations import TranslationError
from fairdeal.rules.translations import _said
from fairdeal.rules.translations import messages
from fairdeal.rules.translations import placeholders
from fairdeal.rules.translations import say
from fairdeal.said import Said
from fairdeal.said import seats_words

ROOT = Path(__file__).resolve().parents[1]
SWITCH = ROOT / "examples" / "switch" / "fairdeal_switch"
PACKAGES = (FAIRDEAL, "fairdeal.rules", "fairdeal_switch")


def _written(path: Path) -> Iterator[tuple[str, int]]:
    """Each template a source file makes a Said of, and its line; a Said of a template that is not a
    literal (the one way to make a template no catalogue can list) is an error, but the pickling
    helper's in fairdeal/said.py, which makes one again from its own."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Said":
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                yield first.value, node.lineno
            else:
                assert path.name == "said.py", f"{path}:{node.lineno}: a Said of a template that is not written out"


def _scope(path: Path) -> str:
    """Whose catalogue holds a template written in ``path``: fairdeal's own (the rules' shared
    base.py, the table, the service, the verifier), its games' (the rest of fairdeal/rules/), or
    the example plugin's."""
    relative = path.relative_to(ROOT).parts
    if relative[0] == "examples":
        return "fairdeal_switch"
    if relative[:2] == ("fairdeal", "rules") and path.name != "base.py":
        return "fairdeal.rules"
    return FAIRDEAL


def templates() -> dict[str, dict[str, str]]:
    """Every template written, by the package whose catalogue holds it (with where it is written)."""
    found: dict[str, dict[str, str]] = {package: {} for package in PACKAGES}
    for folder in (ROOT / "fairdeal", ROOT / "verifier", SWITCH):
        for path in sorted(folder.rglob("*.py")):
            for template, line in _written(path):
                found[_scope(path)].setdefault(template, f"{path.relative_to(ROOT)}:{line}")
    return found


TEMPLATES = templates()


@pytest.mark.parametrize("package", PACKAGES)
def test_every_template_written_has_its_bokmal_with_the_same_placeholders(package):
    written, said = TEMPLATES[package], messages(package, "nb")
    assert len(written) > 4, package
    missing = {template: where for template, where in written.items() if template not in said}
    assert not missing, f"{package}: no nb for {missing}"
    assert not set(said) - set(written), (
        f"{package}: nb for templates nothing writes: {sorted(set(said) - set(written))}"
    )
    for template, words in said.items():
        assert placeholders(words) == placeholders(template), (package, template)
        assert words.strip() == words, (package, template)
    # The Bokmål is not the English left in place (a few words are the same in both: "over", "{op}: {hint}").
    same = [template for template, words in said.items() if words == template and "{" not in template]
    assert len(same) <= 1, same


def test_a_translation_that_puts_in_another_value_is_refused(tmp_path, monkeypatch):
    package = "house_messages"
    (tmp_path / package / "i18n").mkdir(parents=True)
    (tmp_path / package / "__init__.py").write_text("")
    document = {"messages": {"{card} does not fit": "{kort} passer ikke"}}
    (tmp_path / package / "i18n" / "nb.json").write_text(json.dumps(document), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        with pytest.raises(TranslationError, match=r"message '\{card\} does not fit' puts in \['kort'\], not its own"):
            messages(package, "nb")
    finally:
        sys.modules.pop(package, None)


def test_a_said_is_its_english_everywhere_a_str_goes():
    note = Said("{card} does not match {top} in suit or rank", card=Card.parse("9C"), top=Card.parse("8H"))
    assert note == "9♣ does not match 8♥ in suit or rank" and isinstance(note, str)
    assert json.dumps({"why_not": note}) == '{"why_not": "9\\u2663 does not match 8\\u2665 in suit or rank"}'
    assert f"{note}!" == "9♣ does not match 8♥ in suit or rank!" and "8♥" in note
    copy = pickle.loads(pickle.dumps(note))
    assert copy == note and copy.template == note.template and copy.values == note.values
    error = IllegalMove(note, move=Move.play(Card.parse("9C")), seat=1)
    assert str(error) == "illegal move play 9C by seat 1: 9♣ does not match 8♥ in suit or rank"
    assert str(error).values["reason"] is note  # str() of the error keeps the words to translate


def test_without_a_language_or_in_english_the_words_are_the_english_as_they_were():
    value = {"hands": [{"reason": seats_words([0, 2])}], "cards": [{"why_not": Said("it is not your turn")}]}
    assert in_language(value, None) is value
    assert in_language(value, "en") is value and in_language(value, "en-GB") is value
    assert in_language(value, "de") == {
        "hands": [{"reason": "seats 0 and 2"}],
        "cards": [{"why_not": "it is not your turn"}],
    }
    with pytest.raises(LanguageError):
        in_language(value, "nb_NO")


def test_a_plain_text_or_an_unknown_template_stays_english():
    assert say("a name: Kari", "nb", PACKAGES) == "a name: Kari"
    assert say(Said("no catalogue has {this}", this="it"), "nb", PACKAGES) == "no catalogue has it"
    # A value is translated with its sentence: the seats, the ordinal, the suit.
    assert say(Said("the stock ran out for the {nth} time", nth=Said("{n}rd", n=3)), "nb", PACKAGES) == (
        "trekkbunken gikk tom for 3. gang"
    )


# -- the engine's words in Norwegian --------------------------------------------------------------


def _state(rules: Any, **fields: Any) -> Any:
    hands = tuple(tuple(parse_cards(h)) for h in fields.pop("hands"))
    return rules.state_type(hand=1, dealer=len(hands) - 1, hands=hands, **fields)


def test_a_why_not_note_in_bokmal():
    rules = get("crazy-eights")
    state = _state(
        rules,
        hands=("9C 8H 2S", "KD 3S"),
        stock=tuple(parse_cards("4C 6C")),
        pile=tuple(parse_cards("9H")),
        named=None,
        turn=0,
        turned=tuple(parse_cards("9H")),
    )
    view = rules.view(state, 0)
    assert rules.explain(view, Card.parse("2S")) == "2♠ does not match 9♥ in suit or rank"
    assert in_language(rules.explain(view, Card.parse("2S")), "nb") == "2♠ passer ikke til 9♥ i sort eller valør"
    assert in_language(rules.explain(view, Card.parse("KD")), "nb") == "du har ikke K♦"
    assert in_language(rules.explain(rules.view(state, 1), Card.parse("KD")), "nb") == "det er ikke din tur"
    named = CrazyEightsState(**{**vars_of(state), "pile": tuple(parse_cards("9H 8D")), "named": Card.parse("2S").suit})
    assert in_language(rules.explain(rules.view(named, 0), Card.parse("9C")), "nb") == (
        "9♣ passer ikke til ♠, sorten som ble bestemt med 8♦"
    )


def vars_of(state: Any) -> dict[str, Any]:
    return {name: getattr(state, name) for name in state.__dataclass_fields__}


def test_a_blocked_hands_reason_in_bokmal():
    rules = get("crazy-eights")
    state = _state(rules, hands=("9C", "KD"), stock=(), pile=tuple(parse_cards("3H")), named=None, turn=1, passes=1)
    state = CrazyEightsState(**{**vars_of(state), "turned": tuple(parse_cards("3H"))})
    blocked, _ = rules.apply(state, 1, Move.pass_(), None)
    assert blocked.result.reason == "everyone passed in turn"
    assert in_language(blocked.result.reason, "nb") == "alle passet etter tur"
    # Eights: the side with the fewest cards, or a tie between sides, seats by number.
    eights = get("eights", {"partners": 0})
    hands = ("9C 2D", "KD 3S 4S", "5C 6C")
    tie = EightsState(
        hand=1,
        dealer=2,
        hands=tuple(tuple(parse_cards(h)) for h in hands),
        stock=(),
        pile=tuple(parse_cards("AH")),
        named=None,
        turn=2,
        passes=2,
        sides=sides_of(3, False),
    )
    tied, _ = eights.apply(tie, 2, Move.pass_(), None)
    assert tied.result.reason == "a tie: seat 0 and seat 2 hold the fewest cards (2 cards each)"
    assert in_language(tied.result.reason, "nb") == "uavgjort: plass 0 og plass 2 har færrest kort (2 kort hver)"
    assert in_language(HandResult("out", (1,), (0, 0), (0, 0), seats_words([0, 2, 3])).reason, "nb") == (
        "plassene 0 og 2 og 3"
    )


def test_a_refused_move_in_bokmal():
    rules = get("crazy-eights")
    state = _state(
        rules,
        hands=("9C 8H", "KD"),
        stock=tuple(parse_cards("4C")),
        pile=tuple(parse_cards("9H")),
        named=None,
        turn=0,
        turned=tuple(parse_cards("9H")),
    )
    with pytest.raises(IllegalMove) as refused:
        rules.apply(state, 0, Move.play(Card.parse("8H")), None)
    assert str(refused.value) == "illegal move play 8H by seat 0: name a suit for 8♥"
    assert in_language(refused.value.reason, "nb") == "bestem en sort for 8♥"
    assert in_language(str(refused.value), "nb") == "ulovlig trekk play 8H av plass 0: bestem en sort for 8♥"
    with pytest.raises(IllegalMove) as refused:
        rules.apply(state, 1, Move.draw(), None)
    assert in_language(refused.value.reason, "nb") == "det er ikke din tur"


def test_a_verifier_failure_in_bokmal_and_its_english_as_the_cli_prints_it():
    from fairdeal.record import ed25519_check
    from verifier.browser import signature_requests
    from verifier.browser import verify_json

    lines = (ROOT / "tests" / "golden" / "crazy-eights-4p-v2.jsonl").read_text().splitlines()
    changed = [json.loads(line) for line in lines]
    end = max(i for i, line in enumerate(changed) if line["type"] == "hand-end")
    changed[end]["scores"][0] += 1
    text = "".join(json.dumps(line, separators=(",", ":"), sort_keys=True) + "\n" for line in changed)
    checked = [[*triple, ed25519_check(*map(bytes.fromhex, triple))] for triple in signature_requests(text)]
    english = verify_json(text, checked)
    nb = verify_json(text, checked, lang="nb")
    assert english["report"]["error"] == {"line": end + 1, "reason": "bad signature"} and "words" not in english
    assert nb["report"] == english["report"] and nb["text"] == english["text"]  # the CLI's, in English
    assert nb["words"] == {"reason": "ugyldig signatur", "hands": nb["words"]["hands"]}
    assert (
        verify_json("not a record", lang="nb")["error"] == "ikke en fairdeal-protokoll: den første linjen er ikke JSON"
    )


def test_a_move_the_rules_refuse_in_a_signed_record_is_said_in_bokmal():
    # The server's own key signed it: the chain holds, the rules refuse the move, and the verifier's
    # reason (the rules' inside its own words) is Bokmål all through.
    from helpers import first
    from helpers import tamper_record
    from helpers import tampered

    from fairdeal.verification import verify

    lines = tamper_record("said-refused", 3, "crazy-eights", None)
    at = first(lines, "move", move="play")
    played = lines[at]
    other = next(c.code for c in ALL_CARDS if c.code != played["card"] and c.rank != Card.parse(played["card"]).rank)
    failure = verify(tampered(lines, at, lambda line: line.update(card=other))).error
    assert failure is not None and failure.line == at + 1
    assert failure.reason.startswith(f"illegal move play {other} by seat {played['seat']}: ")
    said = in_language(failure.reason, "nb")
    assert said.startswith(f"ulovlig trekk play {other} av plass {played['seat']}: "), said
    assert not any(word in said for word in ("illegal", "does not", "not your", "hold")), said


# -- the hand replayer's words ----------------------------------------------------------------------


LETTERS = re.compile(r"[^\W\d_]")


@pytest.mark.parametrize(
    ("name", "seats", "options"),
    [("crazy-eights", 3, {"target": 60}), ("eleusis", 4, {"rounds": 1})],
)
def test_the_replayers_words_in_bokmal_for_every_step(tmp_path, name, seats, options):
    # A whole game by random bots (fixed seeds): each step's why (the rule that allowed the move),
    # each hand's reason and each place's name come in Norwegian, every one of them.
    from fairdeal.simulate import simulate
    from verifier.replayer import hand_steps

    text = simulate(name, seats, 1, tmp_path, seed=f"said-{name}", bot="random", options=options)[0].read_text()
    english, nb = hand_steps(text), hand_steps(text, lang="nb")
    assert "words" not in english and {k: v for k, v in nb.items() if k != "words"} == english
    assert hand_steps(text, lang="en")["words"]["hands"][0]["why"] == [s["why"] for s in english["hands"][0]["steps"]]
    table = _said(PACKAGES, "nb")
    words = nb["words"]
    assert len(words["hands"]) == len(english["hands"]) >= 1
    whys = 0
    for hand, said in zip(english["hands"], words["hands"]):
        assert len(said["why"]) == len(hand["steps"]) > 1
        for step, why in zip(hand["steps"], said["why"]):
            if step["kind"] == "deal":
                assert step["why"] is None and why is None
                continue
            assert not untranslated(step["why"], table), step["why"]
            assert why != step["why"] or not LETTERS.search(why), why
            whys += 1
        reason = hand["result"]["reason"]
        assert said["reason"] == in_language(reason, "nb") and (reason is None or said["reason"] != reason)
    assert whys == english["moves"]
    places = {place["place"] for hand in english["hands"] for step in hand["steps"] for place in step["places"]}
    assert set(words["places"]) == places and all(words["places"][p] != p for p in places)
    assert not [p for p in places if untranslated(p, table)]


def test_a_refused_replay_says_why_in_bokmal():
    from fairdeal.record import RecordError
    from verifier.replayer import ReplayError
    from verifier.replayer import hand_steps

    lines = (ROOT / "tests" / "golden" / "crazy-eights-4p.jsonl").read_text().splitlines(keepends=True)
    with pytest.raises(ReplayError) as refused:
        hand_steps("".join(lines[:-1]), lang="nb")
    assert str(refused.value).startswith(
        "serverens frø er ikke avslørt, så de skjulte kortene kan ikke vises ennå (linje "
    )
    with pytest.raises(
        ReplayError, match=r"^the server seed is not revealed, so the hidden cards cannot be shown yet \(line "
    ):
        hand_steps("".join(lines[:-1]))
    with pytest.raises(RecordError, match=r"^ikke en fairdeal-protokoll: filen er tom$"):
        hand_steps("", lang="nb")


# -- every game's words, as they come up in play -----------------------------------------------------


def untranslated(text: Any, table: dict[str, str]) -> list[str]:
    """What of ``text`` has no Bokmål: plain English, or a template (its own or a value's) no catalogue holds."""
    if not isinstance(text, Said):
        return [str(text)]
    missing = [] if text.template in table else [text.template]
    for value in text.values.values():
        if isinstance(value, Said):
            missing += untranslated(value, table)
    return missing


def _seats(cls: Any) -> int:
    return min(max(cls.min_seats, 3), cls.max_seats)


@pytest.mark.parametrize("name", list(RULES))
def test_every_note_reason_and_refusal_a_game_gives_in_play_has_its_bokmal(name):
    # A hand played by the table's timer (fixed seeds) to its end: at each of its first turns, the
    # seat to act asks why of every card in the pack, why each of its legal moves is allowed (the
    # replayer's words) and tries the basic moves and the cards it holds; another seat tries a move
    # too. Whatever the rules say (the places of the cards and the hand's reason too) is a Said
    # whose every template has its Bokmål.
    table = _said(PACKAGES, "nb")
    rules = get(name)
    seats = _seats(type(rules))
    match = Match(rules, seats, GameShuffle(game_key("00" * 32, f"said/{name}", [""] * seats)))
    match.start()
    said: list[Any] = []
    for turn in range(5000):
        state = match.state
        if state is None or match.over or state.result is not None or state.turn is None:
            break
        seat = state.turn
        if turn >= 60:
            match.apply(seat, match.auto_move(), auto=True)
            continue
        view = rules.view(state, seat)
        said += [why for card in ALL_CARDS if (why := rules.explain(view, card)) is not None]
        # The hand replayer's words: why each legal move is allowed, and where the other cards lie.
        said += [rules.why_legal(view, move) for move in rules.legal_moves(view)]
        said += [place for place, _ in rules.card_places(state)[seats:]]
        tries = [Move.draw(), Move.pass_(), Move.keep(), *(Move.play(card) for card in state.hands[seat][:8])]
        others = [((seat + 1) % seats, move) for move in rules.legal_moves(view)[:2]]
        for who, move in [(seat, move) for move in tries] + others:
            try:
                rules.apply(state, who, move, match._shuffle)
            except IllegalMove as refusal:
                said.append(refusal.reason)
        match.apply(seat, match.auto_move(), auto=True)
    said += [hand.result.reason for hand in match.hands]
    assert match.hands, f"{name}: no hand ended"
    missing = sorted({template for text in said for template in untranslated(text, table)})
    assert not missing, f"{name}: no Bokmål for {missing}"
    assert own(type(rules)) or name == "switch"
