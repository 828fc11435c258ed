/**
 * Which token of a unit gets which fate. Pure: never touches Foundry globals.
 *
 * The core decides how many fighters of a unit are killed, wounded and fit; this file only
 * decides which tokens show it. A token is described by a plain object:
 *
 *   {id, name, fighters, actor, dead, unconscious, conditions, applied}
 *
 * `fighters` is 1 for a token that is one fighter, N for a token standing for N fighters
 * ("group token"). `actor` names the actor whose conditions the token shows: tokens linked to one
 * actor share its conditions, so they are taken together as one holder of their fighters, like
 * a group token (absent: the token has an actor of its own). `dead` and `unconscious` are what
 * the actor shows now; `conditions` every condition it has now, as [[id, value], ...] (a value is
 * a numbered condition's count, else 1). `applied` is the record the module left by an earlier
 * Apply (or null): {battle, unit, fate, shared, before: {name, conditions}, after, plan?}. `plan`
 * is the id of the Apply's journal (chooseFates) that wrote it. `after` is
 * the actor's conditions right after the last Apply (null while that Apply is being carried
 * out). Condition lists are arrays, and a record always has the same keys, so that Foundry's
 * merging update replaces them whole. A token's flags reach every player's Foundry, so the
 * record holds nothing a player cannot see on the token itself: no casualty result, no head
 * count (the bridge keeps those for the GMs; records of earlier versions held them as `result`
 * and `counts`, see legacyRecordUpdate).
 *
 * An Apply is a journal fixed first (chooseFates: which holder gets which fate), then the writes
 * that carry it out (planWrites: the condition changes, one per holder, and the token document
 * updates, one batch); run again on half-written tokens it writes only what is not done
 * (*Finish*). Apply only adds fates: a condition it did not set is never taken off. Applying the
 * same result twice gives an empty plan; undo restores `before` for every condition the Apply
 * changed (logic/restore.mjs), whether the Apply was finished or cut short.
 */

import { legacyUnset } from "./unset.mjs";

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

/** The system's ids of the module's two fates' conditions ("dead" is the defeated status). */
export const STATUS_IDS = Object.freeze({ dead: "dead", unconscious: "unconscious" });

/**
 * Whether a token shows `status` ("dead" or "unconscious") because an earlier Apply of the same
 * unit set it: its record says the token did not show it before. Only such a condition may be
 * taken off by Apply; one set by another hand (the GM's kill in the PCs' fight) is left as it is.
 *
 * @example
 * ownStatus({dead: true, applied: {battle: "b", unit: "u", before: {conditions: []}}}, "dead", {battle: "b", unit: "u"}) // true
 */
export function ownStatus(token, status, target, ids = STATUS_IDS) {
  const record = token.applied;
  if (!token[status] || !target || !record || record.battle !== target.battle || record.unit !== target.unit) {
    return false;
  }
  const before = record.before ?? {};
  if (!Array.isArray(before.conditions)) return !before[status];
  return !before.conditions.some(([id]) => id === ids[status]);
}

/**
 * The holders of fates: a token with an actor of its own, or all the tokens that share one
 * actor (their fighters added up). A holder's id is its first token's; link order is kept.
 * `target` ({battle, unit}, optional): a condition an Apply of it set is the holder's `own`.
 */
export function holdersOf(tokens, target = null, ids = STATUS_IDS) {
  const byActor = new Map();
  for (const token of tokens) {
    const key = token.actor ?? `token:${token.id}`;
    if (!byActor.has(key)) byActor.set(key, []);
    byActor.get(key).push(token);
  }
  return [...byActor.values()].map((members) => ({
    id: members[0].id,
    tokens: members,
    fighters: members.reduce((sum, t) => sum + fightersOf(t), 0),
    dead: Boolean(members[0].dead),
    unconscious: Boolean(members[0].unconscious),
    own: {
      dead: ownStatus(members[0], "dead", target, ids),
      unconscious: ownStatus(members[0], "unconscious", target, ids),
    },
  }));
}

/** A fate a holder shows by another hand than this unit's Apply: it keeps it (null: none). */
function heldFate(holder) {
  if (holder.dead && !holder.own.dead) return "killed";
  if (holder.unconscious && !holder.own.unconscious) return "wounded";
  return null;
}

/**
 * Decides the fate of every holder (see holdersOf) for a casualty result.
 *
 * A single fighter already dead or unconscious by another hand than this unit's Apply (the GM's
 * own choice of who fell) is counted first for that fate and left as it is, even beyond the
 * result (`already` names them, `beyond` counts those past the result). The other single
 * fighters then take the dead, then the wounded, those an earlier Apply of the unit marked
 * first, so a second Apply changes nothing. What single fighters cannot hold goes to group
 * holders (a token standing for many, or the tokens of one shared actor) as counts; what no
 * token can hold is returned as `unplaced`.
 *
 * @example
 * assignFates([{id: "a"}, {id: "b", dead: true}], {killed: 1, wounded: 1, fit: 0})
 * // {singles: {b: "killed", a: "wounded"}, groups: {}, unplaced: {killed: 0, wounded: 0, fit: 0},
 * //  already: {killed: ["b"], wounded: []}, beyond: {killed: 0, wounded: 0}, holders: [...]}
 */
