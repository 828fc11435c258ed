/**
 * The relay's GM side (logic/relay-protocol.mjs), in the active GM's browser: the relayed
 * players' frames go on this browser's one player-token connection, the players' eye
 * (player-eye.mjs, through the shared client), which watches what they watch beside what this
 * browser watches. What the bridge pushes on it crosses Foundry's socket once, to every player;
 * the answer to a player's request goes to that player.
 */
import {
  EVERYONE,
  PUSHED,
  RELAY_UNAVAILABLE,
  backToPlayer,
  forwardFrame,
  isRelayed,
  onTheLine,
  relayTag,
  watchedAfter,
} from "./logic/relay-protocol.mjs";
import { log } from "./log.mjs";

/** Close code of the relayed sessions when the eye's connection closes (as a browser's). */
const LOST = 1006;

/**
 * The player frames the GM's browser answers itself: a `hello` with the eye's own `welcome` (and
 * the battle it names subscribed for the player), an `unsubscribe` at once (the eye goes on
 * watching a battle while someone else does). Every other reading frame goes to the bridge.
 */
const ANSWERED_HERE = {
  hello(host, session, frame, client) {
    host.toSession(session, { ...host.welcome, battles: client.battles });
    if (typeof frame.battle === "string") {
      const since = Number.isInteger(frame.since_version) ? { since_version: frame.since_version } : {};
      host.send(session, { type: "subscribe", battle: frame.battle, ...since });
    }
  },
  unsubscribe(host, session, frame) {
    const id = frame.id !== undefined ? { id: frame.id } : {};
    host.toSession(session, { type: "unsubscribed", battle: frame.battle, ...id });
  },
};

export class RelayHost {
  /**
   * `emit(message)`: sends a message on the module's channel (relay.mjs); `players`: this
   * browser's players' eye, read live (`eye()`: null when it has none), and the handlers of its
   * messages (wiring.mjs), where the relay takes its `welcome` and what the bridge pushes.
   */
  constructor(isActiveGM, emit, players) {
    this.isActiveGM = isActiveGM;
    this.emit = emit;
    this.players = players;
    this.sessions = new Map(); // session → {user, watching, opened}
    this.source = null; // {eye, stop}: the eye relayed from, while a player is relayed
    this.routes = new Map(); // id on the eye's connection → {session, id?}
    this.count = 0;
    this.intercepted = new WeakSet(); // the eyes' clients whose relayed answers this host takes
    this.welcome = null; // the eye's last `welcome`, as the bridge said it
    players.messages.handle("welcome", (welcome) => {
      this.welcome = welcome;
      if (welcome.role !== "player") this.notAPlayersEye();
    });
    for (const type of PUSHED) {
      players.messages.handle(type, (frame) => {
        if (this.source?.eye.seesAsPlayer() && frame.id === undefined) this.toEveryone(frame);
      });
    }
  }

  reply(session, to, fields) {
    this.emit({ session, from: game.user.id, to, ...fields });
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
    const eye = this.players.eye();
    if (!eye || (eye.client.role !== null && !eye.seesAsPlayer())) {
      log.warn("cannot relay the battle to players: set the bridge address and the player token");
      this.reply(session, user, { kind: "closed", code: RELAY_UNAVAILABLE });
      return;
    }
    if (this.source && this.source.eye !== eye) this.eyeClosed(LOST);
    this.sessions.set(session, { user, watching: new Set(), opened: false });
    if (!this.source) this.relayFrom(eye);
    log.debug("relaying the player view to", user, session);
    const state = eye.client.status.state;
    if (state === "open") this.greet(session);
    else if (state === "failed" || state === "idle") this.eyeClosed(LOST);
  }

  /** Relays from this eye: hears when its connection opens or closes, and takes its answers to
   * relayed requests (also those coming after their session ended: they are nobody's). */
  relayFrom(eye) {
    if (!this.intercepted.has(eye.client)) {
      this.intercepted.add(eye.client);
      eye.client.intercept((frame) => {
        if (!isRelayed(frame)) return false;
        this.answer(frame);
        return true;
      });
    }
    const stop = eye.client.on("status", (status) => {
      if (status.state === "open") for (const session of this.sessions.keys()) this.greet(session);
      else if (status.state !== "connecting") this.eyeClosed(LOST);
    });
    this.source = { eye, stop };
  }

