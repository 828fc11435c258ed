// A stand-in for the Foundry VTT v13 and v14 calls the module makes, so that the module's real
// files run in Chromium without Foundry. Each behaviour names its source: Foundry's public API
// docs (foundryvtt.com/api/v13, /api/v14) or the WFRP4e system's public code; Foundry's own code
// was not read. What differs per generation (`?generation=14`) is in generations.js.
// Where the real thing refuses, the stand-in refuses too (record.errors), so a test that passes
// only because a fake forgives is not possible. docs/foundry.md keeps the table.
//
// Query parameters: user (id of this user), system (game system id, e.g. wfrp4e), url, gmToken,
// playerToken, battle, playersDirect, tokens (how many tokens on the scene), lang, statuses
// (CONFIG.statusEffects ids when a system replaced the list), defeated
// (CONFIG.specialStatusEffects.DEFEATED), server (the world's server, server.js), readyDelay
// (milliseconds from login to `ready`; default: the server's), generation (13, the default, or 14).
import { record, refuse } from "./record.js";
import { Actor, Collection, CORE_STATUS_IDS, Scene, TokenDocument, actorsByUuid, world } from "./documents.js";
import { WFRP_STATUS_EFFECTS, WfrpActor } from "./wfrp4e.js";
import { ApplicationV2, instances } from "./application.js";
import { ChatMessage, RollTable, TextEditor } from "./tables.js";
import { makeSettings } from "./settings.js";
import { makeSocket } from "./socket.js";
import { ALLOWED_HTML_TAGS } from "./chat-html.js";
import { ServerLink } from "./server.js";
import { Hooks } from "./hooks.js";
import { DATA, GLOBALS, RELEASE, statusEffectsConfig } from "./generations.js";

const params = new URLSearchParams(window.location.search);
const MODULE = "background-battle";

// --- users: User documents (documentName "User"); game.users.activeGM ------------------------
// CONST.USER_ROLES (api v13/v14 `CONST.USER_ROLES`): PLAYER 1, TRUSTED 2, ASSISTANT 3,
// GAMEMASTER 4; User#isGM: the role is ASSISTANT or GAMEMASTER (api `User#isGM`).
const USER_ROLES = Object.freeze({ NONE: 0, PLAYER: 1, TRUSTED: 2, ASSISTANT: 3, GAMEMASTER: 4 });
class User {
  constructor(id, name, role) {
    Object.assign(this, { id, name, role, active: false });
  }
  get isGM() {
    return this.role >= USER_ROLES.ASSISTANT;
  }
  get documentName() {
    return "User";
  }
}
const users = new Collection();
for (const [id, name, role] of [
  ["gm1", "Game Master", USER_ROLES.GAMEMASTER],
  ["gm2", "Assistant GM", USER_ROLES.ASSISTANT],
  ["player1", "Player", USER_ROLES.PLAYER],
  ["player2", "Second Player", USER_ROLES.PLAYER],
]) {
  users.set(id, new User(id, name, role));
}
// Users#activeGM (api v13 and v14 `foundry.documents.collections.Users#activeGM`): "Get one User
// who is an active Gamemaster (non-assistant if possible), or null if no active GM is
// available". Active: User#active, "Is the User currently logged into the game World?" (the
// world's server says who is). Among several of one role the page names none: here the lowest
// id, a choice the module must not rely on.
Object.defineProperty(users, "activeGM", {
  get: () => {
    const gms = [...users.values()].filter((user) => user.isGM && user.active);
    gms.sort((a, b) => b.role - a.role || (a.id < b.id ? -1 : 1));
    return gms[0] ?? null;
  },
});
const userId = params.get("user") ?? "gm1";

// --- the system and its status effects -------------------------------------------------------
const systemId = params.get("system") ?? "generic";
const wfrp = systemId === "wfrp4e";
const statusIds = params.get("statuses")?.split(",") ?? CORE_STATUS_IDS;
const CONFIG = {
  // WFRP4e replaces the list with its conditions (an array) on ready (src/hooks/ready.js);
  // core's is an array in v13, an object keyed by id in v14 (generations.js).
  statusEffects: wfrp
    ? WFRP_STATUS_EFFECTS
    : statusEffectsConfig(statusIds.map((id) => ({ id, name: id, img: `icons/svg/${id}.svg` }))),
  // CONFIG.specialStatusEffects.DEFEATED: the status that marks a defeated combatant.
  specialStatusEffects: { DEFEATED: params.get("defeated") ?? "dead", INVISIBLE: "invisible", BLIND: "blind" },
};

