// The seeds before the first deal: this browser makes the seat's client seed, commits to it and
// reveals it once every person has committed (kept in localStorage, so a reload carries on);
// the "Shuffling up" sheet shows who has, and gives the host the other seats' links and "Start
// now with bots".

import { ApiError } from "../api.js";
import { t } from "../i18n.js";
import { keptLinks, linkItem } from "../links.js";
import { clientCommitment, toHex } from "../protocol.js";
import { el, fill, shortHex } from "../ui.js";
import { checkAnnounced } from "./fair.js";
import { setView } from "./live.js";
import { toast } from "./messages.js";
import { $, api, gameId, isBot, me, setSeeding, ui } from "./state.js";

function seedKey() {
  return `fairdeal:seed:${gameId}:${me}`;
}

export function storedSeed() {
  try {
    return JSON.parse(localStorage.getItem(seedKey()) ?? "null");
  } catch {
    return null;
  }
}

function newSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return toHex(bytes);
}

export async function seedStep() {
  if (me === null || ui.seeding) return;
  setSeeding(true);
  try {
    // Commit, then reveal once every person has committed; each step reads the view it fetched
    // (the page shows that view only once its lines have come).
    let view = ui.view;
    for (let step = 0; step < 2; step++) {
      if (!view || view.status !== "seeding" || isBot(me)) break;
      const { committed, revealed } = view.client_seeds;
      let mine = storedSeed();
      if (!committed.includes(me)) {
        if (!mine) {
          const seed = newSeed();
          mine = { seed, commitment: await clientCommitment(seed) };
          localStorage.setItem(seedKey(), JSON.stringify(mine));
        }
        const { receipt } = await api.commit(mine.commitment);
        if (receipt?.log) checkAnnounced(receipt.log);
        view = await api.view();
        setView(view);
      } else if (!revealed.includes(me)) {
        const humans = view.seats.filter((s) => !s.bot).map((s) => s.seat);
        if (!humans.every((s) => committed.includes(s)) || !mine) break;
        view = (await api.reveal(mine.seed)).view;
        setView(view);
      } else {
        break;
      }
    }
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 409)) toast(t("table.seed_not_sent", { reason: error.message }), { kind: "bad" });
  } finally {
    setSeeding(false);
  }
  renderSeeding();
}

// -- the "Shuffling up" sheet -------------------------------------------------------------

export function renderSeeding() {
  const view = ui.view;
  const open = view?.status === "seeding";
  $("seeding").hidden = !open;
  if (!open) return;
  const { committed, revealed } = view.client_seeds;
  const mine = me !== null ? storedSeed() : null;
  const rows = view.seats.map((s) => {
    const status = t(s.bot ? "table.bot" : revealed.includes(s.seat) ? "table.seed_revealed" : committed.includes(s.seat) ? "table.seed_committed" : "table.seed_waiting");
    return el("li", {}, el("span", { class: "who" }, s.seat === me ? t("table.name_you", { name: s.name }) : s.name, s.bot ? el("span", { class: "badge bot" }, t("table.bot")) : null), el("span", { class: "state" }, status));
  });
  const lostSeed = me !== null && committed.includes(me) && !revealed.includes(me) && !mine;
  fill(
    $("seeding-body"),
    el("p", {}, t("table.seeding_text")),
    el("p", { class: "hint" }, t("table.server_fingerprint"), " ", el("code", {}, shortHex(view.commitment, 16))),
    el("ul", { class: "seed-status" }, rows),
    mine ? el("p", { class: "hint" }, t("table.your_seed"), " ", el("code", {}, mine.seed)) : null,
    lostSeed ? el("p", { class: "error" }, t("table.lost_seed")) : null,
    api.host ? othersLinks() : null,
    api.host
      ? el(
          "div",
          { class: "host-start" },
          el("button", { type: "button", class: "secondary", id: "start-now", onclick: startNow }, t("table.start_now")),
          el("p", { class: "hint" }, t("table.start_now_hint")),
        )
      : null,
  );
}

let othersBlock = null;

/**
 * For the host: every other human seat's link, as this browser kept them when it opened the table
 * (js/links.js), with Copy and QR. Built once, so a QR shown or a "Copied" stays while the view updates.
 */
function othersLinks() {
  if (othersBlock) return othersBlock;
  const kept = keptLinks(gameId);
  const others = (kept?.seats ?? []).filter((s) => s.seat !== me);
  const humans = ui.view.seats.filter((s) => !s.bot && s.seat !== me);
  othersBlock = el(
    "section",
    { class: "others-links", id: "others-links", "aria-labelledby": "others-links-title" },
    el("h3", { id: "others-links-title" }, t("table.others_links")),
    !humans.length
      ? el("p", { class: "hint" }, t("table.all_bots"))
      : kept
        ? [el("p", { class: "hint" }, t("table.send_links")), el("ul", { class: "link-list" }, others.map((s) => linkItem(s.name, s.url)))]
        : el("p", { class: "hint", id: "no-links" }, t("table.no_links")),
  );
  return othersBlock;
}

async function startNow() {
  try {
    await api.start();
    setView(await api.view());
  } catch (error) {
    toast(t("table.not_started", { reason: error.message }), { kind: "bad" });
  }
}
