/**
 * Undo, exactly: which conditions an actor goes back to, and the steps there. Pure: never
 * touches Foundry globals.
 *
 * Conditions are lists [[id, value], ...] (logic/fates.mjs): what an actor had before Apply,
 * right after it, and now. A system's own rules may add conditions while a step is carried out
 * (WFRP4e: losing unconscious brings fatigued); the shell runs the steps again from what the
 * actor shows, towards the same target, until nothing is left to do.
 */

/**
 * What an actor's conditions go back to on Undo. Apply changed the conditions whose value
 * differs between `before` and `after`; each goes back to its value before, unless it changed
 * again since (then it is `kept` as it is). Every other condition stays as it is now. With
 * `after` unknown (an Apply cut short), what differs from before counts as Apply's.
 *
 * @example
 * restoreTarget([["fatigued", 1]], [["fatigued", 1], ["prone", 1], ["unconscious", 1]],
 *               [["fatigued", 1], ["prone", 1], ["unconscious", 1], ["bleeding", 2]])
 * // {target: {fatigued: 1, bleeding: 2}, kept: []}
 */
export function restoreTarget(before, after, now) {
  const was = Object.fromEntries(before);
  const then = Object.fromEntries(after ?? now);
  const current = Object.fromEntries(now);
  const target = { ...current };
  const kept = [];
  for (const id of new Set([...Object.keys(was), ...Object.keys(then)])) {
    if ((was[id] ?? 0) === (then[id] ?? 0)) continue;
    if ((current[id] ?? 0) !== (then[id] ?? 0)) {
      kept.push(id);
      continue;
    }
    if (was[id]) target[id] = was[id];
    else delete target[id];
  }
  return { target, kept };
}

/** The steps from conditions `now` ([[id, value]]) to `target` ({id: value}): {status, from, to}. */
export function stepsTo(now, target) {
  const current = Object.fromEntries(now);
  const steps = [];
  for (const id of new Set([...Object.keys(current), ...Object.keys(target)])) {
    const from = current[id] ?? 0;
    const to = target[id] ?? 0;
    if (from !== to) steps.push({ status: id, from, to });
  }
  return steps;
}
