// Michigan and its kin at the table (Michigan, Double Stops, Spin): Sequence's runs
// (sequence.js) with the layout of pay cards and its counters, the extra hand the
// dealer keeps, takes or sells, the bids, and Spin's A♦ that goes down with a play.

import * as i18n from "../i18n.js";
import { runGame } from "./sequence.js";

/** The runs' style sheet (sequence.css). */
export { css } from "./sequence.js";

const spins = (T) => T.entry.name === "spin";

export default runGame({
  deadLabel: (T) => (T.view.table.phase === "play" ? i18n.t("michigan.dead_hand") : i18n.t("michigan.extra_hand")),
  thenWords: (T) => (spins(T) ? ` ${i18n.t("michigan.spin")}` : ""),
  labels: { keep: i18n.t("michigan.keep"), exchange: i18n.t("michigan.exchange"), auction: i18n.t("michigan.auction") },
  phaseStatus(T) {
    const t = T.view.table;
    if (t.phase === "choose") {
      return T.myTurn() ? i18n.t("michigan.you_choose") : i18n.t("michigan.choosing", { name: T.seatNameOf(t.dealer) });
    }
    if (t.phase === "auction") return T.myTurn() ? i18n.t("michigan.you_bid", { most: T.mostOf("bid", "amount"), unit: T.stake(2) }) : i18n.t("michigan.bidding", { turn: T.othersTurn() });
    return null;
  },
  phaseCaption(T) {
    const t = T.view.table;
    if (t.phase === "choose") return t.dealer === T.me ? i18n.t("michigan.you_decide") : i18n.t("michigan.decides", { name: T.who(t.dealer) });
    if (t.phase === "auction") return i18n.t("michigan.up_for_auction");
    return null;
  },
  passLabel: (T) => (T.legal("bid") ? i18n.t("michigan.pass_no_bid") : i18n.t("game.pass")),
  moveWords(line, T) {
    if (line.move === "keep") return i18n.t("michigan.kept");
    if (line.move === "play" && line.then && spins(T)) return i18n.t("michigan.spun", { play: T.playWords(line) });
    return null;
  },
  keyWords: { then: i18n.t("michigan.key_then"), keep: i18n.t("michigan.key_keep"), exchange: i18n.t("michigan.key_exchange"), auction: i18n.t("michigan.key_auction") },
});
