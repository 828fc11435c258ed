/**
 * What the GM typed in the panel's fields, read strictly by the one parser
 * (logic/typed-numbers.mjs). A bad entry throws a sentence naming the field in the GM's language
 * with an example, and puts the caret back in that field: the action sends nothing.
 */
import { NUMBER_FIELDS, readTyped } from "./logic/typed-numbers.mjs";
import { t } from "./i18n.mjs";

/** The field `name` of `form` (an input, or null). */
function input(form, name) {
  return form.querySelector(`[name="${name}"]`);
}

/** A refusal: the field gets the focus (its text selected) and the message is thrown. */
function refuse(field, message) {
  if (field) {
    field.focus();
    field.select?.();
  }
  throw new Error(message);
}

/**
 * The number typed in field `name` of `form`, read as `kind` (a key of NUMBER_FIELDS: roll, sl,
 * strength, lost, fighters, rating, share); `label`: the field's words. A blank is null, unless
 * `required` (then refused). A share comes back as the core's text fraction ("1/2").
 */
export function readNumber(form, name, kind, label, { required = false } = {}) {
  const spec = NUMBER_FIELDS[kind];
  const field = input(form, name);
  const read = readTyped(field?.value ?? "", spec);
  const words = { field: label, min: spec.min, max: spec.max, example: spec.example };
  if (read.empty) {
    if (required) refuse(field, t("Typed.Required", words));
    return null;
  }
  if (read.error) refuse(field, t(spec.kind === "share" ? "Typed.Share" : "Typed.Whole", words));
  return read.value;
}

/** The text typed in field `name` of `form`, trimmed ("" when none). */
export function readText(form, name) {
  return input(form, name)?.value?.trim() ?? "";
}

/** Whether the checkbox `name` of `form` is ticked. */
export function readChecked(form, name) {
  return Boolean(input(form, name)?.checked);
}
