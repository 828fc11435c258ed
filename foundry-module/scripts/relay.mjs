/**
 * Players follow the battle through Foundry itself (logic/relay-protocol.mjs): a player's
 * bridge client opens a RelaySocket instead of a WebSocket; the active GM's browser, which
 * reaches the bridge, keeps one bridge connection for all relayed players (with the player
 * token) and passes the frames both ways over the module's socket (`"socket": true` in
 * module.json, `game.socket.emit("module.background-battle", message)`: it reaches every other
 * client). A frame the bridge pushes crosses the socket once, whatever the number of players.
 */
import { ID, SETTINGS } from "./constants.mjs";
import { checkBridgeUrl } from "./logic/connection-policy.mjs";
import {
  EVERYONE,
  RELAY_UNAVAILABLE,
  backToPlayer,
  concerns,
  forwardFrame,
  onTheLine,
  relayMessage,
  sessionId,
  watchedAfter,
} from "./logic/relay-protocol.mjs";
import { log } from "./log.mjs";
import { setting } from "./settings.mjs";

const CHANNEL = `module.${ID}`;
/** How long a player waits for an active GM to answer before trying again (ms). */
const OPEN_TIMEOUT = 5000;

const sockets = new Map(); // this player's open RelaySockets, by session
let host = null; // the GM side, once started

function emit(message) {
  game.socket.emit(CHANNEL, message);
}

/**
 * Listens on the module's channel (once, on `ready`), for both sides. The active GM says so
 * when it starts; `onHost` is then called in the players' browsers, so a waiting panel tries
 * again at once rather than after its back-off.
 */
export function startRelay(isActiveGM, onHost = () => {}) {
  host = new RelayHost(isActiveGM);
  game.socket.on(CHANNEL, (data) => {
    const message = relayMessage(data);
    if (!message) return;
    if (message.kind === "hosting") onHost();
    else if (message.to === null) host.receive(message);
    else if (message.to === game.user.id) toPlayer(message);
    else if (message.to === EVERYONE) for (const socket of sockets.values()) socket.receiveEveryone(message);
  });
  // Whoever goes away takes their relayed connections along (hookEvents.userConnected).
  Hooks.on("userConnected", (user, connected) => {
    if (connected) return;
    for (const socket of sockets.values()) if (socket.host === user.id) socket.lost();
    host.dropUser(user.id);
  });
  if (isActiveGM()) emit({ kind: "hosting", session: "hosting", from: game.user.id, to: null });
}

/** A GM's message for this player; one for a session given up already closes it there. */
function toPlayer(message) {
  const socket = sockets.get(message.session);
  if (socket) socket.receive(message);
  else if (message.kind !== "closed") {
    emit({ kind: "close", session: message.session, from: game.user.id, to: null });
  }
}

/** A WebSocket look-alike for BridgeClient (readyState, send, close, onopen/onmessage/onclose). */
export class RelaySocket {
  constructor() {
    this.readyState = 0;
    this.host = null;
    /** The battles this socket's client watches: frames pushed to every player about others
     * are not for it. */
    this.watching = new Set();
    this.session = sessionId(game.user.id, Math.random(), Date.now());
    sockets.set(this.session, this);
    this.timer = setTimeout(() => this.lost(), OPEN_TIMEOUT);
    emit({ kind: "open", session: this.session, from: game.user.id, to: null });
  }

  send(text) {
    if (this.readyState !== 1) return;
    const frame = JSON.parse(text);
    this.watching = watchedAfter(this.watching, frame);
    emit({ kind: "frame", session: this.session, from: game.user.id, to: null, frame });
  }

  /** A frame the GM pushed to every player: taken when it concerns this socket's battles. */
  receiveEveryone(message) {
    if (message.kind !== "frame" || this.readyState !== 1 || message.from !== this.host) return;
    if (concerns(message.frame, this.watching)) this.onmessage?.({ data: JSON.stringify(message.frame) });
  }

  close() {
    if (this.readyState === 3) return;
    emit({ kind: "close", session: this.session, from: game.user.id, to: null });
    this.finish(1000);
  }

  receive(message) {
    if (message.kind === "opened" && this.readyState === 0) {
      clearTimeout(this.timer);
      this.host = message.from;
      this.readyState = 1;
      this.onopen?.();
    } else if (message.kind === "frame" && this.readyState === 1 && message.from === this.host) {
      this.onmessage?.({ data: JSON.stringify(message.frame) });
    } else if (message.kind === "closed") {
      this.finish(message.code ?? 1006);
    }
  }

  /** No GM answered, or the GM went away. */
  lost() {
    this.finish(1006);
  }

  finish(code) {
    if (this.readyState === 3) return;
    clearTimeout(this.timer);
    this.readyState = 3;
    sockets.delete(this.session);
    this.onclose?.({ code });
  }
}

/**
 * The active GM's side: ONE bridge connection with the player token for every relayed player
 * (the players' line). What the bridge pushes on it goes to every player in one socket message;
 * the answer to a player's request (its id names the session) goes to that player only.
 */
class RelayHost {
  constructor(isActiveGM) {
    this.isActiveGM = isActiveGM;
    this.sessions = new Map(); // session → {user, watching, opened}
    this.line = null;
  }

  reply(session, to, fields) {
    emit({ session, from: game.user.id, to, ...fields });
  }

  receive(message) {
    const { kind, session, from } = message;
    if (kind === "open") {
      if (this.isActiveGM() && !this.sessions.has(session)) this.open(session, from);
      return;
    }
    const relayed = this.sessions.get(session);
    if (!relayed || relayed.user !== from) return;
    if (kind === "close") this.end(session);
    else if (kind === "frame") this.fromPlayer(session, relayed, message.frame);
  }

