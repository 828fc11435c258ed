/**
 * Both sides from the scene: tokens become the allies' and the enemies' units by their
 * disposition (friendly → allies, hostile → enemies), grouped by actor or by name, with a head
 * count each. Tokens marked dead, neutral and secret ones are left out. Pure: plain descriptors
 * in ({id, name, actorId, actorName, disposition, dead}), plain groups out.
 */

/** Foundry's CONST.TOKEN_DISPOSITIONS (v13): FRIENDLY 1, NEUTRAL 0, HOSTILE -1, SECRET -2. */
export const DISPOSITION = Object.freeze({ FRIENDLY: 1, NEUTRAL: 0, HOSTILE: -1, SECRET: -2 });

function sideOf(disposition) {
  if (disposition === DISPOSITION.FRIENDLY) return "allies";
  if (disposition === DISPOSITION.HOSTILE) return "enemies";
  return null;
}

/**
 * Groups tokens into units per side. `by`: "actor" (tokens of one actor are one unit) or "name".
 * Each unit: {key, name, side, tokens: [ids], fighters}; units in the order first met.
 *
 * >>> sidesFromTokens([{id: "a", name: "Orc", actorId: "o", disposition: -1}]).enemies[0].fighters
 * 1
 */
export function sidesFromTokens(tokens, { by = "actor" } = {}) {
  const sides = { allies: [], enemies: [] };
  const units = new Map();
  for (const token of tokens) {
    const side = sideOf(token.disposition);
    if (!side || token.dead) continue;
    const own = by === "name" || !token.actorId ? `name:${token.name}` : `actor:${token.actorId}`;
    const key = `${side}/${own}`;
    if (!units.has(key)) {
      const unit = {
        key,
        name: by === "name" ? token.name : (token.actorName ?? token.name),
        side,
        tokens: [],
        fighters: 0,
      };
      units.set(key, unit);
      sides[side].push(unit);
    }
    const unit = units.get(key);
    unit.tokens.push(token.id);
    unit.fighters += 1;
  }
  return sides;
}
