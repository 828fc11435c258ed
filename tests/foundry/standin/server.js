// The link to the world's server (tests/support/foundry_server.py, `?server=ws://…`), shared by
// every page of a test. The world's documents are the server's: a write (tokens, an actor's
// effects, chat messages, a world setting) goes to the server, which commits it after its
// latency and sends it to every client, this one included; only then does the document change
// here, and only then does the call resolve (api v13 `hookEvents.updateDocument`, "fires for all
// connected clients"). A page that connects, or is reloaded, gets the world as it is now: every
// committed write in order. A module's socket message reaches every other client, never the
// sender. Without `?server=` (a page opened by hand) this page is the world's only client, and
// a write commits here, a moment later.

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
    /** A committed write, here or from another client: (write, mine). */
    this.onWritten = () => {};
    /** The users logged in when this client connected (null: no shared server, all of them). */
    this.users = null;
    /** The writes committed before this client connected, in order (the world as it is now). */
    this.writes = [];
    /** Milliseconds between login and `ready` the server asks for (a query may override). */
    this.readyDelay = 0;
  }

  /** Connects (logs in); resolves with the world settings the server holds. */
  connect() {
    if (!this.address) return Promise.resolve({});
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${this.address}?user=${encodeURIComponent(this.userId)}`);
      this.ws = ws;
      ws.onerror = () => reject(new Error(`stand-in: no Foundry server at ${this.address}`));
      ws.onmessage = (event) => {
        const message = JSON.parse(event.data);
        if (message.type === "world") {
          this.writes = message.writes ?? [];
          this.users = message.users ?? null;
          this.readyDelay = message.readyDelay ?? 0;
          resolve(message.settings);
        } else if (message.type === "written") {
          const mine = this.waiting.has(message.request);
          this.onWritten(message.write, mine);
          this.settle(message.request);
        } else if (message.type === "emit") this.onEmit(message.event, message.args);
        else if (message.type === "user") this.onUser(message.user, message.connected);
        else if (message.type === "setting") {
          this.onSetting(message.key, message.value);
          this.settle(message.request);
        }
      };
    });
  }

  settle(request) {
    this.waiting.get(request)?.();
    this.waiting.delete(request);
  }

  /** Relays a socket message to the other clients. */
  emit(event, args) {
    this.ws?.send(JSON.stringify({ type: "emit", event, args }));
  }

  /** Sends a document write ({collection, op, parent?, data}); resolves once it is committed and
   * done here too. The write travels as JSON. */
  write(write) {
    const sent = JSON.parse(JSON.stringify(write));
    if (!this.ws) {
      return Promise.resolve().then(() => this.onWritten({ ...sent, user: this.userId }, true));
    }
    const request = this.next();
    return new Promise((resolve) => {
      this.waiting.set(request, resolve);
      this.ws.send(JSON.stringify({ type: "write", request, write: sent }));
    });
  }

  /** Stores a world setting; resolves once its change came back to this client. */
  setWorld(key, value) {
    if (!this.ws) {
      return Promise.resolve().then(() => this.onSetting(key, value));
    }
    const request = this.next();
    return new Promise((resolve) => {
      this.waiting.set(request, resolve);
      this.ws.send(JSON.stringify({ type: "setting", key, value, request }));
    });
  }

  next() {
    this.count += 1;
    return `${this.userId}-${this.count}-${Math.random().toString(36).slice(2, 8)}`;
  }
}
