// Which token gets which fate: pure logic, Node's built-in test runner.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  assignFates,
  checkResult,
  groupConditions,
  conditionsNow,
  holdersOf,
  isEmptyPlan,
  legacyRecordUpdate,
  planApply,
  planUndo,
} from "../../foundry-module/scripts/logic/fates.mjs";
import { restoreTarget } from "../../foundry-module/scripts/logic/restore.mjs";
import { legacyUnset } from "../../foundry-module/scripts/logic/unset.mjs";

const SCOPE = "background-battle";
const TARGET = { battle: "ambush", unit: "u1" };
const OPTIONS = { flagScope: SCOPE, groupName: (name, c) => `${name} (${c.fit}/${c.fighters})` };

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

/** Carries out a plan on plain token objects, as the Foundry side does on documents: the
 * records, the conditions (on every token of a holder: they share the actor), then `after`. */
function carryOut(tokens, plan) {
  const byId = new Map(tokens.map((t) => [t.id, structuredClone(t)]));
  for (const r of plan.restores ?? []) {
    const { target } = restoreTarget(r.before, r.after, conditionsNow(byId.get(r.id)));
    for (const id of r.tokens)
      Object.assign(byId.get(id), { dead: "dead" in target, unconscious: "unconscious" in target });
  }
  for (const u of plan.updates) {
    const t = byId.get(u._id);
    if ("name" in u) t.name = u.name;
    if (`flags.${SCOPE}.applied` in u) t.applied = structuredClone(u[`flags.${SCOPE}.applied`]);
    if (`flags.${SCOPE}.-=applied` in u) t.applied = null;
  }
  for (const c of plan.conditions) for (const id of c.tokens) byId.get(id)[c.status] = c.active;
  for (const c of plan.conditions) for (const id of c.tokens) byId.get(id).applied.after = conditionsNow(byId.get(id));
  return tokens.map((t) => byId.get(t.id));
}

function shown(tokens) {
  return {
    dead: tokens.filter((t) => t.dead).length,
    unconscious: tokens.filter((t) => t.unconscious).length,
    standing: tokens.filter((t) => !t.dead && !t.unconscious).length,
  };
}

test("exactly the killed tokens are marked dead and the wounded unconscious", () => {
  const tokens = soldiers(10);
  const plan = planApply(tokens, { killed: 2, wounded: 4, fit: 4 }, TARGET, OPTIONS);
  const after = carryOut(tokens, plan);
  assert.deepEqual(shown(after), { dead: 2, unconscious: 4, standing: 4 });
  assert.equal(plan.summary.killed.length, 2);
  assert.equal(plan.summary.wounded.length, 4);
  assert.equal(plan.summary.fit.length, 4);
  assert.equal(plan.conditions.length, 6);
  // every token gets its record, in one batch of updates
  assert.equal(plan.updates.length, 10);
});

test("the dead are taken in link order when nobody shows a fate yet", () => {
  const plan = planApply(soldiers(3), { killed: 1, wounded: 1, fit: 1 }, TARGET, OPTIONS);
  assert.deepEqual(plan.summary.killed, ["t1"]);
  assert.deepEqual(plan.summary.wounded, ["t2"]);
  assert.deepEqual(plan.summary.fit, ["t3"]);
});

test("applying the same result twice changes nothing the second time", () => {
  const tokens = soldiers(3);
  const result = { killed: 1, wounded: 1, fit: 1 };
  const once = carryOut(tokens, planApply(tokens, result, TARGET, OPTIONS));
  const again = planApply(once, result, TARGET, OPTIONS);
  assert.ok(isEmptyPlan(again), JSON.stringify(again));
});

test("a token the GM already marked dead is chosen among the killed", () => {
  const tokens = soldiers(3);
  tokens[2].dead = true;
  const plan = planApply(tokens, { killed: 1, wounded: 0, fit: 2 }, TARGET, OPTIONS);
  assert.deepEqual(plan.summary.killed, ["t3"]);
  assert.deepEqual(plan.conditions, []);
});

