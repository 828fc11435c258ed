// What the GM typed and has not saved yet: a form marks itself when typed into (or when a row is
// added or removed); a repaint leaves a marked form as typed, and Start saves the set-up's
// marked forms first (battle-forms.js). Saving a form clears its mark.

export function markTyped(form) {
  form.addEventListener("input", () => (form.dataset.typed = "true"));
}

export function untyped(form) {
  delete form.dataset.typed;
}

export const isTyped = (form) => form.dataset.typed === "true";

const TEXT_INPUTS = 'input:not([type="radio"]):not([type="checkbox"]):not([type="file"])';

/** A modifier row's values as typed (name, percent, flat), or as the view would fill them. */
const rowValues = (row) =>
  ["name", "percent", "flat"].map((key) => row.querySelector(`[data-name="${key}"]`).value.trim());
const viewValues = (m) => [m.name ?? "", m.percent ? String(m.percent) : "", m.flat ? String(m.flat) : ""];

/** Do a side's modifier rows (the wholly empty ones aside) differ from what the battle has? */
function modifiersChanged(form, view) {
  const typed = [...form.querySelectorAll(".modifier-row")].map(rowValues).filter((values) => values.some(Boolean));
  const saved = (view?.sides[form.dataset.side]?.modifiers || []).map(viewValues);
  return JSON.stringify(typed) !== JSON.stringify(saved);
}

function holdsInput(form, view) {
  if (form.classList.contains("modifiers-form")) return modifiersChanged(form, view);
  return [...form.querySelectorAll(TEXT_INPUTS)].some((input) => input.value.trim() !== "");
}

/** The marked forms under root (matching selector) that hold something not saved. */
export function typedForms(root, selector, view) {
  return [...root.querySelectorAll(selector)].filter((form) => isTyped(form) && holdsInput(form, view));
}
