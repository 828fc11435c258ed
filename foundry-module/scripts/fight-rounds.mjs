/**
 * The PCs' fight's rounds. Foundry's `updateCombat` hook fires on every client (api v13/v14
 * hookEvents.updateDocument) with the changed `round`; only the active GM's browser acts.
 * - The background battle keeps the combat's rhythm (the world setting *Combat rounds*: off,
 *   prompt, automatic): a new combat round plays a background round with Foundry's dice, or,
 *   after the battle has a winner, its Influence roll (rules §4.2 b). A round is keyed by the
 *   combat's id and number and written to the world (setting `rhythmPlayed`) before it is
 *   played, so a reload or another GM never plays it twice.
 * - Fighters an Influence card said would join "in 2 rounds" are announced to the GMs on that
 *   round of that combat, once (what was told is written on the fight card).
 */
import { ID } from "./constants.mjs";
import { cardsAbout, postCard } from "./chat.mjs";
import { esc, t } from "./i18n.mjs";
import { influenceDie, roundDice } from "./foundry-dice.mjs";
import { dueOn } from "./logic/fight-effects.mjs";
import { MODES, newRound, played, rhythmOrder, roundKey, withPlayed } from "./logic/combat-rhythm.mjs";
import { log } from "./log.mjs";
import { isActiveGM } from "./who.mjs";

export const RHYTHM = "combatRhythm";
export const PLAYED = "rhythmPlayed";

/** The world settings: the rhythm's mode (GMs choose it) and the rounds played (hidden). */
export function registerRhythmSettings() {
  game.settings.register(ID, RHYTHM, {
    name: "BACKGROUND_BATTLE.Rhythm.Setting.Name",
    hint: "BACKGROUND_BATTLE.Rhythm.Setting.Hint",
    scope: "world",
    config: true,
    type: String,
    choices: {
      [MODES.OFF]: "BACKGROUND_BATTLE.Rhythm.Setting.Off",
      [MODES.PROMPT]: "BACKGROUND_BATTLE.Rhythm.Setting.Prompt",
      [MODES.AUTO]: "BACKGROUND_BATTLE.Rhythm.Setting.Automatic",
    },
    default: MODES.OFF,
  });
  game.settings.register(ID, PLAYED, { scope: "world", config: false, type: Object, default: {} });
}

/**
 * Plays the background battle's part of a new combat round, once per combat round.
 * `front`: {battle(), view(), command(order)} (wiring.mjs).
 */
export async function keepRhythm(combat, round, front) {
  const mode = game.settings.get(ID, RHYTHM);
  if (mode === MODES.OFF || !isActiveGM()) return false;
  const battle = front.battle();
  const view = front.view();
  const order = rhythmOrder(view);
  if (!battle || !order) return false;
  const key = roundKey(combat.id, round);
  const record = game.settings.get(ID, PLAYED);
  if (played(record, battle, key)) return false;
  // written first: whatever happens next, this combat round is never offered again
  await game.settings.set(ID, PLAYED, withPlayed(record, battle, key));
  if (mode === MODES.PROMPT) {
    const what = order.type === "resolve_round" ? "Rhythm.PlayRound" : "Rhythm.PlayInfluence";
    const sure = await foundry.applications.api.DialogV2.confirm({
      window: { title: t("Rhythm.Title", { round }) },
      content: `<p>${esc(t(what, { round, side: order.side ? t(`Side.${order.side}`) : "" }))}</p>`,
    });
    if (!sure) return false;
  }
  if (order.type === "resolve_round") {
    const rolls = await roundDice(view);
    return front.command(
      rolls ? { type: "resolve_round", mode: "rolls", rolls } : { type: "resolve_round", mode: "auto" },
    );
  }
  const roll = await influenceDie(order.side);
  return front.command(roll === null ? order : { ...order, roll });
}

/** Announces the reinforcements due on `combat`'s round `round` (once each). */
export async function announceDue(combat, round) {
  if (!isActiveGM()) return;
  for (const card of cardsAbout({ kind: "fight" })) {
    const record = card.getFlag(ID, "fight");
    if (!record || record.undone) continue;
    const told = new Set(record.told ?? []);
    const due = dueOn(record.due, combat.id, round).filter(
      (item) => !told.has(`${item.combat}:${item.due}:${item.side}`),
    );
    if (!due.length) continue;
    for (const item of due) told.add(`${item.combat}:${item.due}:${item.side}`);
    // written first: a second call (another hook, a reload mid-way) finds it told
    await card.update({ [`flags.${ID}.fight.told`]: [...told] });
    const lines = due.map((item) =>
      t("Fight.ReinforcementsDue", {
        round,
        from: item.from,
        side: t(`Side.${item.side}`),
        fighters: item.fighters === "gm_choice" ? t("Fight.GmChoice") : item.fighters,
      }),
    );
    const join = `<p><button type="button" data-bb-fight="join">${esc(t("Fight.Join"))}</button></p>`;
    await postCard(lines.map((line) => `<p><strong>${esc(line)}</strong></p>`).join("") + join, {
      gmOnly: true,
      about: { kind: "reinforcements", combat: combat.id, round },
    });
  }
}

/**
 * The fighters who join: the tokens the GM has selected, added to the announcement's combat
 * (`Combat#createEmbeddedDocuments("Combatant", [{tokenId, sceneId, actorId}])`, api v13/v14
 * CombatantData); a token already in it is left.
 */
export async function joinCombat(message) {
  const about = message.getFlag(ID, "about");
  const combat = game.combats?.get(about?.combat);
  if (!combat) return ui.notifications?.warn(t("Fight.NoCombat"));
  const inside = new Set(combat.combatants.contents.map((c) => c.tokenId ?? c.token?.id));
  const tokens = (canvas.tokens?.controlled ?? []).map((token) => token.document).filter((doc) => !inside.has(doc.id));
  if (!tokens.length) return ui.notifications?.warn(t("Fight.SelectTokens"));
  const data = tokens.map((doc) => ({ tokenId: doc.id, sceneId: doc.parent?.id, actorId: doc.actorId }));
  await combat.createEmbeddedDocuments("Combatant", data);
  return ui.notifications?.info(t("Fight.Joined", { names: tokens.map((doc) => doc.name).join(", ") }));
}

/** Hook `updateCombat(combat, changed)`: a new round of a combat. */
export async function combatUpdated(combat, changed, front) {
  if (!newRound(changed)) return;
  try {
    await announceDue(combat, changed.round);
    if (front) await keepRhythm(combat, changed.round, front);
  } catch (error) {
    log.error("combat round failed", error);
  }
}
