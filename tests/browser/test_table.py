"""The live table in a real browser: the lobby, whole games, every control of the rule text."""

from __future__ import annotations

import re
import urllib.request

from .conftest import PHONE
from .conftest import api
from .play import CORNER
from .play import COUNT_FLIGHTS
from .play import MY_TURN
from .play import mouse_move
from .play import picker_open
from .play import play_by_api
from .play import play_to_end
from .play import seq
from .play import to_an_eight
from .play import wait_moved
from .play import wait_turn

CARD_LABEL = re.compile(
    r"^(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of (clubs|diamonds|hearts|spades), (playable|not playable)(, lifted)?$"
)


def moves_of(record: list[dict], seat: int) -> list[dict]:
    return [line for line in record if line["type"] == "move" and line["seat"] == seat]


def record_bytes(game) -> bytes:
    with urllib.request.urlopen(f"{game.server}/games/{game.id}/record", timeout=10) as response:
        return response.read()


# Counts, in the page, every card or token put in flight (js/motion.js's ghosts) from now on.


def pile_top_of(record: list[dict]) -> str:
    """The card on top of a draw-pile game's pile, as the record says: the starter, or the last card played."""
    top = ""
    for line in record:
        if line["type"] == "deal":
            top = line["turned"][-1]
        elif line["type"] == "move" and line["move"] == "play":
            top = line["card"]
    return top


def control_at_its_centre(page, selector: str) -> bool:
    """Whether a click at the centre of the control lands on it (or on a child of it), not on something over it."""
    return page.eval_on_selector(
        selector,
        """node => { const r = node.getBoundingClientRect();
                     const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                     return hit !== null && node.contains(hit); }""",
    )


# For ``ms`` milliseconds, how many times the turn timer changed the page (a task's changes count
# once) and the text it showed after each.
TIMER_CHANGES = """(ms) => new Promise((resolve) => {
  const timer = document.getElementById("timer"), shown = [];
  const observer = new MutationObserver(() => shown.push(parseInt(document.getElementById("timer-text").textContent)));
  observer.observe(timer, { subtree: true, childList: true, characterData: true, attributes: true });
  setTimeout(() => { observer.disconnect(); resolve([shown.length, shown]); }, ms);
})"""

DECK = "/vendor/playing-cards/"

# Every picture on the page that is done loading, by its URL: [url, naturalWidth].
LOADED_IMAGES = """async (sel) => {
  const imgs = [...document.querySelectorAll(sel)];
  await Promise.all(imgs.map((img) => img.decode().catch(() => null)));
  return imgs.map((img) => [new URL(img.src).pathname, img.naturalWidth]);
}"""


def assert_deck_faces(page, server: str) -> None:
    """The hand, the pile and the stock wear the deck's pictures, each loaded (served with 200)."""
    hand = page.locator("#hand .card").evaluate_all(
        "nodes => nodes.map(n => [n.dataset.code, n.querySelectorAll('img.face').length, new URL(n.querySelector('img.face').src).pathname, n.querySelector('img.face').alt, n.title])"
    )
    assert hand and all(
        count == 1 and src == f"{DECK}{code}.svg" and alt == "" and title == "" for code, count, src, alt, title in hand
    ), hand
    faces = page.evaluate(LOADED_IMAGES, ".card img.face")
    assert faces and all(width > 0 for _, width in faces), faces  # every face and back decoded
    top = page.locator("#pile .card.top").get_attribute("data-code")
    assert [DECK + f"{top}.svg", True] in [[src, width > 0] for src, width in faces]
    assert all(
        src == f"{DECK}back.svg"
        for src in page.locator("#stock .card.back img.face, .opp .fan .card.back img.face").evaluate_all(
            "ns => ns.map(n => new URL(n.src).pathname)"
        )
    )
    # A court card is the deck's figure: its file draws a king, tens of kilobytes, where a pip card is about 2.
    court = page.evaluate(
        """async () => { const { cardFace } = await import("/js/ui.js");
                         const node = cardFace("KH"); node.id = "court-probe"; document.body.append(node);
                         const img = node.querySelector("img.face"); await img.decode();
                         return [new URL(img.src).pathname, img.naturalWidth, node.getAttribute("aria-label"), node.getAttribute("role")]; }"""
    )
    page.evaluate("document.getElementById('court-probe').remove()")
    assert court == [f"{DECK}KH.svg", court[1], "king of hearts", "img"] and court[1] > 0
    for path, least in (
        (f"{DECK}KH.svg", 20_000),
        (f"{DECK}QS.svg", 20_000),
        (f"{DECK}JD.svg", 20_000),
        (f"{DECK}back.svg", 100),
    ):
        answer = page.request.get(server + path)
        assert (
            answer.status == 200
            and answer.headers["content-type"].startswith("image/svg+xml")
            and len(answer.body()) > least
        ), path
    assert len(page.request.get(server + f"{DECK}7C.svg").body()) < 5_000


