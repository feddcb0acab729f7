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

let loading = null;

/** The catalogue ({version, default, families, games}), fetched once per page. */
export function catalogue() {
  loading ??= fetch("/rules", { headers: { Accept: "application/json" }, cache: "no-store" }).then(async (response) => {
    if (!response.ok) throw new Error(`the server's list of games did not load (${response.status})`);
    return response.json();
  });
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
  const one = { points: "point", chips: "chip", counters: "counter", deals: "deal", rounds: "round", tricks: "trick" }[unit] ?? unit;
  const word = n === 1 ? one : unit;
  return unit === "deals" || unit === "rounds" ? `${word} won` : word;
}

/** Whether a game's standings count what players hold (chips, counters) rather than what they scored. */
export function holdsStake(unit) {
  return unit === "chips" || unit === "counters";
}
