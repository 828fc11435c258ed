/**
 * The panel's set-up actions: a new battle, units from the selected tokens or the scene, tokens
 * linked and unlinked. The front (wiring.mjs, with the panel's own): `battle()`,
 * `foundryData()`, `command(order)`, `request(type, fields)`, `create(name)`,
 * `selectBattle(name)`; the panel's `proposal()`, `propose(sides)` and `render()`.
 */
import { t } from "./i18n.mjs";
import { readChecked, readNumbers, readText } from "./panel-input.mjs";
import { act, clear, plain } from "./panel-act.mjs";
import { createSides, proposeSides } from "./scene-sides.mjs";
import { markLinked, markUnlinked, selectedTokenDocuments } from "./tokens.mjs";
import { requestId } from "../client/bridge-client.mjs";
import { headCounts } from "./logic/head-counts.mjs";

/**
 * Adds tokens to a unit: their own marks first (so that they are right when the bridge's list
 * arrives), then the unit's list on the bridge with the head count of each token standing for
 * many (`fighters`: kept by the bridge for the GMs only); a refusal takes the new marks back.
 */
export async function linkToUnit(front, unit, docs, fighters = 1) {
  const current = front.foundryData()?.tokens?.[unit] ?? [];
  const joining = docs.filter((doc) => !current.includes(doc.uuid));
  await markLinked(docs, unit);
  const uuids = docs.map((doc) => doc.uuid);
  const ids = [...new Set([...current, ...uuids])];
  const counts = headCounts(front.foundryData()?.fighters?.[unit], ids, uuids, fighters);
  const ack = await front.request("tokens", { unit, token_ids: ids, fighters: counts });
  if (!ack) await markUnlinked(joining);
  return ack;
}

async function createBattle(front, form) {
  const name = readText(form, "newBattle");
  if (!name) throw new Error(t("Errors.required", { field: t("Panel.NewBattleName") }));
  const ack = await front.create(name);
  if (ack) {
    clear(form, "newBattle");
    await front.selectBattle(name);
  }
}

async function newUnit(front, form) {
  const docs = selectedTokenDocuments();
  const name = readText(form, "unitName");
  const side = readText(form, "unitSide");
  const oneForMany = readChecked(form, "oneForMany");
  const [strength, rating, headCount] = readNumbers(form, [
    ["unitStrength", "strength", t("Fields.strength")],
    ["unitRating", "rating", t("Fields.rating")],
    ["headCount", "fighters", t("Panel.HeadCount"), { required: oneForMany }],
  ]);
  if (!docs.length) throw new Error(t("Notices.select_tokens"));
  if (oneForMany && docs.length !== 1) throw new Error(t("Notices.select_one_token"));
  const fighters = oneForMany ? headCount : docs.length;
  const unit = `u-${requestId()}`.slice(0, 40);
  const order = { type: "add_unit", id: unit, name: name || docs[0].name, side, fighters };
  if (strength !== null) order.strength = strength;
  else if (rating !== null) Object.assign(order, { rating, size: readText(form, "unitSize") });
  else throw new Error(t("Errors.required", { field: t("Fields.strength") }));
  const ack = await front.command(order);
  if (!ack) return;
  await linkToUnit(front, unit, docs, oneForMany ? headCount : 1);
  clear(form, "unitName", "unitStrength", "unitRating", "headCount", "oneForMany");
}

async function linkSelected(front, form, target) {
  const docs = selectedTokenDocuments();
  if (!docs.length) throw new Error(t("Notices.select_tokens"));
  await linkToUnit(front, target.dataset.unit, docs);
}

async function unlinkSelected(front, form, target) {
  const unit = target.dataset.unit;
  const docs = selectedTokenDocuments();
  if (!docs.length) throw new Error(t("Notices.select_tokens"));
  const drop = new Set(docs.map((doc) => doc.uuid));
  const current = front.foundryData()?.tokens?.[unit] ?? [];
  const leaving = docs.filter((doc) => current.includes(doc.uuid));
  // The tokens' own marks first, so that they are right when the bridge's list arrives.
  await markUnlinked(leaving);
  const ids = current.filter((id) => !drop.has(id));
  const fighters = headCounts(front.foundryData()?.fighters?.[unit], ids);
  const ack = await front.request("tokens", { unit, token_ids: ids, fighters });
  if (!ack) await markLinked(leaving, unit);
}

