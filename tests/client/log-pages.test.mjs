// A long battle's older log, asked for page by page (protocol: "Keeping in step"), against a fake
// socket: the pages, events arriving meanwhile, a newer state, refusals and a lost connection.
import { test } from "node:test";
import assert from "node:assert/strict";

import { olderLog } from "../../foundry-module/client/log-pages.mjs";
import { setup } from "./fake-bridge.mjs";

const settle = () => new Promise((resolve) => setImmediate(resolve));
const entry = (n) => ({ command: { type: "rename", name: `n${n}` }, events: [] });
const entries = (from, to) => Array.from({ length: to - from }, (_, i) => entry(from + i + 1));
const VIEW = (version, log) => ({ name: "ambush", version, status: "setup", units: [], log });
const pageAsks = (socket) => socket.sent.filter((m) => m.type === "log_page");

/** A client watching "ambush", welcomed; `messages` are those it passed on. */
function connected() {
  const { client, sockets, timers } = setup();
  const messages = [];
  client.on("message", (m) => messages.push(m));
  client.watch("ambush");
  client.start();
  sockets[0].open();
  sockets[0].deliver({ type: "welcome", role: "gm", client: "foundry", protocol: 1, battles: [] });
  return { client, sockets, timers, messages };
}

/** A `state` of a battle at `version` whose log is sent from `logFrom` on. */
function longState(version, logFrom) {
  return {
    type: "state",
    battle: "ambush",
    version,
    archived: false,
    log_from: logFrom,
    view: VIEW(version, entries(logFrom, version)),
  };
}

/** Answers the newest `log_page` request with entries since..until (or fewer, `upTo`). */
function answerPage(socket, upTo) {
  const ask = pageAsks(socket).at(-1);
  const until = Math.min(ask.until_version, upTo ?? Infinity);
  socket.deliver({
    type: "log_page",
    id: ask.id,
    battle: ask.battle,
    since_version: ask.since_version,
    until_version: until,
    version: 0,
    entries: entries(ask.since_version, until),
  });
}

const names = (log) => log.map((e) => e.command.name);
const expected = (to) => names(entries(0, to));

test("a long battle's state asks for the older pages from 0, each from the last until_version", async () => {
  const { client, sockets, messages } = connected();
  sockets[0].deliver(longState(1200, 700));
  assert.equal(client.states.get("ambush"), undefined, "not whole yet, so not offered");
  assert.equal(messages.filter((m) => m.type === "state").length, 0);
  const first = pageAsks(sockets[0])[0];
  assert.deepEqual(
    { ...first, id: undefined },
    { type: "log_page", id: undefined, battle: "ambush", since_version: 0, until_version: 700 },
  );
  answerPage(sockets[0], 500);
  await settle();
  assert.deepEqual(pageAsks(sockets[0])[1].since_version, 500);
  answerPage(sockets[0]);
  await settle();
  assert.equal(pageAsks(sockets[0]).length, 2);
  const state = client.states.get("ambush");
  assert.equal(state.version, 1200);
  assert.deepEqual(names(state.view.log), expected(1200));
  const announced = messages.filter((m) => m.type === "state");
  assert.equal(announced.length, 1);
  assert.equal(announced[0].log_from, 0);
  assert.equal(announced[0].view.log.length, 1200);
});

test("events arriving while the pages come are applied once, after the state's tail", async () => {
  const { client, sockets } = connected();
  sockets[0].deliver(longState(600, 100));
  const event = (version) => ({
    type: "event",
    battle: "ambush",
    version,
    command: entry(version).command,
    events: [],
    view: VIEW(version),
  });
  sockets[0].deliver(event(601));
  sockets[0].deliver(event(601)); // a repeat is not applied twice
  sockets[0].deliver(event(602));
  answerPage(sockets[0]);
  await settle();
  const state = client.states.get("ambush");
  assert.equal(state.version, 602);
  assert.deepEqual(names(state.view.log), expected(602));
});

test("a gap while the pages come asks from the loading state's version; its events join the tail", async () => {
  const { client, sockets } = connected();
  sockets[0].deliver(longState(600, 100));
  sockets[0].deliver({ type: "event", battle: "ambush", version: 603, command: {}, events: [], view: VIEW(603) });
  assert.deepEqual(sockets[0].sent.at(-1), { type: "subscribe", battle: "ambush", since_version: 600 });
  sockets[0].deliver({
    type: "events",
    battle: "ambush",
    since_version: 600,
    version: 603,
    entries: entries(600, 603),
    view: VIEW(603),
  });
  answerPage(sockets[0]);
  await settle();
  assert.deepEqual(names(client.states.get("ambush").view.log), expected(603));
});