def test_lobby_to_a_whole_game_with_the_mouse_then_verify(open_page, server):
    opened = open_page("/")  # a whole match: its cards in flight would take a minute (the motion test below has them)
    page = opened.page
    page.wait_for_selector("#seat-list li:nth-child(4)")
    assert page.locator(".seat-row").count() == 4  # you and three bots, as the lobby opens
    hero = page.evaluate(LOADED_IMAGES, ".hero-cards .card img.face")
    assert [src for src, _ in hero] == [f"{DECK}8H.svg", f"{DECK}AS.svg", f"{DECK}KD.svg"] and all(
        width > 0 for _, width in hero
    )
    page.fill("#seat-name-0", "Lin")
    page.select_option("#turn-seconds", "30")
    # Bots at once and no pause between hands: this walk is about the mouse, the pace has its own tests.
    page.select_option("#bot-seconds", "0")
    page.select_option("#next-hand-seconds", "0")
    opened.shot("lobby-laptop")
    page.click("#create-button")
    link = page.locator("#link-list input.link-url")
    page.wait_for_selector("#links:not([hidden])")
    assert link.count() == 1  # one person, one link
    url = link.input_value()
    assert re.search(r"/table/[^?#]+#seat=0&token=[^&]+&host=", url) and "?" not in url  # the key rides in the fragment
    commitment = page.locator("#links-commitment").inner_text()

    page.click("#link-list a.button")
    page.wait_for_selector(MY_TURN)
    game_id = page.url.split("/table/")[1].split("#")[0]
    # The fingerprint was there from the start; the seat's own seed was committed and revealed by this page.
    page.click("#tab-fair")
    assert page.locator("#fair-commitment").inner_text() == commitment
    my_seed = page.locator("#my-seed code").first.inner_text()
    assert re.fullmatch(r"[0-9a-f]{32}", my_seed)
    assert my_seed in page.locator("#fair-seeds").inner_text()
    assert "Hidden until the game ends" in page.locator("#fair-server-seed").inner_text()
    # The page checked, itself, that the game is in the public log (js/publiclog.js; spec/log.md).
    page.wait_for_selector("#fair-log[data-state='ok']")
    assert re.fullmatch(
        r"In the public log: entry \d+ of \d+, checked against the log's signed checkpoint\.",
        page.locator("#fair-log-status").inner_text(),
    )
    assert page.locator("#fair-log-origin").inner_text().startswith("fairdeal.invalid/log/")
    page.click("#tab-scores")
    assert page.locator("#timer").is_visible() and re.fullmatch(r"\d+ s", page.locator("#timer-text").inner_text())
    # The timer counts whole seconds down and touches the page once a second, no more often
    # (each change repaints the table): over 2.1 s, two or three changes.
    changes, shown = page.evaluate(TIMER_CHANGES, 2100)
    assert 2 <= changes <= 3 and len(shown) == changes and shown == sorted(shown, reverse=True), (changes, shown)
    assert page.locator(".opp .badge.bot").count() == 3  # bots are always marked as bots
    opened.shot("table-laptop-your-turn")

    kinds = play_to_end(page, mouse_move)
    assert kinds["play"] + kinds["play it"] + kinds["play eight"] + kinds["play it eight"] >= 1
    assert kinds["draw"] >= 1

    page.wait_for_selector("#end:not([hidden])")
    record = api(server, "GET", f"/games/{game_id}/record").splitlines()
    assert '"type":"reveal"' in record[-1]
    standings = page.locator("#standings tbody tr")
    assert standings.count() == 4
    assert page.locator("#winner").inner_text()
    opened.shot("table-laptop-game-over")
    page.click("#end-close")
    page.click("#tab-fair")
    assert re.fullmatch(r"[0-9a-f]{64}", page.locator("#fair-server-seed").inner_text())
    page.wait_for_selector("#fair-log-status:has-text('its end (revealed)')")

    page.click("#verify-link")
    page.wait_for_selector("body[data-verdict='verified']")
    assert page.locator("#commitment").inner_text() == commitment
    # The verify page checks the game's entries in the log too (this server's log has no witnesses).
    page.wait_for_selector("#log-panel[data-state='ok']")
    assert page.locator("#log-witnesses").inner_text() == "This log names no witnesses."
    assert page.locator("section.hand").count() >= 1
    opened.shot("verify-from-the-table", full_page=True)


def test_cards_fly_and_the_updates_that_come_meanwhile_wait_their_turn(open_page, new_game):
    # The test server's bots answer at once, inside this seat's own request: their moves arrive in a
    # burst while this seat's card is still in the air, and must all be shown, in order, after it.
    game = new_game(["Mo", "Bot M", "Bot N"], options={"target": 1})  # a match of one hand
    opened = open_page(game.link(0), motion=True)
    page = opened.page
    page.evaluate(COUNT_FLIGHTS)
    assert wait_turn(page)
    before = seq(page)
    playable = page.locator(".hand .card.playable")
    if playable.count():
        playable.first.click(position=CORNER)  # lift
        playable.first.click(position=CORNER)  # play: it flies from the hand to the pile
        if picker_open(page):
            page.locator(".suit-token").first.click()
    else:
        page.click("#stock")  # a card flies from the stock to the hand
    page.wait_for_selector(".flying-card", state="attached")
    wait_moved(page, before)
    page.wait_for_selector(".flying-card", state="detached")  # each ghost goes once its card lies in the view
    record = game.record()
    if page.locator(MY_TURN).count():  # the bots have answered: the record stands still until this seat moves
        assert seq(page) == str(len(record))
        assert page.locator("#pile .card.top").get_attribute("data-code") == pile_top_of(record)
    play_to_end(page, mouse_move)
    record = game.record()
    page.wait_for_selector(f"body[data-seq='{len(record)}']")
    # Nothing that came during a flight was lost: one log entry for every line of the record.
    assert page.locator("#log li").count() == len(record)
    assert page.evaluate("window.flightsSeen") > 0
    assert page.locator(".flying-card").count() == 0


