/**
 * Which browser writes casualties onto tokens. Pure: never touches Foundry globals.
 *
 * The bridge sends `apply_casualties` to the Foundry browsers connected with the GM token only,
 * so the browser that applies must be one of them, and only one, so that a result is never
 * applied twice. The active GM's (Foundry's `game.users.activeGM`) applies when its browser is
 * connected with the GM token; otherwise the connected GM with the lowest user id among those
 * whose browsers are; with none, nobody can (the panels say what to do).
 *
 * `lines`: what each GM's browser said of its bridge connection (logic: true, connected with the
 * GM token; false, not). The active GM's browser that has said nothing yet counts as connected:
 * another GM steps in only once it has said it is not (so two browsers never both apply while
 * the word is on its way).
 *
 * @example
 * chooseApplier({ active: "gmA", gms: ["gmA", "gmB"], lines: new Map([["gmA", false], ["gmB", true]]) }) // "gmB"
 */
export function chooseApplier({ active, gms, lines }) {
  if (active && gms.includes(active) && lines.get(active) !== false) return active;
  const able = gms.filter((id) => lines.get(id) === true).sort();
  return able[0] ?? null;
}
