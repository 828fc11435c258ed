/**
 * Tokens of a unit: found by their UUIDs (the list the bridge keeps per unit), read as plain
 * data for logic/fates.mjs, checked before anything is written, changed by carrying out a plan
 * (token records batched per scene, then the conditions, then what the actors show after), put
 * back by an undo plan, linked to and unlinked from units.
 */
import { FLAGS, ID } from "./constants.mjs";
import { changeCondition, conditionsOf, knowsStatus, setStatus, statusId } from "./conditions.mjs";
import { restoreTarget, stepsTo } from "./logic/restore.mjs";
import { log } from "./log.mjs";
import { unset } from "./generation.mjs";

/** Token documents for UUIDs, in that order; `missing` lists the UUIDs not found. */
export function resolveTokens(uuids) {
  const docs = [];
  const missing = [];
  for (const uuid of uuids ?? []) {
    const doc = foundry.utils.fromUuidSync(uuid);
    if (doc && doc.documentName === "Token") docs.push(doc);
    else missing.push(uuid);
  }
  return { docs, missing };
}

/**
 * Plain descriptors of token documents, keyed by UUID, as logic/fates.mjs takes them. Tokens
 * linked to one actor share its conditions: `actor` is that actor's UUID (an unlinked token's
 * actor is its own). `fighters`: the unit's head counts as the bridge keeps them for the GMs
 * ({token UUID: n}); a token not in it is one fighter, or what an earlier version's flag says
 * until that flag is moved (old-flags.mjs).
 */
export function describeTokens(docs, fighters = {}) {
  return docs.map((doc) => {
    const conditions = conditionsOf(doc.actor);
    const shows = (fate) => conditions.some(([id]) => id === statusId(fate));
    return {
      id: doc.uuid,
      name: doc.name,
      fighters: fighters[doc.uuid] ?? doc.getFlag(ID, FLAGS.FIGHTERS) ?? 1,
      actor: doc.actor?.uuid ?? null,
      dead: shows("dead"),
      unconscious: shows("unconscious"),
      conditions,
      applied: doc.getFlag(ID, FLAGS.APPLIED) ?? null,
    };
  });
}

/**
 * What would stop a plan half-way, found before anything is written: a token without an actor,
 * a status id the system does not know. Returns [{token, reason, status?}] (empty: go ahead).
 */
export function checkPlan(plan, docs) {
  const byUuid = new Map(docs.map((doc) => [doc.uuid, doc]));
  const problems = [];
  for (const change of plan.conditions) {
    const doc = byUuid.get(change.id);
    const id = statusId(change.status);
    if (!doc?.actor) problems.push({ token: doc?.name ?? change.id, reason: "no_actor" });
    else if (!knowsStatus(doc.actor, id)) problems.push({ token: doc.name, reason: "unknown_status", status: id });
  }
  for (const update of plan.updates) {
    if (!byUuid.has(update._id)) problems.push({ token: update._id, reason: "no_token" });
  }
  return problems;
}

/** Groups updates keyed by token UUID into one batch per scene, keyed by the token's own id. */
function batchesByScene(updates, byUuid) {
  const batches = new Map();
  for (const { _id: uuid, ...change } of updates) {
    const doc = byUuid.get(uuid);
    if (!doc) continue;
    const scene = doc.parent;
    if (!batches.has(scene)) batches.set(scene, []);
    batches.get(scene).push({ _id: doc.id, ...change });
  }
  return batches;
}

/** Writes token updates keyed by UUID (`_id`), one batch per scene; returns how many. */
export function writeTokenUpdates(updates, docs) {
  return writeBatches(updates, new Map(docs.map((doc) => [doc.uuid, doc])));
}

async function writeBatches(updates, byUuid) {
  let count = 0;
  for (const [scene, batch] of batchesByScene(updates, byUuid)) {
    await scene.updateEmbeddedDocuments("Token", batch);
    count += batch.length;
  }
  return count;
}

