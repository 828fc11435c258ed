// A whole battle against a running bridge, as GM, as a player and as the Foundry module, sending
// only the message shapes docs/protocol.md shows and checking every message received against
// the document's examples of its type.
//
//   node battle.mjs ws://127.0.0.1:PORT/ws GM_TOKEN PLAYER_TOKEN path/to/protocol.md
//
// Prints a JSON summary and exits 0; any difference from the document is an error (exit 1).

import assert from "node:assert/strict";
import WebSocket from "ws";
import { checkShape, example, examplesFrom } from "./doc.mjs";

const [url, gmToken, playerToken, docPath] = process.argv.slice(2);
const doc = examplesFrom(docPath);
const received = new Set();
const battle = `node-${process.pid}`;
let maxMessage = Infinity;
let counter = 0;

/** A connection: every message checked against the document, kept until taken. */
class Peer {
  static open(name) {
    const peer = new Peer(name, new WebSocket(url));
    return new Promise((resolve, reject) => {
      peer.ws.once("open", () => resolve(peer));
      peer.ws.once("error", reject);
    });
  }

  constructor(name, ws) {
    this.name = name;
    this.ws = ws;
    this.inbox = [];
    this.wake = () => {};
    ws.on("message", (data) => {
      const message = JSON.parse(data.toString());
      checkShape(doc, message);
      // no frame over the limit the bridge announced in `welcome`
      if (message.type === "welcome") maxMessage = message.limits.max_message;
      assert.ok(data.length <= maxMessage, `${message.type} of ${data.length} bytes`);
      received.add(message.type);
      this.inbox.push(message);
      this.wake();
    });
  }

  send(message) {
    this.ws.send(JSON.stringify(message));
    return message;
  }

  /** The first message (kept or coming) that `wanted` accepts; waits at most 10 s. */
  async take(wanted, what) {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const at = this.inbox.findIndex(wanted);
      if (at >= 0) return this.inbox.splice(at, 1)[0];
      if (Date.now() > deadline) throw new Error(`${this.name}: no ${what} in ${JSON.stringify(this.inbox)}`);
      await new Promise((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, 200);
      });
    }
  }

  /** Send a request made from the document's example and take its answer of `kind` by id. */
  async ask(message, kind) {
    this.send(message);
    return this.take((m) => m.id === message.id && (m.type === kind || m.type === "error"), kind);
  }
}

/** The document's example with this client's own id and battle, and `fields` over it. */
function made(type, fields = {}, commandType = undefined) {
  const message = example(doc, type, commandType);
  if ("id" in message) message.id = `node-${++counter}`;
  if ("battle" in message) message.battle = battle;
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) delete message[key];
    else message[key] = value;
  }
  return message;
}

/** A player's hello naming the battle: its welcome lists it, then its state (no foundry). */
async function playerJoins() {
  const peer = await Peer.open("player");
  peer.send(made("hello", { token: playerToken, client: "web", battle }));
  const welcomed = await peer.take((m) => m.type === "welcome", "welcome");
  assert.equal(welcomed.role, "player");
  assert.ok(welcomed.battles.some((b) => b.name === battle && b.status === "fighting"));
  const state = await peer.take((m) => m.type === "state", "state");
  assert.ok(!("foundry" in state), "a player got foundry data");
  return peer;
}

const gm = await Peer.open("gm");
gm.send(made("hello", { token: gmToken, client: "cli", battle: undefined }));
const welcome = await gm.take((m) => m.type === "welcome", "welcome");
assert.equal(welcome.role, "gm");
for (const limit of Object.values(welcome.limits)) assert.equal(typeof limit, "number");

// create_battle: ack at version 0, no event, no subscription; everyone hears `battles`
const created = await gm.ask(made("command", {}, "create_battle"), "ack");
assert.equal(created.version, 0, JSON.stringify(created));
const listed = await gm.take((m) => m.type === "battles", "battles");
assert.ok(listed.battles.some((b) => b.name === battle && b.version === 0));
await gm.ask(made("ping"), "pong");
assert.ok(!gm.inbox.some((m) => m.type === "event"), "create_battle sent an event");

const gmState = await gm.ask(made("subscribe", { since_version: undefined }), "state");
assert.equal(gmState.version, 0);

// the battle, command by command, in the document's order
let version = 0;
let gmView;
let playerView;
let player; // a player is told of the battle once it has started, and joins then
const units = {};
const sent = {};
for (const shown of doc.client.command) {
  const kind = shown.command.type;
  if (kind === "create_battle" || kind === "archive_battle") continue;
  if (kind === "end_battle" && gmView.status === "ended") continue; // an auto round may end it
  const message = made("command", { expected_version: version }, kind);
  message.command = structuredClone(shown.command);
  if (kind === "detach_fighters") message.command.unit = units.enemies; // ids are the bridge's
  gm.send(message);
  const event = await gm.take((m) => m.type === "event" && m.version === version + 1, kind);
  const ack = await gm.take((m) => m.type === "ack" && m.id === message.id, `ack of ${kind}`);
  assert.equal(ack.version, event.version);
  version = ack.version;
  gmView = event.view;
  if (player) playerView = (await player.take((m) => m.type === "event" && m.version === version, kind)).view;
  if (kind === "start") player = await playerJoins();
  sent[kind] ??= message;
  if (kind === "detach_fighters") sent.detachedAt = version;
  for (const happened of event.events) if (happened.type === "influence_rolled") sent.rolled = { version, ...happened };
  for (const happened of event.events) if (happened.type === "unit_added") units[happened.unit.side] = happened.unit.id;
}
assert.equal(gmView.status, "ended");

