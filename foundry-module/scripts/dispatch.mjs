/**
 * The module's one dispatch of the bridge's messages: each part registers its handlers by message
 * type (wiring.mjs says who does what on which type), and every message a connection receives
 * reaches the handlers of its type, in the order they were registered. No other file of the
 * module switches on a message's type.
 */
import { log } from "./log.mjs";

export class Dispatch {
  constructor() {
    this.handlers = new Map(); // type → [handler]
  }

  /** Calls `handler(message)` for every message of `types` (a type or a list); returns what stops it. */
  on(types, handler) {
    const each = [types].flat();
    for (const type of each) this.handlers.set(type, [...(this.handlers.get(type) ?? []), handler]);
    return () => {
      for (const type of each)
        this.handlers.set(
          type,
          (this.handlers.get(type) ?? []).filter((h) => h !== handler),
        );
    };
  }

  /** A message to the handlers of its type (one that fails is logged; the others still run). */
  deliver(message) {
    for (const handler of this.handlers.get(message?.type) ?? []) {
      try {
        handler(message);
      } catch (error) {
        log.error(`${message.type}: handler failed`, error);
      }
    }
  }
}
