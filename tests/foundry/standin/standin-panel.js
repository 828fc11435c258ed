// More of the documented Foundry VTT v13 API, for the panel's features: chat messages that are
// found again and edited, the window's position, a confirmation dialog, tokens with a
// disposition. Loaded after foundry-standin.js, before the module boots. Sources (public API
// documentation only, foundryvtt.com/api/v13):
// - ChatMessage (classes/foundry.documents.ChatMessage.html): `whisper` holds user ids; a
//   whispered message is visible to its recipients, its author and GMs ("Gamemasters will be
//   able to see the content", CONST.CHAT_MESSAGE_TYPES.WHISPER); Document#getFlag (the scope must
//   be an active package), #update (dotted keys), #delete; game.messages is the world's
//   collection of messages.
// - ApplicationV2 (classes/foundry.applications.api.ApplicationV2.html): `position` {left, top,
//   width, height: number | "auto"}; setPosition(position) applies it, then the subclass hook
//   _onPosition(position).
// - DialogV2.confirm({window, content}) (classes/foundry.applications.api.DialogV2.html):
//   resolves true (Yes) or false (No).
// - TokenDocument#disposition (CONST.TOKEN_DISPOSITIONS: FRIENDLY 1, NEUTRAL 0, HOSTILE -1,
//   SECRET -2) and #actorId (the base actor's id, the same for every token of one actor).
import { record, refuse } from "./record.js";
import { cleanChatHtml } from "./chat-html.js";
import { Actor, TokenDocument, applyUpdate, randomID, world } from "./documents.js";
import { WfrpActor } from "./wfrp4e.js";

record.chatUpdates = []; // every ChatMessage#update: {id, changes}
record.dialogs = []; // every DialogV2.confirm: {title, content}

// --- chat messages -------------------------------------------------------------------------------
// World documents: made, edited and deleted on the world's server (server.js), so every client
// (and a reloaded page) has them; `record.chat` keeps what this page's calls made.
const messages = new Map();
const recorded = new Map(); // message id → its entry in record.chat (made by this page)
const Created = window.ChatMessage;

class ChatMessage {
  constructor(source) {
    Object.assign(this, structuredClone(source));
    this.id = source._id;
    this.flags = this.flags ?? {};
  }
  static async create(data) {
    const stored = await Created.create(data); // its checks: whisper ids, content as HTML
    const source = { ...structuredClone(stored), _id: randomID(), author: game.user.id };
    recorded.set(source._id, stored);
    await world.write({ collection: "ChatMessage", op: "create", data: [source] });
    return messages.get(source._id);
  }
  static getWhisperRecipients(name) {
    return Created.getWhisperRecipients(name);
  }
  /** Whether a user sees the message: public, whispered to them, theirs, or they are a GM. */
  visibleTo(user) {
    return !this.whisper.length || this.whisper.includes(user.id) || this.author === user.id || user.isGM;
  }
  get visible() {
    return this.visibleTo(game.user);
  }
  getFlag(scope, key) {
    if (!(scope === "core" || scope === game.system.id || game.modules.get(scope)?.active)) {
      refuse(`Flag scope "${scope}" is not valid or not currently active`);
    }
    return structuredClone(this.flags?.[scope]?.[key]);
  }
  async update(changes) {
    if (!messages.has(this.id)) refuse(`ChatMessage ${this.id} does not exist`);
    if ("content" in changes && typeof changes.content !== "string")
      refuse("ChatMessage: content must be a string of HTML");
    record.chatUpdates.push({ id: this.id, changes: structuredClone(changes) });
    const change = "content" in changes ? { ...changes, content: cleanChatHtml(changes.content) } : changes;
    await world.write({ collection: "ChatMessage", op: "update", data: [{ ...change, _id: this.id }] });
    return this;
  }
  async delete() {
    if (!messages.has(this.id)) refuse(`ChatMessage ${this.id} does not exist`);
    await world.write({ collection: "ChatMessage", op: "delete", data: [this.id] });
    return this;
  }
}
/** A committed write of chat messages (this client's or another's). */
world.messages = ({ op, data }) => {
  for (const item of data) {
    if (op === "create") messages.set(item._id, new ChatMessage(item));
    else if (op === "delete") messages.delete(item);
    else if (op === "update" && messages.has(item._id)) {
      const message = messages.get(item._id);
      applyUpdate(message, item);
      const entry = recorded.get(item._id);
      if (entry) entry.content = message.content;
    }
  }
};
window.ChatMessage = ChatMessage;
game.messages = {
  get: (id) => messages.get(id),
  get contents() {
    return [...messages.values()];
  },
};

// --- ApplicationV2: position -----------------------------------------------------------------------
const Base = foundry.applications.api.ApplicationV2;

class PositionedApplication extends Base {
  constructor(options = {}) {
    super(options);
    this.position = { left: 80, top: 40, width: 480, height: "auto", ...(this.options.position ?? {}) };
  }
  async render(options = {}) {
    const app = await super.render(options);
    if (this.element && !this.element.dataset.placed) {
      this.element.dataset.placed = "1";
      this.#apply();
    }
    return app;
  }
  setPosition(position = {}) {
    Object.assign(this.position, position);
    this.#apply();
    this._onPosition(this.position);
    return this.position;
  }
  #apply() {
    const style = this.element?.style;
    if (!style) return;
    style.left = `${this.position.left}px`;
    style.top = `${this.position.top}px`;
    style.width = `${this.position.width}px`;
    style.height = this.position.height === "auto" ? "" : `${this.position.height}px`;
  }
  _onPosition() {}
}

// --- DialogV2.confirm --------------------------------------------------------------------------------
class DialogV2 {
  static confirm({ window: win = {}, content = "" } = {}) {
    record.dialogs.push({ title: win.title ?? "", content });
    return new Promise((resolve) => {
      const dialog = document.createElement("dialog");
      dialog.className = "application dialog";
      dialog.innerHTML =
        `<header class="window-header"><h1></h1></header><div class="window-content">${content}</div>` +
        '<footer><button type="button" data-button="yes">Yes</button><button type="button" data-button="no">No</button></footer>';
      dialog.querySelector("h1").textContent = win.title ?? "";
      dialog.addEventListener("click", (event) => {
        const choice = event.target.closest("[data-button]")?.dataset.button;
        if (!choice) return;
        dialog.remove();
        resolve(choice === "yes");
      });
      document.body.append(dialog);
      dialog.show();
    });
  }
}
foundry.applications.api = { ...foundry.applications.api, ApplicationV2: PositionedApplication, DialogV2 };

// --- tokens with a disposition -------------------------------------------------------------------------
Object.defineProperty(TokenDocument.prototype, "disposition", {
  get() {
    return this._source.disposition ?? -1;
  },
});
Object.defineProperty(TokenDocument.prototype, "actorId", {
  get() {
    return this._source.actorId ?? this.actor?.id ?? null;
  },
});

/** Adds an unlinked token of an actor: {id, name, actorId, actorName, disposition, dead}. */
window.StandIn.addToken = async ({ id, name, actorId, actorName, disposition = -1, dead = false }) => {
  const ActorClass = game.system.id === "wfrp4e" ? WfrpActor : Actor;
  const scene = window.StandIn.scene;
  const doc = new TokenDocument(scene, id, name, (n, token) => new ActorClass(actorName ?? n, token));
  Object.assign(doc._source, { disposition, actorId });
  scene.tokens.set(id, doc);
  if (dead) await window.StandIn.setStatus(id, "dead", true);
  return doc.uuid;
};
