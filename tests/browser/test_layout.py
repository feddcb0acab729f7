"""The table page's layout at the sizes people use: phones upright (390x844, 360x640) and on their
side (844x390), a tablet (768x1024) and a small laptop (1366x768).

One page per game, resized through the five sizes. At each size the parts a player needs (the
game's title, the other seats and their BOT badges, the timer, the middle of the table, the status
line, the hand, each control, the suit tokens when open) must not lie over one another, must fit
the width (no sideways scrolling), must be reachable (inside every box that clips them, and a page
that does not scroll keeps them on the screen), and a tap at the centre of each control lands on
it. A lifted card stays whole, and the cards either side of it keep a readable slice.
The boxes are collected in one call in the page, to keep the test fast."""

from __future__ import annotations

import os
from typing import Any

from playwright.sync_api import Page

from .play import CORNER
from .play import seq
from .play import to_an_eight
from .play import wait_moved
from .play import wait_turn

SIZES = {
    "phone": {"width": 390, "height": 844},
    "phone-on-its-side": {"width": 844, "height": 390},
    "small-phone": {"width": 360, "height": 640},
    "tablet": {"width": 768, "height": 1024},
    "laptop": {"width": 1366, "height": 768},
}

EVERY_SHOT = os.environ.get("FAIRDEAL_LAYOUT_SHOTS") == "1"
MIN_SLICE = 16  # px of a card that must show for its corner (rank over suit) to be read

# Collects every part once: its group (parts of one group may touch: the cards of the middle, a
# seat and its badge), its box in page coordinates, whether something clips it, and what a tap at
# its centre hits once it is scrolled into view.
COLLECT = """
() => {
  const $ = (id) => document.getElementById(id);
  const shown = (n) => {
    if (!n) return false;
    const r = n.getBoundingClientRect();
    const s = getComputedStyle(n);
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none";
  };
  const parts = [];
  const add = (group, name, node, tap = true) => { if (shown(node)) parts.push({ group, name, node, tap }); };
  add("title", "#game-title", $("game-title"));
  document.querySelectorAll(".table-tools button.tool").forEach((n) => add("tools", `tool #${n.id}`, n));
  document.querySelectorAll("#opponents > li").forEach((n, i) => {
    add(`seat ${i}`, `seat ${i}`, n, false);
    n.querySelectorAll(".badge.bot").forEach((b) => add(`seat ${i}`, `seat ${i}'s BOT badge`, b));
  });
  add("me", "#me-head", $("me-head"), false);
  add("timer", "#timer", $("timer"), false);
  const centre = ["stock-pile", "rows", "board"].map($).find((n) => !n.hidden);
  for (const child of centre ? centre.children : []) add("centre", `centre ${child.id || child.className}`, child, false);
  if ($("status").textContent.trim()) add("status", "#status", $("status"), false);
  if (!$("suit-picker").hidden) {
    add("picker", "#suit-picker", $("suit-picker"), false);
    document.querySelectorAll("#suit-picker .suit-token").forEach((n) => add("picker", `token ${n.dataset.suit}`, n));
  }
  add("hand", "#hand", $("hand"), false);
  document.querySelectorAll("#hand .order-mark").forEach((n) => add("hand", `order mark ${n.textContent}`, n, false));
  document.querySelectorAll("#actions button, #actions input, #actions select").forEach((n, i) => add(`control ${i}`, `control #${n.id || n.textContent.trim()}`, n));
  add("keys", "#keys", $("keys"), false);

  const root = getComputedStyle(document.documentElement).overflowY;
  const body = getComputedStyle(document.body).overflowY;
  const pageScrolls = ![root, body].some((o) => o === "hidden" || o === "clip");
  const clippedBy = (node) => {
    // The nearest box that hides what lies outside it and cuts this part (a box that scrolls
    // hides it too: nobody scrolls a row of cards up and down to read one).
    const r = node.getBoundingClientRect();
    for (let a = node.parentElement; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
      const s = getComputedStyle(a);
      const hides = (o) => o !== "visible";
      const b = a.getBoundingClientRect();
      if (hides(s.overflowX) && (r.left < b.left - 1 || r.right > b.right + 1)) return a.id || a.className;
      if (hides(s.overflowY) && (r.top < b.top - 1 || r.bottom > b.bottom + 1)) return a.id || a.className;
    }
    return null;
  };
  window.scrollTo(0, 0);
  const boxes = parts.map((p) => {
    const r = p.node.getBoundingClientRect();
    return { group: p.group, name: p.name, left: r.left + scrollX, top: r.top + scrollY, right: r.right + scrollX, bottom: r.bottom + scrollY, clipped: clippedBy(p.node) };
  });
  const tapAt = (node, x, y) => { const hit = document.elementFromPoint(x, y); return hit !== null && node.contains(hit); };
  const taps = [];
  for (const p of parts) {
    if (!p.tap) continue;
    p.node.scrollIntoView({ block: "nearest", inline: "nearest" });
    const r = p.node.getBoundingClientRect();
    const onScreen = r.top >= -1 && r.bottom <= innerHeight + 1 && r.left >= -1 && r.right <= innerWidth + 1;
    taps.push({ name: p.name, onScreen, hits: tapAt(p.node, r.left + r.width / 2, r.top + r.height / 2) });
  }
  // The hand: each card's visible slice (up to the next card) takes a tap at its middle.
  const cards = [...document.querySelectorAll("#hand .card")];
  const slices = cards.map((c, i) => {
    c.scrollIntoView({ block: "nearest", inline: "nearest" });
    const r = c.getBoundingClientRect();
    const next = cards[i + 1]?.getBoundingClientRect();
    const width = next && next.left < r.right ? next.left - r.left : r.width;
    return { code: c.dataset.code, width, hits: tapAt(c, r.left + Math.min(width, r.width) / 2, r.top + CORNER_Y) };
  });
  // A lifted card lies whole inside the hand and the screen; its neighbours keep a slice a finger can read.
  const lifted = cards.findIndex((c) => c.classList.contains("lifted"));
  let lift = null;
  if (lifted >= 0) {
    const c = cards[lifted];
    c.scrollIntoView({ block: "nearest", inline: "nearest" });
    const r = c.getBoundingClientRect();
    const h = $("hand").getBoundingClientRect();
    const inside = r.top >= h.top - 0.5 && r.bottom <= h.bottom + 0.5 && r.left >= h.left - 0.5 && r.right <= h.right + 0.5;
    const onScreen = r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;
    const readable = (n) => {
      // How many pixels across the card's corner row are the card itself, not a card over it.
      const b = n.getBoundingClientRect();
      let count = 0;
      for (let x = Math.ceil(b.left); x < b.right; x++) if (tapAt(n, x, b.top + CORNER_Y)) count++;
      return count;
    };
    const neighbours = [cards[lifted - 1], cards[lifted + 1]].filter(Boolean).map((n) => ({ code: n.dataset.code, readable: readable(n) }));
    lift = { code: c.dataset.code, inside, onScreen, neighbours, top: r.top, handTop: h.top, readable: readable(c) };
  }
  // A suit token's word (DIAMONDS the longest) fits across the round token where it is written.
  const words = [...document.querySelectorAll("#suit-picker .suit-token")].map((t) => {
    const b = t.getBoundingClientRect();
    const w = t.querySelector(".suit-word").getBoundingClientRect();
    const r = b.width / 2;
    const dy = Math.abs((w.top + w.bottom) / 2 - (b.top + r));
    return { suit: t.dataset.suit, width: w.width, room: 2 * Math.sqrt(Math.max(0, r * r - dy * dy)) };
  });
  window.scrollTo(0, 0);
  return {
    boxes, taps, slices, lift, pageScrolls, words,
    scrollWidth: document.documentElement.scrollWidth, innerWidth, innerHeight,
    scrollHeight: document.documentElement.scrollHeight,
  };
}
""".replace("CORNER_Y", str(CORNER["y"]))


