/**
 * The players' eye: a GM's browser's one bridge connection with the player token (the shared
 * client, client/bridge-client.mjs). What it receives is exactly what a player may see (the
 * core's player view): public chat cards are built from it, never from the GM's numbers, and the
 * relay (relay-host.mjs) passes it on to the players who cannot reach the bridge.
 *
 * It watches what its owners want, together: the battles this browser watches (`BROWSER`) and
 * each relayed player's. A battle is unwatched once no owner wants it.
 */
import { log } from "./log.mjs";

/** The owner that stands for this browser's own battles (the one shown, the world's). */
export const BROWSER = "browser";

export class PlayerEye {
  /** `client`: a BridgeClient with the player token (this browser's own, when a GM's browser
   * connects with the player token: then it is its only connection). */
  constructor(client) {
    this.client = client;
    this.wanted = new Map(); // owner → Set of battles
    /** What the bridge refused before a welcome (a wrong player token): told to relayed players. */
    this.refusals = [];
    client.on("status", (status) => {
      log.debug("players' eye", status);
      if (status.state === "connecting") this.refusals = [];
    });
    client.on("problem", (problem) => {
      if (!client.connected) this.refusals.push(problem);
    });
  }

  start() {
    this.client.start();
  }

  /** Watches, for `owner`, these battles (none: the owner wants nothing any more). */
  watchFor(owner, battles) {
    const before = this.watching();
    if (battles.length || battles.size) this.wanted.set(owner, new Set(battles));
    else this.wanted.delete(owner);
    const now = this.watching();
    for (const battle of before) if (!now.has(battle)) this.client.unwatch(battle);
    for (const battle of now) this.client.watch(battle);
  }

  /** Every battle some owner wants. */
  watching() {
    return new Set([...this.wanted.values()].flatMap((battles) => [...battles]));
  }

  /** The player view of a battle, as this connection holds it, or null. */
  view(battle) {
    return this.state(battle)?.view ?? null;
  }

  /**
   * True once the bridge welcomed this connection as a player's. A player-token setting that
   * holds the GM's token would make it a GM's connection: then nothing is read from it (no public
   * card, nothing relayed), since players would see the GM's numbers.
   */
  seesAsPlayer() {
    return this.client.role === "player";
  }

  /** The battle as this connection holds it whole ({version, view...}: the player view), or null. */
  state(battle) {
    return this.seesAsPlayer() ? (this.client.states.get(battle) ?? null) : null;
  }

  stop() {
    this.client.stop();
  }
}
