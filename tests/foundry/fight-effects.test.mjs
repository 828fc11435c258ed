// An Influence band's effects as steps on the PCs' fight, and Undo's steps back: pure logic.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import {
  advantageAfter,
  combatSides,
  dueOn,
  pickByRoll,
  planEffects,
  readEffects,
  restoreSteps,
  sideOf,
  stepWords,
} from "../../foundry-module/scripts/logic/fight-effects.mjs";

// The core's own default table (its effects as written: `who` relative to the side that rolled).
const TABLE = JSON.parse(
  readFileSync(new URL("../../core/background_battle/data/influence_default.json", import.meta.url)),
);

/** A band's effects read for a roll by `side`, as the core's event carries them. */
const readFor = (index, side) => readEffects(TABLE.bands[index].effects, side);

const COMBATANTS = [
  { id: "hero", playerOwned: true, disposition: -1 },
  { id: "guard", playerOwned: false, disposition: 1 },
  { id: "orc1", playerOwned: false, disposition: -1 },
  { id: "cat", playerOwned: false, disposition: 0 },
  { id: "orc2", playerOwned: false, disposition: -1 },
];

test("effects are read for the side that rolled as the core reads them (its allies' 140)", () => {
  // docs/core-api.md: the allies' 140 carries these, each with `side` added
  assert.deepEqual(readFor(6, "allies"), [
    { kind: "damage", who: "other", target: "gm_choice", dice: "1d10+4", side: "enemies" },
    { kind: "advantage", who: "rolling", gain: 1, side: "allies" },
  ]);
  assert.equal(readFor(3, "enemies")[0].side, null);
});

test("a player's or a friendly combatant is a PC's side, a hostile one a foe, a neutral neither", () => {
  assert.equal(sideOf({ playerOwned: true, disposition: -1 }), "allies");
  assert.equal(sideOf({ playerOwned: false, disposition: 1 }), "allies");
  assert.equal(sideOf({ playerOwned: false, disposition: -1 }), "enemies");
  assert.equal(sideOf({ playerOwned: false, disposition: 0 }), null);
  assert.equal(sideOf({ playerOwned: false, disposition: -2 }), null);
  const sides = combatSides(COMBATANTS);
  assert.deepEqual(
    sides.allies.map((c) => c.id),
    ["hero", "guard"],
  );
  assert.deepEqual(
    sides.enemies.map((c) => c.id),
    ["orc1", "orc2"],
  );
});

test("the allies' volley (126-150): +1 Advantage to each PC, 1d10+4 to one foe of the GM's choice", () => {
  const steps = planEffects(readFor(6, "allies"), combatSides(COMBATANTS), { round: 2 });
  assert.deepEqual(
    steps.map((s) => [s.op, s.ids ?? s.pool, s.pick, s.dice]),
    [
      ["damage", ["orc1", "orc2"], "gm_choice", "1d10+4"],
      ["advantage", ["hero", "guard"], undefined, undefined],
    ],
  );
});

test("the enemies' rout (≤ 0) hits a random foe of the PCs, and two allied fighters join next round", () => {
  const steps = planEffects(readFor(0, "enemies"), combatSides(COMBATANTS), { round: 4 });
  assert.deepEqual(
    steps.map((s) => s.op),
    ["advantage", "damage", "reinforcements"],
  );
  assert.deepEqual(steps[1].pool, ["orc1", "orc2"]);
  assert.equal(steps[1].pick, "random");
  assert.deepEqual(steps[2], { op: "reinforcements", side: "allies", fighters: 2, due: 5 });
});

test("the allies' rout (≤ 0) hits a random PC", () => {
  const [, damage] = planEffects(readFor(0, "allies"), combatSides(COMBATANTS));
  assert.deepEqual(damage.pool, ["hero", "guard"]);
});

test("'arrows everywhere' draws from every combatant of both sides", () => {
  const [damage] = planEffects(readFor(3, "allies"), combatSides(COMBATANTS));
  assert.deepEqual(damage.pool, ["hero", "guard", "orc1", "orc2"]);
});

test("'in 2 rounds' is due two rounds on; a test modifier 'this round' lasts to this round's end", () => {
  const steps = planEffects([...readFor(1, "allies"), ...readFor(2, "allies")], combatSides(COMBATANTS), { round: 3 });
  assert.deepEqual(
    steps.find((s) => s.op === "reinforcements"),
    { op: "reinforcements", side: "enemies", fighters: 1, due: 5 },
  );
  assert.deepEqual(
    steps.find((s) => s.op === "modifier"),
    { op: "modifier", side: "allies", ids: ["hero", "guard"], amount: -10, rounds: 1, until: 3 },
  );
});

test("with Group Advantage on, Advantage is one step for the side's group", () => {
  const steps = planEffects(readFor(7, "allies"), combatSides(COMBATANTS), { groupAdvantage: true });
  assert.deepEqual(
    steps.filter((s) => s.op === "group_advantage").map((s) => [s.group, s.effect.gain ?? s.effect.lose]),
    [
      ["enemies", 1],
      ["players", 1],
    ],
  );
});

