// The verify page: load a record (a file, pasted text, or ?game=ID from the server), check it in
// this browser with fairdeal's own Python verifier (Pyodide, in verify-worker.js), and show what it
// found. The record goes to the worker only: never to a server, and no server gives the verdict.
//
// The page's words are the catalogue's (i18n.js, keys "verify.*"), in the reader's language. What
// the Python verifier writes, its report text and its failure reasons, stays as fairdeal-verify
// prints it: a document, in English, the same on every page and in every terminal.

import { catalogue, entryOf, rendererOf } from "./catalogue.js";
import { lang, t, translatePage, withNodes } from "./i18n.js";
import { cardFace, cardRow, el, fill, saveFile, seatName } from "./ui.js";
import { display } from "./cards.js";
import { replayLink } from "./replay-link.js";
import { checkRecordLog, witnessesOf, witnessWords } from "./publiclog.js";

const HAS_WEB_CRYPTO = Boolean(globalThis.crypto?.subtle);

/** "Ann, Bob and Cy". */
function listWords(names) {
  return names.length > 1 ? t("verify.and", { rest: names.slice(0, -1).join(", "), last: names.at(-1) }) : (names[0] ?? "");
}

translatePage();
fill(document.getElementById("intro"), withNodes("verify.intro", { command: el("code", {}, "fairdeal-verify") }));
fill(document.getElementById("drop-hint"), withNodes("verify.drop_hint", { file: el("code", {}, ".jsonl") }));

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
  for (const waiter of pending.values()) waiter.reject(new Error(event.message || t("verify.worker_failed")));
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
 * they are (base64), so the verifier says what fairdeal-verify says of the same file. The page's
 * language goes with it: the verifier words its reasons in it (`words`; the report stays the CLI's). */
function verifyCall(data, key) {
  if (typeof data === "string") return engineCall("verify", data, null, key, lang);
  try {
    // ignoreBOM keeps a byte order mark in the text, as Python's decoding does: it is not a record.
    return engineCall("verify", new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(data), null, key, lang);
  } catch {
    let binary = "";
    for (const byte of data) binary += String.fromCharCode(byte);
    return engineCall("verify_bytes", btoa(binary), null, key, lang);
  }
}

/** A format 2 header's timing, in words: the turn the verifier checked every auto-move against. */
function timingText(timing) {
  const seconds = (ms) => t("verify.seconds", { n: (ms / 1000).toLocaleString(lang, { maximumFractionDigits: 3 }) });
  return t("verify.timing", { turn: seconds(timing.turn_ms), bot: seconds(timing.bot_ms), pause: seconds(timing.next_hand_ms) });
}

/**
 * The page's model of a report: fairdeal-verify --json's object, with the header's facts the page
 * shows, and what the verifier wrote for people in the page's language (the failure's reason, each
 * hand's: `answer.words`) where the report has it in English.
 */
function pageReport(answer, key) {
  const words = answer.words ?? {};
  const hands = (answer.report.hands ?? []).map((hand, i) => (hand.result && words.hands?.[i] ? { ...hand, result: { ...hand.result, reason: words.hands[i] } } : hand));
  const error = answer.report.error && words.reason ? { ...answer.report.error, reason: words.reason } : answer.report.error;
  const report = { ...answer.report, ...answer.facts, hands, error, json: answer.report, text: answer.text };
  report.key_pinned = key !== null;
  return report;
}

let games = null;
let served = location.pathname === "/verify"; // by a fairdeal server, not a static copy (fairdeal export-verifier)
/**
 * The catalogue entry of the game `name`: the server's (GET /rules?lang=, the games' words in the
 * page's language) when a fairdeal server serves the page, else, or when it fails, the engine's own
 * (English; no server needed).
 */
async function gameOf(name) {
  if (typeof name !== "string") return { entry: null };
  if (served) {
    try {
      const entry = entryOf(await catalogue(), name);
      if (entry) return { entry };
    } catch {
      served = false; // no catalogue from this server: the engine's from now on
    }
  }
  games ??= await engineCall("catalogue", lang);
  return { entry: entryOf(games, name) };
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

/** The verdict's word, as the page shows it. */
const verdictWord = (ok) => (ok ? t("verify.verified") : t("verify.not_verified"));

/** A button that saves the record this page checked, exactly as it was loaded. */
function downloadOffer(data, filename) {
  return el("p", { class: "record-download" }, el("button", { type: "button", class: "secondary", id: "download-record", onclick: () => saveFile(data, filename) }, t("verify.download")));
}

/** Check a record and show the verdict, brought into sight (on a phone it lies under the file box). */
async function check(text, source, options = {}) {
  try {
    return await checkRecord(text, source, options);
  } finally {
    const box = verdict.getBoundingClientRect();
    if (box.top < 0 || box.bottom > innerHeight) verdict.scrollIntoView({ block: "start" });
  }
}

async function checkRecord(text, source, { key = null, filename = "record.jsonl" } = {}) {
  document.body.dataset.verdict = "working";
  fill(verdict, el("div", { class: "verdict working" }, el("span", { class: "mark", "aria-hidden": "true" }, "⏳"), el("div", {}, el("strong", {}, t("verify.checking")), el("span", { class: "detail" }, source))));
  fill(reportBox);
  let answer;
  try {
    if (!HAS_WEB_CRYPTO) throw new Error(t("verify.needs_web_crypto"));
    answer = await verifyCall(text, key);
  } catch (error) {
    fill(verdict, el("div", { class: "verdict bad", id: "verdict-box" }, el("span", { class: "mark", "aria-hidden": "true" }, "✘"), el("div", {}, el("strong", {}, verdictWord(false)), el("span", { class: "detail", id: "failure" }, t("verify.could_not_run", { reason: error.message })))));
    document.body.dataset.verdict = "failed";
    return null;
  }
  showEngine();
  if (answer.report === null) {
    // The verifier's own words for a file that is no record (as fairdeal-verify prints them).
    fill(verdict, el("div", { class: "verdict bad", id: "verdict-box" }, el("span", { class: "mark", "aria-hidden": "true" }, "✘"), el("div", {}, el("strong", {}, verdictWord(false)), el("span", { class: "detail", id: "failure" }, answer.error))));
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
  if (report.verified && report.kind !== "session" && report.hands.length) verdict.append(el("p", { class: "replay-offer" }, replayLink(asText(text), { label: t("verify.replay") })));
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
  const nodes = { version: el("span", { class: "mono" }, `v${info.version}`), sha: el("code", { class: "mono", id: "engine-sha" }, info.sha256) };
  fill(box, withNodes("verify.engine", nodes, { python: info.python, pyodide: info.pyodide }));
  box.hidden = false;
}

function showVerdict(report, source) {
  let box;
  if (report.verified && report.kind === "session") {
    const n = report.shuffles.length;
    box = verdictBox(true, el("span", { class: "detail" }, t("verify.session_verified", { count: n, source })));
  } else if (report.verified) {
    const hands = report.hands.length;
    box = verdictBox(true, el("span", { class: "detail" }, t("verify.game_verified", { count: hands, source })));
  } else {
    // The reason is the verifier's, as fairdeal-verify prints it (in the page's language: the
    // verifier's own translation); the page's plain words, read from the English, come first.
    const reason = report.error?.reason ?? t("verify.unknown_failure");
    box = verdictBox(
      false,
      el("span", { class: "detail plain", id: "failure-words" }, plainWords(report.json?.error?.reason ?? "")),
      el("span", { class: "detail", id: "failure" }, report.error?.line ? t("verify.at_line", { line: report.error.line, reason }) : reason),
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
    el("div", {}, el("strong", {}, verdictWord(ok)), ...details),
  );
}

/**
 * What a failure means to a player, said before the verifier's own words (which keep the
 * technical detail, as fairdeal-verify prints them): the chain's faults are a record changed after
 * it was signed; any other is a line the rules or the seeds do not give.
 */
function plainWords(reason) {
  if (/^bad signature|^sig is not/.test(reason)) return t("verify.plain_signature");
  if (/^prev does not match|^sequence number/.test(reason)) return t("verify.plain_chain");
  if (/is not signed$/.test(reason)) return t("verify.plain_unsigned");
  if (/not a header|no game id|server_key/.test(reason)) return t("verify.plain_not_a_record");
  return t("verify.plain_changed");
}

function seatLabel(report, s) {
  return seatName(report.seats[s], s, { seat: t("verify.seat_n", { n: s }), bot: t("verify.bot"), botTitle: t("verify.bot_title") });
}

function plainName(report, s) {
  return report.seats[s]?.name ?? t("verify.seat_n_lower", { n: s });
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
      el("td", {}, seatLabel(report, s), report.first_dealer === s ? el("span", { class: "badge", title: t("verify.first_dealer_title") }, t("verify.first_dealer")) : null),
      el("td", { class: "mono" }, seed === null ? "—" : seed === "" ? el("span", { class: "hint" }, t("verify.empty_seed")) : JSON.stringify(seed)),
    );
  });
  return el(
    "section",
    { class: "panel", "aria-labelledby": "facts-title" },
    el("h2", { id: "facts-title" }, report.kind === "session" ? t("verify.the_session") : t("verify.the_game")),
    el(
      "dl",
      { class: "facts" },
      el("dt", {}, report.kind === "session" ? t("verify.session") : t("verify.game")),
      el("dd", { class: "mono" }, report.game_id),
      el("dt", {}, report.kind === "session" ? t("verify.kind") : t("verify.rules")),
      // The options as the record names them (the rules' own keys and values).
      report.kind === "session"
        ? el("dd", {}, t("verify.dealing_session"), report.label_prefix ? el("span", { class: "hint" }, ` ${t("verify.label_prefix", { prefix: report.label_prefix })}`) : null)
        : el("dd", {}, title(report), options ? el("span", { class: "hint" }, ` (${options})`) : null),
      // Format 2: the table's timer, every auto-move checked against it (the report gives it).
      report.timing ? el("dt", {}, t("verify.timer")) : null,
      report.timing ? el("dd", { id: "timing" }, timingText(report.timing)) : null,
      el("dt", {}, t("verify.signed_by")),
      el("dd", { class: "mono", id: "server-key" }, report.server_key ?? "—", report.key_pinned && !report.error ? el("span", { class: "check" }, ` ✔ ${t("verify.published_key")}`) : null),
      el("dt", {}, t("verify.fingerprint")),
      el("dd", { class: "mono", id: "commitment" }, report.commitment ?? "—"),
      el("dt", {}, t("verify.server_seed")),
      el(
        "dd",
        { class: "mono", id: "server-seed" },
        report.server_seed ?? (report.error ? "—" : t("verify.not_revealed")),
        report.server_seed ? el("span", { class: "check", title: t("verify.matches_title") }, ` ✔ ${t("verify.matches")}`) : null,
      ),
    ),
    el("table", { class: "seats" }, el("thead", {}, el("tr", {}, el("th", {}, t("verify.seat")), el("th", {}, t("verify.client_seed")))), el("tbody", {}, rows)),
  );
}

function shufflesPanel(report) {
  return el(
    "section",
    { class: "panel", "aria-labelledby": "shuffles-title" },
    el("h2", { id: "shuffles-title" }, t("verify.shuffles")),
    el("p", { class: "hint" }, t("verify.shuffles_hint")),
    el(
      "ol",
      { class: "shuffles", id: "shuffles" },
      report.shuffles.map((s) =>
        el(
          "li",
          { "data-label": s.label },
          el("h3", {}, el("code", {}, s.label), el("span", { class: "hint" }, ` ${t("verify.cards", { count: s.count })}`)),
          s.order ? cardRow(s.order) : el("p", { class: "hint" }, t("verify.order_later")),
          el("details", {}, el("summary", {}, t("verify.cards_asked")), cardRow(s.cards)),
        ),
      ),
    ),
  );
}

function handPanel(report, hand) {
  const n = report.seats.length;
  const winners = new Set(hand.result?.winners ?? []);
  // What a hand's scores count (the catalogue's unit), and what its counts are: cards, or their points.
  const scoreLabel = { chips: t("verify.score_chips"), counters: t("verify.score_counters"), deals: t("verify.score_won") }[unit()] ?? t("verify.score");
  const leftLabel = game.words.leftLabel ?? (unit() === "points" ? t("verify.left_points") : t("verify.cards_left"));
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
  if (hand.extra) extras.push(aside(t("verify.extra_hand"), hand.extra, "extra", extraNote(report, hand)));
  if (hand.stops) extras.push(aside(t("verify.stops"), hand.stops, "stops", null));
  const rows = hand.deal.map((cards, s) =>
    el(
      "tr",
      { class: winners.has(s) ? "winner" : null },
      el("th", { scope: "row", class: "who" }, seatLabel(report, s), hand.dealer === s ? el("span", { class: "badge", title: t("verify.dealer_title") }, t("verify.dealer_mark")) : null),
      el("td", { class: "dealt" }, cardRow(cards)),
      el("td", { class: "num", "data-label": leftLabel }, hand.result ? String(hand.result.counts[s]) : ""),
      el("td", { class: "num", "data-label": scoreLabel }, hand.scores ? String(hand.scores[s]) : ""),
      el("td", { class: "num", "data-label": t("verify.total") }, hand.totals ? String(hand.totals[s]) : ""),
    ),
  );
  const starter = hand.starter
    ? el(
        "div",
        { class: "starter" },
        el("span", {}, t("verify.starter")),
        cardFace(hand.starter),
        hand.turned?.length > 1 ? el("span", { class: "hint" }, t("verify.turned_back", { cards: hand.turned.slice(0, -1).map(display).join(", ") })) : null,
      )
    : null;
  const count = hand.restocks?.length ?? 0;
  const restocks = count
    ? el(
        "details",
        { class: "restocks" },
        el("summary", {}, game.words.restockSummary?.(count) ?? t("verify.stock_ran_out", { count })),
        el(
          "ol",
          {},
          hand.restocks.map((r) => el("li", {}, el("span", { class: "hint" }, `${t("verify.restock", { n: r.restock, count: r.stock.length })} `), cardRow(r.stock))),
        ),
      )
    : null;
  return el(
    "section",
    { class: "panel hand", "aria-labelledby": `hand-${hand.hand}`, "data-hand": hand.hand },
    el(
      "div",
      { class: "hand-head" },
      el("h2", { id: `hand-${hand.hand}` }, t("verify.hand", { n: hand.hand })),
      el("span", { class: "hint" }, t("verify.dealt_by", { name: plainName(report, hand.dealer) })),
      // Format 2: when the server wrote the hand's deal and its end (UTC, as the record has them).
      hand.dealt_at ? el("span", { class: "hint hand-times" }, ` · ${t("verify.hand_times", { dealt: hand.dealt_at, ended: hand.ended_at })}`) : null,
    ),
    el(
      "table",
      { class: "deal" },
      el(
        "thead",
        {},
        el("tr", {}, el("th", {}, t("verify.seat")), el("th", {}, t("verify.dealt")), el("th", { class: "num" }, leftLabel), el("th", { class: "num" }, scoreLabel), el("th", { class: "num" }, t("verify.total"))),
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
  if (!hand.exchange) return t("verify.extra_dead");
  const name = plainName(report, hand.exchange.seat);
  return hand.exchange.price ? t("verify.extra_bought", { name, price: hand.exchange.price }) : t("verify.extra_taken", { name });
}

/** How the pack was made up and dealt, where the game says more than "one card at a time". */
function packNote(report, hand) {
  const note = game.words.packNote?.(report, hand);
  if (note) return el("p", { class: "hint pack-note" }, note);
  if (hand.extra) return el("p", { class: "hint pack-note" }, t("verify.extra_dealt"));
  return null;
}

/** Counters left on Michigan's layout cards after the deal. */
function layoutLine(layout) {
  return el(
    "p",
    { class: "layout-line" },
    `${t("verify.layout_counters")} `,
    Object.entries(layout).map(([code, n], i) => [i ? ", " : "", `${display(code)} ${n}`]).flat(),
  );
}

function resultText(report, hand) {
  const names = hand.result.winners.map((s) => plainName(report, s));
  const score = hand.scores[hand.result.winners[0]];
  const own = game.words.resultText?.(report, hand, names);
  if (own) return own;
  if (hand.result.how === "out" && unit() !== "points") return t("verify.went_out", { name: names[0] });
  if (hand.result.how === "out") return t("verify.went_out_scoring", { name: names[0], score });
  if (names.length > 1) return t("verify.blocked_shared", { names: listWords(names), score });
  return t("verify.blocked", { name: names[0], score });
}

function standingsPanel(report) {
  // "1st", "2nd", "3rd", "4th" ("1.", "2." in nb): the ordinal categories of the page's language,
  // each a key "verify.ordinal_<category>" in both catalogues.
  const ordinal = new Intl.PluralRules(lang, { type: "ordinal" });
  const placeWord = (p) => t(`verify.ordinal_${ordinal.select(p)}`, { n: p });
  return el(
    "section",
    { class: "panel", "aria-labelledby": "standings-title" },
    el("h2", { id: "standings-title" }, t("verify.standings")),
    el(
      "table",
      { class: "standings", id: "standings" },
      el("thead", {}, el("tr", {}, el("th", {}, t("verify.place")), el("th", {}, t("verify.seat")), el("th", { class: "num" }, t("verify.total")))),
      el(
        "tbody",
        {},
        report.standings.map((row) =>
          el("tr", { class: `place-${row.place}` }, el("td", {}, placeWord(row.place) + (report.standings.filter((r) => r.place === row.place).length > 1 ? ` ${t("verify.shared")}` : "")), el("td", {}, seatLabel(report, row.seat)), el("td", { class: "num" }, String(row.total))),
        ),
      ),
    ),
  );
}

function checkedPanel(report) {
  const items = [t("verify.checks_chain"), t("verify.checks_seed"), t("verify.checks_commitments"), t("verify.checks_deals")];
  if (report.kind === "session") {
    items.splice(3, 1, t("verify.checks_shuffles"));
  } else {
    items.push(t("verify.checks_moves"));
  }
  items.push(t("verify.checks_where"));
  return el(
    "section",
    { class: "panel", "aria-labelledby": "checked-title" },
    el("h2", { id: "checked-title" }, t("verify.checked_title")),
    report.error ? el("p", {}, t("verify.stopped_at", { line: report.error.line })) : null,
    el("ul", { class: "checked-list" }, items.map((item) => el("li", {}, item))),
    el("p", { class: "hint" }, t("verify.not_shown")),
    // fairdeal-verify's report, as the program prints it: a document, in English.
    report.text ? el("details", { class: "cli-report" }, el("summary", {}, t("verify.cli_report")), el("pre", { id: "cli-report", lang: "en" }, report.text)) : null,
  );
}

/**
 * For a game this server holds: its entries in the server's public log and the witnesses that
 * cosigned the checkpoint, each checked here (publiclog.js) against the record's own server key.
 */
async function logPanel(gameId, text) {
  const heading = el("h2", { id: "log-title" }, t("verify.log_title"));
  const panel = (state, ...lines) => el("section", { class: "panel", id: "log-panel", "data-state": state, "aria-labelledby": "log-title" }, heading, ...lines);
  let header;
  try {
    header = JSON.parse(text.slice(0, text.indexOf("\n")));
  } catch {
    return panel("failed", el("p", { class: "error" }, t("verify.log_no_header")));
  }
  let log, info;
  try {
    [log, info] = await Promise.all([`/games/${encodeURIComponent(gameId)}/log`, "/.well-known/fairdeal-log"].map(async (path) => {
      const answer = await fetch(path, { headers: { Accept: "application/json" } });
      if (!answer.ok) throw new Error(`${path}: HTTP ${answer.status}`);
      return answer.json();
    }));
  } catch (error) {
    return panel("missing", el("p", { class: "hint", id: "log-status" }, t("verify.log_unread", { reason: error.message })));
  }
  const result = await checkRecordLog(log, header.server_key, { id: gameId, kind: "game", rules: header.rules, commitment: header.commitment });
  // The reason is the log check's technical words (publiclog.js, as fairdeal/tlog.py says them), in English.
  if (!result.ok) return panel("failed", el("p", { class: "error", id: "log-status" }, t("verify.log_not_confirmed", { reason: result.error })));
  const witnessed = await witnessesOf(result.checkpoint.note, info.witnesses ?? []).catch((error) => ({ error: error.message }));
  const how = (entry) => ({ revealed: t("verify.log_revealed"), abandoned: t("verify.log_abandoned") })[entry.how] ?? String(entry.how);
  const entries = result.entries.map((e) => (e.type === "end" ? t("verify.log_end", { how: how(e.entry), index: e.index }) : t("verify.log_start", { index: e.index })));
  const { origin, size } = result.checkpoint;
  return panel(
    "ok",
    el("p", { id: "log-status" }, t("verify.log_announced", { origin, entries: entries.join("; "), size })),
    witnessed ? el("p", { id: "log-witnesses", class: witnessed.error ? "error" : "hint" }, witnessWords(witnessed)) : el("p", { class: "hint", id: "log-witnesses" }, t("verify.log_no_witnesses")),
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

document.getElementById("paste-go").addEventListener("click", () => check(document.getElementById("paste").value, t("verify.pasted_record")));

async function fromServer(gameId) {
  const source = t("verify.from_server", { id: gameId });
  try {
    const response = await fetch(`/games/${encodeURIComponent(gameId)}/record`, { headers: { Accept: "application/x-ndjson" } });
    if (!response.ok) {
      fill(verdict, el("div", { class: "verdict bad" }, el("span", { class: "mark", "aria-hidden": "true" }, "✘"), el("div", {}, el("strong", {}, t("verify.no_record")), el("span", { class: "detail", id: "failure" }, t("verify.no_record_detail", { id: gameId, status: response.status })))));
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
    fill(verdict, el("div", { class: "verdict bad" }, el("strong", {}, t("verify.not_loaded")), el("span", { class: "detail" }, String(error))));
    document.body.dataset.verdict = "failed";
  }
}

if (!HAS_WEB_CRYPTO) {
  fill(verdict, el("div", { class: "verdict partial" }, el("span", { class: "mark", "aria-hidden": "true" }, "!"), el("div", {}, el("strong", {}, t("verify.https_title")), el("span", { class: "detail" }, t("verify.https_detail")))));
}

const gameId = new URLSearchParams(location.search).get("game");
if (gameId) fromServer(gameId);
// A file chosen while the page still loaded its words (i18n.js waits for them) is checked now, not lost.
else if (fileInput.files.length) fromFile(fileInput.files[0]);
else document.body.dataset.verdict = "idle";

// For people who want to poke at it from the console.
globalThis.fairdealVerify = (text) => check(text, t("verify.console"));
