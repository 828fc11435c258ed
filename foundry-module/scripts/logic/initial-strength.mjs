/**
 * A side's strength at the start (S0) from its units and modifiers, as the core fixes it at
 * `start` (core/background_battle/modifiers.py `initial_strength`, docs/rules.md §3):
 * `S0 = round(sum × (1 + percents / 100) + flats)`, an exact half rounded down, never below 0.
 * The core's view gives S0 only once the battle starts; the panel shows it in set-up too, and
 * `initial-strength.test.mjs` checks this against the core itself. Pure, in exact whole numbers.
 *
 * @example
 * initialStrength(80, [{name: "Fortified", percent: 25}]) // 100
 * initialStrength(25, [{name: "Tired", percent: -10}]) // 22 (22.5: a half goes down)
 */
export function initialStrength(unitsStrength, modifiers = []) {
  const percents = modifiers.reduce((sum, m) => sum + BigInt(m.percent ?? 0), 0n);
  const flats = modifiers.reduce((sum, m) => sum + BigInt(m.flat ?? 0), 0n);
  // in hundredths: sum × (100 + percents) + 100 × flats
  const hundredths = BigInt(unitsStrength) * (100n + percents) + 100n * flats;
  let whole = hundredths / 100n;
  let rest = hundredths % 100n;
  if (rest < 0n) {
    whole -= 1n;
    rest += 100n;
  }
  const rounded = rest > 50n ? whole + 1n : whole;
  return Number(rounded < 0n ? 0n : rounded);
}

/** A modifier in words: its name, its percent and its flat amount, each with its sign. */
export function modifierText({ name, percent = 0, flat = 0 }) {
  const signed = (n) => (n < 0 ? `−${-n}` : `+${n}`);
  const parts = [name];
  if (percent) parts.push(`${signed(percent)} %`);
  if (flat || !percent) parts.push(signed(flat));
  return parts.join(" ");
}