def test_phone_sized_table_whole_short_game(open_page, new_game):
    game = new_game(["Pia", "Bot P", "Bot Q"], options={"target": 1})  # a whole match of one hand
    opened = open_page(game.link(0), viewport=PHONE)
    page = opened.page
    page.wait_for_selector(MY_TURN)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.locator("#hand .card").first.is_visible() and page.locator("#stock").is_visible()
    opened.shot("table-phone-your-turn")
    page.click("#open-scores")
    page.wait_for_selector("body.side-open #scores")
    opened.shot("table-phone-scores")
    page.click("#close-side")
    kinds = play_to_end(page, mouse_move)
    assert sum(kinds.values()) > 3
    page.wait_for_selector("#end:not([hidden])")
    opened.shot("table-phone-game-over")


def test_an_eight_names_a_suit_and_its_token_lies_on_the_pile(open_page, new_game):
    game = new_game(["Eva", "Bot E", "Bot F", "Bot G"])  # an eight on the first turn (fixed seeds)
    opened = open_page(game.link(0))
    page = opened.page
    eight = to_an_eight(page)
    before = seq(page)
    tokens = page.locator("#suit-picker .suit-token")
    assert tokens.count() == 4
    assert [tokens.nth(i).get_attribute("aria-label") for i in range(4)] == [
        "Name clubs (1)",
        "Name diamonds (2)",
        "Name hearts (3)",
        "Name spades (4)",
    ]
    opened.shot("table-laptop-suit-tokens")
    page.click("#suit-picker [data-suit='H']")
    wait_moved(page, before)
    played = [m for m in moves_of(game.record(), 0) if m["move"] == "play" and m["card"] == eight]
    assert played and played[-1]["suit"] == "H"
    # The token stays on the pile while that eight is on top (the next seat may already have covered it).
    if page.locator("#pile .card.top").get_attribute("data-code") == eight:
        assert page.locator("#pile .token").inner_text() == "♥"
        assert "hearts named" in page.locator("#pile").get_attribute("aria-label")


def test_draw_then_keep(open_page, new_game):
    game = new_game(["Dee", "Bot K", "Bot L"])
    opened = open_page(game.link(0))
    page = opened.page
    assert wait_turn(page)
    # The key hint names the keys of Crazy Eights' moves, and only those.
    assert (
        page.locator("#keys").inner_text()
        == "Keys: Tab to your hand, ← → move, Enter lifts and plays, D draws, K keeps, P passes, 1–4 name a suit, M sound."
    )
    # The record downloads from the table at any time, byte for byte as the server keeps it
    # (on the seat's turn, so no bot adds a line in between).
    with page.expect_download() as download:
        page.click("#download-record")
    assert download.value.suggested_filename == f"{game.id}.jsonl"
    assert open(download.value.path(), "rb").read() == record_bytes(game)
    # A message never blocks: while one shows, the stock and Draw still take the click, and
    # the polite live region says the same words.
    page.keyboard.press("m")
    page.wait_for_selector("#toast:not([hidden])")
    message = page.locator("#toast").inner_text()
    assert message.startswith("Sound off")
    assert page.locator("#said").inner_text() == message
    assert page.locator("#said").get_attribute("aria-live") == "polite"
    assert control_at_its_centre(page, "#stock")
    if page.locator("#draw").count():
        assert control_at_its_centre(page, "#draw")
    assert not control_at_its_centre(page, "#toast")  # clicks go through the strip
    page.keyboard.press("m")
    hand_before = page.locator("#hand .card").count()
    draws = 0
    while not page.locator("#keep-it").count():
        before = seq(page)
        page.click("#stock")
        wait_moved(page, before)
        draws += 1
        assert draws < 40
    # The drawn card that fits is lifted for the seat, with "Play it" and "Keep it".
    pending = page.locator("#hand .card.lifted")
    assert pending.count() == 1
    assert page.locator("#play-it").is_visible()
    assert page.locator("#hand .card.playable").count() == 1  # only the drawn card may be played now
    opened.shot("table-laptop-play-it-or-keep-it")
    before = seq(page)
    page.click("#keep-it")
    wait_moved(page, before)
    mine = moves_of(game.record(), 0)
    assert [m["move"] for m in mine] == ["draw"] * draws + ["keep"]
    assert all("card" not in m for m in mine)  # a draw never records its card
    assert page.locator("#hand .card").count() == hand_before + draws


