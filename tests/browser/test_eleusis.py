"""Eleusis at the browser table, against the real server and Chromium: a person plays a whole game
against three bots by the page only (single cards, strings chosen in order, no play, the
Forecaster's offer and calls), on a laptop, then on a phone upright and on its side; a person deals
and writes the secret rule at the table (a bad rule first: the refusal shows its column); the rule
is in no other seat's view nor the public one until the round ends, and then it is shown with its
commitment checked; the lobby opens an Eleusis table from the catalogue's options. Both games'
records verify by fairdeal-verify and on the verify page, and each with one call flipped (re-signed)
is refused by both at that line."""

from __future__ import annotations

import json
from collections import Counter

from playwright.sync_api import Page

from fairdeal import client_commitment
from fairdeal import verify
from fairdeal.fairness import rule_commitment
from fairdeal.record import canonical
from fairdeal.record import parse_record
from fairdeal.record import resign

from .conftest import LAPTOP
from .conftest import PHONE
from .conftest import api
from .play import CORNER
from .play import MY_TURN
from .play import create_from_lobby
from .play import play_by_api
from .play import seq
from .play import wait_moved
from .play import wait_turn
from .records import FORGER
from .records import cli_report
from .test_table import moves_of
from .test_table import summary_shown

PHONE_ON_ITS_SIDE = {"width": 740, "height": 375}


def public(server: str, game_id: str) -> dict:
    return api(server, "GET", f"/games/{game_id}")


def seat_view(server: str, game, seat: int) -> dict:
    return api(server, "GET", f"/games/{game.id}/seats/{seat}/view", token=game.token(seat))


