"""An Eleusis round in the hand replayer (the Python engine in Pyodide), step by step as
verifier.replayer gives it. (The verify page's checks of Eleusis records are in test_eleusis.py,
on the records the page itself played.)"""

from __future__ import annotations

from fairdeal.simulate import simulate
from verifier.replayer import hand_steps

from .test_replayer import check_step
from .test_replayer import load_file


def test_the_replayer_steps_through_an_eleusis_round(open_page, tmp_path):
    """Every step of a round dealt by a seat, as the engine in Python gives it: the hands, every
    card's place (mainline, sidelines, stock), whose turn, and why each move was allowed."""
    [path] = simulate("eleusis", 5, 1, tmp_path, seed="web-eleusis-dealt", bot="mixed", options={"dealer": 1})
    replay = hand_steps(path.read_text())
    opened = open_page("/replay")
    page = opened.page
    load_file(page, path)
    hand = replay["hands"][0]
    page.locator("body").click(position={"x": 5, "y": 5})  # the keys go to the page, not a control
    # The first steps one by one (the rule given, the first calls, an offer to forecast), then
    # every fifth step by the slider, and the last.
    steps = len(hand["steps"])
    for index in range(12):
        check_step(page, hand, index)
        page.keyboard.press("ArrowRight")
    slider = page.locator("#move-slider")
    whys = set()
    for index in [*range(12, steps, 5), steps - 1]:
        slider.evaluate(
            "(node, value) => { node.value = String(value); node.dispatchEvent(new Event('input', { bubbles: true })); }",
            index,
        )
        whys.add(check_step(page, hand, index)["why"])
    assert any(why and "right" in why for why in whys) and any(why and "wrong" in why for why in whys), sorted(
        map(str, whys)
    )[:10]
    opened.shot("replay-eleusis-round-end", full_page=True)
