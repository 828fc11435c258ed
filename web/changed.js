// Painting only what changed: an element remembers what (and in which language) it was last
// painted from, so a render that is given the same data again leaves it as it is.
const painted = new WeakMap(); // element -> the JSON of what it shows

/** True, and remembered, when `el` was last painted from other `parts` (or another language). */
export function changed(el, ...parts) {
  const key = JSON.stringify([document.documentElement.lang, ...parts]);
  if (painted.get(el) === key) return false;
  painted.set(el, key);
  return true;
}

/** Forget what `el` was painted from: its next `changed` is true. */
export const forget = (el) => painted.delete(el);

/** Write `text` into `el` unless it shows it already (a write, even of the same text, is work). */
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/** Hide or show `el` unless it is so already. */
export function setHidden(el, hidden) {
  if (el.hidden !== hidden) el.hidden = hidden;
}
