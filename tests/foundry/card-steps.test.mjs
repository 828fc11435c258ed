// Which chat card each step gets, read from the log by version (logic/card-steps.mjs): the entry
// of a version (a log with a hole included), the phase after each step (an undo of the start is
// back in set-up), the kind of card, and the key a battle has in the world's record.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  battleKey,
  cardKind,
  entryAt,
  phaseAfter,
  startVersion,
} from "../../foundry-module/scripts/logic/card-steps.mjs";

const step = (type, more = {}) => ({ command: { type }, events: [{ type, ...more }] });
const log = [
  step("unit_added"), // 1
  step("unit_added"), // 2
  step("battle_started"), // 3
  step("renamed"), // 4
  step("round_resolved"), // 5
  { command: { type: "undo" }, events: [{ type: "undone", entry: 4 }] }, // 6: the round
  { command: { type: "undo" }, events: [{ type: "undone", entry: 3 }] }, // 7: the rename
  { command: { type: "undo" }, events: [{ type: "undone", entry: 2 }] }, // 8: the start
  step("hidden_set"), // 9
  step("battle_started"), // 10
  step("battle_ended"), // 11
];
const state = { version: log.length, view: { log } };

test("the entry of a version; none outside the log", () => {
  assert.equal(entryAt(state, 1), log[0]);
  assert.equal(entryAt(state, 11), log[10]);
  for (const version of [0, 12, 1.5, undefined]) assert.equal(entryAt(state, version), undefined);
  assert.equal(entryAt(null, 1), undefined);
  // a long battle whose older pages did not all come: entries 3..7 missing
  const holed = { version: 9, view: { log: [log[0], log[1], log[7], log[8]] }, logHole: { from: 2, to: 7 } };
  assert.deepEqual(
    [1, 2, 3, 7, 8, 9].map((v) => entryAt(holed, v)),
    [log[0], log[1], undefined, undefined, log[7], log[8]],
  );
});

test("the phase after each step: an undo of the start is back in set-up", () => {
  assert.deepEqual(
    log.map((_, index) => phaseAfter(state, index + 1)),
    [
      "setup",
      "setup",
      "fighting",
      "fighting",
      "fighting",
      "fighting",
      "fighting",
      "setup",
      "setup",
      "fighting",
      "ended",
    ],
  );
});

test("set-up steps are lines for the GMs, small changes are grouped, the rest has a card", () => {
  assert.deepEqual(
    log.map((_, index) => cardKind(state, index + 1)),
    ["setup", "setup", "step", "change", "step", "step", "change", "setup", "setup", "step", "step"],
  );
});

test("a battle's key is a hash, not its name", () => {
  assert.match(battleKey("ambush"), /^b[0-9a-f]{8}$/);
  assert.equal(battleKey("ambush"), battleKey("ambush"));
  assert.notEqual(battleKey("ambush"), battleKey("ambusH"));
  assert.notEqual(battleKey("засада"), battleKey("засадa"));
});

test("the version that started the battle: the last start in the log held", () => {
  assert.equal(startVersion({ version: 11, view: { log } }), 10);
  assert.equal(startVersion({ version: 4, view: { log: log.slice(0, 4) } }), 3);
  assert.equal(startVersion({ version: 2, view: { log: log.slice(0, 2) } }), null);
  assert.equal(startVersion(null), null);
});
