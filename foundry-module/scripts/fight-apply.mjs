/**
 * "Apply to the fight": an Influence card's effects (the core's data, read for the side that
 * rolled) put onto the combatants of the active combat, by the GM, through the system's own
 * calls; a GM-only card lists what was done and what is left to do by hand, and keeps the record
 * its Undo takes back exactly. logic/fight-effects.mjs decides what to do; this file calls.
 *
 * WFRP4e (moo-man/WFRP4e-FoundryVTT, read for facts):
 * - Advantage: `actor.modifyAdvantage(n)`, `actor.setAdvantage(v)` (src/documents/actor.js); with
 *   the setting `useGroupAdvantage` an actor's update goes to its group
 *   (src/model/actor/standard.js `_handleGroupAdvantage` → `WFRP_Utility.updateGroupAdvantage`,
 *   the world setting `groupAdvantageValues` {players, enemies}), so one actor's call per group.
 * - Damage: `actor.applyBasicDamage(total, {loc: "roll"})` (actor.js: "roll" rolls the hit
 *   location on the system's `hitloc` table; armour there and Toughness Bonus are taken off).
 * - Tests: `actor.setupSkill(game.i18n.localize("NAME.Cool"), {appendTitle, skipTargets: true,
 *   fields: {difficulty}})`, then `test.roll()` and `test.failed` (the system's own "Broken"
 *   script in src/system/config-wfrp4e.js does exactly that); `setupCharacteristic` likewise.
 * - Conditions: `actor.addCondition(key)` (conditions.mjs).
 * Other systems: Foundry's status effects for a condition the system knows; Advantage, Damage
 * and tests are listed for the GM to do by hand.
 *
 * Live, the effects done are shared with the GM's page (fight-marks.mjs): an effect marked done
 * already (ticked on the page) is left out and listed as such; what Apply did is marked, and its
 * Undo takes those marks back. `marks`: fight-marks.mjs marksOf, or null (nothing shared).
 */
import { ID } from "./constants.mjs";
import { cardsAbout, postCard } from "./chat.mjs";
import { changeCondition, conditionsOf, knowsStatus } from "./conditions.mjs";
import { esc, t } from "./i18n.mjs";
import { post } from "./foundry-dice.mjs";
import {
  advantageAfter,
  combatSides,
  pickByRoll,
  planEffects,
  restoreSteps,
  sideOf,
  stepWords,
} from "./logic/fight-effects.mjs";
import { joinCombat } from "./fight-rounds.mjs";
import { marksHtml, rollOf } from "./fight-marks.mjs";
import { log } from "./log.mjs";

const SKILL_NAMES = {
  athletics: "NAME.Athletics",
  cool: "NAME.Cool",
  dodge: "NAME.Dodge",
  endurance: "NAME.Endurance",
  intimidate: "NAME.Intimidate",
  leadership: "NAME.Leadership",
  melee: "NAME.Melee",
  perception: "NAME.Perception",
};

function wfrp() {
  return game.system?.id === "wfrp4e";
}

function groupAdvantage() {
  return wfrp() && Boolean(game.settings.get("wfrp4e", "useGroupAdvantage"));
}

/** A combatant as logic/fight-effects.mjs reads it. */
function described(combatant) {
  const disposition = combatant.token?.disposition ?? combatant.actor?.prototypeToken?.disposition ?? 0;
  return {
    id: combatant.id,
    name: combatant.name ?? combatant.actor?.name ?? combatant.id,
    playerOwned: Boolean(combatant.actor?.hasPlayerOwner),
    disposition,
  };
}

/** What Undo brings back of an actor (Advantage left to the group when Group Advantage is on). */
function snapshot(actor, withAdvantage) {
  const status = actor?.system?.status ?? {};
  return {
    advantage: withAdvantage ? status.advantage?.value : undefined,
    wounds: status.wounds?.value,
    conditions: conditionsOf(actor),
  };
}

/** The Influence card's words for the fight: the button, or why it has none. */
export function fightHtml(effects) {
  if (!Array.isArray(effects)) return `<p class="bb-fight-text-only"><em>${esc(t("Fight.TextOnly"))}</em></p>`;
  if (!effects.length) return "";
  return `<p class="bb-fight"><button type="button" data-bb-fight="apply">${esc(t("Fight.Apply"))}</button></p>`;
}