  greet(session) {
    const relayed = this.sessions.get(session);
    if (!relayed || relayed.opened) return;
    relayed.opened = true;
    this.reply(session, relayed.user, { kind: "opened" });
  }

  /** A player's frame: a reading one is answered here or goes on the eye's connection; anything
   * else is refused in the bridge's words. */
  fromPlayer(session, relayed, frame) {
    const client = this.source?.eye.client;
    const { reply } = forwardFrame(frame, client?.token);
    if (reply || !client?.connected || !this.source.eye.seesAsPlayer()) {
      if (reply) this.toSession(session, reply);
      return;
    }
    relayed.watching = watchedAfter(relayed.watching, frame);
    // The eye watches what the player watches (and unwatches it once nobody does).
    this.source.eye.watchFor(session, relayed.watching);
    if (Object.hasOwn(ANSWERED_HERE, frame.type)) ANSWERED_HERE[frame.type](this, session, frame, client);
    else this.send(session, frame);
  }

  /** A session's request, with an id that brings its answer back to it. */
  send(session, frame) {
    this.count += 1;
    const { send, route } = onTheLine(frame, relayTag(session, this.count));
    this.routes.set(send.id, { ...route, session });
    this.source.eye.client.sendRaw(send);
  }

  /** The bridge's answer to a relayed request, to the session that asked (if still there). */
  answer(frame) {
    const route = this.routes.get(frame.id);
    if (!route) return;
    this.routes.delete(frame.id);
    this.toSession(route.session, backToPlayer(frame, route));
  }

  toSession(session, frame) {
    const relayed = this.sessions.get(session);
    if (relayed) this.reply(session, relayed.user, { kind: "frame", frame });
  }

  /** One socket message for every relayed player (each player's socket keeps what concerns it). */
  toEveryone(frame) {
    if ([...this.sessions.values()].some((relayed) => relayed.opened)) {
      this.emit({ kind: "frame", session: EVERYONE, from: game.user.id, to: EVERYONE, frame });
    }
  }

  /** The player-token setting holds a GM's token: nobody is relayed a GM's view. */
  notAPlayersEye() {
    log.warn("the player token setting holds the GM token: the battle is not relayed to players");
    for (const [session, relayed] of [...this.sessions]) {
      this.end(session);
      this.reply(session, relayed.user, { kind: "closed", code: RELAY_UNAVAILABLE });
    }
  }

  /** The eye's connection closed (or was refused): every relayed player's session with it (a
   * refusal before the bridge's welcome, e.g. a wrong player token, reaches the players as the
   * bridge said it). Their panels connect again through a new session. */
  eyeClosed(code) {
    const source = this.source;
    if (!source) return;
    this.unfollow();
    for (const [session, relayed] of this.sessions) {
      if (!relayed.opened) {
        this.reply(session, relayed.user, { kind: "opened" });
        for (const frame of source.eye.refusals) this.reply(session, relayed.user, { kind: "frame", frame });
      }
      source.eye.watchFor(session, []);
      this.reply(session, relayed.user, { kind: "closed", code });
    }
    this.sessions.clear();
  }

  unfollow() {
    this.source?.stop();
    this.source = null;
    this.routes.clear();
  }

  /** A session ends: the eye stops watching what only it watched. */
  end(session) {
    if (!this.sessions.delete(session)) return;
    this.source?.eye.watchFor(session, []);
    for (const [id, route] of this.routes) if (route.session === session) this.routes.delete(id);
    if (!this.sessions.size) this.unfollow();
  }

  /** Closes the connections of a user who left. */
  dropUser(user) {
    for (const [session, relayed] of [...this.sessions]) if (relayed.user === user) this.end(session);
  }
}
