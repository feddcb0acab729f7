"""The sequence Stops games in the browser (issue 8): each played to its end at the live table by
mouse or keyboard only, with the bots in the other seats (Michigan's extra hand, kept, exchanged or
auctioned, and its bids, Spin's two-card play, made through the page's controls); the lobby's seat
range for each game; and the verify page, which derives these games' deals and agrees with
fairdeal-verify on honest and tampered records of each."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page

from fairdeal.record import resign
from fairdeal.rules import RULES
from fairdeal.simulate import simulate

from .conftest import PHONE
from .conftest import api
from .play import CORNER
from .play import arrow_to_playable
from .play import create_from_lobby
from .play import seq
from .play import wait_moved
from .play import wait_turn
from .records import FORGER
from .records import page_reports
from .records import text
from .records import with_cli_reports
from .test_table import moves_of

CHOICE = {"keep": ("#keep", "k"), "exchange": ("#exchange", "x"), "auction": ("#auction", "a")}


def stops_move(
    page: Page, *, keyboard: bool = False, choose: str = "keep", bid: int | None = None, then: bool = True
) -> str:
    """One move of this seat, by mouse or by keyboard only: the dealer's say about the extra hand
    (``choose``), a bid of ``bid`` counters (None: pass), a card (with the second card the rules
    allow when ``then``), or a pass (Rolling Stone: picking up the trick)."""
    before = seq(page)
    if page.locator("#keep, #exchange, #auction").count():
        selector, key = CHOICE[choose]
        page.keyboard.press(key) if keyboard else page.click(selector)
        kind = choose
    elif page.locator("#bid").count():
        if bid is None:
            page.keyboard.press("p") if keyboard else page.click("#pass")
            kind = "bid-pass"
        elif keyboard:
            page.keyboard.press("b")
            page.keyboard.type(str(bid))
            page.keyboard.press("Enter")
            kind = "bid"
        else:
            page.fill("#bid-amount", str(bid))
            page.click("#bid")
            kind = "bid"
    elif page.locator(".hand .card.playable").count():
        with_then = then and page.evaluate(
            "() => [...document.querySelectorAll('.hand .card.playable')].some((b) => b.dataset.then === 'yes')"
        )
        if keyboard:
            arrow_to_playable(page)
            if with_then:
                # Walk to a card that can take the second card.
                for _ in range(60):
                    if page.evaluate("() => document.activeElement?.dataset.then === 'yes'"):
                        break
                    page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")  # lift
            page.wait_for_selector(".hand .card.lifted")
            page.keyboard.press("t" if with_then else "Enter")
        else:
            card = page.locator(".hand .card.playable[data-then='yes']" if with_then else ".hand .card.playable").first
            card.click(position=CORNER)
            page.wait_for_selector(".hand .card.lifted")
            page.click("#play-then") if with_then else card.click(position=CORNER)
        kind = "play-then" if with_then else "play"
    else:
        page.keyboard.press("p") if keyboard else page.click("#pass")
        kind = "pass"
    wait_moved(page, before)
    return kind


def play_out(page: Page, limit: int = 600, **how) -> Counter[str]:
    """Every turn of this seat until the game is over; how many moves of each kind."""
    kinds: Counter[str] = Counter()
    for _ in range(limit):
        if not wait_turn(page):
            return kinds
        kinds[stops_move(page, **how)] += 1
    raise AssertionError(f"the game did not end within {limit} moves")


def finished(page: Page, game) -> list[dict]:
    """The end dialog is up, the record is revealed and this seat made its moves itself."""
    page.wait_for_selector("#end:not([hidden])")
    record = game.record()
    assert record[-1]["type"] == "reveal" and any(line["type"] == "hand-end" for line in record)
    mine = moves_of(record, 0)
    assert mine and not any(line.get("auto") for line in mine)
    return record


def test_sequence_by_keyboard(open_page, new_game):
    game = new_game(["Sue", "Bot S1", "Bot S2"], rules="sequence", options={"deals": 1})
    opened = open_page(game.link(0))
    page = opened.page
    page.wait_for_selector("#board:not([hidden])")
    _why_not_as_the_engine_says(page, game)
    # A spectator sees the runs and whose turn it is, and no hand.
    watcher = open_page(f"/table/{game.id}").page
    watcher.wait_for_selector("#board:not([hidden]) #run-now")
    assert watcher.locator("#hand .card").count() == 0
    assert "Sue's turn" in watcher.locator("#status").inner_text()
    _the_run_wants_what_the_view_says(page, game)
    kinds = play_out(page, keyboard=True)
    assert kinds["play"] >= 1
    finished(page, game)
    # The runs stay on the table: every card played is shown, in runs.
    shown = page.locator("#board .run .card").count()
    played = sum(1 for line in game.record() if line["type"] == "move")
    assert shown == played
    opened.shot("sequence-laptop-over")


def test_michigan_by_mouse_the_dealer_takes_the_extra_hand_and_the_others_bid(open_page, new_game):
    game = new_game(["Mia", "Bot M1", "Bot M2"], rules="michigan", options={"deals": 3})
    opened = open_page(game.link(0))
    page = opened.page
    page.wait_for_selector("#layout li")
    assert page.locator("#layout li").count() == 4  # A♥ K♣ Q♦ J♠, each with its counters
    # The table explains its game: the "?" opens How to play in the side panel, Michigan's own words.
    page.click("#open-help")
    page.wait_for_selector("#panel-help:not([hidden]) .help-text")
    assert page.locator("#tab-help").get_attribute("aria-selected") == "true"
    assert "Play a pay card and you take every counter on it." in page.locator("#panel-help").inner_text()
    assert page.locator("#panel-help .help-title").inner_text() == "How to play Michigan"
    page.click("#tab-scores")
    _why_not_as_the_engine_says(page, game)
    kinds = Counter()
    for _ in range(600):
        if not wait_turn(page):
            break
        if page.locator("#exchange").count() and not kinds["exchange"]:
            opened.shot("michigan-laptop-the-dealer-decides")
        if page.locator("#bid").count() and not kinds["bid"]:
            assert page.locator("#bid-amount").get_attribute("max") == "10"
            opened.shot("michigan-laptop-bidding")
        kinds[stops_move(page, choose="exchange", bid=2)] += 1
    mine = moves_of(finished(page, game), 0)
    assert kinds["exchange"] >= 1 and kinds["bid"] >= 1 and kinds["play"] >= 1
    assert {"move": "exchange"} in [{"move": m["move"]} for m in mine]
    assert any(m["move"] == "bid" and m["amount"] == 2 for m in mine)
    assert page.locator("#scores").inner_text().count("Counters") >= 1


def _why_not_as_the_engine_says(page: Page, game) -> None:
    """Each card of the hand that cannot be played says why, in the engine's words (the seat's view)."""
    wait_turn(page)
    view = api(game.server, "GET", f"/games/{game.id}/seats/0/view", token=game.token(0))
    assert view["seq"] == int(seq(page))
    for note in view["cards"]:
        card = page.locator(f".hand .card[data-code='{note['card']}']")
        if note["playable"]:
            assert "playable" in card.get_attribute("class").split()
        else:
            described = card.get_attribute("aria-describedby")
            assert page.locator(f"#{described}").inner_text() == note["why_not"]


def _display(code: str) -> str:
    return ("10" if code[0] == "T" else code[0]) + "♣♦♥♠"["CDHS".index(code[1])]


def _the_run_wants_what_the_view_says(page: Page, game) -> None:
    """Played a few cards in: the run on the table shows the next cards the seat's view gives (the page works out none)."""
    for _ in range(40):
        wait_turn(page)
        view = api(game.server, "GET", f"/games/{game.id}/seats/0/view", token=game.token(0))
        if view["table"]["current"] and int(seq(page)) == view["seq"]:
            break
        stops_move(page)
    else:
        raise AssertionError("no run went on at this seat's turn")
    assert view["table"]["next"]
    assert page.locator("#run-now .card.next").inner_text() == "/".join(map(_display, view["table"]["next"]))
    assert (
        page.locator("#run-now")
        .get_attribute("aria-label")
        .endswith(f"next {' or '.join(map(_display, view['table']['next']))}")
    )


