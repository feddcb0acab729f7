"""Issue #32 item 5, as a person who does not use a mouse or a screen would check it:

- axe-core (tests/browser/axe.py) finds nothing serious or critical on the lobby (and its How to
  play), a table of a game of each family of the catalogue (the generic renderer's example plugin
  "switch" too; a card lifted where one can be), the side panel's tabs, the sheet between hands,
  the Game over dialog and the replayer (the verify page, idle and with a verdict, is checked in
  test_phones.py: one start of its engine is enough);
- a whole hand of Crazy Eights and a whole round of Eleusis are played with the keyboard alone: one
  Tab into the hand at the start, then never again; after each move the focus is still in the hand;
- each move and turn is said in the table's one polite live region, as the play log says it;
- cards fly with motion, and nothing flies or animates once the person asks for reduced motion.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser
from playwright.sync_api import Page

from .axe import axe_context
from .axe import serious_problems
from .conftest import LAPTOP
from .conftest import api
from .play import CORNER
from .play import COUNT_FLIGHTS
from .play import MY_TURN
from .play import picker_open
from .play import play_by_api
from .play import seq
from .play import tap_a_move
from .play import wait_moved
from .play import wait_turn

PLAYING = "body[data-phase='playing'] #hand .card"
IN_HAND = "() => Boolean(document.activeElement?.closest('#hand .card'))"

# A game of each renderer module of the catalogue (GET /rules), so of each family too: rules, seats, options.
TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("crazy-eights", 3, {}),
    ("eights", 4, {}),
    ("go-boom", 3, {}),
    ("switch", 3, {}),
    ("fan-tan", 4, {}),
    ("sequence", 3, {"deals": 1}),
    ("michigan", 4, {"deals": 1}),
    ("commit", 4, {"deals": 1}),
    ("rolling-stone", 4, {}),
    ("snip-snap-snorem", 4, {}),
    ("eleusis", 4, {"dealer": 0, "rounds": 1}),
]


@pytest.fixture(scope="module")
def axe_page(browser: Browser) -> Iterator[Page]:
    """One laptop page for every axe check of this file (each goes to its own address)."""
    context = axe_context(browser, LAPTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    yield page
    context.close()
    assert not errors, "the pages logged errors:\n" + "\n".join(errors)


def test_the_catalogue_has_the_families_these_tables_cover(server):
    catalogue = api(server, "GET", "/rules")
    family = {g["name"]: g["family"] for g in catalogue["games"]}
    renderer = {g["name"]: g["renderer"] for g in catalogue["games"]}
    assert {family[rules] for rules, _, _ in TABLES} == set(catalogue["families"])
    assert {renderer[rules] for rules, _, _ in TABLES} == set(renderer.values())
    assert renderer["switch"] == "generic"  # the example plugin, drawn by the generic renderer


def test_axe_finds_nothing_serious_on_the_lobby_and_a_table_of_every_family(axe_page, new_game, server):
    page = axe_page
    found: list[str] = []
    page.goto(server + "/")
    page.wait_for_selector("#seat-list li:nth-child(2)")
    found += serious_problems(page, "the lobby")
    page.click("#show-help")
    page.wait_for_selector("#help-dialog[open]")
    found += serious_problems(page, "the lobby's How to play")
    page.keyboard.press("Escape")
    for i, (rules, players, options) in enumerate(TABLES):
        game = new_game(["Ada"] + [f"Bot {n}" for n in range(1, players)], rules=rules, options=options)
        page.goto(server + game.link(0))
        page.wait_for_selector(PLAYING)
        if page.locator(MY_TURN).count() and page.locator("#hand .card.playable").count():
            page.locator("#hand .card.playable").first.click(position=CORNER)  # lifted, or chosen
            page.wait_for_selector("#hand .card[aria-pressed='true']")
        found += serious_problems(page, f"the {rules} table")
        if i == 0:  # the side panel's other tabs (the laptop shows the panel beside the table)
            for tab in ("fair", "log", "help"):
                page.click(f"#tab-{tab}")
                page.wait_for_selector(f"#panel-{tab}:not([hidden])")
                found += serious_problems(page, f"the {rules} table's {tab} panel")
    assert not found, "\n".join(found)


def test_axe_finds_nothing_serious_on_the_sheets_and_the_replayer(axe_page, new_game, server):
    page = axe_page
    found: list[str] = []
    # The sheet between hands.
    game = new_game(["Bea", "Bot B1", "Bot B2"], rules="eights", options={"deals": 2}, next_hand_seconds=60)
    page.goto(server + game.link(0))
    page.wait_for_selector(PLAYING)
    play_by_api(server, game)
    page.wait_for_selector("#between:not([hidden]) #next-hand")
    found += serious_problems(page, "the sheet between hands")
    # The Game over dialog.
    page.click("#next-hand")
    page.wait_for_selector("#between[hidden]", state="attached")
    play_by_api(server, game)
    page.wait_for_selector("#end:not([hidden]) #end-verify")
    found += serious_problems(page, "the Game over dialog")
    # The replayer of that game (the verify page, idle and with a verdict: test_phones.py, upright).
    page.goto(server + f"/replay?game={game.id}")
    page.wait_for_selector("body[data-ready='true']")
    found += serious_problems(page, "the replayer")
    assert not found, "\n".join(found)


# -- the keyboard alone ---------------------------------------------------------------------------

SPOKEN = """() => {
  // Every paragraph said in the table's live region, in order (the region keeps only its last few).
  const region = document.getElementById("announce");
  window.spoken = [...region.children].map((node) => node.textContent);
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes) window.spoken.push(node.textContent);
  }).observe(region, { childList: true });
}"""


def tab_into_the_hand(page: Page) -> int:
    """Press Tab until a card of the hand has the focus; how many presses it took."""
    for presses in range(1, 30):
        page.keyboard.press("Tab")
        if page.evaluate(IN_HAND):
            return presses
    raise AssertionError("Tab never reached the hand")


def focus_kept(page: Page, moves: int) -> None:
    assert page.evaluate(IN_HAND), (
        f"after {moves} moves the focus is on {page.evaluate('() => document.activeElement.outerHTML.slice(0, 80)')}"
    )


def crazy_eights_key_move(page: Page) -> None:
    """One move from the keyboard, the focus in the hand: the arrows to a playable card, Enter to
    lift, Enter to play, a digit for an eight's suit; else D draws (K keeps a drawn card that fits)."""
    before = seq(page)
    if page.locator("#hand .card.playable").count():
        page.keyboard.press("Home")
        for _ in range(60):
            if page.evaluate("() => document.activeElement.classList.contains('playable')"):
                break
            page.keyboard.press("ArrowRight")
        if page.evaluate("() => document.activeElement.getAttribute('aria-pressed')") != "true":
            page.keyboard.press("Enter")
            page.wait_for_selector("#hand .card.lifted")
        page.keyboard.press("Enter")
        page.wait_for_selector(f"body:not([data-seq='{before}']), #suit-picker:not([hidden])")
        if seq(page) == before and picker_open(page):
            page.keyboard.press("3")
    elif page.locator("#keep-it").count():
        page.keyboard.press("k")
    else:
        page.keyboard.press("d")
    wait_moved(page, before)


