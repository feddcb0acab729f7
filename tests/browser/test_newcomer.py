"""Issue #16's walk, as a newcomer makes it: a table with a friend from one link each, a whole
Crazy Eights match on a phone held sideways with every control in reach, every hand's end seen,
the record downloaded from the table and verified; then the same on a laptop with the keyboard only.

Both people's pages are open at once; each move is made on the page whose turn it is. The bots
answer at once (the lobby's "no time") and the pause between hands waits for both people, who
press Next hand as soon as they see the sheet.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator
from playwright.sync_api import Page

from verifier.replay import verify

from .conftest import api
from .conftest import record_lines
from .play import CORNER
from .play import COUNT_FLIGHTS
from .play import MY_TURN
from .play import keyboard_move
from .play import picker_open
from .play import seq
from .play import wait_moved

SIDEWAYS = {"width": 844, "height": 390}
BETWEEN = "#between:not([hidden]) #next-hand"
OVER = "body[data-phase='over']"

# The point a person would touch on a control, and what the page has there: the control itself
# (or something inside it), never a message, a sheet or another part lying over it.
HIT = """(node) => {
  const box = node.getBoundingClientRect();
  const x = box.left + Math.min(box.width / 2, 10), y = box.top + Math.min(box.height / 2, 24);
  const hit = document.elementFromPoint(x, y);
  return { inView: x >= 0 && y >= 0 && x < innerWidth && y < innerHeight, isIt: Boolean(hit && (hit === node || node.contains(hit))),
           hit: hit ? hit.outerHTML.slice(0, 80) : null };
}"""


def tap(control: Locator) -> None:
    """Touch ``control`` where a person would, after checking nothing hides it there."""
    for attempt in range(5):
        try:
            control.scroll_into_view_if_needed()
            seen = control.evaluate(HIT)
            break
        except PlaywrightError as error:
            # A live update redrew the control between two steps: look again at the new one.
            if "not attached" not in str(error) or attempt == 4:
                raise
    assert seen["inView"] and seen["isIt"], f"{control}: the touch would land on {seen['hit']}"
    control.click(position=CORNER if "card" in (control.get_attribute("class") or "") else None)


def tap_move(page: Page) -> str:
    """One move by touch, each control checked first: Play it (the drawn card that fits), a bright card (lift, play), else Draw."""
    before = seq(page)
    if page.locator("#play-it").count():
        tap(page.locator("#play-it"))
        kind = "play it"
    elif page.locator(".hand .card.playable").count():
        card = page.locator(".hand .card.playable").first
        tap(card)
        tap(card)
        kind = "play"
    else:
        tap(page.locator("#draw") if page.locator("#draw").count() else page.locator("#stock"))
        kind = "draw"
    if kind.startswith("play") and picker_open(page):
        tap(page.locator(".suit-token").nth(1))
        kind += " eight"
    wait_moved(page, before)
    return kind


def hand_end_seen(page: Page, hand: int, seats: int) -> None:
    """The sheet between hands: every seat's row with the cards it was left holding, as the server says."""
    page.wait_for_selector(BETWEEN)
    assert page.locator("#between-title").inner_text() == f"Hand {hand}"
    rows = page.locator("#hand-end-table tbody tr")
    assert rows.count() == seats
    left = [rows.nth(s).locator("td.left .card").count() for s in range(seats)]
    assert sum(left) > 0 and 0 in left  # somebody went out; the others show what they held


def play_match(pages: list[Page], move, next_hand) -> tuple[int, dict[str, int]]:
    """Play every person's turns on their own page until the match is over; how many hands ended
    between hands (each one's sheet seen on every page) and the moves made, by kind."""
    kinds: dict[str, int] = {}
    pauses = 0
    for _ in range(3000):
        if pages[0].locator(OVER).count() and all(p.locator(OVER).count() for p in pages):
            return pauses, kinds
        if all(p.locator(BETWEEN).count() for p in pages):
            pauses += 1
            hand = int(pages[0].locator("#between-title").inner_text().split()[-1])
            for page in pages:
                hand_end_seen(page, hand, 4)
            for page in pages:
                next_hand(page)
            for page in pages:
                page.wait_for_selector(f"#between[hidden], {OVER}", state="attached")
            continue
        mover = next((p for p in pages if p.locator(MY_TURN).count()), None)
        if mover is None:
            pages[0].wait_for_timeout(50)  # the other page's turn is on its way over the stream
            continue
        kind = move(mover)
        kinds[kind] = kinds.get(kind, 0) + 1
    raise AssertionError("the match did not end")


