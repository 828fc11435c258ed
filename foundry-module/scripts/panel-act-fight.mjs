/**
 * The panel's actions of a running battle: the start, the rounds, fighters detached, a side's
 * strength, the leader's command, the end, what players see, undo and Influence. The front
 * (wiring.mjs, with the panel's own): `battle()`, `view()`, `command(order)`, `once(action)`,
 * `render()`.
 */
import { SETTINGS } from "./constants.mjs";
import { importDefaultTable } from "./influence.mjs";
import { t } from "./i18n.mjs";
import { readChecked, readNumber, readNumbers, readText } from "./panel-input.mjs";
import { clear, phaseActions } from "./panel-act.mjs";
import { lastStep } from "../client/battle-story.mjs";
import { setSetting } from "./settings.mjs";
import { influenceDie, roundDice } from "./foundry-dice.mjs";
import { LEADER_ACTIONS, leaderTest } from "./leader-test.mjs";
import { liveMoves, pickMoved } from "./logic/moves.mjs";
import { selectedTokenDocuments } from "./tokens.mjs";

/** Where the GM's hands go after a round: the allies' d100 for the next one (after the end: Apply). */
const AFTER_ROUND = ['[name="rollAllies"]', '[data-action="applyAll"]'];
/** After the end of the battle: *Apply casualties to every unit*. */
const AFTER_END = ['[data-action="applyAll"]'];

async function start(front) {
  return (await front.command({ type: "start" })) && ['[name="rollAllies"]'];
}

/** Foundry's dice (posted in chat) as the round's rolls, or the core rolls (the setting); the
 * GM's hand stays on the button for the next round. */
async function roundAuto(front) {
  const rolls = await roundDice(front.view());
  const ack = await front.command(
    rolls ? { type: "resolve_round", mode: "rolls", rolls } : { type: "resolve_round", mode: "auto" },
  );
  return ack && ['[data-action="roundAuto"]', '[data-action="applyAll"]'];
}

/**
 * Moves fighters of a unit into the PCs' fight: the selected tokens of the unit (or, for one
 * selected token standing for many, the head count typed), so that Apply leaves them to that
 * fight; a unit with no tokens moves the count typed. The core takes them and their strength
 * out; then the bridge is told which tokens went (`detached`, with the step's version).
 */
async function detach(front, form, target) {
  const unit = target.dataset.unit;
  const foundryData = front.foundryData() ?? {};
  const gone = new Set(inPcsFight(foundryData, front.view(), unit));
  const tokens = (foundryData.tokens?.[unit] ?? []).filter((uuid) => !gone.has(uuid));
  const count = readNumber(form, `detach-${unit}`, "fighters", t("Panel.DetachCount"), { required: !tokens.length });
  if (!tokens.length) {
    const ack = await front.command({ type: "detach_fighters", unit, fighters: count });
    if (ack) clear(form, `detach-${unit}`);
    return;
  }
  const heads = headsLeft(foundryData, front.view(), unit);
  const selected = selectedTokenDocuments().map((doc) => doc.uuid);
  const moved = pickMoved(selected, tokens, heads, count);
  if (moved.reason) {
    const name = (front.view()?.units ?? []).find((u) => u.id === unit)?.name ?? unit;
    throw new Error(t("Job.SelectTokens", { unit: name }));
  }
  const ack = await front.command({ type: "detach_fighters", unit, fighters: moved.total });
  if (!ack) return;
  clear(form, `detach-${unit}`);
  // A refusal is told by the request (the fighters moved; the tokens stay the unit's).
  await front.request("detached", {
    unit,
    version: ack.version,
    token_ids: moved.token_ids,
    ...(Object.keys(moved.fighters).length ? { fighters: moved.fighters } : {}),
  });
}

/** The unit's tokens in the PCs' fight (moves whose step counts). */
function inPcsFight(foundryData, view, unit) {
  return liveMoves(foundryData.detached?.[unit], view).flatMap((move) => move.token_ids);
}

/** The head counts of the unit's tokens standing for many, after the heads moved out. */
function headsLeft(foundryData, view, unit) {
  const heads = { ...(foundryData.fighters?.[unit] ?? {}) };
  for (const move of liveMoves(foundryData.detached?.[unit], view)) {
    for (const [uuid, n] of Object.entries(move.fighters ?? {})) heads[uuid] = (heads[uuid] ?? 1) - n;
  }
  return heads;
}

