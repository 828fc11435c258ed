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
import { choose, settle, statusOf } from "./logic/shown-battle.mjs";
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
        const world = setting(SETTINGS.BATTLE) || null;
        const changes = settle({ own: this.own, world, status: (battle) => this.status(battle), active: isActiveGM() });
        try {
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
}
