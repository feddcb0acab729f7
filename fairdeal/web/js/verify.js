// The verify page: load a record (a file, pasted text, or ?game=ID from the server), check it in
// this browser with fairdeal's own Python verifier (Pyodide, in verify-worker.js), and show what it
// found. The record goes to the worker only: never to a server, and no server gives the verdict.

import { entryOf, rendererOf } from "./catalogue.js";
import { cardFace, cardRow, el, fill, saveFile, seatName } from "./ui.js";
import { display } from "./cards.js";
import { replayLink } from "./replay-link.js";
import { checkRecordLog, witnessesOf, witnessWords } from "./publiclog.js";

const HAS_WEB_CRYPTO = Boolean(globalThis.crypto?.subtle);

// The engine: one worker for the page's life, loaded on the first call.
const worker = new Worker(new URL("./verify-worker.js", import.meta.url), { type: "module" });
const pending = new Map();
let nextId = 1;
worker.onmessage = (event) => {
  const { id, result, error } = event.data;
  const waiter = pending.get(id);
  pending.delete(id);
  if (waiter) error === undefined ? waiter.resolve(result) : waiter.reject(new Error(error));
};
worker.onerror = (event) => {
  for (const waiter of pending.values()) waiter.reject(new Error(event.message || "the verifier's worker failed to start"));
  pending.clear();
};

/** Call a whitelisted engine function in the worker (verify-worker.js's CALLS). */
export function engineCall(call, ...args) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, call, args });
  });
}
globalThis.fairdealEngine = engineCall;

/** The record's text, from a string or a file's bytes (the verifier reads text). */
function asText(data) {
  if (typeof data === "string") return data;
  return new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(data);
}

/** The engine's verify call for a string, or for a file's bytes: those that are not UTF-8 go as
 * they are (base64), so the verifier says what fairdeal-verify says of the same file. */
function verifyCall(data, key) {
  if (typeof data === "string") return engineCall("verify", data, null, key);
  try {
    // ignoreBOM keeps a byte order mark in the text, as Python's decoding does: it is not a record.
    return engineCall("verify", new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(data), null, key);
  } catch {
    let binary = "";
    for (const byte of data) binary += String.fromCharCode(byte);
    return engineCall("verify_bytes", btoa(binary), null, key);
  }
}

/** A format 2 header's timing, in words: the turn the verifier checked every auto-move against. */
function timingText(timing) {
  const seconds = (ms) => `${(ms / 1000).toLocaleString("en", { maximumFractionDigits: 3 })} s`;
  return `${seconds(timing.turn_ms)} a turn (every move the timer made checked against it), bots ${seconds(timing.bot_ms)}, ` +
    `a pause between hands up to ${seconds(timing.next_hand_ms)}`;
}

/** The page's model of a report: fairdeal-verify --json's object, with the header's facts the page shows. */
function pageReport(answer, key) {
  const report = { ...answer.report, ...answer.facts, json: answer.report, text: answer.text };
  report.key_pinned = key !== null;
  return report;
}

let games = null;
/** The catalogue entry of the game `name`, from the engine's own catalogue (no server needed). */
async function gameOf(name) {
  games ??= await engineCall("catalogue");
  const entry = typeof name === "string" ? entryOf(games, name) : null;
  return { entry };
}

const verdict = document.getElementById("verdict");
const reportBox = document.getElementById("report");

// The game the record is of: its catalogue entry (title, unit) and its module's words for the report.
let game = { entry: null, words: {} };

/** The catalogue entry and the report words (`verifyWords` of js/games/<module>.js) of the game named `name`. */
async function loadGame(name) {
  try {
    const { entry } = await gameOf(name);
    game = { entry, words: entry ? ((await rendererOf(entry, { styles: false })).verifyWords ?? {}) : {} };
  } catch {
    game = { entry: null, words: {} };
  }
}

const title = (report) => game.entry?.title ?? String(report.rules);
const unit = () => game.entry?.unit ?? "points";

/** A button that saves the record this page checked, exactly as it was loaded. */
function downloadOffer(data, filename) {
  return el("p", { class: "record-download" }, el("button", { type: "button", class: "secondary", id: "download-record", onclick: () => saveFile(data, filename) }, "Download record"));
}

