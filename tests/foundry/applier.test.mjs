// Which GM's browser writes casualties onto tokens: pure logic.
import { test } from "node:test";
import assert from "node:assert/strict";

import { chooseApplier } from "../../foundry-module/scripts/logic/applier.mjs";

const lines = (entries) => new Map(Object.entries(entries));

test("the active GM applies when its browser has the GM token", () => {
  assert.equal(chooseApplier({ active: "gmB", gms: ["gmA", "gmB"], lines: lines({ gmA: true, gmB: true }) }), "gmB");
});

test("an active GM without the GM token leaves it to the connected GM with the lowest id that has it", () => {
  const said = lines({ gmZ: false, gmC: true, gmB: true, gmA: false });
  assert.equal(chooseApplier({ active: "gmZ", gms: ["gmZ", "gmC", "gmB", "gmA"], lines: said }), "gmB");
  // whoever asks, the same browser: the answer depends on nothing of the asker's
  assert.equal(chooseApplier({ active: "gmZ", gms: ["gmA", "gmB", "gmC", "gmZ"], lines: said }), "gmB");
});

test("nobody applies when no GM's browser has the GM token", () => {
  assert.equal(chooseApplier({ active: "gmA", gms: ["gmA", "gmB"], lines: lines({ gmA: false, gmB: false }) }), null);
  assert.equal(chooseApplier({ active: null, gms: [], lines: lines({}) }), null);
});

test("an active GM not heard from yet keeps the hand; a GM who left or said nothing is no one", () => {
  assert.equal(chooseApplier({ active: "gmA", gms: ["gmA", "gmB"], lines: lines({ gmB: true }) }), "gmA");
  assert.equal(chooseApplier({ active: "gmA", gms: ["gmB", "gmC"], lines: lines({ gmA: true, gmC: true }) }), "gmC");
  assert.equal(chooseApplier({ active: null, gms: ["gmB"], lines: lines({}) }), null);
});
