// game.socket for a module (foundryvtt.com/article/package-management/ "socket": a package
// whose manifest says `"socket": true` may emit and listen on the event "module.<id>"; the
// server passes it to every other connected client, never back to the sender; arguments travel
// as JSON). Stricter than the wire: a value JSON would change or drop (undefined, a function,
// NaN, a Map, a class instance) is refused here rather than lost there.
import { isObject } from "./documents.js";
import { record, refuse } from "./record.js";

/** The path to the first value in `value` that JSON would not carry unchanged, or null. */
export function notJsonSafe(value, path = "payload") {
  if (value === null || typeof value === "string" || typeof value === "boolean") return null;
  if (typeof value === "number") return Number.isFinite(value) ? null : path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const bad = notJsonSafe(value[i], `${path}[${i}]`);
      if (bad) return bad;
    }
    return null;
  }
  if (isObject(value) && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [key, item] of Object.entries(value)) {
      const bad = notJsonSafe(item, `${path}.${key}`);
      if (bad) return bad;
    }
    return null;
  }
  return path;
}

export function makeSocket({ server, socketPackages }) {
  const listeners = new Map();
  server.onEmit = (event, args) => {
    record.socket.received.push({ event, args });
    for (const fn of listeners.get(event) ?? []) fn(...args);
  };
  return {
    on(event, fn) {
      if (!listeners.has(event)) listeners.set(event, []);
      listeners.get(event).push(fn);
    },
    off(event, fn) {
      listeners.set(
        event,
        (listeners.get(event) ?? []).filter((f) => f !== fn),
      );
    },
    emit(event, ...args) {
      if (!socketPackages().includes(event)) {
        refuse(`socket event "${event}": only "module.<id>" of an active module with "socket": true`);
      }
      const bad = notJsonSafe(args, "arguments");
      if (bad) refuse(`socket event "${event}": ${bad} does not survive JSON`);
      record.socket.sent.push({ event, args: structuredClone(args) });
      server.emit(event, args);
      return this;
    },
  };
}
