/**
 * Tokens of a unit: found by their UUIDs (the list the bridge keeps per unit), read as plain
 * data for logic/fates.mjs, changed by carrying out a plan (token updates batched per scene,
 * then the conditions), linked to and unlinked from units.
 */
import { FLAGS, ID, STATUS } from "./constants.mjs";
import { hasStatus, setStatus } from "./conditions.mjs";
import { log } from "./log.mjs";

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

/** Plain descriptors of token documents, keyed by UUID, as logic/fates.mjs takes them. */
export function describeTokens(docs) {
  return docs.map((doc) => ({
    id: doc.uuid,
    name: doc.name,
    fighters: doc.getFlag(ID, FLAGS.FIGHTERS) ?? 1,
    dead: hasStatus(doc.actor, STATUS.killed),
    unconscious: hasStatus(doc.actor, STATUS.wounded),
    applied: doc.getFlag(ID, FLAGS.APPLIED) ?? null,
  }));
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

/**
 * Carries out a plan from logic/fates.mjs on the given token documents: first the token records,
 * in one batched `updateEmbeddedDocuments` per scene (so an interrupted run is finished by the
 * next Apply), then the conditions on each token's actor. Returns the number of changes.
 */
export async function carryOut(plan, docs) {
  const byUuid = new Map(docs.map((doc) => [doc.uuid, doc]));
  let changes = 0;
  for (const [scene, updates] of batchesByScene(plan.updates, byUuid)) {
    await scene.updateEmbeddedDocuments("Token", updates);
    changes += updates.length;
  }
  // Conditions live on each token's actor: one actor after another would wait for every
  // round trip, so tokens go in parallel, each token's own changes in order.
  const perToken = new Map();
  for (const change of plan.conditions) {
    if (!perToken.has(change.id)) perToken.set(change.id, []);
    perToken.get(change.id).push(change);
  }
  const counts = await Promise.all(
    [...perToken].map(async ([uuid, list]) => {
      const actor = byUuid.get(uuid)?.actor;
      if (!actor) {
        log.warn(`token ${uuid} has no actor: it cannot show ${list.map((c) => c.status)}`);
        return 0;
      }
      let done = 0;
      for (const change of list) {
        if (await setStatus(actor, change.status, change.active)) done += 1;
      }
      return done;
    }),
  );
  changes += counts.reduce((a, b) => a + b, 0);
  log.debug("carried out", plan, `${changes} changes`);
  return changes;
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

/** Marks token documents as fighting in a unit; `fighters`: the head count one token stands for. */
export function markLinked(docs, battle, unit, fighters = 1) {
  return updateEach(docs, (doc) => {
    const update = { _id: doc.id, [`flags.${ID}.${FLAGS.UNIT}`]: { battle, unit } };
    if (fighters > 1) update[`flags.${ID}.${FLAGS.FIGHTERS}`] = fighters;
    return update;
  });
}

/** Removes the unit mark and head count from token documents (an Apply record stays for undo). */
export function markUnlinked(docs) {
  return updateEach(docs, (doc) => ({
    _id: doc.id,
    [`flags.${ID}.-=${FLAGS.UNIT}`]: null,
    [`flags.${ID}.-=${FLAGS.FIGHTERS}`]: null,
  }));
}

/** The token documents the user has selected on the canvas. */
export function selectedTokenDocuments() {
  return (canvas?.tokens?.controlled ?? []).map((token) => token.document);
}
