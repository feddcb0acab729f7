"""Issue #32 item 4: the sheets and dialogs on a phone upright (390x844) and on its side (844x390).

Each sheet opens at its top, its title and headline on the screen and under no other part, and its
primary controls (the sheet's foot: Next hand; Verify, Replay, Download, Play again...; Start now;
Commit to this rule) on the screen too, where a tap at their centre lands on them, without
scrolling. No badge (BOT, went out) breaks over two lines, nor in a sheet leaves its name for a line
of its own.
The sheets: between hands, Game over, Shuffling up (the host waiting for a friend's seed), and
Eleusis's own: the dealer's rule box and the sheet between rounds. And the verify page, upright,
brings its verdict into view once a record file is checked (axe finds nothing serious there, idle
or with the verdict).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser
from playwright.sync_api import Page

from fairdeal import client_commitment

from .axe import axe_context
from .axe import serious_problems
from .conftest import api
from .play import play_by_api

UPRIGHT = {"width": 390, "height": 844}
ON_ITS_SIDE = {"width": 844, "height": 390}
SEED = "the verify page's test seed"

# What a person sees of a sheet as it opens (the overlay's selector): the boxes of its title, its
# headline and each primary control, each on the screen, inside the box that scrolls it, and the
# thing a tap at its centre finds; and each badge of the page, on one line beside its name.
SEEN = """
(selector) => {
  const overlay = document.querySelector(selector);
  const sheet = overlay.querySelector(".sheet");
  const scrolls = (n) => /(auto|scroll)/.test(getComputedStyle(n).overflowY) && n.scrollHeight > n.clientHeight + 1;
  let scroller = null;
  for (let n = sheet.querySelector("h2"); n && n !== document.body; n = n.parentElement) if (scrolls(n)) { scroller = n; break; }
  const frame = scroller ? scroller.getBoundingClientRect() : new DOMRect(0, 0, innerWidth, innerHeight);
  const seen = (name, n) => {
    const r = n.getBoundingClientRect();
    const inside = (b) => r.top >= b.top - 1 && r.bottom <= b.bottom + 1 && r.left >= b.left - 1 && r.right <= b.right + 1;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return { name, top: Math.round(r.top), bottom: Math.round(r.bottom),
             onScreen: inside(new DOMRect(0, 0, innerWidth, innerHeight)) && inside(frame),
             hit: Boolean(hit && n.contains(hit)), hitWhat: hit ? hit.outerHTML.slice(0, 60) : null };
  };
  const parts = [seen("the title", sheet.querySelector("h2"))];
  const headline = sheet.querySelector(".headline");
  if (headline) parts.push(seen("the headline", headline));
  const controls = sheet.querySelectorAll(
    ".sheet-actions :is(button, a.button), .next-hand button, .host-start button, .rule-buttons button, :is(button, a.button).gold");
  for (const c of new Set(controls)) parts.push(seen(`control ${c.id || c.textContent.trim()}`, c));
  // A badge is broken when it takes two lines, and alone when the name before it ends on another
  // line (in a sheet's rows; a seat round the table may put its badge under its name on purpose).
  const badges = [...document.querySelectorAll(".badge")].filter((b) => b.getClientRects().length).map((b) => {
    const r = b.getBoundingClientRect();
    const lineHeight = parseFloat(getComputedStyle(b).fontSize) * 1.6 + 6;
    let before = b.previousSibling;
    while (before && before.nodeType === Node.TEXT_NODE && !before.textContent.trim()) before = before.previousSibling;
    let alone = false;
    if (before) {
      const range = document.createRange();
      range.selectNodeContents(before);
      const rects = before.nodeType === Node.TEXT_NODE ? [...range.getClientRects()] : [before.getBoundingClientRect()];
      const last = rects.at(-1);
      const middle = (r.top + r.bottom) / 2;
      alone = Boolean(last) && (middle < last.top || middle > last.bottom);
    }
    return { text: b.textContent, broken: r.height > lineHeight, alone: alone && sheet.contains(b), where: b.parentElement.outerHTML.slice(0, 60) };
  });
  return { parts, badges, scrollTop: scroller ? scroller.scrollTop : 0, controls: controls.length };
}
"""


def problems(page: Page, selector: str, where: str) -> list[str]:
    page.wait_for_selector(f"{selector}:not([hidden]) .sheet h2", state="visible")
    got: dict[str, Any] = page.evaluate(SEEN, selector)
    found = []
    if got["scrollTop"] > 0:
        found.append(f"{where}: opened scrolled down by {got['scrollTop']}px")
    if not got["controls"]:
        found.append(f"{where}: no primary control found")
    for part in got["parts"]:
        if not part["onScreen"]:
            found.append(f"{where}: {part['name']} is off the screen ({part['top']}..{part['bottom']})")
        elif not part["hit"]:
            found.append(f"{where}: a tap on {part['name']} lands on {part['hitWhat']}")
    for badge in got["badges"]:
        if badge["broken"] or badge["alone"]:
            found.append(f"{where}: the badge {badge['text']!r} wraps ({badge['where']})")
    return found


def at_both_sizes(page: Page, selector: str, what: str) -> list[str]:
    """The sheet open now, seen on its side, then upright (the page turned while it is open)."""
    found = []
    for name, size in (("on its side", ON_ITS_SIDE), ("upright", UPRIGHT)):
        page.set_viewport_size(size)
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        found += problems(page, selector, f"{what} {name}")
    return found


def test_the_sheet_between_hands_and_game_over_open_at_their_top_on_phones(open_page, new_game, server):
    found: list[str] = []
    for name, size in (("upright", UPRIGHT), ("on its side", ON_ITS_SIDE)):
        # Four seats of long names and bots, the host's page: the most a sheet holds.
        game = new_game(
            [f"Philippa {name}", "Bot Bartholomew", "Bot Constance", "Bot Desmond"],
            rules="eights",
            options={"deals": 2},
            next_hand_seconds=60,
        )
        page = open_page(game.link(0, host=True), viewport=size).page
        page.wait_for_selector("body[data-phase='playing'] #hand .card")
        play_by_api(server, game)
        page.wait_for_selector("#between:not([hidden]) #next-hand")
        found += problems(page, "#between", f"the sheet between hands, {name}")
        assert page.evaluate("() => document.activeElement.id") == "next-hand"
        page.click("#next-hand")
        page.wait_for_selector("#between[hidden]", state="attached")
        play_by_api(server, game)
        page.wait_for_selector("#end:not([hidden]) #end-again")
        found += problems(page, "#end", f"the Game over dialog, {name}")
        assert page.evaluate("() => document.activeElement.id") == "end-verify"
    assert not found, "\n".join(found)


def test_shuffling_up_and_the_eleusis_sheets_on_phones(open_page, new_game, server):
    found: list[str] = []
    # The host waits for a friend's seed: the sheet that says so, with Start now.
    game = new_game(["Hosta", "Frieda", "Bot Seed"], bots=[False, False, True])
    page = open_page(game.link(0, host=True), viewport=ON_ITS_SIDE).page
    page.wait_for_selector("#seeding:not([hidden]) #start-now")
    found += at_both_sizes(page, "#seeding", "Shuffling up")
    # Eleusis: seat 0 deals the first round (the draw, with these names and the page's seed 1).
    game = new_game(["Dealer 5", "Bot R1", "Bot R2", "Bot R3"], rules="eleusis", options={"dealer": 1, "rounds": 1})
    page = open_page(game.link(0), viewport=ON_ITS_SIDE, seed=1).page
    page.wait_for_selector("body[data-phase='playing']")
    draw = next(line for line in game.record() if line["type"] == "draw-for-deal")
    assert draw["dealer"] == 0, "the draw no longer makes seat 0 the dealer: pick another name"
    page.wait_for_selector("#rule-entry #rule-text")
    page.wait_for_function("() => document.activeElement.id === 'rule-text'")  # the box takes the keys at once
    found += at_both_sizes(page, ".rule-overlay", "the rule box")
    # Eleusis between rounds (the server deals and holds the rule).
    game = new_game(
        ["Rounder", "Bot E1", "Bot E2", "Bot E3"],
        rules="eleusis",
        options={"dealer": 0, "rounds": 2},
        next_hand_seconds=60,
    )
    page = open_page(game.link(0), viewport=ON_ITS_SIDE).page
    page.wait_for_selector("body[data-phase='playing'] #hand .card")
    play_by_api(server, game)
    page.wait_for_selector("#between:not([hidden]) #next-hand")
    found += at_both_sizes(page, "#between", "Eleusis between rounds")
    assert not found, "\n".join(found)


def test_the_verify_page_upright_brings_its_verdict_into_view(browser: Browser, new_game, server, tmp_path: Path):
    game = new_game(["Vera", "Bot V1", "Bot V2"], options={"target": 1})  # a match of one hand
    # Seat 0 gives its seed through the API (no page takes it), then plays the hand out.
    api(
        server, "POST", f"/games/{game.id}/seats/0/commit", {"commitment": client_commitment(SEED)}, token=game.token(0)
    )
    api(server, "POST", f"/games/{game.id}/seats/0/reveal", {"seed": SEED}, token=game.token(0))
    play_by_api(server, game)
    path = tmp_path / f"{game.id}.jsonl"
    path.write_text(api(server, "GET", f"/games/{game.id}/record"))
    context = axe_context(browser, UPRIGHT)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server + "/verify")
        page.wait_for_selector("body[data-verdict='idle']")
        found = serious_problems(page, "the verify page upright, idle")
        page.set_input_files("#file", str(path))
        page.wait_for_selector("body[data-verdict='verified']")
        box = page.locator("#verdict-box").bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + 40 <= UPRIGHT["height"], f"the verdict is at {box}"
        found += serious_problems(page, "the verify page upright, with its verdict")
        assert not found, "\n".join(found)
    finally:
        context.close()
    assert not errors, errors