async function check(text, source, { key = null, filename = "record.jsonl" } = {}) {
  document.body.dataset.verdict = "working";
  fill(verdict, el("div", { class: "verdict working" }, el("span", { class: "mark", "aria-hidden": "true" }, "⏳"), el("div", {}, el("strong", {}, "Checking…"), el("span", { class: "detail" }, source))));
  fill(reportBox);
  let answer;
  try {
    if (!HAS_WEB_CRYPTO) throw new Error("this page needs Web Crypto (https, or this computer's localhost)");
    answer = await verifyCall(text, key);
  } catch (error) {
    fill(verdict, el("div", { class: "verdict bad", id: "verdict-box" }, el("span", { class: "mark", "aria-hidden": "true" }, "✘"), el("div", {}, el("strong", {}, "NOT VERIFIED"), el("span", { class: "detail", id: "failure" }, `the verifier could not run: ${error.message}`))));
    document.body.dataset.verdict = "failed";
    return null;
  }
  showEngine();
  if (answer.report === null) {
    fill(verdict, el("div", { class: "verdict bad", id: "verdict-box" }, el("span", { class: "mark", "aria-hidden": "true" }, "✘"), el("div", {}, el("strong", {}, "NOT VERIFIED"), el("span", { class: "detail", id: "failure" }, answer.error))));
    document.body.dataset.verdict = "failed";
    globalThis.fairdealLastReport = { json: null, error: answer.error, text: "" };
    verdict.append(downloadOffer(text, filename));
    return null;
  }
  const report = pageReport(answer, key);
  globalThis.fairdealLastReport = report;
  await loadGame(report.rules);
  showVerdict(report, source);
  verdict.append(downloadOffer(text, filename));
  // A verified game's hands can be stepped through, move by move, with every card face up.
  if (report.verified && report.kind !== "session" && report.hands.length) verdict.append(el("p", { class: "replay-offer" }, replayLink(asText(text))));
  showReport(report);
  document.body.dataset.verdict = report.verified ? "verified" : "failed";
  return report;
}

let engineShown = false;
/** The engine bundle the verdict came from: its SHA-256, which anyone can rebuild and compare. */
async function showEngine() {
  if (engineShown) return;
  engineShown = true;
  const info = await engineCall("engine");
  const box = document.getElementById("engine");
  fill(
    box,
    el("span", {}, "Checked by fairdeal's own verifier ", el("span", { class: "mono" }, `v${info.version}`), ` (Python ${info.python} in Pyodide ${info.pyodide}), engine bundle SHA-256 `),
    el("code", { class: "mono", id: "engine-sha" }, info.sha256),
  );
  box.hidden = false;
}

function showVerdict(report, source) {
  let box;
  if (report.verified && report.kind === "session") {
    const n = report.shuffles.length;
    box = verdictBox(true, el("span", { class: "detail" }, `A dealing session: ${n} shuffle${n === 1 ? "" : "s"}, each derived below from the seeds. Whoever knows the operator's game can check its cards against them. (${source})`));
  } else if (report.verified) {
    const hands = report.hands.length;
    box = verdictBox(true, el("span", { class: "detail" }, `Every card of ${hands} hand${hands === 1 ? "" : "s"} follows from the seeds, every move is legal and every score adds up. (${source})`));
  } else {
    const where = report.error?.line ? `line ${report.error.line}: ` : "";
    box = verdictBox(
      false,
      el("span", { class: "detail plain", id: "failure-words" }, plainWords(report.error?.reason ?? "")),
      el("span", { class: "detail", id: "failure" }, `${where}${report.error?.reason ?? "unknown failure"}`),
    );
  }
  fill(verdict, box);
}

/** The verdict's box: its mark and its word, VERIFIED or NOT VERIFIED, then the details given. */
function verdictBox(ok, ...details) {
  return el(
    "div",
    { class: `verdict ${ok ? "ok" : "bad"}`, id: "verdict-box" },
    el("span", { class: "mark", "aria-hidden": "true" }, ok ? "✔" : "✘"),
    el("div", {}, el("strong", {}, ok ? "VERIFIED" : "NOT VERIFIED"), ...details),
  );
}

/**
 * What a failure means to a player, said before the verifier's own words (which keep the
 * technical detail, as fairdeal-verify prints them): the chain's faults are a record changed after
 * it was signed; any other is a line the rules or the seeds do not give.
 */
function plainWords(reason) {
  if (/^bad signature|^sig is not/.test(reason)) return "This record was changed after the server signed it.";
  if (/^prev does not match|^sequence number/.test(reason)) return "A line of this record was changed, added or taken out after the server wrote it.";
  if (/is not signed$/.test(reason)) return "Part of this record was never signed by the server: it may have been changed or cut short.";
  if (/not a header|no game id|server_key/.test(reason)) return "This file does not begin as a game's record does.";
  return "This record does not match what the seeds and the rules give: something in it was changed.";
}