def test_double_stops_by_keyboard_the_dealer_auctions_and_bids_are_typed(open_page, new_game):
    game = new_game(["Dot", "Bot D1", "Bot D2"], rules="double-stops", options={"deals": 3})
    opened = open_page(game.link(0))
    page = opened.page
    page.wait_for_selector("#layout li")
    assert page.locator("#layout li.pair").count() == 2  # 10♥ and 9♥ pay only together
    kinds = play_out(page, keyboard=True, choose="auction", bid=3)
    mine = moves_of(finished(page, game), 0)
    assert kinds["auction"] >= 1 and kinds["bid"] >= 1
    assert any(m["move"] == "auction" for m in mine) and any(m["move"] == "bid" and m["amount"] == 3 for m in mine)


def test_spin_by_mouse_the_ace_of_diamonds_goes_down_with_a_play(open_page, new_game):
    game = new_game(["Sid", "Bot P1", "Bot P2"], rules="spin", options={"deals": 3})
    opened = open_page(game.link(0))
    page = opened.page
    kinds = Counter()
    for _ in range(600):
        if not wait_turn(page):
            break
        if page.locator(".hand .card[data-then='yes']").count() and not kinds["play-then"]:
            card = page.locator(".hand .card[data-then='yes']").first
            card.click(position=CORNER)
            assert '("Spin")' in page.locator("#play-then").inner_text()
            opened.shot("spin-laptop-spin-offered")
            page.click("#lower")
        kinds[stops_move(page, choose="keep", bid=None)] += 1
    mine = moves_of(finished(page, game), 0)
    assert kinds["play-then"] >= 1 and kinds["keep"] >= 1, kinds
    spins = [m for m in mine if m.get("then")]
    assert spins and all(m["then"] == "AD" for m in spins)


