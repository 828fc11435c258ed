// The panel's one reader of typed numbers (logic/typed-numbers.mjs): a share in every way a GM
// writes a half, whole numbers in their ranges, and every other entry refused, never a NaN.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { NUMBER_FIELDS, readShare, readTyped, readWhole } from "../../foundry-module/scripts/logic/typed-numbers.mjs";

test("a half, however it is written, is the core's exact 1/2", () => {
  for (const typed of ["1/2", "0.5", "0,5", "50%", "50 %", " 1 / 2 ", ".5", ",5", "2/4", "50,0 %", "50\u00a0%"]) {
    assert.deepEqual(readShare(typed), { value: "1/2" }, typed);
  }
  assert.deepEqual(readShare("0"), { value: "0" });
  assert.deepEqual(readShare("1"), { value: "1" });
  assert.deepEqual(readShare("100%"), { value: "1" });
  assert.deepEqual(readShare("0,25"), { value: "1/4" });
  assert.deepEqual(readShare("12,5%"), { value: "1/8" });
  assert.deepEqual(readShare("33%"), { value: "33/100" });
  assert.deepEqual(readShare("0.333"), { value: "333/1000" });
  assert.deepEqual(readShare(""), { empty: true });
  assert.deepEqual(readShare("   "), { empty: true });
});

test("anything else is refused: not a share, or out of 0..1", () => {
  for (const typed of [
    "abc",
    "1/0",
    "0,5,5",
    "1/2/3",
    "-1/2",
    "-0.5",
    "½",
    "50%%",
    "5e-1",
    "NaN",
    "Infinity",
    "0x1",
    "1//2",
    "%",
  ]) {
    assert.equal(readShare(typed).error, "not_share", typed);
  }
  for (const typed of ["150%", "3/2", "1.5", "1,01", "101 %"]) {
    assert.equal(readShare(typed).error, "out_of_range", typed);
  }
});

test("whole numbers: digits and a sign, inside the field's range", () => {
  const roll = NUMBER_FIELDS.roll;
  assert.deepEqual(readWhole("42", roll), { value: 42 });
  assert.deepEqual(readWhole(" 7 ", roll), { value: 7 });
  assert.deepEqual(readWhole("+100", roll), { value: 100 });
  assert.deepEqual(readWhole("", roll), { empty: true });
  for (const typed of ["abc", "4,5", "4.5", "4.0", "1e2", "0x10", "4 2", "--3", "½"]) {
    assert.equal(readWhole(typed, roll).error, "not_integer", typed);
  }
  for (const typed of ["0", "101", "150", "-5", "99999999999999999999"]) {
    assert.equal(readWhole(typed, roll).error, "out_of_range", typed);
  }
  assert.deepEqual(readWhole("−3", NUMBER_FIELDS.sl), { value: -3 }); // a typographic minus
  assert.deepEqual(readWhole("-0", NUMBER_FIELDS.sl), { value: 0 });
  assert.deepEqual(readWhole("0", NUMBER_FIELDS.strength), { value: 0 });
  assert.equal(readWhole("0", NUMBER_FIELDS.fighters).error, "out_of_range");
  assert.deepEqual(readTyped("0,5", NUMBER_FIELDS.share), { value: "1/2" });
  assert.equal(readTyped("0,5", NUMBER_FIELDS.lost).error, "not_integer");
});

test("every example a refusal shows is accepted by its own field", () => {
  for (const [kind, spec] of Object.entries(NUMBER_FIELDS)) {
    assert.ok("value" in readTyped(spec.example, spec), kind);
  }
});

// The ranges are the core's, as docs/protocol.md's command tables say them.
const PROTOCOL = readFileSync(new URL("../../docs/protocol.md", import.meta.url), "utf8");
const RANGES = {
  roll: "`rolls.allies` | integer | yes | {min} to {max} |",
  sl: "`sl` | integer | no | {min} to {max} |",
  strength: "`strength` | integer | yes | {min} to {max} |",
  lost: "`lost.allies` | integer | yes | {min} to {max} |",
  fighters: "`fighters` | integer | yes | {min} to {max} |",
  rating: "`rating` | integer | no | {min} to {max} |",
  percent: "`modifiers[].percent` | integer | no | {min} to {max} |",
  flat: "`modifiers[].flat` | integer | no | {min} to {max} |",
};

test("each field's range is the one docs/protocol.md gives the core's command", () => {
  for (const [kind, row] of Object.entries(RANGES)) {
    const { min, max } = NUMBER_FIELDS[kind];
    assert.ok(PROTOCOL.includes(row.replace("{min}", min).replace("{max}", max)), `${kind}: ${min} to ${max}`);
  }
  assert.ok(PROTOCOL.includes("| `roll` | integer | no | 1 to 100 |"));
  assert.ok(PROTOCOL.includes('a number from 0 to 1 or a text like `"1/2"`'));
});
