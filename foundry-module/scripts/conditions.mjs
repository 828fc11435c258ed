/**
 * The conditions an actor shows, through the game system's own calls.
 *
 * WFRP4e (moo-man/WFRP4e-FoundryVTT src/documents/actor.js): `hasCondition`, `addCondition`,
 * `removeCondition` on the actor; some conditions are numbered (fatigued 2), and the system adds
 * its own (unconscious brings prone; losing unconscious brings fatigued).
 * Any other system: Foundry's `Actor#statuses` and `Actor#toggleStatusEffect(id, {active,
 * overlay})`, which throws for an id not in `CONFIG.statusEffects`; dead is the system's
 * defeated status, `CONFIG.specialStatusEffects.DEFEATED`, shown as the overlay.
 *
 * The module's two fates are named "dead" and "unconscious" here; `statusId` gives the id the
 * system knows them by.
 */
import { statusList } from "./generation.mjs";

function usesWfrpConditions(actor) {
  return (
    game.system?.id === "wfrp4e" &&
    typeof actor?.addCondition === "function" &&
    typeof actor?.removeCondition === "function" &&
    typeof actor?.hasCondition === "function"
  );
}

/** WFRP4e's conditions (an array: src/system/config-wfrp4e.js), else the core list. */
function wfrpConfig() {
  return statusList(game.wfrp4e?.config?.statusEffects ?? CONFIG.statusEffects);
}

/** The system's id for one of the module's two fates ("dead" or "unconscious"). */
export function statusId(fate) {
  if (fate === "dead" && game.system?.id !== "wfrp4e") {
    return CONFIG.specialStatusEffects?.DEFEATED ?? "dead";
  }
  return fate;
}

/** Whether the system can set the status on this actor (the id is one it knows). */
export function knowsStatus(actor, id) {
  // CONFIG.statusEffects: an array in v13, an object keyed by id in v14 (generation.mjs).
  const list = usesWfrpConditions(actor) ? wfrpConfig() : statusList(CONFIG.statusEffects);
  return list.some((effect) => effect.id === id);
}

/** Every condition the actor has now, as [[id, value], ...] sorted by id (value: a numbered
 * condition's count, else 1). */
export function conditionsOf(actor) {
  if (!actor) return [];
  const list = new Map();
  if (usesWfrpConditions(actor)) {
    const known = new Set(wfrpConfig().map((effect) => effect.id));
    for (const effect of actor.effects ?? []) {
      const key = effect.key ?? [...(effect.statuses ?? [])][0];
      if (!known.has(key)) continue;
      list.set(key, effect.isNumberedCondition ? Number(effect.conditionValue) || 0 : 1);
    }
  } else {
    for (const id of actor.statuses ?? []) list.set(id, 1);
  }
  return [...list].filter(([, value]) => value > 0).sort(([a], [b]) => a.localeCompare(b));
}

/** Whether the actor shows one of the module's fates now. */
export function hasStatus(actor, fate) {
  const id = statusId(fate);
  return conditionsOf(actor).some(([key]) => key === id);
}

/** Takes a condition of the actor from one value to another (0: absent). */
export async function changeCondition(actor, id, from, to) {
  if (from === to) return false;
  if (usesWfrpConditions(actor)) {
    if (to > from) await actor.addCondition(id, to - from);
    else await actor.removeCondition(id, from - to);
  } else {
    const defeated = id === statusId("dead");
    await actor.toggleStatusEffect(id, { active: to > 0, ...(defeated && to > 0 ? { overlay: true } : {}) });
  }
  return true;
}

/** Makes the actor show (or stop showing) one of the module's fates; false when it already did. */
export async function setStatus(actor, fate, active) {
  if (!actor || hasStatus(actor, fate) === active) return false;
  return changeCondition(actor, statusId(fate), active ? 0 : 1, active ? 1 : 0);
}
