// The panel's pre-check of typed numbers (logic/typed-numbers.mjs): a share in every way a GM
// writes a half, whole numbers in their ranges, and every other entry refused, never a NaN; the
// shared table read as the core and the page read it; bounds from the core's shapes only.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { NUMBER_FIELDS, readShare, readTyped, readWhole } from "../../foundry-module/scripts/logic/typed-numbers.mjs";
import { COMMAND_NUMBERS } from "../../foundry-module/scripts/logic/command-numbers.mjs";

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
    assert.equal(readShare(typed).error, "not_number", typed);
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

// Every typed number of the shared table, read as the core reads it (tests/core/test_typed_numbers.py)
// and the page (tests/web/test_typed_numbers.py): the same value, or the same refusal.
const TABLE = JSON.parse(readFileSync(new URL("../support/typed-numbers.json", import.meta.url), "utf8")).rows;

test("the shared table of typed numbers: the core's reading or refusal, every row", () => {
  for (const row of TABLE) {
    const [char, count] = row.then ?? ["", 0];
    const typed = row.typed + char.repeat(count) + (row.end ?? "");
    const read = readTyped(typed, COMMAND_NUMBERS[row.field]);
    const got = read.empty ? { blank: true } : read.error ? { refused: read.error } : { read: read.value };
    const expected = row.blank ? { blank: true } : row.refused ? { refused: row.refused } : { read: row.read };
    assert.deepEqual(got, expected, `${row.field}: ${JSON.stringify(typed.slice(0, 40))}`);
  }
});

test("every field's bounds are the core's, from its command shapes (no bound written in the module)", () => {
  for (const [kind, spec] of Object.entries(NUMBER_FIELDS)) {
    const core = COMMAND_NUMBERS[spec.field];
    assert.ok(core, `${kind}: ${spec.field} is a number field of the core`);
    assert.deepEqual([spec.kind, spec.min, spec.max], [core.kind, core.min, core.max], kind);
  }
  const source = readFileSync(new URL("../../foundry-module/scripts/logic/typed-numbers.mjs", import.meta.url), "utf8");
  assert.doesNotMatch(source, /\b(min|max)\s*:\s*-?\d/, "a bound written by hand");
});
