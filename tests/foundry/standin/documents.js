// Foundry VTT v13 and v14 documents the module touches: Actor (status effects), TokenDocument,
// Scene, as the public API documents them (foundryvtt.com/api/v13, /api/v14). Written from the
// docs only; what differs per generation is in generations.js.
import { record, refuse } from "./record.js";
import { isDeletion, isLegacyDeletion, statusConfig } from "./generations.js";

/**
 * Where a write goes: the world's server (server.js; foundry-standin.js connects it). A document
 * changes when the server has committed the write, on every client alike (`committed` below).
 */
export const world = {
  write: async () => {
    throw new Error("stand-in: the world's server is not connected");
  },
};

/** foundry.utils.randomID(16): a document's id, made by the client that creates it. */
export function randomID(length = 16) {
  const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  return Array.from(crypto.getRandomValues(new Uint8Array(length)), (n) => chars[n % chars.length]).join("");
}

/** Every actor of this page by uuid (a world actor, or a token's synthetic one). */
export const actorsByUuid = new Map();

export function isObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function mergeInto(target, source) {
  for (const [key, value] of Object.entries(source)) {
    if (isDeletion(value)) delete target[key];
    else if (isLegacyDeletion(key)) delete target[key.slice(2)];
    else if (isObject(value) && isObject(target[key])) mergeInto(target[key], value);
    else target[key] = structuredClone(value);
  }
}

/**
 * A document update on source data: dotted keys, objects merge
 * (foundryvtt.com/api/v13/classes/foundry.abstract.Document.html#update, "Differential updates");
 * "-=key" deletes (deprecated in v14), and in v14 a ForcedDeletion value does (generations.js).
 */
export function applyUpdate(target, update) {
  for (const [key, value] of Object.entries(update)) {
    if (key === "_id") continue;
    const parts = key.split(".");
    let node = target;
    for (const part of parts.slice(0, -1)) {
      if (!isObject(node[part])) node[part] = {};
      node = node[part];
    }
    const last = parts.at(-1);
    if (isDeletion(value)) delete node[last];
    else if (isLegacyDeletion(last)) delete node[last.slice(2)];
    else if (isObject(value) && isObject(node[last])) mergeInto(node[last], value);
    else node[last] = structuredClone(value);
  }
}

/** foundry.utils.Collection: a Map whose iterator yields values. */
export class Collection extends Map {
  get contents() {
    return [...this.values()];
  }
  [Symbol.iterator]() {
    return this.values();
  }
  filter(fn) {
    return this.contents.filter(fn);
  }
  find(fn) {
    return this.contents.find(fn);
  }
  some(fn) {
    return this.contents.some(fn);
  }
  map(fn) {
    return this.contents.map(fn);
  }
}

/**
 * Foundry v13's default CONFIG.statusEffects ids (a system may replace the list:
 * foundryvtt.com/api/v13/variables/CONFIG.statusEffects.html).
 */
export const CORE_STATUS_IDS = [
  "dead",
  "unconscious",
  "sleep",
  "stun",
  "prone",
  "restrain",
  "paralysis",
  "fly",
  "blind",
  "deaf",
  "silence",
  "fear",
  "burning",
  "frozen",
  "shock",
  "corrode",
  "bleeding",
  "disease",
  "poison",
  "curse",
  "regen",
  "degen",
  "hover",
  "burrow",
  "upgrade",
  "downgrade",
  "invisible",
  "target",
  "eye",
  "bless",
  "fireShield",
  "coldShield",
  "magicShield",
  "holyShield",
];

let effectCount = 0;

/** An ActiveEffect as far as statuses go: `statuses`, `flags.core.overlay`, `system`. */
export class ActiveEffect {
  constructor(parent, data) {
    effectCount += 1;
    this.id = data._id ?? `ae${effectCount}`;
    this.parent = parent;
    this.name = data.name ?? "";
    this.statuses = new Set(data.statuses ?? []);
    this.flags = structuredClone(data.flags ?? {});
    this.system = structuredClone(data.system ?? {});
  }
  async delete() {
    return this.parent.deleteEmbeddedDocuments("ActiveEffect", [this.id]).then(([e]) => e);
  }
  /** Document#update: the change goes to the server; the effect changes once committed. */
  async update(change) {
    if (!this.parent.effects.has(this.id)) refuse(`ActiveEffect ${this.id} does not exist in ${this.parent.uuid}`);
    await world.write({
      collection: "ActiveEffect",
      parent: this.parent.uuid,
      op: "update",
      data: [{ ...change, _id: this.id }],
    });
    return this;
  }
}

