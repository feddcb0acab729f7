// A fairdeal client in TypeScript, typed only from the server's /openapi.json (openapi-typescript
// writes src/api.d.ts from it; tests/service/test_ts_client.py makes it fresh each run). It plays a
// whole game of each rules named on the command line against `fairdeal serve`, as one person with
// bots, and checks each finished record with GET /games/{id}/verify. Each game's view is its own
// type: narrowing on `rules` gives the members that game's table has, checked by `tsc --noEmit`.
//
//   node dist/client.js http://127.0.0.1:8000 crazy-eights eleusis

import { createHash } from "node:crypto";
import type { components } from "./api.js";

type Schemas = components["schemas"];
type SeatView = Schemas["SeatView"];
type MoveIn = Schemas["MoveIn"];

const [base, ...games] = process.argv.slice(2);
if (!base || games.length === 0) throw new Error("usage: client.js BASE_URL RULES...");

/** One call to the API: the JSON answer, or an Error naming the status and the server's reason. */
async function call<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** lp(x): the UTF-8 bytes of x after their length as a big-endian u32 (fairness protocol v1). */
function lp(text: string): Buffer {
  const bytes = Buffer.from(text, "utf8");
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** A client seed's commitment: SHA-256(lp("fairdeal/v1/client") || lp(seed)), in hex. */
function clientCommitment(seed: string): string {
  return createHash("sha256").update(Buffer.concat([lp("fairdeal/v1/client"), lp(seed)])).digest("hex");
}

/** What the table shows, in the game's own members: the compiler knows each game's table. */
function describe(view: SeatView): string {
  const table = view.table;
  if (table === null) return "no deal yet";
  switch (view.rules) {
    case "crazy-eights":
      return view.table ? `top ${view.table.top}, stock ${view.table.stock_size}, next suit ${view.table.next.suit}` : "";
    case "eleusis":
      return view.table ? `mainline ${view.table.mainline.length} cards, phase ${view.table.phase}` : "";
    default:
      return `hand ${table.hand_no}, turn ${table.turn}`;
  }
}

interface Played {
  rules: string;
  game_id: string;
  moves: number;
  kinds: string[];
  status: string;
  verified: boolean;
  hands: number;
  last_table: string;
}

async function play(rules: string): Promise<Played> {
  // As many seats as the game's catalogue entry asks at least, three at least: Ann and bots.
  const declared = await call<Schemas["Declaration"]>("GET", `/rules/${rules}`);
  const bots = Array.from({ length: Math.max(3, declared.seats.min) - 1 }, (_, i) => ({ name: `Bot ${i + 1}`, bot: true }));
  const seats = [{ name: "Ann", bot: false }, ...bots];
  const created = await call<Schemas["GameCreated"]>("POST", "/games", { rules, seats });
  const id = created.game_id;
  const token = created.seats[0]?.join_token;
  if (!token) throw new Error("no join token for seat 0");
  const seed = `ts client ${id}`;
  await call<Schemas["CommitAnswer"]>("POST", `/games/${id}/seats/0/commit`, { commitment: clientCommitment(seed) }, token);
  await call<Schemas["RevealAnswer"]>("POST", `/games/${id}/seats/0/reveal`, { seed }, token);
  let view = await call<SeatView>("GET", `/games/${id}/seats/0/view`, undefined, token);
  let moves = 0;
  const kinds = new Set<string>();
  let lastTable = describe(view);
  while (view.status === "playing" || view.status === "between-hands") {
    if (moves > 5000) throw new Error(`${rules}: no end after ${moves} moves`);
    if (view.status === "between-hands") {
      view = await call<SeatView>("POST", `/games/${id}/ready`, undefined, token);
      continue;
    }
    if (!view.your_turn) {
      view = await call<SeatView>("GET", `/games/${id}/seats/0/view`, undefined, token);
      continue;
    }
    const legal = view.legal_moves[moves % view.legal_moves.length];
    if (!legal) throw new Error(`${rules}: my turn, and no legal move`);
    const move: MoveIn = { ...legal, seq: view.seq };
    const answer = await call<Schemas["MoveAnswer"]>("POST", `/games/${id}/moves`, move, token);
    kinds.add(legal.move);
    view = answer.view;
    lastTable = describe(view) || lastTable;
    moves += 1;
  }
  const report = await call<Schemas["VerifyReport"]>("GET", `/games/${id}/verify`);
  return { rules, game_id: id, moves, kinds: [...kinds].sort(), status: view.status, verified: report.verified, hands: report.hands.length, last_table: lastTable };
}

for (const rules of games) console.log(JSON.stringify(await play(rules)));
