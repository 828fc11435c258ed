/** Wording: every string comes from lang/*.json through Foundry's i18n. */
const PREFIX = "BACKGROUND_BATTLE";

export function t(key, data) {
  const full = `${PREFIX}.${key}`;
  return data ? game.i18n.format(full, data) : game.i18n.localize(full);
}

/** True when the language file has the key (so a fallback can be used otherwise). */
export function has(key) {
  return game.i18n.has(`${PREFIX}.${key}`);
}

/**
 * A bridge or core error in the user's language: the code's own sentence when the language file
 * has one (with field, min, max and other params filled in), else the bridge's English message.
 */
export function errorText(error) {
  const code = error?.code ?? "internal";
  const field = error?.field ?? "";
  const params = { field, ...(error?.params ?? {}) };
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && typeof value === "object") params[key] = JSON.stringify(value);
  }
  const text = has(`Errors.${code}`) ? t(`Errors.${code}`, params) : (error?.message ?? code);
  return field ? `${text} (${field})` : text;
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