def test_the_timer_runs_out_and_the_table_moves(open_page, new_game):
    game = new_game(["Tim", "Bot T", "Bot U"], turn_seconds=1.5)
    opened = open_page(game.link(0))
    page = opened.page
    page.wait_for_selector(MY_TURN)
    assert page.locator("#timer").is_visible()
    assert page.locator("#timer-text").inner_text() in ("1 s", "2 s")
    # Nobody touches anything: the server plays the seat's lowest card or draws, and says so.
    page.wait_for_selector("#log li:has-text('(time ran out)')", state="attached", timeout=10_000)
    page.wait_for_selector(".toast:has-text('Time ran out')")
    auto = [m for m in moves_of(game.record(), 0) if m.get("auto")]
    assert auto and auto[0]["move"] in ("play", "draw")
    opened.shot("table-laptop-timer-ran-out")


def test_a_pass_only_when_passing_is_legal_fan_tan(open_page, new_game):
    game = new_game(["Fan", "Bot V", "Bot W", "Bot X"], rules="fan-tan")
    opened = open_page(game.link(0))
    page = opened.page
    passed = False
    for _ in range(60):
        assert wait_turn(page)
        playable = page.locator("#hand .card.playable").count()
        has_pass = page.locator("#pass").count() == 1
        # Play is compulsory: the pass button is there exactly when nothing can be played.
        assert has_pass == (playable == 0)
        assert page.locator("#stock").count() == 0  # no stock in Fan Tan
        # Fan Tan's moves are play and pass: the hint names no key for drawing, keeping or a suit.
        assert (
            page.locator("#keys").inner_text()
            == "Keys: Tab to your hand, ← → move, Enter lifts and plays, P passes, M sound."
        )
        assert page.locator("#rows .suit-row").count() == 4 and "Pot" in page.locator("#rows .pot").inner_text()
        if has_pass:
            opened.shot("table-laptop-fan-tan-pass")
            before = seq(page)
            page.keyboard.press("p")
            wait_moved(page, before)
            passed = True
            break
        mouse_move(page)
    assert passed, "this seat never had to pass"
    record = game.record()
    mine = moves_of(record, 0)
    assert mine[-1]["move"] == "pass"
    i = record.index(mine[-1])
    assert record[i + 1] == {**record[i + 1], "type": "chips", "reason": "pass", "from": 0, "to": "pot", "amount": 1}


def test_fan_tan_on_a_phone(open_page, new_game):
    game = new_game(["Fen", "Bot Y", "Bot Z"], rules="sjueren")
    opened = open_page(game.link(0), viewport=PHONE)
    page = opened.page
    assert wait_turn(page)
    for _ in range(3):
        mouse_move(page)
        if not wait_turn(page):
            break
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    opened.shot("table-phone-sjueren")
    _rows_as_the_view_lays_them(page, game)


def _rows_as_the_view_lays_them(page, game) -> None:
    """The rows show the cards the seat's view lays out, and mark the cards that may go on (its open ends)."""
    assert wait_turn(page)
    view = api(game.server, "GET", f"/games/{game.id}/seats/0/view", token=game.token(0))
    assert view["seq"] == int(seq(page))
    shown = page.eval_on_selector_all(
        "#rows .suit-row",
        "rows => rows.map((r) => [[...r.querySelectorAll('.run .card')].map((c) => c.dataset.code).filter(Boolean), r.dataset.next ?? ''])",
    )
    table = view["table"]
    wanted = table["next"] or []
    assert shown == [[table["row_cards"][suit], " ".join(c for c in wanted if c[1] == suit)] for suit in "CDHS"]
    assert any(cards for cards, _ in shown)


def test_two_people_see_each_other_live_and_a_reload_picks_up(open_page, new_game):
    game = new_game(["Ann", "Bob", "Bot M"], bots=[False, False, True])
    ann = open_page(game.link(0), seed=1)
    bob = open_page(game.link(1), seed=2)
    # Each browser commits, then reveals once both have committed: the game starts by itself.
    ann.page.wait_for_selector("body[data-phase='playing']")
    bob.page.wait_for_selector("body[data-phase='playing']")
    start = next(line for line in game.record() if line["type"] == "start")
    assert all(start["client_seeds"][:2]) and start["client_seeds"][2] == ""
    ann.page.click("#tab-fair")
    for seed in start["client_seeds"][:2]:
        ann.page.wait_for_selector(f"#fair-seeds code:has-text('{seed}')")
    moves = 0
    while moves < 4:
        for mover, watcher in ((ann, bob), (bob, ann)):
            page = mover.page
            if page.locator(MY_TURN).count():
                mouse_move(page)
                moves += 1
                # The other browser sees it without a reload.
                watcher.page.wait_for_selector(f"body[data-seq='{seq(page)}']")
        if ann.page.locator("body[data-phase='over']").count():
            break
        ann.page.wait_for_selector(f"{MY_TURN}, body[data-phase='over']") if not bob.page.locator(
            MY_TURN
        ).count() else None
    # The person to act wears a thick ring round their avatar (and "playing now" in their label) on the other's page.
    bob.page.wait_for_selector(f"{MY_TURN}, .opp.turn[data-seat='0']")
    watcher, seat = (ann, 1) if bob.page.locator(MY_TURN).count() else (bob, 0)
    opp = watcher.page.locator(f".opp.turn[data-seat='{seat}']")
    opp.wait_for()
    assert "playing now" in opp.get_attribute("aria-label")
    assert opp.locator(".avatar").get_attribute("data-initials") == "AB"[seat]  # a person: their initial
    ring = opp.locator(".avatar").evaluate(
        "n => { const s = getComputedStyle(n); return [s.outlineStyle, parseFloat(s.outlineWidth)]; }"
    )
    assert ring[0] == "solid" and ring[1] >= 4
    assert watcher.page.locator(".opp:not(.turn) .avatar").evaluate_all(
        "ns => ns.map(n => getComputedStyle(n).outlineStyle)"
    ) == ["none"]
    watcher.shot("table-laptop-a-persons-turn")
    hand = sorted(bob.page.locator("#hand .card").evaluate_all("nodes => nodes.map(n => n.dataset.code)"))
    at = seq(bob.page)
    bob.page.reload()
    bob.page.wait_for_selector(f"body[data-seq='{at}']")
    assert sorted(bob.page.locator("#hand .card").evaluate_all("nodes => nodes.map(n => n.dataset.code)")) == hand
    assert bob.page.locator("#log li").count() > 0


