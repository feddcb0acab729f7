// The seat's hand and its controls: the cards (sorted, overlapped to fit, the playable ones
// bright on the seat's turn), the buttons under them (Play, Draw, Pass... or the game's own),
// the suit tokens of an eight, and the key hint.

import { cardName, display, isRed, suitName, SUIT_SYMBOLS } from "../cards.js";
import { t } from "../i18n.js";
import { RANKS, SUITS } from "../protocol.js";
import { cardFace, el, fill } from "../ui.js";
import { act, fieldBox, keep, lower, nameSuit, play, playThen, tapCard } from "./moves.js";
import { explainOn, tapped, whyNotWords } from "./tips.js";
import { $, cardNote, chipWord, game, isChips, legal, me, moveForms, mostOf, myTurn, needsSuit, T, thenCards, ui } from "./state.js";

// Suits in a hand alternate colours: clubs, hearts, spades, diamonds.
const HAND_SUIT_ORDER = "CHSD";

function sortHand(codes) {
  const rank = (c) => RANKS.indexOf(c[0]);
  return [...codes].sort((a, b) => HAND_SUIT_ORDER.indexOf(a[1]) - HAND_SUIT_ORDER.indexOf(b[1]) || rank(a) - rank(b));
}

export function renderSuitPicker() {
  const picker = $("suit-picker");
  const open = ui.picking && ui.lifted && needsSuit(ui.lifted) && myTurn();
  picker.hidden = !open;
  if (!open) {
    fill(picker);
    return;
  }
  fill(
    picker,
    el("span", { class: "picker-title" }, t("table.name_suit_for", { card: display(ui.lifted) })),
    [...SUITS].map((letter, i) =>
      el(
        "button",
        { type: "button", class: `suit-token ${isRed(letter) ? "red" : "black"}`, "data-suit": letter, "aria-label": t("table.name_suit", { suit: suitName(letter), n: i + 1 }), onclick: () => nameSuit(letter) },
        el("span", { class: "glyph", "aria-hidden": "true" }, SUIT_SYMBOLS[i]),
        el("span", { class: "suit-word" }, suitName(letter)),
        el("kbd", { "aria-hidden": "true" }, String(i + 1)),
      ),
    ),
  );
}

export function renderHand() {
  const view = ui.view;
  const handNode = $("hand");
  const active = handNode.contains(document.activeElement) ? document.activeElement?.dataset?.code : null;
  const activeCopy = handNode.contains(document.activeElement) ? (document.activeElement?.dataset?.copy ?? "0") : null;
  const codes = sortHand(view.hand ?? []);
  const turn = myTurn();
  const copies = new Map(); // two packs: the second 7♥ of a hand is copy 1
  const leaving = [...ui.leaving]; // cards flying to the table (motion): their places stay empty
  const buttons = codes.map((code, i) => {
    const note = cardNote(code);
    const playable = Boolean(note?.playable) && turn;
    const copy = copies.get(code) ?? 0;
    copies.set(code, copy + 1);
    // A game that chooses cards in order marks each chosen card with its place (1, 2, 3...).
    const mark = game.hooks.handCard?.(code, copy, T) ?? null;
    const lifted = ui.lifted === code || Boolean(mark);
    const named = t(playable ? "table.card_playable" : "table.card_not_playable", { card: cardName(code) });
    const label = mark ? t("table.card_chosen", { label: named, mark }) : lifted ? t("table.card_lifted", { label: named }) : named;
    // A screen reader hears why not, in the engine's words, after the card's name.
    const why = note?.why_not && turn ? el("span", { class: "visually-hidden", id: `why-${i}` }, note.why_not) : null;
    const node = cardFace(code, {
      tag: "button",
      label,
      attrs: {
        type: "button",
        tabindex: "-1",
        "aria-describedby": why ? `why-${i}` : null,
        "aria-pressed": lifted ? "true" : "false",
        "data-copy": String(copy),
        "data-order": mark,
        "data-then": playable && thenCards(code).length ? "yes" : null,
        class: `card ${isRed(code) ? "red" : "black"}${playable ? " playable" : " dim"}${lifted ? " lifted" : ""}${(ui.newCards ?? []).includes(code) ? " fresh" : ""}${turn ? "" : " waiting"}${takeOut(leaving, code) ? " in-flight" : ""}`,
      },
    });
    if (why) node.append(why);
    if (mark) node.append(el("span", { class: "order-mark", "aria-hidden": "true" }, mark));
    node.addEventListener("click", tapped(() => tapCard(code, copy)));
    // The tip says what the face does not: why not, or how to play it; never the card's name again.
    explainOn(node, () => (note?.why_not ? whyNotWords(code, note.why_not) : turn ? (game.hooks.cardHint?.(code, T) ?? t("table.card_hint", { card: display(code) })) : null));
    return node;
  });
  fill(handNode, buttons);
  if (!buttons.length) fill(handNode, el("span", { class: "empty-hand hint" }, view.status === "seeding" ? t("table.cards_come") : me === null ? "" : (game.hooks.emptyHand?.(T) ?? t("table.no_cards"))));
  // One card takes the Tab stop; the arrows move along the hand. Never a card in flight (hidden
  // while it flies): the focus would fall from it to the page.
  const focusCode = active ?? ui.focused;
  const focusCopy = active ? activeCopy : (ui.focusedCopy ?? "0");
  const staying = buttons.filter((b) => !b.classList.contains("in-flight"));
  const target = staying.find((b) => b.dataset.code === focusCode && b.dataset.copy === focusCopy) ?? staying.find((b) => b.dataset.code === focusCode) ?? staying.find((b) => b.dataset.code === ui.lifted) ?? staying.find((b) => b.classList.contains("playable")) ?? staying[0];
  if (target) target.tabIndex = 0;
  if (active && target) target.focus({ preventScroll: true });
  fitHand();
}

