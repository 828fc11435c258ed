// After Undo apply the module tells the bridge (`unapplied`), against a fake socket.
import { test } from "node:test";
import assert from "node:assert/strict";

import { BridgeClient } from "../../foundry-module/client/bridge-client.mjs";
import { reportUndone } from "../../foundry-module/scripts/casualties.mjs";

/** A connected client whose socket answers every request with `answer(request)`. */
function connectedApp(answer) {
  const sent = [];
  const client = new BridgeClient({
    url: "ws://127.0.0.1:8765/ws",
    token: "gm-secret",
    createSocket: () => {
      const socket = {
        readyState: 0,
        send(text) {
          const message = JSON.parse(text);
          sent.push(message);
          if (message.type === "hello") return;
          const reply = { ...answer(message), id: message.id };
          queueMicrotask(() => socket.onmessage({ data: JSON.stringify(reply) }));
        },
        close() {},
      };
      queueMicrotask(() => {
        socket.readyState = 1;
        socket.onopen();
        socket.onmessage({ data: JSON.stringify({ type: "welcome", role: "gm", battles: [] }) });
      });
      return socket;
    },
    timers: { setTimeout: () => 0, clearTimeout: () => {} },
  });
  client.start();
  return { app: { client }, sent };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

test("the report's version goes to the bridge as `unapplied`", async () => {
  const { app, sent } = connectedApp(() => ({ type: "ack", battle: "ambush", version: 5 }));
  await settle();
  await reportUndone(app, "ambush", "u2", { version: 5, killed: 2, wounded: 4, fit: 4 });
  const { id, ...message } = sent.at(-1);
  assert.ok(id);
  assert.deepEqual(message, { type: "unapplied", battle: "ambush", unit: "u2", version: 5 });
});

test("no report known: nothing is sent", async () => {
  const { app, sent } = connectedApp(() => assert.fail("nothing should be asked"));
  await settle();
  await reportUndone(app, "ambush", "u2", undefined);
  assert.deepEqual(
    sent.map((m) => m.type),
    ["hello"],
  );
});

test("a report the bridge has not got any more is no failure; another version is", async () => {
  const refusal = (field) => () => ({ type: "error", code: "not_applied", field, params: {} });
  const gone = connectedApp(refusal("unit"));
  await settle();
  await reportUndone(gone.app, "ambush", "u2", { version: 5 });
  const newer = connectedApp(refusal("version"));
  await settle();
  await assert.rejects(reportUndone(newer.app, "ambush", "u2", { version: 4 }), {
    code: "not_applied",
    field: "version",
  });
});

test("without a connection the refusal says so", async () => {
  await assert.rejects(reportUndone({ client: null }, "ambush", "u2", { version: 5 }), {
    code: "disconnected",
  });
  const idle = new BridgeClient({ url: "ws://x/ws", token: "t", createSocket: () => ({}), timers: {} });
  await assert.rejects(reportUndone({ client: idle }, "ambush", "u2", { version: 5 }), {
    code: "disconnected",
  });
});
