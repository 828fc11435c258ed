/**
 * An Influence band's effects (the core's data, read for the side that rolled: each effect
 * names `side`, "allies", "enemies" or null for any combatant) turned into the steps that apply
 * them to the combatants of the PCs' fight, and the steps that take them back. Pure: the world
 * is passed in as plain values; fight-apply.mjs makes the system's calls.
 *
 * A combatant is on the PCs' side when its actor is player-owned or its token is FRIENDLY
 * (CONST.TOKEN_DISPOSITIONS.FRIENDLY = 1), on their foes' side when its token is HOSTILE (-1);
 * NEUTRAL and SECRET tokens are on neither side. WFRP4e's own `advantageGroup` reads it the
 * same way (moo-man/WFRP4e-FoundryVTT src/documents/actor.js: "players" when owned by a player
 * or FRIENDLY, else "enemies").
 *
 * @example
 * sideOf({ playerOwned: false, disposition: -1 }) // "enemies"
 */

export const FRIENDLY = 1;
export const HOSTILE = -1;

/**
 * Effects as a table writes them (`who`: rolling, other, any) read for a roll by `side`, as the
 * core reads its own band (each gets `side`: allies, enemies, or null for any).
 *
 * @example
 * readEffects([{ kind: "advantage", who: "other", gain: 1 }], "enemies")[0].side // "allies"
 */
export function readEffects(effects, side) {
  const other = side === "allies" ? "enemies" : "allies";
  return effects.map((e) => ({ ...e, side: e.who === "any" ? null : e.who === "rolling" ? side : other }));
}

/** The side of a combatant ({playerOwned, disposition}), or null (neutral, secret). */
export function sideOf({ playerOwned, disposition }) {
  if (playerOwned || disposition === FRIENDLY) return "allies";
  if (disposition === HOSTILE) return "enemies";
  return null;
}

/** The combatants by side: {allies: [...], enemies: [...]} (each list in the combat's order). */
export function combatSides(combatants) {
  const sides = { allies: [], enemies: [] };
  for (const combatant of combatants) {
    const side = sideOf(combatant);
    if (side) sides[side].push(combatant);
  }
  return sides;
}

/** The combatants an effect touches: those of its side, or of both for `side: null`. */
export function poolOf(effect, sides) {
  return effect.side ? sides[effect.side] : [...sides.allies, ...sides.enemies];
}

/**
 * A combatant's Advantage after an effect: gains add (the system caps them), losses stop at 0,
 * "all" is 0.
 *
 * @example
 * advantageAfter(3, { gain: 1 }) // 4
 * advantageAfter(1, { lose: 2 }) // 0
 */
export function advantageAfter(current, effect) {
  const now = Number(current) || 0;
  if (effect.gain !== undefined) return now + effect.gain;
  if (effect.lose === "all") return 0;
  return Math.max(0, now - effect.lose);
}

/** The WFRP4e Advantage group of a side ("players" or "enemies", actor.js advantageGroup). */
export function advantageGroup(side) {
  return side === "allies" ? "players" : "enemies";
}

/**
 * The steps for a band's effects on the combatants `sides` (see combatSides; each combatant
 * {id, name, ...}), `round`: the combat's round now; `groupAdvantage`: the system's Group
 * Advantage setting is on (one step per group, not per combatant). A step is one of:
 *   {op: "advantage", ids, effect}                  each combatant's Advantage
 *   {op: "group_advantage", group, ids, effect}     the group's Advantage (through one of ids)
 *   {op: "damage", pool, pick: "random"|"gm_choice", dice}
 *   {op: "test", ids, effect}                       a test each, the condition on failure
 *   {op: "condition", ids, condition}
 *   {op: "modifier", side, ids, amount, rounds, until}  tests modified until round `until`
 *   {op: "reinforcements", side, fighters, due}     fighters join on round `due`
 *   {op: "nobody", effect}                          the side has no combatant: nothing to do
 *
 * @example
 * planEffects([{ kind: "advantage", who: "rolling", gain: 1, side: "allies" }],
 *   { allies: [{ id: "a" }], enemies: [] }, { round: 1 })
 * // [{ op: "advantage", ids: ["a"], effect: {...} }]
 */
