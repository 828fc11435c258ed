/**
 * The last version of each battle that has its chat card: a world setting (not in the settings
 * window) that only the active GM's browser writes, so that after a reconnect, a reload or
 * another GM becoming the active one the missing steps are carded once, in order, and none
 * twice. World settings reach every client, players' too: a battle is named there only by a
 * hash of its name (battleKey), so the setting does not list the battles a GM prepares.
 */
import { ID, SETTINGS } from "./constants.mjs";
import { battleKey } from "./logic/card-steps.mjs";

export function registerCardMarks() {
  game.settings.register(ID, SETTINGS.CARDED, { scope: "world", config: false, type: Object, default: {} });
}

/** The last version of the battle carded in this world, or null. */
export function cardedVersion(battle) {
  const version = (game.settings.get(ID, SETTINGS.CARDED) ?? {})[battleKey(battle)];
  return Number.isInteger(version) ? version : null;
}

export function setCardedVersion(battle, version) {
  const marks = { ...(game.settings.get(ID, SETTINGS.CARDED) ?? {}), [battleKey(battle)]: version };
  return game.settings.set(ID, SETTINGS.CARDED, marks);
}
