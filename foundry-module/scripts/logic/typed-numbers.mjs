/**
 * The panel's pre-check of every number a GM types, so that a typo is refused before anything
 * reaches the bridge (never a NaN the JSON turns into null). It reads exactly as the core does
 * (core/background_battle/validate.py `typed_whole`, `share`), with the core's own bounds
 * (command-numbers.mjs, generated from the core's command shapes): no bound is written here.
 * tests/foundry/typed-numbers.test.mjs feeds it the table the core and the page are fed too.
 * Pure: no Foundry globals, no DOM; the panel names the field in the GM's language.
 *
 * - a whole number: digits with an optional sign (`+`, `-` or `−`), inside the field's range;
 * - a share (0 to 1): `1/2`, `0.5`, `0,5` (a decimal comma is a decimal point), `50%`, `50 %`,
 *   `12,5 %`. It is sent as the exact text fraction the core keeps (`"1/2"`), so no float
 *   rounds it.
 *
 * No exponent, ASCII digits only, at most MAX_TYPED characters: any text is read in microseconds.
 */
import { COMMAND_NUMBERS, MAX_TYPED } from "./command-numbers.mjs";

/** The core's field each kind of the panel's numbers goes to, and a value a refusal shows. */
const FIELD_OF = {
  roll: ["resolve_round.rolls.allies", "42"],
  sl: ["leader_command.sl", "2"],
  leadership: ["leader_command.leadership", "45"],
  strength: ["set_strength.strength", "30"],
  lost: ["resolve_round.lost.allies", "5"],
  fighters: ["add_unit.fighters", "10"],
  rating: ["add_unit.rating", "4"],
  percent: ["set_modifiers.modifiers[].percent", "10"],
  flat: ["set_modifiers.modifiers[].flat", "5"],
  share: ["pcs_won.fleeing", "1/2"],
};

/** The panel's number fields: the core's {kind, min, max} of each, its field, an example. */
export const NUMBER_FIELDS = Object.freeze(
  Object.fromEntries(
    Object.entries(FIELD_OF).map(([name, [field, example]]) => [
      name,
      Object.freeze({ ...COMMAND_NUMBERS[field], field, example }),
    ]),
  ),
);

/** A share's range: 0 to 1, as the core's one share field says. */
const SHARE = { min: COMMAND_NUMBERS["pcs_won.fleeing"].min, max: COMMAND_NUMBERS["pcs_won.fleeing"].max };

const SPACE = "[ \u00a0\u202f]*";
const DECIMAL = "(?:[0-9]+(?:[.,][0-9]*)?|[.,][0-9]+)";
const WHOLE = /^[+\-−]?[0-9]+$/;
const FRACTION = new RegExp(`^([0-9]+)${SPACE}/${SPACE}([0-9]+)$`);
const PERCENT = new RegExp(`^(${DECIMAL})${SPACE}%$`);
const PLAIN = new RegExp(`^${DECIMAL}$`);

function gcd(a, b) {
  return b === 0n ? a : gcd(b, a % b);
}

/** A fraction {num, den} (BigInt, den > 0) in lowest terms, as the core's text: "1/2", "0", "1". */
function fractionText(num, den) {
  const g = gcd(num, den) || 1n;
  const [n, d] = [num / g, den / g];
  return d === 1n ? String(n) : `${n}/${d}`;
}

/** "12,5" → {num: 125n, den: 10n}. */
function decimal(text) {
  const [whole, part = ""] = text.replace(",", ".").split(".");
  return { num: BigInt((whole || "0") + part), den: 10n ** BigInt(part.length) };
}

/** The digits the larger of a range's bounds has (more can only be out of range). */
function boundDigits(min, max) {
  return Math.max(String(Math.abs(min)).length, String(Math.abs(max)).length);
}

/**
 * Reads a whole number. Returns {value} (a number), {empty: true} for a blank, or
 * {error: "not_integer" | "out_of_range"} with the range: the core's codes.
 *
 * @example
 * readWhole(" 42 ", NUMBER_FIELDS.roll) // {value: 42}
 * readWhole("−3", NUMBER_FIELDS.sl) // {value: -3}
 * readWhole("4,5", NUMBER_FIELDS.roll).error // "not_integer"
 */
export function readWhole(raw, { min, max }) {
  const text = String(raw ?? "").trim();
  if (text === "") return { empty: true };
  if (!WHOLE.test(text)) return { error: "not_integer", min, max };
  const digits = text.replace(/^[+\-−]/, "");
  if (text.length > MAX_TYPED || digits.replace(/^0+/, "").length > boundDigits(min, max)) {
    return { error: "out_of_range", min, max };
  }
  const value = Number(digits) * (/^[-−]/.test(text) ? -1 : 1);
  if (value < min || value > max) return { error: "out_of_range", min, max };
  return { value: Object.is(value, -0) ? 0 : value };
}

/**
 * Reads a share from 0 to 1. Returns {value} (the exact text fraction the core keeps), {empty:
 * true} for a blank, or {error: "not_number" | "out_of_range"}: the core's codes.
 *
 * @example
 * ["1/2", "0.5", "0,5", "50%", "50 %"].map((s) => readShare(s).value) // five times "1/2"
 * readShare("150%").error // "out_of_range"
 * readShare("abc").error // "not_number"
 */
export function readShare(raw) {
  const text = String(raw ?? "").trim();
  if (text === "") return { empty: true };
  const refused = { error: "not_number", ...SHARE };
  if (text.length > MAX_TYPED) return refused;
  let num;
  let den;
  let match;
  if ((match = FRACTION.exec(text))) {
    [num, den] = [BigInt(match[1]), BigInt(match[2])];
    if (den === 0n) return refused;
  } else if ((match = PERCENT.exec(text))) {
    ({ num, den } = decimal(match[1]));
    den *= 100n;
  } else if (PLAIN.test(text)) {
    ({ num, den } = decimal(text));
  } else {
    return refused;
  }
  if (num > den) return { error: "out_of_range", ...SHARE };
  return { value: fractionText(num, den) };
}

/** Reads `raw` as the field `spec` says (NUMBER_FIELDS' entries, or COMMAND_NUMBERS'). */
export function readTyped(raw, spec) {
  return spec.kind === "share" ? readShare(raw) : readWhole(raw, spec);
}