/** A roll posted to chat (public: the table sees whom the dice picked and what they dealt). */
async function postedRoll(formula, flavor) {
  const roll = await new Roll(formula).evaluate();
  await post(roll, flavor, true);
  return roll.total;
}

/** The GM picks the combatant a "GM's choice" hits (DialogV2.prompt with a select). */
async function gmPicks(pool, names, dice) {
  const options = pool.map((id) => `<option value="${esc(id)}">${esc(names(id))}</option>`).join("");
  const picked = await foundry.applications.api.DialogV2.prompt({
    window: { title: t("Fight.PickTitle", { dice }) },
    content: `<select name="target">${options}</select>`,
    ok: { callback: (event, button) => button.form.elements.target.value },
    rejectClose: false,
  });
  return pool.includes(picked) ? picked : null;
}

/** Influence cards being applied in this browser now (a second click waits for nothing). */
const applying = new Set();

/** Applies the Influence card `message`'s effects to the active combat; posts the GM's card. */
export async function applyToFight(message, marks = null) {
  if (!game.user?.isGM) return ui.notifications?.warn(t("Fight.GmOnly"));
  if (applying.has(message.id)) return ui.notifications?.warn(t("Fight.AlreadyApplied"));
  applying.add(message.id);
  try {
    return await applyOnce(message, marks);
  } finally {
    applying.delete(message.id);
  }
}

async function applyOnce(message, marks) {
  const influence = message.getFlag(ID, "influence");
  const combat = game.combat;
  if (!combat) return ui.notifications?.warn(t("Fight.NoCombat"));
  const done = cardsAbout({ kind: "fight", source: message.id }).filter((m) => !m.getFlag(ID, "fight")?.undone);
  if (done.length) return ui.notifications?.warn(t("Fight.AlreadyApplied"));
  const combatants = new Map(combat.combatants.contents.map((c) => [c.id, c]));
  const list = [...combatants.values()].map(described);
  const names = (id) => list.find((c) => c.id === id)?.name ?? id;
  const group = groupAdvantage();
  const roll = marks ? rollOf(message) : null;
  const doneElsewhere = { ...(roll ? marks.of(roll) : {}) };
  // One step per effect, in order (planEffects): a step's index is its effect's.
  const planned = planEffects(influence?.effects, combatSides(list), { round: combat.round, groupAdvantage: group });
  const steps = planned.map((step, index) => ({ ...step, index })).filter((step) => !doneElsewhere[step.index]);
  const touched = new Set(steps.flatMap((s) => s.ids ?? s.pool ?? []));
  const before = {};
  for (const id of touched) before[id] = snapshot(combatants.get(id)?.actor, !group);
  const groups = group ? structuredClone(game.settings.get("wfrp4e", "groupAdvantageValues")) : null;
  const lines = [];
  const byHand = [];
  const due = [];
  const created = []; // the effects made on actors: {combatant, effect}, deleted by Undo
  const marked = []; // the effects applied here, marked done on the bridge: {effect, kind, done, result?}
  for (const step of steps) {
    // ticked on the page meanwhile (the GM's dialog for a damage may stay open a while): left out
    const late = roll ? marks.of(roll)[step.index] : null;
    if (late) {
      doneElsewhere[step.index] = late;
      continue;
    }
    const words = stepWords(step, names);
    const line = t(words.key, {
      ...words.data,
      side: words.data.side ? t(`Side.${words.data.side}`) : "",
      fighters: words.data.fighters === "gm_choice" ? t("Fight.GmChoice") : words.data.fighters,
    });
    try {
      const handled = await applyStep(step, combatants, names, created);
      if (step.op === "reinforcements")
        due.push({ combat: combat.id, due: step.due, side: step.side, fighters: step.fighters, from: combat.round });
      if (handled?.done) lines.push(handled.done);
      else if (handled?.byHand) byHand.push(handled.byHand);
      else (handled ? lines : byHand).push(line);
      if (handled === true || handled?.done) {
        const mark = { effect: step.index, kind: influence.effects[step.index].kind, done: true };
        marked.push(handled.done ? { ...mark, result: handled.done.slice(0, 200) } : mark);
      }
    } catch (error) {
      log.error("fight step failed", error);
      byHand.push(line);
    }
  }
  const html =
    `<h3>${esc(t("Fight.Applied"))}</h3>` +
    lines.map((line) => `<p>${esc(line)}</p>`).join("") +
    (byHand.length ? `<h4>${esc(t("Fight.ByHand"))}</h4>` + byHand.map((line) => `<p>${esc(line)}</p>`).join("") : "") +
    marksHtml(doneElsewhere, influence?.effects) +
    `<p><button type="button" data-bb-fight="undo">${esc(t("Fight.Undo"))}</button></p>`;
  const shared = roll && marked.length ? await share(marks, roll, marked) : [];
  return postCard(html, {
    gmOnly: true,
    about: { kind: "fight", source: message.id },
    flags: {
      fight: {
        combat: combat.id,
        round: combat.round,
        before,
        groups,
        due,
        created,
        undone: false,
        roll,
        marked: shared,
      },
    },
  });
}

