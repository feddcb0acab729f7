"""The verify page checks records by itself, with fairdeal's own verifier in the browser (Pyodide),
and agrees with ``fairdeal-verify --json`` on every record of every game."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from fairdeal.fairness import client_commitment
from fairdeal.record import resign
from fairdeal.simulate import simulate
from verifier.cli import main as verify_main

from .conftest import LAPTOP
from .conftest import PHONE
from .conftest import api
from .records import FORGER
from .records import all_cases
from .records import cli_report
from .records import page_reports
from .records import text
from .records import with_cli_reports


def _cli_object(case: dict) -> dict:
    """fairdeal-verify --json's object for the case, without the file name it was read from."""
    return {k: v for k, v in case["cli"].items() if k != "file"}


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    """Simulated records and tampered copies, each with fairdeal-verify's JSON report."""
    out = tmp_path_factory.mktemp("verify-cases")
    return with_cli_reports(all_cases(out / "sims"), out)


@pytest.fixture(scope="module")
def js_reports(cases, verify_page) -> list[dict]:
    return page_reports(verify_page, [c["text"] for c in cases])


def test_enough_records_honest_and_tampered_of_every_game(cases):
    from fairdeal.rules import RULES

    verified = [c for c in cases if c["cli"]["verified"]]
    tampered = [c for c in cases if not c["cli"]["verified"]]
    assert len(verified) >= 25 and len(tampered) >= 200
    assert {c["name"].split(": ")[0] for c in verified} >= set(RULES)
    assert {c["name"].split(": ")[0] for c in tampered} >= set(RULES)
    kinds = {c["name"].split(": ")[1] for c in tampered}
    assert kinds >= {
        "a card nobody played",
        "a card the seat never played",
        "a chip payment changed",
        "counters left on the layout changed",
        "a score and its total changed",
        "the standings changed",
        "another dealer for the first hand",
        "a client seed changed at the start",
        "a different server seed",
        "a bad signature",
        "the reveal cut off",
    }
    # Every tampered copy that the forger re-signed is caught by the replay, not by the chain.
    assert all(c["cli"]["error"]["reason"] != "bad signature" for c in tampered if "signature" not in c["name"])


def test_browser_and_fairdeal_verify_agree_on_every_record(cases, js_reports):
    # The whole --json object: the verdict, the failing line and reason, every deal, score,
    # chip, counter, total and the standings.
    assert len(js_reports) == len(cases)
    for case, js in zip(cases, js_reports):
        mine = {k: v for k, v in js.items() if k != "text"}
        assert mine == _cli_object(case), case["name"]


def test_reasons_name_what_was_tampered(cases, js_reports):
    by_name = {c["name"]: r for c, r in zip(cases, js_reports)}
    some = next(name.split(": ")[0] for name in by_name if name.endswith("a card nobody played"))
    assert "you do not hold" in by_name[f"{some}: a card nobody played"]["error"]["reason"]
    assert by_name[f"{some}: a bad signature"]["error"]["reason"] == "bad signature"
    assert "does not match the commitment" in by_name[f"{some}: a different server seed"]["error"]["reason"]
    assert "not revealed" in by_name[f"{some}: the reveal cut off"]["error"]["reason"]
    assert "score" in by_name[f"{some}: a score changed"]["error"]["reason"]
    # The case: a Fan Tan chip payment changed and re-signed.
    assert by_name["fan-tan: a chip payment changed"]["error"]["reason"] == "chips amount 2 but the rules give 1"


def test_the_text_report_is_fairdeal_verifys(cases, js_reports):
    some = [i for i, c in enumerate(cases) if c["name"].startswith(("fan-tan:", "michigan:", "sim-web3-1:"))]
    # fairdeal-verify's own command, run in this process (a new Python for each of these forty
    # records took most of this module's time); the first is run as a command too, and says the same.
    printed = [CliRunner().invoke(verify_main, [str(cases[i]["path"])]).stdout for i in some]
    run = subprocess.run(
        [sys.executable, "-m", "verifier.cli", str(cases[some[0]]["path"])], capture_output=True, text=True
    )
    assert run.stdout == printed[0], cases[some[0]]["name"]
    for i, stdout in zip(some, printed):
        assert js_reports[i]["text"].rstrip("\n") == stdout.rstrip("\n"), cases[i]["name"]


def _load(page, path: Path) -> None:
    page.set_input_files("#file", str(path))
    page.wait_for_selector("body:not([data-verdict='idle'])")


