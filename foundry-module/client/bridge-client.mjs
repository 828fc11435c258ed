/**
 * The bridge's WebSocket client (protocol v1, bridge/docs/protocol.md). Never touches Foundry
 * globals: the socket factory, timers and randomness are passed in, so it runs in Node tests
 * against a fake socket and in the browser against the real bridge.
 *
 * It keeps one connection, says `hello`, watches battles (`subscribe` with `since_version` after
 * a reconnect or a gap), keeps per battle the last `view` and the Foundry data, matches `ack` /
 * `error` (and `list_battles`' `battles`) to requests by id, and reconnects with back-off. A refused token stops the retries
 * until `restart()`.
 *
 * A long battle's `state` carries only the log's last page (`log_from` > 0): the battle waits in
 * `loading` while the older pages are asked for (events meanwhile go to its tail), and enters
 * `states` whole, announced then by a `state` message with `log_from` 0.
 *
 * It is the one place a message is dispatched by its type: its own bookkeeping of each type
 * (`KEEPING`), then the handlers a shell registered for that type (`handle(type, handler)`),
 * then the `message` listeners (every message). A shell registers handlers; it does not switch
 * on `type` again.
 */
import { backoffDelay, diagnose } from "./connection-policy.mjs";
import { olderLog } from "./log-pages.mjs";

let counter = 0;

/** A request id, unique in this page: time, a counter and a little randomness. */
export function requestId(random = Math.random) {
  counter = (counter + 1) % 1_000_000;
  const noise = Math.floor(random() * 36 ** 4).toString(36);
  return `f${Date.now().toString(36)}-${counter.toString(36)}-${noise}`;
}

export class BridgeError extends Error {
  constructor(reply) {
    super(reply.message ?? reply.code);
    this.code = reply.code;
    this.field = reply.field ?? null;
    this.params = reply.params ?? {};
    this.version = reply.version;
    this.reply = reply;
  }
}

export class BridgeClient {
  /**
   * @param {object} options
   * @param {string} options.url       ws:// or wss:// address of the bridge's /ws
   * @param {string} options.token     the GM or player token
   * @param {(url: string) => WebSocket} options.createSocket
   * @param {{setTimeout: Function, clearTimeout: Function}} options.timers
   * @param {() => number} options.random   a number in [0, 1)
   * @param {{protocol: string, hostname: string}} options.page   where the page comes from
   * @param {string} [options.client]   what `hello` says the client is ("foundry", "web")
   */
  constructor({ url, token, createSocket, timers, random = Math.random, page, client = "foundry" }) {
    this.url = url;
    this.token = token;
    this.createSocket = createSocket;
    this.timers = timers;
    this.random = random;
    this.page = page ?? { protocol: "http:", hostname: "localhost" };
    this.client = client;
    this.socket = null;
    this.stopped = true;
    this.attempt = 0;
    this.retryTimer = null;
    this.role = null;
    this.battles = [];
    this.states = new Map();
    this.loading = new Map();
    this.watched = new Set();
    this.unseen = new Set(); // watched battles the bridge does not show this role (yet)
    this.pending = new Map();
    // Frames that answer requests sent for someone else on this connection (the relay's): not read.
    this.takers = new Set();
    // status: the connection; message: every message (after the held states took it); problem:
    // an `error` that answers no request of this client (a refused subscribe, a bad token).
    this.listeners = { status: new Set(), message: new Set(), problem: new Set() };
    this.handlers = new Map(); // message type -> the shells' handlers of it
    this.status = { state: "idle" };
  }

  on(kind, listener) {
    this.listeners[kind].add(listener);
    return () => this.listeners[kind].delete(listener);
  }

  /**
   * Registers a handler for the messages of one type (`welcome`, `battles`, `state`, `pairing`…),
   * called after the client's own bookkeeping of it (a `state` once whole, its older log in).
   * Returns a function that removes it.
   */
  handle(type, handler) {
    if (!this.handlers.has(type)) this.handlers.set(type, new Set());
    const handlers = this.handlers.get(type);
    handlers.add(handler);
    return () => handlers.delete(handler);
  }

