/**
 * The leader's command as the table plays it: a side may name its leader (the selected token),
 * or dropped on that side's leader line), and *Leader's command* then has that leader take the test.
 * - WFRP4e: the actor's own Leadership test through the system (`actor.setupSkill`, its
 *   dialog, modifiers and card; moo-man/WFRP4e-FoundryVTT src/documents/actor.js). Its SL and
 *   outcome (`test.result`, src/system/rolls/test-wfrp4e.js) go to the bridge as the command.
 *   The dialog is opened with `resolveClose` (WarhammerLibrary src/apps/roll-dialogV2.js
 *   `close`): closing it resolves with nothing, and nothing is sent.
 * - Otherwise, with a Leadership typed: a Foundry d100 against it (foundry-dice.mjs), and the
 *   core makes the test (`leadership` + `roll`, the same SL rule); with the core's dice the
 *   core rolls it.
 * - An SL typed in wins over both (as before).
 * Leaders are kept per battle in a client setting of this GM's browser (players are not told).
 */
import { ID } from "./constants.mjs";
import { button, field } from "./panel-controls.mjs";
import { esc, t } from "./i18n.mjs";
import { leaderDie } from "./foundry-dice.mjs";
import { selectedTokenDocuments } from "./tokens.mjs";
import { tokensDropped } from "./scene-sides.mjs";
import { whisperCards } from "./chat.mjs";
import { leaderCommandFromTest, sideRollShown } from "./logic/table-dice.mjs";

const LEADERS = "leaders";

export function registerLeaderSetting() {
  game.settings.register(ID, LEADERS, { scope: "client", config: false, type: Object, default: {} });
}

function leaders(battle) {
  return game.settings.get(ID, LEADERS)?.[battle] ?? {};
}

async function setLeader(battle, side, uuid) {
  const all = structuredClone(game.settings.get(ID, LEADERS) ?? {});
  const mine = { ...(all[battle] ?? {}) };
  if (uuid) mine[side] = uuid;
  else delete mine[side];
  all[battle] = mine;
  await game.settings.set(ID, LEADERS, all);
}

/** The named leader's token of a side (null when none, or when it is gone from the world). */
function leaderToken(battle, side) {
  const uuid = leaders(battle)[side];
  return uuid ? (foundry.utils.fromUuidSync(uuid) ?? null) : null;
}

function wfrpTest(token) {
  return game.system.id === "wfrp4e" && typeof token?.actor?.setupSkill === "function";
}

/** The leaders' line under the leader's command: who leads each side, and the controls. */
export function leaderLine(ctx) {
  const names = ["allies", "enemies"].map((side) => {
    const token = leaderToken(ctx.battle, side);
    const who = token ? esc(token.name) : `<em>${esc(t("Dice.NoLeader"))}</em>`;
    const forget = token
      ? button("leaderForget", "Dice.Forget", { tip: "Dice.Tip.forget", data: { "data-side": side } })
      : "";
    return `<span class="bb-leader-of" data-side="${side}" data-drop="leader">${esc(t(`Dice.LeaderOf.${side}`))}: ${who}${forget}</span>`;
  });
  return (
    `<div class="bb-row bb-leaders">${names.join(" ")}` +
    button("leaderFromSelected", "Dice.FromSelected", { tip: "Dice.Tip.fromSelected", disabled: ctx.pending }) +
    field("leaderTarget", "Dice.Leadership", {
      tip: "Dice.Tip.leadership",
      enter: "leader",
      attrs: { min: 1, max: 200 },
    }) +
    "</div>"
  );
}

async function nameLeader(front, side, doc) {
  await setLeader(front.battle(), side, doc.uuid);
  ui.notifications.info(t("Dice.LeaderNamed", { name: doc.name, side: t(`Side.${side}`) }));
  front.render();
}

/** Panel actions of the fight (panel-act-fight.mjs wraps them: one at a time, errors as notices);
 * `front`: `battle()`, `render()`. */
export const LEADER_ACTIONS = {
  /** The one selected token leads the side chosen for the command. */
  async leaderFromSelected(front, form) {
    const docs = selectedTokenDocuments();
    if (docs.length !== 1) throw new Error(t("Dice.SelectOneLeader"));
    await nameLeader(front, form.querySelector("[name=leaderSide]")?.value, docs[0]);
  },
  async leaderForget(front, form, target) {
    await setLeader(front.battle(), target.dataset.side, null);
    front.render();
  },
};

/**
 * A token (or an actor with one token on the scene) dropped on a side's leader line leads it.
 * `element`: the panel's; `front`: the fight's (`once(action)`, `battle()`, `render()`).
 */
export function wireLeaderDrops(element, front) {
  const line = (event) => event.target.closest?.("[data-drop=leader]");
  element.addEventListener("dragover", (event) => {
    if (line(event)) event.preventDefault();
  });
  element.addEventListener("drop", (event) => {
    const target = line(event);
    if (!target || !game.user.isGM) return;
    event.preventDefault();
    const docs = tokensDropped(event); // the drop's data is readable during the event only
    front
      .once(async () => {
        if (docs.length === 1) await nameLeader(front, target.dataset.side, docs[0]);
        else ui.notifications.warn(t("Dice.DropOneLeader"));
      })
      .catch((error) => ui.notifications.warn(error.message));
  });
}

/** Runs the side's leader's Leadership test in WFRP4e; null when the dialog was closed. */
async function systemTest(token, side, view) {
  const context = { skipTargets: true, appendTitle: ` – ${t("Step.Leader", { side: t(`Side.${side}`) })}` };
  // a hidden side's test for the GMs (the dialog's roll mode field, which the GM may still change)
  if (!sideRollShown(view, side, { whisper: whisperCards() }))
    context.fields = { rollMode: CONST.DICE_ROLL_MODES?.PRIVATE ?? "gmroll" };
  const test = await token.actor.setupSkill(game.i18n.localize("NAME.Leadership"), context, { resolveClose: true });
  if (!test) return null;
  await test.roll();
  return leaderCommandFromTest(side, test.result);
}

/**
 * The leader's command by a test at the table, or false when the GM typed an SL (or there is
 * neither a leader nor a Leadership): the panel then sends the typed SL as before. `readNumber`
 * and `clear` are the panel's own, so that a number is read one way everywhere; `front`: the
 * fight's (`view()`, `battle()`, `command(order)`).
 */
export async function leaderTest(front, form, { readNumber, clear }) {
  if (form.querySelector("[name=leaderSl]")?.value?.trim()) return false;
  const side = form.querySelector("[name=leaderSide]")?.value;
  const view = front.view();
  const target = readNumber(form, "leaderTarget", "leadership", t("Dice.Leadership"));
  const token = leaderToken(front.battle(), side);
  let order;
  if (target === null && wfrpTest(token)) {
    order = await systemTest(token, side, view);
    if (!order) {
      ui.notifications.info(t("Dice.Cancelled"));
      return true;
    }
  } else if (target !== null) {
    const roll = await leaderDie(view, side);
    order = { type: "leader_command", side, leadership: target, ...(roll === null ? {} : { roll }) };
  } else {
    return false;
  }
  const ack = await front.command(order);
  if (ack) {
    clear(form, "leaderTarget");
    if (order.success === false) ui.notifications.info(t("Dice.Failed", { side: t(`Side.${side}`) }));
  }
  return true;
}
