// The "Why it is fair" panel: the server seed's fingerprint, every player's seed, the server
// seed once revealed, and the game's entries in the public log, checked in this browser
// (spec/log.md): the entries against the record's server key, the checkpoint against the newest
// this browser kept for the log.

import { ApiError, request } from "../api.js";
import { t } from "../i18n.js";
import { checkRecordLog, rememberCheckpoint, witnessesOf, witnessWords } from "../publiclog.js";
import { el, fill, shortHex } from "../ui.js";
import { storedSeed } from "./seeding.js";
import { $, api, gameId, me, setPublicLog, ui } from "./state.js";

function clientSeedsFromRecord() {
  const start = ui.record.find((l) => l.type === "start");
  const revealed = new Map(ui.record.filter((l) => l.type === "client-reveal").map((l) => [l.seat, l.seed]));
  return { start, revealed };
}

/**
 * Check the game's entries in the public log (`log` as GET /games/{id}/log gives it) with the
 * record header's server key, then compare the checkpoint with the newest this browser kept for the
 * log (spec/log.md section 7: a server that shows two logs is caught here). Never throws.
 */
async function checkPublicLog(log) {
  const header = ui.record[0]?.type === "header" ? ui.record[0] : null;
  if (!header) return; // the record could not be read: no key to check with
  const result = await checkRecordLog(log, header.server_key, { id: gameId, kind: "game", rules: header.rules, commitment: header.commitment });
  const end = result.entries.find((e) => e.type === "end");
  const last = ui.record[ui.record.length - 1];
  if (result.ok && end && last?.type === "reveal" && last.seq !== end.entry.seq) {
    Object.assign(result, { ok: false, error: t("table.log_end_differs", { index: end.index, logs: end.entry.seq, ours: last.seq }) });
  }
  let memory = null;
  let witnessed = null;
  if (result.checkpoint) {
    const consistency = (first, second) => request("GET", `/log/proof/consistency?first=${first}&second=${second}`);
    memory = await rememberCheckpoint(result.checkpoint, header.server_key, consistency).catch((error) => ({ status: "unchecked", error: error.message }));
    witnessed = await checkWitnesses(result.checkpoint.note).catch((error) => ({ error: error.message }));
  }
  setPublicLog({ ...result, memory, witnessed });
  renderFair();
}

let witnessKeys = null;

/** The checkpoint's witnesses (publiclog.js witnessesOf), their keys as the service lists them, asked once. */
async function checkWitnesses(note) {
  witnessKeys ??= request("GET", "/.well-known/fairdeal-log").then((info) => info.witnesses ?? []);
  const keys = await witnessKeys.catch((error) => {
    witnessKeys = null; // asked again next time
    throw error;
  });
  return witnessesOf(note, keys);
}

/** The game's entries in the log, asked of the server (a spectator, a reload, the end). */
export async function fetchPublicLog() {
  try {
    await checkPublicLog(await request("GET", `${api.base}/log`));
  } catch (error) {
    const missing = error instanceof ApiError && error.status === 404;
    setPublicLog({ ok: false, missing, error: missing ? t("table.log_missing_reason") : t("table.log_unread", { reason: error.message }), entries: [] });
    renderFair();
  }
}

/** A commit receipt's `log` (the start entry's index, a checkpoint, the proof): the entry's text is asked for, the rest checked here. */
export async function checkAnnounced(announced) {
  try {
    const { index, checkpoint, inclusion } = announced;
    const page = await request("GET", `/log/entries?start=${index}&end=${index + 1}`);
    const entry = page.entries?.[0]?.entry ?? "";
    await checkPublicLog({ checkpoint, entries: [{ index, entry, inclusion }] });
  } catch {
    await fetchPublicLog();
  }
}

function logWords(e) {
  if (e.type !== "end") return t("table.log_entry", { index: e.index });
  const key = `table.log_how_${e.entry.how}`;
  const how = t(key);
  return t("table.log_end_entry", { how: how === key ? e.entry.how : how, index: e.index });
}

