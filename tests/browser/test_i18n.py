"""The pages in the reader's language (fairdeal/web/js/i18n.js): a browser that prefers Norwegian
gets the lobby in Bokmål, with no English message left in it, nor any of the games' English words
(their catalogue entries, their "How to play"), nor any of what fairdeal writes in English for people
(a card's why-not, a hand's reason, a refused move's toast, the verifier's reason: fairdeal.said's
templates, which the server and the verifier say in the page's language); the chooser in the lobby
changes the language for every page of the browser, and back."""

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

JS = Path(__file__).resolve().parents[2] / "fairdeal" / "web" / "js"


def catalogue(lang: str) -> dict[str, str]:
    """The pages' words and the renderers' in ``lang``, as i18n.js merges them."""
    return {
        key: text
        for folder in (JS / "i18n", JS / "games" / "i18n")
        for key, text in json.loads((folder / f"{lang}.json").read_text(encoding="utf-8")).items()
    }


EN, NB = catalogue("en"), catalogue("nb")

PLACEHOLDER = re.compile(r"\{\w+\}")


def _engine_english() -> list[re.Pattern[str]]:
    """What finds one of fairdeal's English sentences for people (a template of fairdeal's, its
    games' or the example plugin's messages whose Bokmål differs) in a page's text, whatever the
    values put in; templates of fewer than two words of their own ("{n} cards") are too short to
    tell from other text."""
    from fairdeal.rules.translations import messages

    found = []
    for package in ("fairdeal", "fairdeal.rules", "fairdeal_switch"):
        for template, words in messages(package, "nb").items():
            parts = PLACEHOLDER.split(template.replace("{{", "{").replace("}}", "}"))
            if words == template or len(re.findall(r"[A-Za-z]{2,}", " ".join(parts))) < 2:
                continue
            found.append(re.compile("(?<![\\w])" + "(?:.+?)".join(re.escape(part) for part in parts) + "(?![\\w])"))
    return found


ENGINE_ENGLISH = _engine_english()

