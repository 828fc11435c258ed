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

/**
 * A refusal of one or more fields: the first gets the focus (its text selected); the error's
 * `messages` say each (act() in panel.mjs shows one notice per field).
 */
function refuse(refusals) {
  const first = refusals[0].field;
  if (first) {
    first.focus();
    first.select?.();
  }
  const error = new Error(refusals[0].message);
  error.messages = refusals.map((r) => r.message);
  throw error;
}

/** Reads one field: {value} or {field, message} (the refusal's words). */
function readOne(form, [name, kind, label, { required = false } = {}]) {
  const spec = NUMBER_FIELDS[kind];
  const field = input(form, name);
  const read = readTyped(field?.value ?? "", spec);
  const words = { field: label, min: spec.min, max: spec.max, example: spec.example };
  if (read.empty) return required ? { field, message: t("Typed.Required", words) } : { value: null };
  if (read.error) return { field, message: t(spec.kind === "share" ? "Typed.Share" : "Typed.Whole", words) };
  return { value: read.value };
}

/**
 * The numbers typed in several fields, each `[name, kind, label, {required}]` (see
 * readNumber); every field at fault is refused at once, the first one first.
 */
export function readNumbers(form, fields) {
  const read = fields.map((each) => readOne(form, each));
  const refusals = read.filter((r) => r.message);
  if (refusals.length) refuse(refusals);
  return read.map((r) => r.value);
}

/**
 * The number typed in field `name` of `form`, read as `kind` (a key of NUMBER_FIELDS: roll, sl,
 * strength, lost, fighters, rating, share); `label`: the field's words. A blank is null, unless
 * `required` (then refused). A share comes back as the core's text fraction ("1/2").
 */
export function readNumber(form, name, kind, label, options = {}) {
  return readNumbers(form, [[name, kind, label, options]])[0];
}

/** The text typed in field `name` of `form`, trimmed ("" when none). */
export function readText(form, name) {
  return input(form, name)?.value?.trim() ?? "";
}

/** Whether the checkbox `name` of `form` is ticked. */
export function readChecked(form, name) {
  return Boolean(input(form, name)?.checked);
}
