// Hooks (foundryvtt.com/api/v13/classes/foundry.helpers.Hooks.html): on, once, off, callAll
// (every listener) and call (stops at a listener returning false). A listener that throws is
// reported and the others still run, as Foundry's Hooks#onError does.
import { report } from "./record.js";

const hooks = new Map();

function add(name, fn, once) {
  if (!hooks.has(name)) hooks.set(name, []);
  hooks.get(name).push({ fn, once });
  return fn;
}

function run(name, args, stopOnFalse) {
  for (const h of [...(hooks.get(name) ?? [])]) {
    if (h.once) Hooks.off(name, h.fn);
    let result;
    try {
      result = h.fn(...args);
    } catch (error) {
      report(`Error thrown in hooked function for hook ${name}: ${error?.stack ?? error}`);
      continue;
    }
    if (stopOnFalse && result === false) return false;
  }
  return true;
}

export const Hooks = {
  on: (name, fn) => add(name, fn, false),
  once: (name, fn) => add(name, fn, true),
  off(name, fn) {
    hooks.set(
      name,
      (hooks.get(name) ?? []).filter((h) => h.fn !== fn),
    );
  },
  callAll: (name, ...args) => run(name, args, false),
  call: (name, ...args) => run(name, args, true),
};
