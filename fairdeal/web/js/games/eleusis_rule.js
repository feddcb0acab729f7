// Eleusis's secret rule in the browser (js/games/eleusis.js, which imports this module, draws the
// rest of the table): the box the dealing seat writes the rule in, with the rule language's help,
// the examples and the library to pick from, and the server's refusal marked at its column; the
// rule as the round shows it (being written, the dealer's own, revealed at the end, the round
// before's); the rules revealed so far, under the scores; and the check of a revealed rule against
// the commitment fixed before the first play, worked out here, in the browser, as
// spec/fairness.md says.
//
// `s` is the seat's state that eleusis.js keeps between draws: the rule box is kept in `s.box`.

import { cardName, display } from "../cards.js";
import { concat, lp, sha256, toHex } from "../protocol.js";
import { el } from "../ui.js";

/** Whether this seat deals the round: it writes the secret rule, and sees it while the round runs. */
export function seatDeals(T) {
  const t = T.view.table;
  return !t.server_deals && T.me !== null && t.dealer === T.me;
}

// -- the secret rule's check ---------------------------------------------------------------

const checks = new Map(); // "commitment/nonce/rule" -> "checking" | "checks" | "fails"

function hexBytes(hex) {
  return new Uint8Array((hex.match(/../g) ?? []).map((pair) => parseInt(pair, 16)));
}

/** The commitment to a rule: SHA-256(lp("fairdeal/v1/rule") || lp(rule) || lp(nonce's 32 bytes)), hex. */
export async function ruleCommitment(rule, nonce) {
  return toHex(await sha256(concat(lp("fairdeal/v1/rule"), lp(rule), lp(hexBytes(nonce)))));
}

const CHECK_WORDS = {
  checking: "checking…",
  checks: "✔ checks: SHA-256 of the rule and its nonce is the fingerprint fixed before the first play",
  fails: "✘ does not check: the rule and nonce do not give the fingerprint fixed before the first play",
};

const SHORT_CHECK_WORDS = { checking: "checking…", checks: "✔ checks", fails: "✘ does not check" };

/** A note that says whether `rule` and `nonce` give `commitment`; it updates itself once worked out. */
export function checkNote(rule, nonce, commitment, { id = null, short = false } = {}) {
  const key = `${commitment}/${nonce}/${rule}`;
  if (!checks.has(key)) {
    checks.set(key, "checking");
    ruleCommitment(rule, nonce)
      .then((hex) => checks.set(key, hex === commitment ? "checks" : "fails"))
      .catch(() => checks.set(key, "fails"))
      .then(() => {
        for (const node of document.querySelectorAll("[data-check]")) {
          if (node.dataset.check !== key) continue;
          node.dataset.state = checks.get(key);
          node.textContent = (node.dataset.short ? SHORT_CHECK_WORDS : CHECK_WORDS)[checks.get(key)];
        }
      });
  }
  const state = checks.get(key);
  const words = short ? SHORT_CHECK_WORDS : CHECK_WORDS;
  return el("span", { class: "rule-check", id, "data-check": key, "data-state": state, "data-short": short ? "yes" : null, title: short ? CHECK_WORDS[state] : null }, words[state]);
}

/** The rounds whose rule the record has revealed: [{hand, rule, nonce, commitment}]. */
function revealedRules(T) {
  const record = T.ui.record ?? [];
  const committed = new Map(record.filter((l) => l.type === "rule-commitment").map((l) => [l.hand, l.commitment]));
  return record.filter((l) => l.type === "rule-reveal").map((l) => ({ hand: l.hand, rule: l.rule, nonce: l.nonce, commitment: committed.get(l.hand) ?? null }));
}

// -- the dealer's rule box, and the rule as the round shows it ----------------------------

function pickButton(s, text) {
  return el("li", {}, el("button", { type: "button", class: "rule-pick secondary", "data-rule": text, onclick: () => putRule(s, text) }, text));
}

function putRule(s, text) {
  const box = s.box;
  if (!box) return;
  box.area.value = text;
  showRefusal(box, null);
  box.area.focus();
}

/** The server's refusal under the box, with the column marked; null clears it. */
function showRefusal(box, detail, text = "") {
  const node = box.error;
  if (!detail) {
    node.hidden = true;
    node.replaceChildren();
    return;
  }
  const column = Number(/at column (\d+)/.exec(detail)?.[1] ?? 0);
  const parts = [el("p", { class: "error", id: "rule-error-text" }, `Not a rule the game can read: ${detail}`)];
  if (column && !text.includes("\n") && text.length <= 120) {
    // The rule with a caret under the column the reader stopped at.
    parts.push(el("pre", { class: "rule-caret", id: "rule-caret", "aria-hidden": "true" }, `${text}\n${" ".repeat(column - 1)}^ column ${column}`));
  }
  node.replaceChildren(...parts);
  node.hidden = false;
  if (column) box.area.setSelectionRange(column - 1, column - 1);
  box.area.focus();
  node.scrollIntoView({ block: "nearest" });
}

async function commitRule(T, s) {
  const box = s.box;
  const text = box.area.value;
  if (!text.trim()) {
    showRefusal(box, "write a rule first, or pick one below");
    return;
  }
  showRefusal(box, null);
  await T.send({ move: "rule", rule: text }, { refused: (detail) => showRefusal(box, detail, text) });
}

