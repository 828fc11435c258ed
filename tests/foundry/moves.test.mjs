// Tokens moved into the PCs' fight: which the GM's selection moves, and which moves still count.
import { test } from "node:test";
import assert from "node:assert/strict";

import { liveMoves, pickMoved } from "../../foundry-module/scripts/logic/moves.mjs";

test("the selected tokens of the unit go, one fighter each", () => {
  assert.deepEqual(pickMoved(["t2", "t3", "other"], ["t1", "t2", "t3"], {}, null), {
    token_ids: ["t2", "t3"],
    fighters: {},
    total: 2,
  });
  // the count typed must agree with the tokens selected
  assert.deepEqual(pickMoved(["t2"], ["t1", "t2"], {}, 3), { reason: "count_differs", total: 1 });
  assert.deepEqual(pickMoved(["x"], ["t1"], {}, null), { reason: "none_selected" });
});

test("a head count comes off one selected token standing for many", () => {
  assert.deepEqual(pickMoved(["mob"], ["boss", "mob"], { mob: 12 }, 3), {
    token_ids: [],
    fighters: { mob: 3 },
    total: 3,
  });
  // all its heads (or more): the token itself goes
  assert.deepEqual(pickMoved(["mob"], ["mob"], { mob: 12 }, 12), { token_ids: ["mob"], fighters: {}, total: 12 });
  // a unit that is one such token: no need to select it
  assert.deepEqual(pickMoved([], ["mob"], { mob: 10 }, 4), { token_ids: [], fighters: { mob: 4 }, total: 4 });
  assert.deepEqual(pickMoved([], ["mob"], { mob: 10 }, null), { reason: "none_selected" });
  // selected without a count: the whole token
  assert.deepEqual(pickMoved(["mob", "boss"], ["boss", "mob"], { mob: 5 }, null), {
    token_ids: ["boss", "mob"],
    fighters: {},
    total: 6,
  });
});

test("a move counts while its step is not undone", () => {
  const moves = [
    { version: 4, token_ids: ["t2"] },
    { version: 6, token_ids: ["t3"] },
  ];
  assert.deepEqual(liveMoves(moves, { undone: [5] }), [moves[0]]);
  assert.deepEqual(liveMoves(moves, { undone: [] }), moves);
  assert.deepEqual(liveMoves(undefined, null), []);
});
