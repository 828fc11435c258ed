/**
 * Foundry's own dice for every d100 of the battle: each is a `Roll` of 1d100, evaluated here
 * (async) and posted as a roll message (`Roll#toMessage`), so Dice So Nice animates it and the
 * chat log keeps it. Its total then goes to the bridge as a roll typed at the table; the core
 * decides the rest. A roll the player view hides is posted for the GMs only, and the world
 * setting `dice` lets the core roll instead.
 *
 * Sources: api v13 `foundry.dice.Roll` (`evaluate`, `total`, `toMessage(messageData, {rollMode})`),
 * `CONST.DICE_ROLL_MODES` (publicroll, gmroll); v14 renames the roll mode to a message mode
 * (api v14 `CONFIG.ChatMessage.modes`, "supported chat message visibility modes"; `toMessage`
 * takes `messageMode`, "gm" for "gmroll": foundryvtt/foundryvtt#8856, foundryvtt/dnd5e#6958).
 * Dice So Nice fires `diceSoNiceRollComplete(messageId)` once a message's dice have landed.
 */
import { ID } from "./constants.mjs";
import { t } from "./i18n.mjs";
import { setting } from "./settings.mjs";
import { d100, influenceRollShown, sideRollShown } from "./logic/table-dice.mjs";
import { whisperCards } from "./chat.mjs";

export const DICE_SETTING = "dice";
export const DICE = Object.freeze({ FOUNDRY: "foundry", CORE: "core" });
/** How long the panel waits for Dice So Nice's dice to land before it goes on anyway. */
const LANDING_WAIT_MS = 15_000;

/** The world setting: Foundry's dice (the default) or the core's roller. */
export function registerDiceSetting() {
  game.settings.register(ID, DICE_SETTING, {
    name: "BACKGROUND_BATTLE.Dice.Setting.Name",
    hint: "BACKGROUND_BATTLE.Dice.Setting.Hint",
    scope: "world",
    config: true,
    type: String,
    choices: {
      [DICE.FOUNDRY]: "BACKGROUND_BATTLE.Dice.Setting.Foundry",
      [DICE.CORE]: "BACKGROUND_BATTLE.Dice.Setting.Core",
    },
    default: DICE.FOUNDRY,
  });
}

export function foundryDice() {
  return setting(DICE_SETTING) !== DICE.CORE;
}

/** The roll options for a message everyone sees, or the GMs only (v13 roll mode, v14 message mode). */
function visibility(shown) {
  const modes = globalThis.CONFIG?.ChatMessage?.modes;
  const v14 = shown ? "public" : "gm";
  if (modes && v14 in modes) return { messageMode: v14 };
  return { rollMode: shown ? CONST.DICE_ROLL_MODES.PUBLIC : CONST.DICE_ROLL_MODES.PRIVATE };
}

/** Resolves once Dice So Nice (when active) has shown the message's dice, or after a while. */
function landed(message) {
  if (!game.modules.get("dice-so-nice")?.active) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      Hooks.off("diceSoNiceRollComplete", listener);
      resolve();
    };
    const listener = (messageId) => {
      if (messageId === message.id) done();
    };
    const timer = setTimeout(done, LANDING_WAIT_MS);
    Hooks.on("diceSoNiceRollComplete", listener);
  });
}

/** An evaluated Roll of 1d100 (its total checked: a d100 from 1 to 100). */
async function rolled() {
  const roll = await new Roll("1d100").evaluate();
  d100(roll.total);
  return roll;
}

/**
 * Posts an evaluated roll; throws when the message was not made (a `preCreateChatMessage`
 * hook may stop it: `create` then gives nothing), so that nothing is sent for it.
 */
export async function post(roll, flavor, shown) {
  const message = await roll.toMessage(
    { flavor, speaker: { alias: t("Title") }, flags: { [ID]: { dice: true } } },
    visibility(shown),
  );
  if (!message?.id) throw new Error(t("Dice.NotPosted"));
  return message;
}

/**
 * The round's two d100 by Foundry's dice, or null when the core rolls (the setting). Both are
 * evaluated, then posted (a hidden side's for the GMs only), then their dice land.
 */
export async function roundDice(view) {
  if (!foundryDice()) return null;
  const round = (view?.round ?? 0) + 1;
  const sides = ["allies", "enemies"];
  const rolls = await Promise.all(sides.map(() => rolled()));
  const messages = [];
  for (const [i, side] of sides.entries()) {
    const flavor = t("Dice.RoundFlavor", { round, side: t(`Side.${side}`) });
    messages.push(await post(rolls[i], flavor, sideRollShown(view, side, { whisper: whisperCards() })));
  }
  await Promise.all(messages.map(landed));
  return { allies: rolls[0].total, enemies: rolls[1].total };
}

/**
 * The Influence d100 by Foundry's dice, or null: public as the player view shows it (a hidden
 * side's is for the GMs); `view`: the GM's view of the battle.
 */
export async function influenceDie(side, view) {
  if (!foundryDice()) return null;
  const roll = await rolled();
  const message = await post(
    roll,
    t("Dice.InfluenceFlavor", { side: t(`Side.${side}`) }),
    influenceRollShown(view, side, { whisper: whisperCards() }),
  );
  await landed(message);
  return roll.total;
}

/** A leader's d100 against the Leadership the GM typed, posted as the side's roll, or null. */
export async function leaderDie(view, side) {
  if (!foundryDice()) return null;
  const roll = await rolled();
  const message = await post(
    roll,
    t("Dice.LeaderFlavor", { side: t(`Side.${side}`) }),
    sideRollShown(view, side, { whisper: whisperCards() }),
  );
  await landed(message);
  return roll.total;
}
