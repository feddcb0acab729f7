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
import * as i18n from "../i18n.js";
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
  checking: i18n.t("eleusis.checking"),
  checks: i18n.t("eleusis.checks"),
  fails: i18n.t("eleusis.fails"),
};

const SHORT_CHECK_WORDS = { checking: i18n.t("eleusis.checking"), checks: i18n.t("eleusis.checks_short"), fails: i18n.t("eleusis.fails_short") };

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
  const parts = [el("p", { class: "error", id: "rule-error-text" }, i18n.t("eleusis.not_a_rule", { detail }))];
  if (column && !text.includes("\n") && text.length <= 120) {
    // The rule with a caret under the column the reader stopped at.
    parts.push(el("pre", { class: "rule-caret", id: "rule-caret", "aria-hidden": "true" }, `${text}\n${" ".repeat(column - 1)}${i18n.t("eleusis.caret", { column })}`));
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
    showRefusal(box, i18n.t("eleusis.write_first"));
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
    el("h2", { id: "rule-entry-title" }, i18n.t("eleusis.you_write", { hand: t.hand_no })),
    el("p", { class: "rule-when" }, `${i18n.t("eleusis.starter_is", { card: display(t.mainline[0]), name: cardName(t.mainline[0]) })} `, el("span", { class: "time-left" }, `${i18n.t("eleusis.time_left")} `, el("b", { "data-timer": "true" }, "…"))),
    el("p", { class: "hint" }, i18n.t("eleusis.only_you")),
    el("label", { for: "rule-text" }, i18n.t("eleusis.the_rule")),
    area,
    error,
    el(
      "p",
      { class: "rule-buttons" },
      el("button", { type: "button", class: "gold", id: "rule-commit", onclick: () => commitRule(T, s) }, i18n.t("eleusis.commit")),
      t.suggested ? el("button", { type: "button", class: "secondary", id: "rule-suggested", onclick: () => putRule(s, t.suggested) }, i18n.t("eleusis.suggested")) : null,
    ),
    el("details", { class: "rule-help", open: true }, el("summary", {}, i18n.t("eleusis.how_written")), el("pre", { id: "rule-syntax" }, t.syntax_help ? i18n.t("eleusis.syntax_help") : "")),
    (t.examples ?? []).length ? el("div", { class: "rule-list" }, el("h3", {}, i18n.t("eleusis.examples")), el("ul", { id: "rule-examples" }, t.examples.map((text) => pickButton(s, text)))) : null,
    (t.library ?? []).length ? el("details", { class: "rule-list" }, el("summary", {}, i18n.t("eleusis.library", { count: t.library.length })), el("ul", { id: "rule-library" }, t.library.map((text) => pickButton(s, text)))) : null,
  );
  const node = el("div", { class: "overlay rule-overlay" }, sheet);
  s.box = { key, node, area, error };
  setTimeout(() => area.isConnected && area.focus(), 0); // the box the dealer's keys go to first
  return node;
}

/** The round's rule as its end reveals it (`t`, the table at the round's end): the rule, the
 * fingerprint fixed before the first play, the nonce, the check worked out here, and what the
 * dealer scored; `ids` names its parts. */
function revealedRule(t, ids, { className = "rule-revealed", short = false } = {}) {
  return el(
    "section",
    { class: className, id: ids.section, "aria-labelledby": ids.title },
    el("h3", { id: ids.title }, i18n.t("eleusis.rule_was", { hand: t.hand_no })),
    el("p", {}, el("code", { class: "rule-text", id: ids.rule }, t.rule)),
    el("p", { class: "rule-proof" }, `${i18n.t("eleusis.fingerprint")} `, el("code", { id: ids.commitment }, t.commitment)),
    el("p", { class: "rule-proof" }, `${i18n.t("eleusis.nonce")} `, el("code", { id: ids.nonce }, t.nonce)),
    el("p", {}, checkNote(t.rule, t.nonce, t.commitment, { id: ids.check, short })),
    el("p", { class: "hint" }, dealerScores(t)),
  );
}

/** "The dealer scores 4 (the server dealt: no seat gets it); the Forecaster's bonus is 2." */
function dealerScores(t) {
  const said = { score: t.dealer_score, bonus: t.forecaster_bonus };
  if (t.server_deals) return t.forecaster_bonus ? i18n.t("eleusis.server_scores_bonus", said) : i18n.t("eleusis.server_scores", said);
  return t.forecaster_bonus ? i18n.t("eleusis.dealer_scores_bonus", said) : i18n.t("eleusis.dealer_scores", said);
}

/** What a round's summary (the sheet between rounds, the game's end) shows besides every seat's
 * cards: the rule revealed at its end, with its commitment and the check. Ids begin with `prefix`. */
export function handEndMore(T, hand, prefix) {
  const t = T.view.table;
  if (!t || t.phase !== "over" || !t.rule || t.hand_no !== hand.hand) return null;
  const id = (part) => `${prefix}-${part}`;
  return revealedRule(t, { section: id("rule"), title: id("rule-title"), rule: id("rule-text"), commitment: id("rule-commitment"), nonce: id("rule-nonce"), check: id("rule-check") }, { className: "rule-revealed rule-summary" });
}

/** The dealing seat's own rule while the round runs; everyone's once it is over. */
export function ruleNode(T, s) {
  const t = T.view.table;
  if (t.phase === "rule") {
    if (seatDeals(T) && T.legal("rule")) return ruleBox(T, s);
    return el("p", { class: "wanted", id: "rule-wait" }, t.dealer === T.me ? i18n.t("eleusis.you_are_writing") : i18n.t("eleusis.writing", { name: T.who(t.dealer) }));
  }
  if (t.phase === "over" && t.rule) {
    // On the board, beside the layout (the round's summary has the check in full words).
    return revealedRule(t, { section: "rule-revealed", title: "rule-revealed-title", rule: "revealed-rule", commitment: "revealed-commitment", nonce: "revealed-nonce", check: "rule-check" }, { short: true });
  }
  if (t.rule && seatDeals(T)) {
    return el("p", { class: "my-rule", id: "my-rule" }, `${i18n.t("eleusis.your_rule")} `, el("code", { class: "rule-text" }, t.rule), el("span", { class: "hint" }, ` ${i18n.t("eleusis.your_rule_hint")}`));
  }
  // The round before this one: its rule, now revealed, for whoever wants to look back.
  const before = revealedRules(T).find((r) => r.hand === t.hand_no - 1);
  if (before) return el("p", { class: "hint last-rule", id: "last-rule" }, `${i18n.t("eleusis.last_rule", { hand: before.hand })} `, el("code", { class: "rule-text" }, before.rule), " ", before.commitment ? checkNote(before.rule, before.nonce, before.commitment, { short: true }) : null);
  return null;
}

/** The secret rules revealed so far, each with its check, under the scores. */
export function scoresExtra(T) {
  const rules = revealedRules(T);
  if (!rules.length) return null;
  return el(
    "section",
    { class: "rules-revealed", id: "rules-revealed" },
    el("h3", {}, i18n.t("eleusis.rules_revealed")),
    el(
      "ol",
      {},
      rules.map((r) => el("li", {}, el("span", { class: "who" }, `${i18n.t("eleusis.round_n", { hand: r.hand })} `), el("code", { class: "rule-text" }, r.rule), " ", r.commitment ? checkNote(r.rule, r.nonce, r.commitment, { short: true }) : null)),
    ),
  );
}
