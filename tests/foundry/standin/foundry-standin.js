// A small stand-in for the few documented Foundry VTT v13 calls the module makes, so that the
// module's real files run in Chromium without Foundry. It is written from the public API docs
// (foundryvtt.com/api/v13), not from Foundry's source. It records every write for the tests.
//
// Query parameters: user (id of this user), gm (1: this user is a GM), active (id of the active
// GM), system (game system id, e.g. wfrp4e), url, gmToken, playerToken, battle, tokens (how many
// tokens on the scene), lang.
"use strict";

(() => {
  const params = new URLSearchParams(window.location.search);
  const record = {
    updates: [], // every updateEmbeddedDocuments call: {type, updates}
    conditions: [], // every condition call: {actor, call, id, active}
    chat: [], // ChatMessage.create data
    notices: [], // {level, text}
    settingsSet: [], // game.settings.set calls
  };

  // --- Hooks ---------------------------------------------------------------------------------
  const hooks = new Map();
  const Hooks = {
    on(name, fn) {
      if (!hooks.has(name)) hooks.set(name, []);
      hooks.get(name).push({ fn, once: false });
      return fn;
    },
    once(name, fn) {
      if (!hooks.has(name)) hooks.set(name, []);
      hooks.get(name).push({ fn, once: true });
      return fn;
    },
    off(name, fn) {
      hooks.set(name, (hooks.get(name) ?? []).filter((h) => h.fn !== fn));
    },
    callAll(name, ...args) {
      for (const h of [...(hooks.get(name) ?? [])]) {
        if (h.once) Hooks.off(name, h.fn);
        h.fn(...args);
      }
      return true;
    },
    call(name, ...args) {
      for (const h of [...(hooks.get(name) ?? [])]) {
        if (h.once) Hooks.off(name, h.fn);
        if (h.fn(...args) === false) return false;
      }
      return true;
    },
  };

  // --- utilities -----------------------------------------------------------------------------
  function isObject(v) {
    return v !== null && typeof v === "object" && !Array.isArray(v);
  }

  /** Foundry-style update of one document's source: dotted keys, "-=key" deletes, objects merge. */
  function applyUpdate(target, update) {
    for (const [key, value] of Object.entries(update)) {
      if (key === "_id") continue;
      const parts = key.split(".");
      let node = target;
      for (const part of parts.slice(0, -1)) {
        if (!isObject(node[part])) node[part] = {};
        node = node[part];
      }
      const last = parts.at(-1);
      if (last.startsWith("-=")) delete node[last.slice(2)];
      else if (isObject(value) && isObject(node[last])) mergeInto(node[last], value);
      else node[last] = structuredClone(value);
    }
  }

  function mergeInto(target, source) {
    for (const [key, value] of Object.entries(source)) {
      if (isObject(value) && isObject(target[key])) mergeInto(target[key], value);
      else target[key] = structuredClone(value);
    }
  }

  class Collection extends Map {
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
  }

  // --- documents -----------------------------------------------------------------------------
  class Actor {
    constructor(id, name) {
      this.id = id;
      this.name = name;
      this.statuses = new Set();
    }
    /** Actor#toggleStatusEffect(statusId, {active, overlay}) */
    async toggleStatusEffect(statusId, { active } = {}) {
      const on = active === undefined ? !this.statuses.has(statusId) : Boolean(active);
      record.conditions.push({ actor: this.id, call: "toggleStatusEffect", id: statusId, active: on });
      if (on) this.statuses.add(statusId);
      else this.statuses.delete(statusId);
      return on;
    }
  }

  /** The WFRP4e system's condition calls on its actor class. */
  class WfrpActor extends Actor {
    hasCondition(id) {
      return this.statuses.has(id) ? { id, statuses: new Set([id]) } : undefined;
    }
    async addCondition(id, value = 1) {
      record.conditions.push({ actor: this.id, call: "addCondition", id, value });
      this.statuses.add(id);
    }
    async removeCondition(id, value = 1) {
      record.conditions.push({ actor: this.id, call: "removeCondition", id, value });
      this.statuses.delete(id);
    }
    async toggleStatusEffect() {
      throw new Error("the WFRP4e path must use addCondition/removeCondition");
    }
  }

  class TokenDocument {
    constructor(scene, id, name, actor) {
      this.parent = scene;
      this._source = { _id: id, name, flags: {} };
      this.actor = actor;
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
    /** TokenDocument#disposition (CONST.TOKEN_DISPOSITIONS) and #actorId (API docs, v13). */
    get disposition() {
      return this._source.disposition ?? 1;
    }
    get actorId() {
      return this.actor?.id ?? null;
    }
    get uuid() {
      return `Scene.${this.parent.id}.Token.${this.id}`;
    }
    getFlag(scope, key) {
      return structuredClone(this._source.flags?.[scope]?.[key]);
    }
  }

  class Scene {
    constructor(id, name) {
      this.id = id;
      this.name = name;
      this.tokens = new Collection();
    }
    get documentName() {
      return "Scene";
    }
    /** Document#updateEmbeddedDocuments(embeddedName, updates): one batch. */
    async updateEmbeddedDocuments(embeddedName, updates) {
      if (embeddedName !== "Token") throw new Error(`stand-in: no ${embeddedName} here`);
      record.updates.push({ type: embeddedName, updates: structuredClone(updates) });
      const changed = [];
      for (const update of updates) {
        const doc = this.tokens.get(update._id);
        if (!doc) throw new Error(`no token ${update._id}`);
        applyUpdate(doc._source, update);
        changed.push(doc);
      }
      return changed;
    }
  }

  class TableResult {
    constructor(data) {
      Object.assign(this, { type: "text", name: "", description: "", weight: 1 }, data);
    }
  }

  class RollTable {
    constructor(data) {
      this.id = data._id ?? `rt${game.tables.size + 1}`;
      this.name = data.name;
      this.formula = data.formula;
      this.results = new Collection((data.results ?? []).map((r, i) => [`r${i}`, new TableResult(r)]));
    }
    get uuid() {
      return `RollTable.${this.id}`;
    }
    static async create(data) {
      const table = new RollTable(data);
      game.tables.set(table.id, table);
      return table;
    }
    /** RollTable#getResultsForRoll(value) */
    getResultsForRoll(value) {
      return this.results.filter((r) => r.range[0] <= value && value <= r.range[1]);
    }
  }

  class ChatMessage {
    static async create(data) {
      record.chat.push(structuredClone(data));
      return { id: `m${record.chat.length}`, ...data };
    }
    static getWhisperRecipients(name) {
      return name === "GM" ? game.users.filter((u) => u.isGM) : [];
    }
  }

  // --- ApplicationV2 (the documented subclass hooks only) ------------------------------------
  const instances = new Map();

  class ApplicationV2 {
    static DEFAULT_OPTIONS = {};
    #element = null;
    #content = null;
    #rendered = false;
    #queue = Promise.resolve();

    constructor(options = {}) {
      const defaults = this.constructor.DEFAULT_OPTIONS ?? {};
      this.options = { ...defaults, ...options, window: { ...defaults.window, ...options.window } };
    }
    get id() {
      return this.options.id;
    }
    get element() {
      return this.#element;
    }
    get rendered() {
      return this.#rendered;
    }
    render(options = {}) {
      this.#queue = this.#queue.then(() => this.#render(options)).catch((e) => console.error(e));
      return this.#queue.then(() => this);
    }
    async #render(options) {
      if (!this.#rendered && !options.force) return;
      const context = await this._prepareContext(options);
      const result = await this._renderHTML(context, options);
      if (!this.#element) {
        const frame = document.createElement(this.options.tag ?? "div");
        frame.id = this.id;
        frame.className = ["application", ...(this.options.classes ?? [])].join(" ");
        const title = game.i18n.localize(this.options.window?.title ?? "");
        frame.innerHTML = `<header class="window-header"><h1>${title}</h1></header><div class="window-content"></div>`;
        this.#content = frame.querySelector(".window-content");
        frame.addEventListener("click", (event) => {
          const target = event.target.closest("[data-action]");
          if (!target || !frame.contains(target)) return;
          const handler = this.options.actions?.[target.dataset.action];
          if (handler) handler.call(this, event, target);
        });
        document.getElementById("ui").append(frame);
        this.#element = frame;
        instances.set(this.id, this);
      }
      this._replaceHTML(result, this.#content, options);
      this.#rendered = true;
      this._onRender(context, options);
    }
    async close(options = {}) {
      this.#element?.remove();
      this.#element = null;
      this.#rendered = false;
      instances.delete(this.id);
      this._onClose(options);
      return this;
    }
    async _prepareContext() {
      return {};
    }
    _onRender() {}
    _onClose() {}
  }

  // --- the world -----------------------------------------------------------------------------
  const userId = params.get("user") ?? "gm1";
  const users = new Collection();
  for (const [id, name, isGM] of [
    ["gm1", "Game Master", true],
    ["gm2", "Assistant GM", true],
    ["player1", "Player", false],
  ]) {
    users.set(id, { id, name, isGM, active: true });
  }
  const activeId = params.get("active") ?? "gm1";
  Object.defineProperty(users, "activeGM", { get: () => users.get(activeId) ?? null });

  const systemId = params.get("system") ?? "generic";
  const scene = new Scene("scene1", "Battlefield");
  const tokenCount = Number(params.get("tokens") ?? 4);
  for (let i = 1; i <= tokenCount; i++) {
    const ActorClass = systemId === "wfrp4e" ? WfrpActor : Actor;
    const actor = new ActorClass(`actor${i}`, `Soldier ${i}`);
    scene.tokens.set(`tok${i}`, new TokenDocument(scene, `tok${i}`, `Soldier ${i}`, actor));
  }

  const stored = new Map([
    ["background-battle.bridgeUrl", params.get("url")],
    ["background-battle.gmToken", params.get("gmToken")],
    ["background-battle.playerToken", params.get("playerToken")],
    ["background-battle.battle", params.get("battle")],
  ]);
  const registered = new Map();
  const settings = {
    register(scope, key, config) {
      registered.set(`${scope}.${key}`, config);
    },
    get(scope, key) {
      const full = `${scope}.${key}`;
      if (!registered.has(full)) throw new Error(`setting ${full} is not registered`);
      const value = stored.get(full);
      return value === null || value === undefined ? registered.get(full).default : value;
    },
    async set(scope, key, value) {
      const full = `${scope}.${key}`;
      if (!registered.has(full)) throw new Error(`setting ${full} is not registered`);
      if (registered.get(full).scope === "world" && !game.user.isGM) {
        throw new Error(`${game.user.name} may not change the world setting ${full}`);
      }
      record.settingsSet.push({ key: full, value });
      stored.set(full, value);
      registered.get(full).onChange?.(value);
      return value;
    },
  };

  let strings = {};
  const lookup = (key) => key.split(".").reduce((node, part) => node?.[part], strings);
  const i18n = {
    lang: params.get("lang") ?? "en",
    has: (key) => typeof lookup(key) === "string",
    localize: (key) => (typeof lookup(key) === "string" ? lookup(key) : key),
    format: (key, data = {}) =>
      i18n.localize(key).replace(/\{(\w+)\}/g, (m, name) => (name in data ? String(data[name]) : m)),
  };

  const game = {
    ready: false,
    system: { id: systemId },
    user: users.get(userId),
    users,
    settings,
    i18n,
    tables: new Collection(),
    modules: new Map([["background-battle", { id: "background-battle", active: true }]]),
  };

  const notify = (level) => (text) => {
    record.notices.push({ level, text });
    const li = document.createElement("li");
    li.className = `notification ${level}`;
    li.textContent = text;
    document.getElementById("notifications").append(li);
  };

  const controlled = [];
  Object.assign(window, {
    Hooks,
    game,
    ui: { notifications: { info: notify("info"), warn: notify("warning"), error: notify("error") } },
    canvas: { scene, tokens: { controlled } },
    ChatMessage,
    RollTable,
    CONST: { TABLE_RESULT_TYPES: { TEXT: "text", DOCUMENT: "document" } },
    foundry: {
      applications: { api: { ApplicationV2 }, instances },
      utils: {
        fromUuidSync(uuid) {
          const parts = uuid.split(".");
          if (parts[0] === "Scene" && parts[1] === scene.id && parts[2] === "Token") {
            return scene.tokens.get(parts[3]) ?? null;
          }
          if (parts[0] === "RollTable") return game.tables.get(parts[1]) ?? null;
          return null;
        },
      },
    },
  });

  /** What the tests drive and read. */
  window.StandIn = {
    record,
    scene,
    async boot() {
      strings = await (await fetch(`/foundry-module/lang/${i18n.lang}.json`)).json();
      await import("/foundry-module/scripts/main.mjs");
      Hooks.callAll("init");
      Hooks.callAll("setup");
      game.ready = true;
      Hooks.callAll("ready");
      this.renderControls();
      document.body.dataset.ready = "1";
    },
    /** Scene controls, v13 shape: a record of controls, each with a record of tools. */
    renderControls() {
      const controls = { tokens: { name: "tokens", title: "Tokens", tools: { select: { name: "select" } } } };
      Hooks.callAll("getSceneControlButtons", controls);
      const bar = document.getElementById("controls");
      bar.innerHTML = "";
      for (const tool of Object.values(controls.tokens.tools)) {
        if (!tool.button || tool.visible === false) continue;
        const button = document.createElement("button");
        button.dataset.tool = tool.name;
        button.title = game.i18n.localize(tool.title);
        button.textContent = game.i18n.localize(tool.title);
        button.addEventListener("click", (event) => tool.onChange(event, true));
        bar.append(button);
      }
    },
    /** An unlinked token of an actor on the scene: its own synthetic actor, the actor's id. */
    makeToken(id, name, actorId, actorName) {
      const ActorClass = systemId === "wfrp4e" ? WfrpActor : Actor;
      const doc = new TokenDocument(scene, id, name, new ActorClass(actorId, actorName));
      scene.tokens.set(id, doc);
      return doc;
    },
    select(ids) {
      controlled.length = 0;
      for (const id of ids) controlled.push({ id, document: scene.tokens.get(id) });
    },
    tokens() {
      return scene.tokens.contents.map((doc) => ({
        id: doc.id,
        name: doc.name,
        flags: structuredClone(doc.flags),
        statuses: [...doc.actor.statuses].sort(),
      }));
    },
    setStatus(tokenId, status, on) {
      const actor = scene.tokens.get(tokenId).actor;
      if (on) actor.statuses.add(status);
      else actor.statuses.delete(status);
    },
    addTable(data) {
      return RollTable.create(data);
    },
  };
})();