/** An effect's source as it travels to the server (statuses as a list). */
function effectSource(data) {
  return {
    _id: data._id ?? randomID(),
    name: data.name ?? "",
    statuses: [...(data.statuses ?? [])],
    flags: structuredClone(data.flags ?? {}),
    system: structuredClone(data.system ?? {}),
  };
}

let actorCount = 0;

/**
 * Actor: `statuses` (the ids of its effects' statuses) and `toggleStatusEffect`
 * (foundryvtt.com/api/v13/classes/foundry.documents.Actor.html#togglestatuseffect).
 * `token`: the token of a synthetic (unlinked) actor, null for a world actor.
 */
export class Actor {
  static Effect = ActiveEffect;

  /** `id`: a synthetic actor has its base actor's id (its uuid tells it apart). */
  constructor(name, token = null, id = null) {
    actorCount += 1;
    this.id = id ?? `actor${actorCount}`;
    this.name = name;
    this.token = token;
    this.effects = new Collection();
    this.statuses = new Set();
    actorsByUuid.set(this.uuid, this);
  }
  get documentName() {
    return "Actor";
  }
  get uuid() {
    return this.token ? `${this.token.uuid}.Actor.${this.id}` : `Actor.${this.id}`;
  }
  get isToken() {
    return Boolean(this.token);
  }
  /** Actor#statuses is derived from the actor's effects (Actor#prepareData). */
  onEffectsChanged(op, effect) {
    this.statuses = new Set(this.effects.contents.flatMap((e) => [...e.statuses]));
    for (const status of effect.statuses) record.effects.push({ actor: this.uuid, op, status });
  }
  /** Document#createEmbeddedDocuments: made on the server, here once committed. */
  async createEmbeddedDocuments(name, data) {
    if (name !== "ActiveEffect") refuse(`stand-in: Actor has no embedded ${name}`);
    const sources = data.map(effectSource);
    await world.write({ collection: "ActiveEffect", parent: this.uuid, op: "create", data: sources });
    return sources.map((source) => this.effects.get(source._id)).filter(Boolean);
  }
  async deleteEmbeddedDocuments(name, ids) {
    if (name !== "ActiveEffect") refuse(`stand-in: Actor has no embedded ${name}`);
    const gone = ids.map((id) => this.effects.get(id) ?? refuse(`ActiveEffect ${id} does not exist in ${this.uuid}`));
    await world.write({ collection: "ActiveEffect", parent: this.uuid, op: "delete", data: [...ids] });
    return gone;
  }
  /** A committed write of this actor's effects (this client's or another's). */
  committed(op, data) {
    for (const item of data) {
      if (op === "create") {
        const effect = new this.constructor.Effect(this, item);
        this.effects.set(effect.id, effect);
        this.onEffectsChanged("create", effect);
      } else if (op === "delete") {
        const effect = this.effects.get(item);
        if (!effect) continue;
        this.effects.delete(item);
        this.onEffectsChanged("delete", effect);
      } else if (op === "update") {
        const effect = this.effects.get(item._id);
        if (!effect) continue;
        applyUpdate(effect, item);
        this.onEffectsChanged("update", effect);
      }
    }
  }
  /**
   * Core Actor#toggleStatusEffect(statusId, {active, overlay}): the id must be one of
   * CONFIG.statusEffects, else it throws (the list is the system's: it may lack an id).
   * Resolves to the new ActiveEffect, true (already there), false (removed) or undefined.
   */
  async toggleStatusEffect(statusId, { active, overlay = false } = {}) {
    record.conditions.push({ actor: this.uuid, call: "toggleStatusEffect", id: statusId, active, overlay });
    const config = statusConfig(CONFIG.statusEffects, statusId);
    if (!config) refuse(`Invalid status ID "${statusId}" provided to Actor#toggleStatusEffect`);
    const existing = this.effects.filter((e) => e.statuses.has(statusId));
    const on = active ?? !existing.length;
    if (on && existing.length) {
      if (!overlay) return true;
      await existing[0].update({ "flags.core.overlay": true });
      return true;
    }
    if (!on && !existing.length) return undefined;
    if (!on) {
      await this.deleteEmbeddedDocuments(
        "ActiveEffect",
        existing.map((e) => e.id),
      );
      return false;
    }
    const [effect] = await this.createEmbeddedDocuments("ActiveEffect", [
      { name: config.name ?? statusId, statuses: [statusId], flags: overlay ? { core: { overlay: true } } : {} },
    ]);
    return effect;
  }
}