  emit(kind, value) {
    for (const listener of this.listeners[kind]) tell(listener, value);
  }

  /** A message to the shells: the handlers of its type, then every `message` listener. */
  announce(message) {
    for (const handler of this.handlers.get(message.type) ?? []) tell(handler, message);
    this.emit("message", message);
  }

  setStatus(status) {
    this.status = status;
    this.emit("status", status);
  }

  get connected() {
    return this.status.state === "open";
  }

  start() {
    this.stopped = false;
    this.attempt = 0;
    this.open();
  }

  stop() {
    this.stopped = true;
    if (this.retryTimer !== null) this.timers.clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const socket = this.socket;
    this.socket = null;
    if (socket) socket.close(1000, "stopped");
    this.failPending("disconnected");
    this.setStatus({ state: "idle" });
  }

  restart({ url, token } = {}) {
    this.stop();
    if (url !== undefined) this.url = url;
    if (token !== undefined) this.token = token;
    this.start();
  }

  open() {
    const attempt = { opened: false, error: null, closeCode: null };
    let socket;
    this.setStatus({ state: "connecting", attempt: this.attempt });
    try {
      socket = this.createSocket(this.url);
    } catch (error) {
      this.afterClose(attempt, error);
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      attempt.opened = true;
      this.sendRaw({ type: "hello", token: this.token, client: this.client });
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      for (const take of this.takers) if (take(message)) return;
      if (message?.type === "error" && message.code === "bad_token") attempt.error = "bad_token";
      this.receive(message);
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      attempt.closeCode = event?.code ?? null;
      this.socket = null;
      this.afterClose(attempt);
    };
  }

  afterClose(attempt) {
    this.failPending("disconnected");
    const reason = diagnose({
      page: this.page,
      url: this.url,
      opened: attempt.opened,
      error: attempt.error,
      closeCode: attempt.closeCode,
    });
    if (this.stopped) return;
    if (reason === "bad_token") {
      this.stopped = true;
      this.setStatus({ state: "failed", reason });
      return;
    }
    // A connection that had been welcomed starts its back-off afresh.
    if (this.status.state === "open") this.attempt = 0;
    const delay = backoffDelay(this.attempt, this.random());
    this.attempt += 1;
    this.setStatus({ state: "closed", reason, retryIn: delay, attempt: this.attempt });
    this.retryTimer = this.timers.setTimeout(() => {
      this.retryTimer = null;
      if (!this.stopped) this.open();
    }, delay);
  }

  failPending(code) {
    for (const { reject } of this.pending.values()) {
      reject(new BridgeError({ code, message: "the connection to the bridge closed" }));
    }
    this.pending.clear();
  }

