/**
 * Tokens moved into the PCs' fight. Pure: never touches Foundry globals.
 *
 * The bridge keeps each move with the version of its `detach_fighters` step
 * (`state.foundry.detached`); a move counts while that step does. When the GM undoes the step,
 * the battle's view lists its entry in `undone` at once, before the bridge's next `state`.
 */

/**
 * The moves that still count: those whose step (entry `version - 1`) the view has not undone.
 *
 * @example
 * liveMoves([{version: 4, token_ids: ["t2"]}], {undone: [3]}) // []
 */
export function liveMoves(moves, view) {
  const undone = new Set(view?.undone ?? []);
  return (moves ?? []).filter((move) => !undone.has(move.version - 1));
}

/**
 * What the GM's selection moves into the PCs' fight: whole tokens of the unit (one fighter
 * each, or a token standing for many taken whole) and, with a head count typed, heads off the
 * one selected token standing for many (a unit that is one such token needs no selection).
 * `selected`: token UUIDs; `unit`: the unit's tokens
 * still in the battle; `heads`: their head counts ({uuid: n}, absent: 1); `count`: the typed
 * number or null. Returns {token_ids, fighters, total} or {reason} when it cannot.
 *
 * @example
 * pickMoved(["t2", "t3"], ["t1", "t2", "t3"], {}, null) // {token_ids: ["t2", "t3"], fighters: {}, total: 2}
 */
export function pickMoved(selected, unit, heads, count) {
  let mine = unit.filter((uuid) => selected.includes(uuid));
  // A unit that is one token standing for many: its heads, without selecting it.
  if (!mine.length && unit.length === 1 && (heads[unit[0]] ?? 1) > 1 && count !== null) mine = unit;
  if (!mine.length) return { reason: "none_selected" };
  const crowds = mine.filter((uuid) => (heads[uuid] ?? 1) > 1);
  if (count !== null && crowds.length === 1 && mine.length === 1) {
    const has = heads[crowds[0]];
    if (count >= has) return { token_ids: [crowds[0]], fighters: {}, total: has };
    return { token_ids: [], fighters: { [crowds[0]]: count }, total: count };
  }
  const total = mine.reduce((sum, uuid) => sum + (heads[uuid] ?? 1), 0);
  if (count !== null && count !== total) return { reason: "count_differs", total };
  return { token_ids: mine, fighters: {}, total };
}
