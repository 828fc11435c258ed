// The client's part in the module's relay: frames that answer requests sent for someone else are
// handed over unread.
import { test } from "node:test";
import assert from "node:assert/strict";

import { setup } from "./fake-bridge.mjs";

const STATE = { type: "state", battle: "ambush", version: 3, archived: false, log_from: 0, view: { log: [] } };

function welcomed() {
  const made = setup({ token: "player-secret" });
  made.client.start();
  made.sockets[0].open();
  made.sockets[0].deliver({ type: "welcome", role: "player", battles: [], limits: { max_message: 524288 } });
  return made;
}

test("a frame taken by an interceptor is not read by the client; the others are", () => {
  const { client, sockets } = welcomed();
  const taken = [];
  const heard = [];
  client.on("message", (message) => heard.push(message.type));
  const stop = client.intercept((frame) => {
    if (frame.id !== "relayed~1") return false;
    taken.push(frame);
    return true;
  });
  sockets[0].deliver({ ...STATE, id: "relayed~1" });
  assert.deepEqual(taken, [{ ...STATE, id: "relayed~1" }]);
  assert.equal(client.states.has("ambush"), false);
  assert.deepEqual(heard, []);
  sockets[0].deliver(STATE);
  assert.equal(client.states.get("ambush").version, 3);
  assert.deepEqual(heard, ["state"]);
  stop();
  sockets[0].deliver({ ...STATE, version: 4, id: "relayed~1" });
  assert.equal(taken.length, 1);
  assert.equal(client.states.get("ambush").version, 4);
});
