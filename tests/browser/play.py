"""How a person plays the table in these tests: with the mouse, or with the keyboard only.

Each helper waits for conditions the page shows (the seat's turn, the record
length it reports in ``body[data-seq]``), never for a fixed time.
"""

from __future__ import annotations

from collections import Counter

from playwright.sync_api import Page

MY_TURN = "body[data-my-turn='true']:not([data-busy])"
OVER = "body[data-phase='over'], body[data-phase='abandoned']"

# Counts, in the page, every card or token that takes flight (window.flightsSeen): none under reduced motion.
COUNT_FLIGHTS = """() => {
  window.flightsSeen = 0;
  new MutationObserver((changes) => {
    for (const change of changes)
      for (const node of change.addedNodes)
        if (node.nodeType === 1 && node.matches('.flying-card, .flying-token')) window.flightsSeen += 1;
  }).observe(document.body, { childList: true, subtree: true });
}"""


def wait_turn(page: Page) -> bool:
    """Wait until it is this seat's turn (True) or the game is over (False)."""
    page.wait_for_selector(f"{MY_TURN}, {OVER}")
    return page.locator("body").get_attribute("data-phase") == "playing"


def seq(page: Page) -> str:
    return page.locator("body").get_attribute("data-seq") or ""


def wait_moved(page: Page, before: str) -> None:
    """Wait until the page shows a record longer than ``before`` (the move went through)."""
    page.wait_for_selector(f"body:not([data-seq='{before}']):not([data-busy])")


# Where a person touches a card of the hand: near its top-left corner, the part that shows
# when the cards of a big hand (or a phone's) overlap.
CORNER = {"x": 10, "y": 24}


def picker_open(page: Page) -> bool:
    return page.locator("#suit-picker:not([hidden]) .suit-token").count() == 4


def mouse_move(page: Page, suit_index: int = 2) -> str:
    """One move by mouse: play it / the first bright card (tap, tap) / pass / tap the stock."""
    before = seq(page)
    if page.locator("#play-it").count():
        page.click("#play-it")
        kind = "play it"
    elif page.locator(".hand .card.playable").count():
        card = page.locator(".hand .card.playable").first
        card.click(position=CORNER)
        card.click(position=CORNER)
        kind = "play"
    elif page.locator("#pass").count():
        page.click("#pass")
        kind = "pass"
    else:
        page.click("#stock")
        kind = "draw"
    if kind.startswith("play") and picker_open(page):
        page.locator(".suit-token").nth(suit_index).click()
        kind += " eight"
    wait_moved(page, before)
    return kind


def press_until(page: Page, key: str, reached: str, tries: int, failure: str) -> None:
    """Press ``key`` until ``reached`` (a JavaScript function of no argument) is true, at most ``tries`` times."""
    for _ in range(tries):
        if page.evaluate(reached):
            return
        page.keyboard.press(key)
    raise AssertionError(failure)


def focus_hand(page: Page) -> None:
    """Press Tab until a card of the hand has the focus (as a keyboard user would)."""
    press_until(
        page, "Tab", "() => Boolean(document.activeElement?.closest('#hand'))", 20, "Tab never reached the hand"
    )


def arrow_to_playable(page: Page) -> None:
    """Focus the hand and arrow along it to the first playable card."""
    focus_hand(page)
    page.keyboard.press("Home")
    playable = "() => document.activeElement?.classList.contains('playable')"
    press_until(page, "ArrowRight", playable, 60, "the arrows found no playable card")


def keyboard_move(page: Page) -> str:
    """One move with the keyboard only: arrows to a playable card, Enter to lift and play,
    a digit for an eight's suit; K keeps, P passes, D draws."""
    before = seq(page)
    playable = page.locator(".hand .card.playable")
    if playable.count():
        arrow_to_playable(page)
        if page.evaluate("() => document.activeElement?.getAttribute('aria-pressed')") != "true":
            page.keyboard.press("Enter")  # lift
            page.wait_for_selector(".hand .card.lifted")
        page.keyboard.press("Enter")  # play
        kind = "play"
        if not _moved(page, before) and picker_open(page):
            page.keyboard.press("4")  # spades
            kind = "play eight"
    elif page.locator("#pass").count():
        page.keyboard.press("p")
        kind = "pass"
    else:
        page.keyboard.press("d")
        kind = "draw"
    wait_moved(page, before)
    return kind


def _moved(page: Page, before: str) -> bool:
    page.wait_for_selector(f"body:not([data-seq='{before}']), #suit-picker:not([hidden])")
    return seq(page) != before


def play_to_end(page: Page, move=mouse_move, limit: int = 2000) -> Counter[str]:
    """Play every turn of this seat until the game ends; how many moves of each kind."""
    kinds: Counter[str] = Counter()
    for _ in range(limit):
        if not wait_turn(page):
            return kinds
        kinds[move(page)] += 1
    raise AssertionError(f"the game did not end within {limit} moves")


def play_by_api(server: str, game, seat: int = 0) -> None:
    """``seat`` plays its first legal move (a play where it has one), through the API, until the
    hand (or the match) is over: a page open on that seat follows live. Quicker than clicking, for
    tests about what comes after the play."""
    from .conftest import api

    for _ in range(300):
        view = api(server, "GET", f"/games/{game.id}/seats/{seat}/view", token=game.token(seat))
        if view["status"] != "playing":
            return
        if view["your_turn"]:
            moves = view["legal_moves"]
            move = next((m for m in moves if m["move"] == "play"), moves[0])
            api(server, "POST", f"/games/{game.id}/moves", {"seq": view["seq"], **move}, token=game.token(seat))
    raise AssertionError("the hand did not end")


def to_an_eight(page: Page, limit: int = 200) -> str:
    """Play this seat's turns (Play it, a bright card, else draw) until it holds an eight it may
    play; then lift the eight and tap it again, so the suit tokens open. The eight's code."""
    for _ in range(limit):
        if not wait_turn(page):
            raise AssertionError("the game ended before an eight came to this seat")
        eights = page.locator(".hand .card.playable[data-code^='8']")
        if eights.count():
            eight = eights.first.get_attribute("data-code")
            eights.first.click(position=CORNER)  # lift
            eights.first.click(position=CORNER)  # play: the four tokens open instead
            page.wait_for_selector("#suit-picker:not([hidden]) .suit-token")
            return eight
        wait_moved(page, tap_a_move(page))
    raise AssertionError(f"no eight came to this seat in {limit} turns")


def tap_a_move(page: Page) -> str:
    """A newcomer's move by mouse at this seat's turn: Play it, else the first bright card (lift,
    play), else the stock. The record's seq before it, to wait on."""
    before = seq(page)
    playable = page.locator("#hand .card.playable")
    if page.locator("#play-it").count():
        page.click("#play-it")
    elif playable.count():
        playable.first.click(position=CORNER)
        playable.first.click(position=CORNER)
    else:
        page.click("#stock")
    return before


def create_from_lobby(page: Page) -> str:
    """Press the lobby's Create and wait for the seat links: the new game's id (from the first link)."""
    page.click("#create-button")
    page.wait_for_selector("#links:not([hidden])")
    url = page.locator("#link-list input.link-url").first.input_value()
    return url.split("/table/")[1].split("#")[0]
