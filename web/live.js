// Live mode: the page follows a battle held by the bridge that serves it (docs/web.md, "Live mode").
// The bridge's `state_view` is what the page paints; every change is a bridge `command`.
import { BridgeClient } from "./client/bridge-client.mjs";
import { STORAGE_KEYS } from "./config.js";

/** A number in [0, 1) from the browser's crypto: the randomness of request ids and back-off. */
const random = () => crypto.getRandomValues(new Uint32Array(1))[0] / 2 ** 32;

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
 * The page's side of the one client of the bridge (client/bridge-client.mjs, docs/client.md): it
 * follows one battle and tells the page in its hooks. The client keeps the connection (hello,
 * reconnects with back-off, catching up after a gap, a long log's older pages).
 * hooks: onStatus(state, detail), onWelcome(welcome), onBattles(list), onView(view, battle),
 *        onPairing(message) for a page asking to join by a code (the GM's only),
 *        onProblem(error) for errors not tied to a command,
 *        onMarks(marks) the GM's: which effects of each Influence roll are done ({version: {effect: mark}}).
 */
export class LiveClient {
  constructor(wsUrl, token, hooks) {
    this.hooks = hooks;
    this.battle = null; // the name followed
    this.view = null; // the last view shown, its log whole (a long log's older pages come first)
    this.bridge = new BridgeClient({
      url: wsUrl,
      token,
      client: "web",
      createSocket: (url) => new WebSocket(url),
      timers: { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (id) => clearTimeout(id) },
      random,
      page: { protocol: location.protocol, hostname: location.hostname },
    });
    this.bridge.on("status", (status) => this.status(status));
    this.bridge.on("problem", (error) => hooks.onProblem(error));
    // The client dispatches by type; the page registers what it does with each.
    this.bridge.handle("welcome", (welcome) => {
      hooks.onWelcome(welcome);
      hooks.onBattles(welcome.battles);
      hooks.onStatus("live");
    });
    this.bridge.handle("battles", (message) => hooks.onBattles(message.battles));
    // a page (Foundry) asks to join by a code: the GM reads it here too
    this.bridge.handle("pairing", (message) => hooks.onPairing?.(message));
    this.bridge.handle("pairing_over", (message) => hooks.onPairing?.(message));
    for (const type of ["state", "event", "events"]) this.bridge.handle(type, (message) => this.shown(message));
    // the GM's: which Influence effects are done (a state brings them all, effects_marked a roll's)
    for (const type of ["state", "effects_marked"]) {
      this.bridge.handle(type, (message) => message.battle === this.battle && this.marks());
    }
    this.bridge.start();
  }

  get role() {
    return this.bridge.role;
  }

  /** The connection's state in the page's words: connecting, reconnecting, offline (and when). */
  status({ state, attempt, retryIn }) {
    if (state === "connecting") this.hooks.onStatus(attempt ? "reconnecting" : "connecting");
    else if (state === "closed") this.hooks.onStatus("offline", retryIn);
    // "open" is told with the welcome; "failed" (a refused token) by onProblem; "idle": stopped.
  }

  /** A change of the battle followed, shown once whole (a long battle's state waits for its
   * older log; events join its end). */
  shown(message) {
    const held = message.battle === this.battle ? this.bridge.states.get(this.battle) : undefined;
    if (!held || held.view === this.view) return;
    this.view = held.view;
    this.hooks.onView(this.view, message);
  }

  stop() {
    this.bridge.stop();
  }

  /** Tells the page the followed battle's marks of Influence effects (the GM's Foundry data). */
  marks() {
    const held = this.bridge.states.get(this.battle);
    if (held) this.hooks.onMarks?.({ ...held.foundry?.marks }); // a new object: the store sees the change
  }

  /**
   * Marks effects of the followed battle's Influence roll `version` done or not (`mark_effects`,
   * docs/protocol.md "Influence effects done"). Resolves with its `ack` or `error` (never rejects).
   */
  markEffects(version, marks) {
    return this.bridge
      .request("mark_effects", { battle: this.battle, version, marks })
      .catch((error) => ({ type: "error", field: null, params: {}, ...error.reply }));
  }

  /** Follow one battle: its whole state now, its events after. */
  follow(name) {
    if (this.battle) this.bridge.unwatch(this.battle);
    this.battle = name;
    this.view = null;
    this.bridge.watch(name);
  }

  /**
   * A change to a battle (the one followed unless named): a bridge `command`, made against the
   * version shown. Resolves with its `ack` or `error` (never rejects).
   */
  command(command, battle = this.battle) {
    const shown = battle === this.battle ? this.view : null;
    return this.bridge
      .command(battle, command, { expectedVersion: shown?.version })
      .catch((error) => ({ type: "error", field: null, params: {}, ...error.reply }));
  }
}