test("the foes' break (200+) sets a Hard Cool test for each foe, Broken on failure", () => {
  const [testStep, help] = planEffects(readFor(9, "allies"), combatSides(COMBATANTS), { round: 1 });
  assert.deepEqual(testStep.ids, ["orc1", "orc2"]);
  assert.equal(testStep.effect.skill, "cool");
  assert.equal(testStep.effect.difficulty, "hard");
  assert.equal(testStep.effect.on_failure, "broken");
  assert.deepEqual(help, { op: "reinforcements", side: "allies", fighters: "gm_choice", due: 2 });
});

test("a side with no combatant gets nothing done and says so; the quiet band plans nothing", () => {
  const steps = planEffects(readFor(5, "allies"), { allies: [], enemies: [{ id: "orc" }] });
  assert.deepEqual(
    steps.map((s) => s.op),
    ["nobody"],
  );
  assert.deepEqual(planEffects(readFor(4, "allies"), combatSides(COMBATANTS)), []);
  assert.deepEqual(planEffects(undefined, combatSides(COMBATANTS)), []);
});

test("Advantage gained adds, lost stops at 0, 'all' is 0", () => {
  assert.equal(advantageAfter(2, { gain: 1 }), 3);
  assert.equal(advantageAfter(2, { lose: 1 }), 1);
  assert.equal(advantageAfter(0, { lose: 1 }), 0);
  assert.equal(advantageAfter(5, { lose: "all" }), 0);
  assert.equal(advantageAfter(undefined, { gain: 1 }), 1);
});

test("a visible roll picks the combatant it names; a roll outside the pool is refused", () => {
  assert.equal(pickByRoll(["a", "b"], 1), "a");
  assert.equal(pickByRoll(["a", "b"], 2), "b");
  assert.throws(() => pickByRoll(["a", "b"], 3), RangeError);
  assert.throws(() => pickByRoll(["a"], 0), RangeError);
});

test("Undo's steps bring wounds, Advantage and every condition back, nothing else", () => {
  const before = { advantage: 1, wounds: 12, conditions: [["bleeding", 1]] };
  const now = {
    advantage: 2,
    wounds: 0,
    conditions: [
      ["bleeding", 2],
      ["prone", 1],
      ["unconscious", 1],
    ],
  };
  assert.deepEqual(restoreSteps(before, now), [
    { call: "condition", id: "bleeding", from: 2, to: 1 },
    { call: "condition", id: "prone", from: 1, to: 0 },
    { call: "condition", id: "unconscious", from: 1, to: 0 },
    { call: "wounds", value: 12 },
    { call: "advantage", value: 1 },
  ]);
  assert.deepEqual(restoreSteps(before, structuredClone(before)), []);
  // the system's side effect of undoing (losing unconscious adds fatigued) is found the next time
  assert.deepEqual(restoreSteps(before, { ...before, conditions: [...before.conditions, ["fatigued", 1]] }), [
    { call: "condition", id: "fatigued", from: 1, to: 0 },
  ]);
});

test("reinforcements are told on their round of their combat only", () => {
  const scheduled = [
    { combat: "c1", due: 3, side: "enemies", fighters: 1 },
    { combat: "c2", due: 3, side: "allies", fighters: 2 },
    { combat: "c1", due: 4, side: "allies", fighters: 2 },
  ];
  assert.deepEqual(dueOn(scheduled, "c1", 3), [scheduled[0]]);
  assert.deepEqual(dueOn(scheduled, "c1", 2), []);
});

test("every step has words for the card", () => {
  const steps = planEffects(
    TABLE.bands.flatMap((_, i) => readFor(i, "allies")),
    combatSides(COMBATANTS),
    { round: 1 },
  );
  const keys = new Set(steps.map((s) => stepWords(s).key));
  assert.deepEqual(
    [...keys].sort(),
    [
      "Fight.AdvantageGain",
      "Fight.AdvantageLose",
      "Fight.AdvantageLoseAll",
      "Fight.DamageChoice",
      "Fight.DamageRandom",
      "Fight.Modifier",
      "Fight.Reinforcements",
      "Fight.Test",
    ].sort(),
  );
  const lang = JSON.parse(
    readFileSync(new URL("../../foundry-module/lang/en.json", import.meta.url)),
  ).BACKGROUND_BATTLE;
  const ru = JSON.parse(readFileSync(new URL("../../foundry-module/lang/ru.json", import.meta.url))).BACKGROUND_BATTLE;
  for (const key of [...keys, "Fight.Condition", "Fight.Nobody"]) {
    const [group, name] = key.split(".");
    assert.ok(lang[group]?.[name], `en has ${key}`);
    assert.ok(ru[group]?.[name], `ru has ${key}`);
  }
});