def overlaps(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two boxes share more than a hairline."""
    return (
        min(a["right"], b["right"]) - max(a["left"], b["left"]) > 1
        and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 1
    )


def problems_at(page: Page, size: str) -> list[str]:
    """What is wrong with the layout at this size (empty when it holds)."""
    page.set_viewport_size(SIZES[size])
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    got = page.evaluate(COLLECT)
    found: list[str] = []
    if got["scrollWidth"] > got["innerWidth"]:
        found.append(f"the page scrolls sideways ({got['scrollWidth']} > {got['innerWidth']})")
    boxes = got["boxes"]
    names = {b["name"] for b in boxes}
    for wanted in ("#game-title", "#hand"):
        if wanted not in names:
            found.append(f"{wanted} is not shown")
    if any(b["name"].startswith("seat") for b in boxes) and not any("BOT badge" in b["name"] for b in boxes):
        found.append("no BOT badge is shown")
    for i, a in enumerate(boxes):
        if a["left"] < -1 or a["right"] > got["innerWidth"] + 1:
            found.append(f"{a['name']} runs past the width ({a['left']:.0f}..{a['right']:.0f})")
        if a["clipped"]:
            found.append(f"{a['name']} is cut off by {a['clipped']}")
        if not got["pageScrolls"] and a["bottom"] > got["innerHeight"] + 1:
            found.append(
                f"{a['name']} lies below the screen ({a['bottom']:.0f} > {got['innerHeight']}) and the page cannot scroll"
            )
        for b in boxes[i + 1 :]:
            if a["group"] != b["group"] and overlaps(a, b):
                found.append(f"{a['name']} overlaps {b['name']}")
    for tap in got["taps"]:
        if not tap["onScreen"]:
            found.append(f"{tap['name']} cannot be scrolled onto the screen")
        elif not tap["hits"]:
            found.append(f"a tap at the centre of {tap['name']} lands on something else")
    for card in got["slices"]:
        if card["width"] < MIN_SLICE - 0.5 or not card["hits"]:
            found.append(f"card {card['code']} shows {card['width']:.0f}px, tap hits it: {card['hits']}")
    for word in got["words"]:
        if word["width"] > word["room"] + 1:
            found.append(
                f"the word of suit token {word['suit']} runs past the token ({word['width']:.0f}px, {word['room']:.0f}px of room)"
            )
    lift = got["lift"]
    if lift:
        if not lift["inside"] or not lift["onScreen"]:
            found.append(
                f"the lifted {lift['code']} is cut off (top {lift['top']:.0f}, hand's top {lift['handTop']:.0f})"
            )
        for n in lift["neighbours"]:
            if n["readable"] < MIN_SLICE:
                found.append(f"the lifted {lift['code']} hides {n['code']}: {n['readable']}px of it show")
    return found


# The help tool (a "?" icon) is to join the bar: until the page has it, a stand-in of its size
# shows the bar has room for it.
HELP_STAND_IN = """
() => {
  if (document.getElementById("open-help")) return;
  const b = document.createElement("button");
  b.type = "button";
  b.className = "tool";
  b.id = "open-help";
  b.setAttribute("aria-label", "How to play");
  b.textContent = "?";
  document.querySelector(".table-tools").append(b);
}
"""


def check_every_size(opened, name: str, *, lifted: bool = True) -> None:
    """The layout holds at each of the five sizes. A size that fails leaves its screenshot in
    tests/artifacts (FAIRDEAL_LAYOUT_SHOTS=1: every size does; the pictures take most of the time)."""
    page = opened.page
    page.evaluate(HELP_STAND_IN)
    if lifted:
        assert page.locator("#hand .card.lifted").count() >= 1, "no card is lifted"
    found: dict[str, list[str]] = {}
    for size in SIZES:
        problems = problems_at(page, size)
        if problems or EVERY_SHOT:
            opened.shot(f"layout-{name}-{size}")
        if problems:
            found[size] = problems
    assert not found, "\n".join(f"{size}: {p}" for size, ps in found.items() for p in ps)


def lift_a_card(page: Page) -> None:
    """Tap a playable card once: it is lifted, not yet played."""
    page.locator("#hand .card.playable").first.click(position=CORNER)
    page.wait_for_selector("#hand .card.lifted")


def test_crazy_eights_with_the_suit_tokens_open(open_page, new_game):
    game = new_game(["Lay", "Bot L1", "Bot L2", "Bot L3"])
    opened = open_page(game.link(0))
    page = opened.page
    to_an_eight(page)
    assert page.locator("#timer").is_visible()
    check_every_size(opened, "crazy-eights")


def test_fan_tan(open_page, new_game):
    game = new_game(["Lan", "Bot T1", "Bot T2", "Bot T3"], rules="fan-tan")
    opened = open_page(game.link(0))
    page = opened.page
    for _ in range(3):  # some cards on the rows
        assert wait_turn(page)
        before = seq(page)
        if page.locator("#pass").count():
            page.click("#pass")
        else:
            lift_a_card(page)
            page.locator("#hand .card.lifted").click(position=CORNER)
        wait_moved(page, before)
    assert wait_turn(page)
    if page.locator("#hand .card.playable").count():
        lift_a_card(page)
    check_every_size(opened, "fan-tan", lifted=False)


def test_michigan(open_page, new_game):
    game = new_game(["Lim", "Bot N1", "Bot N2", "Bot N3"], rules="michigan", options={"deals": 1})
    opened = open_page(game.link(0))
    page = opened.page
    page.wait_for_selector("#layout li")
    for _ in range(20):
        assert wait_turn(page)
        if (
            page.locator("#hand .card.playable").count()
            and not page.locator("#keep, #exchange, #auction, #bid").count()
        ):
            break
        before = seq(page)
        if page.locator("#keep").count():
            page.click("#keep")
        elif page.locator("#bid").count():
            page.click("#pass")
        wait_moved(page, before)
    lift_a_card(page)
    check_every_size(opened, "michigan")


def test_eleusis(open_page, new_game):
    game = new_game(["Lel", "Bot E1", "Bot E2", "Bot E3"], rules="eleusis", options={"dealer": 0, "rounds": 1})
    opened = open_page(game.link(0))
    page = opened.page
    page.wait_for_selector("body[data-my-turn='true']:not([data-busy]) #mainline")
    lift_a_card(page)
    check_every_size(opened, "eleusis")


def test_the_other_games(open_page, new_game):
    """Go Boom, Rolling Stone and Sequence at one size each is too little: each at all five, on one page each."""
    for rules, names in (
        ("go-boom", ["Lgo", "Bot G1", "Bot G2"]),
        ("rolling-stone", ["Lro", "Bot R1", "Bot R2", "Bot R3"]),
        ("sequence", ["Lse", "Bot S1", "Bot S2"]),
    ):
        game = new_game(names, rules=rules, options={"deals": 1} if rules == "sequence" else {})
        opened = open_page(game.link(0))
        page = opened.page
        assert wait_turn(page)
        lifted = page.locator("#hand .card.playable").count() > 0
        if lifted:
            lift_a_card(page)
        check_every_size(opened, rules, lifted=lifted)
