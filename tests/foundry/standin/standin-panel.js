// More of the documented Foundry VTT v13 API, for the panel's features (chat cards that are
// edited, window position, a confirmation dialog, tokens with a disposition). Loaded after
// foundry-standin.js, before the module boots. Sources (public API documentation only):
// - ChatMessage (foundryvtt.com/api/v13/classes/foundry.documents.ChatMessage.html): `whisper`
//   is a list of user ids; `visible` for the whispered users, the author and GMs
//   (CONST.CHAT_MESSAGE_TYPES WHISPER: "Gamemasters will be able to see the content");
//   Document#update, #delete, #getFlag; game.messages is the world's collection.
// - ApplicationV2 (foundryvtt.com/api/v13/classes/foundry.applications.api.ApplicationV2.html):
//   `position` {left, top, width, height: number | "auto"}, `setPosition(position)`, then the
//   subclass hook `_onPosition(position)`.
// - DialogV2.confirm({window, content}) (.../foundry.applications.api.DialogV2.html): resolves
//   true (Yes) or false (No).
// - TokenDocument#disposition (CONST.TOKEN_DISPOSITIONS: FRIENDLY 1, NEUTRAL 0, HOSTILE -1,
//   SECRET -2) and #actorId.
"use strict";

(() => {
  const record = window.StandIn.record;
  record.chatUpdates = []; // every ChatMessage#update: {id, changes}
  record.dialogs = []; // every DialogV2.confirm: {title, content}

  // --- chat messages -------------------------------------------------------------------------
  const messages = new Map();
  class ChatMessage {
    constructor(data) {
      if (data.whisper && !data.whisper.every((id) => typeof id === "string")) {
        throw new Error("stand-in: ChatMessage whisper takes user ids");
      }
      this.id = `m${messages.size + 1}`;
      this.author = game.user.id;
      Object.assign(this, structuredClone(data));
      this.whisper = this.whisper ?? [];
      this.flags = this.flags ?? {};
    }
    static async create(data) {
      record.chat.push(structuredClone(data));
      const message = new ChatMessage(data);
      messages.set(message.id, message);
      return message;
    }
    static getWhisperRecipients(name) {
      return name === "GM" ? game.users.filter((u) => u.isGM) : [];
    }
    /** Whether a user (default: this one) sees the message. */
    visibleTo(user = game.user) {
      return !this.whisper.length || this.whisper.includes(user.id) || this.author === user.id || user.isGM;
    }
    get visible() {
      return this.visibleTo();
    }
    getFlag(scope, key) {
      return structuredClone(this.flags?.[scope]?.[key]);
    }
    async update(changes) {
      record.chatUpdates.push({ id: this.id, changes: structuredClone(changes) });
      for (const [key, value] of Object.entries(changes)) {
        const parts = key.split(".");
        let node = this;
        for (const part of parts.slice(0, -1)) node = node[part] ??= {};
        node[parts.at(-1)] = structuredClone(value);
      }
      const index = Number(this.id.slice(1)) - 1;
      if (record.chat[index]) record.chat[index].content = this.content;
      return this;
    }
    async delete() {
      messages.delete(this.id);
      return this;
    }
  }
  window.ChatMessage = ChatMessage;
  Object.defineProperty(game, "messages", {
    value: { get: (id) => messages.get(id), get contents() { return [...messages.values()]; } },
  });

  // --- ApplicationV2 position ----------------------------------------------------------------
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

  // --- DialogV2.confirm ----------------------------------------------------------------------
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

  // --- tokens with a disposition -------------------------------------------------------------
  /** Adds a token of an actor to the scene: {id, name, actorId, actorName, disposition, dead}. */
  window.StandIn.addToken = ({ id, name, actorId, actorName, disposition = -1, dead = false }) => {
    const doc = window.StandIn.makeToken(id, name, actorId, actorName ?? name);
    doc._source.disposition = disposition;
    if (dead) doc.actor.statuses.add("dead");
    return doc;
  };
})();