# The tests at the laptop's size check their records on one verify page (conftest's verify_page):
# its engine loads once for the module, where a new page would start Pyodide again for each.


def test_loading_a_record_file_shows_every_deal_and_verified(verify_page, cases, tmp_path):
    case = next(c for c in cases if c["cli"]["verified"] and len(c["cli"]["hands"]) >= 2)
    path = tmp_path / "game.jsonl"
    path.write_text(case["text"])
    opened = verify_page
    page = opened.page
    assert opened.load(path) == "verified"
    assert page.locator("#verdict-box strong").inner_text() == "VERIFIED"
    hands = page.locator("section.hand")
    assert hands.count() == len(case["cli"]["hands"])
    # The first hand's deal, card by card, as the Python verifier derives it.
    first = case["cli"]["hands"][0]
    rows = hands.first.locator("tbody tr")
    for seat, cards in enumerate(first["deal"]):
        assert rows.nth(seat).locator(".card").evaluate_all("nodes => nodes.map(n => n.dataset.code)") == cards
    assert hands.first.locator(".starter .card").get_attribute("data-code") == first["starter"]
    totals = page.locator("#standings tbody tr td.num").all_inner_texts()
    assert [int(t) for t in totals] == [row["total"] for row in case["cli"]["standings"]]
    assert (
        page.locator("#server-seed").inner_text().startswith(json.loads(case["text"].splitlines()[-1])["server_seed"])
    )
    # Format 2: the table's timer and each hand's times, as the report gives them.
    assert page.locator("#timing").inner_text().startswith("0 s a turn")
    assert f"dealt {first['dealt_at']}, ended {first['ended_at']}" in hands.first.locator(".hand-times").inner_text()
    opened.shot("verify-laptop-verified", full_page=True)
    # The record that was checked downloads again, as it was loaded.
    with page.expect_download() as download:
        page.click("#download-record")
    assert download.value.suggested_filename == "game.jsonl"
    assert Path(download.value.path()).read_bytes() == path.read_bytes()


@pytest.mark.parametrize(
    "name",
    [
        "sim-web3-1: a score changed",
        "sim-web3-1: a bad signature",
        "fan-tan: a chip payment changed",
        "michigan: counters left on the layout changed",
    ],
)
def test_a_tampered_record_shows_its_first_failure(verify_page, cases, tmp_path, name):
    case = next(c for c in cases if c["name"] == name)
    path = tmp_path / "tampered.jsonl"
    path.write_text(case["text"])
    opened = verify_page
    assert opened.load(path) == "failed"
    assert opened.page.locator("#verdict-box strong").inner_text() == "NOT VERIFIED"
    error = case["cli"]["error"]
    assert opened.page.locator("#failure").inner_text() == f"line {error['line']}: {error['reason']}"
    # The player's words come first; the verifier's technical words stay under them.
    if name.endswith("a bad signature"):
        assert (
            opened.page.locator("#failure-words").inner_text() == "This record was changed after the server signed it."
        )
    assert "DEALS CHECKED" not in opened.page.locator("body").inner_text()
    if name.endswith("a score changed"):
        opened.shot("verify-laptop-tampered", full_page=True)


def test_phone_sized_verify_page(verify_page, cases, tmp_path):
    case = next(c for c in cases if c["cli"]["verified"])
    path = tmp_path / "game.jsonl"
    path.write_text(case["text"])
    page = verify_page.page
    page.set_viewport_size(PHONE)  # the page the test process keeps, turned into a phone's
    try:
        assert verify_page.load(path) == "verified"
        # Nothing wider than the phone: the page does not scroll sideways.
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        verify_page.shot("verify-phone-verified", full_page=True)
    finally:
        page.set_viewport_size(LAPTOP)


def test_fan_tan_record_is_verified_in_full_with_every_deal(verify_page, tmp_path):
    """A game the old page only dealt: now replayed move by move, chips and all."""
    [path] = simulate("fan-tan", 4, 1, tmp_path, seed="webfantan", bot="random", options={"deals": 2})
    cli = cli_report(path)
    assert cli["verified"]
    opened = verify_page
    assert opened.load(path) == "verified"
    assert opened.page.locator("#verdict-box strong").inner_text() == "VERIFIED"
    # The engine it ran: the bundle the app serves, by its hash.
    manifest = json.loads(opened.page.evaluate("() => fetch('/engine/manifest.json').then(r => r.text())"))
    assert opened.page.locator("#engine-sha").inner_text() == manifest["sha256"]
    hands = opened.page.locator("section.hand")
    assert hands.count() == len(cli["hands"]) == 2
    for n, hand in enumerate(cli["hands"]):
        rows = hands.nth(n).locator("tbody tr")
        for seat, cards in enumerate(hand["deal"]):
            assert rows.nth(seat).locator(".card").evaluate_all("nodes => nodes.map(n => n.dataset.code)") == cards