async function setStrength(front, form) {
  const side = readText(form, "strengthSide");
  const strength = readNumber(form, "strengthValue", "strength", t("Panel.NewStrength"), { required: true });
  const ack = await front.command({ type: "set_strength", side, strength });
  if (ack) clear(form, "strengthValue");
}

async function roundRolls(front, form) {
  const [allies, enemies] = readNumbers(form, [
    ["rollAllies", "roll", t("Fields.rolls.allies"), { required: true }],
    ["rollEnemies", "roll", t("Fields.rolls.enemies"), { required: true }],
  ]);
  const ack = await front.command({ type: "resolve_round", mode: "rolls", rolls: { allies, enemies } });
  if (ack) clear(form, "rollAllies", "rollEnemies");
  return ack && AFTER_ROUND;
}

/** A round fought out at the table: the strength each side lost (a blank reads 0, as on the page). */
async function roundLost(front, form) {
  const [allies, enemies] = readNumbers(form, [
    ["lostAllies", "lost", t("LostRound.Allies")],
    ["lostEnemies", "lost", t("LostRound.Enemies")],
  ]);
  if (allies === null && enemies === null) {
    form.querySelector('[name="lostAllies"]')?.focus();
    throw new Error(t("Typed.LostNone"));
  }
  const lost = { allies: allies ?? 0, enemies: enemies ?? 0 };
  const ack = await front.command({ type: "resolve_round", mode: "lost", lost });
  if (ack) clear(form, "lostAllies", "lostEnemies");
  return ack && ['[name="lostAllies"]', ...AFTER_ROUND];
}

async function leader(front, form) {
  if (await leaderTest(front, form, { readNumber, clear })) return;
  const ack = await front.command({
    type: "leader_command",
    side: readText(form, "leaderSide"),
    sl: readNumber(form, "leaderSl", "sl", t("Panel.SL"), { required: true }),
    success: readChecked(form, "leaderSuccess"),
  });
  if (ack) clear(form, "leaderSl", "leaderSuccess");
}

async function pcsWon(front, form) {
  const fleeing = readNumber(form, "fleeing", "share", t("Panel.Fleeing"));
  const order = fleeing === null ? { type: "pcs_won" } : { type: "pcs_won", fleeing };
  const ack = await front.command(order);
  if (ack) clear(form, "fleeing");
  return ack && AFTER_END;
}

async function endBattle(front, form) {
  const winner = readText(form, "winner");
  const ack = await front.command(winner ? { type: "end_battle", winner } : { type: "end_battle" });
  return ack && AFTER_END;
}

/** Shows a side's strength and head count to players, or hides them (`set_hidden`). */
async function toggleShown(front, form, target) {
  const side = target.dataset.side;
  const hidden = new Set(front.view()?.hidden ?? []);
  const mine = [`${side}.strength`, `${side}.fighters`];
  if (target.dataset.shown === "1") mine.forEach((h) => hidden.add(h));
  else mine.forEach((h) => hidden.delete(h));
  await front.command({ type: "set_hidden", hidden: [...hidden].sort() });
}

/** Undo last step; undoing the end of the battle asks first. */
async function undo(front) {
  const step = lastStep(front.view());
  const endsBattle = (step?.entry?.events ?? []).some((e) => e.type === "battle_ended");
  if (endsBattle) {
    const sure = await foundry.applications.api.DialogV2.confirm({
      window: { title: t("Panel.Undo") },
      content: `<p>${t("Panel.UndoEndConfirm")}</p>`,
    });
    if (!sure) return;
  }
  await front.command({ type: "undo" });
}

/** Influence: a d100 typed, Foundry's or the core's; the active GM's browser posts the card (step-cards.mjs). */
async function influence(front, form) {
  const order = { type: "roll_influence", side: readText(form, "influenceSide") };
  const roll =
    readNumber(form, "influenceRoll", "roll", t("Panel.Roll")) ?? (await influenceDie(order.side, front.view()));
  if (roll !== null) order.roll = roll;
  const ack = await front.command(order);
  if (ack) clear(form, "influenceRoll");
}

async function importTable(front) {
  const table = await importDefaultTable(front.view()?.influence_table);
  await setSetting(SETTINGS.INFLUENCE_TABLE, table.id);
  ui.notifications.info(t("Notices.table_imported", { name: table.name }));
  front.render();
}

export const FIGHT_ACTIONS = phaseActions("fight", {
  start,
  roundAuto,
  detach,
  setStrength,
  roundRolls,
  roundLost,
  leader,
  pcsWon,
  endBattle,
  toggleShown,
  undo,
  influence,
  importTable,
  ...LEADER_ACTIONS,
});
