/**
 * What the module does with the bridge's messages, by type: handlers registered here once
 * (wiring.mjs says who does what on which type) and handed to the client of this browser's
 * connection of one role, and to the next one after a reconnect. The shared client is the one
 * dispatch by type (`client.handle`, client/bridge-client.mjs); no file of the module switches
 * on a message's type.
 */
export class MessageHandlers {
  constructor() {
    this.handlers = []; // [type, handler], in the order registered
    this.client = null;
  }

  /** Calls `handler(message)` for every message of `type` (on the client now and the next ones). */
  handle(type, handler) {
    this.handlers.push([type, handler]);
    this.client?.handle(type, handler);
  }

  /** Hands every handler, in order, to this role's client now (a new one after a reconnect). */
  attach(client) {
    this.client = client;
    for (const [type, handler] of this.handlers) client.handle(type, handler);
  }
}
