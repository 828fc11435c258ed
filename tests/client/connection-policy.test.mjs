// Reconnect back-off, URL check and failure diagnosis: pure logic.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  addressSpace,
  backoffDelay,
  checkBridgeUrl,
  diagnose,
} from "../../foundry-module/client/connection-policy.mjs";

test("reconnect waits twice as long each time, up to 30 s", () => {
  const lows = [0, 1, 2, 3, 4].map((n) => backoffDelay(n, 0));
  assert.deepEqual(lows, [250, 500, 1000, 2000, 4000]);
  assert.equal(backoffDelay(100, 0), 15_000);
  assert.ok(backoffDelay(100, 0.999999) <= 30_000);
});

test("the jitter stays within half a step to a full step", () => {
  for (const r of [0, 0.25, 0.5, 0.75, 0.9999]) {
    const d = backoffDelay(3, r);
    assert.ok(d >= 2000 && d <= 4000, `${r} -> ${d}`);
  }
});

test("bad back-off input is refused with the field named", () => {
  assert.throws(() => backoffDelay(-1, 0), /attempt/);
  assert.throws(() => backoffDelay(1.5, 0), /attempt/);
  assert.throws(() => backoffDelay(1, 1), /random.*\[0, 1\)/);
});

test("the bridge URL must be a ws:// or wss:// URL", () => {
  assert.deepEqual(checkBridgeUrl("ws://127.0.0.1:8765/ws"), {
    ok: true,
    url: "ws://127.0.0.1:8765/ws",
  });
  assert.equal(checkBridgeUrl(" wss://bridge.example.org/ws ").ok, true);
  assert.equal(checkBridgeUrl("").reason, "url_missing");
  assert.equal(checkBridgeUrl("not a url").reason, "url_invalid");
  const http = checkBridgeUrl("http://127.0.0.1:8765/ws");
  assert.equal(http.reason, "url_scheme");
  assert.equal(http.field, "bridgeUrl");
  assert.match(http.accepted, /ws:\/\//);
});

test("address spaces: loopback, private, public", () => {
  assert.equal(addressSpace("127.0.0.1"), "loopback");
  assert.equal(addressSpace("localhost"), "loopback");
  assert.equal(addressSpace("[::1]"), "loopback");
  assert.equal(addressSpace("192.168.1.20"), "private");
  assert.equal(addressSpace("10.0.0.5"), "private");
  assert.equal(addressSpace("172.20.0.1"), "private");
  assert.equal(addressSpace("172.40.0.1"), "public");
  assert.equal(addressSpace("foundry.example.org"), "public");
});

const LOCAL_PAGE = { protocol: "http:", hostname: "localhost" };
const PUBLIC_PAGE = { protocol: "https:", hostname: "mygame.forge-vtt.com" };
const URL_LOCAL = "ws://127.0.0.1:8765/ws";

test("a refused token is told apart from a bridge that is down", () => {
  assert.equal(diagnose({ page: LOCAL_PAGE, url: URL_LOCAL, opened: true, error: "bad_token" }), "bad_token");
  assert.equal(diagnose({ page: LOCAL_PAGE, url: URL_LOCAL, opened: false, closeCode: 1006 }), "bridge_down");
});

test("a public site reaching this computer may be blocked by the browser", () => {
  assert.equal(diagnose({ page: PUBLIC_PAGE, url: URL_LOCAL, opened: false, closeCode: 1006 }), "blocked_or_down");
  assert.equal(diagnose({ page: PUBLIC_PAGE, url: "wss://192.168.1.4:8765/ws", opened: false }), "blocked_or_down");
});

test("an https page may not open ws:// to another machine", () => {
  assert.equal(diagnose({ page: PUBLIC_PAGE, url: "ws://192.168.1.4:8765/ws", opened: false }), "mixed_content");
});

test("a connection that was open and closed is lost, not refused", () => {
  assert.equal(diagnose({ page: LOCAL_PAGE, url: URL_LOCAL, opened: true, closeCode: 1006 }), "lost");
});
