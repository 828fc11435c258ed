/**
 * Which token of a unit gets which fate. Pure: never touches Foundry globals.
 *
 * The core decides how many fighters of a unit are killed, wounded and fit; this file only
 * decides which tokens show it. A token is described by a plain object:
 *
 *   {id, name, fighters, dead, unconscious, applied}
 *
 * `fighters` is 1 for a token that is one fighter, N for a token standing for N fighters
 * ("group token"); `dead` and `unconscious` are its current conditions; `applied` is the record
 * the module left on it by an earlier Apply (or null): {battle, unit, result, fate, counts,
 * before: {dead, unconscious, name}}. A record always has the same keys (fate or counts is
 * null), so that Foundry's merging update replaces it whole.
 *
 * A plan lists the condition changes (per token, per status) and the token document updates
 * (one batch). Applying the same result twice gives an empty plan; undo restores `before`.
 */

export const FATES = Object.freeze(["killed", "wounded", "fit"]);

/** Checks a casualty result {killed, wounded, fit}; returns the cleaned result or throws. */
export function checkResult(result) {
  if (result === null || typeof result !== "object") {
    throw new RangeError("casualties: expected an object {killed, wounded, fit}");
  }
  const clean = {};
  for (const fate of FATES) {
    const value = result[fate];
    if (!Number.isInteger(value) || value < 0) {
      throw new RangeError(`casualties.${fate}: expected a whole number >= 0, got ${value}`);
    }
    clean[fate] = value;
  }
  return clean;
}

function fightersOf(token) {
  const n = token.fighters ?? 1;
  return Number.isInteger(n) && n > 1 ? n : 1;
}

/** What a token shows for a fate: single tokens only. */
function conditionsFor(fate) {
  return { dead: fate === "killed", unconscious: fate === "wounded" };
}

/** What a group token shows for its counts: dead when all are killed, down when none is fit. */
export function groupConditions(counts) {
  if (counts.fit > 0) return { dead: false, unconscious: false };
  if (counts.wounded > 0) return { dead: false, unconscious: true };
  return { dead: counts.killed > 0, unconscious: false };
}

/** Stable sort of tokens by a rank function, the link order breaking ties. */
function rankBy(tokens, rank) {
  return tokens
    .map((token, index) => ({ token, index }))
    .sort((a, b) => rank(a.token) - rank(b.token) || a.index - b.index)
    .map((entry) => entry.token);
}

/**
 * Decides the fate of every token for a casualty result.
 *
 * Single tokens take the dead first, then the wounded; tokens already showing a fate are chosen
 * for it first, so a second Apply (or a GM's own choice of who fell) changes nothing.
 * What single tokens cannot hold goes to group tokens as counts; what no token can hold is
 * returned as `unplaced`.
 *
 * @example
 * assignFates([{id: "a"}, {id: "b", dead: true}], {killed: 1, wounded: 1, fit: 0})
 * // {singles: {b: "killed", a: "wounded"}, groups: {}, unplaced: {killed: 0, wounded: 0, fit: 0}}
 */
export function assignFates(tokens, result) {
  const left = checkResult(result);
  const singles = tokens.filter((t) => fightersOf(t) === 1);
  const groups = tokens.filter((t) => fightersOf(t) > 1);
  const fates = {};

  let free = singles;
  const killed = rankBy(free, (t) => (t.dead ? 0 : t.unconscious ? 1 : 2)).slice(0, left.killed);
  for (const t of killed) fates[t.id] = "killed";
  left.killed -= killed.length;
  free = free.filter((t) => !(t.id in fates));

  const wounded = rankBy(free, (t) => (t.unconscious ? 0 : t.dead ? 2 : 1)).slice(
    0,
    left.wounded,
  );
  for (const t of wounded) fates[t.id] = "wounded";
  left.wounded -= wounded.length;
  free = free.filter((t) => !(t.id in fates));

  const fit = free.slice(0, left.fit);
  for (const t of fit) fates[t.id] = "fit";
  left.fit -= fit.length;
  // Single tokens beyond the result's head count (more tokens than fighters) stand: fit.
  for (const t of free) if (!(t.id in fates)) fates[t.id] = "fit";

  const counts = {};
  for (const g of groups) {
    let room = fightersOf(g);
    const c = { fighters: room, killed: 0, wounded: 0, fit: 0 };
    for (const fate of FATES) {
      const n = Math.min(room, left[fate]);
      c[fate] = n;
      left[fate] -= n;
      room -= n;
    }
    // A group token with more heads than the result names keeps the rest fit.
    c.fit += room;
    counts[g.id] = c;
  }
  return { singles: fates, groups: counts, unplaced: left };
}

function sameJson(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The plan for "Apply": condition changes and one batch of token updates.
 *
 * `target` is {battle, unit}; `flagScope` the module id (token flags live under it);
 * `groupName(baseName, counts)` formats a group token's name (wording stays in the shell).
 */
export function planApply(tokens, result, target, { flagScope, groupName }) {
  const clean = checkResult(result);
  const { singles, groups, unplaced } = assignFates(tokens, clean);
  const conditions = [];
  const updates = [];
  const summary = { killed: [], wounded: [], fit: [], groups: [] };

  for (const token of tokens) {
    const before = token.applied?.before ?? {
      dead: Boolean(token.dead),
      unconscious: Boolean(token.unconscious),
      name: token.name,
    };
    let want;
    let record;
    let name = before.name;
    if (token.id in singles) {
      const fate = singles[token.id];
      want = conditionsFor(fate);
      record = { battle: target.battle, unit: target.unit, result: clean, fate, counts: null, before };
      summary[fate].push(token.id);
    } else {
      const counts = groups[token.id];
      want = groupConditions(counts);
      name = groupName(before.name, counts);
      record = { battle: target.battle, unit: target.unit, result: clean, fate: null, counts, before };
      summary.groups.push({ id: token.id, ...counts });
    }
    for (const status of ["dead", "unconscious"]) {
      if (Boolean(token[status]) !== want[status]) {
        conditions.push({ id: token.id, status, active: want[status] });
      }
    }
    const update = {};
    if (name !== token.name) update.name = name;
    if (!sameJson(token.applied ?? null, record)) update[`flags.${flagScope}.applied`] = record;
    if (Object.keys(update).length) updates.push({ _id: token.id, ...update });
  }
  return { conditions, updates, summary, unplaced };
}

/**
 * The plan for "Undo apply": every token of the target that carries an Apply record goes back
 * to the conditions and name it had before, and loses the record.
 */
export function planUndo(tokens, target, { flagScope }) {
  const conditions = [];
  const updates = [];
  const restored = [];
  for (const token of tokens) {
    const record = token.applied;
    if (!record || record.battle !== target.battle || record.unit !== target.unit) continue;
    const before = record.before;
    for (const status of ["dead", "unconscious"]) {
      if (Boolean(token[status]) !== Boolean(before[status])) {
        conditions.push({ id: token.id, status, active: Boolean(before[status]) });
      }
    }
    const update = { _id: token.id, [`flags.${flagScope}.-=applied`]: null };
    if (before.name !== undefined && before.name !== token.name) update.name = before.name;
    updates.push(update);
    restored.push(token.id);
  }
  return { conditions, updates, restored };
}

/** True when a plan changes nothing. */
export function isEmptyPlan(plan) {
  return plan.conditions.length === 0 && plan.updates.length === 0;
}
