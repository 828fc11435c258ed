// The background battle in the combat's rhythm: what a round plays, never twice: pure logic.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  KEEP,
  newRound,
  played,
  rhythmOrder,
  roundKey,
  withPlayed,
} from "../../foundry-module/scripts/logic/combat-rhythm.mjs";

test("a fighting battle plays a round; an ended one the winner's Influence; no winner nothing", () => {
  assert.deepEqual(rhythmOrder({ status: "fighting" }), { type: "resolve_round" });
  assert.deepEqual(rhythmOrder({ status: "ended", winner: "allies" }), { type: "roll_influence", side: "allies" });
  assert.equal(rhythmOrder({ status: "ended", winner: null }), null);
  assert.equal(rhythmOrder({ status: "setup" }), null);
  assert.equal(rhythmOrder(null), null);
});

test("a round is keyed by its combat and number, and kept per battle", () => {
  const key = roundKey("c1", 3);
  const record = withPlayed({}, "ambush", key);
  assert.equal(played(record, "ambush", key), true);
  assert.equal(played(record, "ambush", roundKey("c1", 4)), false);
  assert.equal(played(record, "ambush", roundKey("c2", 3)), false);
  assert.equal(played(record, "other", key), false);
  assert.deepEqual(withPlayed(record, "ambush", key), record); // the same key once
});

test("the record keeps the last rounds only", () => {
  let record = {};
  for (let round = 1; round <= KEEP + 5; round++) record = withPlayed(record, "b", roundKey("c", round));
  assert.equal(record.b.length, KEEP);
  assert.equal(played(record, "b", roundKey("c", KEEP + 5)), true);
  assert.equal(played(record, "b", roundKey("c", 1)), false);
});

test("only an update that sets a round of 1 or more is a new round", () => {
  assert.equal(newRound({ round: 1 }), true);
  assert.equal(newRound({ round: 0 }), false);
  assert.equal(newRound({ turn: 2 }), false);
  assert.equal(newRound(undefined), false);
});
