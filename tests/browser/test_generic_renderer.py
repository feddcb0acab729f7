"""The generic renderer (js/games/generic.js) in real Chromium: the table of a game that has no
renderer of its own (a plugin's, whose catalogue entry says ``"renderer": "generic"``), drawn from
its seat's view alone, played through clicks, and stepped through in the hand replayer.

Until a plugin is installed, fairdeal's own games are drawn with it the test's way: the page's
GET /rules is rewritten in the browser (a Playwright route) so that their entries name the
generic renderer; the server, and what every other page is served, stay as they are."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from fairdeal.rules import RULES
from verifier.replayer import hand_steps

from .conftest import PHONE
from .conftest import api
from .play import CORNER
from .play import MY_TURN
from .play import OVER
from .play import picker_open
from .play import play_by_api
from .play import seq
from .play import wait_moved
from .test_replayer import READY
from .test_replayer import SHOWN
from .test_replayer import check_step

SYMBOL = dict(zip("CDHS", "♣♦♥♠"))
RANK_WORDS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king", "T": "10"}
SUIT_NAMES = dict(zip("CDHS", ("clubs", "diamonds", "hearts", "spades")))


def drawn_generically(opened, games: tuple[str, ...]) -> None:
    """From now on, this page's context reads a catalogue whose entries of ``games`` say
    ``"renderer": "generic"`` (a test's rewrite of GET /rules; the server's is untouched)."""

    def rewrite(route):
        response = route.fetch()
        catalogue = response.json()
        for entry in catalogue["games"]:
            if entry["name"] in games:
                entry["renderer"] = "generic"
        route.fulfill(response=response, json=catalogue)

    opened.context.route(re.compile(r"/rules(\?lang=[\w-]+)?$"), rewrite)  # the pages ask in their language


def open_generic(open_page, path: str, games: tuple[str, ...]):
    """``path`` opened with ``games`` drawn by the generic renderer (a page with nothing to load
    comes first, so that the route is there before the catalogue is read)."""
    opened = open_page("/replay")
    drawn_generically(opened, games)
    opened.page.goto(opened.page.url.rsplit("/", 1)[0] + path)
    return opened


def view_of(game, seat: int = 0) -> dict:
    return api(game.server, "GET", f"/games/{game.id}/seats/{seat}/view", token=game.token(seat))


def said(card: str) -> str:
    """A card as the page prints it: "10♦"."""
    return ("10" if card[0] == "T" else card[0]) + SYMBOL[card[1]]


def status_words(view: dict) -> str:
    """What the status line says on this seat's turn, from its legal moves (generic.js's words)."""
    moves = view["legal_moves"]
    if view.get("pending") and any(m["move"] == "keep" for m in moves):
        return f"You drew {said(view['pending'])}: play it, or keep it."
    parts = []
    for kind in dict.fromkeys(m["move"] for m in moves):
        if kind != "play":
            parts.append(kind.replace("-", " "))
            continue
        cards = list(dict.fromkeys(m["card"] for m in moves if m["move"] == "play"))
        naming = list(dict.fromkeys(m["card"] for m in moves if m["move"] == "play" and m.get("suit")))
        words = f"play {said(cards[0])}" if len(cards) == 1 else "play a card"
        if naming:
            words += (
                " and name a suit"
                if len(cards) == 1
                else f" ({', '.join(map(said, naming))} name{'s' if len(naming) == 1 else ''} a suit)"
            )
        parts.append(words)
    joined = f"{', '.join(parts[:-1])}, or {parts[-1]}" if len(parts) > 2 else ", or ".join(parts)
    return f"Your turn: {joined}."


def click_move(page, view: dict, suit: str | None = None, prefer: str = "") -> str:
    """This seat's move by mouse, as a person makes it: Play it / a bright card (of rank ``prefer``
    if it has one), tapped twice, and a suit token if the play names one (``suit``, else the
    first) / the stock / Pass."""
    before = seq(page)
    if page.locator("#play-it").count():
        page.click("#play-it")
        kind = "play it"
    elif page.locator(".hand .card.playable").count():
        preferred = page.locator(f".hand .card.playable[data-code^='{prefer}']") if prefer else None
        card = preferred.first if preferred and preferred.count() else page.locator(".hand .card.playable").first
        card.click(position=CORNER)  # lift
        card.click(position=CORNER)  # play
        kind = "play"
    elif page.locator("#stock.live").count():
        page.click("#stock")
        kind = "draw"
    else:
        page.click("#pass")
        kind = "pass"
    if kind.startswith("play") and picker_open(page):
        page.click(f"#suit-picker [data-suit='{suit or 'C'}']")
        kind += " naming a suit"
    wait_moved(page, before)
    return kind


def board_checks(page, view: dict) -> None:
    """The generic board shows the view: the stock's count, the pile's top and named suit, and every
    other field."""
    table = view["table"]
    assert page.locator("#board").is_visible() and page.locator("#stock-pile").is_hidden()
    if "stock_size" in table:
        assert page.locator("#board #stock .count").inner_text() == str(table["stock_size"])
        live = page.locator("#stock.live").count() == 1
        assert live == any(m["move"] == "draw" for m in view["legal_moves"])
    if table.get("top"):
        assert page.locator("#pile .card.top").get_attribute("data-code") == table["top"]
        token = page.locator("#pile .token")
        assert (token.inner_text() if token.count() else None) == (
            SYMBOL[table["named"]] if table.get("named") else None
        )
    # Every field the page does not show elsewhere is on the board, under its name.
    shown = set(
        page.locator("#board [data-field]").evaluate_all("(nodes) => nodes.map((n) => n.dataset.field.split('.')[0])")
    )
    elsewhere = {"hand_no", "dealer", "turn", "hand_sizes", "net", "stock_size", "top", "named", "pile_size"}
    assert shown == {k for k, v in table.items() if k not in elsewhere and v not in (None, [], {}, "")}, shown
    # Its numbers as facts, under the label the game declares ("Cards to draw: 2"), else their names
    # in words ("Restock limit: 20").
    labels = RULES[view["rules"]].table_labels()
    for key, value in table.items():
        if key not in elsewhere and isinstance(value, int) and not isinstance(value, bool):
            words = labels[key]["label"] if key in labels else key.replace("_", " ").capitalize()
            assert page.locator(f"#generic-facts [data-field='{key}']").inner_text() == f"{words}: {value}".replace(
                "-", "−"
            )


def play_match(page, game, *, limit: int = 400, suit: str | None = None, prefer: str = "") -> Counter[str]:
    """Play seat 0 by mouse until the match is over, checking the board, the status line and the
    keys at every turn of this seat against its view from the API; how many moves of each kind."""
    kinds: Counter[str] = Counter()
    for _ in range(limit):
        page.wait_for_selector(f"{MY_TURN}, {OVER}")
        if page.locator("body").get_attribute("data-phase") != "playing":
            return kinds
        view = view_of(game)
        page.wait_for_selector(f"body[data-seq='{view['seq']}']")
        board_checks(page, view)
        assert page.locator("#status").inner_text() == status_words(view)
        naming = any(m.get("suit") for m in view["legal_moves"])
        assert ("1–4 name a suit" in page.locator("#keys").inner_text()) == naming
        kinds[click_move(page, view, suit, prefer)] += 1
    raise AssertionError(f"the match did not end within {limit} moves of this seat")


# What the replayer shows at a step (test_replayer's SHOWN) and the board the generic renderer drew
# for it, read in one call: a whole match's steps are hundreds.
STEP_AND_BOARD = f"""() => {{
  const visible = (node) => Boolean(node) && node.getClientRects().length > 0 && getComputedStyle(node).visibility !== 'hidden';
  return {{
    ...({SHOWN})(),
    board: visible(document.getElementById('board')),
    stockPile: visible(document.getElementById('stock-pile')),
    count: document.querySelector('#board #stock .count')?.innerText ?? null,
    pileTop: document.querySelector('#pile .card.top')?.dataset.code ?? null,
    token: document.querySelector('#pile .token')?.innerText ?? null,
    live: document.querySelectorAll('#stock.live').length,
  }};
}}"""


def step_through(page, replay: dict) -> int:
    """Step the replayer through every hand of ``replay`` by keyboard, checking each step against
    the engine in Python: the hands, places and turn (test_replayer's check_step), and the board the
    generic renderer draws from the step's view. How many steps were checked."""
    page.locator("body").click(position={"x": 5, "y": 5})  # the keys go to the page, not a control
    checked = 0
    for hand in replay["hands"]:
        for index, step in enumerate(hand["steps"]):
            seen = page.evaluate(STEP_AND_BOARD)
            check_step(page, hand, index, seen)
            table = step["table"]
            assert seen["board"] and not seen["stockPile"]
            assert seen["count"] == str(table["stock_size"])
            assert seen["pileTop"] == table["top"]
            assert seen["token"] == (SYMBOL[table["named"]] if table.get("named") else None)
            assert seen["live"] == 0  # nothing is drawn in a replay
            checked += 1
            page.keyboard.press("ArrowRight")
    return checked


def test_a_crazy_eights_hand_drawn_by_the_generic_renderer(open_page, new_game):
    game = new_game(["Gen", "Bot A", "Bot B"], options={"target": 25})  # a match of a few hands
    opened = open_generic(open_page, game.link(0), ("crazy-eights",))
    page = opened.page
    page.wait_for_selector(f"{MY_TURN}, {OVER}")
    # Facts from the view, by their field names in words; no game's own words.
    facts = page.locator("#generic-facts").inner_text()
    assert "Restock limit:" in facts and "Restocks:" in facts
    nxt = view_of(game)["table"]["next"]
    suit = f"suit {SYMBOL[nxt['suit']]} {SUIT_NAMES[nxt['suit']]}"
    rank = f", rank {RANK_WORDS.get(nxt['rank'], nxt['rank'])}" if nxt["rank"] else ""
    assert page.locator("#generic-facts [data-field='next']").inner_text() == f"Next: {suit}{rank}, wild 8"
    opened.shot("generic-crazy-eights-your-turn")
    kinds = play_match(page, game, prefer="8", suit="H")
    assert (
        sum(n for kind, n in kinds.items() if kind.endswith("naming a suit"))
        and kinds["draw"]
        and sum(kinds.values()) > 5
    ), kinds
    page.wait_for_selector("#end:not([hidden])")
    record = game.record()
    assert any(line["type"] == "hand-end" for line in record) and any(line["type"] == "match-end" for line in record)
    eights = [line for line in record if line["type"] == "move" and line["seat"] == 0 and line.get("suit")]
    assert eights and all(line["card"][0] == "8" and line["suit"] == "H" for line in eights)
    opened.shot("generic-crazy-eights-over")

    # The hand in the replayer, drawn by the generic renderer too.
    page.goto(page.url.split("/table/")[0] + f"/replay?game={game.id}")
    page.wait_for_selector(READY)
    assert step_through(page, hand_steps(api(game.server, "GET", f"/games/{game.id}/record"))) > 10
    opened.shot("generic-crazy-eights-replay", full_page=True)


# One game of each of fairdeal's other families (and a Crazy Eights variant with partners), a few
# moves in: the generic renderer draws each from its view, without a console error.
@pytest.mark.parametrize(
    "rules", ["eights", "go-boom", "fan-tan", "michigan", "sequence", "earl-of-coventry", "rolling-stone", "eleusis"]
)
def test_the_generic_renderer_draws_any_game(open_page, new_game, rules):
    names = ["Any", "Bot 1", "Bot 2", "Bot 3"]
    game = new_game(names, rules=rules)
    opened = open_generic(open_page, game.link(0), (rules,))
    page = opened.page
    page.wait_for_selector("body[data-phase='playing']")
    for _ in range(3):  # a few of this seat's moves (the bots answer at once): the table fills
        view = view_of(game)
        if view["status"] != "playing" or not view["your_turn"]:
            break
        moves = view["legal_moves"]
        move = next((m for m in moves if m["move"] == "play"), moves[0])
        api(game.server, "POST", f"/games/{game.id}/moves", {"seq": view["seq"], **move}, token=game.token(0))
    view = view_of(game)
    page.wait_for_selector(f"body[data-seq='{view['seq']}']")
    assert page.locator("#board").is_visible() and page.locator("#stock-pile, #rows").evaluate_all(
        "(nodes) => nodes.every((n) => n.hidden)"
    )
    assert page.locator("#board li").count() > 0
    if view["your_turn"]:
        assert page.locator("#status").inner_text() == status_words(view)
    else:
        assert page.locator("#status").inner_text().endswith("'s turn (bot).") or view["turn"] is None
    opened.shot(f"generic-{rules}")


# -- Switch, the example plugin (examples/switch): a game with no renderer of its own ------------


@pytest.fixture
def switch(server: str) -> dict:
    entry = next((g for g in api(server, "GET", "/rules")["games"] if g["name"] == "switch"), None)
    assert entry is not None, "the Switch plugin is not installed (make test installs examples/switch)"
    assert entry["renderer"] == "generic"
    return entry


def test_a_switch_match_in_the_browser_then_its_replay(open_page, new_game, switch):
    """A whole match of Switch (to 40 points) played by mouse against bots, an ace played
    naming a suit whenever one may go, then every step of it in the replayer."""
    game = new_game(["Swi", "Bot S1", "Bot S2"], rules="switch", options={"target": 40})  # a hand or two
    opened = open_page(game.link(0))
    page = opened.page
    page.wait_for_selector(f"{MY_TURN}, {OVER}")
    table = view_of(game)["table"]
    facts = page.locator("#generic-facts").inner_text()
    # Under the labels Switch declares for its table (its catalogue entry's `table`), not its fields' names.
    assert f"Direction of play: {table['direction']}" in facts and f"Cards to draw: {table['penalty']}" in facts
    opened.shot("generic-switch-your-turn")
    kinds = play_match(page, game, prefer="A", suit="H")
    assert sum(n for kind, n in kinds.items() if kind.endswith("naming a suit")) and kinds["draw"], kinds
    page.wait_for_selector("#end:not([hidden])")
    record = game.record()
    aces = [line for line in record if line["type"] == "move" and line["seat"] == 0 and line.get("suit")]
    assert aces and all(line["card"][0] == "A" and line["suit"] == "H" for line in aces)
    assert any(line["type"] == "match-end" for line in record)
    opened.shot("generic-switch-over")

    page.click("#end-replay")
    page.wait_for_url(f"**/replay?game={game.id}**")
    page.wait_for_selector(READY)
    assert page.locator("body").get_attribute("data-ready") == "true", page.locator("#replay-status").inner_text()
    replay = hand_steps(api(game.server, "GET", f"/games/{game.id}/record"))
    assert step_through(page, replay) > 10
    # The hand's last step: the named suit or the penalty, as the engine left them, under their names.
    page.keyboard.press("End")
    last = replay["hands"][-1]["steps"][-1]["table"]
    assert f"Direction of play: {last['direction']}" in page.locator("#generic-facts").inner_text()
    opened.shot("generic-switch-replay", full_page=True)


def test_a_switch_table_watched_and_followed_live(open_page, new_game, switch):
    """A spectator's Switch table, on a phone, follows a seat played through the API to the match's end."""
    game = new_game(["Wat", "Bot W1"], rules="switch", options={"target": 1})
    player = open_page(game.link(0))  # the seat's page commits its seed: the game starts
    player.page.wait_for_selector(f"{MY_TURN}, {OVER}")
    opened = open_page(f"/table/{game.id}", viewport=PHONE)
    page = opened.page
    page.wait_for_selector("body[data-phase='playing'] #board #pile .card.top")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    opened.shot("generic-switch-phone-spectator")
    assert page.locator("#status").inner_text() in (
        "",
        "Wat's turn.",
    )  # a spectator is told whose turn, never "Your turn"
    play_by_api(game.server, game)
    page.wait_for_selector(OVER)
    assert page.locator("#board #stock").get_attribute("aria-disabled") == "true"
    assert page.locator("#generic-facts [data-field='direction']").count() == 1
