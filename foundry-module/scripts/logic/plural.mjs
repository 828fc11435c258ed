/**
 * Plural forms (Intl.PluralRules, as the page does): the key of a counted string is
 * `<key>.<category>`, with `one`, `few`, `many` and `other` in every language file.
 */
const rules = new Map();

/** The plural category of a count in a language: "one", "few", "many" or "other". */
export function pluralCategory(lang, count) {
  if (!rules.has(lang)) {
    let rule;
    try {
      rule = new Intl.PluralRules(lang);
    } catch {
      rule = new Intl.PluralRules("en");
    }
    rules.set(lang, rule);
  }
  const category = rules.get(lang).select(Number(count));
  return ["one", "few", "many"].includes(category) ? category : "other";
}
