// The bridge client's bookkeeping, against a fake socket and fake timers (no network).
import { test } from "node:test";
import assert from "node:assert/strict";

import { BridgeError } from "../../foundry-module/client/bridge-client.mjs";
import { setup } from "./fake-bridge.mjs";

const VIEW = (version, extra = {}) => ({ name: "ambush", version, status: "setup", units: [], ...extra });

function welcome(socket) {
  socket.open();
  socket.deliver({ type: "welcome", role: "gm", client: "foundry", protocol: 1, battles: [] });
}

test("hello carries the token and says it is the Foundry client", () => {
  const { client, sockets } = setup();
  client.start();
  sockets[0].open();
  assert.deepEqual(sockets[0].sent[0], { type: "hello", token: "gm-secret", client: "foundry" });
});

test("after welcome the client watches its battles and keeps their state", () => {
  const { client, sockets, statuses } = setup();
  client.watch("ambush");
  client.start();
  welcome(sockets[0]);
  assert.equal(statuses.at(-1).state, "open");
  assert.deepEqual(sockets[0].sent[1], { type: "subscribe", battle: "ambush" });
  sockets[0].deliver({ type: "state", battle: "ambush", version: 2, view: VIEW(2, { log: [] }) });
  sockets[0].deliver({
    type: "event",
    battle: "ambush",
    version: 3,
    command: { type: "start" },
    events: [{ type: "battle_started" }],
    view: VIEW(3, { status: "fighting" }),
  });
  const state = client.states.get("ambush");
  assert.equal(state.version, 3);
  assert.equal(state.view.status, "fighting");
  assert.equal(state.view.log.length, 1);
});

test("a gap in versions asks once for what was missed", () => {
  const { client, sockets } = setup();
  client.watch("ambush");
  client.start();
  welcome(sockets[0]);
  sockets[0].deliver({ type: "state", battle: "ambush", version: 2, view: VIEW(2, { log: [] }) });
  sockets[0].deliver({ type: "event", battle: "ambush", version: 4, events: [], view: VIEW(4) });
  sockets[0].deliver({ type: "event", battle: "ambush", version: 5, events: [], view: VIEW(5) });
  const asks = sockets[0].sent.filter((m) => m.type === "subscribe" && m.since_version === 2);
  assert.equal(asks.length, 1);
  assert.equal(client.states.get("ambush").version, 2);
  sockets[0].deliver({
    type: "events",
    battle: "ambush",
    since_version: 2,
    version: 5,
    entries: [{}, {}, {}],
    view: VIEW(5),
  });
  assert.equal(client.states.get("ambush").version, 5);
  assert.equal(client.states.get("ambush").view.log.length, 3);
});

test("requests resolve with their ack and reject with their error, by id", async () => {
  const { client, sockets } = setup();
  client.start();
  welcome(sockets[0]);
  const ok = client.command("ambush", { type: "start" }, { expectedVersion: 3 });
  const bad = client.command("ambush", { type: "add_unit" });
  const [first, second] = sockets[0].sent.slice(1);
  assert.equal(first.expected_version, 3);
  assert.notEqual(first.id, second.id);
  sockets[0].deliver({
    type: "error",
    id: second.id,
    code: "required",
    field: "name", // a field of the command's body, named as the core names it
    message: "name is required",
  });
  sockets[0].deliver({ type: "ack", id: first.id, battle: "ambush", version: 4 });
  assert.equal((await ok).version, 4);
  await assert.rejects(bad, (error) => error instanceof BridgeError && error.field === "name");
});

test("a shell's handlers are called by message type, after the client kept the message", () => {
  const { client, sockets } = setup();
  const heard = [];
  client.watch("ambush");
  client.handle("welcome", (m) => heard.push(["welcome", m.role, client.role]));
  const stop = client.handle("state", (m) => heard.push(["state", m.version, client.states.get("ambush")?.version]));
  client.handle("pairing", (m) => heard.push(["pairing", m.code]));
  client.on("message", (m) => heard.push(["message", m.type]));
  client.start();
  welcome(sockets[0]);
  sockets[0].deliver({ type: "state", battle: "ambush", version: 2, view: VIEW(2, { log: [] }) });
  sockets[0].deliver({ type: "pairing", origin: "http://x", code: "482 913", expires_in: 120 });
  stop();
  sockets[0].deliver({ type: "state", battle: "ambush", version: 3, view: VIEW(3, { log: [] }) });
  assert.deepEqual(heard, [
    ["welcome", "gm", "gm"],
    ["message", "welcome"],
    ["state", 2, 2],
    ["message", "state"],
    ["pairing", "482 913"],
    ["message", "pairing"],
    ["message", "state"],
  ]);
});

