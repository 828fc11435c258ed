// Live mode: the page follows a battle held by the bridge that serves it (docs/web.md, "Live mode").
// The bridge's `state_view` is what the page paints; every change is a bridge `command`.
import { STORAGE_KEYS } from "./config.js";

const BACKOFF_MS = [500, 1000, 2000, 4000, 8000];

/** The token in the address bar's fragment (`#token=…`), if any; removes it from the bar. */
export function takeTokenFromUrl() {
  const match = /^#token=([^&]+)$/.exec(location.hash || "");
  if (!match) return null;
  history.replaceState(null, "", location.pathname + location.search);
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

export function storedToken() {
  try {
    return localStorage.getItem(STORAGE_KEYS.liveToken);
  } catch {
    return null;
  }
}

export function storeToken(token) {
  try {
    if (token) localStorage.setItem(STORAGE_KEYS.liveToken, token);
    else localStorage.removeItem(STORAGE_KEYS.liveToken);
  } catch {
    /* private mode: the token lasts this visit */
  }
}

/** Is this page served by a bridge? It answers `bridge.json`; a static host has the build's `{"bridge": null}`. */
export async function findBridge() {
  if (!location.protocol.startsWith("http")) return null;
  try {
    const response = await fetch(new URL("bridge.json", location.href), { cache: "no-store" });
    if (!response.ok) return null;
    const marker = await response.json();
    if (marker?.bridge !== "background-battle") return null;
    const url = new URL(marker.ws || "/ws", location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    return { ws: url.href, protocol: marker.protocol };
  } catch {
    return null;
  }
}

/**
 * One connection to the bridge, reconnecting with back-off.
 * hooks: onStatus(state, detail), onWelcome(welcome), onBattles(list), onView(view, battle),
 *        onProblem(error) for errors not tied to a command.
 */
export class LiveClient {
  constructor(wsUrl, token, hooks) {
    this.wsUrl = wsUrl;
    this.token = token;
    this.hooks = hooks;
    this.ws = null;
    this.role = null;
    this.battle = null; // the name followed
    this.view = null; // the last view, log included
    this.pending = new Map(); // command id -> resolve
    this.counter = 0;
    this.prefix = `web-${crypto.getRandomValues(new Uint32Array(2)).join("")}`;
    this.attempt = 0;
    this.timer = null;
    this.stopped = false;
    this.connect();
  }

  connect() {
    clearTimeout(this.timer);
    if (this.stopped) return;
    this.hooks.onStatus(this.attempt ? "reconnecting" : "connecting");
    let ws;
    try {
      ws = new WebSocket(this.wsUrl);
    } catch (error) {
      this.hooks.onStatus("offline", String(error.message || error));
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      const hello = { type: "hello", token: this.token, client: "web" };
      if (this.battle) {
        hello.battle = this.battle;
        if (this.view) hello.since_version = this.view.version;
      }
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.receive(message);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.failPending();
      if (this.stopped) return;
      const wait = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
      this.attempt += 1;
      this.hooks.onStatus("offline", wait);
      this.timer = setTimeout(() => this.connect(), wait);
    };
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.failPending();
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close(1000, "back to local mode");
    }
  }

  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  receive(message) {
    switch (message.type) {
      case "welcome":
        this.role = message.role;
        this.attempt = 0;
        this.hooks.onWelcome(message);
        this.hooks.onBattles(message.battles);
        this.hooks.onStatus("live");
        break;
      case "battles":
        this.hooks.onBattles(message.battles);
        break;
      case "state":
        if (message.battle !== this.battle) return;
        this.view = message.view;
        this.hooks.onView(this.view, message);
        break;
      case "event":
        if (message.battle !== this.battle || !this.view) return;
        if (message.version <= this.view.version) return; // already have it
        if (message.version !== this.view.version + 1) return this.catchUp();
        this.view = { ...message.view, log: [...this.view.log, { command: message.command, events: message.events }] };
        this.hooks.onView(this.view, message);
        break;
      case "events":
        if (message.battle !== this.battle || !this.view) return;
        if (message.since_version !== this.view.version) return this.catchUp();
        this.view = { ...message.view, log: [...this.view.log, ...message.entries] };
        this.hooks.onView(this.view, message);
        break;
      case "ack":
      case "error":
        if (message.id && this.pending.has(message.id)) {
          const resolve = this.pending.get(message.id);
          this.pending.delete(message.id);
          resolve(message);
        } else if (message.type === "error") {
          if (message.code === "bad_token") this.stopped = true;
          this.hooks.onProblem(message);
        }
        break;
      default:
        break;
    }
  }

  /** Follow one battle: its whole state now, its events after. */
  follow(name) {
    if (this.battle && this.battle !== name) this.send({ type: "unsubscribe", battle: this.battle });
    this.battle = name;
    this.view = null;
    this.send({ type: "subscribe", battle: name });
  }

  catchUp() {
    this.send({ type: "subscribe", battle: this.battle, since_version: this.view.version });
  }

  /** Send a request with a fresh id; resolves with its `ack` or `error` (never rejects). */
  request(message) {
    const id = `${this.prefix}-${++this.counter}`;
    return new Promise((resolve) => {
      if (!this.send({ ...message, id })) {
        resolve({ type: "error", code: "not_connected", field: null, message: "not connected to the bridge", params: {} });
        return;
      }
      this.pending.set(id, resolve);
    });
  }

  /** A change to the battle followed: a bridge `command` made against the version shown. */
  command(command, battle = this.battle) {
    const message = { type: "command", battle, command };
    if (this.view && battle === this.battle) message.expected_version = this.view.version;
    return this.request(message);
  }

  failPending() {
    for (const [id, resolve] of this.pending) {
      resolve({ type: "error", code: "not_connected", field: null, message: "the connection to the bridge was lost", params: {} });
      this.pending.delete(id);
    }
  }
}
