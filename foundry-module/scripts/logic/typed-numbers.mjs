/**
 * The one reader of every number a GM types in the panel: strict, so that a typo is refused
 * before anything reaches the bridge (never a NaN the JSON turns into null, read as 0 by the
 * core). Pure: no Foundry globals, no DOM; the panel names the field in the GM's language.
 *
 * - a whole number: digits with an optional sign (`+`, `-` or `−`), inside the field's range;
 * - a share (0 to 1): `1/2`, `0.5`, `0,5` (a decimal comma is a decimal point), `50%`, `50 %`,
 *   `12,5 %`. It is sent as the exact text fraction the core reads (`"1/2"`, docs/protocol.md,
 *   `pcs_won.fleeing`: "a number from 0 to 1 or a text like "1/2""), so no float rounds it.
 */

/**
 * The panel's number fields and their ranges, as the core accepts them (docs/protocol.md, the
 * command tables; tests/foundry/typed-numbers.test.mjs checks them against it). `example`: a
 * value a refusal shows.
 */
export const NUMBER_FIELDS = Object.freeze({
  roll: { kind: "whole", min: 1, max: 100, example: "42" },
  sl: { kind: "whole", min: -100, max: 100, example: "2" },
  leadership: { kind: "whole", min: 1, max: 200, example: "45" },
  strength: { kind: "whole", min: 0, max: 1000000, example: "30" },
  lost: { kind: "whole", min: 0, max: 1000000, example: "5" },
  fighters: { kind: "whole", min: 1, max: 100000, example: "10" },
  rating: { kind: "whole", min: 0, max: 1000, example: "4" },
  percent: { kind: "whole", min: -100, max: 1000, example: "10" },
  flat: { kind: "whole", min: -1000000, max: 1000000, example: "5" },
  share: { kind: "share", min: 0, max: 1, example: "1/2" },
});

const WHOLE = /^[+\-−]?\d+$/;
const DECIMAL = /^(\d+(?:[.,]\d*)?|[.,]\d+)$/;
const PERCENT = /^(\d+(?:[.,]\d*)?|[.,]\d+)\s*%$/;
const FRACTION = /^(\d+)\s*\/\s*(\d+)$/;

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

/**
 * Reads a whole number. Returns {value} (a number), {empty: true} for a blank, or
 * {error: "not_integer" | "out_of_range"} with the range.
 *
 * @example
 * readWhole(" 42 ", NUMBER_FIELDS.roll) // {value: 42}
 * readWhole("−3", NUMBER_FIELDS.sl) // {value: -3}
 * readWhole("4,5", NUMBER_FIELDS.roll).error // "not_integer"
 */
export function readWhole(raw, { min, max } = {}) {
  const text = String(raw ?? "").trim();
  if (text === "") return { empty: true };
  if (!WHOLE.test(text)) return { error: "not_integer", min, max };
  const value = Number(text.replace("−", "-"));
  if (!Number.isSafeInteger(value)) return { error: "out_of_range", min, max };
  if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
    return { error: "out_of_range", min, max };
  }
  return { value: Object.is(value, -0) ? 0 : value };
}

/**
 * Reads a share from 0 to 1. Returns {value} (the exact text fraction the core reads), {empty:
 * true} for a blank, or {error: "not_share" | "out_of_range"}.
 *
 * @example
 * ["1/2", "0.5", "0,5", "50%", "50 %"].map((s) => readShare(s).value) // five times "1/2"
 * readShare("150%").error // "out_of_range"
 * readShare("abc").error // "not_share"
 */
export function readShare(raw) {
  const text = String(raw ?? "").trim();
  if (text === "") return { empty: true };
  let num;
  let den;
  let match;
  if ((match = FRACTION.exec(text))) {
    [num, den] = [BigInt(match[1]), BigInt(match[2])];
    if (den === 0n) return { error: "not_share", min: 0, max: 1 };
  } else if ((match = PERCENT.exec(text))) {
    ({ num, den } = decimal(match[1]));
    den *= 100n;
  } else if (DECIMAL.test(text)) {
    ({ num, den } = decimal(text));
  } else {
    return { error: "not_share", min: 0, max: 1 };
  }
  if (num > den) return { error: "out_of_range", min: 0, max: 1 };
  return { value: fractionText(num, den) };
}

/** Reads `raw` as the field kind `spec` says (NUMBER_FIELDS' entries). */
export function readTyped(raw, spec) {
  return spec.kind === "share" ? readShare(raw) : readWhole(raw, spec);
}
