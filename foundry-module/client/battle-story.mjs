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

/**
 * The strength of a side before a round: the core's `strength_before` (null when hidden); a
 * round saved before the core wrote it reads after + lost (as it was: right unless the round
 * drove the side to 0, having dealt it more than it had).
 */
export function strengthBefore(event, side) {
  if (event.strength_before) return event.strength_before[side] ?? null;
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

/**
 * A side's SL in a round as the table says it: signed from the test's result (the core's
 * `success`), so a passed SL 0 is "+0" and a failed one "−0"; "?" when the view hides it.
 *
 * @example
 * signedSL({ sl: { allies: 0 }, success: { allies: false } }, "allies") // "−0"
 */
export function signedSL(event, side) {
  return slText(event.sl?.[side], event.success?.[side]);
}

/**
 * An SL with the sign of its test's result: `slText(0, false)` is "−0", `slText(0, true)` "+0",
 * `slText(-2, false)` "−2"; "?" for a hidden SL.
 */
export function slText(sl, success) {
  if (sl === null || sl === undefined) return "?";
  if (sl > 0 || (sl === 0 && success !== false)) return `+${sl}`;
  return `−${-sl}`;
}

/**
 * Why a round went as it did: the core's `decided_by` ("sl", "success", "target", "draw"), or
 * null when the round had no test, or the view hides it, or it was saved before rounds said why.
 */
export function decidedBy(event) {
  return event.mode === "lost" ? null : (event.decided_by ?? null);
}