/** Take one `code` out of `codes` (true), if it is there. */
function takeOut(codes, code) {
  const i = codes.indexOf(code);
  if (i >= 0) codes.splice(i, 1);
  return i >= 0;
}

/** Overlap the cards so the hand fits its width (a phone holds a big hand too). */
export function fitHand() {
  const handNode = $("hand");
  const cards = [...handNode.querySelectorAll(".card")];
  handNode.classList.remove("crowded");
  if (!cards.length) return;
  const style = getComputedStyle(handNode);
  const width = handNode.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 2;
  const gap = 6;
  const MIN_SLICE = 16; // enough of each card to show its corner (rank over suit)
  let cardWidth = cards[0].offsetWidth || 80;
  if (cards.length > 1 && (width - cardWidth) / (cards.length - 1) < MIN_SLICE + 6) {
    handNode.classList.add("crowded"); // smaller cards before the overlap gets too deep
    cardWidth = cards[0].offsetWidth || cardWidth;
  }
  let step = cardWidth + gap;
  if (cards.length > 1 && cards.length * step - gap > width) step = Math.max(MIN_SLICE, (width - cardWidth) / (cards.length - 1));
  handNode.style.setProperty("--step", `${step - cardWidth}px`);
}

export function renderActions() {
  const view = ui.view;
  const buttons = [];
  // A game with controls of its own (a string's Play and Clear, a Forecaster's calls) draws them.
  const own = game.hooks.actions?.(T);
  if (own) {
    fill($("actions"), own);
    $("keys").textContent = keysText();
    return;
  }
  if (myTurn()) {
    // A drawn card the seat must play or keep (a view's declared `pending`, rules/base.py SEAT_OWN):
    // its two answers stand first; the declared `keep` kind is its second.
    const pending = view.pending;
    if (pending) {
      buttons.push(el("button", { type: "button", class: "gold", id: "play-it", onclick: () => play(pending) }, t("table.play_it", { card: display(pending) })));
      if (legal("keep")) buttons.push(el("button", { type: "button", class: "secondary", id: "keep-it", onclick: keep }, t("table.keep_it"), el("kbd", {}, "K")));
    } else if (ui.lifted && cardNote(ui.lifted)?.playable) {
      const lifted = ui.lifted;
      buttons.push(el("button", { type: "button", class: "gold", id: "play", onclick: () => play(lifted) }, t("table.play_card", { card: display(lifted) }), el("kbd", {}, "Enter")));
      // Spin's A♦, Commit's 9♦: the same play with the second card added, one move.
      for (const then of thenCards(lifted)) {
        const words = game.hooks.thenWords?.(T) ?? "";
        buttons.push(el("button", { type: "button", class: "gold", id: "play-then", "data-then": then, onclick: () => playThen(lifted, then) }, `${t("table.play_then", { card: display(lifted), then: display(then) })}${words}`, el("kbd", {}, "T")));
      }
      buttons.push(el("button", { type: "button", class: "secondary", id: "lower", onclick: lower }, t("table.put_back"), el("kbd", {}, "Esc")));
    }
    // Every other kind the game declares, pass last: its button, or its box and button.
    const forms = moveForms().filter((form) => form.kind !== "play" && legal(form.kind) && !(pending && form.kind === "keep"));
    forms.sort((a, b) => (a.kind === "pass") - (b.kind === "pass"));
    for (const form of forms) buttons.push(...controlsOf(form, { primary: form.kind === "keep" || form.fields.length > 0 }));
  }
  fill($("actions"), buttons);
  $("keys").textContent = keysText();
}