/**
 * Marks on the bridge what was applied (or, `done: false`, takes the marks back); the marks
 * stored. An effect ticked on the page in the moment between (`already_marked`, naming it) is
 * said to the GM and left to the page's tick; the rest is sent again. Any other refusal: none.
 */
async function share(marks, roll, list) {
  let left = list;
  while (left.length) {
    try {
      await marks.send(roll, left);
      return left.map(({ effect, kind }) => ({ effect, kind }));
    } catch (error) {
      log.warn("marks not shared", error);
      ui.notifications?.warn(t("Fight.NotShared", { error: error?.message ?? String(error) }));
      const named = /^marks\[(\d+)\]/.exec(error?.field ?? "");
      if (error?.code !== "already_marked" || !named) return [];
      left = left.filter((_, index) => index !== Number(named[1]));
    }
  }
  return [];
}

/**
 * One step through the system's calls: true when done, false when the GM does it by hand (the
 * step's words then go to that list), or {done} / {byHand} with words of its own (a damage
 * says whom the dice picked and what they dealt).
 */
async function applyStep(step, combatants, names, created) {
  const actorOf = (id) => combatants.get(id)?.actor;
  switch (step.op) {
    case "advantage": {
      if (!wfrp()) return false;
      for (const id of step.ids) {
        const actor = actorOf(id);
        if (step.effect.gain !== undefined) await actor.modifyAdvantage(step.effect.gain);
        else await actor.setAdvantage(advantageAfter(actor.system.status.advantage.value, step.effect));
      }
      return true;
    }
    case "group_advantage": {
      // One actor's own call; the system sets its group's value (and every member's).
      const now = game.settings.get("wfrp4e", "groupAdvantageValues")[step.group];
      await actorOf(step.ids[0]).setAdvantage(advantageAfter(now, step.effect));
      return true;
    }
    case "damage": {
      let target;
      if (step.pick === "random") {
        const roll = await postedRoll(`1d${step.pool.length}`, t("Fight.PickRoll", { faces: step.pool.length }));
        target = pickByRoll(step.pool, roll);
      } else target = await gmPicks(step.pool, names, step.dice);
      if (!target) return false;
      const damage = await postedRoll(step.dice, t("Fight.DamageFlavor", { name: names(target), dice: step.dice }));
      // rolled and posted either way; the system's call where there is one, else the GM's hand
      const said = t("Fight.Damaged", { name: names(target), damage, dice: step.dice });
      if (!wfrp()) return { byHand: said };
      await actorOf(target).applyBasicDamage(damage, { loc: "roll" });
      return { done: said };
    }
    case "test": {
      if (!wfrp()) return false;
      const { skill, characteristic, difficulty, on_failure: failure } = step.effect;
      for (const id of step.ids) {
        const actor = actorOf(id);
        const context = { appendTitle: ` - ${t("Influence.DefaultTable")}`, skipTargets: true, fields: { difficulty } };
        const test = skill
          ? await actor.setupSkill(game.i18n.localize(SKILL_NAMES[skill]), context)
          : await actor.setupCharacteristic(characteristic, context);
        if (!test) continue; // the GM closed the dialog
        await test.roll();
        if (test.failed) await actor.addCondition(failure);
      }
      return true;
    }
    case "condition": {
      for (const id of step.ids) {
        const actor = actorOf(id);
        if (!knowsStatus(actor, step.condition)) return false;
        const had = conditionsOf(actor).find(([key]) => key === step.condition)?.[1] ?? 0;
        await changeCondition(actor, step.condition, had, had + 1);
      }
      return true;
    }
    case "modifier": {
      // WFRP4e: an effect on each combatant of the side for its rounds, whose "dialog" script
      // changes every test's modifier (the system's own Fatigued condition does the same:
      // src/system/config-wfrp4e.js statusEffects, scriptData trigger "dialog"); elsewhere a
      // reminder on the card.
      if (!wfrp()) return false;
      const name = t("Fight.ModifierEffect", { amount: step.amount });
      const data = {
        name,
        img: "icons/svg/downgrade.svg",
        duration: { rounds: step.rounds, startRound: game.combat?.round ?? 0, combat: game.combat?.id },
        system: {
          scriptData: [
            {
              trigger: "dialog",
              label: name,
              script: `args.fields.modifier += ${Number(step.amount)}`,
              options: { activateScript: "return true" },
            },
          ],
        },
        flags: { [ID]: { influence: true } },
      };
      for (const id of step.ids) {
        const [effect] = await actorOf(id).createEmbeddedDocuments("ActiveEffect", [data]);
        if (effect) created.push({ combatant: id, effect: effect.id });
      }
      return true;
    }
    case "reinforcements":
      return true; // announced on its round (fightRound)
    default:
      return false;
  }
}