def test_every_card_and_control_has_a_spoken_name(open_page, new_game):
    game = new_game(["Ari", "Bot N", "Bot O", "Bot R"])
    opened = open_page(game.link(0))
    page = opened.page
    assert wait_turn(page)
    labels = page.locator("#hand .card").evaluate_all("nodes => nodes.map(n => n.getAttribute('aria-label'))")
    assert labels and all(CARD_LABEL.match(label) for label in labels), labels
    assert any(label.endswith(", playable") for label in labels) or page.locator("#stock.live").count()
    # A card that cannot be played is described by the engine's reason.
    view = api(game.server, "GET", f"/games/{game.id}/seats/0/view", token=game.token(0))
    for note in view["cards"]:
        card = page.locator(f"#hand .card[data-code='{note['card']}']")
        described = card.get_attribute("aria-describedby")
        if note["playable"]:
            assert described is None
        else:
            assert page.locator(f"#{described}").inner_text() == note["why_not"]
    assert re.match(r"Stock, \d+ cards?", page.locator("#stock").get_attribute("aria-label"))
    assert page.locator("#pile").get_attribute("aria-label").startswith("Pile: ")
    opponents = page.locator(".opp").evaluate_all("nodes => nodes.map(n => n.getAttribute('aria-label'))")
    assert len(opponents) == 3 and all(", bot, " in label and " cards" in label for label in opponents)
    assert_deck_faces(page, game.server)
    # Each bot has the robot for an avatar (loaded), the BOT badge, and its count of cards as a number.
    icons = page.evaluate(LOADED_IMAGES, ".opp .avatar img.bot-icon")
    assert len(icons) == 3 and all(src == "/vendor/bootstrap-icons/robot.svg" and width > 0 for src, width in icons), (
        icons
    )
    badges = page.locator(".opp .opp-name .badge.bot")
    assert badges.all_text_contents() == ["bot"] * 3 and all(badge.is_visible() for badge in badges.all())
    for opp in page.locator(".opp").all():
        count = opp.locator(".avatar .hand-count").inner_text()
        assert count.isdigit() and f", {count} card" in opp.get_attribute("aria-label")
        assert opp.locator(".avatar .hand-count").is_visible()
    # Focus is visible: the focused card draws an outline.
    page.locator("#hand .card[tabindex='0']").focus()
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineWidth")
    assert outline not in ("0px", "")
    # Not colour alone: a playable card also stands higher than the others on the seat's turn.
    playable = page.locator("#hand .card.playable")
    if playable.count() and page.locator("#hand .card.dim").count():
        lift = lambda sel: page.locator(sel).first.evaluate("n => n.getBoundingClientRect().top")  # noqa: E731
        assert lift("#hand .card.playable") < lift("#hand .card.dim")


def test_pointing_at_a_card_says_why_not_in_the_engines_words(open_page, new_game):
    game = new_game(["Why", "Bot H", "Bot I", "Bot J"])
    opened = open_page(game.link(0))
    page = opened.page
    assert wait_turn(page)
    view = api(game.server, "GET", f"/games/{game.id}/seats/0/view", token=game.token(0))
    blocked = [c for c in view["cards"] if not c["playable"]]
    assert blocked, "every card was playable: pick other names"
    card = blocked[0]
    page.hover(f"#hand .card[data-code='{card['card']}']")
    tip = page.locator("#tooltip")
    tip.wait_for(state="visible")
    assert card["why_not"] in tip.inner_text()
    # The engine's words name the card ("K♥ does not match 9♣ ..."): the tip does not say its name twice.
    assert tip.inner_text() == card["why_not"]
    opened.shot("table-laptop-explanation")
    page.mouse.move(5, 5)
    tip.wait_for(state="hidden")
    page.hover("#stock")
    tip.wait_for(state="visible")
    assert tip.inner_text().startswith(f"The stock: {view['table']['stock_size']} card")
    page.mouse.move(5, 5)
    # Holding a finger on a card shows the same words.
    page.dispatch_event(
        f"#hand .card[data-code='{card['card']}']", "pointerdown", {"pointerType": "touch", "isPrimary": True}
    )
    tip.wait_for(state="visible")
    assert card["why_not"] in tip.inner_text()
    page.dispatch_event(
        f"#hand .card[data-code='{card['card']}']", "pointerup", {"pointerType": "touch", "isPrimary": True}
    )


