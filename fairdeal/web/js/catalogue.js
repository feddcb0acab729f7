// The games this server deals, as each rules module declares itself (GET /rules;
// spec/games.json holds the same). The pages name no game: they read this
// catalogue, and what a game draws and says lives in its renderer module,
// js/games/<renderer>.js, picked by the entry's `renderer` (generic.js: a game that has
// none of its own, drawn from its view).
//
//   const games = await catalogue();
//   games.default                      // the game the lobby offers first
//   entryOf(games, name).seats.max     // how many it seats at most
//   const game = await rendererOf(entry)  // js/games/<entry.renderer>.js, its style sheets loaded
//
// A renderer that draws parts of its own styles them beside it: it exports `css`, the names of
// its style sheets in js/games/ (`export const css = ["round", "snip_snap"]`: round.css, then
// snip_snap.css). rendererOf puts them in the page right after the table's own sheets
// (css/table*.css), in that order, and resolves once they have loaded, so the first drawing
// has its style.

import { lang, t } from "./i18n.js";

let loading = null;

function rules(url) {
  return fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" }).then(async (response) => {
    if (!response.ok) throw new Error(t("catalogue.not_loaded", { status: response.status }));
    return response.json();
  });
}

/**
 * The catalogue ({version, default, families, games}), fetched once per page, with the games' words
 * in the page's language (`?lang=`: where a game translates them, else English).
 */
export function catalogue() {
  // A copy of the catalogue on a plain file server (fairdeal export-verifier's `rules`) may refuse
  // the query: the file itself, in English, is the next best.
  loading ??= rules(`/rules?lang=${encodeURIComponent(lang)}`).catch(() => rules("/rules"));
  loading.catch(() => (loading = null)); // a failed load is tried again next time
  return loading;
}

/** The catalogue's entry of the game named `name`, or null. */
export function entryOf(games, name) {
  return games.games.find((g) => g.name === name) ?? null;
}

/**
 * The renderer module of a catalogue entry: js/games/<renderer>.js, as the game declares it, once
 * its style sheets (its `css`) have loaded. `styles: false`: the module alone (a page that draws
 * no table, and wants only its words).
 */
export async function rendererOf(entry, { styles = true } = {}) {
  if (!/^[a-z][a-z0-9_]*$/.test(entry?.renderer ?? "")) throw new Error(`no renderer for ${entry?.name ?? "this game"}`);
  const module = await import(`./games/${entry.renderer}.js`);
  if (styles) await Promise.all((module.css ?? []).map(gameSheet));
  return module;
}

const sheets = new Map(); // a game style sheet's name: the promise of its load

/** js/games/<name>.css in the page (once), after the table's sheets and the game sheets before it: the promise of its load. */
function gameSheet(name) {
  if (!/^[a-z][a-z0-9_]*$/.test(name)) return Promise.reject(new Error(`no style sheet named ${name}`));
  if (!sheets.has(name)) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = new URL(`./games/${name}.css`, import.meta.url).pathname;
    link.dataset.gameSheet = name;
    const loaded = new Promise((resolve, reject) => {
      link.addEventListener("load", () => resolve(), { once: true });
      link.addEventListener("error", () => reject(new Error(`the game's style sheet ${name}.css did not load`)), { once: true });
    });
    // The cascade as if the game's rules closed the table's sheets: before the page's own (replay.css) and faces.css.
    const before = [...document.querySelectorAll('link[rel="stylesheet"]')].filter((l) => l.dataset.gameSheet || /^\/css\/table(-[a-z]+)?\.css$/.test(l.getAttribute("href")));
    if (before.length) before.at(-1).after(link);
    else document.head.append(link);
    sheets.set(name, loaded);
  }
  return sheets.get(name);
}

/** "point"/"points", "chip"/"chips", "counter"/"counters", "deal won"/"deals won": what a game's standings count. */
export function unitWord(unit, n = 2) {
  const word = t(`unit.${unit}`, { count: n });
  return word === `unit.${unit}` ? unit : word; // a plugin's own unit: its name
}

/** Whether a game's standings count what players hold (chips, counters) rather than what they scored. */
export function holdsStake(unit) {
  return unit === "chips" || unit === "counters";
}