def test_a_whole_crazy_eights_hand_with_the_keyboard_alone_with_motion_and_every_move_said(open_page, new_game):
    # Motion on: the card that leaves the hand flies, hidden meanwhile; the keyboard must stay in the hand.
    game = new_game(["Kim", "Bot K1", "Bot K2"], options={"target": 1})  # a match of one hand
    opened = open_page(game.link(0), motion=True)
    page = opened.page
    page.wait_for_selector(PLAYING)
    page.evaluate(SPOKEN)
    page.evaluate(COUNT_FLIGHTS)
    assert page.locator("#announce").get_attribute("aria-live") == "polite"
    assert tab_into_the_hand(page) <= 12
    moves = 0
    while wait_turn(page):
        focus_kept(page, moves)
        crazy_eights_key_move(page)
        moves += 1
    page.wait_for_selector("#end:not([hidden])")
    assert page.evaluate("() => document.activeElement.id") == "end-verify"  # the dialog took the focus
    assert moves >= 3 and page.evaluate("window.flightsSeen") > 0
    # Every line the play log shows since the page opened was said, in order, and each turn of the seat.
    page.wait_for_selector(f"body[data-seq='{len(game.record())}']")
    logged = page.locator("#log li").all_inner_texts()[::-1]
    spoken = page.evaluate("window.spoken")
    moves_said = [s for s in spoken if s != "Your turn."]
    assert moves_said == logged[-len(moves_said) :] and any(s.startswith("You played") for s in moves_said)
    assert any(s.startswith("Bot K1 ") for s in moves_said)
    # "Your turn." each time the turn came to the seat: once for each run of its moves (a draw
    # that keeps the turn is no new one).
    made = [line["seat"] for line in game.record() if line["type"] == "move"]
    assert made.count(0) == moves
    runs = sum(1 for i, s in enumerate(made) if s == 0 and (i == 0 or made[i - 1] != 0))
    assert spoken.count("Your turn.") == runs


