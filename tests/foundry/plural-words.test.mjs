// Every string of the module that takes a count goes through plural rules (Intl.PluralRules):
// each is listed here and rendered for 1, 2, 5 and 21 in English and Russian. A `{count}` outside
// a plural form (`one`, `few`, `many`, `other`) fails the test, so a new counted string must
// join the list.
import { test } from "node:test";
import assert from "node:assert/strict";
import { strings, useLanguage } from "./lang-game.mjs";

const { counted } = await import("../../foundry-module/scripts/i18n.mjs");

const DATA = { side: "Allies", name: "Orcs", strength: 30, tokens: "Hero, Hero" };
const RU_DATA = { ...DATA, side: "Союзники" };

/** key → {en: [1, 2, 5, 21], ru: [1, 2, 5, 21]} */
const EXPECTED = {
  "Panel.TokenCount": {
    en: ["1 token", "2 tokens", "5 tokens", "21 tokens"],
    ru: ["1 токен", "2 токена", "5 токенов", "21 токен"],
  },
  "Panel.CrowdToken": {
    en: ["Orcs: 1 fighter", "Orcs: 2 fighters", "Orcs: 5 fighters", "Orcs: 21 fighters"],
    ru: ["Orcs: 1 боец", "Orcs: 2 бойца", "Orcs: 5 бойцов", "Orcs: 21 боец"],
  },
  "Panel.RoundsPlayed": {
    en: ["1 round played", "2 rounds played", "5 rounds played", "21 rounds played"],
    ru: ["сыгран 1 раунд", "сыграно 2 раунда", "сыграно 5 раундов", "сыгран 21 раунд"],
  },
  "Panel.Detached": {
    en: [
      "1 fighter in the PCs' fight",
      "2 fighters in the PCs' fight",
      "5 fighters in the PCs' fight",
      "21 fighters in the PCs' fight",
    ],
    ru: [
      "1 боец в схватке персонажей",
      "2 бойца в схватке персонажей",
      "5 бойцов в схватке персонажей",
      "21 боец в схватке персонажей",
    ],
  },
  "Step.Detached": {
    en: [
      "Allies: 1 fighter goes into the PCs' fight",
      "Allies: 2 fighters go into the PCs' fight",
      "Allies: 5 fighters go into the PCs' fight",
      "Allies: 21 fighters go into the PCs' fight",
    ],
    ru: [
      "Союзники: 1 боец уходит в схватку персонажей",
      "Союзники: 2 бойца уходят в схватку персонажей",
      "Союзники: 5 бойцов уходят в схватку персонажей",
      "Союзники: 21 боец уходит в схватку персонажей",
    ],
  },
  "SetUp.UnitAdded": {
    en: [1, 2, 5, 21].map((n) => `Allies: Orcs added (${n} ${n === 1 ? "fighter" : "fighters"}, strength 30)`),
    ru: ["боец", "бойца", "бойцов", "боец"].map(
      (w, i) => `Союзники: добавлен отряд «Orcs» (${[1, 2, 5, 21][i]} ${w}, ОС 30)`,
    ),
  },
  "SetUp.UnitChanged": {
    en: [1, 2, 5, 21].map((n) => `Allies: Orcs changed (${n} ${n === 1 ? "fighter" : "fighters"}, strength 30)`),
    ru: ["боец", "бойца", "бойцов", "боец"].map(
      (w, i) => `Союзники: изменён отряд «Orcs» (${[1, 2, 5, 21][i]} ${w}, ОС 30)`,
    ),
  },
  "Card.UnitFighters": {
    en: ["Orcs (1 fighter)", "Orcs (2 fighters)", "Orcs (5 fighters)", "Orcs (21 fighters)"],
    ru: ["Orcs (1 боец)", "Orcs (2 бойца)", "Orcs (5 бойцов)", "Orcs (21 боец)"],
  },
  "Notices.undone": {
    en: [
      "Background Battle: 1 token put back as it was.",
      "Background Battle: 2 tokens put back as they were.",
      "Background Battle: 5 tokens put back as they were.",
      "Background Battle: 21 tokens put back as they were.",
    ],
    ru: [
      "Фоновый бой: 1 токен возвращён как был.",
      "Фоновый бой: 2 токена возвращены как были.",
      "Фоновый бой: 5 токенов возвращены как были.",
      "Фоновый бой: 21 токен возвращён как был.",
    ],
  },
  "Chat.Missing": {
    en: [
      "1 linked token was not found.",
      "2 linked tokens were not found.",
      "5 linked tokens were not found.",
      "21 linked tokens were not found.",
    ],
    ru: [
      "Не найден 1 связанный токен.",
      "Не найдены 2 связанных токена.",
      "Не найдены 5 связанных токенов.",
      "Не найден 21 связанный токен.",
    ],
  },
  "Shared.Notice": {
    en: [1, 2, 5, 21].map(
      (n) =>
        `Hero, Hero share one actor: they count together as ${n} ${n === 1 ? "fighter" : "fighters"}, and the actor is marked once.`,
    ),
    ru: ["боец", "бойца", "бойцов", "боец"].map(
      (w, i) =>
        `У фишек Hero, Hero один общий актёр: они считаются вместе, ${[1, 2, 5, 21][i]} ${w}, и актёр отмечается один раз.`,
    ),
  },
};

function entries(node, prefix = "") {
  return Object.entries(node).flatMap(([key, value]) =>
    typeof value === "object" ? entries(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value]],
  );
}

test("every counted string, for 1, 2, 5 and 21, in English and Russian", () => {
  for (const [key, forms] of Object.entries(EXPECTED)) {
    for (const lang of ["en", "ru"]) {
      useLanguage(lang);
      const data = lang === "ru" ? RU_DATA : DATA;
      assert.deepEqual(
        [1, 2, 5, 21].map((n) => counted(key, n, data)),
        forms[lang],
        `${lang} ${key}`,
      );
    }
  }
});

test("a count is only ever said through a plural form, and each such string is listed above", () => {
  for (const lang of ["en", "ru"]) {
    const counting = entries(strings[lang].BACKGROUND_BATTLE).filter(([, text]) => text.includes("{count}"));
    const keys = new Set();
    for (const [key] of counting) {
      const [form, ...rest] = key.split(".").reverse();
      assert.ok(["one", "few", "many", "other"].includes(form), `${lang} ${key}: {count} outside a plural form`);
      keys.add(rest.reverse().join("."));
    }
    assert.deepEqual([...keys].sort(), Object.keys(EXPECTED).sort(), lang);
  }
});

test("a hidden count (?) reads in the plural, not as one", () => {
  useLanguage("ru");
  assert.equal(counted("Step.Detached", "?", { side: "Враги" }), "Враги: ? бойцов уходят в схватку персонажей");
  useLanguage("en");
  assert.equal(counted("Step.Detached", "?", { side: "Enemies" }), "Enemies: ? fighters go into the PCs' fight");
});
