// The players' eye watches what its owners want together (this browser's battles, each relayed
// player's), and a battle no longer wanted by anyone is unwatched.
import { test } from "node:test";
import assert from "node:assert/strict";

import { BROWSER, PlayerEye } from "../../foundry-module/scripts/player-eye.mjs";
import { setup } from "../client/fake-bridge.mjs";

function eyeOnline() {
  const made = setup({ token: "player-secret" });
  const eye = new PlayerEye(made.client);
  eye.start();
  made.sockets[0].open();
  made.sockets[0].deliver({ type: "welcome", role: "player", battles: [] });
  return { eye, socket: made.sockets[0] };
}

const asked = (socket, type) => socket.sent.filter((m) => m.type === type).map((m) => m.battle);

test("a battle two owners want is watched once, and unwatched after the last lets it go", () => {
  const { eye, socket } = eyeOnline();
  eye.watchFor(BROWSER, ["ambush"]);
  eye.watchFor("player1-session", new Set(["ambush", "siege"]));
  assert.deepEqual(asked(socket, "subscribe"), ["ambush", "siege"]);
  eye.watchFor("player1-session", []);
  assert.deepEqual(asked(socket, "unsubscribe"), ["siege"]);
  assert.deepEqual([...eye.watching()], ["ambush"]);
  assert.deepEqual([...eye.wanted.keys()], [BROWSER]);
  eye.watchFor(BROWSER, ["siege"]);
  assert.deepEqual(asked(socket, "unsubscribe"), ["siege", "ambush"]);
  assert.deepEqual(asked(socket, "subscribe"), ["ambush", "siege", "siege"]);
});

test("what the bridge refused before its welcome is kept for the relayed players, until the next try", () => {
  const made = setup({ token: "wrong" });
  const eye = new PlayerEye(made.client);
  eye.start();
  made.sockets[0].open();
  const refusal = { type: "error", code: "bad_token", field: "token", message: "wrong token" };
  made.sockets[0].deliver(refusal);
  made.sockets[0].drop(1008);
  assert.equal(made.client.status.state, "failed");
  assert.deepEqual(eye.refusals, [refusal]);
  made.client.restart();
  assert.deepEqual(eye.refusals, []);
});

function eyeWelcomedAs(role) {
  const made = setup({ token: `${role}-secret` });
  const eye = new PlayerEye(made.client);
  eye.start();
  made.sockets[0].open();
  made.sockets[0].deliver({ type: "welcome", role, battles: [] });
  eye.watchFor(BROWSER, ["ambush"]);
  made.sockets[0].deliver({ type: "state", battle: "ambush", version: 1, view: { phase: "setup" } });
  return eye;
}

test("an eye the bridge welcomed as a GM's (the GM token in the player-token setting) shows nothing", () => {
  assert.deepEqual(eyeWelcomedAs("player").view("ambush"), { phase: "setup" });
  const gms = eyeWelcomedAs("gm");
  assert.equal(gms.seesAsPlayer(), false);
  assert.equal(gms.state("ambush"), null);
  assert.equal(gms.view("ambush"), null);
});
