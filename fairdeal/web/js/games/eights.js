// The Eights games at the table (Crazy Eights by the book, Eights, Hollywood Eights):
// Crazy Eights' stock and pile (crazy_eights.js), drawn until a card fits; Hollywood
// Eights adds its three games to the scores (hollywood.js).

import { pileGame } from "./crazy_eights.js";
import { hollywoodGames, hollywoodHint } from "./hollywood.js";

export default pileGame({ scoresExtra: hollywoodGames, scoresHint: hollywoodHint });