// --- the scene --------------------------------------------------------------------------------
const scene = new Scene("scene1", "Battlefield");
const ActorClass = wfrp ? WfrpActor : Actor;
for (let i = 1; i <= Number(params.get("tokens") ?? 4); i++) {
  const id = `tok${i}`;
  scene.tokens.set(id, new TokenDocument(scene, id, `Soldier ${i}`, (name, token) => new ActorClass(name, token)));
}

// --- settings, socket and the shared server ------------------------------------------------------
const stored = new Map([
  [`${MODULE}.bridgeUrl`, params.get("url")],
  [`${MODULE}.gmToken`, params.get("gmToken")],
  [`${MODULE}.playerToken`, params.get("playerToken")],
  [`${MODULE}.battle`, params.get("battle")],
  [`${MODULE}.playersDirect`, params.has("playersDirect") ? params.get("playersDirect") === "1" : null],
  [`${MODULE}.dice`, params.get("dice")], // the world's dice (dice.js), when the query names them
]);
const server = new ServerLink(params.get("server"), userId);
// The world's documents are the server's (server.js): a write goes there, and every client
// (this one too) changes its documents when the server has committed it.
world.write = (write) => server.write(write);
function committed(write) {
  if (write.collection === "Token" && write.parent === scene.uuid) scene.fromServer(write.data);
  else if (write.collection === "ActiveEffect") actorsByUuid.get(write.parent)?.committed(write.op, write.data);
  else if (write.collection === "ChatMessage") world.messages?.(write);
}
server.onWritten = (write) => committed(write);
// hookEvents.userConnected(user, connected): a user's client connected or left.
server.onUser = (id, connected) => {
  const user = users.get(id);
  if (!user) return;
  user.active = connected;
  Hooks.callAll("userConnected", user, connected);
};
let phase = "loading"; // loading → init → setup → ready
const manifest = { id: MODULE, active: true, socket: false };
const modules = new Map([[MODULE, manifest]]);
const settings = makeSettings({
  stored,
  server,
  user: () => game.user,
  validNamespace: (ns) => ns === "core" || ns === systemId || Boolean(modules.get(ns)?.active),
});
const settingsGet = settings.get;
// hookEvents.setup (v13): settings cannot be read before it.
settings.get = (namespace, key) => {
  if (phase === "loading" || phase === "init") refuse(`game.settings.get(${namespace}.${key}) before setup`);
  return settingsGet(namespace, key);
};

// --- i18n ---------------------------------------------------------------------------------------
let strings = {};
const lookup = (key) => key.split(".").reduce((node, part) => node?.[part], strings);
const i18n = {
  lang: params.get("lang") ?? "en",
  has: (key) => typeof lookup(key) === "string",
  localize: (key) => (typeof lookup(key) === "string" ? lookup(key) : key),
  format: (key, data = {}) =>
    i18n.localize(key).replace(/\{(\w+)\}/g, (m, name) => (name in data ? String(data[name]) : m)),
};

// --- game -------------------------------------------------------------------------------------
// Game#users and Game#user come with the documents, after init (hookEvents.setup, v13).
const game = {
  ready: false,
  userId,
  get user() {
    return phase === "loading" || phase === "init" ? null : users.get(userId);
  },
  get users() {
    return phase === "loading" || phase === "init" ? undefined : users;
  },
  system: { id: systemId },
  release: RELEASE,
  settings,
  i18n,
  tables: new Collection(),
  modules,
  socket: makeSocket({
    server,
    socketPackages: () => [...modules.values()].filter((m) => m.active && m.socket).map((m) => `module.${m.id}`),
  }),
};
if (wfrp) game.wfrp4e = { config: { statusEffects: WFRP_STATUS_EFFECTS } };

const notify = (level) => (text) => {
  record.notices.push({ level, text });
  const li = document.createElement("li");
  li.className = `notification ${level}`;
  li.textContent = text;
  document.getElementById("notifications").append(li);
};