export function assignFates(tokens, result, target = null, ids = STATUS_IDS) {
  const left = checkResult(result);
  const holders = holdersOf(tokens, target, ids);
  const singles = holders.filter((h) => h.fighters === 1);
  const groups = holders.filter((h) => h.fighters > 1);
  const fates = {};
  const already = { killed: [], wounded: [] };
  const beyond = { killed: 0, wounded: 0 };

  for (const fate of ["killed", "wounded"]) {
    for (const h of singles.filter((s) => !(s.id in fates) && heldFate(s) === fate)) {
      fates[h.id] = fate;
      already[fate].push(h.id);
    }
    beyond[fate] = Math.max(0, already[fate].length - left[fate]);
    left[fate] = Math.max(0, left[fate] - already[fate].length);
  }

  let free = singles.filter((t) => !(t.id in fates));
  const killed = rankBy(free, (t) => (t.dead ? 0 : t.unconscious ? 2 : 1)).slice(0, left.killed);
  for (const t of killed) fates[t.id] = "killed";
  left.killed -= killed.length;
  free = free.filter((t) => !(t.id in fates));

  const wounded = rankBy(free, (t) => (t.unconscious ? 0 : t.dead ? 2 : 1)).slice(0, left.wounded);
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
    let room = g.fighters;
    const c = { fighters: room, killed: 0, wounded: 0, fit: 0 };
    for (const fate of FATES) {
      const n = Math.min(room, left[fate]);
      c[fate] = n;
      left[fate] -= n;
      room -= n;
    }
    // A group with more heads than the result names keeps the rest fit.
    c.fit += room;
    counts[g.id] = c;
  }
  return { singles: fates, groups: counts, unplaced: left, already, beyond, holders };
}

