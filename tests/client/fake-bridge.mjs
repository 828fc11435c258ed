// A fake socket and fake timers for the bridge client's Node tests (no network): the socket
// records what the client sends; the test opens it, delivers messages and drops it.
import { BridgeClient } from "../../foundry-module/client/bridge-client.mjs";

export class FakeSocket {
  constructor(url) {
    this.url = url;
    this.sent = [];
    this.readyState = 0;
    this.closed = null;
  }
  send(text) {
    this.sent.push(JSON.parse(text));
  }
  close(code) {
    this.closed = code;
    this.readyState = 3;
  }
  // test side
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  deliver(message) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

export function setup(overrides = {}) {
  const sockets = [];
  const timers = [];
  const client = new BridgeClient({
    url: "ws://127.0.0.1:8765/ws",
    token: "gm-secret",
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    timers: {
      setTimeout: (fn, ms) => timers.push({ fn, ms }) - 1,
      clearTimeout: (i) => {
        timers[i] = null;
      },
    },
    random: () => 0,
    ...overrides,
  });
  const statuses = [];
  client.on("status", (s) => statuses.push(s));
  return { client, sockets, timers, statuses };
}
