/**
 * The last version of each battle that has its chat card: a world setting (not in the settings
 * window) that the active GM's browser writes (and a GM's browser once, when its own battle
 * starts: StepCards#shownFromStart), so that after a reconnect, a reload or
 * another GM becoming the active one the missing steps are carded once, in order, and none
 * twice. World settings reach every client, players' too: the record names a battle only by a
 * hash of its name (battleKey), and only a battle the players were told of (started): a hash
 * of a name can be checked by guessing names. A battle in set-up is followed by this browser
 * alone, and after a reload by its cards, whispered to the GMs (`about.version`, cardedInChat).
 */
import { ID, SETTINGS } from "./constants.mjs";
import { battleKey } from "./logic/card-steps.mjs";
import { cardsAbout } from "./chat.mjs";

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

/** The last version of the battle the chat's step cards hold (those this user sees), or null. */
export function cardedInChat(battle) {
  const versions = cardsAbout({ battle })
    .map((message) => message.getFlag(ID, "about")?.version)
    .filter(Number.isInteger);
  return versions.length ? Math.max(...versions) : null;
}

/**
 * Takes out of the world's record the battles a GM's `battles` list says are in set-up (kept
 * there by an earlier version, or their start was undone): the record names only battles
 * players are told of.
 */
export function forgetBattlesInSetUp(battles) {
  const marks = game.settings.get(ID, SETTINGS.CARDED) ?? {};
  const keys = (battles ?? []).filter((b) => b.status === "setup").map((b) => battleKey(b.name));
  const kept = Object.fromEntries(Object.entries(marks).filter(([key]) => !keys.includes(key)));
  if (Object.keys(kept).length === Object.keys(marks).length) return null;
  return game.settings.set(ID, SETTINGS.CARDED, kept);
}
