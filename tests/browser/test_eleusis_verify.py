"""Eleusis records on the verify page (the Python verifier in Pyodide): a game the server dealt
and a game whose seats dealt by their own rules verify as fairdeal-verify says, each round's
revealed rule is shown, and a re-signed record with one call flipped is refused at that line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from fairdeal.record import parse_record, resign
from fairdeal.simulate import simulate

from .records import FORGER, text


def _cli(path) -> dict:
    run = subprocess.run([sys.executable, "-m", "verifier.cli", "--json", str(path)], capture_output=True, text=True)
    return json.loads(run.stdout)


@pytest.fixture(scope="module")
def records(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("eleusis-verify")
    [served] = simulate("eleusis", 4, 1, out / "served", seed="web-eleusis-served", bot="mixed", options={"dealer": 0})
    [dealt] = simulate("eleusis", 5, 1, out / "dealt", seed="web-eleusis-dealt", bot="mixed", options={"dealer": 1})
    return {"served": served, "dealt": dealt}


@pytest.mark.parametrize("name", ["served", "dealt"])
def test_an_eleusis_record_verifies_on_the_page_with_every_rule(verify_page, records, name):
    path = records[name]
    cli = _cli(path)
    assert cli["verified"]
    assert verify_page.load(path) == "verified"
    shown = verify_page.page.locator("body").inner_text()
    rules = [line["rule"] for line in parse_record(path.read_text()) if line["type"] == "rule-reveal"]
    assert len(rules) == len(cli["hands"]) >= 4
    for rule in rules:
        assert rule in shown
    # Each rule is checked against its commitment in the page too.
    checks = verify_page.page.locator(".eleusis-round .rule-check")
    verify_page.page.wait_for_function("[...document.querySelectorAll('.rule-check')].every((n) => n.dataset.state !== 'checking')")
    assert checks.count() == len(rules)
    assert checks.evaluate_all("nodes => nodes.map((n) => n.dataset.state)") == ["checks"] * len(rules)
    verify_page.shot(f"verify-eleusis-{name}", full_page=True)


@pytest.mark.parametrize("name", ["served", "dealt"])
def test_a_flipped_call_is_refused_on_the_page_at_its_line(verify_page, records, tmp_path, name):
    lines = parse_record(records[name].read_text())
    calls = [i for i, line in enumerate(lines) if line["type"] == "judgement"]
    for n, index in enumerate(calls[len(calls) // 3 :: max(1, len(calls) // 3)][:2]):
        forged = [dict(line) for line in lines]
        forged[index]["right"] = not forged[index]["right"]
        path = tmp_path / f"flipped-{n}.jsonl"
        path.write_text(text(resign(forged, FORGER)))
        cli = _cli(path)
        assert not cli["verified"] and cli["error"]["line"] == index + 1
        assert verify_page.load(path) == "failed"
        assert verify_page.page.locator("#failure").inner_text() == f"line {cli['error']['line']}: {cli['error']['reason']}"


def test_the_replayer_steps_through_an_eleusis_round(open_page, records):
    """Every step of a round dealt by a seat, as the engine in Python gives it: the hands, every
    card's place (mainline, sidelines, stock), whose turn, and why each move was allowed."""
    from verifier.replayer import hand_steps

    from .test_replayer import check_step, load_file

    path = records["dealt"]
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
        slider.evaluate("(node, value) => { node.value = String(value); node.dispatchEvent(new Event('input', { bubbles: true })); }", index)
        whys.add(check_step(page, hand, index)["why"])
    assert any(why and "right" in why for why in whys) and any(why and "wrong" in why for why in whys), sorted(map(str, whys))[:10]
    opened.shot("replay-eleusis-round-end", full_page=True)
