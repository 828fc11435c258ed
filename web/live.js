// Live mode: the page follows a battle held by the bridge that serves it (docs/web.md, "Live mode").
// The bridge's `state_view` is what the page paints; every change is a bridge `command`.
import { STORAGE_KEYS } from "./config.js";
import { olderLog } from "./log-pages.js";

const BACKOFF_MS = [500, 1000, 2000, 4000, 8000];
const BUSY_RETRY_MS = 1000; // a log page refused as rate_limited: the battle is asked for again

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
    this.loading = null; // {view}: a long battle's state while its older log pages come
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
      this.loading = null; // the reconnect's hello asks afresh
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
    clearTimeout(this.busyTimer);
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
        if (message.log_from > 0) return this.loadOlderLog(message);
        this.loading = null;
        this.view = message.view;
        this.hooks.onView(this.view, message);
        break;
      case "event": {
        const held = this.latest();
        if (message.battle !== this.battle || !held) return;
        if (message.version <= held.version) return; // already have it
        if (message.version !== held.version + 1) return this.catchUp();
        this.update({ ...message.view, log: [...held.log, { command: message.command, events: message.events }] }, message);
        break;
      }
      case "events": {
        const held = this.latest();
        if (message.battle !== this.battle || !held) return;
        if (message.since_version !== held.version) return this.catchUp();
        this.update({ ...message.view, log: [...held.log, ...message.entries] }, message);
        break;
      }
      case "ack":
      case "log_page":
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

  /** The newest view held: the one still waiting for its older log, else the one shown. */
  latest() {
    return this.loading?.view ?? this.view;
  }

  /** A newer view: shown, or kept for when the older log has come. */
  update(view, message) {
    if (this.loading) {
      this.loading.view = view;
      return;
    }
    this.view = view;
    this.hooks.onView(view, message);
  }

  /**
   * A long battle's state has only the log's last page: the older pages are asked for first and
   * the view is shown once its log is whole (events meanwhile join its end). Until then the page
   * keeps what it showed; a newer state, a reconnect or another battle makes these pages moot.
   */
  async loadOlderLog(message) {
    const loading = { view: message.view };
    this.loading = loading;
    const older = await olderLog((ask) => this.request(ask), message.battle, message.log_from);
    if (this.loading !== loading) return;
    this.loading = null;
    const { error } = older;
    if (error?.code === "not_connected") return;
    if (error?.code === "rate_limited") {
      this.busyTimer = setTimeout(() => {
        if (this.battle === message.battle && !this.loading) this.catchUp();
      }, BUSY_RETRY_MS);
      return;
    }
    this.view = { ...loading.view, log: [...older.entries, ...loading.view.log] };
    // A refused or empty page: shown with the hole rather than asked for again and again.
    if (older.reached < message.log_from) {
      const missing = `log entries ${older.reached + 1}..${message.log_from} did not come`;
      this.hooks.onProblem(error ?? { code: "log_incomplete", field: null, message: missing, params: {} });
    }
    this.hooks.onView(this.view, { ...message, log_from: 0 });
  }

  /** Follow one battle: its whole state now, its events after. */
  follow(name) {
    if (this.battle && this.battle !== name) this.send({ type: "unsubscribe", battle: this.battle });
    this.battle = name;
    this.view = null;
    this.loading = null;
    this.send({ type: "subscribe", battle: name });
  }

  /** Asks for what was missed since the newest view held (the whole state when none is). */
  catchUp() {
    const held = this.latest();
    const message = { type: "subscribe", battle: this.battle };
    if (held) message.since_version = held.version;
    this.send(message);
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
