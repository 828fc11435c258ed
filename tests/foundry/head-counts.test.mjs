// Head counts of tokens as the bridge keeps them for the GMs: pure logic, Node's test runner.
import { test } from "node:test";
import assert from "node:assert/strict";

import { headCounts, oldHeadCounts } from "../../foundry-module/scripts/logic/head-counts.mjs";

test("a token standing for many is counted; one linked as one fighter keeps its count", () => {
  assert.deepEqual(headCounts({}, ["mob"], ["mob"], 12), { mob: 12 });
  assert.deepEqual(headCounts({ mob: 12 }, ["mob", "boss"], ["boss"]), { mob: 12 });
  assert.deepEqual(headCounts({ mob: 12 }, ["mob"], ["mob"], 1), { mob: 12 });
  assert.deepEqual(headCounts(undefined, ["a"], ["a"]), {});
});

test("a token no longer listed loses its count", () => {
  assert.deepEqual(headCounts({ mob: 12, boss: 3 }, ["boss"]), { boss: 3 });
  assert.deepEqual(headCounts({ mob: 12 }, []), {});
});

test("old flags move when the bridge would take them, and only then", () => {
  const pairs = [
    ["a", 12],
    ["b", 1],
    ["c", "12"],
    ["d", 2.5],
    ["e", 100001],
    ["f", 100000],
  ];
  assert.deepEqual(oldHeadCounts(pairs, 100000), { a: 12, f: 100000 });
});
