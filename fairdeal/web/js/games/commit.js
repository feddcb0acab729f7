// Commit at the table: Sequence's runs (sequence.js), ace low, with the stops face
// down and the 9♦ that may go down with a play (the legal moves offer it).

import { runGame } from "./sequence.js";

/** The runs' style sheet (sequence.css). */
export { css } from "./sequence.js";

export default runGame({
  deadLabel: () => "Stops",
  leadStatus: () => "Your turn: lead any card.",
  keyWords: { then: "T plays the lifted card then 9♦" },
});

/** What the verify page says of a Commit deal: how the pack was made up. */
export const verifyWords = {
  packNote: (report, hand) => `The 8♦ is taken out; the other 51 cards are dealt as far as they go evenly (${hand.deal[0].length} each), and the ${hand.stops.length} left over are the stops, face down.`,
};
