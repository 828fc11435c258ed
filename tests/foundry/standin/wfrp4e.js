// The WFRP4e system's conditions, as its public source has them (read for facts, not copied):
// - moo-man/WFRP4e-FoundryVTT src/system/config-wfrp4e.js: `statusEffects`, which conditions
//   are numbered (a value that adds up) and that dead is an overlay;
// - moo-man/WFRP4e-FoundryVTT src/hooks/ready.js: CONFIG.statusEffects = that list;
// - moo-man/WFRP4e-FoundryVTT src/documents/actor.js: addCondition, removeCondition,
//   toggleStatusEffect (their side effects: unconscious adds prone, losing unconscious adds
//   fatigued, a numbered condition reaching 0 from bleeding/poisoned/broken/stunned adds
//   fatigued);
// - moo-man/WarhammerLibrary-FVTT src/document/mixin.js: hasCondition (the effect whose key,
//   its first status, is the id); src/system/effect-wfrp4e.js: isNumberedCondition,
//   conditionValue.
import { ActiveEffect, Actor } from "./documents.js";
import { record } from "./record.js";

const NUMBERED = [
  "bleeding",
  "poisoned",
  "ablaze",
  "deafened",
  "stunned",
  "entangled",
  "fatigued",
  "blinded",
  "broken",
];
const PLAIN = ["prone", "surprised", "unconscious", "grappling", "engaged", "dead"];

/** game.wfrp4e.config.statusEffects (config-wfrp4e.js), in the shape the actor reads. */
export const WFRP_STATUS_EFFECTS = [
  ...NUMBERED.map((id) => ({
    id,
    statuses: [id],
    name: `WFRP4E.ConditionName.${id}`,
    system: { condition: { value: 1, numbered: true } },
  })),
  ...PLAIN.map((id) => ({
    id,
    statuses: [id],
    name: `WFRP4E.ConditionName.${id}`,
    system: { condition: { value: null, numbered: false } },
    ...(id === "dead" ? { flags: { core: { overlay: true } } } : {}),
  })),
];

/** Conditions whose end adds fatigued (actor.js removeCondition; `mooConditions` homebrew off). */
const FATIGUE_AT_ZERO = ["bleeding", "poisoned", "broken"];

/** A condition's effect: its key is its first status (effect-wfrp4e.js, WarhammerLibrary). */
class WfrpEffect extends ActiveEffect {
  get key() {
    return [...this.statuses][0];
  }
  get isNumberedCondition() {
    return Boolean(this.system.condition?.numbered);
  }
  get conditionValue() {
    return this.system.condition?.value;
  }
}

export class WfrpActor extends Actor {
  static Effect = WfrpEffect;

  /** WarhammerLibrary mixin.js hasCondition: the condition's effect, or undefined. */
  hasCondition(key) {
    return this.effects.find((e) => e.key === key);
  }

  /** The module's call is recorded; the system's own nested calls are not. */
  async addCondition(id, value = 1, mergeData = {}) {
    record.conditions.push({ actor: this.uuid, call: "addCondition", id, value });
    return this.#add(id, value, mergeData);
  }

  async removeCondition(id, value = 1) {
    record.conditions.push({ actor: this.uuid, call: "removeCondition", id, value });
    return this.#remove(id, value);
  }

  /** actor.js toggleStatusEffect: numbered conditions go up (or down with overlay); the rest
   * go to core's toggle, whose promise it does not return. */
  async toggleStatusEffect(statusId, { active, overlay = false } = {}) {
    const config = game.wfrp4e.config.statusEffects.find((e) => e.id === statusId);
    if (config?.system?.condition?.numbered) {
      if (overlay) this.removeCondition(statusId);
      else this.addCondition(statusId);
    } else super.toggleStatusEffect(statusId, { active, overlay });
  }

  async #add(id, value, mergeData) {
    if (value === 0) return undefined;
    const config = game.wfrp4e.config.statusEffects.find((e) => e.id === id);
    if (!config) return "No Effect Found";
    const effect = structuredClone(config);
    const existing = this.hasCondition(id);
    if (existing && !existing.isNumberedCondition) return existing;
    if (existing) {
      return existing.update({ ...mergeData, "system.condition.value": existing.conditionValue + value });
    }
    if (effect.system.condition.numbered) effect.system.condition.value = value;
    if (id === "unconscious") await this.#add("prone", 1, {});
    delete effect.id;
    return this.createEmbeddedDocuments("ActiveEffect", [effect], { condition: true });
  }

  async #remove(id, value) {
    const config = game.wfrp4e.config.statusEffects.find((e) => e.id === id);
    if (!config) return "No Effect Found";
    if (value === 0) return undefined;
    const existing = this.hasCondition(id);
    if (existing && !existing.isNumberedCondition) {
      if (id === "unconscious") await this.#add("fatigued", 1, {});
      return existing.delete();
    }
    if (!existing) return undefined;
    await existing.update({ "system.condition.value": existing.conditionValue - value });
    const zero = existing.conditionValue === 0;
    if (zero && (FATIGUE_AT_ZERO.includes(id) || (id === "stunned" && !this.hasCondition("fatigued")))) {
      await this.#add("fatigued", 1, {});
    }
    if (existing.conditionValue <= 0) return existing.delete();
    return undefined;
  }
}
