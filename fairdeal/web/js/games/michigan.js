// Michigan and its kin at the table (Michigan, Double Stops, Spin): Sequence's runs
// (sequence.js) with the layout of pay cards and its counters, the extra hand the
// dealer keeps, takes or sells, the bids, and Spin's A♦ that goes down with a play.

import { runGame } from "./sequence.js";

/** The runs' style sheet (sequence.css). */
export { css } from "./sequence.js";

const spins = (T) => T.entry.name === "spin";

export default runGame({
  deadLabel: (T) => (T.view.table.phase === "play" ? "Dead hand" : "Extra hand"),
  thenWords: (T) => (spins(T) ? ' ("Spin")' : ""),
  labels: { keep: "Keep my hand", exchange: "Take the extra hand", auction: "Auction the extra hand" },
  phaseStatus(T) {
    const t = T.view.table;
    if (t.phase === "choose") {
      return T.myTurn() ? "You deal: keep your hand, take the extra hand (yours is then dead), or auction the extra hand." : `${T.seatNameOf(t.dealer)} is deciding about the extra hand.`;
    }
    if (t.phase === "auction") return T.myTurn() ? `The extra hand is up for auction: bid 1 to ${T.mostOf("bid", "amount")} ${T.stake(2)}, or pass.` : `The extra hand is up for auction: ${T.othersTurn()} to bid.`;
    return null;
  },
  phaseCaption(T) {
    const t = T.view.table;
    if (t.phase === "choose") return `${T.who(t.dealer)} decide${t.dealer === T.me ? "" : "s"} about the extra hand`;
    if (t.phase === "auction") return "The extra hand is up for auction";
    return null;
  },
  passLabel: (T) => (T.legal("bid") ? "Pass (no bid)" : "Pass"),
  moveWords(line, T) {
    if (line.move === "keep") return "kept their own hand (the extra hand is dead)";
    if (line.move === "play" && line.then && spins(T)) return `${T.playWords(line)} ("Spin!")`;
    return null;
  },
  keyWords: { then: "T plays the lifted card then A♦ (Spin)", keep: "K keeps your hand", exchange: "X takes the extra hand", auction: "A auctions it" },
});