  sendRaw(message) {
    if (!this.socket || this.socket.readyState !== 1) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /**
   * Hands over the frames that answer requests sent for someone else (with `sendRaw`: the
   * Foundry module's relay, relay-host.mjs): `take(frame)` returns true for such a frame, which
   * this client then does not read. Returns what stops it.
   */
  intercept(take) {
    this.takers.add(take);
    return () => this.takers.delete(take);
  }

  /** Sends a request with an id; resolves with its `ack`, rejects with a BridgeError. */
  request(type, fields = {}) {
    if (!this.connected) {
      return Promise.reject(new BridgeError({ code: "disconnected", message: "not connected to the bridge" }));
    }
    const id = requestId(this.random);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.sendRaw({ type, id, ...fields });
    });
  }

  /** Sends a core (or bridge) command for a battle. */
  command(battle, command, { expectedVersion } = {}) {
    const fields = { battle, command };
    if (expectedVersion !== undefined) fields.expected_version = expectedVersion;
    return this.request("command", fields);
  }

  /** Watches a battle: its `state` now, its `event`s from then on, also after reconnects. */
  watch(battle) {
    if (!battle || this.watched.has(battle)) return;
    this.watched.add(battle);
    if (this.connected) this.subscribe(battle);
  }

  unwatch(battle) {
    if (!this.watched.delete(battle)) return;
    this.states.delete(battle);
    this.loading.delete(battle);
    this.unseen.delete(battle);
    if (this.connected) this.sendRaw({ type: "unsubscribe", battle });
  }

  /** The newest state held for a battle: the one still loading its older log, else the whole one. */
  held(battle) {
    return this.loading.get(battle) ?? this.states.get(battle);
  }

  subscribe(battle) {
    const known = this.held(battle);
    const message = { type: "subscribe", battle };
    if (known) {
      message.since_version = known.version;
      known.resyncing = true;
    }
    this.sendRaw(message);
  }

  /** Asks for what was missed, once until it arrives. */
  resync(battle) {
    const state = this.held(battle);
    if (state?.resyncing) return;
    this.subscribe(battle);
  }

  /** One message from the bridge: kept by its type (`KEEPING`), then told to the shells. */
  receive(message) {
    if (!message || typeof message.type !== "string") return;
    const keep = Object.hasOwn(KEEPING, message.type) ? KEEPING[message.type] : null;
    if (keep?.call(this, message) === HELD) return;
    this.announce(message);
  }

  /** Resolves the request a reply names by its id (rejects it with an `error`); false: none. */
  answer(message) {
    const waiting = message.id !== undefined ? this.pending.get(message.id) : undefined;
    if (!waiting) return false;
    this.pending.delete(message.id);
    if (message.type === "error") waiting.reject(new BridgeError(message));
    else waiting.resolve(message);
    return true;
  }

  /**
   * Asks for the log before `logFrom`, page by page, then puts the state whole into `states`.
   * A newer `state` for the battle (a reconnect, a gap) makes this one's pages moot.
   */
  loadOlderLog(battle, state, logFrom) {
    this.loading.set(battle, state);
    const askPage = (fields) => this.request("log_page", fields);
    olderLog(askPage, battle, logFrom).then(({ entries, reached, error }) => {
      if (this.loading.get(battle) !== state) return;
      this.loading.delete(battle);
      // After a lost connection the reconnect subscribes afresh; when the bridge is busy the
      // battle is asked for again after a pause.
      if (error?.code === "disconnected") return;
      if (error?.code === "rate_limited") {
        this.timers.setTimeout(
          () => {
            if (this.connected && this.watched.has(battle) && !this.loading.has(battle)) this.subscribe(battle);
          },
          backoffDelay(0, this.random()),
        );
        return;
      }
      state.view = { ...state.view, log: [...entries, ...(state.view?.log ?? [])] };
      if (reached < logFrom) {
        // Offered with a hole rather than asked for again and again.
        state.logHole = { from: reached, to: logFrom };
        const missing = `log entries ${reached + 1}..${logFrom} did not come`;
        console.warn(`background-battle | ${battle}: ${missing}`, error);
        // The refusal itself, or (a page that came empty: an entry too big to send) the hole.
        const params = { from: reached, to: logFrom };
        this.emit(
          "problem",
          error?.reply ?? { type: "error", code: "log_incomplete", battle, field: null, message: missing, params },
        );
      }
      this.states.set(battle, state);
      const { version, archived, view, foundry } = state;
      this.announce({ type: "state", battle, version, archived, log_from: 0, view, foundry });
    });
  }

  onEvent(message) {
    const state = this.held(message.battle);
    if (!state) return;
    if (message.version !== state.version + 1) {
      if (message.version > state.version) this.resync(message.battle);
      return;
    }
    state.version = message.version;
    const log = state.view?.log ?? [];
    state.view = { ...message.view, log: [...log, { command: message.command, events: message.events }] };
  }

  onEvents(message) {
    const state = this.held(message.battle);
    if (!state) return;
    state.resyncing = false;
    if (message.since_version !== state.version) {
      this.resync(message.battle);
      return;
    }
    state.version = message.version;
    const log = state.view?.log ?? [];
    state.view = { ...message.view, log: [...log, ...(message.entries ?? [])] };
  }
}

/** What a keeping returns for a message announced later (a long battle's `state`, once whole). */
const HELD = Symbol("held");

