// The panel's S0 in set-up is the core's: the same sums, percents and flats through the core's
// own `initial_strength` (core/background_battle/modifiers.py, run here) give the same numbers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { initialStrength, modifierText } from "../../foundry-module/scripts/logic/initial-strength.mjs";

const core = fileURLToPath(new URL("../../core/", import.meta.url));
const python = process.env.PYTHON ?? "python3";

/** A spread of cases: halves, negatives, several modifiers, the bounds of the core's fields. */
function cases() {
  const out = [];
  let seed = 7;
  const next = (n) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  for (const sum of [0, 1, 5, 25, 56, 80, 99, 1000, 999999]) {
    for (const mods of [
      [],
      [[10, 0]],
      [[-10, 0]],
      [[25, 0]],
      [[0, 20]],
      [[-100, 0]],
      [[1000, 0]],
      [
        [5, -3],
        [3, 1],
      ],
    ]) {
      out.push({ sum, mods });
    }
  }
  for (let i = 0; i < 300; i++) {
    const count = next(4);
    const mods = Array.from({ length: count }, () => [next(1101) - 100, next(41) - 20]);
    out.push({ sum: next(5000), mods });
  }
  return out;
}

test("S0 is the core's initial_strength", () => {
  const all = cases();
  const script = `
import json, sys
from background_battle.modifiers import Modifier, initial_strength
cases = json.load(sys.stdin)
print(json.dumps([initial_strength(c["sum"], [Modifier("m", p, f) for p, f in c["mods"]]) for c in cases]))`;
  const out = execFileSync(python, ["-c", script], {
    input: JSON.stringify(all),
    encoding: "utf8",
    env: { ...process.env, PYTHONPATH: core },
  });
  const theirs = JSON.parse(out);
  const ours = all.map((c) =>
    initialStrength(
      c.sum,
      c.mods.map(([percent, flat]) => ({ name: "m", percent, flat })),
    ),
  );
  assert.deepEqual(ours, theirs);
  assert.ok(theirs.includes(22) || all.length > 100);
});

test("the rules' examples", () => {
  assert.equal(initialStrength(80, [{ name: "Fortified", percent: 25 }]), 100);
  assert.equal(initialStrength(80, [{ name: "Veterans", flat: 20 }]), 100);
  assert.equal(initialStrength(25, [{ name: "Tired", percent: -10 }]), 22);
  assert.equal(initialStrength(56, [{ name: "High ground", percent: 10 }]), 62);
});

test("a modifier in words", () => {
  assert.equal(modifierText({ name: "High ground", percent: 10, flat: 0 }), "High ground +10 %");
  assert.equal(modifierText({ name: "Tired", percent: -10 }), "Tired −10 %");
  assert.equal(modifierText({ name: "Veterans", flat: 20 }), "Veterans +20");
  assert.equal(modifierText({ name: "Mixed", percent: 5, flat: -3 }), "Mixed +5 % −3");
});