/** Runs `work(actor, items)` for each actor's share of `items` (keyed by token UUID `id`):
 * actors in parallel, each actor's own items in order. Returns the sum of the results. */
async function perActor(items, byUuid, work) {
  const groups = new Map();
  for (const item of items) {
    if (!groups.has(item.id)) groups.set(item.id, []);
    groups.get(item.id).push(item);
  }
  const counts = await Promise.all([...groups].map(([uuid, list]) => work(byUuid.get(uuid)?.actor, list)));
  return counts.reduce((a, b) => a + b, 0);
}

/** For each token of an actor whose conditions changed: what the actor shows now. */
function afterRecords(plan, byUuid) {
  const updates = new Map();
  for (const change of plan.conditions) {
    const shows = conditionsOf(byUuid.get(change.id)?.actor);
    for (const uuid of change.tokens) {
      updates.set(uuid, { _id: uuid, [`flags.${ID}.${FLAGS.APPLIED}.after`]: shows });
    }
  }
  return [...updates.values()];
}

/** Tokens carried out together: their records, then their conditions, then `after`. A run cut
 * short leaves at most one such part half-done (logic/fates.mjs planProgress counts the rest). */
export const CHUNK = 8;

/** The plan's holders in order, each as {conditions, updates} of its own (by token UUID). */
function holderParts(plan) {
  const holderOf = new Map();
  for (const change of plan.conditions) for (const uuid of change.tokens) holderOf.set(uuid, change.id);
  const parts = new Map();
  const part = (id) => {
    if (!parts.has(id)) parts.set(id, { conditions: [], updates: [] });
    return parts.get(id);
  };
  for (const update of plan.updates) part(holderOf.get(update._id) ?? update._id).updates.push(update);
  for (const change of plan.conditions) part(change.id).conditions.push(change);
  return [...parts.values()];
}

/**
 * Carries out an Apply plan from logic/fates.mjs on the given token documents (checked first
 * with checkPlan), a few tokens at a time (CHUNK): their token records in one batched
 * `updateEmbeddedDocuments` per scene, then their conditions, once per actor, then the record
 * of what each changed actor shows now (with the system's own additions), which Undo reads
 * and which marks the token done. Every record carries the plan's journal id, so an
 * interrupted run is finished (the same journal) or undone exactly. `progress(n)` is told the
 * tokens done so far. Returns the number of changes.
 */
export async function carryOut(plan, docs, progress = () => {}) {
  const byUuid = new Map(docs.map((doc) => [doc.uuid, doc]));
  let changes = 0;
  let done = 0;
  const parts = holderParts(plan);
  for (let start = 0; start < parts.length;) {
    const chunk = { conditions: [], updates: [] };
    let size = 0;
    while (start < parts.length && (size === 0 || size + parts[start].updates.length <= CHUNK)) {
      chunk.conditions.push(...parts[start].conditions);
      chunk.updates.push(...parts[start].updates);
      size += Math.max(1, parts[start].updates.length);
      start += 1;
    }
    changes += await writeBatches(chunk.updates, byUuid);
    changes += await perActor(chunk.conditions, byUuid, async (actor, list) => {
      let n = 0;
      for (const change of list) if (await setStatus(actor, change.status, change.active)) n += 1;
      return n;
    });
    await writeBatches(afterRecords(chunk, byUuid), byUuid);
    done += chunk.updates.length;
    progress(done);
  }
  log.debug("carried out", plan, `${changes} changes`);
  return changes;
}

/** Passes an undo makes over one actor: each pass takes back what the one before added. */
const MAX_PASSES = 4;

/**
 * Puts an actor's conditions back (see restoreTarget); the system's own side effects of the
 * steps (WFRP4e: losing unconscious brings fatigued) are taken back by the next pass.
 * Returns {steps, kept, left}: `left` what could not be put back.
 */
