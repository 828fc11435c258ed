// The Foundry server, as far as several clients of one world see it: a world setting changed on
// one client is stored and its change reaches every client (the one that set it too); a module's
// socket message reaches every other client, never the sender; an update of tokens reaches every
// other client, and one that connects later gets the tokens as they are. With `?server=ws://…` the page
// talks to tests/support/foundry_server.py, shared by every browser context of a test; without
// it this page is the world's only client.

export class ServerLink {
  constructor(address, userId) {
    this.address = address;
    this.userId = userId;
    this.ws = null;
    this.waiting = new Map();
    this.count = 0;
    this.onEmit = () => {};
    this.onSetting = () => {};
    this.onUser = () => {};
    this.onTokens = () => {};
    /** The users logged in when this client connected (null: no shared server, all of them). */
    this.users = null;
    /** Token updates made before this client connected, in order (the world as it is now). */
    this.tokenUpdates = [];
  }

  /** Connects; resolves with the world settings the server holds. */
  connect() {
    if (!this.address) return Promise.resolve({});
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${this.address}?user=${encodeURIComponent(this.userId)}`);
      this.ws = ws;
      ws.onerror = () => reject(new Error(`stand-in: no Foundry server at ${this.address}`));
      ws.onmessage = (event) => {
        const message = JSON.parse(event.data);
        if (message.type === "settings") {
          this.tokenUpdates = message.tokens ?? [];
          this.users = message.users ?? null;
          resolve(message.values);
        } else if (message.type === "tokens") this.onTokens(message.scene, message.updates);
        else if (message.type === "emit") this.onEmit(message.event, message.args);
        else if (message.type === "user") this.onUser(message.user, message.connected);
        else if (message.type === "setting") {
          this.onSetting(message.key, message.value);
          this.waiting.get(message.request)?.();
          this.waiting.delete(message.request);
        }
      };
    });
  }

  /** Relays a socket message to the other clients. */
  emit(event, args) {
    this.ws?.send(JSON.stringify({ type: "emit", event, args }));
  }

  /** Sends a batch of token updates to the world (every other client applies it). */
  updateTokens(scene, updates) {
    this.ws?.send(JSON.stringify({ type: "tokens", scene, updates }));
  }

  /** Stores a world setting; resolves once its change came back to this client. */
  setWorld(key, value) {
    if (!this.ws) {
      this.onSetting(key, value);
      return Promise.resolve();
    }
    this.count += 1;
    const request = `${this.userId}-${this.count}`;
    return new Promise((resolve) => {
      this.waiting.set(request, resolve);
      this.ws.send(JSON.stringify({ type: "setting", key, value, request }));
    });
  }
}
