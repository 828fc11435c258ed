/**
 * How a document update unsets a key, per Foundry generation. Pure: the v14 form needs Foundry's
 * own class, so generation.mjs makes it and passes it to logic/ as an `unset` function.
 *
 * - v13: a special key, `parent.-=key: null` (api v13 `foundry.utils.isDeletionKey`: "deletion
 *   or forced replacement operations").
 * - v14: the plain path with a `foundry.data.operators.ForcedDeletion` value (api v14
 *   `foundry.data.operators`); the `-=` keys still work there but log a deprecation warning.
 */

/** The v13 form: `{"flags.x.-=key": null}` for the path `flags.x.key`. */
export function legacyUnset(path) {
  const at = path.lastIndexOf(".");
  return { [`${path.slice(0, at + 1)}-=${path.slice(at + 1)}`]: null };
}