/** The box the dealing seat writes its rule in: kept from one draw to the next, so what is typed stays. */
function ruleBox(T, s) {
  const t = T.view.table;
  const key = `${T.view.game_id}/${t.hand_no}`;
  if (s.box?.key === key) return s.box.node;
  const area = el("textarea", { id: "rule-text", rows: "3", spellcheck: "false", autocapitalize: "off", autocomplete: "off", "aria-describedby": "rule-error rule-syntax", placeholder: "card.colour != last.colour" });
  area.addEventListener("keydown", (event) => {
    // Enter commits (a rule is one line); Shift+Enter is a new line.
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      commitRule(T, s);
    }
  });
  area.addEventListener("input", () => s.box && showRefusal(s.box, null));
  const error = el("div", { class: "rule-error", id: "rule-error", role: "alert", hidden: true });
  // A sheet over the table: nothing happens at the table until the dealer has committed.
  const sheet = el(
    "section",
    { class: "sheet rule-entry", id: "rule-entry", role: "dialog", "aria-modal": "false", "aria-labelledby": "rule-entry-title" },
    el("h2", { id: "rule-entry-title" }, `You deal round ${t.hand_no}: write the secret rule`),
    el("p", { class: "rule-when" }, `The starter is ${display(t.mainline[0])} (${cardName(t.mainline[0])}): "last" is this card until a card goes on the mainline. `, el("span", { class: "time-left" }, "Time left: ", el("b", { "data-timer": "true" }, "…"))),
    el("p", { class: "hint" }, "Only you see it. Before the first play the table fixes its fingerprint, which everyone sees; when the round ends the rule is shown to all, and the fingerprint checks it."),
    el("label", { for: "rule-text" }, "The rule (Enter commits)"),
    area,
    error,
    el(
      "p",
      { class: "rule-buttons" },
      el("button", { type: "button", class: "gold", id: "rule-commit", onclick: () => commitRule(T, s) }, "Commit to this rule"),
      t.suggested ? el("button", { type: "button", class: "secondary", id: "rule-suggested", onclick: () => putRule(s, t.suggested) }, "Use the suggested rule") : null,
    ),
    el("details", { class: "rule-help", open: true }, el("summary", {}, "How a rule is written"), el("pre", { id: "rule-syntax" }, t.syntax_help ?? "")),
    (t.examples ?? []).length ? el("div", { class: "rule-list" }, el("h3", {}, "The rule text's examples (tap one to put it in the box)"), el("ul", { id: "rule-examples" }, t.examples.map((text) => pickButton(s, text)))) : null,
    (t.library ?? []).length ? el("details", { class: "rule-list" }, el("summary", {}, `The library: ${t.library.length} rule${t.library.length === 1 ? "" : "s"}`), el("ul", { id: "rule-library" }, t.library.map((text) => pickButton(s, text)))) : null,
  );
  const node = el("div", { class: "overlay rule-overlay" }, sheet);
  s.box = { key, node, area, error };
  setTimeout(() => area.isConnected && area.focus(), 0); // the box the dealer's keys go to first
  return node;
}

/** The dealing seat's own rule while the round runs; everyone's once it is over. */
export function ruleNode(T, s) {
  const t = T.view.table;
  if (t.phase === "rule") {
    if (seatDeals(T) && T.legal("rule")) return ruleBox(T, s);
    return el("p", { class: "wanted", id: "rule-wait" }, `${T.who(t.dealer)} ${T.who(t.dealer) === "You" ? "are" : "is"} writing the secret rule.`);
  }
  if (t.phase === "over" && t.rule) {
    return el(
      "section",
      { class: "rule-revealed", id: "rule-revealed", "aria-labelledby": "rule-revealed-title" },
      el("h3", { id: "rule-revealed-title" }, `The secret rule of round ${t.hand_no} was`),
      el("p", {}, el("code", { class: "rule-text", id: "revealed-rule" }, t.rule)),
      el("p", { class: "rule-proof" }, "Fingerprint fixed before the first play: ", el("code", { id: "revealed-commitment" }, t.commitment)),
      el("p", { class: "rule-proof" }, "Nonce, drawn from the game's shuffle: ", el("code", { id: "revealed-nonce" }, t.nonce)),
      el("p", {}, checkNote(t.rule, t.nonce, t.commitment, { id: "rule-check" })),
      el("p", { class: "hint" }, `The dealer scores ${t.dealer_score}${t.server_deals ? " (the server dealt: no seat gets it)" : ""}${t.forecaster_bonus ? `; the Forecaster's bonus is ${t.forecaster_bonus}` : ""}.`),
    );
  }
  if (t.rule && seatDeals(T)) {
    return el("p", { class: "my-rule", id: "my-rule" }, "Your secret rule: ", el("code", { class: "rule-text" }, t.rule), el("span", { class: "hint" }, " Only you see it until the round ends; the server judges each play by it."));
  }
  // The round before this one: its rule, now revealed, for whoever wants to look back.
  const before = revealedRules(T).find((r) => r.hand === t.hand_no - 1);
  if (before) return el("p", { class: "hint last-rule", id: "last-rule" }, `Round ${before.hand}'s rule was `, el("code", { class: "rule-text" }, before.rule), " ", before.commitment ? checkNote(before.rule, before.nonce, before.commitment, { short: true }) : null);
  return null;
}

/** The secret rules revealed so far, each with its check, under the scores. */
export function scoresExtra(T) {
  const rules = revealedRules(T);
  if (!rules.length) return null;
  return el(
    "section",
    { class: "rules-revealed", id: "rules-revealed" },
    el("h3", {}, "The secret rules, revealed"),
    el(
      "ol",
      {},
      rules.map((r) => el("li", {}, el("span", { class: "who" }, `Round ${r.hand}: `), el("code", { class: "rule-text" }, r.rule), " ", r.commitment ? checkNote(r.rule, r.nonce, r.commitment, { short: true }) : null)),
    ),
  );
}
