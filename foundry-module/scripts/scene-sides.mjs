/**
 * Both sides from the scene in one click: friendly tokens (or, when tokens are selected, the
 * selected ones) become the allies' units and hostile ones the enemies', grouped by actor or by
 * name (logic/scene-sides.mjs); the GM types each unit's strength and confirms once. Also: the
 * tokens an Actor or Token drop on a unit stands for.
 */
import { hasStatus } from "./conditions.mjs";
import { sidesFromTokens } from "./logic/scene-sides.mjs";
import { requestId } from "../client/bridge-client.mjs";
import { t } from "./i18n.mjs";
import { readNumbers } from "./panel-input.mjs";

function sceneTokens() {
  const selected = (canvas?.tokens?.controlled ?? []).map((token) => token.document);
  return selected.length ? selected : [...(canvas?.scene?.tokens?.contents ?? [])];
}

/**
 * The proposal: {allies: [unit], enemies: [unit]}, each unit {key, name, side, tokens, fighters}.
 * Tokens already fighting in a unit of the battle (`linked`: their UUIDs, from the bridge's
 * lists) are left out.
 */
export function proposeSides(by = "actor", linked = new Set()) {
  const free = sceneTokens().filter((doc) => !linked.has(doc.uuid));
  const descriptors = free.map((doc) => ({
    id: doc.uuid,
    name: doc.name,
    actorId: doc.actorId ?? doc.actor?.id ?? null,
    actorName: doc.actor?.name ?? doc.name,
    disposition: doc.disposition,
    dead: hasStatus(doc.actor, "dead"),
  }));
  return sidesFromTokens(descriptors, { by });
}

/**
 * Creates every proposed unit (strength as typed, required) and links its tokens. Returns true
 * when all were made; a missing strength is refused before anything is sent. `front`: the
 * panel's set-up front (`command(order)`, and what `linkToUnit(front, unit, docs)` uses).
 */
export async function createSides(front, proposal, form, linkToUnit) {
  const units = ["allies", "enemies"].flatMap((side) => proposal[side].map((unit, i) => ({ unit, side, i })));
  // every strength missing or mistyped is named at once, before anything is sent
  const strengths = readNumbers(
    form,
    units.map(({ unit, side, i }) => [
      `sceneStrength-${side}-${i}`,
      "strength",
      t("Scene.Strength", { name: unit.name }),
      { required: true },
    ]),
  );
  const orders = units.map(({ unit, side }, n) => {
    const strength = strengths[n];
    const id = `u-${requestId()}`.slice(0, 40);
    return { unit, order: { type: "add_unit", id, name: unit.name, side, fighters: unit.fighters, strength } };
  });
  for (const { unit, order } of orders) {
    const ack = await front.command(order);
    if (!ack) return false;
    const docs = unit.tokens.map((uuid) => foundry.utils.fromUuidSync(uuid)).filter(Boolean);
    await linkToUnit(front, order.id, docs);
  }
  return true;
}

/** The token documents a drop stands for: a Token, or an Actor's tokens on the scene. */
export function tokensDropped(event) {
  let data;
  try {
    data = JSON.parse(event.dataTransfer?.getData("text/plain") || "null");
  } catch {
    return [];
  }
  if (data?.type === "Token" && data.uuid) {
    const doc = foundry.utils.fromUuidSync(data.uuid);
    return doc?.documentName === "Token" ? [doc] : [];
  }
  if (data?.type === "Actor" && data.uuid) {
    const actorId = String(data.uuid).split(".").pop();
    return [...(canvas?.scene?.tokens?.contents ?? [])].filter((doc) => (doc.actorId ?? doc.actor?.id) === actorId);
  }
  return [];
}