def test_commit_by_mouse(open_page, new_game):
    game = new_game(["Cam", "Bot C1", "Bot C2", "Bot C3"], rules="commit", options={"deals": 2})
    opened = open_page(game.link(0))
    page = opened.page
    page.wait_for_selector("#dead")
    assert "Stops" in page.locator("#dead").inner_text()  # the cards dealt out of play, face down
    kinds = play_out(page)
    record = finished(page, game)
    assert kinds["play"] >= 1
    # The seeds are fixed: in this game Cam holds the 9♦ and puts it down with a play of his, by the page's button.
    assert kinds["play-then"] >= 1
    assert [m for m in moves_of(record, 0) if m.get("then")] and all(
        m["then"] == "9D" for m in moves_of(record, 0) if m.get("then")
    )


def test_snip_snap_snorem_by_mouse(open_page, new_game):
    game = new_game(["Sam", "Bot N1", "Bot N2", "Bot N3"], rules="snip-snap-snorem", options={"deals": 1})
    opened = open_page(game.link(0))
    page = opened.page
    page.wait_for_selector("#group")
    kinds = play_out(page)
    record = finished(page, game)
    assert kinds["play"] >= 1 and kinds["pass"] >= 1  # a pass when the seat holds none of the rank
    assert any(line["type"] == "chips" and line["reason"] == "pass" and line["from"] == 0 for line in record)


def test_earl_of_coventry_by_keyboard(open_page, new_game):
    game = new_game(["Eve", "Bot E1", "Bot E2"], rules="earl-of-coventry", options={"deals": 1})
    opened = open_page(game.link(0))
    page = opened.page
    calls = set()
    for _ in range(300):
        if not wait_turn(page):
            break
        calls |= set(page.locator("#group .call").all_inner_texts())
        stops_move(page, keyboard=True)
    finished(page, game)
    assert any(call.startswith("There's") for call in calls)


def test_jig_by_mouse(open_page, new_game):
    game = new_game(["Jo", "Bot J1", "Bot J2", "Bot J3"], rules="jig", options={"deals": 1})
    opened = open_page(game.link(0))
    page = opened.page
    page.wait_for_selector("#group")
    kinds = play_out(page)
    finished(page, game)
    assert kinds["play"] >= 1


def test_rolling_stone_by_keyboard(open_page, new_game):
    game = new_game(["Ros", "Bot R1", "Bot R2", "Bot R3"], rules="rolling-stone", options={"deals": 1})
    opened = open_page(game.link(0))
    page = opened.page
    page.wait_for_selector("#trick")
    _why_not_as_the_engine_says(page, game)
    kinds = Counter()
    for _ in range(400):
        if not wait_turn(page):
            break
        if page.locator("#pass").count():
            assert page.locator("#pass").inner_text().startswith("Pick up the trick")
            opened.shot("rolling-stone-laptop-pick-up")
        kinds[stops_move(page, keyboard=True)] += 1
    record = finished(page, game)
    assert kinds["play"] >= 1
    if kinds["pass"]:
        assert any(line["type"] == "pick-up" and line["seat"] == 0 for line in record)


