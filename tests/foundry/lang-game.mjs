// For node tests of the module's words: the language files, and a small stand-in of Foundry's
// Localization (api v13 `Localization`: localize, format filling {name}, has, lang) as
// `globalThis.game`, with no RollTable chosen (game.settings.get gives "").
import { readFileSync } from "node:fs";

const ROOT = new URL("../../foundry-module/", import.meta.url);

export const strings = {
  en: JSON.parse(readFileSync(new URL("lang/en.json", ROOT), "utf8")),
  ru: JSON.parse(readFileSync(new URL("lang/ru.json", ROOT), "utf8")),
};

export function useLanguage(lang) {
  const lookup = (key) => key.split(".").reduce((node, part) => node?.[part], strings[lang]);
  globalThis.game = {
    i18n: {
      lang,
      has: (key) => typeof lookup(key) === "string",
      localize: (key) => lookup(key) ?? key,
      format: (key, data) =>
        (lookup(key) ?? key).replace(/\{(\w+)\}/g, (m, name) => (name in data ? String(data[name]) : m)),
    },
    settings: { get: () => "" },
    tables: { get: () => null },
  };
}
