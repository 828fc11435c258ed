/**
 * The two conditions a token shows (dead, unconscious), through the game system's own calls.
 *
 * WFRP4e: the system's `hasCondition` / `addCondition` / `removeCondition` on the actor.
 * Any other system: Foundry's `Actor#statuses` and `Actor#toggleStatusEffect(id, {active})`.
 */
function usesWfrpConditions(actor) {
  return (
    game.system?.id === "wfrp4e" &&
    typeof actor.addCondition === "function" &&
    typeof actor.removeCondition === "function" &&
    typeof actor.hasCondition === "function"
  );
}

/** Whether the actor shows the status now. */
export function hasStatus(actor, statusId) {
  if (!actor) return false;
  if (usesWfrpConditions(actor)) return Boolean(actor.hasCondition(statusId));
  return Boolean(actor.statuses?.has(statusId));
}

/** Makes the actor show (or stop showing) the status; does nothing when it already does. */
export async function setStatus(actor, statusId, active) {
  if (!actor || hasStatus(actor, statusId) === active) return false;
  if (usesWfrpConditions(actor)) {
    if (active) await actor.addCondition(statusId);
    else await actor.removeCondition(statusId);
  } else {
    await actor.toggleStatusEffect(statusId, { active });
  }
  return true;
}
