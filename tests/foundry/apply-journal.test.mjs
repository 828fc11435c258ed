// Apply as a transaction: the journal fixed first, the writes cut short at any step, then
// Finish (the same journal) or Undo, on plain token objects. Pure logic, Node's test runner.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  chooseFates,
  conditionsNow,
  isEmptyPlan,
  planApply,
  planProgress,
  planUndo,
  planWrites,
} from "../../foundry-module/scripts/logic/fates.mjs";
import { restoreTarget } from "../../foundry-module/scripts/logic/restore.mjs";

const SCOPE = "background-battle";
const OPTIONS = { flagScope: SCOPE, groupName: (name, c) => `${name} (${c.fit}/${c.fighters})` };
const TARGET = { battle: "ambush", unit: "u1", plan: "p1" };

function soldiers(n) {
  return Array.from({ length: n }, (_, i) => ({
    id: `t${i + 1}`,
    name: `Soldier ${i + 1}`,
    fighters: 1,
    dead: false,
    unconscious: false,
    applied: null,
  }));
}

/** A seeded generator (mulberry32): the same runs every time. */
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The single writes a plan makes, in the shell's order (tokens.mjs carryOut): each token
 * record, each holder's condition, each record's `after`; an undo plan's restores, then its
 * records. Each is a function of the token list (by id), so a run can be cut after any of them.
 */
function writesOf(plan) {
  const writes = [];
  for (const r of plan.restores ?? []) {
    writes.push((byId) => {
      const { target } = restoreTarget(r.before, r.after, conditionsNow(byId.get(r.id)));
      for (const id of r.tokens) {
        Object.assign(byId.get(id), { dead: "dead" in target, unconscious: "unconscious" in target });
        delete byId.get(id).conditions;
      }
    });
  }
  for (const u of plan.updates) {
    writes.push((byId) => {
      const t = byId.get(u._id);
      if ("name" in u) t.name = u.name;
      if (`flags.${SCOPE}.applied` in u) t.applied = structuredClone(u[`flags.${SCOPE}.applied`]);
      if (`flags.${SCOPE}.-=applied` in u) t.applied = null;
    });
  }
  for (const c of plan.conditions) {
    writes.push((byId) => {
      for (const id of c.tokens) {
        byId.get(id)[c.status] = c.active;
        delete byId.get(id).conditions;
      }
    });
  }
  for (const c of plan.conditions) {
    writes.push((byId) => {
      for (const id of c.tokens) byId.get(id).applied.after = conditionsNow(byId.get(id));
    });
  }
  return writes;
}

/** Carries out the first `cut` writes of a plan (all of them without `cut`). */
function run(tokens, plan, cut = Infinity) {
  const byId = new Map(tokens.map((t) => [t.id, structuredClone(t)]));
  writesOf(plan)
    .slice(0, cut)
    .forEach((write) => write(byId));
  return tokens.map((t) => byId.get(t.id));
}

function fates(tokens) {
  return tokens.map((t) => [t.id, t.dead, t.unconscious, t.name]);
}

test("the journal is fixed before the writes and every record carries its id", () => {
  const tokens = soldiers(5);
  const plan = planApply(tokens, { killed: 2, wounded: 1, fit: 2 }, TARGET, OPTIONS);
  assert.equal(plan.journal.plan, "p1");
  assert.deepEqual(plan.journal.tokens, ["t1", "t2", "t3", "t4", "t5"]);
  assert.deepEqual(plan.journal.fates, { t1: "killed", t2: "killed", t3: "wounded", t4: "fit", t5: "fit" });
  for (const update of plan.updates) assert.equal(update[`flags.${SCOPE}.applied`].plan, "p1");
  const after = run(tokens, plan);
  assert.deepEqual(planProgress(after, plan.journal), { done: 5, total: 5 });
  assert.deepEqual(planProgress(tokens, plan.journal), { done: 0, total: 5 });
});

test("an Apply cut short at any write, then Finish, ends exactly as the Apply run whole (20 seeds)", () => {
  for (let seed = 1; seed <= 20; seed++) {
    const random = seeded(seed);
    const tokens = soldiers(60);
    // some tokens down before the result: the GM's own marks
    for (const t of tokens) if (random() < 0.1) t.unconscious = true;
    const result = { killed: 17, wounded: 23, fit: 20 };
    const plan = planApply(tokens, result, TARGET, OPTIONS);
    const whole = run(tokens, plan);
    const writes = writesOf(plan).length;
    const cut = Math.floor(random() * (writes + 1));
    const half = run(tokens, plan, cut);
    const progress = planProgress(half, plan.journal);
    assert.ok(progress.done <= 60 && progress.total === 60);
    // Finish: the same journal, never a new choice
    const finish = planWrites(half, plan.journal, TARGET, OPTIONS);
    const finished = run(half, finish);
    assert.deepEqual(fates(finished), fates(whole), `seed ${seed}, cut ${cut}/${writes}`);
    assert.deepEqual(planProgress(finished, plan.journal), { done: 60, total: 60 });
    // idempotent: running it again changes nothing
    assert.ok(isEmptyPlan(planWrites(finished, plan.journal, TARGET, OPTIONS)), `seed ${seed}`);
    // no token marked twice: a killed token is not also unconscious by Apply
    for (const t of finished) assert.ok(!(t.dead && t.unconscious && !tokens.find((o) => o.id === t.id).unconscious));
  }
});