def test_sound_goes_off_with_m(open_page, new_game):
    game = new_game(["Sam", "Bot S"])
    opened = open_page(game.link(0))
    page = opened.page
    page.wait_for_selector("body[data-phase='playing']")
    assert page.locator("#sound").get_attribute("aria-pressed") == "true"
    page.keyboard.press("m")
    assert page.locator("#sound").get_attribute("aria-pressed") == "false"
    assert page.evaluate("() => localStorage.getItem('fairdeal:sound')") == "off"
    page.reload()
    page.wait_for_selector("body[data-phase='playing']")
    assert page.locator("#sound").get_attribute("aria-pressed") == "false"


def test_a_spectator_sees_no_hand(open_page, new_game):
    game = new_game(["Vic", "Bot W2", "Bot W3"])
    player = open_page(game.link(0))
    player.page.wait_for_selector("body[data-phase='playing']")
    watcher = open_page(f"/table/{game.id}")
    watcher.page.wait_for_selector("body[data-phase='playing']")
    assert watcher.page.locator("#hand .card").count() == 0
    assert "Watching" in watcher.page.locator("#me-head").inner_text()
    assert watcher.page.locator(".opp").count() == 3


def test_pages_are_served_with_a_strict_content_security_policy(server):
    for path in ("/", "/verify", "/table/anything"):
        with urllib.request.urlopen(server + path) as response:
            assert response.status == 200
            assert "script-src 'self'" in response.headers["Content-Security-Policy"]
            assert response.headers["Referrer-Policy"] == "no-referrer"


def test_the_lobby_on_a_phone(open_page):
    opened = open_page("/", viewport=PHONE)
    opened.page.wait_for_selector("#seat-list li:nth-child(4)")
    assert opened.page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    opened.shot("lobby-phone", full_page=True)


def test_a_bad_link_says_so(open_page, new_game):
    game = new_game(["Zed", "Bot Z1"])
    opened = open_page(f"/table/{game.id}#seat=0&token=not-the-token", expect_errors=True)
    opened.page.wait_for_selector("body[data-phase='error']")
    assert "not valid for this game" in opened.page.locator("#status").inner_text()


def test_the_web_module_docstring():
    import doctest

    import fairdeal.web

    failed, attempted = doctest.testmod(fairdeal.web)
    assert attempted > 0 and failed == 0


def test_the_host_starts_without_a_missing_player(open_page, new_game):
    game = new_game(["Hal", "Absent", "Bot H2"], bots=[False, False, True])
    opened = open_page(game.link(0, host=True))
    page = opened.page
    # Hal has committed; Absent never opens the link, so no seed can be revealed yet.
    page.wait_for_selector("#seeding:not([hidden]) #start-now")
    page.wait_for_selector("#seeding li:has-text('committed ✔')")
    # This browser did not open the table (the test did, over HTTP): it has no other seat's link, and says so.
    assert "has no other seat's link" in page.locator("#no-links").inner_text()
    # Kept as the lobby (or "Play again") keeps them, the host's waiting screen hands out the others' links.
    page.evaluate(
        "async (created) => (await import('/js/links.js')).keepLinks(created, { rules: 'crazy-eights' })", game.created
    )
    page.reload()
    page.wait_for_selector("#seeding:not([hidden]) #others-links .seat-link")
    others = page.locator("#others-links .seat-link")
    absent = game.server + game.link(1)
    assert others.count() == 1 and others.get_attribute("data-url") == absent  # not Hal's own, not the bot's
    assert others.locator(".link-url").input_value() == absent and "Absent" in others.inner_text()
    opened.context.grant_permissions(["clipboard-read", "clipboard-write"])
    others.locator("button.copy").click()
    page.wait_for_selector("#others-links button.copy:has-text('Copied')")
    assert page.evaluate("navigator.clipboard.readText()") == absent
    others.locator("button.qr-toggle").click()
    page.wait_for_selector("#others-links svg.qr path")
    assert page.locator("#others-links svg.qr").get_attribute("data-encoded") == absent
    assert others.locator("button.qr-toggle").get_attribute("aria-expanded") == "true"
    opened.shot("table-laptop-waiting-for-seeds")
    page.click("#start-now")
    # Every seat without a revealed seed is played by a bot (Hal's too, as the page said), marked as one.
    page.wait_for_selector("body[data-phase='over'] #end:not([hidden])")
    start = next(line for line in game.record() if line["type"] == "start")
    assert start["bots"] == [0, 1, 2] and start["client_seeds"] == ["", "", ""]
    page.click("#end-close")
    assert page.locator("#me-head .badge.bot").count() == 1
    assert page.locator(".opp[data-seat='1'] .badge.bot").count() == 1


def test_the_host_abandons_and_the_record_still_verifies(open_page, new_game):
    game = new_game(["Abe", "Bot A2", "Bot A3"])
    opened = open_page(game.link(0, host=True))
    page = opened.page
    page.wait_for_selector(MY_TURN)
    page.click("#tab-scores")
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#abandon")
    page.wait_for_selector("body[data-phase='abandoned'] #end:not([hidden])")
    assert page.locator("#end-title").inner_text() == "Game abandoned"
    assert [line["type"] for line in game.record()[-2:]] == ["abandon", "reveal"]
    page.click("#end-verify")
    page.wait_for_selector("body[data-verdict='verified']")
    assert "this server's published key" in page.locator("#server-key").inner_text()


