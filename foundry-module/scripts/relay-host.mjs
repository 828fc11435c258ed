/**
 * The relay's GM side (logic/relay-protocol.mjs), in the active GM's browser: one bridge
 * connection with the player token for every relayed player, the players' line. What the bridge
 * pushes on it crosses Foundry's socket once, to every player; the answer to a player's request
 * goes to that player.
 */
import { SETTINGS } from "./constants.mjs";
import { checkBridgeUrl } from "../client/connection-policy.mjs";
import {
  EVERYONE,
  RELAY_UNAVAILABLE,
  backToPlayer,
  forwardFrame,
  onTheLine,
  watchedAfter,
} from "./logic/relay-protocol.mjs";
import { log } from "./log.mjs";
import { setting } from "./settings.mjs";

/**
 * The active GM's side: ONE bridge connection with the player token for every relayed player
 * (the players' line). What the bridge pushes on it goes to every player in one socket message;
 * the answer to a player's request (its id names the session) goes to that player only.
 */
export class RelayHost {
  /** `emit(message)`: sends a message on the module's channel (relay.mjs). */
  constructor(isActiveGM, emit) {
    this.isActiveGM = isActiveGM;
    this.emit = emit;
    this.sessions = new Map(); // session → {user, watching, opened}
    this.line = null;
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
      this.toSession(session, {
        type: "unsubscribed",
        battle: frame.battle,
        ...(frame.id !== undefined ? { id: frame.id } : {}),
      });
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
      this.emit({ kind: "frame", session: EVERYONE, from: game.user.id, to: EVERYONE, frame });
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