function seatLabel(report, s) {
  return seatName(report.seats[s], s);
}

function plainName(report, s) {
  return report.seats[s]?.name ?? `seat ${s}`;
}

function showReport(report) {
  const parts = [];
  if (report.game_id !== null) parts.push(factsPanel(report));
  report.hands.forEach((hand) => parts.push(handPanel(report, hand)));
  if (report.kind === "session" && report.shuffles?.length) parts.push(shufflesPanel(report));
  if (report.standings) parts.push(standingsPanel(report));
  if (report.game_id !== null) parts.push(checkedPanel(report));
  fill(reportBox, parts);
}

function factsPanel(report) {
  const options = report.options && typeof report.options === "object" ? Object.entries(report.options).map(([k, v]) => `${k} ${v}`).join(", ") : "";
  const rows = report.seats.map((seat, s) => {
    const seed = report.client_seeds ? report.client_seeds[s] : null;
    return el(
      "tr",
      {},
      el("td", {}, seatLabel(report, s), report.first_dealer === s ? el("span", { class: "badge", title: "dealt first" }, "first dealer") : null),
      el("td", { class: "mono" }, seed === null ? "—" : seed === "" ? el("span", { class: "hint" }, "none (empty seed)") : JSON.stringify(seed)),
    );
  });
  return el(
    "section",
    { class: "panel", "aria-labelledby": "facts-title" },
    el("h2", { id: "facts-title" }, report.kind === "session" ? "The session" : "The game"),
    el(
      "dl",
      { class: "facts" },
      el("dt", {}, report.kind === "session" ? "Session" : "Game"),
      el("dd", { class: "mono" }, report.game_id),
      el("dt", {}, report.kind === "session" ? "Kind" : "Rules"),
      report.kind === "session"
        ? el("dd", {}, "A dealing session", report.label_prefix ? el("span", { class: "hint" }, ` (labels start with ${report.label_prefix})`) : null)
        : el("dd", {}, title(report), options ? el("span", { class: "hint" }, ` (${options})`) : null),
      // Format 2: the table's timer, every auto-move checked against it (the report gives it).
      report.timing ? el("dt", {}, "Timer") : null,
      report.timing ? el("dd", { id: "timing" }, timingText(report.timing)) : null,
      el("dt", {}, "Signed by"),
      el("dd", { class: "mono", id: "server-key" }, report.server_key ?? "—", report.key_pinned && !report.error ? el("span", { class: "check" }, " ✔ this server's published key") : null),
      el("dt", {}, "Fingerprint shown at the start"),
      el("dd", { class: "mono", id: "commitment" }, report.commitment ?? "—"),
      el("dt", {}, "Server seed revealed at the end"),
      el(
        "dd",
        { class: "mono", id: "server-seed" },
        report.server_seed ?? (report.error ? "—" : "not revealed"),
        report.server_seed ? el("span", { class: "check", title: "its SHA-256 is the fingerprint" }, " ✔ matches") : null,
      ),
    ),
    el("table", { class: "seats" }, el("thead", {}, el("tr", {}, el("th", {}, "Seat"), el("th", {}, "Client seed"))), el("tbody", {}, rows)),
  );
}

function shufflesPanel(report) {
  return el(
    "section",
    { class: "panel", "aria-labelledby": "shuffles-title" },
    el("h2", { id: "shuffles-title" }, "Shuffles"),
    el("p", { class: "hint" }, "The record keeps each request (its label and cards), never the order dealt; here is that order, derived from the seeds, top first."),
    el(
      "ol",
      { class: "shuffles", id: "shuffles" },
      report.shuffles.map((s) =>
        el(
          "li",
          { "data-label": s.label },
          el("h3", {}, el("code", {}, s.label), el("span", { class: "hint" }, ` ${s.count} card${s.count === 1 ? "" : "s"}`)),
          s.order ? cardRow(s.order) : el("p", { class: "hint" }, "The order follows once the server seed is revealed."),
          el("details", {}, el("summary", {}, "The cards asked for, in the order given"), cardRow(s.cards)),
        ),
      ),
    ),
  );
}

