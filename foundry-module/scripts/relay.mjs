/**
 * Players follow the battle through Foundry itself (logic/relay-protocol.mjs): a player's
 * bridge client opens a RelaySocket instead of a WebSocket; the active GM's browser, which
 * reaches the bridge, keeps a bridge connection per relayed player (with the player token) and
 * passes the frames both ways over the module's socket (`"socket": true` in module.json,
 * `game.socket.emit("module.background-battle", message)`: it reaches every other client).
 */
import { ID, SETTINGS } from "./constants.mjs";
import { checkBridgeUrl } from "./logic/connection-policy.mjs";
import { RELAY_UNAVAILABLE, forwardFrame, relayMessage, sessionId } from "./logic/relay-protocol.mjs";
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
    this.session = sessionId(game.user.id, Math.random(), Date.now());
    sockets.set(this.session, this);
    this.timer = setTimeout(() => this.lost(), OPEN_TIMEOUT);
    emit({ kind: "open", session: this.session, from: game.user.id, to: null });
  }

  send(text) {
    if (this.readyState !== 1) return;
    emit({ kind: "frame", session: this.session, from: game.user.id, to: null, frame: JSON.parse(text) });
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

/** The active GM's side: one bridge connection per relayed player session. */
class RelayHost {
  constructor(isActiveGM) {
    this.isActiveGM = isActiveGM;
    this.sessions = new Map();
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
    if (kind === "close") {
      this.sessions.delete(session);
      relayed.ws.close(1000, "player left");
    } else if (kind === "frame") {
      const { send, reply } = forwardFrame(message.frame, setting(SETTINGS.PLAYER_TOKEN));
      if (send && relayed.ws.readyState === 1) relayed.ws.send(JSON.stringify(send));
      if (reply) this.reply(session, from, { kind: "frame", frame: reply });
    }
  }

  /** Closes the connections of a user who left. */
  dropUser(user) {
    for (const [session, relayed] of this.sessions) {
      if (relayed.user !== user) continue;
      this.sessions.delete(session);
      relayed.ws.close(1000, "player left");
    }
  }

  open(session, user) {
    const url = checkBridgeUrl(setting(SETTINGS.URL));
    if (!url.ok || !setting(SETTINGS.PLAYER_TOKEN)) {
      log.warn("cannot relay the battle to players: set the bridge address and the player token");
      this.reply(session, user, { kind: "closed", code: RELAY_UNAVAILABLE });
      return;
    }
    const ws = new WebSocket(url.url);
    this.sessions.set(session, { ws, user });
    ws.onopen = () => this.reply(session, user, { kind: "opened" });
    ws.onmessage = (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      this.reply(session, user, { kind: "frame", frame });
    };
    ws.onclose = (event) => {
      if (this.sessions.get(session)?.ws !== ws) return;
      this.sessions.delete(session);
      this.reply(session, user, { kind: "closed", code: event.code || 1006 });
    };
    log.debug("relaying the player view to", user, session);
  }
}