function tell(listener, value) {
  try {
    listener(value);
  } catch (error) {
    console.error("background-battle | listener failed", error);
  }
}

/**
 * The client's own bookkeeping of each message type it keeps (`this` is the client): the one
 * table of types; a type not here is only told to the shells.
 */
const KEEPING = {
  welcome(message) {
    this.role = message.role;
    this.battles = message.battles ?? [];
    this.attempt = 0;
    this.setStatus({ state: "open", role: this.role });
    for (const battle of this.watched) this.subscribe(battle);
  },
  battles(message) {
    this.battles = message.battles ?? [];
    // A player is told of a battle once the GM starts it: watch it from then on.
    for (const battle of this.battles) {
      if (this.unseen.delete(battle.name) && this.watched.has(battle.name)) this.subscribe(battle.name);
    }
    this.answer(message); // `list_battles` (with its id)
  },
  state(message) {
    const state = {
      version: message.version,
      archived: Boolean(message.archived),
      view: message.view,
      foundry: { tokens: {}, fighters: {}, applied: {}, jobs: {}, detached: {}, marks: {}, ...message.foundry },
    };
    if (message.log_from > 0) {
      this.loadOlderLog(message.battle, state, message.log_from);
      return HELD; // announced when whole
    }
    this.loading.delete(message.battle);
    this.states.set(message.battle, state);
    return undefined;
  },
  event(message) {
    this.onEvent(message);
  },
  events(message) {
    this.onEvents(message);
  },
  tokens(message) {
    const state = this.held(message.battle);
    if (state) tokensOfUnit(state.foundry, message);
  },
  applied(message) {
    const state = this.held(message.battle);
    if (state) state.foundry.applied[message.unit] = message.report;
    if (state) delete state.foundry.jobs?.[message.unit]; // the report ends the unit's job
  },
  apply_job(message) {
    const state = this.held(message.battle);
    if (!state) return;
    state.foundry.jobs ??= {};
    if (message.job) state.foundry.jobs[message.unit] = message.job;
    else delete state.foundry.jobs[message.unit];
  },
  detached(message) {
    const state = this.held(message.battle);
    if (!state) return;
    state.foundry.detached ??= {};
    if (message.moves?.length) state.foundry.detached[message.unit] = message.moves;
    else delete state.foundry.detached[message.unit];
  },
  unapplied(message) {
    const state = this.held(message.battle);
    if (state) delete state.foundry.applied[message.unit];
  },
  effects_marked(message) {
    // Which effects of an Influence roll are done (Foundry's Apply, the page's ticks): whole.
    const state = this.held(message.battle);
    if (!state) return;
    state.foundry.marks ??= {};
    if (Object.keys(message.marks ?? {}).length) state.foundry.marks[message.version] = message.marks;
    else delete state.foundry.marks[message.version];
  },
  ack(message) {
    this.answer(message);
  },
  log_page(message) {
    this.answer(message);
  },
  error(message) {
    // An error that answers no request of this client is a problem (a refused subscribe…).
    if (!this.answer(message)) this.emit("problem", message);
    if (message.code === "unknown_battle" && this.watched.has(message.battle)) this.unseen.add(message.battle);
    if (message.code === "out_of_range" && message.battle && message.field === "since_version") {
      // since_version ahead of the bridge (it lost data or was reset): take a fresh state.
      this.states.delete(message.battle);
      this.loading.delete(message.battle);
      this.subscribe(message.battle);
    }
  },
};

/** The message types the client keeps itself (the others it only tells the shells). */
export const KEPT_TYPES = Object.freeze(Object.keys(KEEPING));

/**
 * A `tokens` message into a battle's Foundry data (GM-only): the unit's token list and the head
 * count of each token standing for many, both replaced whole (an empty one forgets the unit).
 */
export function tokensOfUnit(foundry, { unit, token_ids: ids, fighters }) {
  if (ids?.length) foundry.tokens[unit] = ids;
  else delete foundry.tokens[unit];
  if (fighters && Object.keys(fighters).length) foundry.fighters[unit] = fighters;
  else delete foundry.fighters[unit];
}