async function restoreActor(actor, restore) {
  if (!actor) return { steps: 0, kept: [], left: [] };
  const { target, kept } = restoreTarget(restore.before, restore.after, conditionsOf(actor));
  let steps = 0;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const todo = stepsTo(conditionsOf(actor), target).filter((s) => knowsStatus(actor, s.status));
    if (!todo.length) break;
    for (const step of todo) {
      if (await changeCondition(actor, step.status, step.from, step.to)) steps += 1;
    }
  }
  return { steps, kept, left: stepsTo(conditionsOf(actor), target).map((s) => s.status) };
}

/**
 * Carries out an Undo plan: each actor's conditions first, then the token records (names back,
 * records gone), so an interrupted undo can be run again. Returns {kept, left} per token name.
 */
export async function carryOutUndo(plan, docs) {
  const byUuid = new Map(docs.map((doc) => [doc.uuid, doc]));
  const kept = [];
  const left = [];
  await perActor(plan.restores, byUuid, async (actor, [restore]) => {
    const result = await restoreActor(actor, restore);
    const name = byUuid.get(restore.id)?.name ?? restore.id;
    for (const status of result.kept) kept.push({ token: name, status });
    for (const status of result.left) left.push({ token: name, status });
    return result.steps;
  });
  await writeBatches(plan.updates, byUuid);
  return { kept, left };
}

/** Writes one batch of flag updates per scene for the given documents. */
async function updateEach(docs, makeUpdate) {
  const bySceneDocs = new Map();
  for (const doc of docs) {
    if (!bySceneDocs.has(doc.parent)) bySceneDocs.set(doc.parent, []);
    bySceneDocs.get(doc.parent).push(doc);
  }
  for (const [scene, sceneDocs] of bySceneDocs) {
    await scene.updateEmbeddedDocuments("Token", sceneDocs.map(makeUpdate));
  }
}

/**
 * Marks token documents as fighting in a unit: `{unit}`, the unit's id. Every player's Foundry
 * receives a token's flags, so the mark names no battle (one the GM prepares is not the
 * players' to know of) and holds no head count (the bridge keeps both for the GMs); the battle
 * an earlier version wrote there is unset.
 */
export function markLinked(docs, unit) {
  return updateEach(docs, (doc) => ({
    _id: doc.id,
    [`flags.${ID}.${FLAGS.UNIT}.unit`]: unit,
    ...withoutOldBattle(doc),
  }));
}

/** The unset of the battle an earlier version wrote in a token's unit mark, when it has one. */
export function withoutOldBattle(doc) {
  const mark = doc.getFlag(ID, FLAGS.UNIT);
  return mark && "battle" in mark ? unset(`flags.${ID}.${FLAGS.UNIT}.battle`) : {};
}

/** Removes the unit mark (and an earlier version's head count) from token documents (an
 * Apply record stays for undo). */
export function markUnlinked(docs) {
  return updateEach(docs, (doc) => ({
    _id: doc.id,
    ...unset(`flags.${ID}.${FLAGS.UNIT}`),
    ...withoutOldHeadCount(doc),
  }));
}

/** The unset of an earlier version's head count flag, when the token has one. */
export function withoutOldHeadCount(doc) {
  return doc.getFlag(ID, FLAGS.FIGHTERS) === undefined ? {} : unset(`flags.${ID}.${FLAGS.FIGHTERS}`);
}

/** Takes an earlier version's head count flag off token documents (once the bridge has it). */
export function removeOldHeadCounts(docs) {
  const old = docs.filter((doc) => doc.getFlag(ID, FLAGS.FIGHTERS) !== undefined);
  return updateEach(old, (doc) => ({ _id: doc.id, ...withoutOldHeadCount(doc) }));
}

/** Takes the battle's name out of the unit marks an earlier version wrote. Returns how many. */
export async function removeOldBattles(docs) {
  const old = docs.filter((doc) => Object.keys(withoutOldBattle(doc)).length);
  await updateEach(old, (doc) => ({ _id: doc.id, ...withoutOldBattle(doc) }));
  return old.length;
}

/** The token documents the user has selected on the canvas. */
export function selectedTokenDocuments() {
  return (canvas?.tokens?.controlled ?? []).map((token) => token.document);
}
