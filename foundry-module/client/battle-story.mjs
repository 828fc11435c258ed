/**
 * What happened in a battle, read from the core's log as the bridge sends it (the view's `log`
 * and its `undone` list): the steps still in force, the last of them, and both sides' strength
 * after each round. Pure: no Foundry globals; the numbers are the core's, never recomputed.
 */

/** Entry types that only set the battle up (no card, no result line). */
export const SETUP_EVENTS = new Set([
  "unit_added",
  "unit_updated",
  "unit_removed",
  "modifiers_set",
  "influence_table_set",
  "hidden_set",
  "renamed",
]);

/**
 * The log entries still in force, each with its index: entries an `undone` event took back and
 * the undo entries themselves are left out.
 *
 * >>> effectiveEntries([{events: [{type: "battle_started"}]}, {events: [{type: "undone", entry: 0}]}])
 * []
 */
export function effectiveEntries(log = [], undone = []) {
  const gone = new Set(undone ?? []);
  for (const entry of log) {
    for (const event of entry?.events ?? []) if (event.type === "undone") gone.add(event.entry);
  }
  return log
    .map((entry, index) => ({ index, entry }))
    .filter(({ index, entry }) => !gone.has(index) && !(entry?.events ?? []).some((e) => e.type === "undone"));
}

/** The first event of an entry that tells what the step did (not a set-up step), or null. */
export function mainEvent(entry) {
  return (entry?.events ?? []).find((e) => !SETUP_EVENTS.has(e.type)) ?? null;
}

/**
 * The last step in force that tells something (a round, a command, the end, an undo...), or
 * null: set-up steps and steps an undo took back are passed over; an undo itself is a step.
 */
export function lastStep(view) {
  const log = view?.log ?? [];
  const gone = new Set(view?.undone ?? []);
  for (const entry of log) {
    for (const event of entry?.events ?? []) if (event.type === "undone") gone.add(event.entry);
  }
  for (let index = log.length - 1; index >= 0; index--) {
    if (gone.has(index)) continue;
    const event = mainEvent(log[index]);
    if (event) return { index, event, entry: log[index] };
  }
  return null;
}

/**
 * Both sides' strength at the start and after every round (and every strength set by hand),
 * in order: [{round, allies, enemies}]. A hidden number stays null.
 */
export function strengthHistory(view) {
  const points = [];
  let round = 0;
  let now = null;
  for (const { entry } of effectiveEntries(view?.log, view?.undone)) {
    for (const event of entry?.events ?? []) {
      if (event.type === "battle_started") {
        now = { ...event.initial };
        points.push({ round: 0, ...now });
      } else if (event.type === "round_resolved" && event.strength) {
        round = event.round ?? round + 1;
        now = { ...event.strength };
        points.push({ round, ...now });
      } else if (event.type === "strength_set" && now) {
        now = { ...now, [event.side]: event.strength };
        points.push({ round, ...now });
      }
    }
  }
  return points;
}

/** The strength of a side before a round: after it, plus what it lost (null when hidden). */
export function strengthBefore(event, side) {
  const after = event.strength?.[side];
  const lost = event.lost?.[side];
  return after === null || after === undefined || lost === null || lost === undefined ? null : after + lost;
}

/** The leader bonus that went into a side's test in a round: target − strength before. */
export function bonusUsed(event, side) {
  const before = strengthBefore(event, side);
  const target = event.targets?.[side];
  if (before === null || target === null || target === undefined) return null;
  return target - before;
}