def test_a_record_that_is_not_one(verify_page, tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("hello\n")
    assert verify_page.load(path) == "failed"
    assert "not a fairdeal record" in verify_page.page.locator("#failure").inner_text()


def test_unknown_game_from_the_server(open_page):
    opened = open_page("/verify?game=no-such-game", expect_errors=True)  # the 404 is logged by Chromium
    opened.page.wait_for_selector("body[data-verdict='failed']")
    assert "no record for game no-such-game" in opened.page.locator("#failure").inner_text()


def test_text_helper_round_trips(cases):
    # records.text() writes canonical lines, as the service does.
    honest = next(c for c in cases if c["name"].endswith("honest"))
    lines = [json.loads(raw) for raw in honest["text"].splitlines()]
    assert text(lines) == honest["text"]


def _session_record(server: str) -> str:
    """A dealing session through the service: two seeds, two shuffles, the reveal."""
    created = api(server, "POST", "/sessions", {"seats": 2, "label_prefix": "round/"})
    sid, owner = created["session_id"], created["owner_key"]
    for seat, seed in ((0, "alice"), (1, "bob")):
        api(
            server,
            "POST",
            f"/sessions/{sid}/seats/{seat}/commit",
            {"commitment": client_commitment(seed)},
            token=created["seats"][seat]["token"],
        )
    for seat, seed in ((0, "alice"), (1, "bob")):
        api(
            server,
            "POST",
            f"/sessions/{sid}/seats/{seat}/reveal",
            {"seed": seed},
            token=created["seats"][seat]["token"],
        )
    api(server, "POST", f"/sessions/{sid}/shuffle", {"label": "round/1", "packs": 1}, token=owner)
    api(
        server,
        "POST",
        f"/sessions/{sid}/shuffle",
        {"label": "round/2", "cards": ["AS", "KS", "QS", "JS", "TS"]},
        token=owner,
    )
    api(server, "POST", f"/sessions/{sid}/reveal", token=owner)
    return api(server, "GET", f"/sessions/{sid}/record")


def test_a_dealing_session_and_its_tampered_copies_agree_with_fairdeal_verify(server, verify_page, tmp_path):
    honest = _session_record(server)
    lines = [json.loads(raw) for raw in honest.splitlines()]
    shuffle_at = next(i for i, line in enumerate(lines) if line["type"] == "shuffle")
    edited = [dict(line) for line in lines]
    edited[shuffle_at]["label"] = "other/1"
    twice = [dict(line) for line in lines]
    twice[shuffle_at + 1]["label"] = twice[shuffle_at]["label"]
    bodies = {
        "honest": honest,
        "a label outside the prefix": text(resign(edited, FORGER)),
        "a label used twice": text(resign(twice, FORGER)),
        "the reveal cut off": text(lines[:-1]),
        "a card changed without re-signing": text(
            [
                *lines[:shuffle_at],
                {**lines[shuffle_at], "cards": ["AS"] * lines[shuffle_at]["count"]},
                *lines[shuffle_at + 1 :],
            ]
        ),
    }
    paths = []
    for n, body in enumerate(bodies.values()):
        path = tmp_path / f"session-{n}.jsonl"
        path.write_text(body)
        paths.append(path)
    run = subprocess.run(
        [sys.executable, "-m", "verifier.cli", "--json", *map(str, paths)], capture_output=True, text=True
    )
    cli = [json.loads(line) for line in run.stdout.splitlines()]
    js = page_reports(verify_page, list(bodies.values()))
    for name, mine, theirs in zip(bodies, js, cli):
        assert {k: v for k, v in mine.items() if k != "text"} == {k: v for k, v in theirs.items() if k != "file"}, name
    assert cli[0]["verified"] and [s["order"] for s in js[0]["shuffles"]] == [s["order"] for s in cli[0]["shuffles"]]
    assert [s["label"] for s in js[0]["shuffles"]] == ["round/1", "round/2"]
    # On the page: the derived orders, card by card.
    path = tmp_path / "session.jsonl"
    path.write_text(honest)
    assert verify_page.load(path) == "verified"
    shown = verify_page.page.locator("#shuffles li[data-label='round/2'] > .cards .card").evaluate_all(
        "nodes => nodes.map(n => n.dataset.code)"
    )
    assert shown == cli[0]["shuffles"][1]["order"]


@pytest.mark.parametrize(
    "rules, players", [("crazy-eights-book", 6), ("go-boom", 3)]
)  # two packs and a starter; no starter
def test_the_deals_of_the_other_stops_games(verify_page, tmp_path, rules, players):
    """Every deal (and starter) on the page, as fairdeal-verify derives it, and VERIFIED."""
    [path] = simulate(rules, players, 1, tmp_path, seed=f"web{rules}", bot="random")
    cli = cli_report(path)
    assert cli["verified"]
    opened = verify_page
    assert opened.load(path) == "verified"
    hands = opened.page.locator("section.hand")
    assert hands.count() == len(cli["hands"])
    for n, hand in enumerate(cli["hands"]):
        rows = hands.nth(n).locator("tbody tr")
        for seat, cards in enumerate(hand["deal"]):
            assert rows.nth(seat).locator(".card").evaluate_all("nodes => nodes.map(n => n.dataset.code)") == cards
        if "starter" in hand:
            assert hands.nth(n).locator(".starter .card").get_attribute("data-code") == hand["starter"]


@pytest.mark.parametrize("kind", ["not UTF-8", "a byte order mark", "Latin-1 names"])
def test_files_that_are_not_clean_text_get_fairdeal_verifys_answer(verify_page, tmp_path, kind):
    honest = (Path(__file__).resolve().parents[2] / "spec" / "vectors" / "record-example.jsonl").read_bytes()
    data = {
        "not UTF-8": b"\xff\xfe\x00garbage\n",
        "a byte order mark": b"\xef\xbb\xbf" + honest,
        "Latin-1 names": honest.replace(b'"name":"Ann"', b'"name":"Ann\xe9"'),
    }[kind]
    path = tmp_path / "record.jsonl"
    path.write_bytes(data)
    run = subprocess.run([sys.executable, "-m", "verifier.cli", "--json", str(path)], capture_output=True, text=True)
    if run.returncode == 2:
        expected = run.stderr.strip().split(f"{path}: ", 1)[1]
    else:
        error = json.loads(run.stdout)["error"]
        expected = f"line {error['line']}: {error['reason']}"
    assert verify_page.load(path) == "failed"
    assert verify_page.page.locator("#failure").inner_text() == expected


def test_a_game_from_the_server_shows_its_log_entries_and_the_witnesses_that_cosigned(open_page, new_game, server):
    from fairdeal.cosignature import add_cosignatures
    from fairdeal.cosignature import cosign
    from fairdeal.cosignature import witness_key
    from fairdeal.record import Signer

    from .play import play_by_api

    game = new_game(["Wit", "Bot W"], options={"target": 1})  # a match of one hand
    api(server, "POST", f"/games/{game.id}/start", token=game.created["host_token"])
    play_by_api(server, game)
    log = api(server, "GET", f"/games/{game.id}/log")
    info = api(server, "GET", "/.well-known/fairdeal-log")
    # The test server has no witnesses: two are named, one cosigns, and a line under the second's
    # name is signed by another key (not counted).
    one, two, other = (Signer.from_seed(bytes([n]) * 32) for n in (1, 2, 3))
    keys = [witness_key("w1.example/witness", one.public_hex), witness_key("w2.example/witness", two.public_hex)]
    lines = [
        cosign(log["checkpoint"], "w1.example/witness", one.public_hex, one.sign, 1_700_000_000),
        cosign(log["checkpoint"], "w2.example/witness", other.public_hex, other.sign, 1_700_000_001),
    ]
    opened = open_page("/verify")  # the answers are set before the record is asked for
    page = opened.page
    page.route(
        f"**/games/{game.id}/log",
        lambda route: route.fulfill(json={**log, "checkpoint": add_cosignatures(log["checkpoint"], lines)}),
    )
    page.route("**/.well-known/fairdeal-log", lambda route: route.fulfill(json={**info, "witnesses": keys}))
    page.goto(f"{server}/verify?game={game.id}")
    page.wait_for_selector("body[data-verdict='verified']")
    page.wait_for_selector("#log-panel[data-state='ok']")
    status = page.locator("#log-status").inner_text()
    assert (
        status.startswith(f"Announced in the log {info['origin']}: its start, entry ")
        and "its end (revealed)" in status
    )
    assert page.locator("#log-witnesses").inner_text() == (
        "Cosigned by w1.example/witness (1 of the log's 2 witnesses): each checked that the log only grew."
    )
