// Seat links, kept for the host. A table's join tokens are shown once, in the POST /games
// answer; this browser keeps every human seat's link so the host can hand them out again
// (the lobby's recent tables, the table's waiting screen). The tokens stay in this browser's
// localStorage: a link carries its token after the "#", which never reaches a server.
//
//   const kept = keepLinks(created, { rules: "…", title: "…" });
//   kept.host_url                 // the host's way back to the table
//   kept.seats                    // [{seat, name, url, host}] every human seat
//   keptLinks(gameId)             // the same entry, later, or null
//   linkItem("Ann", url)          // an <li>: the link, Copy, QR

import { t } from "./i18n.js";
import { el } from "./ui.js";

const RECENT_KEY = "fairdeal:recent";
const LINKS_KEY = (gameId) => `fairdeal:links:${gameId}`;
const RECENT_MAX = 8;

/** The link that seats a person: /table/ID#seat=N&token=T (the host's also carries &host=H). */
export function seatLink(gameId, seat, token, host = null) {
  const fragment = new URLSearchParams({ seat: String(seat), token });
  if (host) fragment.set("host", host);
  return `${location.origin}/table/${encodeURIComponent(gameId)}#${fragment}`;
}

/** The host's link to a table without a person at it: watch the bots play. */
export function watchLink(gameId, host) {
  return `${location.origin}/table/${encodeURIComponent(gameId)}#${new URLSearchParams({ host })}`;
}

function readJson(key, fallback) {
  try {
    return JSON.parse(localStorage.getItem(key) ?? "null") ?? fallback;
  } catch {
    return fallback;
  }
}

/**
 * Keep every human seat's link of a table just opened (`created` is the POST /games answer) under
 * fairdeal:links:<game_id>, and put the table first in the recent tables. The first human seat is
 * the host's: its link also carries the host token. Returns the kept entry.
 */
export function keepLinks(created, { rules = null, title = null } = {}) {
  const humans = created.seats.filter((s) => s.join_token);
  const host = created.host_token;
  const seats = humans.map((s, i) => ({
    seat: s.seat,
    name: s.name,
    host: i === 0,
    url: seatLink(created.game_id, s.seat, s.join_token, i === 0 ? host : null),
  }));
  const entry = {
    game_id: created.game_id,
    rules,
    title,
    when: new Date().toISOString(),
    names: created.seats.map((s) => s.name),
    commitment: created.commitment ?? null,
    host_url: seats[0]?.url ?? watchLink(created.game_id, host),
    seats,
  };
  try {
    localStorage.setItem(LINKS_KEY(entry.game_id), JSON.stringify(entry));
    const recent = [{ ...entry, url: entry.host_url }, ...recentTables().filter((r) => r.game_id !== entry.game_id)];
    // A table that falls off the recent list takes its kept links with it.
    for (const old of recent.slice(RECENT_MAX)) localStorage.removeItem(LINKS_KEY(old.game_id));
    localStorage.setItem(RECENT_KEY, JSON.stringify(recent.slice(0, RECENT_MAX).map(({ seats: _, ...r }) => r)));
  } catch {
    // Storage full or refused (a private window): the links are still shown this once.
  }
  return entry;
}

/** The links this browser kept for table `gameId`, or null (another browser opened it, or none kept). */
export function keptLinks(gameId) {
  const entry = readJson(LINKS_KEY(gameId), null);
  return entry && Array.isArray(entry.seats) ? entry : null;
}

/** The recent tables, newest first: [{game_id, rules, title, when, names, url}]. */
export function recentTables() {
  const value = readJson(RECENT_KEY, []);
  return Array.isArray(value) ? value.filter((r) => r && typeof r.game_id === "string") : [];
}

let encoder = null;

/**
 * The QR code of `text` as an <svg>, drawn from uqr's module matrix (vendor/uqr, fetched by
 * `make`): data-encoded holds exactly the text given to the encoder.
 */
export async function qrCode(text) {
  encoder ??= import("/vendor/uqr/index.mjs");
  const { encode } = await encoder;
  const { size, data } = encode(text, { ecc: "M", border: 4 });
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("class", "qr");
  svg.setAttribute("role", "img");
  svg.setAttribute("shape-rendering", "crispEdges");
  svg.dataset.encoded = text;
  const back = document.createElementNS(ns, "rect");
  back.setAttribute("width", String(size));
  back.setAttribute("height", String(size));
  back.setAttribute("fill", "#fff");
  let d = "";
  data.forEach((row, y) => row.forEach((dark, x) => (d += dark ? `M${x},${y}h1v1h-1z` : "")));
  const dots = document.createElementNS(ns, "path");
  dots.setAttribute("d", d);
  dots.setAttribute("fill", "#000");
  svg.append(back, dots);
  return svg;
}

/** A Copy button for `url`: it says whether the copy worked. */
function copyButton(url, label) {
  const copy = el("button", { type: "button", class: "secondary copy", "aria-label": t("links.copy_for", { name: label }) }, t("links.copy"));
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      copy.textContent = t("links.copied");
    } catch {
      copy.textContent = t("links.select_and_copy");
    }
  });
  return copy;
}

/** A QR button that shows (and hides) the QR code of `url` in `box`, made the first time. */
function qrButton(url, label, box) {
  const button = el("button", { type: "button", class: "secondary qr-toggle", "aria-expanded": "false", "aria-label": t("links.qr_for", { name: label }) }, t("links.qr"));
  button.addEventListener("click", async () => {
    const open = box.hidden;
    if (open && !box.firstChild) {
      try {
        const svg = await qrCode(url);
        svg.setAttribute("aria-label", t("links.qr_for", { name: label }));
        box.append(svg);
      } catch (error) {
        box.append(el("span", { class: "hint" }, t("links.qr_failed", { reason: error.message })));
      }
    }
    box.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
  });
  return button;
}

/**
 * One seat's link as a list item: its label, the URL (select to copy), Copy, QR, and an Open
 * (or "Take this seat") link when `open` is given.
 */
export function linkItem(label, url, { open = null, primary = false } = {}) {
  const box = el("span", { class: "qr-box" });
  box.hidden = true;
  return el(
    "li",
    { class: "seat-link", "data-url": url },
    el("span", { class: "link-label" }, label),
    el("input", { type: "text", readonly: true, value: url, class: "link-url", "aria-label": t("links.link_for", { name: label }), onfocus: (e) => e.target.select() }),
    el(
      "span",
      { class: "link-actions" },
      copyButton(url, label),
      qrButton(url, label, box),
      open ? el("a", { class: primary ? "button gold" : "button secondary", href: url }, open) : null,
    ),
    box,
  );
}