  open(session, user) {
    const url = checkBridgeUrl(setting(SETTINGS.URL));
    const token = setting(SETTINGS.PLAYER_TOKEN);
    if (!url.ok || !token) {
      log.warn("cannot relay the battle to players: set the bridge address and the player token");
      this.reply(session, user, { kind: "closed", code: RELAY_UNAVAILABLE });
      return;
    }
    this.sessions.set(session, { user, watching: new Set(), opened: false });
    if (!this.line) this.line = new PlayersLine(url.url, token, this);
    else if (this.line.welcome) this.greet(session);
    log.debug("relaying the player view to", user, session);
  }

  greet(session) {
    const relayed = this.sessions.get(session);
    if (!relayed || relayed.opened) return;
    relayed.opened = true;
    this.reply(session, relayed.user, { kind: "opened" });
  }

  /** A player's frame: a reading one goes on the line (a hello is answered here: the line said
   * its own), anything else is refused in the bridge's words. */
  fromPlayer(session, relayed, frame) {
    const { reply } = forwardFrame(frame, setting(SETTINGS.PLAYER_TOKEN));
    if (reply || !this.line?.welcome) {
      if (reply) this.toSession(session, reply);
      return;
    }
    relayed.watching = watchedAfter(relayed.watching, frame);
    if (frame.type === "hello") {
      this.toSession(session, { ...this.line.welcome, battles: this.line.battles });
      if (typeof frame.battle === "string") {
        const since = Number.isInteger(frame.since_version) ? { since_version: frame.since_version } : {};
        this.line.send(session, { type: "subscribe", battle: frame.battle, ...since });
      }
    } else if (frame.type === "unsubscribe") {
      // The line goes on watching the battle while another player does.
      this.toSession(session, { type: "unsubscribed", battle: frame.battle, ...(frame.id !== undefined ? { id: frame.id } : {}) });
      const others = [...this.sessions.values()].some((other) => other.watching.has(frame.battle));
      if (!others) this.line.sendOwn({ type: "unsubscribe", battle: frame.battle });
    } else {
      this.line.send(session, frame);
    }
  }

  toSession(session, frame) {
    const relayed = this.sessions.get(session);
    if (relayed) this.reply(session, relayed.user, { kind: "frame", frame });
  }

  /** One socket message for every relayed player (each player's socket keeps what concerns it). */
  toEveryone(frame) {
    if ([...this.sessions.values()].some((relayed) => relayed.opened)) {
      emit({ kind: "frame", session: EVERYONE, from: game.user.id, to: EVERYONE, frame });
    }
  }

  lineOpen(line) {
    if (this.line !== line) return;
    for (const session of this.sessions.keys()) this.greet(session);
  }

  /** The line closed: every relayed player's connection with it (a refusal before the bridge's
   * welcome, e.g. a wrong player token, reaches the players as the bridge said it). */
  lineClosed(line, code) {
    if (this.line !== line) return;
    this.line = null;
    for (const [session, relayed] of this.sessions) {
      if (!relayed.opened) {
        this.reply(session, relayed.user, { kind: "opened" });
        for (const frame of line.early) this.reply(session, relayed.user, { kind: "frame", frame });
      }
      this.reply(session, relayed.user, { kind: "closed", code });
    }
    this.sessions.clear();
  }

  /** A session ends; the line closes with the last one. */
  end(session) {
    if (!this.sessions.delete(session)) return;
    this.line?.forget(session);
    if (!this.sessions.size && this.line) {
      const line = this.line;
      this.line = null;
      line.close();
    }
  }

  /** Closes the connections of a user who left. */
  dropUser(user) {
    for (const [session, relayed] of [...this.sessions]) if (relayed.user === user) this.end(session);
  }
}

/** The players' bridge connection in the active GM's browser (player token). */
class PlayersLine {
  constructor(url, token, host) {
    this.host = host;
    this.welcome = null;
    this.battles = [];
    this.early = []; // what came before the welcome (a refusal)
    this.routes = new Map(); // id on the line → {session, id?}
    this.count = 0;
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token, client: "foundry" }));
    ws.onmessage = (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      this.heard(frame);
    };
    ws.onclose = (event) => host.lineClosed(this, event.code || 1006);
  }

  heard(frame) {
    if (!this.welcome) {
      if (frame?.type !== "welcome") {
        this.early.push(frame);
        return;
      }
      this.welcome = frame;
      this.battles = frame.battles ?? [];
      this.host.lineOpen(this);
      return;
    }
    if (frame?.type === "battles") this.battles = frame.battles ?? [];
    if (frame?.id === undefined) {
      this.host.toEveryone(frame);
      return;
    }
    const route = this.routes.get(frame.id);
    if (!route) return; // the line's own request, or a session gone
    this.routes.delete(frame.id);
    this.host.toSession(route.session, backToPlayer(frame, route));
  }

  /** A session's request, with an id that brings its answer back to it. */
  send(session, frame) {
    this.count += 1;
    const { send, route } = onTheLine(frame, `${session}~${this.count.toString(36)}`);
    this.routes.set(send.id, { ...route, session });
    this.sendRaw(send);
  }

  /** The line's own request (its answer is for nobody). */
  sendOwn(frame) {
    this.count += 1;
    this.sendRaw({ ...frame, id: `line~${this.count.toString(36)}` });
  }

  sendRaw(frame) {
    if (this.ws.readyState === 1) this.ws.send(JSON.stringify(frame));
  }

  forget(session) {
    for (const [id, route] of this.routes) if (route.session === session) this.routes.delete(id);
  }

  close() {
    this.ws.onclose = null;
    this.ws.close(1000, "no player left");
  }
}
