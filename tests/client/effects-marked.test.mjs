// The marks of an Influence roll's effects (mark_effects / effects_marked) in the client's
// Foundry data: each roll's marks replaced whole, a roll without marks forgotten.
import { test } from "node:test";
import assert from "node:assert/strict";

import { setup } from "./fake-bridge.mjs";

test("effects_marked replaces a roll's marks whole and forgets a roll left without any", () => {
  const { client, sockets } = setup();
  client.watch("ambush");
  client.start();
  sockets[0].open();
  sockets[0].deliver({ type: "welcome", role: "gm", client: "foundry", protocol: 1, battles: [] });
  sockets[0].deliver({ type: "state", battle: "ambush", version: 6, view: { log: [] }, foundry: { tokens: {} } });
  const foundry = () => client.states.get("ambush").foundry;
  assert.deepEqual(foundry().marks, {}); // a state without marks has none
  const marks = { 0: { by: "foundry", result: "Orc boss: 11 Damage (1d10+4)" }, 1: { by: "foundry" } };
  sockets[0].deliver({ type: "effects_marked", battle: "ambush", version: 6, marks });
  assert.deepEqual(foundry().marks, { 6: marks });
  sockets[0].deliver({ type: "effects_marked", battle: "ambush", version: 6, marks: { 1: { by: "web" } } });
  assert.deepEqual(foundry().marks, { 6: { 1: { by: "web" } } });
  sockets[0].deliver({ type: "effects_marked", battle: "ambush", version: 6, marks: {} });
  assert.deepEqual(foundry().marks, {});
  // a battle not held: nothing to keep
  sockets[0].deliver({ type: "effects_marked", battle: "siege", version: 2, marks });
  assert.equal(client.states.has("siege"), false);
});