def every_hands_end_was_seen(server: str, page: Page, pauses: int) -> None:
    """Each hand but the last ended on the sheet between hands (seen on both pages); the last on
    the match's end, whose sheet lists every hand."""
    record = record_lines(server, page.url.split("/table/")[1].split("#")[0])
    hands = [line for line in record if line["type"] == "hand-end"]
    assert any(line["type"] == "match-end" for line in record) and pauses == len(hands) - 1
    page.wait_for_selector("#end:not([hidden])")
    if len(hands) > 1:  # a row a hand, and the totals
        assert page.locator("table#end-hands tbody tr").count() == len(hands) + 1


def downloaded_record_verifies(page: Page, server: str, press, tmp_path: Path) -> None:
    """The "Download record" button of the finished table: gives the record as the server keeps it, and it verifies."""
    with page.expect_download() as download:
        press()
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    game_id = page.url.split("/table/")[1].split("#")[0]
    text = path.read_text()
    assert text == api(server, "GET", f"/games/{game_id}/record")
    report = verify(text)
    assert report.verified, report.error
    assert report.hands and report.standings is not None


def test_friends_play_a_whole_match_on_phones_held_sideways(open_page, server, tmp_path):
    host = open_page("/", viewport=SIDEWAYS)
    page = host.page
    page.wait_for_selector("#seat-list li:nth-child(4)")
    page.fill("#seat-name-0", "Ann")
    page.locator(".seat-row").nth(1).locator(".kind label", has_text="Person").click()
    page.locator(".seat-row").nth(1).locator(".seat-name-input").fill("Ben")
    page.fill("#option-target", "60")  # a match of a few hands rather than the rule book's 100
    page.select_option("#bot-seconds", "0")  # the bots answer at once; the pause keeps its 20 s
    tap(page.locator("#create-button"))
    page.wait_for_selector("#links:not([hidden])")
    links = page.eval_on_selector_all("#link-list input.link-url", "xs => xs.map((x) => x.value)")
    assert len(links) == 2  # one link per person: the host's own, and Ben's
    tap(page.locator("#link-list a.button").first)  # Ann takes her seat
    friend = open_page(re.sub(r"^https?://[^/]+", "", links[1]), viewport=SIDEWAYS)
    pages = [page, friend.page]
    for p in pages:
        p.wait_for_selector("body[data-phase='playing'], body[data-phase='between-hands']")
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")

    pauses, kinds = play_match(pages, tap_move, lambda p: tap(p.locator("#next-hand")))
    assert kinds.get("draw", 0) >= 1
    every_hands_end_was_seen(server, page, pauses)
    host.shot("newcomer-sideways-match-end")
    for p in pages:
        p.wait_for_selector("#end:not([hidden])")
    downloaded_record_verifies(page, server, lambda: tap(page.locator("#end-download")), tmp_path)
    record = record_lines(server, page.url.split("/table/")[1].split("#")[0])
    assert {line["seat"] for line in record if line["type"] == "move" and not line.get("auto")} >= {0, 1}
    # Each reads the other by name: "You" is only what a seat calls itself.
    assert "Ann" in friend.page.locator("#scores").text_content()
    assert "Ben" in page.locator("#scores").text_content()
    # The lobby keeps the host's name for the next table.
    page.goto(page.url.split("/table/")[0] + "/")
    assert page.input_value("#seat-name-0") == "Ann"


def test_friends_play_a_whole_match_on_laptops_with_the_keyboard_only(open_page, new_game, server, tmp_path):
    game = new_game(
        ["Kit", "Lou", "Bot K", "Bot L"], bots=[False, False, True, True], options={"target": 60}, next_hand_seconds=60
    )
    pages = [open_page(game.link(0, host=True)).page, open_page(game.link(1)).page]  # reduced motion: nothing flies
    for page in pages:
        page.evaluate(COUNT_FLIGHTS)

    def next_hand(page: Page) -> None:
        assert page.evaluate("() => document.activeElement.id") == "next-hand"  # the sheet gave it the focus
        page.keyboard.press("Enter")

    pauses, kinds = play_match(pages, keyboard_move, next_hand)
    assert kinds.get("play", 0) >= 1
    page = pages[0]
    every_hands_end_was_seen(server, page, pauses)
    assert [p.evaluate("window.flightsSeen") for p in pages] == [0, 0]
    # Every move was a person's own (no timer ran out), and the end's dialog took the focus.
    assert not any(line.get("auto") for line in game.record() if line["type"] == "move")
    assert page.evaluate("() => document.activeElement.id") == "end-verify"

    def press_download() -> None:
        for _ in range(12):  # Tab from where the dialog put the focus, as far as Download record
            if page.evaluate("() => document.activeElement.id") == "end-download":
                page.keyboard.press("Enter")
                return
            page.keyboard.press("Tab")
        raise AssertionError("Tab never reached Download record")

    downloaded_record_verifies(page, server, press_download, tmp_path)
