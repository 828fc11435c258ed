/**
 * The players' eye: a second connection of a GM's browser, with the player token, that watches
 * the battles that browser watches. What it receives is exactly what a player may see (the core's player view),
 * so public chat cards are built from it and never from the GM's numbers.
 */
import { BridgeClient } from "../client/bridge-client.mjs";
import { log } from "./log.mjs";

export class PlayerEye {
  /** `url`: the checked bridge address; `token`: the player token. */
  constructor(url, token) {
    this.client = new BridgeClient({
      url,
      token,
      createSocket: (address) => new WebSocket(address),
      timers: { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (id) => clearTimeout(id) },
      page: { protocol: window.location.protocol, hostname: window.location.hostname },
    });
    this.watching = [];
    this.client.on("status", (status) => log.debug("players' eye", status));
  }

  /** Something to call with every message the players' connection receives. */
  on(listener) {
    return this.client.on("message", listener);
  }

  start(battles) {
    this.follow(battles);
    this.client.start();
  }

  /** Watches the battles the GM's browser watches (and only them). */
  follow(battles) {
    for (const battle of this.watching) if (!battles.includes(battle)) this.client.unwatch(battle);
    this.watching = battles;
    for (const battle of battles) this.client.watch(battle);
  }

  /** The player view of a battle, as this connection holds it, or null. */
  view(battle) {
    return this.state(battle)?.view ?? null;
  }

  /** The battle as this connection holds it whole ({version, view...}: the player view), or null. */
  state(battle) {
    return this.client.states.get(battle) ?? null;
  }

  stop() {
    this.client.stop();
  }
}
