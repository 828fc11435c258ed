/**
 * Tokens of a unit on the viewed scene: read them as plain data for the fate logic, carry out a
 * plan (one batched token update, then the conditions), link and unlink tokens to a unit.
 */
import { FLAGS, ID, STATUS } from "./constants.mjs";
import { hasStatus, setStatus } from "./conditions.mjs";
import { log } from "./log.mjs";

function sceneTokens() {
  const scene = canvas?.scene;
  return scene ? Array.from(scene.tokens) : [];
}

/** The token documents linked to a unit of a battle, in link order. */
export function unitTokenDocuments(battle, unit) {
  return sceneTokens()
    .filter((doc) => {
      const link = doc.getFlag(ID, FLAGS.UNIT);
      return link && link.battle === battle && link.unit === unit;
    })
    .sort((a, b) => (a.getFlag(ID, FLAGS.UNIT).order ?? 0) - (b.getFlag(ID, FLAGS.UNIT).order ?? 0));
}

/** Plain descriptors of a unit's tokens, as logic/fates.mjs takes them. */
export function describeTokens(docs) {
  return docs.map((doc) => ({
    id: doc.id,
    name: doc.name,
    fighters: doc.getFlag(ID, FLAGS.FIGHTERS) ?? 1,
    dead: hasStatus(doc.actor, STATUS.killed),
    unconscious: hasStatus(doc.actor, STATUS.wounded),
    applied: doc.getFlag(ID, FLAGS.APPLIED) ?? null,
  }));
}

/**
 * Carries out a plan from logic/fates.mjs: first the token records in one batched
 * `updateEmbeddedDocuments` (so an interrupted run is finished by the next Apply), then the
 * conditions on each token's actor.
 */
export async function carryOut(plan) {
  const scene = canvas.scene;
  if (plan.updates.length) await scene.updateEmbeddedDocuments("Token", plan.updates);
  let changed = 0;
  for (const change of plan.conditions) {
    const doc = scene.tokens.get(change.id);
    if (!doc?.actor) {
      log.warn(`token ${change.id} has no actor: cannot show ${change.status}`);
      continue;
    }
    if (await setStatus(doc.actor, change.status, change.active)) changed += 1;
  }
  log.debug("carried out", plan, `${changed} condition changes`);
  return changed;
}

/**
 * Links token documents to a unit in one batch. `fighters` per token: 1, or the head count a
 * single token stands for.
 */
export async function linkTokens(docs, battle, unit, fightersPerToken = () => 1) {
  const updates = docs.map((doc, order) => {
    const update = { _id: doc.id, [`flags.${ID}.${FLAGS.UNIT}`]: { battle, unit, order } };
    const fighters = fightersPerToken(doc);
    if (fighters > 1) update[`flags.${ID}.${FLAGS.FIGHTERS}`] = fighters;
    else update[`flags.${ID}.-=${FLAGS.FIGHTERS}`] = null;
    return update;
  });
  if (updates.length) await canvas.scene.updateEmbeddedDocuments("Token", updates);
  return updates.length;
}

/** Unlinks token documents from their unit (their Apply record stays, so undo still works). */
export async function unlinkTokens(docs) {
  const updates = docs.map((doc) => ({
    _id: doc.id,
    [`flags.${ID}.-=${FLAGS.UNIT}`]: null,
    [`flags.${ID}.-=${FLAGS.FIGHTERS}`]: null,
  }));
  if (updates.length) await canvas.scene.updateEmbeddedDocuments("Token", updates);
  return updates.length;
}

/** The token documents the user has selected on the canvas. */
export function selectedTokenDocuments() {
  return (canvas?.tokens?.controlled ?? []).map((token) => token.document);
}
