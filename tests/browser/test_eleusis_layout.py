"""Eleusis's layout takes the felt's space, at the table and in the hand replayer: a mainline of 30
cards with its sidelines and the Forecaster's marker is all in sight at once, on a laptop
(1366x768), a phone upright (390x844) and a phone on its side (844x390): every card's box inside
the window and inside the layout's box, none scrolled out, none covered. In the replayer the
status under the layout keeps clear of it, and the dealer's chip is where the game puts it."""

from __future__ import annotations

from playwright.sync_api import Page

from fairdeal import client_commitment
from fairdeal.simulate import simulate
from verifier.replayer import hand_steps

from .conftest import api
from .test_replayer import load_file

SIZES = [{"width": 1366, "height": 768}, {"width": 390, "height": 844}, {"width": 844, "height": 390}]

# Two frames: the layout is fitted to its space before the browser paints after a change of size.
SETTLED = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())))"

IN_SIGHT = """() => {
  const scroller = document.getElementById('layout-scroll');
  const box = scroller.getBoundingClientRect();
  const inside = (r, b) => r.left >= b.left - 0.5 && r.right <= b.right + 0.5 && r.top >= b.top - 0.5 && r.bottom <= b.bottom + 0.5;
  const view = { left: 0, top: 0, right: innerWidth, bottom: innerHeight };
  const cards = [...document.querySelectorAll('#mainline .card')];
  const main = [...document.querySelectorAll('#mainline > .column > .card')];
  const marker = document.getElementById('marker');
  return {
    mainline: main.length,
    cards: cards.length,
    scrolled: scroller.scrollTop,
    overflow: scroller.scrollHeight - scroller.clientHeight,
    outOfWindow: cards.filter((c) => !inside(c.getBoundingClientRect(), view)).map((c) => c.dataset.code),
    outOfLayout: cards.filter((c) => !inside(c.getBoundingClientRect(), box)).map((c) => c.dataset.code),
    // Nothing lies over a mainline card's middle (a sideline's cards overlap each other by design).
    covered: main.filter((c) => {
      const r = c.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return !(hit && c.contains(hit));
    }).map((c) => c.dataset.code),
    marker: marker !== null && inside(marker.getBoundingClientRect(), view) && inside(marker.getBoundingClientRect(), box),
    width: Math.min(...main.map((c) => c.getBoundingClientRect().width)),
  };
}"""


def all_in_sight(page: Page, mainline: int, cards: int, size: dict) -> None:
    page.evaluate(SETTLED)
    seen = page.evaluate(IN_SIGHT)
    where = f"at {size['width']}x{size['height']}"
    assert (seen["mainline"], seen["cards"]) == (mainline, cards), where
    assert seen["scrolled"] == 0 and seen["overflow"] <= 0, f"the layout scrolls {where}: {seen}"
    assert seen["outOfWindow"] == [] and seen["outOfLayout"] == [], f"cards out of sight {where}: {seen}"
    assert seen["covered"] == [], f"cards covered {where}: {seen}"
    assert seen["marker"], f"the marker is out of sight {where}"
    assert seen["width"] >= 20, f"the mainline's cards are {seen['width']} px wide {where}"