test("undo puts every token back as it was, names and conditions", () => {
  const tokens = soldiers(4);
  tokens[3].unconscious = true; // down before the battle result
  const applied = carryOut(tokens, planApply(tokens, { killed: 3, wounded: 1, fit: 0 }, TARGET, OPTIONS));
  const undo = planUndo(applied, TARGET, OPTIONS);
  const back = carryOut(applied, undo);
  assert.deepEqual(back, tokens);
  assert.equal(undo.restored.length, 4);
});

test("undo after two applies restores the state before the first", () => {
  const tokens = soldiers(3);
  const first = carryOut(tokens, planApply(tokens, { killed: 1, wounded: 0, fit: 2 }, TARGET, OPTIONS));
  const second = carryOut(first, planApply(first, { killed: 2, wounded: 1, fit: 0 }, TARGET, OPTIONS));
  assert.deepEqual(shown(second), { dead: 2, unconscious: 1, standing: 0 });
  const back = carryOut(second, planUndo(second, TARGET, OPTIONS));
  assert.deepEqual(back, tokens);
});

test("undo leaves tokens applied for another unit alone", () => {
  const tokens = soldiers(2);
  const applied = carryOut(tokens, planApply(tokens, { killed: 1, wounded: 0, fit: 1 }, TARGET, OPTIONS));
  const plan = planUndo(applied, { battle: "ambush", unit: "u2" }, OPTIONS);
  assert.ok(isEmptyPlan(plan));
  assert.deepEqual(plan.restored, []);
});

test("undo with nothing applied changes nothing", () => {
  assert.ok(isEmptyPlan(planUndo(soldiers(3), TARGET, OPTIONS)));
});

test("a token standing for many gets counts in its name instead of a condition", () => {
  const tokens = [{ id: "g", name: "Orcs", fighters: 12, dead: false, unconscious: false, applied: null }];
  const plan = planApply(tokens, { killed: 3, wounded: 6, fit: 3 }, TARGET, OPTIONS);
  assert.deepEqual(plan.conditions, []);
  assert.equal(plan.updates.length, 1);
  assert.equal(plan.updates[0].name, "Orcs (3/12)");
  assert.deepEqual(plan.summary.groups, [{ id: "g", fighters: 12, killed: 3, wounded: 6, fit: 3 }]);
  const after = carryOut(tokens, plan);
  assert.ok(isEmptyPlan(planApply(after, { killed: 3, wounded: 6, fit: 3 }, TARGET, OPTIONS)));
  assert.deepEqual(carryOut(after, planUndo(after, TARGET, OPTIONS)), tokens);
});

/** Every number a JSON value holds (numbers inside texts, such as ids, are not counted). */
function numbersIn(value) {
  if (typeof value === "number") return [value];
  if (value && typeof value === "object") return Object.values(value).flatMap(numbersIn);
  return [];
}

test("an Apply record holds no casualty result and no head count (players receive it)", () => {
  const tokens = [
    { id: "boss", name: "Boss", fighters: 1, dead: false, unconscious: false, applied: null },
    { id: "mob", name: "Mob", fighters: 12, dead: false, unconscious: false, applied: null },
  ];
  const hidden = { groupName: (name) => name, flagScope: SCOPE };
  const plan = planApply(tokens, { killed: 4, wounded: 5, fit: 4 }, TARGET, hidden);
  const records = plan.updates.map((u) => u[`flags.${SCOPE}.applied`]);
  assert.equal(records.length, 2);
  for (const record of records) {
    assert.deepEqual(Object.keys(record).sort(), ["after", "battle", "before", "fate", "shared", "unit"]);
    assert.deepEqual(numbersIn(record), [], JSON.stringify(record));
  }
  // the GM's own count of the mob is in the summary (for the GM's card and the bridge's report)
  assert.deepEqual(plan.summary.groups, [{ id: "mob", fighters: 12, killed: 3, wounded: 5, fit: 4 }]);
  // Apply and Undo stay exact without them
  const after = carryOut(tokens, plan);
  assert.ok(isEmptyPlan(planApply(after, { killed: 4, wounded: 5, fit: 4 }, TARGET, hidden)));
  assert.deepEqual(carryOut(after, planUndo(after, TARGET, OPTIONS)), tokens);
});

