/**
 * The background battle keeps the rhythm of the PCs' combat (rules §4.2 b: the winner's
 * Influence every round; during the battle a round per combat round). Pure: what a new combat
 * round plays, and the record that keeps a round from being played twice.
 *
 * A combat round is keyed by the combat's id and its number; the record keeps the keys played
 * per battle (the last KEEP of them: a combat's rounds only go forward, an old key is never
 * met again).
 *
 * @example
 * rhythmOrder({ status: "ended", winner: "enemies" }) // { type: "roll_influence", side: "enemies" }
 */

export const MODES = Object.freeze({ OFF: "off", PROMPT: "prompt", AUTO: "automatic" });
export const KEEP = 50;

/** The key of a combat's round. */
export function roundKey(combat, round) {
  return `${combat}:${round}`;
}

/** What a new combat round plays for the battle shown: a round, the winner's Influence, or null. */
export function rhythmOrder(view) {
  if (view?.status === "fighting") return { type: "resolve_round" };
  if (view?.status === "ended" && (view.winner === "allies" || view.winner === "enemies")) {
    return { type: "roll_influence", side: view.winner };
  }
  return null;
}

/** Whether the record holds the round for the battle. */
export function played(record, battle, key) {
  return Boolean(record?.[battle]?.includes(key));
}

/** The record with the round added for the battle (a new object; the last KEEP keys kept). */
export function withPlayed(record, battle, key) {
  const keys = [...(record?.[battle] ?? []).filter((k) => k !== key), key].slice(-KEEP);
  return { ...(record ?? {}), [battle]: keys };
}

/** Whether a combat update starts a new round worth playing (round 1 and on). */
export function newRound(changed) {
  return Boolean(changed) && Number.isInteger(changed.round) && changed.round >= 1;
}
