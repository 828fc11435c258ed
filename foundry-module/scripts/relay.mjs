/**
 * Players follow the battle through Foundry itself (logic/relay-protocol.mjs): a player's
 * bridge client opens a RelaySocket instead of a WebSocket; the active GM's browser, which
 * reaches the bridge, relays for every player on its one connection with the player token
 * (the players' eye, player-eye.mjs) and passes the frames both ways over the module's socket (`"socket": true` in
 * module.json, `game.socket.emit("module.background-battle", message)`: it reaches every other
 * client). A frame the bridge pushes crosses the socket once, whatever the number of players.
 */
import { ID } from "./constants.mjs";
import { EVERYONE, concerns, relayMessage, sessionId, watchedAfter } from "./logic/relay-protocol.mjs";
import { RelayHost } from "./relay-host.mjs";

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
 * again at once rather than after its back-off. `players`: this browser's players' eye and its
 * messages (relay-host.mjs).
 */
export function startRelay(isActiveGM, players, onHost = () => {}) {
  host = new RelayHost(isActiveGM, emit, players);
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
