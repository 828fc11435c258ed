/**
 * Which chat card each step of a battle gets, read from the log by version (step-cards.mjs posts
 * them). Pure: no Foundry globals.
 *
 * - A step taken while the battle is in set-up (its phase after the step is "setup": adding,
 *   changing or removing units, modifiers, what players see, a name, an undo back into set-up)
 *   is a line on one card of set-up steps, for the GMs only: players are told nothing of a
 *   battle in set-up (docs/protocol.md, "What players are told of").
 * - A small change after the start (what players see, a name, the Influence table, or the undo
 *   of one of these) is a line on one card of changes, edited as more arrive.
 * - Every other step (the start, a round, a leader's command, the end, Influence, an undo) has a
 *   card of its own.
 */
import { SETUP_EVENTS, effectiveEntries } from "../../client/battle-story.mjs";

/**
 * The log entry of `version` (1 = the first) in a held state `{version, view: {log}, logHole}`,
 * or undefined when the state does not hold it. The log ends at the state's version; a log
 * whose older pages did not all come has a hole (`logHole: {from, to}`, entries from + 1 .. to
 * missing).
 *
 * @example
 * entryAt({version: 3, view: {log: [a, b, c]}}, 2) // b
 * entryAt({version: 9, view: {log: [e1, e2, e8, e9]}, logHole: {from: 2, to: 7}}, 8) // e8
 */
export function entryAt(state, version) {
  if (!state || !Number.isInteger(version) || version < 1 || version > state.version) return undefined;
  const log = state.view?.log ?? [];
  const hole = state.logHole;
  if (hole && version <= hole.to) return version <= hole.from ? log[version - 1] : undefined;
  return log[log.length - 1 - (state.version - version)];
}

/**
 * The battle's phase right after the entry of `version`: "setup", "fighting" or "ended" (the
 * entries still in force up to it decide: an undo of the start is back in set-up).
 */
export function phaseAfter(state, version) {
  const log = [];
  for (let v = 1; v <= version; v++) log.push(entryAt(state, v) ?? { events: [] });
  let phase = "setup";
  for (const { entry } of effectiveEntries(log)) {
    for (const event of entry.events ?? []) {
      if (event.type === "battle_started") phase = "fighting";
      else if (event.type === "battle_ended") phase = "ended";
    }
  }
  return phase;
}

/** Whether an entry only changes the set-up (a unit, modifiers, what players see, a name...). */
function smallChange(entry) {
  const events = entry?.events ?? [];
  return events.length > 0 && events.every((event) => SETUP_EVENTS.has(event.type));
}

/**
 * How the step of `version` is carded: "setup" (a line on the GMs' card of set-up steps),
 * "change" (a line on a card of small changes) or "step" (a card of its own).
 */
export function cardKind(state, version) {
  const entry = entryAt(state, version);
  if (phaseAfter(state, version) === "setup") return "setup";
  const undone = (entry?.events ?? []).find((event) => event.type === "undone");
  const target = undone ? entryAt(state, undone.entry + 1) : entry;
  return smallChange(target) ? "change" : "step";
}

/**
 * The version of the last entry that started the battle, or null when the held log has none.
 *
 * @example
 * startVersion({version: 4, view: {log: [added, added, started, renamed]}}) // 3
 */
export function startVersion(state) {
  for (let version = state?.version ?? 0; version >= 1; version--) {
    if ((entryAt(state, version)?.events ?? []).some((event) => event.type === "battle_started")) return version;
  }
  return null;
}

/**
 * A battle's key in the world's record of carded steps: a hash of its name (FNV-1a, 32 bits),
 * not the name itself.
 *
 * @example
 * battleKey("ambush") // "b" followed by 8 hex digits, the same for the same name
 */
export function battleKey(battle) {
  let hash = 0x811c9dc5;
  for (const char of String(battle)) {
    hash ^= char.codePointAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `b${hash.toString(16).padStart(8, "0")}`;
}
