// Wording lives here (and in lang/*.js): the core gives data and error codes, the page words them.
import { STORAGE_KEYS } from "./config.js";
import { en } from "./lang/en.js";
import { RESULTS } from "./lang/results.js";
import { ru } from "./lang/ru.js";
import { TERMS } from "./lang/terms.js";

const DICTS = { en: { ...en, ...RESULTS.en }, ru: { ...ru, ...RESULTS.ru } };
export const LANGS = Object.keys(DICTS);
let lang = "en";

export const currentLang = () => lang;

/** The language to start in: remembered choice, else the browser's, else English. */
export function initialLang() {
  let saved = null;
  try {
    saved = localStorage.getItem(STORAGE_KEYS.lang);
  } catch {
    saved = null;
  }
  if (LANGS.includes(saved)) return saved;
  for (const wanted of navigator.languages || [navigator.language || "en"]) {
    const base = String(wanted).toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

export function setLang(next, remember = true) {
  lang = LANGS.includes(next) ? next : "en";
  if (remember) {
    try {
      localStorage.setItem(STORAGE_KEYS.lang, lang);
    } catch {
      /* private mode: the choice lasts this visit */
    }
  }
  document.documentElement.lang = lang;
}

/**
 * The plural form ("one", "few", "many", "other") the page's language uses for a number
 * (Intl.PluralRules: 1 боец, 2 бойца, 5 бойцов, 21 боец). A number hidden from players (null)
 * takes the form a plain count would ("many" where the language has it).
 */
const pluralRules = new Map(); // lang -> Intl.PluralRules (made once: it is slow to make)

export function pluralForm(count) {
  if (!pluralRules.has(lang)) pluralRules.set(lang, new Intl.PluralRules(lang));
  const rules = pluralRules.get(lang);
  if (typeof count === "number" && Number.isFinite(count)) return rules.select(count);
  return rules.resolvedOptions().pluralCategories.includes("many") ? "many" : "other";
}

/**
 * A number written the page's language's way (Intl.NumberFormat): "69.4%" and "0.4" in English,
 * «69,4 %» and «0,4» in Russian. `percent` takes a share (0.694); `digits` is the most decimals.
 */
const numberFormats = new Map(); // "lang digits percent" -> Intl.NumberFormat (slow to make)

export function formatNumber(value, { digits = 1, percent = false } = {}) {
  const key = `${lang} ${digits} ${percent}`;
  if (!numberFormats.has(key)) {
    const options = { maximumFractionDigits: digits, ...(percent ? { style: "percent" } : {}) };
    numberFormats.set(key, new Intl.NumberFormat(lang, options));
  }
  return numberFormats.get(key).format(value);
}

/** An entry of a dictionary: a text, or one text per plural form chosen by `count`. */
function pick(entry, count) {
  if (typeof entry === "string") return entry;
  return entry[pluralForm(count)] ?? entry.other;
}

/**
 * Translate a key, filling {placeholders} from params; a missing key shows itself. A key whose
 * entry has plural forms ({one, few, many, other}) picks the form for `params.count`.
 */
export function t(key, params = {}) {
  const entry = DICTS[lang][key] ?? DICTS.en[key];
  const text = entry === undefined ? key : pick(entry, params.count);
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? shown(params[name]) : whole));
}

/** A value put into a text: a number hidden from players (null) reads "?", never "null". */
const shown = (value) => (value === null || value === undefined ? "?" : String(value));

/** A dice formula as the page's language writes it: 1d10+4, 1к10+4 (as its к100). */
export const diceText = (formula) => String(formula).replace(/d/gi, t("dice.letter"));

export const has = (key) => key in DICTS[lang] || key in DICTS.en;

/** A rule term in the page's language; `alt` gives it in the other language. */
export function term(key, alt = false) {
  const entry = TERMS[key];
  if (!entry) return key;
  const other = lang === "ru" ? "en" : "ru";
  return entry[alt ? other : lang];
}

/**
 * Fill an element with a term, in the page's language only: a heading reads "Потери", not
 * "Потери Casualties" (the rules view has both languages for a GM who knows the other's words).
 */
export function fillTerm(element, key) {
  element.textContent = term(key);
}

/** Apply the language to every marked element under root. */
export function translate(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-term]")) if (el.dataset.term) fillTerm(el, el.dataset.term);
  for (const el of root.querySelectorAll("[data-term-text]")) el.textContent = term(el.dataset.termText);
}

/** A field path from the core ("rolls.allies", "modifiers.0.percent") in words. */
export function fieldName(field) {
  if (!field) return "";
  const parts = String(field)
    .replace(/\[(\d+)\]/g, ".$1")
    .split(".");
  const words = parts.map((part) => {
    if (/^\d+$/.test(part)) return `#${Number(part) + 1}`;
    if (TERMS[part]) return term(part);
    return has(`field.${part}`) ? t(`field.${part}`) : part;
  });
  return words.join(" · ");
}

/** The core's error in the page's language: its code and params, worded here. */
export function errorMessage(error) {
  if (!error) return "";
  const params = { ...(error.params || {}), field: fieldName(error.field), message: error.message };
  const code = error.code;
  const hasMin = params.min !== undefined && params.min !== null;
  const hasMax = params.max !== undefined && params.max !== null;
  // A range where the core gives one: a bad number, or a missing one (what to type).
  // A text too long (a name): its length in characters, not a number's bound.
  if (
    code === "out_of_range" &&
    hasMax &&
    !hasMin &&
    String(error.field || "")
      .split(".")
      .pop() === "name"
  ) {
    return t("err.too_long", { ...params, count: params.max });
  }
  if (code === "out_of_range" || code === "not_integer" || (code === "required" && (hasMin || hasMax))) {
    const key = hasMin && hasMax ? "range" : hasMin ? "min" : hasMax ? "max" : "any";
    return t(`err.${code}.${key}`, params);
  }
  if (has(`err.${code}`)) {
    const text = t(`err.${code}`, params);
    return params.field && !text.includes(params.field) ? `${params.field}: ${text}` : text;
  }
  return error.message || code;
}
