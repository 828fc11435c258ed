// Forms: read what the GM typed (as typed: the core judges it) and show the core's errors next to it.
import { errorMessage } from "./i18n.js";

let errorIds = 0;

/**
 * A typed value as the core should see it: empty is absent, a whole number (digits with a sign
 * `+`, `-` or `−`) is a number, anything else is the text as typed, for the core to read or
 * refuse by its field (a share's `0,5`, `50%`; `4.5` or `1e3` in a whole-number field). The core
 * bounds it; a number too long for JavaScript goes as the largest one, which the core refuses
 * as out of range (JSON has no Infinity). tests/web/test_typed_numbers.py holds it to the table
 * the core and the Foundry panel read.
 */
export function parseValue(raw) {
  const text = String(raw ?? "").trim();
  if (text === "") return undefined;
  if (!/^[+\-−]?[0-9]+$/.test(text)) return text;
  const sign = /^[-−]/.test(text) ? -1 : 1;
  const value = Number(text.replace(/^[+\-−]/, ""));
  return sign * (Number.isFinite(value) ? value : Number.MAX_VALUE) + 0; // + 0: no -0
}

/** The parsed value of the named control of a form (undefined when empty). */
export function valueOf(form, name) {
  const control = form.elements.namedItem(name);
  if (!control) return undefined;
  if (control instanceof RadioNodeList) return control.value || undefined;
  if (control.type === "checkbox") return control.checked;
  if (control.tagName === "SELECT") return control.value || undefined;
  return parseValue(control.value);
}

/** Put the present values into obj under their keys (absent ones are left out). */
export function putValues(obj, form, names) {
  for (const name of names) {
    const value = valueOf(form, name);
    if (value !== undefined) obj[name] = value;
  }
  return obj;
}

export function clearErrors(form) {
  for (const el of form.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
  for (const el of form.querySelectorAll(".field-error, .form-error")) el.textContent = "";
}

const normalize = (field) => String(field || "").replace(/\[(\d+)\]/g, ".$1");

/** Show an error reply's message next to the field it names, or under the form. */
export function showError(form, error) {
  const message = errorMessage(error);
  const field = normalize(error?.field);
  let control = null;
  if (field) {
    control = [...form.querySelectorAll("[name]")].find((el) => el.name === field);
    if (!control) {
      // "rolls" when both rolls are missing, "modifiers" for the whole list: the first of them.
      control = [...form.querySelectorAll("[name]")].find((el) => el.name.startsWith(`${field}.`));
    }
  }
  const slot = control?.closest(".field")?.querySelector(".field-error");
  if (control && slot) {
    control.setAttribute("aria-invalid", "true");
    if (!slot.id) slot.id = `error-${++errorIds}`;
    control.setAttribute("aria-describedby", slot.id);
    slot.textContent = message;
    control.focus({ preventScroll: false });
  } else {
    form.querySelector(".form-error").textContent = message;
  }
  return message;
}
