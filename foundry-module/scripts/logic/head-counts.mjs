/**
 * The head counts of a unit's tokens, as the bridge keeps them for the GMs: {token UUID: n} for
 * each token standing for more than one fighter (a token left out is one fighter). Pure: never
 * touches Foundry globals. Token flags reach every player's Foundry, so no head count is kept
 * on a token.
 */

/**
 * The head counts to send with a unit's token list `ids`: the known ones of tokens still
 * listed, and `fighters` for each of `linked` when one token stands for many (a token linked
 * again as one fighter keeps the count it had).
 *
 * @example
 * headCounts({a: 5, gone: 3}, ["a", "b"], ["b"], 12)
 * // {a: 5, b: 12}
 */
export function headCounts(known, ids, linked = [], fighters = 1) {
  const listed = new Set(ids);
  const counts = Object.fromEntries(Object.entries(known ?? {}).filter(([uuid]) => listed.has(uuid)));
  if (Number.isInteger(fighters) && fighters > 1) {
    for (const uuid of linked) if (listed.has(uuid)) counts[uuid] = fighters;
  }
  return counts;
}

/**
 * Head counts an earlier version kept on tokens (flag `fighters`), as the bridge takes them:
 * whole numbers from 2 to `max`; others (1, or a value a hand edit broke) are one fighter.
 *
 * @example
 * oldHeadCounts([["a", 12], ["b", 1], ["c", "x"]], 100000)
 * // {a: 12}
 */
export function oldHeadCounts(pairs, max) {
  return Object.fromEntries(pairs.filter(([, n]) => Number.isInteger(n) && n >= 2 && n <= max));
}