/** Undo: every actor the fight card touched back to its record, the group's Advantage too. */
export async function undoFight(message, marks = null) {
  if (!game.user?.isGM) return ui.notifications?.warn(t("Fight.GmOnly"));
  const record = message.getFlag(ID, "fight");
  if (!record || record.undone) return null;
  const combat = game.combats?.get(record.combat);
  const actorOf = (id) => combat?.combatants.get(id)?.actor;
  if (record.groups) {
    for (const [group, value] of Object.entries(record.groups)) {
      const member = combat?.combatants.contents.find(
        (c) => (sideOf(described(c)) === "allies" ? "players" : "enemies") === group,
      );
      const now = game.settings.get("wfrp4e", "groupAdvantageValues")[group];
      if (member && now !== value) await member.actor.setAdvantage(value);
    }
  }
  for (const { combatant, effect } of record.created ?? []) {
    const actor = actorOf(combatant);
    if (actor?.effects.get(effect)) await actor.deleteEmbeddedDocuments("ActiveEffect", [effect]);
  }
  for (const [id, before] of Object.entries(record.before ?? {})) {
    const actor = actorOf(id);
    if (!actor) continue;
    // Again until nothing differs: the system's own side effects (losing unconscious adds
    // fatigued) show only after a change.
    for (let pass = 0; pass < 4; pass++) {
      const steps = restoreSteps(before, snapshot(actor, before.advantage !== undefined));
      if (!steps.length) break;
      for (const step of steps) {
        if (step.call === "condition") await changeCondition(actor, step.id, step.from, step.to);
        else if (step.call === "wounds") await actor.update({ "system.status.wounds.value": step.value });
        else await actor.update({ "system.status.advantage.value": step.value }, { skipGroupAdvantage: true });
      }
    }
  }
  if (marks && record.roll && record.marked?.length) {
    await share(
      marks,
      record.roll,
      record.marked.map(({ effect, kind }) => ({ effect, kind, done: false })),
    );
  }
  return message.update({
    [`flags.${ID}.fight.undone`]: true,
    content: message.content.replace(
      /<button[^>]*data-bb-fight="undo"[^>]*>.*?<\/button>/,
      `<em>${esc(t("Fight.Undone"))}</em>`,
    ),
  });
}

/**
 * Wires the card's buttons (hook renderChatMessageHTML); a player sees none of them. A GM sees
 * on an Influence card the effects done already (fight-marks.mjs).
 */
export function fightControls(message, html, marks = null) {
  const influence = message.getFlag?.(ID, "influence");
  const roll = influence && game.user?.isGM && marks ? rollOf(message) : null;
  if (roll)
    html
      ?.querySelector?.(".background-battle-card")
      ?.insertAdjacentHTML("beforeend", marksHtml(marks.of(roll), influence.effects));
  const buttons = html?.querySelectorAll?.("[data-bb-fight]") ?? [];
  for (const button of buttons) {
    if (!game.user?.isGM) {
      button.remove();
      continue;
    }
    button.addEventListener("click", async (event) => {
      event.preventDefault();
      button.disabled = true;
      try {
        const action = button.dataset.bbFight;
        if (action === "apply") await applyToFight(message, marks);
        else if (action === "join") await joinCombat(message);
        else await undoFight(message, marks);
      } catch (error) {
        log.error("apply to the fight failed", error);
        ui.notifications?.error(String(error?.message ?? error));
      } finally {
        button.disabled = false;
      }
    });
  }
}