function handPanel(report, hand) {
  const n = report.seats.length;
  const winners = new Set(hand.result?.winners ?? []);
  // What a hand's scores count (the catalogue's unit), and what its counts are: cards, or their points.
  const scoreLabel = { chips: "Chips", counters: "Counters", deals: "Won" }[unit()] ?? "Score";
  const leftLabel = game.words.leftLabel ?? (unit() === "points" ? "Left (points)" : "Cards left");
  // Cards dealt to no seat: Michigan's extra hand, Commit's stops.
  const aside = (label, cards, id, note) =>
    el(
      "tr",
      { class: "aside", "data-aside": id },
      el("th", { scope: "row", class: "who" }, label),
      el("td", { class: "dealt" }, cardRow(cards), note ? el("span", { class: "hint" }, ` ${note}`) : null),
      el("td", { class: "num" }),
      el("td", { class: "num" }),
      el("td", { class: "num" }),
    );
  const extras = [];
  if (hand.extra) extras.push(aside("Extra hand", hand.extra, "extra", extraNote(report, hand)));
  if (hand.stops) extras.push(aside("Stops (face down)", hand.stops, "stops", null));
  const rows = hand.deal.map((cards, s) =>
    el(
      "tr",
      { class: winners.has(s) ? "winner" : null },
      el("th", { scope: "row", class: "who" }, seatLabel(report, s), hand.dealer === s ? el("span", { class: "badge", title: "the dealer" }, "D") : null),
      el("td", { class: "dealt" }, cardRow(cards)),
      el("td", { class: "num", "data-label": leftLabel }, hand.result ? String(hand.result.counts[s]) : ""),
      el("td", { class: "num", "data-label": scoreLabel }, hand.scores ? String(hand.scores[s]) : ""),
      el("td", { class: "num", "data-label": "Total" }, hand.totals ? String(hand.totals[s]) : ""),
    ),
  );
  const starter = hand.starter
    ? el(
        "div",
        { class: "starter" },
        el("span", {}, "Starter:"),
        cardFace(hand.starter),
        hand.turned?.length > 1
          ? el("span", { class: "hint" }, `(${hand.turned.slice(0, -1).map(display).join(", ")} turned first and went back into the middle of the stock)`)
          : null,
      )
    : null;
  const count = hand.restocks?.length ?? 0;
  const restocks = count
    ? el(
        "details",
        { class: "restocks" },
        el("summary", {}, game.words.restockSummary?.(count) ?? `The stock ran out ${count === 1 ? "once" : `${count} times`}: each time the pile under its top card became a new stock, shuffled from the seeds`),
        el(
          "ol",
          {},
          hand.restocks.map((r) => el("li", {}, el("span", { class: "hint" }, `Restock ${r.restock}, ${r.stock.length} card${r.stock.length === 1 ? "" : "s"}, top first: `), cardRow(r.stock))),
        ),
      )
    : null;
  return el(
    "section",
    { class: "panel hand", "aria-labelledby": `hand-${hand.hand}`, "data-hand": hand.hand },
    el(
      "div",
      { class: "hand-head" },
      el("h2", { id: `hand-${hand.hand}` }, `Hand ${hand.hand}`),
      el("span", { class: "hint" }, `dealt by ${plainName(report, hand.dealer)}, one card at a time from the dealer's left`),
      // Format 2: when the server wrote the hand's deal and its end (UTC, as the record has them).
      hand.dealt_at ? el("span", { class: "hint hand-times" }, ` · dealt ${hand.dealt_at}, ended ${hand.ended_at}`) : null,
    ),
    el(
      "table",
      { class: "deal" },
      el(
        "thead",
        {},
        el("tr", {}, el("th", {}, "Seat"), el("th", {}, "Dealt"), el("th", { class: "num" }, leftLabel), el("th", { class: "num" }, scoreLabel), el("th", { class: "num" }, "Total")),
      ),
      el("tbody", {}, rows, extras),
    ),
    packNote(report, hand),
    hand.layout ? layoutLine(hand.layout) : null,
    starter,
    // What else a game shows of a hand (a secret rule, revealed and checked, and the layout it made).
    game.words.handMore?.(report, hand, (s) => plainName(report, s)) ?? null,
    restocks,
    hand.result ? el("p", { class: "result-line" }, resultText(report, hand, n)) : null,
  );
}

/** Who played Michigan's extra hand. */
function extraNote(report, hand) {
  if (!hand.exchange) return "(dead: nobody took it)";
  const who = plainName(report, hand.exchange.seat);
  return hand.exchange.price ? `(${who} bought it for ${hand.exchange.price}; that seat's own hand was dead)` : `(${who} took it; that seat's own hand was dead)`;
}

