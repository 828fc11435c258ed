// The battle the world shows names only a started battle; a GM's battle in set-up is the GM's own.
import { test } from "node:test";
import assert from "node:assert/strict";
import { behind, choose, settle, statusOf, toldToPlayers } from "../../foundry-module/scripts/logic/shown-battle.mjs";

const STATUS = { ambush: "fighting", siege: "ended", raid: "setup" };
const status = (name) => STATUS[name] ?? null;

test("a battle's status comes from its state when watched, else from the list", () => {
  const battles = [
    { name: "raid", status: "setup" },
    { name: "ambush", status: "setup" },
  ];
  const states = new Map([["ambush", { view: { status: "fighting" } }]]);
  assert.equal(statusOf("raid", { battles, states }), "setup");
  assert.equal(statusOf("ambush", { battles, states }), "fighting");
  assert.equal(statusOf("unheard", { battles, states }), null);
  assert.equal(statusOf("raid"), null);
});

test("players are told only of started battles", () => {
  assert.deepEqual(["setup", "fighting", "ended", null].map(toldToPlayers), [false, true, true, false]);
});

test("a started battle goes to the world at once; one in set-up or not known stays the GM's", () => {
  assert.deepEqual(choose("ambush", status), { world: "ambush", own: "" });
  assert.deepEqual(choose("siege", status), { world: "siege", own: "" });
  assert.deepEqual(choose("raid", status), { own: "raid" });
  assert.deepEqual(choose("just-made", status), { own: "just-made" });
  assert.deepEqual(choose("", status), { world: "", own: "" });
});

test("the GM's own battle goes to the world once it starts, from any GM's browser", () => {
  const started = (name) => (name === "raid" ? "fighting" : status(name));
  for (const active of [true, false]) {
    assert.deepEqual(settle({ own: "raid", world: "ambush", status: started, active }), { world: "raid", own: "" });
    assert.deepEqual(settle({ own: "raid", world: null, status: started, active }), { world: "raid", own: "" });
    // another GM's browser wrote it first
    assert.deepEqual(settle({ own: "raid", world: "raid", status: started, active }), { own: "" });
  }
});

test("while the GM's own battle is in set-up nothing changes", () => {
  for (const active of [true, false]) {
    assert.deepEqual(settle({ own: "raid", world: "ambush", status, active }), {});
    assert.deepEqual(settle({ own: "raid", world: null, status, active }), {});
    assert.deepEqual(settle({ own: "unheard", world: "ambush", status, active }), {});
    assert.deepEqual(settle({ own: null, world: "ambush", status, active }), {});
    assert.deepEqual(settle({ own: null, world: null, status, active }), {});
  }
});

test("a world's battle back in set-up leaves the world (the active GM) and stays a GM's own", () => {
  assert.deepEqual(settle({ own: null, world: "raid", status, active: true }), { own: "raid", world: "" });
  assert.deepEqual(settle({ own: null, world: "raid", status, active: false }), { own: "raid" });
  assert.deepEqual(settle({ own: "other", world: "raid", status, active: true }), { world: "" });
  assert.deepEqual(settle({ own: "other", world: "raid", status, active: false }), {});
  // not known yet: left as it is
  assert.deepEqual(settle({ own: null, world: "unheard", status, active: true }), {});
});

test("a GM keeps looking at the battle the active GM took off the world before this browser heard it is in set-up", () => {
  for (const active of [true, false]) {
    assert.deepEqual(settle({ own: null, world: null, left: "raid", status, active }), { own: "raid" });
    // still started: a GM chose no battle
    assert.deepEqual(settle({ own: null, world: null, left: "ambush", status, active }), {});
    // a battle of one's own, or the world's new one, is shown instead
    assert.deepEqual(settle({ own: "other", world: null, left: "raid", status, active }), {});
    assert.deepEqual(settle({ own: null, world: "ambush", left: "raid", status, active }), {});
  }
});

test("a change resting on a status this browser may not have heard yet waits for the bridge's answer", () => {
  // the world's battle in set-up as this browser holds it: it may have just started
  assert.equal(behind({ own: null, world: "raid", status, active: true }), true);
  assert.equal(behind({ own: null, world: "raid", status, active: false }), true);
  assert.equal(behind({ own: "other", world: "raid", status, active: true }), true);
  assert.equal(behind({ own: "other", world: "raid", status, active: false }), false); // writes nothing
  assert.equal(behind({ own: null, world: "ambush", status, active: true }), false);
  assert.equal(behind({ own: null, world: "unheard", status, active: true }), false);
  // the world's battle taken off by another browser: it may be back in set-up
  assert.equal(behind({ own: null, world: null, left: "ambush", status, active: false }), true);
  assert.equal(behind({ own: "other", world: null, left: "ambush", status, active: false }), false);
  assert.equal(behind({ own: null, world: null, status, active: true }), false);
});