test("a newer state makes the pages of the older one moot", async () => {
  const { client, sockets, messages } = connected();
  sockets[0].deliver(longState(600, 100));
  const stale = pageAsks(sockets[0])[0];
  sockets[0].deliver(longState(900, 300));
  answerPage(sockets[0]); // the newer state's page
  sockets[0].deliver({
    type: "log_page",
    id: stale.id,
    battle: "ambush",
    since_version: 0,
    until_version: 100,
    version: 900,
    entries: entries(0, 100),
  });
  await settle();
  assert.deepEqual(names(client.states.get("ambush").view.log), expected(900));
  assert.equal(messages.filter((m) => m.type === "state").length, 1);
});

test("a short state while the pages come replaces the long one", async () => {
  const { client, sockets } = connected();
  sockets[0].deliver(longState(600, 100));
  sockets[0].deliver({
    type: "state",
    battle: "ambush",
    version: 3,
    archived: false,
    log_from: 0,
    view: VIEW(3, entries(0, 3)),
  });
  answerPage(sockets[0]);
  await settle();
  assert.equal(client.states.get("ambush").version, 3);
});

test("a page refused as rate_limited asks for the battle again after a pause", async () => {
  const { client, sockets, timers } = connected();
  sockets[0].deliver(longState(600, 100));
  const ask = pageAsks(sockets[0])[0];
  sockets[0].deliver({ type: "error", id: ask.id, code: "rate_limited", message: "too many messages" });
  await settle();
  assert.equal(client.states.get("ambush"), undefined);
  assert.equal(timers.length, 1);
  timers[0].fn();
  assert.deepEqual(sockets[0].sent.at(-1), { type: "subscribe", battle: "ambush" });
});

test("a page refused otherwise offers the battle with the hole it has, not asking again", async () => {
  const { client, sockets, timers, messages } = connected();
  sockets[0].deliver(longState(1200, 700));
  answerPage(sockets[0], 500);
  await settle();
  const ask = pageAsks(sockets[0])[1];
  sockets[0].deliver({ type: "error", id: ask.id, code: "forbidden", field: "type", message: "no" });
  await settle();
  const state = client.states.get("ambush");
  assert.deepEqual(state.logHole, { from: 500, to: 700 });
  assert.deepEqual(names(state.view.log), [...expected(500), ...names(entries(700, 1200))]);
  assert.equal(messages.filter((m) => m.type === "state").length, 1);
  assert.equal(timers.length, 0);
});

test("a lost connection drops the half-loaded state; the reconnect subscribes afresh", async () => {
  const { client, sockets, timers } = connected();
  sockets[0].deliver({
    type: "state",
    battle: "ambush",
    version: 5,
    archived: false,
    log_from: 0,
    view: VIEW(5, entries(0, 5)),
  });
  sockets[0].deliver(longState(900, 300));
  sockets[0].drop(1001);
  await settle();
  assert.equal(timers.length, 1, "only the reconnect is scheduled");
  timers[0].fn();
  sockets[1].open();
  sockets[1].deliver({ type: "welcome", role: "gm", client: "foundry", protocol: 1, battles: [] });
  // the whole state it still holds is version 5
  assert.deepEqual(sockets[1].sent.at(-1), { type: "subscribe", battle: "ambush", since_version: 5 });
  assert.equal(client.states.get("ambush").version, 5);
});

test("olderLog stops at a page with no entries and says how far it got", async () => {
  const asked = [];
  const askPage = async (fields) => {
    asked.push(fields.since_version);
    const until = fields.since_version === 0 ? 2 : fields.since_version;
    return { until_version: until, entries: entries(fields.since_version, until) };
  };
  const { entries: got, reached, error } = await olderLog(askPage, "ambush", 5);
  assert.deepEqual(asked, [0, 2]);
  assert.equal(reached, 2);
  assert.equal(error, null);
  assert.deepEqual(names(got), expected(2));
});

/** A client watching "ambush" whose long state's first page came up to entry 500 of 700. */
async function halfLoaded() {
  const { client, sockets } = connected();
  const problems = [];
  client.on("problem", (p) => problems.push(p));
  sockets[0].deliver(longState(1200, 700));
  answerPage(sockets[0], 500);
  await settle();
  return { socket: sockets[0], problems };
}

test("a log with a hole is told as a problem: the refusal, or the pages that came empty", async () => {
  const refused = await halfLoaded();
  const ask = pageAsks(refused.socket)[1];
  const refusal = { type: "error", id: ask.id, code: "forbidden", field: "type", message: "no" };
  refused.socket.deliver(refusal);
  await settle();
  assert.deepEqual(refused.problems, [refusal]);

  const empty = await halfLoaded();
  answerPage(empty.socket, 500); // nothing past 500: an entry too big to send
  await settle();
  const told = empty.problems;
  assert.deepEqual(
    told.map((p) => [p.code, p.battle, p.params]),
    [["log_incomplete", "ambush", { from: 500, to: 700 }]],
  );
  assert.match(told[0].message, /log entries 501\.\.700 did not come/);
});