def test_a_dropped_connection_reconnects_and_catches_up(open_page, new_game):
    game = new_game(["Net", "Bot N1", "Bot N2"])
    player = open_page(game.link(0))
    watcher = open_page(f"/table/{game.id}", expect_errors=True)  # offline fetches fail loudly, on purpose
    player.page.wait_for_selector(MY_TURN)
    watcher.page.wait_for_selector(f"body[data-seq='{seq(player.page)}']")
    watcher.context.set_offline(True)
    for _ in range(3):
        if not wait_turn(player.page):
            break
        mouse_move(player.page)
    watcher.page.wait_for_selector("body[data-live='reconnecting']")
    assert seq(watcher.page) != seq(player.page)  # it missed those moves while it was away
    watcher.context.set_offline(False)
    # Back online, the live stream resumes after the last line it had, without a reload.
    watcher.page.wait_for_selector(f"body[data-seq='{seq(player.page)}'][data-live='live']")
    assert watcher.page.locator("#log li").count() >= 3


def test_a_finished_game_is_not_polled(open_page, new_game, server):
    game = new_game(["Old", "Bot O1"])
    opened = open_page(game.link(0))
    page = opened.page
    page.wait_for_selector(MY_TURN)
    page.on("dialog", lambda dialog: dialog.accept())
    api(server, "POST", f"/games/{game.id}/abandon", {"reason": "test"}, token=game.created["host_token"])
    page.wait_for_selector("body[data-phase='abandoned']")
    streams: list[str] = []
    page.on("request", lambda r: streams.append(r.url) if "/events" in r.url else None)
    page.reload()
    page.wait_for_selector("body[data-phase='abandoned']")
    # One request for the stream; the server says the game is over and revealed; the page stops asking.
    page.wait_for_selector("body[data-live='done']")
    assert len(streams) == 1


def test_go_boom_and_eights_play_at_the_same_table(open_page, new_game):
    for rules in ("go-boom", "eights"):
        game = new_game(["Gil", "Bot G1", "Bot G2", "Bot G3"], rules=rules)
        opened = open_page(game.link(0))
        page = opened.page
        for _ in range(4):
            if not wait_turn(page):
                break
            mouse_move(page)
        assert moves_of(game.record(), 0)
        assert page.locator("#stock").count() == 1 and page.locator("#status").inner_text()
        opened.shot(f"table-laptop-{rules}")


def test_fan_tan_with_penalized_passing_offers_a_pass_that_says_so(open_page, new_game):
    game = new_game(["Pen", "Bot Y1", "Bot Y2"], rules="fan-tan", options={"passing": 1})
    opened = open_page(game.link(0))
    page = opened.page
    for _ in range(30):
        assert wait_turn(page)
        if page.locator("#hand .card.playable").count():
            break
        mouse_move(page)
    else:
        raise AssertionError("never a playable card")
    # Passing is allowed though a card could be played: the button says what it costs.
    assert page.locator("#pass").inner_text().startswith("Pass (with a penalty)")
    before = seq(page)
    page.click("#pass")
    wait_moved(page, before)
    record = game.record()
    i = record.index(moves_of(record, 0)[-1])
    assert [line["reason"] for line in record[i + 1 : i + 3]] == ["pass", "penalty"]


def test_hollywood_shows_its_three_games_as_the_server_keeps_them(open_page, new_game):
    game = new_game(["Holly", "Bot H1"], rules="hollywood-eights", options={"target": 30, "partners": 0})
    opened = open_page(game.link(0))
    page = opened.page
    for _ in range(200):
        if not wait_turn(page):
            break
        view = api(game.server, "GET", f"/games/{game.id}/seats/0/view", token=game.token(0))
        if view["hands"]:
            break
        mouse_move(page)
    view = api(game.server, "GET", f"/games/{game.id}/seats/0/view", token=game.token(0))
    assert view["hands"], "no hand ended"
    page.wait_for_function(
        "(n) => document.querySelectorAll('#scores tbody tr').length >= n + 1", arg=len(view["hands"])
    )
    rows = page.locator("#hollywood-games tbody tr")
    assert rows.count() == 3
    for g, scores in enumerate(view["sheet"]["games"]):
        cells = rows.nth(g).locator("td").all_inner_texts()
        assert cells == [str(n) for n in scores]
    assert page.locator("#panel-scores").get_by_text("The three games").count() == 1
    assert "sum of that seat's three games" in page.locator("#panel-scores .hint").first.inner_text()
    opened.shot("table-laptop-hollywood-games")


BETWEEN = "#between:not([hidden])"


