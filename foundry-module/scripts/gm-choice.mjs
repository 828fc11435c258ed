/**
 * The battle a GM shows (logic/shown-battle.mjs decides). The world setting `battle` reaches
 * every client, players' too, so it names only a started battle; a GM's choice of a battle in
 * set-up is kept in the GM's own browser (the client setting `preparedBattle`, which a reload
 * keeps). When that battle starts, the browser of the GM who chose it writes the world setting
 * and every player follows it at once; a world's battle back in set-up is taken off the world
 * by the active GM.
 */
import { isActiveGM } from "./who.mjs";
import { SETTINGS } from "./constants.mjs";
import { behind, choose, settle, statusOf } from "./logic/shown-battle.mjs";
import { log } from "./log.mjs";
import { setSetting, setting } from "./settings.mjs";

export class GmChoice {
  /**
   * `connections`: this browser's bridge client, read live; `cards.shownFromStart(battle)`:
   * the players' cards of a battle begin with its start (step-cards.mjs). Both from wiring.mjs.
   */
  constructor(connections, cards) {
    this.connections = connections;
    this.cards = cards;
    this.running = null;
    this.again = false;
    /** The world's battle at this browser's last look (or as it wrote it). */
    this.seen = null;
    /** The battle the world named until another GM's browser took it off, until looked at. */
    this.left = null;
    /** The look (own, world, left) the bridge was last asked about. */
    this.asked = null;
  }

  /** This GM's own battle (in set-up, not shown to players yet), or null. */
  get own() {
    return setting(SETTINGS.PREPARED) || null;
  }

  status(name) {
    return this.connections.client ? statusOf(name, this.connections.client) : null;
  }

  /**
   * Writes the settings that changed, in the order that keeps the battle shown meanwhile: a new
   * own battle before the world's, the world's before an own one is cleared (each change
   * calls follow()).
   */
  async write({ world, own }) {
    const writes = [
      [SETTINGS.BATTLE, world],
      [SETTINGS.PREPARED, own],
    ].filter(([key, value]) => value !== undefined && value !== (setting(key) || ""));
    if (own) writes.reverse();
    if (world !== undefined) this.seen = world || null; // this browser's own change: not `left`
    for (const [key, value] of writes) await setSetting(key, value);
  }

  /** The GM picked a battle (or none, "") in the panel. */
  choose(name) {
    return this.write(choose(name, (battle) => this.status(battle)));
  }

  /** Looks again (after every message of the bridge, or a change of the world's battle). */
  check() {
    if (!game.user?.isGM) return this.running;
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          const changes = await this.settled();
          // the GM's own battle has just started: the players' cards begin with its start
          if (changes.world) await this.cards.shownFromStart(changes.world);
          await this.write(changes);
        } catch (error) {
          log.error("the battle shown not changed", error);
        }
      } while (this.again);
      this.running = null;
    })();
    return this.running;
  }

  /**
   * What to write, from the battles' status as the bridge has it now (logic/shown-battle.mjs:
   * `behind` says when to ask it first). Asks once per look: a write that failed is not
   * retried on every answer.
   */
  async settled() {
    const world = setting(SETTINGS.BATTLE) || null;
    if (this.seen && !world) this.left = this.seen;
    else if (world) this.left = null;
    this.seen = world;
    const look = () => ({
      own: this.own,
      world: setting(SETTINGS.BATTLE) || null,
      left: this.left,
      status: (battle) => this.status(battle),
      active: isActiveGM(),
    });
    const first = look();
    const key = JSON.stringify([first.own, first.world, first.left]);
    if (!behind(first)) this.asked = null;
    else if (this.asked !== key && this.app.client) {
      this.asked = key;
      try {
        await this.app.client.request("list_battles");
      } catch (error) {
        // not connected: looked at again once the bridge welcomes this browser
        this.asked = null;
        log.debug("the battle shown waits for the bridge", error);
        return {};
      }
    }
    const changes = settle(look());
    this.left = null;
    return changes;
  }
}
