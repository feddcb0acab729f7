// A game's "How to play", as the rules package keeps it (fairdeal/rules/help/<name>.md, and in
// Norwegian help/nb/<name>.md; served by GET /rules/{name}/help?lang=): a small markdown of paragraphs, "- " bullet lists and **bold**. It is
// drawn as elements and text nodes, never through innerHTML, so no text can become markup.
//
//   fill(panel, await howToPlay("…"))   // [<h3>, <div class="help-text">]

import { lang, t } from "./i18n.js";
import { el } from "./ui.js";

const loaded = new Map();

/** The help of the game called `name` ({name, title, help, lang}) in the page's language (else English), fetched once per page. */
export function loadHelp(name) {
  if (!loaded.has(name)) {
    const url = `/rules/${encodeURIComponent(name)}/help?lang=${encodeURIComponent(lang)}`;
    const answer = fetch(url, { headers: { Accept: "application/json" } }).then(async (response) => {
      if (!response.ok) throw new Error(t("help.not_loaded", { status: response.status }));
      return response.json();
    });
    answer.catch(() => loaded.delete(name)); // a failed load is tried again next time
    loaded.set(name, answer);
  }
  return loaded.get(name);
}

/** A line's text with its **bold** runs as <strong>: a list of nodes. */
function inline(text) {
  return text.split(/\*\*(.+?)\*\*/g).map((part, i) => (i % 2 ? el("strong", {}, part) : part));
}

/** The markdown subset as a <div class="help-text">: blank lines part paragraphs, "- " lines make a list. */
export function renderHelp(markdown) {
  const blocks = [];
  let list = null;
  let paragraph = [];
  const endParagraph = () => {
    if (paragraph.length) blocks.push(el("p", {}, inline(paragraph.join(" "))));
    paragraph = [];
  };
  for (const raw of markdown.split(/\r?\n/)) {
    const line = raw.trim();
    const item = /^[-*]\s+(.*)$/.exec(line);
    if (item) {
      endParagraph();
      list ??= blocks[blocks.push(el("ul")) - 1];
      list.append(el("li", {}, inline(item[1])));
    } else if (!line) {
      endParagraph();
      list = null;
    } else {
      list = null;
      paragraph.push(line);
    }
  }
  endParagraph();
  return el("div", { class: "help-text" }, blocks);
}

/** The heading (unless `heading` is false) and the text of a game's "How to play"; the words of a failure if it did not load. */
export async function howToPlay(name, { heading = true } = {}) {
  try {
    const help = await loadHelp(name);
    return [heading ? el("h3", { class: "help-title" }, t("help.title", { game: help.title })) : null, renderHelp(help.help)];
  } catch (error) {
    return [el("p", { class: "error" }, t("help.failed", { reason: error.message }))];
  }
}