test("a record of an earlier version loses its hidden numbers, and undo still reads it", () => {
  const [token] = soldiers(1);
  const before = { name: "Soldier 1", conditions: [] };
  const old = {
    ...TARGET,
    result: { killed: 1, wounded: 0, fit: 0 },
    fate: "killed",
    counts: null,
    shared: null,
    before,
    after: [["dead", 1]],
  };
  const applied = { ...token, dead: true, applied: old };
  assert.deepEqual(legacyRecordUpdate(applied, SCOPE), {
    _id: "t1",
    [`flags.${SCOPE}.applied.-=result`]: null,
    [`flags.${SCOPE}.applied.-=counts`]: null,
  });
  assert.equal(legacyRecordUpdate(token, SCOPE), null);
  const { result, counts, ...trimmed } = old;
  assert.equal(legacyRecordUpdate({ ...applied, applied: trimmed }, SCOPE), null);
  const migrated = [{ ...applied, applied: trimmed }];
  assert.deepEqual(carryOut(migrated, planUndo(migrated, TARGET, OPTIONS)), [token]);
});

test("the unsets take the form of the Foundry generation (v13 `-=key`, v14 an operator)", () => {
  assert.deepEqual(legacyUnset("flags.bb.applied"), { "flags.bb.-=applied": null });
  const DELETE = Object.freeze({ operator: "ForcedDeletion" });
  const unset = (path) => ({ [path]: DELETE });
  const [token] = soldiers(1);
  const before = { name: "Soldier 1", conditions: [] };
  const record = { ...TARGET, fate: "killed", shared: null, before, after: [["dead", 1]], result: { killed: 1 } };
  const applied = { ...token, name: "Soldier 1", dead: true, applied: record };
  const [update] = planUndo([applied], TARGET, { ...OPTIONS, unset }).updates;
  assert.deepEqual(update, { _id: "t1", [`flags.${SCOPE}.applied`]: DELETE });
  assert.deepEqual(legacyRecordUpdate(applied, SCOPE, unset), { _id: "t1", [`flags.${SCOPE}.applied.result`]: DELETE });
  // no key of either update is a v13 special key
  assert.ok(
    ![...Object.keys(update), ...Object.keys(legacyRecordUpdate(applied, SCOPE, unset))].some((k) => k.includes("-=")),
  );
});

test("a group token with nobody fit shows dead or down", () => {
  assert.deepEqual(groupConditions({ killed: 5, wounded: 0, fit: 0 }), { dead: true, unconscious: false });
  assert.deepEqual(groupConditions({ killed: 2, wounded: 3, fit: 0 }), { dead: false, unconscious: true });
  assert.deepEqual(groupConditions({ killed: 2, wounded: 3, fit: 1 }), { dead: false, unconscious: false });
});

test("single tokens take fates first, the group token the rest", () => {
  const tokens = [
    { id: "boss", name: "Boss", fighters: 1 },
    { id: "mob", name: "Mob", fighters: 9 },
  ];
  const fates = assignFates(tokens, { killed: 3, wounded: 6, fit: 1 });
  assert.deepEqual(fates.singles, { boss: "killed" });
  assert.deepEqual(fates.groups.mob, { fighters: 9, killed: 2, wounded: 6, fit: 1 });
  assert.deepEqual(fates.unplaced, { killed: 0, wounded: 0, fit: 0 });
});

test("fates no token can hold are reported as unplaced", () => {
  const fates = assignFates(soldiers(2), { killed: 3, wounded: 1, fit: 0 });
  assert.deepEqual(fates.singles, { t1: "killed", t2: "killed" });
  assert.deepEqual(fates.unplaced, { killed: 1, wounded: 1, fit: 0 });
});

test("more tokens than fighters: the extra tokens stand", () => {
  const fates = assignFates(soldiers(4), { killed: 1, wounded: 0, fit: 1 });
  assert.deepEqual(fates.singles, { t1: "killed", t2: "fit", t3: "fit", t4: "fit" });
});

test("bad casualty results are refused, naming the field", () => {
  assert.throws(() => checkResult(null), /casualties/);
  assert.throws(() => checkResult({ killed: -1, wounded: 0, fit: 0 }), /casualties\.killed.*>= 0/);
  assert.throws(() => checkResult({ killed: 1, wounded: 1.5, fit: 0 }), /casualties\.wounded/);
  assert.throws(() => checkResult({ killed: 1, wounded: 1 }), /casualties\.fit/);
  assert.throws(() => planApply(soldiers(1), { killed: "1", wounded: 0, fit: 0 }, TARGET, OPTIONS));
});