test("a failing handler is logged and the others still hear the message", () => {
  const { client, sockets } = setup();
  const heard = [];
  const logged = console.error;
  console.error = () => heard.push("logged");
  try {
    client.handle("welcome", () => {
      throw new Error("a shell's bug");
    });
    client.handle("welcome", () => heard.push("second"));
    client.start();
    welcome(sockets[0]);
  } finally {
    console.error = logged;
  }
  assert.deepEqual(heard, ["logged", "second"]);
  assert.equal(client.role, "gm");
});

test("list_battles resolves with the bridge's list, by id, and keeps it", async () => {
  const { client, sockets } = setup();
  client.start();
  welcome(sockets[0]);
  const listed = client.request("list_battles");
  const asked = sockets[0].sent.at(-1);
  assert.equal(asked.type, "list_battles");
  const battles = [{ name: "raid", version: 4, status: "setup", archived: false }];
  sockets[0].deliver({ type: "battles", battles: [] }); // a broadcast: no id, answers nothing
  sockets[0].deliver({ type: "battles", id: asked.id, battles });
  assert.deepEqual((await listed).battles, battles);
  assert.deepEqual(client.battles, battles);
});

test("a lost connection fails pending requests and reconnects with since_version", async () => {
  const { client, sockets, timers, statuses } = setup();
  client.watch("ambush");
  client.start();
  welcome(sockets[0]);
  sockets[0].deliver({ type: "state", battle: "ambush", version: 7, view: VIEW(7, { log: [] }) });
  const pending = client.command("ambush", { type: "start" });
  sockets[0].drop(1001);
  await assert.rejects(pending, (error) => error.code === "disconnected");
  assert.equal(statuses.at(-1).state, "closed");
  assert.equal(statuses.at(-1).reason, "lost");
  assert.equal(timers.length, 1);
  timers[0].fn();
  assert.equal(sockets.length, 2);
  welcome(sockets[1]);
  assert.deepEqual(sockets[1].sent.at(-1), { type: "subscribe", battle: "ambush", since_version: 7 });
});

test("retries back off while the bridge stays down", () => {
  const { client, sockets, timers, statuses } = setup();
  client.start();
  for (let i = 0; i < 4; i++) {
    sockets[i].drop(1006);
    timers[i].fn();
  }
  assert.deepEqual(
    timers.map((t) => t.ms),
    [250, 500, 1000, 2000],
  );
  assert.equal(statuses.filter((s) => s.state === "closed").at(-1).reason, "bridge_down");
});

test("a refused token stops the retries and says so", () => {
  const { client, sockets, timers, statuses } = setup();
  client.start();
  sockets[0].open();
  sockets[0].deliver({ type: "error", code: "bad_token", field: "token", message: "wrong token" });
  sockets[0].drop(1008);
  assert.deepEqual(statuses.at(-1), { state: "failed", reason: "bad_token" });
  assert.equal(timers.length, 0);
});

test("requests while disconnected are refused at once", async () => {
  const { client } = setup();
  await assert.rejects(client.request("ping"), (error) => error.code === "disconnected");
});

test("stop closes the socket and cancels the retry", () => {
  const { client, sockets, timers } = setup();
  client.start();
  sockets[0].drop(1006);
  client.stop();
  assert.equal(timers[0], null);
  assert.equal(client.status.state, "idle");
});