def verified(server: str, game_id: str, verify_page, tmp_path) -> None:
    """The game's record verifies by fairdeal-verify (the CLI) and on the verify page; the same
    record with one call flipped and re-signed is refused by both, at that line, for one reason."""
    text = api(server, "GET", f"/games/{game_id}/record")
    report = verify(text)
    assert report.verified, report.verdict
    honest = tmp_path / f"{game_id}.jsonl"
    honest.write_text(text)
    assert cli_report(honest)["verified"]
    assert verify_page.load(honest) == "verified"
    lines = parse_record(text)
    # The page shows every round's revealed rule, checked against its commitment in the browser.
    rules = [line["rule"] for line in lines if line["type"] == "rule-reveal"]
    shown = verify_page.page.locator("body").inner_text()
    assert rules and all(rule in shown for rule in rules)
    verify_page.page.wait_for_function(
        "[...document.querySelectorAll('.rule-check')].every((n) => n.dataset.state !== 'checking')"
    )
    states = verify_page.page.locator(".eleusis-round .rule-check").evaluate_all(
        "nodes => nodes.map((n) => n.dataset.state)"
    )
    assert states == ["checks"] * len(rules)
    calls = [i for i, line in enumerate(lines) if line["type"] == "judgement"]
    index = calls[len(calls) // 2]
    lines[index]["right"] = not lines[index]["right"]
    forged = tmp_path / f"{game_id}-flipped.jsonl"
    forged.write_text("".join(canonical(line).decode() + "\n" for line in resign(lines, FORGER)))
    cli = cli_report(forged)
    assert not cli["verified"] and cli["error"]["line"] == index + 1, cli["error"]
    assert verify_page.load(forged) == "failed"
    assert verify_page.page.locator("#failure").inner_text() == f"line {index + 1}: {cli['error']['reason']}"


# -- playing by the page ----------------------------------------------------------------------


def eleusis_move(page: Page, n: int, offers: Counter, strings: list[list[str]]) -> str:
    """One move of this seat, made with the page's controls as a person would: the Forecaster's
    offer (taken the second time it comes, else "Go on"), a call (right, by button or R; a no play
    called wrong names a card of the shown hand, then W), or a play: a string of two or three
    tapped in order (one taken out and put back) or chosen with Space, no play (a button or N), or
    one card (tap and Play, or the keyboard's Enter twice). ``strings`` gets each string chosen."""
    before = seq(page)
    if page.locator("#forecast").count():
        offers["offer"] += 1
        kind = "forecast" if offers["offer"] == 2 else "go-on"
        page.click(f"#{kind}")
    elif page.locator("#call-right").count():
        offers["call"] += 1
        shown = page.locator("#awaiting button.card.shown")
        if shown.count() and n % 2:
            shown.first.click()
            page.wait_for_selector("#call-wrong:not([disabled])")
            assert page.locator("#call-wrong").inner_text().startswith("Wrong: it could take")
            page.keyboard.press("w")
            kind = "call-wrong-named"
        elif n % 2:
            page.keyboard.press("r")
            kind = "call-right"
        else:
            page.click("#call-right")
            kind = "call-right"
    else:
        cards = page.locator("#hand button.card")
        if n % 7 == 3:
            page.keyboard.press("n") if n % 2 else page.click("#no-play")
            kind = "no-play"
        elif n % 4 == 1 and cards.count() >= 3:
            # Two cards, or three (tapped last first, the first taken out and put back: its place is then 3).
            picks = [1, 0] if n % 8 == 1 else [2, 0, 1, 0, 0]
            for i in picks:
                cards.nth(i).click(position=CORNER)
            order = ["2", "1"] if n % 8 == 1 else ["3", "2", "1"]
            # The chosen cards wear their place in the string, and the button says what goes.
            assert [cards.nth(i).get_attribute("data-order") for i in range(len(order))] == order
            assert page.locator("#play").inner_text().startswith("Play the string")
            strings.append(
                [cards.nth(i).get_attribute("data-code") for i in sorted(range(len(order)), key=lambda i: order[i])]
            )
            page.click("#play")
            kind = f"string-{len(order)}"
        elif n % 6 == 5 and cards.count() >= 2:
            # By keyboard: Space chooses the focused card, the arrow moves on, Space, Enter plays the string.
            cards.first.focus()
            page.keyboard.press(" ")
            page.keyboard.press("ArrowRight")
            page.keyboard.press(" ")
            page.wait_for_selector("#hand button.card[data-order='2']")
            strings.append([cards.nth(i).get_attribute("data-code") for i in (0, 1)])
            page.keyboard.press("Enter")
            kind = "string-keys"
        elif n % 2:
            cards.first.focus()
            page.keyboard.press("Enter")  # chooses it
            page.wait_for_selector("#hand button.card[data-order='1']")
            page.keyboard.press("Enter")  # plays it
            kind = "play-key"
        else:
            cards.first.click(position=CORNER)
            page.click("#play")
            kind = "play"
    wait_moved(page, before)
    return kind


def layout_as_shown(page: Page) -> dict:
    """What the page draws of the layout: the mainline's cards, each sideline's entries, the marker."""
    return page.evaluate(
        """() => ({
          mainline: [...document.querySelectorAll('#mainline > .column > .card')].map((c) => c.dataset.code),
          sidelines: [...document.querySelectorAll('#mainline > .column')].map((col) =>
            [...col.querySelectorAll('.sideline > .entry')].map((e) => [...e.querySelectorAll('.card')].map((c) => c.dataset.code))),
          marker: [...document.querySelectorAll('#mainline > .column')].findIndex((col) => col.querySelector('.marker')),
          stock: document.querySelector('#stock-count').getAttribute('aria-label'),
        })"""
    )


def check_the_layout(page: Page, state: dict) -> None:
    t = state["table"]
    shown = layout_as_shown(page)
    assert shown["mainline"] == t["mainline"]
    assert shown["sidelines"] == t["sidelines"]
    assert shown["marker"] == (-1 if t["marker"] is None else t["marker"])
    assert f"Stock: {t['stock_size']} card" in shown["stock"]


def fits_the_screen(page: Page) -> None:
    """Nothing spills sideways, and a mainline longer than a row wraps into rows."""
    assert page.evaluate("() => document.scrollingElement.scrollWidth <= innerWidth + 1")
    rows = page.evaluate(
        "() => new Set([...document.querySelectorAll('#mainline > .column')].map((c) => c.offsetTop)).size"
    )
    columns = page.locator("#mainline > .column").count()
    width = page.evaluate("() => document.querySelector('#mainline').clientWidth")
    column = page.evaluate("() => document.querySelector('#mainline > .column').offsetWidth")
    if columns * column > width:
        assert rows > 1
    # Every mainline card is inside the table's width (the layout scrolls up and down, not sideways).
    assert page.evaluate(
        "() => [...document.querySelectorAll('#mainline > .column')].every((c) => c.getBoundingClientRect().right <= innerWidth + 1)"
    )


def test_a_whole_game_against_three_bots_by_the_page_then_the_record_verifies(
    open_page, new_game, server, verify_page, tmp_path
):
    game = new_game(["Ria", "Bot R1", "Bot R2", "Bot R3"], rules="eleusis", options={"dealer": 0, "rounds": 4})
    opened = open_page(game.link(0))
    page = opened.page
    page.wait_for_selector(f"{MY_TURN} #mainline")
    # The server deals every round: the draw for the deal only says who plays first.
    said = page.locator("#log").inner_text()
    assert "The server deals every round; " in said and "deals first" not in said
    # No card is greyed out in a play turn: any card may be tried.
    assert page.locator("#hand button.card.dim").count() == 0
    assert page.locator("#hand button.card.playable").count() == 14
    assert (
        "Enter plays the chosen" in page.locator("#keys").inner_text()
        and "N no play" in page.locator("#keys").inner_text()
    )
    # The server deals: no seat wears the dealer's chip, and nobody's view holds the rule.
    assert page.locator(".dealer-chip").count() == 0
    kinds: Counter[str] = Counter()
    offers: Counter[str] = Counter()
    strings: list[list[str]] = []  # each string as the page chose it, in the order of the taps
    seen: dict[int, list[str]] = {}  # each round: what the public state and the seat's view said while it ran
    shots = {"phone": False}
    for n in range(600):
        if not wait_turn(page):
            break
        state = public(server, game.id)
        if n % 5 == 0:
            mine = seat_view(server, game, 0)
            seen.setdefault(state["hand_no"], []).append(
                (json.dumps(state), json.dumps(mine), page.evaluate("document.body.textContent"))
            )
            check_the_layout(page, state)
        if not shots["phone"] and len(state["table"]["mainline"]) >= 12 and any(state["table"]["sidelines"]):
            shots["phone"] = True
            opened.shot("eleusis-laptop")
            page.set_viewport_size(PHONE)
            fits_the_screen(page)
            opened.shot("eleusis-phone")
            page.set_viewport_size(PHONE_ON_ITS_SIDE)
            fits_the_screen(page)
            assert page.locator("#play, #forecast, #call-right").first.is_visible()
            opened.shot("eleusis-phone-on-its-side")
            page.set_viewport_size(LAPTOP)
        kinds[eleusis_move(page, n, offers, strings)] += 1
        if offers["offer"] == 2 and not kinds["marker-seen"] and page.locator("#marker").count():
            kinds["marker-seen"] += 1  # the Forecaster's chip lies on a mainline card
    else:
        raise AssertionError("the game did not end within 600 moves")
    page.wait_for_selector("#end:not([hidden]) #standings")
    assert page.locator("#standings tbody tr").count() == 4
    assert shots["phone"]
    assert (
        kinds["play"] + kinds["play-key"] >= 2
        and kinds["string-2"] >= 1
        and kinds["string-3"] >= 1
        and kinds["string-keys"] >= 1
        and kinds["no-play"] >= 1
        and kinds["go-on"] >= 1
    )
    record = game.record()
    mine = moves_of(record, 0)
    assert not any(line.get("auto") for line in mine)  # every move was the page's
    made = Counter(line["move"] for line in mine)
    assert [line["cards"] for line in mine if line["move"] == "string"] == strings  # in the order tapped
    assert {len(cards) for cards in strings} == {2, 3}
    assert made["string"] >= 2 and made["no-play"] >= 1 and made["pass"] >= 1 and made["forecast"] == 1
    assert made["call"] == kinds["call-right"] + kinds["call-wrong-named"] and kinds["call-wrong-named"] == 1
    named = next(line for line in mine if line["move"] == "call" and line.get("card"))
    assert named["call"] == "wrong"  # the Forecaster named a card the no play could have taken
    # Each round's rule was revealed at its end, and was in nothing this seat or a spectator saw before.
    reveals = {line["hand"]: line["rule"] for line in record if line["type"] == "rule-reveal"}
    assert sorted(reveals) == [1, 2, 3, 4]
    for hand, snapshots in seen.items():
        # The page shows the rules of the rounds before: a rule drawn again may be there already.
        again = reveals[hand] in [reveals[h] for h in range(1, hand)]
        for public_state, own_view, text in snapshots:
            assert reveals[hand] not in public_state and reveals[hand] not in own_view, (
                f"round {hand}'s rule showed before its end"
            )
            assert again or reveals[hand] not in text, f"the page showed round {hand}'s rule before its end"
    # After the game: the last round's rule, with its commitment checked by the page, and every rule under the scores.
    page.click("#end-close")
    assert page.locator("#revealed-rule").inner_text() == reveals[4]
    page.wait_for_selector("#rule-check[data-state='checks']")
    assert page.locator("#rules-revealed li").count() == 4
    page.wait_for_function(
        "() => [...document.querySelectorAll('#rules-revealed .rule-check')].every((n) => n.dataset.state === 'checks')"
    )
    opened.shot("eleusis-laptop-over")
    verified(server, game.id, verify_page, tmp_path)


def test_a_person_deals_and_writes_the_rule_which_no_other_seat_sees(
    open_page, new_game, server, verify_page, tmp_path
):
    # Dee deals the first round: the draw for the deal (the first king) falls on seat 0 with these
    # seats and seeds (the server's from the seats, Dee's from the page's seeded random, Ned's below).
    game = new_game(
        ["Dee", "Ned", "Bot D2", "Bot D3"],
        bots=[False, False, True, True],
        rules="eleusis",
        options={"dealer": 1, "rounds": 1},
    )
    ned = "ned's seed"
    api(server, "POST", f"/games/{game.id}/seats/1/commit", {"commitment": client_commitment(ned)}, token=game.token(1))
    # The bad rule's refusal is a 422, which the browser logs: the only error this page may show.
    opened = open_page(game.link(0), seed=1, expect_errors=True)
    page = opened.page
    page.wait_for_selector("#seeding-body li:first-child .state:text-matches('committed|revealed')")
    api(server, "POST", f"/games/{game.id}/seats/1/reveal", {"seed": ned}, token=game.token(1))
    page.wait_for_selector("body[data-phase='playing']")
    draw = next(line for line in game.record() if line["type"] == "draw-for-deal")
    assert draw["dealer"] == 0, "the draw no longer makes Dee the first dealer: pick another page seed"

    page.wait_for_selector("#rule-entry #rule-text")
    assert page.locator("#rule-syntax").inner_text().startswith("A rule is true or false")
    assert page.locator("#rule-examples li").count() == 4 and page.locator("#rule-library li").count() == 24
    assert page.locator("#rule-suggested").count() == 1
    opened.shot("eleusis-dealer-rule-box")
    # A rule the game cannot read: the server's reason, with the column, under the box.
    page.fill("#rule-text", "card.rank >")
    page.keyboard.press("Enter")
    page.wait_for_selector("#rule-error:not([hidden])")
    assert "at column 12" in page.locator("#rule-error-text").inner_text()
    assert page.locator("#rule-caret").inner_text().splitlines()[1].index("^") == 11
    assert page.evaluate("() => document.activeElement.id") == "rule-text"
    opened.shot("eleusis-dealer-rule-refused")
    # An example put in the box and the suggested rule both fill it; then a rule of one's own, committed.
    page.click("#rule-examples .rule-pick >> nth=3")
    assert page.locator("#rule-text").input_value() == "abs(card.rank - last.rank) = 1"
    page.wait_for_selector("#rule-error", state="hidden")
    page.click("#rule-suggested")
    assert page.locator("#rule-text").input_value()
    page.fill("#rule-text", "card.colour!=last.colour")
    before = seq(page)
    page.click("#rule-commit")
    wait_moved(page, before)
    page.wait_for_selector("#my-rule")
    canonical = page.locator("#my-rule code").inner_text()
    assert canonical == "card.colour != last.colour"
    assert page.locator("#rule-entry").count() == 0

    # The round runs (Ned's turn holds it): the rule is in no other seat's view nor the public one.
    for _ in range(400):
        state = public(server, game.id)
        if state["status"] != "playing":
            break
        others = [state, seat_view(server, game, 1)]
        assert all(canonical not in json.dumps(view) and view["table"]["rule"] is None for view in others)
        assert state["table"]["commitment"] and state["turn"] == 1
        assert seat_view(server, game, 0)["table"]["rule"] == canonical  # the dealer's own view has it
        ned_view = others[1]
        moves = ned_view["legal_moves"]
        move = next((m for m in moves if m["move"] in ("pass", "play")), moves[0])
        api(server, "POST", f"/games/{game.id}/moves", {"seq": ned_view["seq"], **move}, token=game.token(1))
    else:
        raise AssertionError("the round did not end")
    # After the round: the rule, plainly, with the commitment made before the first play, checked.
    page.wait_for_selector("body[data-phase='over']")
    page.click("#end-close")
    page.wait_for_selector("#rule-revealed")
    assert page.locator("#revealed-rule").inner_text() == canonical
    commitment = next(line["commitment"] for line in game.record() if line["type"] == "rule-commitment")
    assert page.locator("#revealed-commitment").inner_text() == commitment
    page.wait_for_selector("#rule-check[data-state='checks']")
    opened.shot("eleusis-dealer-rule-revealed")
    assert [e for e in opened.errors if "422" not in e] == []
    verified(server, game.id, verify_page, tmp_path)


def test_the_lobby_opens_an_eleusis_table_from_the_catalogue(open_page, server):
    opened = open_page("/")
    page = opened.page
    page.wait_for_selector("#seat-list li:nth-child(4)")
    page.select_option("#rules", "eleusis")
    # The options as the catalogue declares them: who deals (a choice), and how many rounds.
    assert page.locator("#option-dealer option").all_inner_texts() == [
        "the server deals every round",
        "the seats deal in turn",
    ]
    assert page.locator("#option-rounds").get_attribute("min") == "0"
    assert "4 to 8 players" in page.locator("#seat-range").inner_text()
    page.fill("#seat-name-0", "Lobby Lee")
    page.select_option("#option-dealer", "1")
    page.fill("#option-rounds", "2")
    state = public(server, create_from_lobby(page))
    assert state["rules"] == "eleusis" and state["options"] == {"dealer": 1, "rounds": 2}
    assert [s["bot"] for s in state["seats"]] == [False, True, True, True]


def test_the_page_checks_a_revealed_rule_as_the_protocol_commits_to_it(open_page):
    # The table's check of a revealed rule is the protocol's rule_commitment, worked out in the browser.
    page = open_page("/").page
    cases = [
        ("card.colour != last.colour", "00" * 32),
        ("if odd(last.rank) then card.colour = black else card.colour = red", "ab" * 32),
        ("card.rank mod 3 = (last.rank + 1) mod 3", "0f1e" * 16),
    ]
    for rule, nonce in cases:
        got = page.evaluate(
            "async ([rule, nonce]) => (await import('/js/games/eleusis.js')).ruleCommitment(rule, nonce)", [rule, nonce]
        )
        assert got == rule_commitment(rule, nonce)
    assert rule_commitment(*cases[0]).startswith("470d0838f7c39f2a")  # the fairness module's own example


def round_summary_shown(page: Page, prefix: str, record: list[dict], hand: int) -> None:
    """The round's summary (``prefix``: ``hand-end`` between rounds, ``last-hand`` at the end) holds
    its rule as revealed, the commitment fixed before the first play, and the page's check of it."""
    rule = next(line for line in record if line["type"] == "rule-reveal" and line["hand"] == hand)
    commitment = next(line for line in record if line["type"] == "rule-commitment" and line["hand"] == hand)
    assert page.locator(f"#{prefix}-rule-title").inner_text() == f"The secret rule of round {hand} was"
    assert page.locator(f"#{prefix}-rule-text").inner_text() == rule["rule"]
    assert page.locator(f"#{prefix}-rule-commitment").inner_text() == commitment["commitment"]
    assert page.locator(f"#{prefix}-rule-nonce").inner_text() == rule["nonce"]
    page.wait_for_selector(f"#{prefix}-rule-check[data-state='checks']")
    assert page.locator(f"#{prefix}-rule-check").inner_text().startswith("✔ checks")


def test_every_round_ends_on_its_summary_with_the_rule_and_its_check(open_page, new_game, server):
    # Two rounds, the server dealing, a pause between them: the sheet between the rounds and the
    # game's end each show the round's summary, the revealed rule and its check inside it.
    game = new_game(
        ["Rhea", "Bot S1", "Bot S2", "Bot S3"],
        rules="eleusis",
        options={"dealer": 0, "rounds": 2},
        next_hand_seconds=60,
    )
    opened = open_page(game.link(0))
    page = opened.page
    page.wait_for_selector(f"{MY_TURN} #mainline")
    play_by_api(server, game)
    page.wait_for_selector("#between:not([hidden]) #hand-end-rule")
    pause = public(server, game.id)
    assert pause["status"] == "between-hands"
    ended = pause["hands"][0]
    summary_shown(page, "hand-end", ended, pause["next_hand"]["cards_left"])
    round_summary_shown(page, "hand-end", game.record(), 1)
    assert page.locator("#between #next-hand").is_visible()  # the sheet's foot, in sight
    assert page.locator("#between-title").inner_text() == "Round 1"  # Eleusis's hands are rounds
    opened.shot("eleusis-round-summary")
    page.click("#next-hand")
    page.wait_for_selector("#between[hidden]", state="attached")

    play_by_api(server, game)
    page.wait_for_selector("#end:not([hidden]) #last-hand-rule")
    over = public(server, game.id)
    last = over["hands"][-1]
    assert over["status"] == "over" and last["hand"] == 2
    summary_shown(page, "last-hand", last, last["cards_left"])
    assert page.locator("#last-hand-title").inner_text() == "Round 2, the last"
    round_summary_shown(page, "last-hand", game.record(), 2)
    assert page.locator("#standings tbody tr").count() == 4
    opened.shot("eleusis-game-over-summary")