/** How the pack was made up and dealt, where the game says more than "one card at a time". */
function packNote(report, hand) {
  const note = game.words.packNote?.(report, hand);
  if (note) return el("p", { class: "hint pack-note" }, note);
  if (hand.extra) return el("p", { class: "hint pack-note" }, "The extra hand is dealt at the dealer's left as one more player: it gets the first card.");
  return null;
}

/** Counters left on Michigan's layout cards after the deal. */
function layoutLine(layout) {
  return el(
    "p",
    { class: "layout-line" },
    "Counters left on the layout: ",
    Object.entries(layout).map(([code, n], i) => [i ? ", " : "", `${display(code)} ${n}`]).flat(),
  );
}

function resultText(report, hand) {
  const names = hand.result.winners.map((s) => plainName(report, s));
  const score = hand.scores[hand.result.winners[0]];
  const own = game.words.resultText?.(report, hand, names);
  if (own) return own;
  if (hand.result.how === "out" && unit() !== "points") return `${names[0]} went out.`;
  if (hand.result.how === "out") return `${names[0]} went out and scores ${score}.`;
  const list = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names[0];
  return `Blocked: ${list} held the lowest count and score${names.length > 1 ? " " + score + " each" : "s " + score}.`;
}

function standingsPanel(report) {
  const placeWord = (p) => ["", "1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th"][p] ?? `${p}th`;
  return el(
    "section",
    { class: "panel", "aria-labelledby": "standings-title" },
    el("h2", { id: "standings-title" }, "Final standings"),
    el(
      "table",
      { class: "standings", id: "standings" },
      el("thead", {}, el("tr", {}, el("th", {}, "Place"), el("th", {}, "Seat"), el("th", { class: "num" }, "Total"))),
      el(
        "tbody",
        {},
        report.standings.map((row) =>
          el("tr", { class: `place-${row.place}` }, el("td", {}, placeWord(row.place) + (report.standings.filter((r) => r.place === row.place).length > 1 ? " (shared)" : "")), el("td", {}, seatLabel(report, row.seat)), el("td", { class: "num" }, String(row.total))),
        ),
      ),
    ),
  );
}

function checkedPanel(report) {
  const items = [
    "The hash chain links every line to the one before it, and the server's Ed25519 signatures hold.",
    "SHA-256 of the revealed server seed is the fingerprint published before any player's seed.",
    "Every player's seed matches the commitment that player sent before any seed was revealed.",
    "The draw for the first dealer, every deal, every starter and every new stock are dealt again here from the seeds (fairness protocol v1).",
  ];
  if (report.kind === "session") {
    items.splice(3, 1, "Every shuffle request is well formed and signed, and its order is dealt again here from the seeds (fairness protocol v1).");
  } else {
    items.push("Every move is replayed through the rules; every hand's end, score, chip and counter, and every total, is recomputed and compared with the record.");
  }
  items.push("All of it by fairdeal's own Python verifier (the code fairdeal-verify runs), in this browser; signatures by the browser's Web Crypto. The record is sent nowhere.");
  return el(
    "section",
    { class: "panel", "aria-labelledby": "checked-title" },
    el("h2", { id: "checked-title" }, "What this page checks"),
    report.error ? el("p", {}, `In this order, line by line; it stopped at the first fault, line ${report.error.line}. The hands above are the ones the seeds and the rules give up to there.`) : null,
    el("ul", { class: "checked-list" }, items.map((t) => el("li", {}, t))),
    el("p", { class: "hint" }, "It does not show that the operator kept the cards secret while the game ran: nobody could choose them, but the server could see them."),
    report.text ? el("details", { class: "cli-report" }, el("summary", {}, "The report fairdeal-verify prints for this record"), el("pre", { id: "cli-report" }, report.text)) : null,
  );
}

/**
 * For a game this server holds: its entries in the server's public log and the witnesses that
 * cosigned the checkpoint, each checked here (publiclog.js) against the record's own server key.
 */