test("tokens and applied reports update the battle's Foundry data", () => {
  const { client, sockets } = setup();
  client.watch("ambush");
  client.start();
  welcome(sockets[0]);
  sockets[0].deliver({
    type: "state",
    battle: "ambush",
    version: 1,
    view: VIEW(1),
    foundry: { tokens: {}, applied: {} },
  });
  sockets[0].deliver({ type: "tokens", battle: "ambush", unit: "u1", token_ids: ["a", "b"], fighters: { b: 12 } });
  sockets[0].deliver({ type: "applied", battle: "ambush", unit: "u1", report: { killed: 1 } });
  const foundry = client.states.get("ambush").foundry;
  assert.deepEqual(foundry.tokens.u1, ["a", "b"]);
  assert.deepEqual(foundry.fighters, { u1: { b: 12 } });
  assert.deepEqual(foundry.applied.u1, { killed: 1 });
  // a new list replaces the head counts whole; an empty one forgets the unit
  sockets[0].deliver({ type: "tokens", battle: "ambush", unit: "u1", token_ids: ["a"], fighters: {} });
  assert.deepEqual([foundry.tokens, foundry.fighters], [{ u1: ["a"] }, {}]);
  sockets[0].deliver({ type: "tokens", battle: "ambush", unit: "u1", token_ids: [], fighters: {} });
  assert.deepEqual(foundry.tokens, {});
});

test("an unapplied message takes the unit's report out of the battle's Foundry data", () => {
  const { client, sockets } = setup();
  client.watch("ambush");
  client.start();
  welcome(sockets[0]);
  const applied = { u1: { version: 3, killed: 1 }, u2: { version: 3, killed: 0 } };
  sockets[0].deliver({ type: "state", battle: "ambush", version: 3, view: VIEW(3), foundry: { tokens: {}, applied } });
  sockets[0].deliver({ type: "unapplied", battle: "ambush", unit: "u1" });
  assert.deepEqual(client.states.get("ambush").foundry.applied, { u2: { version: 3, killed: 0 } });
  // a battle this client does not watch is ignored
  sockets[0].deliver({ type: "unapplied", battle: "siege", unit: "u2" });
  assert.deepEqual(Object.keys(client.states.get("ambush").foundry.applied), ["u2"]);
});

test("a watched battle refused as unknown is subscribed once the bridge lists it", () => {
  // A player is told of a battle only once the GM starts it (docs/protocol.md).
  const { client, sockets } = setup();
  client.watch("ambush");
  client.start();
  welcome(sockets[0]);
  const refused = { type: "error", code: "unknown_battle", field: "battle", battle: "ambush" };
  sockets[0].deliver({ ...refused, message: "there is no battle named 'ambush'", params: {} });
  sockets[0].deliver({
    type: "battles",
    battles: [{ name: "other", version: 0, status: "fighting", archived: false }],
  });
  assert.equal(sockets[0].sent.length, 2); // hello, the refused subscribe: nothing more yet
  const listed = { name: "ambush", version: 3, status: "fighting", archived: false };
  sockets[0].deliver({ type: "battles", battles: [listed] });
  assert.deepEqual(sockets[0].sent.at(-1), { type: "subscribe", battle: "ambush" });
  sockets[0].deliver({ type: "battles", battles: [listed] });
  assert.equal(sockets[0].sent.length, 3); // once, not on every list
});

test("an error that answers no request is a problem; one that answers a request is not", async () => {
  const { client, sockets } = setup();
  const problems = [];
  client.on("problem", (p) => problems.push(p));
  client.start();
  welcome(sockets[0]);
  const asked = client.command("ambush", { type: "rename", name: "x" });
  const id = sockets[0].sent.at(-1).id;
  sockets[0].deliver({ type: "error", id, code: "conflict", field: "expected_version", message: "stale" });
  await assert.rejects(asked, (error) => error.code === "conflict");
  const refused = {
    type: "error",
    battle: "nowhere",
    code: "unknown_battle",
    field: "battle",
    message: "no such battle",
  };
  sockets[0].deliver(refused);
  const late = { type: "error", id: "f-not-mine", code: "conflict", field: null, message: "late" };
  sockets[0].deliver(late);
  assert.deepEqual(problems, [refused, late]);
});

test("hello names the client: foundry unless told", () => {
  const foundry = setup();
  foundry.client.start();
  foundry.sockets[0].open();
  assert.equal(foundry.sockets[0].sent[0].client, "foundry");
  const web = setup({ client: "web" });
  web.client.start();
  web.sockets[0].open();
  assert.deepEqual(web.sockets[0].sent[0], { type: "hello", token: "gm-secret", client: "web" });
});