# -- the lobby ------------------------------------------------------------------------------


def test_the_lobby_offers_each_game_with_its_own_seat_range(open_page):
    page = open_page("/").page
    page.wait_for_selector("#seat-list li:nth-child(4)")
    add = page.locator("#add-seat")

    def choose(rules: str) -> tuple[int, str]:
        page.select_option("#rules", rules)
        while not add.is_disabled():
            add.click()
        return page.locator(".seat-row").count(), page.locator("#seat-range").inner_text()

    assert choose("eights") == (8, "2 to 8 players")
    assert choose("go-boom") == (7, "2 to 7 players")  # one seat too many goes
    assert choose("sequence") == (10, "2 to 10 players")
    assert choose("rolling-stone") == (6, "4 to 6 players")
    assert choose("crazy-eights") == (6, "2 to 6 players")
    for rules in ("michigan", "double-stops", "spin", "commit", "snip-snap-snorem", "earl-of-coventry", "jig"):
        assert page.locator(f"#rules option[value='{rules}']").count() == 1
    # How to play the chosen game, beside the picker: Michigan explains its extra hand and pay cards.
    page.select_option("#rules", "michigan")
    page.click("#show-help")
    page.wait_for_selector("#help-dialog[open] #help-body .help-text")
    assert page.locator("#help-dialog-title").inner_text() == "How to play Michigan"
    assert "Play a pay card and you take every counter on it." in page.locator("#help-body").inner_text()
    assert page.locator("#help-body strong").first.inner_text() == "Goal."  # **bold** drawn as <strong>, not as stars
    page.click("#close-help")
    assert not page.locator("#help-dialog").is_visible()
    # Commit needs four: removing stops there.
    page.select_option("#rules", "commit")
    while page.locator(".seat-row .remove:not([disabled])").count():
        page.locator(".seat-row .remove:not([disabled])").first.click()
    assert page.locator(".seat-row").count() == 4
    # Three people and a bot: the recent tables keep every person's link, not only the host's.
    for row in (0, 1, 2):
        page.locator(".seat-row").nth(row).locator(".kind label", has_text="Person").click()
    page.click("#create-button")
    page.wait_for_selector("#links:not([hidden])")
    links = page.eval_on_selector_all("#link-list input.link-url", "xs => xs.map((x) => x.value)")
    assert len(links) == 3 and "&host=" in links[0] and all("&host=" not in url for url in links[1:])
    kept = page.locator("#recent-list li.recent-table").first
    assert kept.get_attribute("data-game") == links[0].split("/table/")[1].split("#")[0]
    assert kept.locator(".seat-link").evaluate_all("xs => xs.map((x) => x.dataset.url)") == links
    assert (
        kept.locator(".seat-link button.copy").count() == 3 and kept.locator(".seat-link button.qr-toggle").count() == 3
    )
    # A QR on demand: it encodes exactly that seat's link, drawn by the library as an SVG.
    kept.locator(".seat-link").nth(2).locator("button.qr-toggle").click()
    qr = kept.locator(".seat-link").nth(2).locator("svg.qr")
    qr.wait_for()
    assert qr.get_attribute("data-encoded") == links[2]
    assert len(qr.locator("path").get_attribute("d")) > 1000
    # Reopened, the lobby still lists them: they were kept in this browser, not only shown once.
    page.reload()
    page.wait_for_selector("#recent-list li.recent-table .seat-link")
    assert (
        page.locator("#recent-list li.recent-table")
        .first.locator(".seat-link")
        .evaluate_all("xs => xs.map((x) => x.dataset.url)")
        == links
    )


