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

/** Translate a key, filling {placeholders} from params; a missing key shows itself. */
export function t(key, params = {}) {
  const text = DICTS[lang][key] ?? DICTS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

export const has = (key) => key in DICTS[lang] || key in DICTS.en;

/** A rule term in the page's language; `alt` gives it in the other language. */
export function term(key, alt = false) {
  const entry = TERMS[key];
  if (!entry) return key;
  const other = lang === "ru" ? "en" : "ru";
  return entry[alt ? other : lang];
}

/** Fill an element with a term and, smaller, the same term in the other language. */
export function fillTerm(element, key) {
  element.textContent = "";
  element.append(term(key));
  const small = document.createElement("small");
  small.className = "alt";
  small.lang = lang === "ru" ? "en" : "ru";
  small.textContent = term(key, true);
  element.append(" ", small);
}

/** Apply the language to every marked element under root. */
export function translate(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-term]")) if (el.dataset.term) fillTerm(el, el.dataset.term);
  for (const el of root.querySelectorAll("[data-term-text]")) {
    el.textContent = `${term(el.dataset.termText)} (${term(el.dataset.termText, true)})`;
  }
}

/** A field path from the core ("rolls.allies", "modifiers.0.percent") in words. */
export function fieldName(field) {
  if (!field) return "";
  const parts = String(field).replace(/\[(\d+)\]/g, ".$1").split(".");
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
  if (code === "out_of_range" || code === "not_integer") {
    const hasMin = params.min !== undefined && params.min !== null;
    const hasMax = params.max !== undefined && params.max !== null;
    const key = hasMin && hasMax ? "range" : hasMin ? "min" : hasMax ? "max" : "any";
    return t(`err.${code}.${key}`, params);
  }
  if (has(`err.${code}`)) {
    const text = t(`err.${code}`, params);
    return params.field && !text.includes(params.field) ? `${params.field}: ${text}` : text;
  }
  return error.message || code;
}
