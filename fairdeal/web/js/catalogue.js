// The games this server deals, as each rules module declares itself (GET /rules;
// spec/games.json holds the same). The pages name no game: they read this
// catalogue, and what a game draws and says lives in its renderer module,
// js/games/<renderer>.js, picked by the entry's `renderer` (generic.js: a game that has
// none of its own, drawn from its view).
//
//   const games = await catalogue();
//   games.default                      // the game the lobby offers first
//   entryOf(games, name).seats.max     // how many it seats at most
//   const game = await rendererOf(entry)  // js/games/<entry.renderer>.js

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

/** The renderer module of a catalogue entry: js/games/<renderer>.js, as the game declares it. */
export async function rendererOf(entry) {
  if (!/^[a-z][a-z0-9_]*$/.test(entry?.renderer ?? "")) throw new Error(`no renderer for ${entry?.name ?? "this game"}`);
  return import(`./games/${entry.renderer}.js`);
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
