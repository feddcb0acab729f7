"""The hand replayer (/replay) in real Chromium: the record checked and every step computed by
fairdeal's own verifier in the page's engine (Pyodide in a Web Worker), drawn with the table's
renderers; stepped by keyboard and slider; opened from a link, the verify page and a finished
table's end dialog. What it shows is compared with verifier.replayer.hand_steps in Python."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from fairdeal.cards import Card
from fairdeal.record import canonical
from fairdeal.simulate import simulate
from verifier.replayer import hand_steps

from .conftest import PHONE
from .conftest import api
from .play import play_by_api

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "crazy-eights-4p.jsonl"
READY = "body[data-ready='true'], body[data-ready='refused']"

SHOWN = """() => ({
  hand: Number(document.body.dataset.hand),
  move: Number(document.body.dataset.move),
  line: Number(document.body.dataset.line),
  hands: [...document.querySelectorAll('#seats li')].map((li) => [...li.querySelectorAll('.replay-hand [data-code]')].map((c) => c.dataset.code)),
  places: [...document.querySelectorAll('#places li')].map((li) => ({place: li.dataset.place, cards: [...li.querySelectorAll('[data-code]')].map((c) => c.dataset.code)})),
  turn: [...document.querySelectorAll('#seats li[aria-current=true]')].map((li) => Number(li.dataset.seat)),
  why: document.getElementById('move-why').textContent,
  slider: Number(document.getElementById('move-slider').value),
  fragment: location.hash,
  stock: [...document.querySelectorAll('#stock .count')].map((n) => n.innerText),
  top: document.querySelector('#pile [data-code]')?.dataset.code ?? null,
})"""

# What dragging the slider to a step does (its value changes and it says so), and then what the page shows: one call.
SLIDE = f"""(value) => {{
  const node = document.getElementById('move-slider');
  node.value = String(value);
  node.dispatchEvent(new Event('input', {{ bubbles: true }}));
  return ({SHOWN})();
}}"""


def shown(page) -> dict:
    return page.evaluate(SHOWN)


def check_step(page, hand: dict, index: int, seen: dict | None = None) -> dict:
    """The page shows step ``index`` of ``hand`` exactly as the engine in Python computes it
    (``seen``: what :data:`SHOWN` read of the page just now, if the caller has it)."""
    step = hand["steps"][index]
    seen = seen or shown(page)
    assert (seen["hand"], seen["move"], seen["line"], seen["slider"]) == (hand["hand"], index, step["line"], index)
    assert seen["hands"] == step["hands"]
    assert seen["places"] == step["places"]
    assert seen["turn"] == ([] if step["turn"] is None else [step["turn"]])
    assert seen["why"] == ("" if step["why"] is None else f"Allowed: {step['why']}")
    assert seen["fragment"] == f"#hand={hand['hand']}&move={index}"
    return step


def load_file(page, path: Path) -> None:
    page.set_input_files("#file", str(path))
    page.wait_for_selector(READY)
    assert page.locator("body").get_attribute("data-ready") == "true", page.locator("#replay-status").inner_text()


def file_chosen_before_the_words(page, url: str, path: Path) -> None:
    """Open ``url`` and choose the file ``path`` while the page's words are still on their way:
    i18n.js waits for its catalogue before the page listens for a file, and the load event does
    not wait for it, so a quick hand (or a slow network) chooses before anyone listens. The page
    must check that file once it is ready, as if chosen after."""
    held: list = []
    page.route("**/js/i18n/en.json", lambda route: held.append(route))
    page.goto(url)
    # Polled, not awaited with expect_request: Playwright may tell of the request before it hands
    # the route to the handler (seen: an assert right after expect_request failed 3 runs in 4).
    for _ in range(500):
        if held:
            break
        page.wait_for_timeout(20)
    assert held, f"{url} never asked for its words"  # and so, held, has not begun to listen
    page.set_input_files("#file", str(path))
    for route in held:
        route.continue_()
    page.unroute("**/js/i18n/en.json")


@pytest.fixture(scope="module")
def michigan(tmp_path_factory) -> tuple[Path, dict]:
    path = simulate("michigan", 4, 1, tmp_path_factory.mktemp("replay"), seed="browser-replay", options={"deals": 1})[0]
    return path, hand_steps(path.read_text())


def test_a_whole_michigan_deal_by_keyboard_then_on_a_phone(open_page, michigan):
    path, replay = michigan
    opened = open_page("/replay")
    page = opened.page
    load_file(page, path)
    [hand] = replay["hands"]
    assert "VERIFIED" in page.locator("#replay-status").inner_text()
    page.locator("body").click(position={"x": 5, "y": 5})  # the keys go to the page, not a control
    for index in range(len(hand["steps"])):
        step = check_step(page, hand, index)
        # The renderer of the game draws the layout and the runs from the engine's view.
        assert page.locator("#board").is_visible() and page.locator("#layout li").count() == 4
        if index == 1:
            assert step["why"].startswith("the dealer ") and page.locator("#move-why").inner_text().endswith(
                step["why"]
            )
            opened.shot("replay-michigan-the-dealer-decides", full_page=True)
        page.keyboard.press("ArrowRight")
    check_step(page, hand, len(hand["steps"]) - 1)  # the last step stays put
    assert page.locator("#next-move").is_disabled()
    # What followed the last move, as the table's log says it: the hand's end, the game's.
    after = page.locator("#move-events").inner_text()
    assert "Hand 1: " in after and "The game is over." in after and "[" not in after
    runs = page.locator("#board").inner_text()
    assert runs  # the runs played
    page.keyboard.press("Home")
    check_step(page, hand, 0)
    page.keyboard.press("End")
    check_step(page, hand, len(hand["steps"]) - 1)
    opened.shot("replay-michigan-the-end", full_page=True)
    # The same page on a phone (the engine stays loaded): a step of the deal, nothing spills sideways.
    page.set_viewport_size(PHONE)
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    check_step(page, hand, 1)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_record_that_does_not_verify_is_refused_then_a_whole_crazy_eights_hand_by_slider(open_page, server, tmp_path):
    # One page, two records: the engine loads once (it takes seconds), and a refusal leaves the
    # page ready for the next record.
    lines = [json.loads(line) for line in GOLDEN.read_text().splitlines()]
    n = next(i for i, line in enumerate(lines) if line["type"] == "move" and line["move"] == "play")
    lines[n]["card"] = "KD" if lines[n]["card"] != "KD" else "QD"
    path = tmp_path / "tampered.jsonl"
    path.write_text("".join(canonical(line).decode() + "\n" for line in lines))
    opened = open_page("/health")
    page = opened.page
    file_chosen_before_the_words(page, server + "/replay", path)
    page.wait_for_selector(READY)
    assert page.locator("body").get_attribute("data-ready") == "refused"
    said = page.locator("#replay-status").inner_text()
    assert said.startswith("This record cannot be replayed: the record does not verify") and f"line {n + 1}: " in said
    assert page.locator("#replayer").is_hidden()

    replay = hand_steps(GOLDEN.read_text())
    page.click("#paste-box summary")
    page.fill("#paste", GOLDEN.read_text())
    page.click("#paste-go")
    page.wait_for_selector(READY)
    hand = replay["hands"][0]
    slider = page.locator("#move-slider")
    restocks = 0
    for index in range(len(hand["steps"])):
        seen = page.evaluate(SLIDE, index)  # the slider dragged to the step (158 of them: one call each)
        step = check_step(page, hand, index, seen)
        assert seen["stock"] == [str(step["table"]["stock_size"])]
        assert seen["top"] == step["table"]["top"]
        said = page.locator("#move-words").inner_text()
        if step["kind"] == "move":
            # In a player's words, every card face up: "Ann drew 8♣.", "Bob played 9♣."
            name = replay["seats"][step["seat"]]["name"]
            kind, *rest = step["move"].split()
            if kind == "draw":
                taken = Counter(step["hands"][step["seat"]]) - Counter(hand["steps"][index - 1]["hands"][step["seat"]])
                auto = " (time ran out)" if step["auto"] else ""
                drew = " ".join(Card.parse(card).display for card in taken) or None
                assert said == (f"{name} drew {drew}" if drew else f"{name} had to draw, but no card was left") + (
                    f"{auto}."
                ), said
            elif kind == "play":
                assert said.startswith(f"{name} played {Card.parse(rest[0]).display}"), said
        if any(e.startswith("the stock ran out") for e in step["events"]):
            restocks += 1
            assert "from a new stock" in page.locator("#move-why").inner_text()
            assert (
                page.locator("#move-events").inner_text().startswith("The stock ran out: the pile became a new stock")
            )
            opened.shot(f"replay-crazy-eights-restock-{restocks}", full_page=True)
    assert restocks == 2
    # The mouse on the slider's track: its far end is the hand's last step.
    box = slider.bounding_box()
    page.mouse.click(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)
    check_step(page, hand, len(hand["steps"]) - 1)
    # The keys carry on from there: the next move is the next hand's deal, and back.
    page.keyboard.press("ArrowRight")
    check_step(page, replay["hands"][1], 0)
    page.keyboard.press("ArrowLeft")
    check_step(page, hand, len(hand["steps"]) - 1)
    page.keyboard.press("PageDown")
    check_step(page, replay["hands"][1], 0)
    page.keyboard.press("ArrowDown")
    check_step(page, replay["hands"][2], 0)
    page.keyboard.press("PageUp")
    check_step(page, replay["hands"][1], 0)


def test_the_link_opens_the_hand_and_move_it_names(open_page, tmp_path):
    replay = hand_steps(GOLDEN.read_text())
    opened = open_page("/replay#hand=3&move=42")
    page = opened.page
    load_file(page, GOLDEN)
    check_step(page, replay["hands"][2], 42)
    page.keyboard.press("ArrowLeft")
    check_step(page, replay["hands"][2], 41)
    assert page.url.endswith("#hand=3&move=41")
    # A link names a step: opening the page's own address again shows that step.
    again = open_page(f"/replay?record=handed{page.url[page.url.index('#') :]}")
    again.page.evaluate("(text) => sessionStorage.setItem('fairdeal:replay-record', text)", GOLDEN.read_text())
    again.page.reload()
    again.page.wait_for_selector(READY)
    check_step(again.page, replay["hands"][2], 41)


def test_the_verify_page_opens_the_replayer_on_its_record(open_page, server):
    replay = hand_steps(GOLDEN.read_text())
    page = open_page("/health").page
    file_chosen_before_the_words(page, server + "/verify", GOLDEN)
    page.wait_for_selector("body[data-verdict='verified']")
    page.click("#replay-link")
    page.wait_for_url("**/replay?record=handed**")
    page.wait_for_selector(READY)
    check_step(page, replay["hands"][0], 0)


def test_a_finished_tables_end_dialog_opens_the_replayer(open_page, new_game, server):
    game = new_game(["Rae", "Bot R"], options={"target": 1})
    opened = open_page(game.link(0))
    page = opened.page
    page.wait_for_selector("body[data-my-turn='true']")  # the page has given its seed: the cards are dealt
    play_by_api(server, game)  # the page follows the hand live; the end is what this test is about
    page.wait_for_selector("#end:not([hidden]) #end-replay")
    page.click("#end-replay")
    page.wait_for_url(f"**/replay?game={game.id}**")
    page.wait_for_selector(READY)
    replay = hand_steps(api(server, "GET", f"/games/{game.id}/record"))
    hand = replay["hands"][0]
    assert shown(page)["hands"] == hand["steps"][0]["hands"]
    names = page.locator("#seats li .seat-head b").all_inner_texts()
    assert names == ["Rae", "Bot R"]
    page.keyboard.press("End")
    check_step(page, hand, len(hand["steps"]) - 1)
    opened.shot("replay-from-the-end-dialog", full_page=True)
