// The live table: one seat's page (or a spectator's). Everything it shows
// comes from the service: the seat's view (its hand, the public table, its
// legal moves and, for each card, why it cannot be played now, in the
// engine's words) and the public record, followed live. The page never
// decides what is legal; it asks, and says what the engine said.
//
// The page names no game: the catalogue (GET /rules) gives the game's title and
// unit, and its renderer module (js/games/<renderer>.js, picked by the catalogue's
// `renderer`) draws the table and says the game's words. What a renderer shows that
// depends on the rules (a run's next cards, a row's open ends, what fits the pile)
// comes in the view from the engine.
//
// The URL is /table/GAME#seat=N&token=JOIN[&host=HOST]. The fragment never
// leaves the browser, so the seat's key is in no server log.
//
// Every word the page shows comes from the message catalogue (js/i18n.js, keys "table.*", and
// "words.*" for words.js's sentences), in the reader's language.
//
// This entry module wires the page together; each part is a module of js/table/:
//
//   state.js     the page's state (`ui`, `game`, `T`) and the only functions that change it
//   live.js      the connection: the start, then the record and the views, in order
//   view.js      render(): every part drawn again from the view
//   seats.js     the other seats round the felt, and this seat's own line
//   hand.js      the hand and its controls (the buttons, the suit tokens, the key hint)
//   moves.js     the moves the seat sends, and lifting a card
//   keys.js      the keyboard
//   clock.js     the turn timer and the next hand's countdown
//   messages.js  the play log and its words, the message strip
//   speak.js     what a screen reader hears: the one polite live region, fed by the play log
//   tips.js      tooltips
//   seeding.js   the client seed, and the "Shuffling up" sheet
//   fair.js      the "Why it is fair" panel and the public log's check
//   side.js      the side panel: its tabs, the scores, how to play
//   sheets.js    the sheets between hands and at the end
//   tools.js     the top bar's sound and download

import { translatePage } from "./i18n.js";
import { tick, tickNext } from "./table/clock.js";
import { fitHand } from "./table/hand.js";
import { onHandFocus, onKey } from "./table/keys.js";
import { boot } from "./table/live.js";
import { toast } from "./table/messages.js";
import { draw, send } from "./table/moves.js";
import { closeSide, openSide, showPanel, TABS } from "./table/side.js";
import { explainOn, hideTip, tapped } from "./table/tips.js";
import { downloadRecord, toggleSound } from "./table/tools.js";
import { render } from "./table/view.js";
import { $, pageDoes } from "./table/state.js";

// The page's own words in the reader's language (i18n.js: table.html's data-i18n), before anything is drawn.
translatePage();

// What a renderer may have the page do for the seat (T.send, T.draw...: render.js).
pageDoes({ send, draw, render, toast, explainOn, tapped });

setInterval(tick, 200);
setInterval(tickNext, 250);

// -- the side panel (a drawer on a phone) and the top bar's tools ----------------------------

for (const tab of TABS) $(`tab-${tab}`).addEventListener("click", () => showPanel(tab));
$("open-scores").addEventListener("click", () => openSide("scores"));
$("open-fair").addEventListener("click", () => openSide("fair"));
$("open-help").addEventListener("click", () => openSide("help"));
$("close-side").addEventListener("click", closeSide);
$("sound").addEventListener("click", toggleSound);
$("download-record").addEventListener("click", downloadRecord);

// -- the keyboard, the window ----------------------------------------------------------------

$("hand").addEventListener("focusin", onHandFocus);
document.addEventListener("keydown", onKey);
window.addEventListener("resize", fitHand);
window.addEventListener("scroll", hideTip, { passive: true });

boot();