/**
 * A declared kind's controls: a button (with its key); a count field adds its box (1 to the most
 * the legal moves allow; Enter in it makes the move); a choice field gives a button per word.
 * Fields of other types (cards, text) are the game renderer's to draw (its `actions` hook).
 */
function controlsOf(form, { primary }) {
  const words = label(form);
  const kbd = form.key ? [el("kbd", {}, form.key)] : [];
  const button = (id, text, chosen) =>
    el("button", { type: "button", class: primary ? "gold" : "secondary", id, onclick: () => act(form, chosen) }, text, ...kbd);
  const needed = form.fields.filter((field) => !field.optional);
  const choice = needed.find((field) => field.type === "choice");
  if (choice) return choice.choices.map((word) => button(`${form.kind}-${word}`, `${words}: ${word}`, { [choice.name]: word }));
  const count = needed.find((field) => field.type === "count");
  if (!count) return [button(form.kind, words, {})];
  const id = fieldBox(form, count);
  const offered = (ui.view.legal_moves ?? []).filter((m) => m.move === form.kind).map((m) => m[count.name]);
  const least = Math.min(...offered);
  const most = mostOf(form.kind, count.name);
  const what = isChips() ? `${chipWord(2)[0].toUpperCase()}${chipWord(2).slice(1)}` : count.doc ?? count.name;
  const input = el("input", { type: "number", id, min: String(least), max: String(most), step: "1", value: $(id)?.value || String(least), inputmode: "numeric", "aria-label": t("table.amount_box", { what, action: words.toLowerCase(), least, most }) });
  input.addEventListener("focus", () => input.select()); // typing replaces the amount
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      act(form);
    }
  });
  return [el("span", { class: "move-box", role: "group", "aria-label": form.doc || words }, el("label", { for: id }, words), input, button(form.kind, words, {}))];
}

/** A control's words: the game's renderer may name its moves (Michigan's "Take the extra hand"), else its declaration's label. */
function label(form) {
  return game.hooks.labels?.[form.kind] ?? (form.kind === "pass" ? passLabel() : form.label);
}

function passLabel() {
  return game.hooks.passLabel?.(T) ?? t("table.pass");
}

/**
 * The key hint: the keys that act in this game, from the catalogue's `moves` and the keys this
 * page binds. A renderer may reword a key (`keyWords`: {pass: "P picks up the trick"}), add its
 * own (`keyLines(T)`: ["1–4 name a suit"]), or, if its keys are its own altogether, say them all
 * (`keys(T)`).
 */
function keysText() {
  const own = game.hooks.keys?.(T);
  if (own) return own;
  const moves = game.entry?.moves ?? [];
  const words = game.hooks.keyWords ?? {};
  const parts = moves.includes("play") ? [t("table.key_tab"), t("table.key_arrows"), t("table.key_enter")] : [];
  if (game.entry?.two_card_plays) parts.push(words.then ?? t("table.key_then"));
  // Each declared kind with a key, as the declaration says it (pass last), so a table never offers a key that does nothing there.
  const keyed = moveForms().filter((form) => form.key && form.hint);
  keyed.sort((a, b) => (a.kind === "pass") - (b.kind === "pass"));
  for (const form of keyed) parts.push(words[form.kind] ?? `${form.key} ${form.hint}`);
  parts.push(...(game.hooks.keyLines?.(T) ?? []), t("table.key_sound"));
  return t("table.keys", { keys: parts.join(", ") });
}