export function planEffects(effects, sides, { round = 0, groupAdvantage = false } = {}) {
  const steps = [];
  for (const effect of effects ?? []) {
    const ids = poolOf(effect, sides).map((c) => c.id);
    const kind = effect.kind;
    if (kind === "test_modifier") {
      const until = round + effect.rounds - 1;
      steps.push({ op: "modifier", side: effect.side, ids, amount: effect.amount, rounds: effect.rounds, until });
    } else if (kind === "reinforcements") {
      steps.push({ op: "reinforcements", side: effect.side, fighters: effect.fighters, due: round + effect.in_rounds });
    } else if (!ids.length) steps.push({ op: "nobody", effect });
    else if (kind === "advantage" && groupAdvantage) {
      steps.push({ op: "group_advantage", group: advantageGroup(effect.side), ids, effect });
    } else if (kind === "advantage") steps.push({ op: "advantage", ids, effect });
    else if (kind === "damage") steps.push({ op: "damage", pool: ids, pick: effect.target, dice: effect.dice });
    else if (kind === "test") steps.push({ op: "test", ids, effect });
    else if (kind === "condition") steps.push({ op: "condition", ids, condition: effect.condition });
    else steps.push({ op: "unknown", effect });
  }
  return steps;
}

/**
 * The combatant a visible roll of 1d(pool size) picks (1: the first).
 *
 * @example
 * pickByRoll(["a", "b", "c"], 2) // "b"
 */
export function pickByRoll(pool, roll) {
  if (!Number.isInteger(roll) || roll < 1 || roll > pool.length)
    throw new RangeError(`no combatant ${roll} of ${pool.length}`);
  return pool[roll - 1];
}

/**
 * An actor as Undo must bring it back: {advantage, wounds, conditions: [[id, value], ...]}.
 * `restoreSteps(before, now)`: what to change to go from `now` back to `before` (conditions
 * first lost, then the rest; a system side effect — losing unconscious adds fatigued — is
 * caught by comparing again after the changes, see fight-apply.mjs).
 *
 * @example
 * restoreSteps({ advantage: 1, wounds: 12, conditions: [] },
 *   { advantage: 2, wounds: 5, conditions: [["prone", 1]] })
 * // [{call: "condition", id: "prone", from: 1, to: 0}, {call: "wounds", value: 12}, {call: "advantage", value: 1}]
 */
export function restoreSteps(before, now) {
  const steps = [];
  const had = new Map(before.conditions ?? []);
  const has = new Map(now.conditions ?? []);
  for (const id of [...new Set([...has.keys(), ...had.keys()])].sort()) {
    const from = has.get(id) ?? 0;
    const to = had.get(id) ?? 0;
    if (from !== to) steps.push({ call: "condition", id, from, to });
  }
  if (before.wounds !== undefined && before.wounds !== now.wounds) steps.push({ call: "wounds", value: before.wounds });
  if (before.advantage !== undefined && before.advantage !== now.advantage) {
    steps.push({ call: "advantage", value: before.advantage });
  }
  return steps;
}

/**
 * The reinforcements due on a round, from the announcements an Influence card scheduled
 * (each {due, side, fighters, combat}); each is told once, on its round of its combat.
 *
 * @example
 * dueOn([{ combat: "c1", due: 3, side: "enemies", fighters: 1 }], "c1", 3).length // 1
 */
export function dueOn(scheduled, combat, round) {
  return (scheduled ?? []).filter((item) => item.combat === combat && item.due === round);
}

/**
 * What a step says for the card (a key of lang's Fight.* and its data), for the GM's list of
 * what was done or is to be done by hand.
 */
export function stepWords(step, names = (id) => id) {
  const who = (ids) => ids.map(names).join(", ");
  switch (step.op) {
    case "advantage":
    case "group_advantage": {
      const e = step.effect;
      const key = e.gain !== undefined ? "Gain" : e.lose === "all" ? "LoseAll" : "Lose";
      return { key: `Fight.Advantage${key}`, data: { who: who(step.ids), n: e.gain ?? e.lose } };
    }
    case "damage":
      return {
        key: step.pick === "random" ? "Fight.DamageRandom" : "Fight.DamageChoice",
        data: { dice: step.dice, who: who(step.pool) },
      };
    case "test":
      return {
        key: "Fight.Test",
        data: {
          who: who(step.ids),
          test: step.effect.skill ?? step.effect.characteristic,
          difficulty: step.effect.difficulty,
          condition: step.effect.on_failure,
        },
      };
    case "condition":
      return { key: "Fight.Condition", data: { who: who(step.ids), condition: step.condition } };
    case "modifier":
      return { key: "Fight.Modifier", data: { side: step.side, amount: step.amount, until: step.until } };
    case "reinforcements":
      return { key: "Fight.Reinforcements", data: { side: step.side, fighters: step.fighters, due: step.due } };
    default:
      return { key: "Fight.Nobody", data: { kind: step.effect?.kind ?? "?" } };
  }
}