def test_a_mainline_of_30_cards_is_all_in_sight_at_the_table(open_page, new_game, server):
    # The server deals; this seat plays through the API (the bots at once) until the mainline is 30
    # cards long on its turn (these seats, seeds and plays get there with 8 cards on the sidelines
    # and the Forecaster's marker on the table), then the page opens on it.
    game = new_game(["Layla10", "Bot L1", "Bot L2", "Bot L3"], rules="eleusis", options={"dealer": 0, "rounds": 1})
    token = game.token(0)
    api(server, "POST", f"/games/{game.id}/seats/0/commit", {"commitment": client_commitment("layout")}, token=token)
    api(server, "POST", f"/games/{game.id}/seats/0/reveal", {"seed": "layout"}, token=token)
    for n in range(400):
        view = api(server, "GET", f"/games/{game.id}/seats/0/view", token=token)
        assert view["status"] == "playing", "the round ended before its mainline was 30 cards long"
        table = view["table"]
        if view["your_turn"] and table["phase"] == "play" and len(table["mainline"]) >= 30:
            break
        if view["your_turn"]:
            moves = view["legal_moves"]
            plays = [m for m in moves if m["move"] == "play"]
            passes = [m for m in moves if m["move"] == "pass"]
            move = passes[0] if passes else plays[n % len(plays)] if plays else moves[0]
            api(server, "POST", f"/games/{game.id}/moves", {"seq": view["seq"], **move}, token=token)
    assert len(table["mainline"]) == 30 and table["marker"] is not None
    cards = table["layout_size"]
    assert cards > 30 and any(len(s) > 1 for s in table["sidelines"])
    opened = open_page(game.link(0), viewport=SIZES[0])
    page = opened.page
    page.wait_for_selector("#mainline > .column:nth-child(30)")
    for size in SIZES:
        page.set_viewport_size(size)
        all_in_sight(page, 30, cards, size)
        # The controls are still there to play with.
        assert page.locator("#play").is_visible() and page.locator("#hand .card").first.is_visible()
        opened.shot(f"eleusis-layout-30-{size['width']}x{size['height']}")


def test_a_mainline_of_30_cards_is_all_in_sight_in_the_replayer(open_page, tmp_path):
    # The server dealt: no seat wears the dealer's chip. Round 3 of this record reaches a mainline of
    # 30 cards, with 22 cards on its sidelines, the Forecaster's marker on it.
    [path] = simulate("eleusis", 4, 1, tmp_path, seed="replay-thirty-5", bot="mixed", options={"dealer": 0})
    hand = hand_steps(path.read_text())["hands"][2]
    move = next(i for i, step in enumerate(hand["steps"]) if len(step["table"]["mainline"]) == 30)
    table = hand["steps"][move]["table"]
    assert table["marker"] is not None and table["layout_size"] > 40
    opened = open_page("/replay", viewport=SIZES[0])
    page = opened.page
    load_file(page, path)
    page.evaluate("(step) => { location.hash = step; }", f"#hand=3&move={move}")
    page.wait_for_selector(f"body[data-hand='3'][data-move='{move}']")
    assert page.locator(".dealer-chip").count() == 0
    for size in SIZES:
        page.set_viewport_size(size)
        page.locator("#felt").evaluate("(felt) => felt.scrollIntoView({ block: 'start' })")  # as a person scrolls to it
        all_in_sight(page, 30, table["layout_size"], size)
        opened.shot(f"replay-eleusis-layout-30-{size['width']}x{size['height']}")
    # The round's end: "Hand 3 is over." under the layout, clear of the last judgement and of the
    # rule revealed above it; the rule's check is there.
    last = len(hand["steps"]) - 1
    page.evaluate("(step) => { location.hash = step; }", f"#hand=3&move={last}")
    page.wait_for_selector(f"body[data-move='{last}']")
    page.wait_for_selector("#rule-check[data-state='checks']")
    for size in SIZES:
        page.set_viewport_size(size)
        page.evaluate(SETTLED)
        boxes = page.evaluate(
            """() => ['turn-now', 'last-judgement', 'rule-revealed', 'layout-scroll'].map((id) => {
                 const r = document.getElementById(id).getBoundingClientRect();
                 return [r.top, r.bottom, r.left, r.right];
               })"""
        )
        status, *others = boxes
        assert page.locator("#turn-now").inner_text() == "Hand 3 is over."
        for other in others:
            apart = status[0] >= other[1] or status[1] <= other[0] or status[2] >= other[3] or status[3] <= other[2]
            assert apart, f"the status lies over the table at {size}: {boxes}"
