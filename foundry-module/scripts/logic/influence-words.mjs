/**
 * An Influence effect read for the side that rolled, as the core reads it
 * (core/background_battle/influence_words.py, docs/core-api.md "The Influence table: read for
 * the side that rolled"): `{rolling…}` names the side that rolled, `{other…}` the other side, a
 * capital first letter (`{Rolling}`) gives a capital. A RollTable's row (the imported default
 * table holds the core's texts as written) is read the same way. Pure: no Foundry globals.
 * tests/foundry/influence-words.test.mjs checks these words against the core's own
 * (tests/golden/vectors.json, the `influence_table` op's `placeholders`).
 */

const SIDES = ["allies", "enemies"];

/** Words for a side's fighters, by language and form: [allies, enemies] (the core's FORMS). */
const FORMS = {
  en: {
    "": ["the PCs", "the PCs' foes"],
    one: ["PC", "foe of the PCs"],
    fighter: ["allied fighter", "enemy fighter"],
    fighters: ["allied fighters", "enemy fighters"],
  },
  ru: {
    "": ["персонажи", "противники персонажей"],
    gen: ["персонажей", "противников персонажей"],
    dat: ["персонажам", "противникам персонажей"],
    one: ["персонаж", "противник персонажей"],
    one_acc: ["персонажа", "противника персонажей"],
    fighter: ["союзный боец", "вражеский боец"],
    fighters_gen: ["союзных бойцов", "вражеских бойцов"],
  },
};

const PLACEHOLDER = /\{([^{}]*)\}/g;

function other(side) {
  return side === "allies" ? "enemies" : "allies";
}

/**
 * Every placeholder of a language and its words for a roll by allies and by enemies:
 * {rolling_one: {allies: "PC", enemies: "foe of the PCs"}, ...}.
 */
export function placeholders(lang) {
  const result = {};
  for (const who of ["rolling", "other"]) {
    for (const [form, words] of Object.entries(FORMS[lang] ?? FORMS.en)) {
      const name = form ? `${who}_${form}` : who;
      result[name] = Object.fromEntries(
        SIDES.map((side) => [side, words[SIDES.indexOf(who === "rolling" ? side : other(side))]]),
      );
    }
  }
  return result;
}

/**
 * `text` read for a roll by `side` in `lang`: its placeholders put in; any other `{…}` (an
 * enricher's label, a GM's own braces) is left as it is.
 *
 * @example
 * fill("Each {rolling_one} gains +1 Advantage; {other} lose 1.", "en", "enemies")
 * // "Each foe of the PCs gains +1 Advantage; the PCs lose 1."
 * fill("{Rolling} получают −10.", "ru", "allies") // "Персонажи получают −10."
 */
export function fill(text, lang, side, escape = (words) => words) {
  if (!SIDES.includes(side)) return text;
  const known = placeholders(lang);
  return String(text).replace(PLACEHOLDER, (match, name) => {
    const lowered = name.slice(0, 1).toLowerCase() + name.slice(1);
    const words = known[lowered]?.[side];
    if (words === undefined) return match;
    const cased = name[0] === name[0].toUpperCase() && name[0] !== name[0].toLowerCase();
    return escape(cased ? words[0].toUpperCase() + words.slice(1) : words);
  });
}