test("any result on any tokens keeps the counts and applies idempotently", () => {
  // A small exhaustive property: every split of up to 6 fighters on 0..6 single tokens plus an
  // optional group token.
  for (let n = 0; n <= 6; n++) {
    for (let killed = 0; killed <= n; killed++) {
      for (let wounded = 0; killed + wounded <= n; wounded++) {
        const result = { killed, wounded, fit: n - killed - wounded };
        for (let singles = 0; singles <= 6; singles++) {
          for (const group of [0, 3]) {
            const tokens = soldiers(singles);
            if (group) {
              tokens.push({ id: "g", name: "Mob", fighters: group, dead: false, unconscious: false });
            }
            const fates = assignFates(tokens, result);
            const placed = { killed: 0, wounded: 0, fit: 0 };
            for (const f of Object.values(fates.singles)) placed[f] += 1;
            for (const c of Object.values(fates.groups)) {
              for (const f of ["killed", "wounded", "fit"]) placed[f] += c[f];
            }
            for (const f of ["killed", "wounded"]) {
              assert.equal(placed[f] + fates.unplaced[f], result[f], `${f} ${JSON.stringify(result)}`);
            }
            const after = carryOut(tokens, planApply(tokens, result, TARGET, OPTIONS));
            assert.ok(isEmptyPlan(planApply(after, result, TARGET, OPTIONS)));
            assert.deepEqual(
              carryOut(after, planUndo(after, TARGET, OPTIONS)).map((t) => [t.dead, t.unconscious, t.name]),
              tokens.map((t) => [t.dead, t.unconscious, t.name]),
            );
          }
        }
      }
    }
  }
});

test("tokens of one shared actor are one holder of their fighters, marked once", () => {
  const tokens = soldiers(4);
  tokens[1].actor = "Actor.hero";
  tokens[2].actor = "Actor.hero";
  assert.deepEqual(
    holdersOf(tokens).map((h) => [h.id, h.fighters]),
    [
      ["t1", 1],
      ["t2", 2],
      ["t4", 1],
    ],
  );
  const plan = planApply(tokens, { killed: 2, wounded: 2, fit: 0 }, TARGET, OPTIONS);
  // the two singles take a fate each; the shared actor holds the other two fighters as counts
  assert.deepEqual(plan.summary.killed, ["t1", "t4"]);
  assert.deepEqual(plan.summary.groups, [
    { id: "t2", fighters: 2, killed: 0, wounded: 2, fit: 0, tokens: ["t2", "t3"] },
  ]);
  // one condition change for the shared actor, not one per token
  const shared = plan.conditions.filter((c) => c.id === "t2");
  assert.deepEqual(shared, [{ id: "t2", tokens: ["t2", "t3"], status: "unconscious", active: true }]);
  const after = carryOut(tokens, plan);
  assert.deepEqual(
    after.map((t) => t.name),
    ["Soldier 1", "Soldier 2 (0/2)", "Soldier 3 (0/2)", "Soldier 4"],
  );
  assert.ok(isEmptyPlan(planApply(after, { killed: 2, wounded: 2, fit: 0 }, TARGET, OPTIONS)));
  const undo = planUndo(after, TARGET, OPTIONS);
  assert.equal(undo.restores.length, 3); // one per actor
  assert.deepEqual(carryOut(after, undo), tokens);
});

test("a record from before condition lists were kept puts back dead and unconscious only", () => {
  const token = {
    ...soldiers(1)[0],
    conditions: [
      ["bleeding", 2],
      ["dead", 1],
    ],
    dead: true,
    applied: { battle: "ambush", unit: "u1", before: { dead: false, unconscious: true, name: "Soldier 1" } },
  };
  const [restore] = planUndo([token], TARGET, OPTIONS).restores;
  const { target } = restoreTarget(restore.before, restore.after, token.conditions);
  assert.deepEqual(target, { bleeding: 2, unconscious: 1 });
});
