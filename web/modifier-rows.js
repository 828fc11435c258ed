// The rows of a side's modifiers form (named, a percentage and/or a flat amount).
import { changed, forget } from "./changed.js";
import { translate } from "./i18n.js";
import { isTyped } from "./pending.js";

export function addModifierRow(form, modifier = {}) {
  const row = document.querySelector("#modifier-template").content.firstElementChild.cloneNode(true);
  row.querySelector('[data-name="name"]').value = modifier.name ?? "";
  row.querySelector('[data-name="percent"]').value = modifier.percent ? String(modifier.percent) : "";
  row.querySelector('[data-name="flat"]').value = modifier.flat ? String(modifier.flat) : "";
  translate(row);
  form.querySelector(".modifier-rows").append(row);
  renumberModifiers(form);
  return row;
}

export function renumberModifiers(form) {
  [...form.querySelectorAll(".modifier-row")].forEach((row, i) => {
    for (const input of row.querySelectorAll("[data-name]")) input.name = `modifiers.${i}.${input.dataset.name}`;
  });
}

/**
 * The rows as the view has them (a form typed in and not saved is left as typed). Rows painted
 * from the same modifiers, and left alone since (every change to them marks the form typed),
 * are kept as they are.
 */
export function syncModifierRows(view) {
  for (const form of document.querySelectorAll(".modifiers-form")) {
    const rows = form.querySelector(".modifier-rows");
    if (isTyped(form) || form.contains(document.activeElement)) {
      forget(rows); // left as typed: painted again once the form is no longer typed in
      continue;
    }
    const modifiers = view.sides[form.dataset.side].modifiers || [];
    if (!changed(rows, modifiers)) continue;
    rows.textContent = "";
    for (const modifier of modifiers) addModifierRow(form, modifier);
  }
}