// the casualties, where the document says they are
const casualties = {};
for (const unit of gmView.units) {
  const { fighters, killed, wounded, fit } = unit.casualties;
  assert.equal(killed + wounded + fit, fighters);
  casualties[unit.id] = unit.casualties;
}
for (const unit of playerView.units) {
  if (unit.side === "allies") assert.deepEqual(unit.casualties, casualties[unit.id]);
  else assert.equal(unit.casualties, null, "a player saw the hidden side's casualties");
}

// ids: a repeated command is acked again, a reused id refused, a player refused
const again = await gm.ask(sent.add_unit, "ack");
assert.deepEqual([again.version, again.duplicate], [1, true]);
const reused = await gm.ask({ ...sent.add_unit, command: sent.start.command }, "error");
assert.equal(reused.code, "id_reused");
const refused = await player.ask(made("command", {}, "start"), "error");
assert.equal(refused.code, "forbidden");

// reading
const list = await gm.ask(made("list_battles"), "battles");
assert.ok(list.battles.some((b) => b.name === battle && b.status === "ended"));
const page = await gm.ask(made("log_page", { since_version: 0, until_version: version }), "log_page");
assert.equal(page.entries.length, version);
assert.equal((await gm.ask(made("unsubscribe"), "unsubscribed")).battle, battle);
const missed = await gm.ask(made("subscribe", { since_version: version - 1 }), "events");
assert.equal(missed.entries.length, 1);

// the Foundry module: tokens, casualties ordered, applied, taken back
const foundry = await Peer.open("foundry");
foundry.send(made("hello", { token: gmToken, client: "foundry", battle: undefined }));
await foundry.take((m) => m.type === "welcome", "welcome");
await foundry.ask(made("tokens", { unit: units.allies }), "ack");
await gm.take((m) => m.type === "tokens", "tokens");
// the enemies: a token of one and a mob of 11; the detach moved the one and a head of the mob
const enemyTokens = { unit: units.enemies, token_ids: ["tokA", "tokB"], fighters: { tokB: 11 } };
await foundry.ask(made("tokens", enemyTokens), "ack");
const moved = { unit: units.enemies, version: sent.detachedAt, token_ids: ["tokA"], fighters: { tokB: 1 } };
await foundry.ask(made("detached", moved), "ack");
await gm.take((m) => m.type === "detached", "detached");
const order = await gm.ask(made("request_casualties", { unit: units.enemies }), "ack");
assert.deepEqual(order.sent, [units.enemies]);
await gm.take((m) => m.type === "apply_job", "apply_job");
const apply = await foundry.take((m) => m.type === "apply_casualties", "apply_casualties");
const { killed, wounded, fit } = casualties[units.enemies];
assert.deepEqual([apply.killed, apply.wounded, apply.fit], [killed, wounded, fit]);
assert.deepEqual([apply.token_ids, apply.heads], [["tokB"], { tokB: 10 }]);
// one browser takes it, stores its journal, then reports
const job = { unit: units.enemies, version: apply.version };
await foundry.ask(made("claim", job), "ack");
const counts = { fighters: apply.fighters, killed, wounded, fit };
const journal = { ...made("plan").plan, tokens: ["tokB"], fates: {}, groups: { tokB: counts } };
await foundry.ask(made("plan", { ...job, plan: journal }), "ack");
const report = { unit: units.enemies, version: apply.version, killed, wounded, fit };
await foundry.ask(made("applied", report), "ack");
await gm.take((m) => m.type === "applied", "applied");
await foundry.ask(made("unapplied", { unit: units.enemies, version: apply.version }), "ack");
await gm.take((m) => m.type === "unapplied", "unapplied");
// the Influence roll's first effect applied in Foundry: told to the GMs, never to a player
const effect = sent.rolled.band.effects[0];
const mark = { effect: 0, kind: effect.kind, done: true, result: "Orc boss: 11 Damage (1d10+4)" };
await foundry.ask(made("mark_effects", { version: sent.rolled.version, marks: [mark] }), "ack");
const marked = await gm.take((m) => m.type === "effects_marked", "effects_marked");
assert.deepEqual(marked.marks, { 0: { by: "foundry", result: mark.result } });

const archived = await gm.ask(made("command", {}, "archive_battle"), "ack");
assert.equal(archived.version, version);

// every kind of message the document shows from the bridge came, and matched it
const shownTypes = Object.keys(doc.bridge).sort();
assert.deepEqual(
  [...received].filter((t) => t !== "error").sort(),
  shownTypes.filter((t) => t !== "error"),
);
assert.ok(received.has("error"));
for (const peer of [gm, player, foundry]) peer.ws.close();
console.log(JSON.stringify({ battle, version, casualties, received: [...received].sort() }));