/**
 * A side's modifiers as the GM typed them (every row shown, the new one when anything is typed
 * in it): a name each, percent and flat as whole numbers (blank: 0), every field at fault
 * refused at once.
 */
function typedModifiers(form, side, count) {
  const rows = [...Array.from({ length: count }, (_, i) => i), "new"];
  const typed = [];
  for (const index of rows) {
    const name = `mod-${side}-${index}`;
    const words = readText(form, `${name}-name`);
    const numbers = [readText(form, `${name}-percent`), readText(form, `${name}-flat`)];
    if (index === "new" && !words && numbers.every((n) => !n)) continue;
    const label = words || t("Panel.ModifierNew");
    const [percent, flat] = readNumbers(form, [
      [`${name}-percent`, "percent", `${label}: ${t("Panel.ModifierPercent")}`],
      [`${name}-flat`, "flat", `${label}: ${t("Panel.ModifierFlat")}`],
    ]);
    if (!words) {
      form.querySelector(`[name="${name}-name"]`)?.focus();
      throw new Error(t("Errors.required", { field: t("Panel.ModifierName") }));
    }
    typed.push({ name: words, percent: percent ?? 0, flat: flat ?? 0 });
  }
  return typed;
}

/** Saves a side's modifiers: the rows as edited, and the new one (the core replaces the list). */
async function saveModifiers(front, form, target) {
  const side = target.dataset.side;
  const count = front.view()?.sides?.[side]?.modifiers?.length ?? 0;
  const modifiers = typedModifiers(form, side, count);
  const ack = await front.command({ type: "set_modifiers", side, modifiers });
  if (!ack) return;
  const fields = [...Array.from({ length: count }, (_, i) => i), "new"].flatMap((i) =>
    ["name", "percent", "flat"].map((part) => `mod-${side}-${i}-${part}`),
  );
  clear(form, ...fields);
}

/** Removes one modifier of a side: the list as stored, without it. */
async function removeModifier(front, form, target) {
  const { side, index } = target.dataset;
  const stored = front.view()?.sides?.[side]?.modifiers ?? [];
  const modifiers = stored.filter((_, i) => String(i) !== index);
  const ack = await front.command({ type: "set_modifiers", side, modifiers });
  if (ack) clear(form, ...stored.flatMap((_, i) => ["name", "percent", "flat"].map((p) => `mod-${side}-${i}-${p}`)));
}

/** Both sides from the scene: a proposal the GM confirms (nothing is sent before). */
function sceneSides(front, form) {
  const by = readText(form, "sceneGroupBy") || "actor";
  const linked = new Set(Object.values(front.foundryData()?.tokens ?? {}).flat());
  let sides = proposeSides(by, linked);
  if (!sides.allies.length && !sides.enemies.length) {
    sides = null;
    ui.notifications.warn(t("Scene.NoTokens"));
  }
  front.propose(sides);
  front.render();
}

function sceneCancel(front) {
  front.propose(null);
  front.render();
}

async function sceneConfirm(front, form) {
  const done = await createSides(front, front.proposal(), form, linkToUnit);
  if (!done) return null;
  front.propose(null);
  front.render();
  return ['[data-action="start"]'];
}

export const SET_UP_ACTIONS = {
  createBattle: act("setUp", createBattle),
  newUnit: act("setUp", newUnit),
  linkSelected: act("setUp", linkSelected),
  unlinkSelected: act("setUp", unlinkSelected),
  sceneSides: plain("setUp", sceneSides),
  sceneConfirm: act("setUp", sceneConfirm),
  sceneCancel: plain("setUp", sceneCancel),
  saveModifiers: act("setUp", saveModifiers),
  removeModifier: act("setUp", removeModifier),
};
