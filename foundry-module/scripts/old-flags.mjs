/**
 * Worlds of earlier versions kept on tokens what a player may not see: the head count a token
 * stands for (flag `fighters`), the battle's name in the unit mark (`unit.battle`: a battle the GM
 * prepares is not the players' to know of) and, in each Apply record, the unit's casualty result
 * and a group token's counts (`result`, `counts`). Every player's Foundry receives a token's flags, so the
 * active GM's browser moves them once per battle it watches: the head counts to the bridge
 * (GM-only: `tokens` with `fighters`), then the flags go (unset as the Foundry generation does it: generation.mjs). The bridge's `applied`
 * report already holds the casualties, so an old record only loses its numbers.
 */
import { FLAGS, ID, MAX_HEAD_COUNT } from "./constants.mjs";
import { legacyRecordUpdate } from "./logic/fates.mjs";
import { headCounts, oldHeadCounts } from "./logic/head-counts.mjs";
import { describeTokens, removeOldBattles, removeOldHeadCounts, resolveTokens, writeTokenUpdates } from "./tokens.mjs";
import { log } from "./log.mjs";
import { unset } from "./generation.mjs";

/** Moves the old flags of the tokens of `battle` (its units' lists and its Apply reports);
 * `connections`: this browser's bridge client, read live (wiring.mjs). */
export async function moveOldFlags(connections, battle) {
  const foundryData = connections.client?.states.get(battle)?.foundry;
  if (!foundryData) return;
  for (const [unit, ids] of Object.entries(foundryData.tokens ?? {})) {
    await moveHeadCounts(connections, battle, unit, ids, foundryData.fighters?.[unit]);
  }
  const reported = Object.values(foundryData.applied ?? {}).flatMap((report) =>
    Object.values(report.token_ids ?? {}).flat(),
  );
  const { docs } = resolveTokens([...new Set([...Object.values(foundryData.tokens ?? {}).flat(), ...reported])]);
  const marks = await removeOldBattles(docs);
  if (marks) log.info(`${battle}: the battle's name taken out of ${marks} unit marks`);
  const updates = describeTokens(docs)
    .map((token) => legacyRecordUpdate(token, ID, unset))
    .filter(Boolean);
  if (updates.length) {
    await writeTokenUpdates(updates, docs);
    log.info(`${battle}: casualty numbers taken off ${updates.length} Apply records`);
  }
}

/** One unit's old head counts: to the bridge first; the flags go once it has stored them. */
async function moveHeadCounts(connections, battle, unit, ids, known) {
  const { docs } = resolveTokens(ids);
  const old = docs.filter((doc) => doc.getFlag(ID, FLAGS.FIGHTERS) !== undefined);
  if (!old.length) return;
  const found = oldHeadCounts(
    old.map((doc) => [doc.uuid, doc.getFlag(ID, FLAGS.FIGHTERS)]),
    MAX_HEAD_COUNT,
  );
  // What the bridge already has wins over an old flag.
  const fighters = { ...headCounts(found, ids), ...(known ?? {}) };
  try {
    await connections.client.request("tokens", { battle, unit, token_ids: ids, fighters });
  } catch (error) {
    log.warn(`${battle}/${unit}: head counts not moved to the bridge (kept on the tokens for now)`, error);
    return;
  }
  await removeOldHeadCounts(old);
  log.info(`${battle}/${unit}: head counts of ${old.length} tokens moved to the bridge`);
}