# Every text the page shows a person: its text nodes, and the attributes a screen reader or a
# pointer reads.
SHOWN = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    if (text && !node.parentElement.closest("script, style, [hidden], dialog:not([open])")) out.push(text);
  }
  for (const node of document.querySelectorAll("[aria-label], [title], [placeholder], optgroup[label]"))
    for (const name of ["aria-label", "title", "placeholder", "label"]) if (node.getAttribute(name)) out.push(node.getAttribute(name));
  return out;
}"""


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return json.load(answer)


def _entry_words(document: dict[str, Any]) -> set[str]:
    """What a catalogue says to people: each game's title, summary, family and its options' words."""
    words = set(document["families"])
    for entry in document["games"]:
        words |= {entry["title"], entry["summary"], entry["family"]}
        for option in entry["options"]:
            words |= {option[key] for key in ("help", "unit", "low_means") if key in option}
            words |= set(option.get("choices", {}).values())
    return words


def _help_words(markdown: str) -> set[str]:
    """A "How to play" as the page's text nodes hold it: each line's runs between the ** marks."""
    runs = (part.strip() for line in markdown.splitlines() for part in line.strip().removeprefix("- ").split("**"))
    return {run for run in runs if run}


@functools.cache
def games_english(origin: str, game: str | None = None) -> frozenset[str]:
    """The games' English words (GET /rules without lang; with ``game``, its How to play too) that
    their Norwegian does not also say (a name like Michigan is the same in both)."""
    english, norwegian = _entry_words(_get(f"{origin}/rules")), _entry_words(_get(f"{origin}/rules?lang=nb"))
    if game is not None:
        help_url = f"{origin}/rules/{urllib.parse.quote(game)}/help"
        english |= _help_words(_get(help_url)["help"])
        norwegian |= _help_words(_get(help_url + "?lang=nb")["help"])
    return frozenset(english - norwegian)


def english_left(page: Page, help_of: str | None = None, *, seen: str = SHOWN) -> list[str]:
    """What the page shows that is an English message whose Norwegian differs, or that holds one
    of the games' English words (a title inside "Vri åtter (2–6 spillere, poeng)"; with
    ``help_of``, that game's How to play too), or one of fairdeal's English sentences (ENGINE_ENGLISH)."""
    english = {text.strip() for key, text in EN.items() if NB[key].strip() != text.strip()}
    origin = "{0.scheme}://{0.netloc}".format(urllib.parse.urlsplit(page.url))
    games = [
        re.compile(r"(?<!\w)" + re.escape(words.casefold()) + r"(?!\w)") for words in games_english(origin, help_of)
    ]
    shown = page.evaluate(seen)  # (``seen``: the script that lists the texts shown, SHOWN by default)
    return [
        text
        for text in shown
        if text in english
        or any(words.search(text.casefold()) for words in games)
        or any(said.search(text) for said in ENGINE_ENGLISH)
    ]


def lobby(browser: Browser, server: str, locale: str) -> Page:
    context = browser.new_context(viewport=LAPTOP, locale=locale, reduced_motion="reduce")
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.goto(f"{server}/")
    page.wait_for_selector("#seat-list .seat-row")
    page.wait_for_selector("#rules option", state="attached")
    return page


def test_a_browser_that_prefers_norwegian_gets_the_lobby_in_bokmal(browser, server):
    page = lobby(browser, server, "nb-NO")
    try:
        assert page.evaluate("document.documentElement.lang") == "nb"
        assert page.locator("#create-title").inner_text() == NB["lobby.open_table"]
        assert page.locator("#create-button").inner_text() == NB["lobby.deal_me_in"]
        assert page.locator("#seat-name-0").input_value() == NB["lobby.default_name"]
        assert page.locator("#seat-name-1").input_value() == "Robot 1"
        assert page.locator("#language").input_value() == "nb"
        assert english_left(page) == []
        chosen = page.locator("#rules").input_value()
        page.click("#show-help")
        page.wait_for_selector("#help-dialog[open] #help-body .help-text")
        assert english_left(page, help_of=chosen) == []
    finally:
        page.context.close()


def test_every_game_in_the_norwegian_lobby_says_its_words_and_how_to_play_in_bokmal(browser, server):
    page = lobby(browser, server, "nb-NO")
    try:
        names = page.eval_on_selector_all("#rules option", "options => options.map(o => o.value)")
        assert len(names) >= 21
        for name in names:
            page.select_option("#rules", name)
            assert english_left(page) == [], name
            page.click("#show-help")
            page.wait_for_selector("#help-dialog[open] #help-body .help-text")
            assert page.locator("#help-body").inner_text().startswith("Mål."), name
            assert english_left(page, help_of=name) == [], name
            page.click("#close-help")
            page.wait_for_selector("#help-dialog:not([open])", state="attached")
    finally:
        page.context.close()


def test_the_chooser_in_the_lobby_chooses_the_language_for_the_browser(browser, server):
    page = lobby(browser, server, "en-GB")
    try:
        assert page.locator("#create-title").inner_text() == EN["lobby.open_table"]
        page.select_option("#language", "nb")
        page.wait_for_function("() => document.documentElement.lang === 'nb'")
        page.wait_for_selector("#seat-list .seat-row")
        assert page.locator("#create-title").inner_text() == NB["lobby.open_table"]
        page.reload()  # kept: the browser's English no longer decides
        page.wait_for_selector("#seat-list .seat-row")
        assert page.locator("#nav-title, #create-title").first.inner_text() == NB["lobby.open_table"]
        page.select_option("#language", "en")
        page.wait_for_function("() => document.documentElement.lang === 'en'")
        page.wait_for_selector("#seat-list .seat-row")
        assert page.locator("#create-title").inner_text() == EN["lobby.open_table"]
    finally:
        page.context.close()


GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def _english_on_the_verify_page(page: Page) -> list[str]:
    """english_left, less the report fairdeal-verify prints (#cli-report, marked as English and
    labelled as the program's output); the verifier's failure reason (#failure) is in Bokmål."""
    theirs = page.eval_on_selector_all("#cli-report, #cli-report *", "nodes => nodes.map(n => n.textContent.trim())")
    return [text for text in english_left(page) if text not in theirs]


def _check(page: Page, path: Path) -> str:
    page.evaluate("document.body.dataset.verdict = 'idle'")
    page.set_input_files("#file", str(path))
    page.wait_for_selector("body[data-verdict='verified'], body[data-verdict='failed']")
    return page.evaluate("document.body.dataset.verdict")


def test_the_verify_page_in_bokmal_idle_with_its_verdicts_and_the_public_log(browser, server, new_game, tmp_path):
    from .conftest import api
    from .play import play_by_api
    from .records import text

    context = browser.new_context(viewport=LAPTOP, locale="nb-NO", reduced_motion="reduce")
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{server}/verify")
        page.wait_for_selector("body[data-verdict='idle']")
        assert page.evaluate("document.documentElement.lang") == "nb"
        assert page.locator("#load-title").inner_text() == NB["verify.heading"]
        assert page.locator("#intro code").inner_text() == "fairdeal-verify"
        assert english_left(page) == []

        # Records of two games (one with an extra hand and counters on a layout), each verified.
        # The page shows the file's name: one that names no game.
        for n, name in enumerate(("crazy-eights-4p-v2.jsonl", "michigan-3p-v2.jsonl")):
            record = tmp_path / f"record-{n}.jsonl"
            record.write_bytes((GOLDEN / name).read_bytes())
            assert _check(page, record) == "verified", name
            assert page.locator("#verdict-box strong").inner_text() == NB["verify.verified"]
            assert page.locator("#checked-title").inner_text() == NB["verify.checked_title"]
            assert " of " not in page.locator("section.hand .card").first.get_attribute("aria-label")
            assert _english_on_the_verify_page(page) == [], name

        # A changed line, not signed again: the plain words are Norwegian, and the verifier's reason too.
        lines = [json.loads(raw) for raw in (GOLDEN / "crazy-eights-4p-v2.jsonl").read_text().splitlines()]
        end = max(i for i, line in enumerate(lines) if line["type"] == "hand-end")
        lines[end]["scores"] = [lines[end]["scores"][0] + 1, *lines[end]["scores"][1:]]
        changed = tmp_path / "changed.jsonl"
        changed.write_text(text(lines))
        assert _check(page, changed) == "failed"
        assert page.locator("#verdict-box strong").inner_text() == NB["verify.not_verified"]
        assert page.locator("#failure-words").inner_text() == NB["verify.plain_signature"]
        assert page.locator("#failure").inner_text() == f"linje {end + 1}: ugyldig signatur"
        assert _english_on_the_verify_page(page) == []

        # A game of this server: its record from the server, and its entries in the public log.
        game = new_game(["Nora", "Robot N"], options={"target": 1})  # a match of one hand
        api(server, "POST", f"/games/{game.id}/start", token=game.created["host_token"])
        play_by_api(server, game)
        page.goto(f"{server}/verify?game={game.id}")
        page.wait_for_selector("body[data-verdict='verified']")
        page.wait_for_selector("#log-panel[data-state='ok']")
        assert page.locator("#log-title").inner_text() == NB["verify.log_title"]
        assert page.locator("#log-witnesses").inner_text() == NB["verify.log_no_witnesses"]
        assert _english_on_the_verify_page(page) == []
    finally:
        context.close()
    assert not errors, errors


def _norwegian_page(browser: Browser, path: str, seed: int) -> tuple[Page, list[str]]:
    """A page of ``path`` in a browser that prefers Norwegian, its random seeded (as open_page's),
    and the errors it logs."""
    from .conftest import SEEDED_RANDOM

    context = browser.new_context(viewport=LAPTOP, locale="nb-NO", reduced_motion="reduce")
    context.set_default_timeout(30_000)
    context.add_init_script(SEEDED_RANDOM % seed)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path)
    # The pages' words are put in once the catalogues have loaded (i18n.js): the document's lang says so.
    page.wait_for_function("() => document.documentElement.lang === 'nb'")
    return page, errors


def _english_on_the_table(page: Page, help_of: str | None = None) -> list[str]:
    """english_left, less the keys a button shows (a move's declared key "D" is no word, though the
    dealer's chip "D" is one). The engine's words on why a card cannot be played now (each card's
    ``why-`` note) are checked with the rest: the seat's view brings them in the page's language."""
    theirs = page.eval_on_selector_all("kbd", "nodes => nodes.map(n => n.textContent.trim())")
    return [text for text in english_left(page, help_of) if text not in theirs]


def _refused_in_bokmal(page: Page) -> str:
    """Make the seat's next move refused by the server (its request rewritten on the way to a keep,
    which nothing drawn allows), as the page makes it; the toast that says why."""

    def refused(route: Any) -> None:
        sent = json.loads(route.request.post_data or "{}")
        route.continue_(post_data=json.dumps({"seq": sent.get("seq"), "move": "keep"}))

    moves = re.compile(r"/games/[^/]+/moves\?lang=nb$")
    page.route(moves, refused)
    try:
        if page.locator(".hand .card.playable").count():
            card = page.locator(".hand .card.playable").first
            card.click()
            card.click()
            if page.locator("#suit-picker:not([hidden]) .suit-token").count():
                page.locator(".suit-token").first.click()
        else:
            page.click("#stock" if not page.locator("#pass").count() else "#pass")
        page.wait_for_selector("#toast.bad:not([hidden])")
        said = page.locator("#toast").inner_text()
    finally:
        page.unroute(moves, refused)
    # The card that was played stays lifted (the move did not go through): put it back.
    page.wait_for_selector("body:not([data-busy])")
    if page.locator(".hand .card.lifted").count():
        page.keyboard.press("Escape")
        page.wait_for_selector(".hand .card.lifted", state="detached")
    return said


def test_a_table_in_bokmal_from_the_first_turn_to_game_over(browser, server, new_game):
    # A short match of three (a small target, so a few hands), with a pause between hands so the
    # sheet shows; the host's seat, played by the keyboard, then through the API.
    from .play import MY_TURN
    from .play import keyboard_move
    from .play import play_by_api
    from .play import wait_turn

    between_or_over = "#between:not([hidden]) #next-hand, #end:not([hidden])"

    game = new_game(["Kari", "Bot K", "Bot L"], options={"target": 40}, next_hand_seconds=60)
    page, errors = _norwegian_page(browser, f"{server}{game.link(0, host=True)}", seed=4711)
    try:
        assert wait_turn(page)
        assert page.evaluate("document.documentElement.lang") == "nb"
        assert page.locator("#open-scores").inner_text() == NB["table.scores"]
        assert _english_on_the_table(page, help_of="crazy-eights") == []
        # The cards that cannot go now say why in Bokmål (the seat's view), and so does the server's
        # refusal of a move, in its toast.
        notes = page.eval_on_selector_all("#hand [id^='why-']", "nodes => nodes.map(n => n.textContent)")
        assert notes and all("passer ikke til" in note or note.startswith("du ") for note in notes), notes
        assert _refused_in_bokmal(page) == "du kan bare beholde et kort du nettopp har trukket som passer"
        errors.remove("Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)")
        page.wait_for_selector(MY_TURN)
        # A card lifted (its buttons), then a few moves by the keyboard.
        playable = page.locator(".hand .card.playable")
        if playable.count():
            playable.first.click()
            page.wait_for_selector(".hand .card.lifted")
            assert _english_on_the_table(page) == []
            page.keyboard.press("Escape")
        for _ in range(3):
            if not wait_turn(page):
                break
            keyboard_move(page)
        # The side panel's tabs: the scores, why it is fair, the play log (its sentences), how to play.
        for tab in ("fair", "log", "help", "scores"):
            page.click(f"#tab-{tab}")
            page.wait_for_selector(f"#panel-{tab}:not([hidden])")
            if tab == "help":
                page.wait_for_selector("#panel-help .help-text")
            assert _english_on_the_table(page, help_of="crazy-eights") == [], tab
        assert page.locator("#log li").count() > 3
        # The hands to the end: the sheet between them, then Game over.
        between = 0
        while True:
            play_by_api(server, game)
            page.wait_for_selector(between_or_over)
            if page.locator("#end:not([hidden])").count():
                break
            between += 1
            assert page.locator("#between-title").inner_text() == NB["table.hand_n"].replace("{{hand}}", str(between))
            assert page.locator("#next-hand").inner_text() == NB["table.next_hand"]
            assert _english_on_the_table(page) == [], f"hand {between}"
            page.click("#next-hand")
            page.wait_for_selector("#between[hidden]", state="attached")
        assert between >= 1
        page.wait_for_selector("#end:not([hidden]) #standings")
        assert page.locator("#end-title").inner_text() == NB["table.game_over"]
        assert _english_on_the_table(page) == []
    finally:
        page.context.close()
    assert not errors, errors


def test_the_shuffling_up_sheet_in_bokmal(browser, server, new_game):
    # Two people at the table: the host's page waits for the other's seed on the "Shuffling up"
    # sheet (this browser did not open the table, so it has no other seat's link), then starts with a bot.
    game = new_game(["Kari", "Ola", "Bot K"], bots=[False, False, True])
    page, errors = _norwegian_page(browser, f"{server}{game.link(0, host=True)}", seed=4713)
    try:
        page.wait_for_selector("#seeding:not([hidden]) #start-now")
        page.wait_for_selector("#no-links")
        assert page.locator("#seeding-title").inner_text() == NB["table.shuffling"]
        assert _english_on_the_table(page) == []
        page.click("#start-now")
        # Every seat a bot now (this one too: no seed was revealed), the game plays out to its end.
        page.wait_for_selector("#end:not([hidden]) #standings")
        assert _english_on_the_table(page) == []
    finally:
        page.context.close()
    assert not errors, errors


def test_the_replayer_in_bokmal_at_a_deal_and_a_move(browser, server, tmp_path):
    # The engine says in the page's language why a record is refused and why a move was allowed
    # (verifier.replayer.hand_steps with the page's lang: its words, computed here the same way).
    from verifier.replayer import ReplayError
    from verifier.replayer import hand_steps

    record = Path(__file__).resolve().parents[1] / "golden" / "crazy-eights-4p.jsonl"
    unrevealed = tmp_path / "unrevealed.jsonl"
    unrevealed.write_text("".join(record.read_text().splitlines(keepends=True)[:-1]))
    with pytest.raises(ReplayError) as refused:
        hand_steps(unrevealed.read_text(), lang="nb")
    refusal = str(refused.value)
    nb_why = hand_steps(record.read_text(), lang="nb")["words"]["hands"][0]["why"][1]
    assert nb_why != hand_steps(record.read_text())["hands"][0]["steps"][1]["why"]
    page, errors = _norwegian_page(browser, f"{server}/replay", seed=4712)
    try:
        page.wait_for_selector("#file", state="attached")
        assert page.locator("#load-title").inner_text() == NB["replay.title"]
        assert page.locator("#replay-intro code").inner_text() == "fairdeal-verify"
        assert english_left(page) == []
        # A game whose seed is not revealed yet: refused, the reason in Bokmål.
        page.set_input_files("#file", str(unrevealed))
        page.wait_for_selector("body[data-ready='refused']")
        assert refusal.startswith("serverens frø er ikke avslørt")
        assert page.locator("#replay-status").inner_text() == NB["replay.refused"].replace("{{reason}}", refusal)
        assert english_left(page) == []
        page.set_input_files("#file", str(record))
        page.wait_for_selector("body[data-ready='true']")
        page.wait_for_selector("body[data-move='0']")
        assert page.locator("#where").inner_text().startswith("Utdelingen")
        assert english_left(page) == []
        page.keyboard.press("ArrowRight")
        page.wait_for_selector("body[data-move='1']")
        assert page.locator("#where").inner_text().startswith("Trekk 1 av")
        # The rule that allowed the move, in Bokmål (9♣ på 10♣: samme sort); the verifier's
        # English line for the move is no tooltip on a Norwegian page.
        assert page.locator("#move-why").inner_text() == f"{NB['replay.allowed']} {nb_why}"
        assert page.locator("#move-words span").get_attribute("title") is None
        assert english_left(page) == []
    finally:
        page.context.close()
    assert not errors, errors