const controlled = [];
Object.assign(window, GLOBALS, {
  Hooks,
  game,
  CONFIG,
  ui: { notifications: { info: notify("info"), warn: notify("warning"), error: notify("error") } },
  canvas: { scene, tokens: { controlled } },
  ChatMessage,
  RollTable,
  CONST: { TABLE_RESULT_TYPES: { TEXT: "text", DOCUMENT: "document" }, ALLOWED_HTML_TAGS },
  foundry: {
    applications: { api: { ApplicationV2 }, instances, ux: { TextEditor } },
    data: DATA,
    utils: {
      /** foundry.utils.fromUuidSync: tokens, their actors and world RollTables here. */
      fromUuidSync(uuid) {
        const parts = String(uuid).split(".");
        if (parts[0] === "Scene" && parts[1] === scene.id && parts[2] === "Token") {
          const token = scene.tokens.get(parts[3]) ?? null;
          return parts[4] === "Actor" ? (token?.actor ?? null) : token;
        }
        if (parts[0] === "RollTable") return game.tables.get(parts[1]) ?? null;
        return null;
      },
    },
  },
});

// --- what the tests drive and read --------------------------------------------------------------
window.StandIn = {
  record,
  scene,
  async boot() {
    strings = await (await fetch(`/foundry-module/lang/${i18n.lang}.json`)).json();
    Object.assign(manifest, await (await fetch("/foundry-module/module.json")).json(), { active: true });
    for (const [key, value] of Object.entries(await server.connect())) stored.set(key, value);
    // User#active (api v13 `User#active`: the user is logged into the world): those the server
    // says are (this page's user among them); alone, only this page's. Users#activeGM follows.
    for (const user of users.values()) user.active = (server.users ?? [userId]).includes(user.id);
    // The world as the server holds it now: every write committed before this client came.
    for (const write of server.writes) committed(write);
    // Logged in, the page loads the world before `ready` (a hosted world takes seconds); the
    // others already see this user connected, and what they send meanwhile finds no listener.
    const delay = Number(params.get("readyDelay") ?? server.readyDelay);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    await import("/foundry-module/scripts/main.mjs");
    phase = "init";
    Hooks.callAll("init");
    phase = "setup";
    Hooks.callAll("i18nInit");
    Hooks.callAll("setup");
    phase = "ready";
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
  select(ids) {
    controlled.length = 0;
    for (const id of ids) controlled.push({ id, document: scene.tokens.get(id) });
  },
  /** An unlinked token of a base actor on the scene: its own synthetic actor, the actor's id. */
  makeToken(id, name, actorId, actorName) {
    const doc = new TokenDocument(scene, id, name, (n, token) => new ActorClass(actorName ?? n, token, actorId));
    scene.tokens.set(id, doc);
    return doc;
  },
  /** Links tokens to one world actor (as WFRP4e characters always are): they share it. */
  shareActor(ids, name = "Shared actor") {
    const actor = new ActorClass(name, null, `shared-${ids.join("-")}`);
    for (const id of ids) scene.tokens.get(id).linkTo(actor);
    return actor.uuid;
  },
  /** Each token: id, name, flags, its actor, the statuses it shows, overlays and values. */
  tokens() {
    return scene.tokens.contents.map((doc) => ({
      id: doc.id,
      name: doc.name,
      flags: structuredClone(doc.flags),
      actor: doc.actor.uuid,
      statuses: [...doc.actor.statuses].sort(),
      overlay: doc.actor.effects
        .filter((e) => e.flags?.core?.overlay)
        .flatMap((e) => [...e.statuses])
        .sort(),
      values: Object.fromEntries(
        doc.actor.effects.contents.map((e) => [[...e.statuses][0], e.system?.condition?.value ?? null]),
      ),
    }));
  },
  /** Gives a token's actor a status as the GM would by hand (WFRP4e: its condition). */
  async setStatus(tokenId, status, on) {
    const actor = scene.tokens.get(tokenId).actor;
    const before = record.conditions.length;
    if (wfrp) await (on ? actor.addCondition(status) : actor.removeCondition(status));
    else await actor.toggleStatusEffect(status, { active: on });
    record.conditions.length = before; // the GM's own change is not the module's call
  },
  addTable(data) {
    return RollTable.create(data);
  },
  /** Every setting value this client holds apart from its localStorage: the world's as the
   * server sent them (and the query's). */
  settingsHeld() {
    return structuredClone(Object.fromEntries(stored));
  },
  settingsWindow() {
    return settings.window();
  },
  openMenu(key) {
    return settings.openMenu(key);
  },
};
