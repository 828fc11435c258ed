/**
 * What differs between the Foundry generations the module runs on (13 and 14), in one place.
 * Each difference is found by a feature test (it holds whatever the build), so no
 * `game.release.generation` is needed: neither generation logs a deprecation warning.
 *
 * - `CONFIG.statusEffects`: an array of StatusEffectConfig in v13, an object keyed by id in v14
 *   (api v13 and v14 `CONFIG.statusEffects`); a system may still assign its own array (WFRP4e
 *   does on `ready`, src/hooks/ready.js).
 * - Unsetting a key in an update: `-=key` in v13, a `ForcedDeletion` value in v14 (api v14
 *   `foundry.data.operators`; the `-=` keys are deprecated there).
 */
import { legacyUnset } from "./logic/unset.mjs";

/** A list of status effect configs, whatever shape it comes in (array, or object by id). */
export function statusList(effects) {
  if (Array.isArray(effects)) return effects;
  return effects && typeof effects === "object" ? Object.values(effects) : [];
}

/** This generation's unset of a key in an update: `unset("flags.x.key")` gives the fragment. */
export function unset(path) {
  const ForcedDeletion = foundry.data?.operators?.ForcedDeletion;
  if (typeof ForcedDeletion !== "function") return legacyUnset(path);
  // `ForcedDeletion.create()` as announced with the operators (FI#13090), else the class itself.
  const deletion = typeof ForcedDeletion.create === "function" ? ForcedDeletion.create() : new ForcedDeletion();
  return { [path]: deletion };
}