test("an Apply cut short at any write, then Undo, ends exactly as before (20 seeds)", () => {
  for (let seed = 1; seed <= 20; seed++) {
    const random = seeded(100 + seed);
    const tokens = soldiers(60);
    for (const t of tokens) if (random() < 0.1) t.dead = true;
    const plan = planApply(tokens, { killed: 10, wounded: 30, fit: 20 }, TARGET, OPTIONS);
    const cut = Math.floor(random() * (writesOf(plan).length + 1));
    const half = run(tokens, plan, cut);
    const undo = planUndo(half, TARGET, OPTIONS);
    const back = run(half, undo);
    assert.deepEqual(
      back.map((t) => [t.id, t.dead, t.unconscious, t.name, t.applied]),
      tokens.map((t) => [t.id, t.dead, t.unconscious, t.name, null]),
      `seed ${seed}, cut ${cut}`,
    );
    // an Undo cut short and run again still ends as before
    const undoCut = Math.floor(random() * (writesOf(undo).length + 1));
    const halfBack = run(half, undo, undoCut);
    const again = run(halfBack, planUndo(halfBack, TARGET, OPTIONS));
    assert.deepEqual(fates(again), fates(tokens), `seed ${seed}, undo cut ${undoCut}`);
  }
});

test("Apply never takes off a condition it did not set: the GM's dead stay dead, counted killed first", () => {
  const tokens = soldiers(3);
  tokens[1].dead = true;
  tokens[2].dead = true;
  // the result has one killed: both dead tokens stay dead, one beyond the result
  const plan = planApply(tokens, { killed: 1, wounded: 1, fit: 1 }, TARGET, OPTIONS);
  assert.deepEqual(plan.already, { killed: ["t2", "t3"], wounded: [] });
  assert.deepEqual(plan.beyond, { killed: 1, wounded: 0 });
  assert.ok(!plan.conditions.some((c) => !c.active), JSON.stringify(plan.conditions));
  const after = run(tokens, plan);
  assert.deepEqual(
    after.map((t) => [t.dead, t.unconscious]),
    [
      [false, true],
      [true, false],
      [true, false],
    ],
  );
  // and undo leaves the GM's dead as they were
  assert.deepEqual(fates(run(after, planUndo(after, TARGET, OPTIONS))), fates(tokens));
});

test("a token already unconscious by another hand is counted wounded first and left as it is", () => {
  const tokens = soldiers(4);
  tokens[3].unconscious = true;
  const plan = planApply(tokens, { killed: 2, wounded: 1, fit: 1 }, TARGET, OPTIONS);
  assert.equal(plan.journal.fates.t4, "wounded");
  assert.deepEqual(plan.already, { killed: [], wounded: ["t4"] });
  assert.ok(!plan.conditions.some((c) => c.id === "t4"));
});

test("a condition Apply set itself may be taken off by a newer Apply of the unit (the battle changed)", () => {
  const tokens = soldiers(2);
  const first = run(tokens, planApply(tokens, { killed: 2, wounded: 0, fit: 0 }, TARGET, OPTIONS));
  const again = planApply(first, { killed: 1, wounded: 0, fit: 1 }, { ...TARGET, plan: "p2" }, OPTIONS);
  assert.deepEqual(again.already, { killed: [], wounded: [] });
  assert.deepEqual(again.conditions, [{ id: "t2", tokens: ["t2"], status: "dead", active: false }]);
  const after = run(first, again);
  assert.deepEqual(
    after.map((t) => t.dead),
    [true, false],
  );
  // Undo goes back to before the first Apply
  assert.deepEqual(fates(run(after, planUndo(after, TARGET, OPTIONS))), fates(tokens));
});

test("a group token already dead by another hand keeps its condition, and the plan says so", () => {
  const tokens = [{ id: "g", name: "Orcs", fighters: 6, dead: true, unconscious: false, applied: null }];
  const plan = planApply(tokens, { killed: 2, wounded: 1, fit: 3 }, TARGET, OPTIONS);
  assert.deepEqual(plan.conditions, []);
  assert.deepEqual(plan.kept, [{ id: "g", status: "dead" }]);
});

test("a journal kept by the bridge is plain JSON and gives the same writes after a round trip", () => {
  const tokens = soldiers(6);
  tokens.push({ id: "g", name: "Mob", fighters: 4, dead: false, unconscious: false, applied: null });
  const journal = chooseFates(tokens, { killed: 3, wounded: 4, fit: 3 }, TARGET);
  const stored = JSON.parse(JSON.stringify(journal));
  assert.deepEqual(planWrites(tokens, stored, TARGET, OPTIONS), planWrites(tokens, journal, TARGET, OPTIONS));
});