function publicLogBlock() {
  const state = ui.publicLog;
  const heading = el("h3", {}, t("table.in_public_log"));
  if (!state) return el("div", { id: "fair-log", "data-state": "checking" }, heading, el("p", { class: "hint" }, t("table.checking")));
  if (!state.ok && !state.checkpoint) {
    return el("div", { id: "fair-log", "data-state": state.missing ? "missing" : "failed" }, heading,
      el("p", { class: "error", id: "fair-log-status" }, state.missing ? t("table.log_missing") : t("table.log_unconfirmed", { reason: state.error })));
  }
  const cp = state.checkpoint;
  const memory = state.memory;
  const signed = t(cp.signature === "checked" ? "table.log_signed" : "table.log_unsigned");
  const words = state.entries.map(logWords);
  const fork = memory?.status === "fork";
  return el(
    "div",
    { id: "fair-log", "data-state": fork ? "fork" : state.ok ? "ok" : "failed" },
    heading,
    fork
      ? el("div", { class: "error", id: "fair-log-fork", role: "alert" },
          el("p", {}, el("strong", {}, t("table.log_fork")), " ", t("table.log_fork_text")),
          el("p", { class: "hint" }, memory.error),
          el("pre", { class: "hex" }, memory.previous),
          el("pre", { class: "hex" }, memory.checkpoint))
      : null,
    state.ok
      ? el("p", { id: "fair-log-status" }, t("table.log_in", { entries: words.join(", "), size: cp.size, signed }))
      : el("p", { class: "error", id: "fair-log-status" }, t("table.log_unconfirmed", { reason: state.error })),
    el("p", { class: "hint" }, t("table.log_label"), " ", el("code", { id: "fair-log-origin" }, cp.origin), ". ", t("table.log_announced")),
    state.witnessed ? el("p", { id: "fair-log-witnesses", class: state.witnessed.error ? "error" : "hint" }, witnessWords(state.witnessed)) : null,
    memory?.status === "unchecked" ? el("p", { class: "error" }, t("table.log_uncompared", { reason: memory.error })) : null,
    memory && !fork && memory.status !== "unchecked"
      ? el("p", { class: "hint" }, t(memory.status === "first" ? "table.log_first" : "table.log_extends"))
      : null,
  );
}

export function renderFair() {
  const view = ui.view;
  if (!view) return;
  const { start, revealed } = clientSeedsFromRecord();
  const committed = new Set(view.client_seeds?.committed ?? []);
  const mine = me !== null ? storedSeed() : null;
  const seedRows = view.seats.map((s) => {
    let state;
    if (start) {
      const value = start.client_seeds[s.seat];
      state = value ? el("code", { class: "seed" }, value) : el("span", { class: "hint" }, t(s.bot ? "table.bot_no_seed" : "table.no_seed"));
    } else if (revealed.has(s.seat)) {
      state = el("code", { class: "seed" }, revealed.get(s.seat));
    } else if (s.bot) {
      state = el("span", { class: "hint" }, t("table.bot_no_seed"));
    } else {
      state = el("span", { class: "hint" }, t(committed.has(s.seat) ? "table.committed_not_revealed" : "table.waiting_commitment"));
    }
    return el("li", {}, el("span", { class: "who" }, s.seat === me ? t("words.you") : s.name), state);
  });
  const over = view.status === "over" || view.status === "abandoned";
  fill(
    $("panel-fair"),
    el("h2", {}, t("table.why_fair")),
    el("p", {}, t("table.fair_text")),
    el("h3", {}, t("table.fingerprint_start")),
    el("code", { class: "hex", id: "fair-commitment" }, view.commitment),
    el("h3", {}, t("table.players_seeds")),
    el("p", { class: "hint" }, t("table.players_seeds_text")),
    el("ul", { class: "seeds", id: "fair-seeds" }, seedRows),
    mine ? el("p", { class: "hint", id: "my-seed" }, t("table.browser_seed"), " ", el("code", {}, mine.seed), " ", t("table.committed_as"), " ", el("code", {}, shortHex(mine.commitment, 10)), ".") : null,
    publicLogBlock(),
    el("h3", {}, t("table.server_seed_end")),
    view.server_seed ? el("code", { class: "hex", id: "fair-server-seed" }, view.server_seed) : el("p", { class: "hint", id: "fair-server-seed" }, t("table.hidden_until_end")),
    el("p", {}, el("a", { class: over ? "button gold" : "button secondary", href: `/verify?game=${encodeURIComponent(gameId)}`, id: "verify-link" }, t("table.verify_game"))),
    over ? null : el("p", { class: "hint" }, t("table.before_end")),
  );
}
