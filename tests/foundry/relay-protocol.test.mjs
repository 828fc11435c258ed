// The relay's rules for what the active GM's browser passes on: pure logic.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  EVERYONE,
  PLAYER_FRAMES,
  backToPlayer,
  concerns,
  forwardFrame,
  onTheLine,
  relayMessage,
  sessionId,
  watchedAfter,
} from "../../foundry-module/scripts/logic/relay-protocol.mjs";

test("a player's hello goes to the bridge with the player token, whatever it said", () => {
  const sent = forwardFrame(
    { type: "hello", token: "gm-token-guess", client: "web", battle: "ambush", since_version: 3, role: "gm" },
    "player-secret",
  );
  assert.deepEqual(sent, {
    send: { type: "hello", token: "player-secret", client: "foundry", battle: "ambush", since_version: 3 },
  });
});

test("reading frames pass unchanged", () => {
  for (const type of PLAYER_FRAMES.filter((t) => t !== "hello")) {
    const frame = { type, battle: "ambush" };
    assert.deepEqual(forwardFrame(frame, "p"), { send: frame });
  }
});

test("a relayed player may read a long battle's older log pages", () => {
  const frame = { type: "log_page", id: "p1", battle: "ambush", since_version: 0, until_version: 700 };
  assert.deepEqual(forwardFrame(frame, "p"), { send: frame });
});

test("a frame that would change anything is refused in the bridge's own error shape", () => {
  for (const type of ["command", "tokens", "request_casualties", "applied", "unapplied", undefined]) {
    const { send, reply } = forwardFrame({ type, id: "r1" }, "p");
    assert.equal(send, undefined);
    assert.deepEqual(
      { ...reply, message: undefined },
      {
        type: "error",
        id: "r1",
        code: "forbidden",
        field: "type",
        message: undefined,
      },
    );
  }
  assert.equal("id" in forwardFrame({ type: "command" }, "p").reply, false);
});

test("only the relay's own messages are taken from the module's channel", () => {
  assert.ok(relayMessage({ kind: "frame", session: "s", from: "u", to: null, frame: {} }));
  assert.equal(relayMessage(null), null);
  assert.equal(relayMessage("open"), null);
  assert.equal(relayMessage({ kind: "other", session: "s", from: "u" }), null);
  assert.equal(relayMessage({ kind: "open", session: "", from: "u" }), null);
  assert.equal(relayMessage({ kind: "open", session: "s" }), null);
});

test("session ids carry the user and differ by time and chance", () => {
  const a = sessionId("player1", 0.1, 1000);
  assert.match(a, /^player1-/);
  assert.notEqual(a, sessionId("player1", 0.2, 1000));
  assert.notEqual(a, sessionId("player1", 0.1, 1001));
});

test("a player's request goes on the players' eye's connection with an id naming its session, and back", () => {
  const { send, route } = onTheLine({ type: "log_page", id: "p1", battle: "ambush", since_version: 0 }, "s1~1");
  assert.deepEqual(send, { type: "log_page", id: "s1~1", battle: "ambush", since_version: 0 });
  assert.deepEqual(backToPlayer({ type: "log_page", id: "s1~1", entries: [] }, route), {
    type: "log_page",
    id: "p1",
    entries: [],
  });
  // a request the player sent without an id is answered without one
  const plain = onTheLine({ type: "subscribe", battle: "ambush" }, "s1~2");
  assert.equal(plain.send.id, "s1~2");
  assert.deepEqual(backToPlayer({ type: "state", id: "s1~2", battle: "ambush" }, plain.route), {
    type: "state",
    battle: "ambush",
  });
});

test("a player's socket keeps the pushes about the battles it watches", () => {
  let watching = new Set();
  watching = watchedAfter(watching, { type: "hello", token: "", battle: "ambush" });
  watching = watchedAfter(watching, { type: "subscribe", battle: "siege" });
  watching = watchedAfter(watching, { type: "unsubscribe", battle: "ambush" });
  watching = watchedAfter(watching, { type: "ping" });
  assert.deepEqual([...watching], ["siege"]);
  assert.ok(concerns({ type: "event", battle: "siege" }, watching));
  assert.ok(!concerns({ type: "event", battle: "ambush" }, watching));
  assert.ok(concerns({ type: "battles", battles: [] }, watching));
  assert.equal(EVERYONE, "*");
});
