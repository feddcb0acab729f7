// Commit at the table: Sequence's runs (sequence.js), ace low, with the stops face
// down and the 9♦ that may go down with a play (the legal moves offer it).

import * as i18n from "../i18n.js";
import { runGame } from "./sequence.js";

/** The runs' style sheet (sequence.css). */
export { css } from "./sequence.js";

export default runGame({
  deadLabel: () => i18n.t("commit.stops"),
  leadStatus: () => i18n.t("game.lead_any"),
  keyWords: { then: i18n.t("commit.key_then") },
});

/** What the verify page says of a Commit deal: how the pack was made up. */
export const verifyWords = {
  packNote: (report, hand) => i18n.t("commit.pack", { each: hand.deal[0].length, stops: hand.stops.length }),
};
