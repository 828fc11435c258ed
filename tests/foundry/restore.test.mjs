// Undo, exactly: what an actor's conditions go back to. Pure logic.
import { test } from "node:test";
import assert from "node:assert/strict";

import { restoreTarget, stepsTo } from "../../foundry-module/scripts/logic/restore.mjs";

test("undo takes back the system's own side effects and leaves later changes alone", () => {
  // WFRP4e: unconscious came with prone; the GM added bleeding after Apply
  const before = [["fatigued", 1]];
  const after = [
    ["fatigued", 1],
    ["prone", 1],
    ["unconscious", 1],
  ];
  const now = [...after, ["bleeding", 2]];
  const { target, kept } = restoreTarget(before, after, now);
  assert.deepEqual(target, { fatigued: 1, bleeding: 2 });
  assert.deepEqual(kept, []);
  // removing unconscious gave fatigued 2: the next step takes it back to 1
  assert.deepEqual(
    stepsTo(
      [
        ["fatigued", 2],
        ["bleeding", 2],
      ],
      target,
    ),
    [{ status: "fatigued", from: 2, to: 1 }],
  );
});

test("a condition changed again since Apply is kept as it is", () => {
  const { target, kept } = restoreTarget([], [["dead", 1]], []);
  assert.deepEqual(target, {});
  assert.deepEqual(kept, ["dead"]);
  // an Apply cut short (after unknown): what differs from before counts as Apply's
  assert.deepEqual(
    restoreTarget([], null, [
      ["unconscious", 1],
      ["prone", 1],
    ]).target,
    {},
  );
});
