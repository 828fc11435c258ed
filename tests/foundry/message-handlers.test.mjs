// The module's handlers of the bridge's messages, by type: handed to the client of a role (the
// shared client dispatches), in the order registered, and to the next client after a reconnect.
import { test } from "node:test";
import assert from "node:assert/strict";

import { MessageHandlers } from "../../foundry-module/scripts/message-handlers.mjs";
import { setup } from "../client/fake-bridge.mjs";

function online() {
  const made = setup();
  made.client.start();
  made.sockets[0].open();
  return made;
}

test("a message reaches the handlers of its type, in order, and no others", () => {
  const heard = [];
  const handlers = new MessageHandlers();
  handlers.handle("welcome", () => heard.push("welcome"));
  handlers.handle("battles", (m) => heard.push(`first ${m.battles.length}`));
  handlers.handle("battles", () => heard.push("second"));
  const { client, sockets } = online();
  handlers.attach(client);
  sockets[0].deliver({ type: "welcome", role: "gm", battles: [] });
  sockets[0].deliver({ type: "battles", battles: [{ name: "ambush" }] });
  sockets[0].deliver({ type: "pong" });
  assert.deepEqual(heard, ["welcome", "first 1", "second"]);
});

test("the next client of the role gets every handler, one registered late too", () => {
  const heard = [];
  const handlers = new MessageHandlers();
  handlers.handle("battles", () => heard.push("early"));
  const first = online();
  handlers.attach(first.client);
  handlers.handle("battles", () => heard.push("late"));
  first.sockets[0].deliver({ type: "battles", battles: [] });
  const next = online();
  handlers.attach(next.client);
  next.sockets[0].deliver({ type: "battles", battles: [] });
  assert.deepEqual(heard, ["early", "late", "early", "late"]);
});