def test_the_lobby_lists_every_game_of_the_catalogue_with_its_options(open_page, server):
    """The lobby's games, seats and options are the catalogue's (GET /rules), as the rules declare them."""
    served = api(server, "GET", "/rules")
    page = open_page("/").page
    page.wait_for_selector("#seat-list li:nth-child(4)")
    listed = page.eval_on_selector_all("#rules option", "os => os.map((o) => [o.parentElement.label, o.value])")
    assert listed == [[g["family"], g["name"]] for g in served["games"]] and len(listed) == len(RULES)
    assert page.locator("#rules").input_value() == served["default"]
    for game in served["games"]:
        page.select_option("#rules", game["name"])
        assert page.locator("#seat-range").inner_text() == f"{game['seats']['min']} to {game['seats']['max']} players"
        assert page.locator("#rules-summary").inner_text() == game["summary"]
        assert page.locator("#option-list [data-option]").count() == len(game["options"])
        for option in game["options"]:
            box = page.locator(f"#option-{option['name']}")
            if "choices" in option:
                assert box.evaluate("(s) => [...s.options].map((o) => o.value)") == list(option["choices"])
            else:
                assert (box.get_attribute("min"), box.get_attribute("max")) == (str(option["min"]), str(option["max"]))
            assert box.input_value() == str(option["default"])
    # What the lobby's inputs say is what the table is dealt with; the table's title is the catalogue's.
    page.select_option("#rules", "fan-tan")
    page.click("#show-help")
    page.wait_for_selector("#help-dialog[open] #help-body .help-text")
    assert "A seven starts its suit's row" in page.locator("#help-body").inner_text()
    page.keyboard.press("Escape")  # a dialog closes with Escape too
    assert not page.locator("#help-dialog").is_visible()
    page.fill("#option-stack", "20")
    page.fill("#option-deals", "2")
    page.select_option("#bot-seconds", "2")
    page.select_option("#next-hand-seconds", "60")
    state = api(server, "GET", f"/games/{create_from_lobby(page)}")
    assert state["rules"] == "fan-tan" and (state["options"]["stack"], state["options"]["deals"]) == (20, 2)
    assert (state["bot_seconds"], state["next_hand_seconds"]) == (2, 60)  # the table's pace, as chosen
    page.click("#link-list a.button")
    page.wait_for_selector("body[data-phase='playing']")
    assert page.locator("#game-title").inner_text().startswith("Fan Tan")
    # The table's "?" opens the same words, in its side panel.
    page.click("#open-help")
    page.wait_for_selector("#panel-help:not([hidden]) .help-text")
    assert "A seven starts its suit's row" in page.locator("#panel-help").inner_text()
    assert page.locator("#open-help").get_attribute("aria-label") == "How to play"


# -- the verify page ----------------------------------------------------------------------------

STOPS_GAMES = [
    ("sequence", 3, "random"),
    ("michigan", 5, "mixed"),
    ("double-stops", 3, "mixed"),
    ("spin", 4, "mixed"),
    ("commit", 7, "random"),
    ("snip-snap-snorem", 4, "random"),
    ("earl-of-coventry", 3, "random"),
    ("jig", 5, "random"),
    ("rolling-stone", 6, "random"),
]


def _stops_tamperings(lines: list[dict]) -> Iterator[tuple[str, str]]:
    """Faults in signatures, seeds and the deals (the all-games harness in records.py changes moves,
    chips, counters, scores and standings too)."""
    yield "honest", text(lines)
    hand_end = next(i for i, line in enumerate(lines) if line["type"] == "hand-end")
    start = next(i for i, line in enumerate(lines) if line["type"] == "start")
    deal = next(i for i, line in enumerate(lines) if line["type"] == "deal")
    draw = next(i for i, line in enumerate(lines) if line["type"] == "draw-for-deal")
    seats = len(lines[0]["seats"])

    def edit(index: int, **changes: object) -> list[dict]:
        out = [dict(line) for line in lines]
        out[index].update(changes)
        return out

    sig = lines[hand_end]["sig"]
    yield "a bad signature", text(edit(hand_end, sig=("0" if sig[0] != "0" else "1") + sig[1:]))
    seeds = list(lines[start]["client_seeds"])
    seeds[0] += "x"
    yield "a client seed swapped", text(resign(edit(start, client_seeds=seeds), FORGER))
    yield "another dealer", text(resign(edit(deal, dealer=(lines[deal]["dealer"] + 1) % seats), FORGER))
    cards = list(lines[draw]["cards"])
    cards[0] = "2C" if cards[0] != "2C" else "3C"
    yield "another draw for the deal", text(resign(edit(draw, cards=cards), FORGER))
    yield "a different server seed", text(resign(edit(len(lines) - 1, server_seed="ab" * 32), FORGER))
    yield "the reveal cut off", text(lines[:-1])


