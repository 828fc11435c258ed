// What docs/protocol.md says, read as data: its JSON examples by direction and type, and a
// check that a received message has every field an example of its type shows.

import { readFileSync } from "node:fs";

const CLIENT = "### Client → bridge";
const BRIDGE = "### Bridge → client";

/** The ```json blocks of one section of the document, parsed (each must be valid JSON). */
function blocks(text) {
  return [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((found) => JSON.parse(found[1]));
}

/** { client: {type: [examples]}, bridge: {type: [examples]} } from the "by example" section. */
export function examplesFrom(path) {
  const doc = readFileSync(path, "utf8");
  const start = doc.indexOf(CLIENT);
  const middle = doc.indexOf(BRIDGE, start);
  const end = doc.indexOf("\n## ", middle);
  if (start < 0 || middle < 0) throw new Error("the document has no examples section");
  const byType = (list) => {
    const out = {};
    for (const message of list) (out[message.type] ??= []).push(message);
    return out;
  };
  return {
    client: byType(blocks(doc.slice(start, middle))),
    bridge: byType(blocks(doc.slice(middle, end < 0 ? undefined : end))),
  };
}

/** The first client example of a type (for `command`: of a command type). */
export function example(examples, type, commandType) {
  const found = (examples.client[type] ?? []).find(
    (message) => commandType === undefined || message.command?.type === commandType,
  );
  if (!found) throw new Error(`the document shows no ${type} ${commandType ?? ""} to send`);
  return structuredClone(found);
}

const LOGGED = new Set(["command", "events", "entries"]);

/** Where `actual` lacks a field `shown` has, or has another kind of value; null when none. */
export function mismatch(shown, actual, path = "") {
  // null in an example: this value may be anything; null received: not known yet, or hidden
  // from this role, which the document allows for any value
  if (shown === null || actual === null) return null;
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual)) return `${path}: a list was shown, got ${JSON.stringify(actual)}`;
    for (const item of shown) {
      const peers = actual.filter((other) => samePlace(item, other));
      if (peers.length && peers.every((other) => mismatch(item, other, `${path}[]`)))
        return mismatch(item, peers[0], `${path}[]`);
    }
    return null;
  }
  if (typeof shown === "object") {
    if (typeof actual !== "object" || actual === null || Array.isArray(actual))
      return `${path}: an object was shown, got ${JSON.stringify(actual)}`;
    if ("type" in shown && "type" in actual && shown.type !== actual.type) return null;
    for (const [key, value] of Object.entries(shown)) {
      if (path === "" && key === "id" && !("id" in actual)) continue; // echoed when one was sent
      if (!(key in actual)) return `${path}.${key} is missing`;
      if (LOGGED.has(key)) {
        // a command and its events as logged: their fields depend on the command (see "Core
        // commands"), so only their kind is compared
        if (Array.isArray(value) !== Array.isArray(actual[key])) return `${path}.${key}: kind`;
        continue;
      }
      const inner = mismatch(value, actual[key], `${path}.${key}`);
      if (inner) return inner;
    }
    return null;
  }
  return typeof shown === typeof actual ? null : `${path}: ${typeof shown} shown, got ${actual}`;
}

/** List items compared with each other: same `type`, else same `id`, else any. */
function samePlace(item, other) {
  if (item && typeof item === "object" && other && typeof other === "object") {
    if ("type" in item) return item.type === other.type;
    if ("id" in item) return item.id === other.id;
  }
  return true;
}

/** Throws unless `message` matches at least one example of its type from the bridge. */
export function checkShape(examples, message) {
  const shown = examples.bridge[message.type];
  if (!shown) throw new Error(`the document shows no ${message.type} from the bridge`);
  const problems = shown.map((one) => mismatch(one, message));
  if (problems.every(Boolean)) throw new Error(`${message.type} differs from the document: ${problems.join("; ")}`);
}
