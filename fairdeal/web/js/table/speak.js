// What a screen reader hears of the game as it goes: one polite live region the table owns
// (#announce in table.html), fed by the play log, every move and every line as the log says it,
// and the seat's turn. Each message is a paragraph added to the region (a screen reader reads what
// is added, in order, without cutting in); the region keeps only its last few.
//
// The toasts keep their own polite copy (#said): a message about a control, not the game's course.

const KEEP = 6; // paragraphs kept in the region: enough for a burst of bots' moves
const said = []; // the last words said, newest last

function region() {
  return document.getElementById("announce");
}

/**
 * Say `text` politely. `again: false` says nothing if the same words were among the last said
 * (a sheet that repeats the hand's end the log has just said).
 */
export function say(text, { again = true } = {}) {
  const node = region();
  if (!node || !text) return;
  if (!again && said.includes(text)) return;
  said.push(text);
  if (said.length > KEEP) said.shift();
  const p = document.createElement("p");
  p.textContent = text;
  node.append(p);
  while (node.children.length > KEEP) node.firstElementChild.remove();
}
