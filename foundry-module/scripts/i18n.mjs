/** Wording: every string comes from lang/*.json through Foundry's i18n. */
import { pluralCategory } from "./logic/plural.mjs";

const PREFIX = "BACKGROUND_BATTLE";

/** A string in the language; a `{dice}` formula is written as the language writes dice (1к10+4
 * in Russian, as its к100), while Foundry's Roll keeps its own 1d10+4. */
export function t(key, data) {
  const full = `${PREFIX}.${key}`;
  if (!data) return game.i18n.localize(full);
  if (!("dice" in data)) return game.i18n.format(full, data);
  const letter = game.i18n.localize(`${PREFIX}.DiceLetter`);
  return game.i18n.format(full, { ...data, dice: String(data.dice).replace(/d/gi, letter) });
}

/** A counted string: `<key>.one|few|many|other` chosen by Intl.PluralRules for the language. */
export function counted(key, count, data = {}) {
  const lang = game.i18n.lang ?? "en";
  return t(`${key}.${pluralCategory(lang, count)}`, { count, ...data });
}

/** True when the language file has the key (so a fallback can be used otherwise). */
export function has(key) {
  return game.i18n.has(`${PREFIX}.${key}`);
}

/** A field path from the bridge or the core ("rolls.allies") in words, when the language has them. */
export function fieldLabel(field) {
  const path = String(field ?? "");
  const words = path.replace(/\[\d+\]|\.\d+/g, "");
  for (const key of [path, words, words.split(".").pop()]) {
    if (key && has(`Fields.${key}`)) return t(`Fields.${key}`);
  }
  return path;
}

/**
 * Which sentence of a range the bounds call for: a range may be open at either end (the core
 * sends `min`, `max` or both, a bound of null being open), so a code like `out_of_range` has one
 * sentence per shape: `min_max`, `min`, `max`, `none`.
 */
export function boundsKey(params) {
  const min = params?.min !== null && params?.min !== undefined;
  const max = params?.max !== null && params?.max !== undefined;
  return min && max ? "min_max" : min ? "min" : max ? "max" : "none";
}

/**
 * A bridge or core error in the user's language: the code's own sentence when the language file
 * has one (with the field in words, min, max and other params filled in; for a range, the
 * sentence of its bounds), else the bridge's English message. The field is named in words only;
 * a field the language has no words for is called "this field" (its path stays in the debug log).
 */
export function errorText(error) {
  const code = error?.code ?? "internal";
  const path = String(error?.field ?? "");
  const label = fieldLabel(error?.field);
  const params = { ...(error?.params ?? {}), field: path && label === path ? t("Fields.unnamed") : label };
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && typeof value === "object") params[key] = JSON.stringify(value);
  }
  if (has(`Errors.${code}`)) return t(`Errors.${code}`, params);
  const ranged = `Errors.${code}.${boundsKey(error?.params)}`;
  return has(ranged) ? t(ranged, params) : (error?.message ?? code);
}

/** HTML-escapes text for the panel and chat cards. */
export function esc(value) {
  return String(value ?? "")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}