def eleusis_key_move(page: Page) -> str:
    """One move from the keyboard: P goes on at the Forecaster's offer, R calls a play right; on the
    seat's turn, Enter chooses the focused card and Enter plays it (every third play: N, no play)."""
    before = seq(page)
    if page.locator("#go-on").count():
        page.keyboard.press("p")
        kind = "go on"
    elif page.locator("#call-right").count():
        page.keyboard.press("r")
        kind = "call"
    elif page.locator("#no-play").count() and int(before) % 3 == 0:
        page.keyboard.press("n")
        kind = "no play"
    else:
        page.keyboard.press("Enter")  # chooses the focused card
        page.wait_for_selector("#hand .card[data-order='1']")
        page.keyboard.press("Enter")  # plays it
        kind = "play"
    wait_moved(page, before)
    return kind


def test_a_whole_eleusis_round_with_the_keyboard_alone(open_page, new_game):
    game = new_game(["Kes", "Bot E1", "Bot E2", "Bot E3"], rules="eleusis", options={"dealer": 0, "rounds": 1})
    opened = open_page(game.link(0))
    page = opened.page
    page.wait_for_selector(PLAYING)
    assert tab_into_the_hand(page) <= 12
    kinds: dict[str, int] = {}
    for _ in range(300):
        if not wait_turn(page):
            break
        if page.locator("#hand .card").count():
            focus_kept(page, sum(kinds.values()))
        kind = eleusis_key_move(page)
        kinds[kind] = kinds.get(kind, 0) + 1
    else:
        raise AssertionError("the round did not end")
    page.wait_for_selector("#end:not([hidden])")
    assert kinds.get("play", 0) >= 2, kinds
    assert not any(line.get("auto") for line in game.record() if line["type"] == "move")


# -- motion -------------------------------------------------------------------------------------


def play_one(page: Page) -> None:
    """One move by mouse: a playable card (tap, tap; an eight names clubs), else the stock."""
    assert wait_turn(page)
    before = tap_a_move(page)
    page.wait_for_selector(f"body:not([data-seq='{before}']), #suit-picker:not([hidden])")
    if seq(page) == before and picker_open(page):
        page.locator(".suit-token").first.click()
    wait_moved(page, before)


def test_cards_fly_with_motion_and_nothing_moves_with_reduced_motion(open_page, new_game):
    game = new_game(["Mia", "Bot M1", "Bot M2"])
    opened = open_page(game.link(0), motion=True)
    page = opened.page
    page.evaluate(COUNT_FLIGHTS)
    play_one(page)
    assert page.evaluate("window.flightsSeen") > 0  # a card flew (the seat's, a bot's, a draw)
    # The person asks for reduced motion: the next moves fly nothing, and nothing on the page animates.
    page.emulate_media(reduced_motion="reduce")
    page.evaluate("window.flightsSeen = 0")
    for _ in range(2):
        play_one(page)
        assert page.evaluate("document.getAnimations().length") == 0
    assert page.evaluate("window.flightsSeen") == 0
    assert page.locator(".flying-card, .flying-token").count() == 0
    # And back: motion again.
    page.emulate_media(reduced_motion="no-preference")
    play_one(page)
    assert page.evaluate("window.flightsSeen") > 0
