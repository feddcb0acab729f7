// How another page opens the hand replayer (/replay) on a record it already holds: the verify
// page after a verdict, with the record the person gave it. The record goes through this tab's
// sessionStorage (it never leaves the browser); a game of this server opens by its id instead.
//
//   node.append(replayLink(text));                  // the verify page's record
//   location.href = replayHref({ gameId: "abc" });  // a game of this server: /replay?game=abc

import { el } from "./ui.js";

const KEY = "fairdeal:replay-record";

/** The replayer's address for a game of this server, or for the record handed over in this tab.
 * The app serves the replayer at /replay, beside /verify; a static copy of the pages (fairdeal
 * export-verifier) keeps it as replay.html beside its verify page. */
export function replayHref({ gameId = null } = {}) {
  const page = location.pathname === "/verify" ? "/replay" : "replay.html";
  return gameId ? `${page}?game=${encodeURIComponent(gameId)}` : `${page}?record=handed`;
}

/** Hand `text` to the replayer that this tab opens next. */
export function handRecord(text) {
  try {
    sessionStorage.setItem(KEY, text);
    return true;
  } catch {
    return false; // storage full or off: the replayer asks for the record itself
  }
}

/** The record handed over by another page of this tab, or null. */
export function handedRecord() {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** A "Replay the hands" link that opens the replayer on `text`. */
export function replayLink(text, { label = "Replay the hands", id = "replay-link" } = {}) {
  return el("a", { class: "button secondary", id, href: replayHref(), onclick: () => handRecord(text) }, label);
}
