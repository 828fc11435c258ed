// The module's one dispatch of the bridge's messages: handlers by type, in the order registered.
import { test } from "node:test";
import assert from "node:assert/strict";

import { Dispatch } from "../../foundry-module/scripts/dispatch.mjs";

test("a message reaches the handlers of its type, in order, and no others", () => {
  const heard = [];
  const dispatch = new Dispatch();
  dispatch.on("state", (m) => heard.push(`first ${m.battle}`));
  dispatch.on(["state", "event"], (m) => heard.push(`second ${m.type}`));
  dispatch.on("battles", () => heard.push("battles"));
  dispatch.deliver({ type: "state", battle: "ambush" });
  dispatch.deliver({ type: "event", battle: "ambush" });
  dispatch.deliver({ type: "pong" });
  dispatch.deliver(null);
  assert.deepEqual(heard, ["first ambush", "second state", "second event"]);
});

test("a failing handler does not keep the others from the message; a stopped one hears nothing", (t) => {
  t.mock.method(console, "error", () => {});
  const heard = [];
  const dispatch = new Dispatch();
  dispatch.on("event", () => {
    throw new Error("broken");
  });
  const stop = dispatch.on("event", () => heard.push("kept"));
  dispatch.deliver({ type: "event" });
  stop();
  dispatch.deliver({ type: "event" });
  assert.deepEqual(heard, ["kept"]);
  assert.equal(console.error.mock.callCount(), 2);
});
