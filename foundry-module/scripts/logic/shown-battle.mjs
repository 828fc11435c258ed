/**
 * Which battle the world shows, and where a GM's choice goes. Pure: no Foundry globals.
 *
 * World settings reach every connected client, players' too (ClientSettings, scope "world"), so
 * the world's battle names only a battle the players were told of: one the GM has started
 * (docs/protocol.md, "What players are told of"). A GM's choice of a battle in set-up is the
 * GM's own (kept in the GM's browser); players go on following the world's battle until it
 * starts.
 */

/**
 * A battle's status as a connection knows it: from its state when watched, else from the
 * `battles` list; null when not known (yet).
 *
 * @example
 * statusOf("raid", {battles: [{name: "raid", status: "setup"}], states: new Map()}) // "setup"
 * statusOf("gone", {battles: [], states: new Map()}) // null
 */
export function statusOf(name, { battles = [], states = new Map() } = {}) {
  const watched = states.get(name)?.view?.status;
  if (watched) return watched;
  return battles.find((battle) => battle.name === name)?.status ?? null;
}

/** Whether players are told of a battle in this status: started (fighting or ended). */
export function toldToPlayers(status) {
  return status === "fighting" || status === "ended";
}

/**
 * Where a GM's choice goes: a battle players were told of (or none) is the world's at once;
 * any other (in set-up, or not known yet) stays the GM's own. Returns the settings to write:
 * `world` (the world's battle) and `own` (this GM's); "" clears, absent leaves as it is.
 *
 * @example
 * choose("ambush", () => "fighting") // {world: "ambush", own: ""}
 * choose("raid", () => "setup") // {own: "raid"}
 * choose("", () => null) // {world: "", own: ""}
 */
export function choose(name, status) {
  if (!name) return { world: "", own: "" };
  return toldToPlayers(status(name)) ? { world: name, own: "" } : { own: name };
}

/**
 * What a GM's browser writes so that the world never names a battle in set-up, and a GM's own
 * battle reaches the players once it starts. `own`: this GM's battle (or null), `world`: the
 * world's, `left`: the battle the world named until another GM's browser took it off (or null),
 * `status(name)`: as statusOf, `active`: whether this is the active GM's browser (one browser
 * takes a battle off the world). Returns the settings to write, as `choose`.
 *
 * - The GM's own battle has started: the world shows it (every player follows it) and it is
 *   no longer this GM's own.
 * - The world's battle is back in set-up (its start undone, or chosen by an earlier version):
 *   the active GM takes it off the world; a GM without a battle of their own keeps looking at it,
 *   also when the active GM's browser took it off first.
 *
 * @example
 * settle({own: "raid", world: "ambush", status: () => "fighting", active: false}) // {world: "raid", own: ""}
 * settle({own: null, world: "raid", status: () => "setup", active: true}) // {own: "raid", world: ""}
 * settle({own: null, world: null, left: "raid", status: () => "setup", active: false}) // {own: "raid"}
 * settle({own: "raid", world: "ambush", status: (n) => (n === "raid" ? "setup" : "fighting"), active: true}) // {}
 */
export function settle({ own, world, left = null, status, active }) {
  if (own && toldToPlayers(status(own))) return own === world ? { own: "" } : { world: own, own: "" };
  const changes = {};
  if (world && status(world) === "setup") {
    if (!own) changes.own = world;
    if (active) changes.world = "";
  } else if (left && !own && !world && status(left) === "setup") changes.own = left;
  return changes;
}

/**
 * Whether `settle` must wait for the bridge to answer a request first. The world's battle
 * comes through Foundry's server, a battle's status through this browser's own connection to
 * the bridge, and another GM's browser writes the world as soon as the bridge told it: so a
 * world's battle this browser still holds in set-up may have just started, and one the world
 * no longer names may just be back in set-up. An answer of the bridge comes after everything
 * it sent this browser before (docs/protocol.md, "Keeping in step"). Takes `settle`'s fields.
 *
 * @example
 * behind({own: null, world: "raid", status: () => "setup", active: true}) // true: maybe just started
 * behind({own: null, world: null, left: "raid", status: () => "fighting", active: false}) // true
 * behind({own: "siege", world: "raid", status: () => "setup", active: false}) // false: nothing to write
 */
export function behind({ own, world, left = null, status, active }) {
  if (world) return status(world) === "setup" && (!own || active);
  return Boolean(left && !own);
}
