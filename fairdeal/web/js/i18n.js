// The words of the pages, in the reader's language: English (en) or Norwegian Bokmål (nb).
//
// Each language is one message catalogue, fairdeal/web/js/i18n/<lang>.json (and the renderers'
// words, js/games/i18n/<lang>.json), in i18next's JSON v4
// shape: a flat object of keys, `{{name}}` for a value put in, and a count's forms as sibling keys
// with the CLDR plural category as suffix ("cards_one", "cards_other"; Intl.PluralRules chooses).
// Every key of en.json is in nb.json (a test compares them). A page reads the language once, at
// load: the one the reader chose in the lobby (kept in localStorage), else the first of the
// browser's languages that is Norwegian (nb, no, nn: Bokmål) or English; English by default.
//
//   import { t } from "./i18n.js";
//   t("seats.range", { min: 2, max: 4 })   // "2 to 4 players" / "2 til 4 spillere"
//   t("cards", { count: 1 })               // "1 card" / "1 kort"

export const LANGUAGES = { en: "English", nb: "Norsk bokmål" };
const KEY = "fairdeal.lang";

/** The language a reader's preferences give: `chosen` if it is one of ours, else the browser's. */
export function pickLanguage(chosen, preferred) {
  if (chosen && Object.hasOwn(LANGUAGES, chosen)) return chosen;
  for (const tag of preferred ?? []) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base === "nb" || base === "no" || base === "nn") return "nb";
    if (base === "en") return "en";
  }
  return "en";
}

function kept() {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null; // storage off: the browser's language
  }
}

/** The reader's choice in the lobby, kept for every page of this browser. */
export function chooseLanguage(lang) {
  try {
    localStorage.setItem(KEY, lang);
  } catch {
    // storage off: this page only
  }
}

export const lang = pickLanguage(kept(), typeof navigator === "undefined" ? [] : navigator.languages);

// Two catalogues a language: the pages' (i18n/) and the game renderers' (games/i18n/, what the
// table says of each game's layout and moves, beside the renderers), one set of keys together.
const FOLDERS = ["./i18n/", "./games/i18n/"];

async function load(code) {
  const parts = await Promise.all(
    FOLDERS.map(async (folder) => {
      const response = await fetch(new URL(`${folder}${code}.json`, import.meta.url));
      if (!response.ok) throw new Error(`the ${code} messages did not load (HTTP ${response.status})`);
      return response.json();
    }),
  );
  return Object.assign({}, ...parts);
}

// English is the fallback for a key a catalogue lacks (there should be none: a test says so).
const english = await load("en");
const messages = lang === "en" ? english : await load(lang).catch(() => english);
const plurals = new Intl.PluralRules(lang);

/** The message `key` in the page's language, with `{{name}}` replaced by `values.name`. */
export function t(key, values = {}) {
  let text;
  if (typeof values.count === "number") {
    const form = `${key}_${plurals.select(values.count)}`;
    text = messages[form] ?? english[form] ?? messages[`${key}_other`] ?? english[`${key}_other`];
  }
  text ??= messages[key] ?? english[key];
  if (text === undefined) return key;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}

/**
 * The message `key` with elements put in: each `{{name}}` of `nodes` becomes that node (the
 * others are `values`, as t puts them in); a list for ui.js's fill.
 * withNodes("verify.drop_hint", { file: el("code", {}, ".jsonl") }).
 */
export function withNodes(key, nodes, values = {}) {
  return t(key, values)
    .split(/(\{\{\s*\w+\s*\}\})/)
    .map((part) => {
      const name = /^\{\{\s*(\w+)\s*\}\}$/.exec(part)?.[1];
      return name && Object.hasOwn(nodes, name) ? nodes[name] : part;
    })
    .filter((part) => part !== "");
}

/**
 * The static words of a page: every element with `data-i18n="key"` gets the message as its text,
 * and `data-i18n-attrs="attribute:key; ..."` sets attributes (aria-label, title, placeholder).
 * The document's `lang` follows.
 */
export function translatePage(root = document) {
  if (root === document) document.documentElement.lang = lang;
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-attrs]")) {
    for (const pair of node.dataset.i18nAttrs.split(";")) {
      const [attribute, key] = pair.split(":").map((part) => part.trim());
      if (attribute && key) node.setAttribute(attribute, t(key));
    }
  }
}