def test_the_hands_end_sheet_next_hand_then_play_again(open_page, new_game, server):
    # Two deals, a pause between them (the test server deals at once unless a table asks).
    game = new_game(["Hal", "Bot H"], rules="eights", options={"deals": 2}, next_hand_seconds=30)
    opened = open_page(game.link(0, host=True))
    page = opened.page
    page.wait_for_selector(MY_TURN)
    play_by_api(server, game)
    page.wait_for_selector(BETWEEN)
    assert page.locator("body").get_attribute("data-phase") == "between-hands"
    assert page.locator("#between-title").inner_text() == "Hand 1"
    # Every seat's cards left, as faces, as the server shows them; the count, score and total of each.
    pause = api(server, "GET", f"/games/{game.id}")["next_hand"]
    rows = page.locator("#hand-end-table tbody tr")
    assert rows.count() == 2 and "bot" in rows.nth(1).locator("th").inner_text().lower()
    for s in (0, 1):
        shown = rows.nth(s).locator("td.left .card").evaluate_all("nodes => nodes.map(n => n.dataset.code)")
        assert shown == pause["cards_left"][s]
    assert any(pause["cards_left"])
    assert page.evaluate("() => document.activeElement.id") == "next-hand"  # Enter deals on
    assert re.fullmatch(r"Next hand in \d+ s", page.locator("#next-countdown").inner_text())
    assert game.record()[-1]["type"] == "hand-end"
    opened.shot("table-laptop-hand-end")
    page.click("#next-hand")
    page.wait_for_selector("#between[hidden]", state="attached")
    assert "hand 2" in page.locator("#game-title").inner_text()
    assert game.record()[-1]["type"] != "hand-end"

    play_by_api(server, game)
    page.wait_for_selector("#end:not([hidden])")
    for control in ("#end-verify", "#end-replay", "#end-download", "#end-again", "#end-hands"):
        assert page.locator(control).count() == 1, control
    opened.shot("table-laptop-match-end")
    page.click("#end-again")
    page.wait_for_url(lambda url: f"/table/{game.id}" not in url)
    new_id = page.url.split("/table/")[1].split("#")[0]
    page.wait_for_selector(f"{MY_TURN}, body[data-phase='playing']")  # the page took the host's seat there
    again = api(server, "GET", f"/games/{game.id}/seats/0/view", token=game.token(0))["again"]
    assert again["game_id"] == new_id and again["seat"] == 0 and f"token={again['token']}" in page.url
    kept = page.evaluate(f"() => JSON.parse(localStorage.getItem('fairdeal:links:{new_id}'))")
    assert kept["game_id"] == new_id and [s["name"] for s in kept["seats"]] == ["Hal"]


def summary_shown(page, prefix: str, hand: dict, cards_left: list[list[str]]) -> None:
    """A hand's summary as the page shows it (the sheet between hands: ``hand-end``, the game's end:
    ``last-hand``) is the server's: each seat's cards left as faces, the count, the hand's score and
    the running total; the seat that went out is marked so."""
    rows = page.locator(f"#{prefix}-table tbody tr")
    assert rows.count() == len(cards_left)
    for s, left in enumerate(cards_left):
        row = rows.nth(s)
        assert row.locator("td.left .card").evaluate_all("nodes => nodes.map(n => n.dataset.code)") == left
        assert row.locator("td.count").inner_text() == str(hand["counts"][s])
        assert row.locator("td.score").inner_text() == str(hand["scores"][s])
        assert row.locator("td.total").inner_text() == str(hand["totals"][s])
        # (A partner of the seat that went out shares the win, not the going out.)
        went_out = hand["how"] == "out" and s in hand["winners"] and not left
        assert row.locator(".badge.out").count() == int(went_out)
        if not left:
            assert row.locator("td.left").inner_text() == "none"


def test_the_last_hand_ends_on_its_summary_then_the_standings(open_page, new_game, server):
    # The default target with three bots: a match that may well end with its first hand, so that
    # a person never sees the sheet between hands. The game's end shows that hand's summary first.
    game = new_game(["Lena", "Bot L1", "Bot L2", "Bot L3"])
    opened = open_page(game.link(0))
    page = opened.page
    page.wait_for_selector(MY_TURN)
    play_by_api(server, game)
    page.wait_for_selector("#end:not([hidden]) #last-hand")
    view = api(server, "GET", f"/games/{game.id}/seats/0/view", token=game.token(0))
    last = view["hands"][-1]
    assert view["status"] == "over" and len(last["cards_left"]) == 4 and any(last["cards_left"])
    assert page.locator("#last-hand-title").inner_text() == f"Hand {last['hand']}, the last"
    summary_shown(page, "last-hand", last, last["cards_left"])
    # Who went out (or how the hand blocked), in the headline.
    headline = page.locator("#last-hand-headline").inner_text()
    if last["how"] == "out":
        name = "You" if last["winners"] == [0] else view["seats"][last["winners"][0]]["name"]
        assert headline.startswith(f"{name} went out")
    else:
        assert "blocked" in headline and page.locator("#last-hand-how").inner_text().startswith("Blocked: ")
    # Then the standings: every seat, after the summary, in the dialog's order.
    order = page.evaluate("() => [...document.querySelectorAll('#end-body > *')].map((n) => n.id).filter(Boolean)")
    assert order.index("winner") < order.index("last-hand") < order.index("standings"), order
    assert page.locator("#standings tbody tr").count() == 4
    assert [int(t) for t in page.locator("#standings tbody td.num").all_inner_texts()] == sorted(
        last["totals"], reverse=True
    )
    opened.shot("table-laptop-last-hand-summary")
