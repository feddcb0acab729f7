"""The sequence Stops games at the live table (issue 8): each played to its end in a real browser by
mouse or keyboard only, with the bots in the other seats; Michigan's extra hand (keep, exchange,
auction) and its bids, Spin's two-card play and Commit's 9♦ made through the page's controls."""

from __future__ import annotations

from collections import Counter

from playwright.sync_api import Page

from .play import CORNER, focus_hand, seq, wait_moved, wait_turn
from .test_table import moves_of

CHOICE = {"keep": ("#keep-hand", "k"), "exchange": ("#exchange", "x"), "auction": ("#auction", "a")}


def _arrow_to_playable(page: Page) -> None:
    focus_hand(page)
    page.keyboard.press("Home")
    for _ in range(60):
        if page.evaluate("() => document.activeElement?.classList.contains('playable')"):
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError("the arrows found no playable card")


def stops_move(page: Page, *, keyboard: bool = False, choose: str = "keep", bid: int | None = None, then: bool = True) -> str:
    """One move of this seat, by mouse or by keyboard only: the dealer's say about the extra hand
    (``choose``), a bid of ``bid`` counters (None: pass), a card (with the second card the rules
    allow when ``then``), or a pass (Rolling Stone: picking up the trick)."""
    before = seq(page)
    if page.locator("#keep-hand, #exchange, #auction").count():
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
            _arrow_to_playable(page)
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
            assert "(\"Spin\")" in page.locator("#play-then").inner_text()
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
    nines = [m for m in moves_of(record, 0) if m.get("then") == "9D" or m.get("card") == "9D"]
    if kinds["play-then"]:
        assert nines


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