@pytest.fixture(scope="module")
def stops_cases(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    """A simulated record of each game (two deals) and its tampered copies, with fairdeal-verify's reports."""
    out = tmp_path_factory.mktemp("stops-verify")
    named: list[tuple[str, str]] = []
    for rules, players, bot in STOPS_GAMES:
        [path] = simulate(rules, players, 1, out / "sims", seed=f"web-{rules}", bot=bot, options={"deals": 2})
        lines = [json.loads(raw) for raw in path.read_text().splitlines()]
        named += [(f"{rules}: {name}", body) for name, body in _stops_tamperings(lines)]
    return with_cli_reports(named, out)


def test_the_verify_page_agrees_with_fairdeal_verify_on_the_stops_games(stops_cases, verify_page):
    reports = page_reports(verify_page, [c["text"] for c in stops_cases])
    honest = 0
    for case, js in zip(stops_cases, reports):
        cli, name = case["cli"], case["name"]
        # fairdeal-verify --json's whole object: verdict, line and reason, deals, scores, standings.
        assert {k: v for k, v in js.items() if k != "text"} == {k: v for k, v in cli.items() if k != "file"}, name
        if name.endswith("honest"):
            honest += 1
            assert cli["verified"] and len(cli["hands"]) == 2, name
        else:
            assert not cli["verified"], name
    assert honest == len(STOPS_GAMES)
    # The deals that are not one hand a seat: Michigan's extra hand, Commit's stops.
    by_rules = {c["name"].split(": ")[0]: c["cli"] for c in stops_cases if c["name"].endswith("honest")}
    assert by_rules["michigan"]["hands"][0]["extra"] and by_rules["commit"]["hands"][0]["stops"]
    taken = [
        h["exchange"] for r in ("michigan", "double-stops", "spin") for h in by_rules[r]["hands"] if "exchange" in h
    ]
    assert any(t["price"] for t in taken) and any(
        not t["price"] for t in taken
    )  # bought at auction, and taken by the dealer


@pytest.mark.parametrize("rules", ["michigan", "commit", "rolling-stone", "snip-snap-snorem"])
def test_the_verify_page_shows_the_deals_of_the_stops_games(verify_page, stops_cases, rules):
    case = next(c for c in stops_cases if c["name"] == f"{rules}: honest")
    cli = case["cli"]
    opened = verify_page
    page = opened.page
    assert opened.load(case["path"]) == "verified"
    hands = page.locator("section.hand")
    assert hands.count() == len(cli["hands"])
    codes = "nodes => nodes.map(n => n.dataset.code)"
    for n, hand in enumerate(cli["hands"]):
        section = hands.nth(n)
        rows = section.locator("tbody tr:not(.aside)")
        for seat, cards in enumerate(hand["deal"]):
            assert rows.nth(seat).locator(".card").evaluate_all(codes) == cards
        if "extra" in hand:
            assert section.locator("tr[data-aside='extra'] .card").evaluate_all(codes) == hand["extra"]
            assert "Counters left on the layout" in section.locator(".layout-line").inner_text()
        if "stops" in hand:
            assert section.locator("tr[data-aside='stops'] .card").evaluate_all(codes) == hand["stops"]
            assert "8♦ is taken out" in section.locator(".pack-note").inner_text()
    header = hands.first.locator("thead").inner_text()
    expected = {"michigan": "Counters", "commit": "Counters", "rolling-stone": "Won", "snip-snap-snorem": "Chips"}[
        rules
    ]
    assert expected in header and "points" not in header.lower()
    if rules == "rolling-stone":
        assert "cut down to the aces to the 3s (48 cards" in hands.first.locator(".pack-note").inner_text()
    opened.shot(f"verify-{rules}", full_page=True)


def test_michigan_on_a_phone(open_page, new_game):
    game = new_game(["Pip", "Bot 1", "Bot 2", "Bot 3", "Bot 4"], rules="michigan", options={"deals": 1})
    opened = open_page(game.link(0), viewport=PHONE)
    page = opened.page
    page.wait_for_selector("#layout li")
    for _ in range(3):
        assert wait_turn(page)
        stops_move(page, choose="auction", bid=1)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    # The felt holds the layout and the run; nothing of it lies under the status line.
    status = page.locator("#status").bounding_box()
    board = page.locator("#board").bounding_box()
    assert board["y"] + board["height"] <= status["y"] + 1
    opened.shot("michigan-phone")
    play_out(page, choose="auction", bid=1)
    finished(page, game)
