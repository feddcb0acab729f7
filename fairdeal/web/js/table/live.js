// The connection: the page's start (the record so far, the seat's view, the game's renderer),
// then the record and the views the server sends, followed live and applied in order.
//
// Record lines and views (from the stream, a move's answer, a fetch) go through one queue. A
// line is applied to the page as it stands and may start cards moving; what arrives meanwhile
// waits. A view is shown only once the lines it holds have been applied: a move's answer comes
// back before the stream's lines that lead to it, and the card must fly before it lies there.

import { ApiError } from "../api.js";
import { catalogue, entryOf, rendererOf } from "../catalogue.js";
import { t } from "../i18n.js";
import { clearLanded, motionOn, tableMotion, FLIGHT_MS, UpdateQueue } from "../motion.js";
import { sounds } from "../sound.js";
import { el, fill } from "../ui.js";
import { fetchPublicLog, renderFair } from "./fair.js";
import { describeLine, handEndText, log, moveWords, toast } from "./messages.js";
import { seedStep } from "./seeding.js";
import { say } from "./speak.js";
import { showSound } from "./tools.js";
import { render } from "./view.js";
import { $, addLine, api, game, gameId, hearLine as heard, holdAhead, landed, me, myTurn, noteTurnAndHand, setGame, setRecord, T, takeAhead, takeView, ui } from "./state.js";

const updates = new UpdateQueue();
let aheadTimer = null;
let othersMoved = false; // another seat moved since this seat's turn was last said
// The cards a record line moves, from the page as it stands (before the view that holds the move).
const moveCards = tableMotion({ me, hooks: () => game.hooks, T, leaving: ui.leaving });

/** A new view (from anywhere): shown after the updates before it, and after the lines it holds. */
export function setView(view) {
  if (!view) return;
  if (view.seq > ui.heard) {
    holdAhead(view);
    // The stream brings the lines at once; if it cannot (reconnecting), the view is shown anyway.
    clearTimeout(aheadTimer);
    aheadTimer = setTimeout(() => releaseAhead(true), 2500);
    return;
  }
  updates.push(() => showView(view));
}

function releaseAhead(anyway = false) {
  if (!ui.ahead || (!anyway && ui.ahead.seq > ui.heard)) return;
  const view = takeAhead();
  clearTimeout(aheadTimer);
  updates.push(() => showView(view));
}

/** A record line from the stream: applied after the updates before it. */
function hearLine(line) {
  if (!heard(line)) return; // already heard (a reconnect resends nothing older)
  updates.push(() => onLine(line, updates.waiting));
  releaseAhead();
}

// -- the view ---------------------------------------------------------------------

function showView(view) {
  if (!view) return;
  if (!takeView(view)) return; // an older answer overtaken by the live stream
  // The seat's turn begins (or comes back to it after the others moved, which bots that answer
  // at once do inside the seat's own move): a chime, and the words in the live region.
  if (noteTurnAndHand(view) || (othersMoved && myTurn())) {
    sounds.turn();
    say(t("table.your_turn_said"));
  }
  if (myTurn()) othersMoved = false;
  seedStep();
  landed();
  render();
  clearLanded(); // the cards that flew lie in the view now
}

// -- the record, followed live ------------------------------------------------------

/** Apply a record line; its cards move (a promise) unless `behind` updates wait after it (catching up). */
function onLine(line, behind = 0) {
  if (!addLine(line)) return; // already seen (a reconnect resends nothing older)
  const text = describeLine(line);
  if (text) {
    log(text, { mine: line.seat === me && line.type === "move" }); // and said (speak.js)
  }
  if (line.type === "move") {
    if (line.seat !== me) othersMoved = true;
    if (line.move === "play" && line.seat !== me) sounds.play();
    if (line.move === "draw" && line.seat !== me) sounds.draw();
    if (line.auto && line.seat === me) toast(t("table.time_ran_out", { move: moveWords(line) }), { ms: 5000 });
  }
  // A table that pauses between hands says it on its sheet; one that deals at once, in a message.
  if (line.type === "hand-end" && !(ui.view?.next_hand_seconds > 0)) toast(handEndText(line), { ms: 5000 });
  renderFair();
  // Cards move only for a line the shown view does not hold yet, and not while catching up.
  if (ui.view && line.seq >= ui.view.seq && behind < 12 && motionOn()) return moveCards(line, behind > 3 ? FLIGHT_MS / 2 : FLIGHT_MS);
}

// -- starting up ------------------------------------------------------------------------

async function loadRecord() {
  let lines;
  try {
    const text = await api.record();
    lines = text
      .split("\n")
      .filter((raw) => raw.trim())
      .map((raw) => JSON.parse(raw));
  } catch {
    lines = [];
  }
  setRecord(lines);
}

/** The game's catalogue entry and its renderer module, picked by the entry's `renderer`. */
async function loadGame(name) {
  const entry = entryOf(await catalogue(), name);
  if (!entry) throw new Error(t("table.not_in_list", { name }));
  setGame(entry, (await rendererOf(entry)).default);
}

/** Start the page: the record so far, the view, the game; then follow the game live. */
export async function boot() {
  showSound();
  if (!gameId) {
    fill($("status"), t("table.no_game"), " ", el("a", { href: "/" }, t("table.open_a_table")));
    return;
  }
  try {
    await loadRecord();
    const view = await api.view();
    await loadGame(view.rules);
    // The log's last lines, in the game's words.
    for (const line of ui.record.slice(-12)) {
      const words = describeLine(line);
      if (words) log(words, { quiet: true });
    }
    setView(view);
    fetchPublicLog();
  } catch (error) {
    document.body.dataset.phase = "error";
    const why = error instanceof ApiError && error.status === 404 ? t("table.no_such_game") : error instanceof ApiError && (error.status === 401 || error.status === 403) ? t("table.bad_key") : error.message;
    $("game-title").textContent = t("table.unavailable");
    fill($("status"), why, " ", el("a", { href: "/" }, t("table.open_new_table")));
    return;
  }
  api.follow(
    (event) => {
      if (event.event === "line") hearLine(JSON.parse(event.data));
      else if (event.event === "view" || event.event === "state") setView(event.parsed ?? JSON.parse(event.data));
    },
    {
      from: ui.record.length,
      onStatus: (status) => {
        document.body.dataset.live = status;
        if (status === "reconnecting") $("status").textContent = t("table.reconnecting");
      },
    },
  );
}