/**
 * TokenDocument: a linked token's `actor` is the world actor (shared by every token linked to
 * it); an unlinked token has a synthetic actor of its own
 * (foundryvtt.com/api/v13/classes/foundry.documents.TokenDocument.html#actorlink).
 */
export class TokenDocument {
  constructor(scene, id, name, makeActor) {
    this.parent = scene;
    this._source = { _id: id, name, flags: {}, actorLink: false };
    this.actor = makeActor(name, this);
  }
  get documentName() {
    return "Token";
  }
  get id() {
    return this._source._id;
  }
  get name() {
    return this._source.name;
  }
  get flags() {
    return this._source.flags;
  }
  get actorLink() {
    return this._source.actorLink;
  }
  /** TokenDocument#actorId: the base actor's id; #disposition: CONST.TOKEN_DISPOSITIONS. */
  get actorId() {
    return this.actor?.id ?? null;
  }
  get disposition() {
    return this._source.disposition ?? 1;
  }
  get uuid() {
    return `Scene.${this.parent.id}.Token.${this.id}`;
  }
  /** Links the token to a world actor (the token's own synthetic actor is gone). */
  linkTo(actor) {
    this._source.actorLink = true;
    this.actor = actor;
  }
  /** Document#getFlag: the scope must be "core", the system's id or an active module's id. */
  getFlag(scope, key) {
    const valid = scope === "core" || scope === game.system.id || game.modules.get(scope)?.active;
    if (!valid) refuse(`Flag scope "${scope}" is not valid or not currently active`);
    return structuredClone(this._source.flags?.[scope]?.[key]);
  }
}

export class Scene {
  constructor(id, name) {
    this.id = id;
    this.name = name;
    this.tokens = new Collection();
  }
  get documentName() {
    return "Scene";
  }
  get uuid() {
    return `Scene.${this.id}`;
  }
  /**
   * Document#updateEmbeddedDocuments(embeddedName, updates): one batch, every update naming an
   * existing document by `_id`, a token's name a non-empty string; all or nothing. The batch goes
   * to the world's server; the tokens change (here and on every client) once it is committed.
   */
  async updateEmbeddedDocuments(embeddedName, updates) {
    if (embeddedName !== "Token") refuse(`stand-in: no ${embeddedName} in a Scene here`);
    for (const update of updates) {
      if (!this.tokens.has(update._id)) refuse(`Token "${update._id}" does not exist in Scene ${this.id}`);
      if ("name" in update && (typeof update.name !== "string" || !update.name)) {
        refuse(`Token ${update._id}: name must be a non-empty string`);
      }
    }
    // As they travel (JSON): a v14 operator in its wire form (generations.js).
    const sent = JSON.parse(JSON.stringify(updates));
    record.updates.push({ type: embeddedName, updates: sent });
    await world.write({ collection: "Token", parent: this.uuid, op: "update", data: sent });
    return updates.map((update) => this.tokens.get(update._id)).filter(Boolean);
  }

  /** A committed update of tokens (this client's or another's): the documents change (a token a
   * test made on one page only is not on the others). */
  fromServer(updates) {
    return updates
      .map((update) => {
        const doc = this.tokens.get(update._id);
        if (doc) applyUpdate(doc._source, update);
        return doc;
      })
      .filter(Boolean);
  }
}
