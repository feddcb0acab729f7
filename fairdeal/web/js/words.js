// What a record line says, in a player's words: "Ann drew a card.", "Hand 2: Bob went out and
// scored 31.", "The pot paid 4 chips to Cy (matched the pair)." One source for the table's play
// log, its toasts and sheets (table/messages.js) and the hand replayer (replay.js). Each function
// takes the page's renderer kit `T` (render.js rendererKit): the seats' names ("You" for the
// page's own seat), the game's catalogue entry (its declared move forms and unit) and its
// renderer, which may say a line its own way (hooks lineWords, moveWords, handEndWords).
//
// Every sentence is one message of the page's language (i18n.js, keys "words.*"), the names and
// cards put in; where the page's own seat changes a sentence's words ("You deal"/"Ann deals",
// "Du forpliktet deg"/"Ann forpliktet seg") the seat's sentence is a message of its own (`_you`).

import { display } from "./cards.js";
import { t } from "./i18n.js";
import { playWords } from "./render.js";
import { shortHex } from "./ui.js";

/** The message `key`, or `key_you` when `seat` is the page's own: `name` put in as the seat's name. */
function bySeat(key, seat, T, values = {}) {
  return seat === T.me ? t(`${key}_you`, values) : t(key, { name: T.who(seat), ...values });
}

/** A move as the log says it, without the mover ("played 9♣ and named hearts", "drew a card"). */
export function moveWords(line, T) {
  const own = T.game?.moveWords?.(line, T);
  if (own) return own;
  if (line.move === "play") return playWords(line);
  // As the game declares it: its log words, a template of the line's members.
  const form = (T.entry?.move_forms ?? []).find((f) => f.kind === line.move);
  return form?.said ? form.said.replace(/\{(\w+)\}/g, (_, member) => String(line[member] ?? "")) : line.move;
}

/** A seat's move as a sentence: "Ann drew a card.", "You passed (time ran out)." (`words`: the move's, if not moveWords'). */
export function moveSentence(line, T, words = moveWords(line, T)) {
  return t(line.auto ? "words.move_auto" : "words.move", { name: T.who(line.seat), move: words });
}

/** How a hand ended: "Hand 2: Ann went out and scored 31.", or who held the lowest count. */
export function handEndWords(line, T) {
  const own = T.game?.handEndWords?.(line, T);
  if (own) return own;
  const score = line.scores[line.winners[0]];
  if (line.how === "out") {
    return t(T.holdsStake() ? "words.went_out" : "words.went_out_scored", { hand: line.hand, name: T.who(line.winners[0]), score });
  }
  return t("words.blocked", { hand: line.hand, names: namesWords(line.winners, T), score });
}

/** Who pays (`start`: the sentence's subject) or is paid: a seat, the pot, or a card of the layout (counters lie on them). */
function party(x, T, start = false) {
  if (x === "pot") return t(start ? "words.the_pot_start" : "words.the_pot");
  if (typeof x === "string") return t(start ? "words.the_card_start" : "words.the_card", { card: display(x) });
  return start ? T.who(x) : (T.whom ?? T.who)(x);
}

/** Why chips moved ("matched the pair"): the rules' reason, in the page's words where it has them. */
function reasonWords(reason) {
  const key = `words.reason_${String(reason).replace(/-/g, "_")}`;
  const said = t(key);
  return said === key ? String(reason).replace(/-/g, " ") : said;
}

/** A record line as a sentence, or null for a line nobody needs to read of. */
export function lineWords(line, T) {
  const own = T.game?.lineWords?.(line, T);
  if (own) return own;
  switch (line.type) {
    case "header":
      return t("words.table_opened", { fingerprint: shortHex(line.commitment, 8) });
    case "client-commit":
      return bySeat("words.committed", line.seat, T);
    case "client-reveal":
      return bySeat("words.revealed", line.seat, T);
    case "start":
      return t("words.seeds_in");
    case "draw-for-deal":
      return bySeat("words.draw_for_deal", line.dealer, T, { cards: line.cards.map(display).join(" ") });
    case "deal":
      if (line.turned?.length) return bySeat("words.deal_starter", line.dealer, T, { hand: line.hand, card: display(line.turned.at(-1)) });
      return bySeat("words.deal", line.dealer, T, { hand: line.hand });
    case "move":
      return moveSentence(line, T);
    case "restock":
      return t("words.restock", { count: line.cards });
    case "chips":
      return t("words.paid", { from: party(line.from, T, true), amount: line.amount, unit: T.stake(line.amount), to: party(line.to, T), reason: reasonWords(line.reason) });
    case "put-down":
      return t("words.put_down", { name: T.who(line.seat), cards: line.cards.map(display).join(" ") });
    case "pick-up":
      return t("words.picked_up", { name: T.who(line.seat), cards: line.cards.map(display).join(" ") });
    case "hand-end":
      return handEndWords(line, T);
    case "match-end":
      return t("words.game_over");
    case "abandon":
      // The record's reason, as the host gave it; the one the server gives when none is, in the page's words.
      return t("words.abandoned", { reason: line.reason === "abandoned by the host" ? t("words.abandoned_by_host") : line.reason });
    case "reveal":
      return t("words.server_revealed");
    default:
      return null;
  }
}

/** "Ann", "Ann and Bob", "Ann, Bob and Cy" ("Ann, Bob og Cy"). */
export function namesWords(seats, T) {
  return listWords(seats.map(T.who));
}

/** Words in a list: "a", "a and b", "a, b and c". */
export function listWords(words) {
  return words.length > 1 ? t("words.and", { rest: words.slice(0, -1).join(", "), last: words.at(-1) }) : (words[0] ?? "");
}
