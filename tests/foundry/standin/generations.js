// What differs between the Foundry generations the stand-in plays (`?generation=13`, the default,
// or `14`), for the calls the module makes. Each difference names its source; docs/foundry.md
// keeps the table ("How close the stand-in is", one column per generation).
//
// - CONFIG.statusEffects: an array of StatusEffectConfig in v13 (api v13
//   `variables/CONFIG.statusEffects.html`), an object keyed by id in v14 (api v14, same page).
//   A system may assign its own list: WFRP4e assigns its array on ready in both
//   (moo-man/WFRP4e-FoundryVTT src/hooks/ready.js).
// - Unsetting a key: v13 has the special key `-=key` (api v13 `foundry.utils.isDeletionKey`)
//   and no `foundry.data.operators`; v14 has `foundry.data.operators.ForcedDeletion` (api v14
//   `modules/foundry.data.operators.html`), whose value removes the key, and still removes a
//   "-=" key but logs a deprecation warning for its legacy syntax (api `functions/
//   foundry.utils.applyDataOperators.html`: "ForcedDeletion values (or deprecated "-=" keys)
//   are removed"; the announcement on FI#13090 names `ForcedDeletion.create()` and `_del`).
// - game.release.generation: 13 or 14 (api `classes/foundry.config.ReleaseData.html`).
import { record } from "./record.js";

const params = new URLSearchParams(window.location.search);
export const GENERATION = Number(params.get("generation") ?? 13);
if (![13, 14].includes(GENERATION)) throw new Error(`stand-in: no Foundry generation ${GENERATION} here`);
export const V14 = GENERATION >= 14;

/** game.release (ReleaseData): the generation and a build of it. */
export const RELEASE = Object.freeze({
  generation: GENERATION,
  build: V14 ? 363 : 351,
  version: V14 ? "14.363" : "13.351",
});

/** A deprecation warning as Foundry logs it (logCompatibilityWarning); the tests fail on any. */
export function deprecated(message) {
  record.deprecations.push(message);
  console.warn(`stand-in deprecation: ${message}`);
}

/** How the stand-in carries an operator over its server's JSON (its own wire form). */
const WIRE = "__standInOperator";

/** foundry.data.operators.DataFieldOperator / ForcedDeletion (v14 only). */
class DataFieldOperator {
  toJSON() {
    return { [WIRE]: this.constructor.name };
  }
}
class ForcedDeletion extends DataFieldOperator {
  static create() {
    return new ForcedDeletion();
  }
}

/** The `foundry.data` namespace of this generation: v14 has `operators`, v13 none. */
export const DATA = V14 ? { operators: Object.freeze({ DataFieldOperator, ForcedDeletion }) } : {};

/** The v14 global shorthand `_del` (a ForcedDeletion), none in v13. */
export const GLOBALS = V14 ? { _del: new ForcedDeletion() } : {};

/** Whether an update's value deletes its key (a ForcedDeletion, here or off the wire): v14. */
export function isDeletion(value) {
  return (
    V14 &&
    (value instanceof ForcedDeletion ||
      (value !== null && typeof value === "object" && value[WIRE] === "ForcedDeletion"))
  );
}

/** Whether an update's key is the legacy deletion `-=key`: both; v14 warns. */
export function isLegacyDeletion(key) {
  if (!key.startsWith("-=")) return false;
  if (V14)
    deprecated(`the update key "-=${key.slice(2)}" uses legacy syntax: use foundry.data.operators.ForcedDeletion`);
  return true;
}

/** CONFIG.statusEffects of this generation, from a list of configs. */
export function statusEffectsConfig(list) {
  return V14 ? Object.fromEntries(list.map((effect) => [effect.id, effect])) : list;
}

/** A status effect's config by id, from either shape (core's toggleStatusEffect looks it up). */
export function statusConfig(effects, id) {
  if (Array.isArray(effects)) return effects.find((effect) => effect.id === id);
  return Object.hasOwn(effects ?? {}, id) ? effects[id] : undefined;
}