async function logPanel(gameId, text) {
  const heading = el("h2", { id: "log-title" }, "In the public log");
  const panel = (state, ...lines) => el("section", { class: "panel", id: "log-panel", "data-state": state, "aria-labelledby": "log-title" }, heading, ...lines);
  let header;
  try {
    header = JSON.parse(text.slice(0, text.indexOf("\n")));
  } catch {
    return panel("failed", el("p", { class: "error" }, "The record's header could not be read."));
  }
  let log, info;
  try {
    [log, info] = await Promise.all([`/games/${encodeURIComponent(gameId)}/log`, "/.well-known/fairdeal-log"].map(async (path) => {
      const answer = await fetch(path, { headers: { Accept: "application/json" } });
      if (!answer.ok) throw new Error(`${path}: HTTP ${answer.status}`);
      return answer.json();
    }));
  } catch (error) {
    return panel("missing", el("p", { class: "hint", id: "log-status" }, `The server's public log could not be read (${error.message}): a game from before the log has no entry.`));
  }
  const result = await checkRecordLog(log, header.server_key, { id: gameId, kind: "game", rules: header.rules, commitment: header.commitment });
  if (!result.ok) return panel("failed", el("p", { class: "error", id: "log-status" }, `Not confirmed in the public log: ${result.error}.`));
  const witnessed = await witnessesOf(result.checkpoint.note, info.witnesses ?? []).catch((error) => ({ error: error.message }));
  const entries = result.entries.map((e) => (e.type === "end" ? `its end (${e.entry.how}), entry ${e.index}` : `its start, entry ${e.index}`));
  return panel(
    "ok",
    el("p", { id: "log-status" }, `Announced in the log ${result.checkpoint.origin}: ${entries.join("; ")} of ${result.checkpoint.size}, each proved against the checkpoint the server signed with this record's key.`),
    witnessed ? el("p", { id: "log-witnesses", class: witnessed.error ? "error" : "hint" }, witnessWords(witnessed)) : el("p", { class: "hint", id: "log-witnesses" }, "This log names no witnesses."),
  );
}

// -- loading ---------------------------------------------------------------

async function fromFile(file) {
  if (!file) return;
  await check(new Uint8Array(await file.arrayBuffer()), file.name, { filename: file.name });
}

const fileInput = document.getElementById("file");
fileInput.addEventListener("change", () => fromFile(fileInput.files[0]));

const drop = document.getElementById("drop");
drop.addEventListener("dragover", (event) => {
  event.preventDefault();
  drop.classList.add("over");
});
drop.addEventListener("dragleave", () => drop.classList.remove("over"));
drop.addEventListener("drop", (event) => {
  event.preventDefault();
  drop.classList.remove("over");
  fromFile(event.dataTransfer.files[0]);
});

document.getElementById("paste-go").addEventListener("click", () => check(document.getElementById("paste").value, "pasted record"));

async function fromServer(gameId) {
  const source = `game ${gameId} from this server`;
  try {
    const response = await fetch(`/games/${encodeURIComponent(gameId)}/record`, { headers: { Accept: "application/x-ndjson" } });
    if (!response.ok) {
      fill(verdict, el("div", { class: "verdict bad" }, el("span", { class: "mark", "aria-hidden": "true" }, "✘"), el("div", {}, el("strong", {}, "NO RECORD"), el("span", { class: "detail", id: "failure" }, `The server has no record for game ${gameId} (HTTP ${response.status}).`))));
      document.body.dataset.verdict = "failed";
      return;
    }
    // Pin the key this server publishes: a record signed by any other key is not its record.
    let key = null;
    try {
      const published = await fetch("/.well-known/fairdeal-key", { headers: { Accept: "application/json" } });
      if (published.ok) key = (await published.json()).key ?? null;
    } catch {
      key = null;
    }
    const data = new Uint8Array(await response.arrayBuffer());
    const report = await check(data, source, { key, filename: `${gameId}.jsonl` });
    if (report && report.kind !== "session") reportBox.append(await logPanel(gameId, asText(data)));
  } catch (error) {
    fill(verdict, el("div", { class: "verdict bad" }, el("strong", {}, "Could not load the record"), el("span", { class: "detail" }, String(error))));
    document.body.dataset.verdict = "failed";
  }
}

if (!HAS_WEB_CRYPTO) {
  fill(verdict, el("div", { class: "verdict partial" }, el("span", { class: "mark", "aria-hidden": "true" }, "!"), el("div", {}, el("strong", {}, "Open this page over https"), el("span", { class: "detail" }, "Browsers give signature checks (Web Crypto) only to secure pages: https, or this computer's localhost."))));
}

const gameId = new URLSearchParams(location.search).get("game");
if (gameId) fromServer(gameId);
else document.body.dataset.verdict = "idle";

// For people who want to poke at it from the console.
globalThis.fairdealVerify = (text) => check(text, "console");
