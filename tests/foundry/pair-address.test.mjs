// Where the module asks to join by a code, and how a typed code is read (logic/pair-address.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { pairAddress, typedCode } from "../../foundry-module/scripts/logic/pair-address.mjs";

test("the pairing address is /pair beside the bridge's /ws", () => {
  assert.equal(pairAddress("ws://127.0.0.1:8765/ws"), "ws://127.0.0.1:8765/pair");
  assert.equal(pairAddress(" wss://gm.example/bridge/ws/ "), "wss://gm.example/bridge/pair");
  assert.equal(pairAddress("ws://[::1]:8765/ws?x=1#y"), "ws://[::1]:8765/pair");
});

test("an address that is not ws:// or wss:// has no pairing address", () => {
  for (const url of ["", "http://127.0.0.1:8765/ws", "127.0.0.1:8765", null, undefined]) {
    assert.equal(pairAddress(url), null, String(url));
  }
});

test("a typed code keeps its digits without spaces or dashes", () => {
  assert.equal(typedCode(" 123 456 "), "123456");
  assert.equal(typedCode("123-456"), "123456");
  assert.equal(typedCode("x".repeat(100)).length, 32);
});
