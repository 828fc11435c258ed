// The table's dice, pure part (scripts/logic/table-dice.mjs): who may see a posted d100, and a
// WFRP4e test result as the leader's command.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  d100,
  influenceRollShown,
  leaderCommandFromTest,
  sideRollShown,
  testSL,
} from "../../foundry-module/scripts/logic/table-dice.mjs";

test("a side's d100 is shown with its strength, and never when the cards go to the GMs", () => {
  const view = { hidden: ["enemies.fighters", "enemies.strength"] };
  assert.equal(sideRollShown(view, "allies"), true);
  assert.equal(sideRollShown(view, "enemies"), false);
  assert.equal(sideRollShown({ hidden: ["allies.fighters"] }, "allies"), true); // a head count is not the roll
  assert.equal(sideRollShown(view, "allies", { whisper: true }), false);
  assert.equal(sideRollShown(null, "enemies"), true);
  // an Influence d100 is the side's own: hidden with its strength (it gives the total away)
  assert.equal(influenceRollShown(view, "allies"), true);
  assert.equal(influenceRollShown(view, "enemies"), false);
  assert.equal(influenceRollShown(view, "allies", { whisper: true }), false);
});

test("the SL of a WFRP4e result: its signed text or a number, nothing else", () => {
  assert.equal(testSL("+5"), 5);
  assert.equal(testSL("-0"), 0);
  assert.ok(Object.is(testSL("-0"), 0));
  assert.equal(testSL(-3), -3);
  assert.equal(testSL(" +12 "), 12);
  for (const bad of ["", "5 SL", "+", 2.5, null, undefined, "1e2", NaN]) {
    assert.throws(() => testSL(bad), /not an SL/, String(bad));
  }
});

test("a passed test is a command with its SL, a failed one says it failed", () => {
  assert.deepEqual(leaderCommandFromTest("allies", { SL: "+5", outcome: "success" }), {
    type: "leader_command",
    side: "allies",
    sl: 5,
    success: true,
  });
  assert.deepEqual(leaderCommandFromTest("enemies", { SL: -3, outcome: "failure" }), {
    type: "leader_command",
    side: "enemies",
    sl: -3,
    success: false,
  });
  assert.throws(() => leaderCommandFromTest("allies", { SL: "+1" }), /not a test outcome/);
  assert.throws(() => leaderCommandFromTest("allies", { SL: "+1", outcome: "astounding" }), /not a test outcome/);
});

test("a d100 is a whole number from 1 to 100", () => {
  assert.equal(d100(1), 1);
  assert.equal(d100(100), 100);
  for (const bad of [0, 101, 50.5, "50", undefined]) assert.throws(() => d100(bad), /d100/);
});