function sameJson(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A token's conditions now, as [[id, value], ...] (from dead/unconscious when not given). */
export function conditionsNow(token) {
  if (Array.isArray(token.conditions)) return token.conditions;
  const list = [];
  if (token.dead) list.push(["dead", 1]);
  if (token.unconscious) list.push(["unconscious", 1]);
  return list;
}

/**
 * The journal of an Apply: which token gets which fate, fixed before anything is written (the
 * bridge keeps it until the Apply is finished or undone). `plan` is its id, carried by every
 * token record it writes. {plan, tokens: [every token id], fates: {holder id: fate},
 * groups: {holder id: counts}, already, beyond, unplaced}.
 *
 * @example
 * chooseFates([{id: "a"}], {killed: 1, wounded: 0, fit: 0}, {battle: "b", unit: "u", plan: "p1"}).fates // {a: "killed"}
 */
export function chooseFates(tokens, result, target, ids = STATUS_IDS) {
  const { singles, groups, unplaced, already, beyond } = assignFates(tokens, result, target, ids);
  return {
    plan: target.plan ?? null,
    tokens: tokens.map((t) => t.id),
    fates: singles,
    groups,
    already,
    beyond,
    unplaced,
  };
}

/** Whether a token's record says the journal's plan is carried out on it (`after` written). */
export function doneBy(token, journal) {
  return Boolean(journal.plan) && token.applied?.plan === journal.plan && Array.isArray(token.applied.after);
}

/**
 * The writes that carry out a journal (chooseFates) on the tokens as they are now: condition
 * changes (one per holder: `id` its first token, `tokens` all of them) and one batch of token
 * updates. A token the journal does not name, or one it is already carried out on, is left
 * alone, so that running a journal again (*Finish*) changes only what is not done yet.
 * A condition is only taken off when an Apply of the same unit set it; any other is `kept`.
 *
 * `target` is {battle, unit}; `flagScope` the module id (token flags live under it);
 * `groupName(baseName, counts)` formats a group token's name (wording stays in the shell);
 * `statusIds` the system's ids of the two fates' conditions.
 */
export function planWrites(tokens, journal, target, { flagScope, groupName, statusIds = STATUS_IDS }) {
  const conditions = [];
  const updates = [];
  const kept = [];
  const summary = { killed: [], wounded: [], fit: [], groups: [] };

  for (const holder of holdersOf(tokens, target, statusIds)) {
    const fate = journal.fates[holder.id] ?? null;
    const counts = fate ? null : (journal.groups[holder.id] ?? null);
    if (!fate && !counts) continue;
    const ids = holder.tokens.map((t) => t.id);
    if (fate) summary[fate].push(holder.id);
    else summary.groups.push({ id: holder.id, ...counts, ...(ids.length > 1 ? { tokens: ids } : {}) });
    const todo = holder.tokens.filter((t) => !doneBy(t, journal));
    if (!todo.length) continue;

    const want = fate ? conditionsFor(fate) : groupConditions(counts);
    const changes = [];
    for (const status of ["dead", "unconscious"]) {
      if (holder[status] === want[status]) continue;
      if (want[status] || holder.own[status])
        changes.push({ id: holder.id, tokens: ids, status, active: want[status] });
      else kept.push({ id: holder.id, status });
    }
    conditions.push(...changes);

    for (const token of todo) {
      const own = token.applied?.battle === target.battle && token.applied?.unit === target.unit;
      const before = (own ? token.applied.before : null) ?? { name: token.name, conditions: conditionsNow(token) };
      // Right after this Apply: unknown until it is carried out when conditions change.
      const after = changes.length ? null : ((own ? token.applied.after : null) ?? conditionsNow(token));
      const shared = ids.length > 1 ? ids : null;
      const record = { battle: target.battle, unit: target.unit, fate, shared, before, after };
      if (journal.plan) record.plan = journal.plan;
      const name = fate ? before.name : groupName(before.name, counts);
      const update = {};
      if (name !== token.name) update.name = name;
      if (!sameJson(token.applied ?? null, record)) update[`flags.${flagScope}.applied`] = record;
      if (Object.keys(update).length) updates.push({ _id: token.id, ...update });
    }
  }
  return {
    conditions,
    updates,
    summary,
    kept,
    already: journal.already ?? { killed: [], wounded: [] },
    beyond: journal.beyond ?? { killed: 0, wounded: 0 },
    unplaced: journal.unplaced,
  };
}

/**
 * The plan for "Apply": the journal (chooseFates) and the writes that carry it out
 * (planWrites), as one value: {journal, conditions, updates, summary, kept, already, beyond,
 * unplaced}. `target` is {battle, unit, plan?}.
 */
export function planApply(tokens, result, target, options) {
  const journal = chooseFates(tokens, checkResult(result), target, options.statusIds);
  return { journal, ...planWrites(tokens, journal, target, options) };
}

/**
 * The plan for "Undo apply": every token of the target that carries an Apply record goes back
 * to the name it had before and loses the record; each holder's actor gets a restore
 * {id, tokens, before, after} (logic/restore.mjs), once per actor.
 */
export function planUndo(tokens, target, { flagScope, unset = legacyUnset }) {
  const restores = [];
  const updates = [];
  const restored = [];
  for (const holder of holdersOf(tokens)) {
    const mine = holder.tokens.filter(
      (t) => t.applied && t.applied.battle === target.battle && t.applied.unit === target.unit,
    );
    if (!mine.length) continue;
    const record = mine[0].applied;
    const now = conditionsNow(mine[0]);
    const legacy = !Array.isArray(record.before.conditions);
    restores.push({
      id: mine[0].id,
      tokens: mine.map((t) => t.id),
      before: legacy ? legacyBefore(record.before, now) : record.before.conditions,
      after: legacy ? now : (record.after ?? null),
    });
    for (const token of mine) {
      const update = { _id: token.id, ...unset(`flags.${flagScope}.applied`) };
      const name = token.applied.before.name;
      if (name !== undefined && name !== token.name) update.name = name;
      updates.push(update);
      restored.push(token.id);
    }
  }
  return { conditions: [], restores, updates, restored };
}

/** What an Apply record of an earlier version held that a player may not see. */
export const HIDDEN_RECORD_KEYS = Object.freeze(["result", "counts"]);

/**
 * The token update that takes the hidden numbers out of an Apply record written by an earlier
 * version (an unset of each: `unset`, logic/unset.mjs), or null when the record holds none.
 *
 * @example
 * legacyRecordUpdate({id: "t", applied: {unit: "u", result: {killed: 3}}}, "bb")
 * // {_id: "t", "flags.bb.applied.-=result": null}
 */
export function legacyRecordUpdate(token, flagScope, unset = legacyUnset) {
  const keys = HIDDEN_RECORD_KEYS.filter((key) => token.applied && key in token.applied);
  if (!keys.length) return null;
  return Object.assign({ _id: token.id }, ...keys.map((key) => unset(`flags.${flagScope}.applied.${key}`)));
}

/** A record written before condition lists were kept ({dead, unconscious, name}) speaks of
 * those two only: every other condition is taken as it is now. */
function legacyBefore(before, now) {
  const others = now.filter(([id]) => id !== "dead" && id !== "unconscious");
  return [...others, ...conditionsNow({ dead: before.dead, unconscious: before.unconscious })];
}

/**
 * How far a journal is carried out on the tokens: {done, total} (tokens it names; done: their
 * record carries the journal's id and what they showed after it).
 */
export function planProgress(tokens, journal) {
  const named = new Set(journal.tokens);
  const done = tokens.filter((t) => named.has(t.id) && doneBy(t, journal)).length;
  return { done, total: named.size };
}

/** True when a plan changes nothing. */
export function isEmptyPlan(plan) {
  return !plan.conditions.length && !plan.updates.length && !(plan.restores ?? []).length;
}
