/**
 * Pure rules for the table's own dice (foundry-dice.mjs, leader-test.mjs): who may see a d100
 * posted in chat, and a Leadership test's result as the core's leader's command. No Foundry
 * here; the core still decides every number of the battle.
 */
import { COMMAND_NUMBERS } from "./command-numbers.mjs";

/**
 * Whether players may see a side's d100 of a round or of a leader's command: the player view
 * hides it with that side's strength (the core's view.py: a side's roll, SL and success go with
 * its strength), and every roll is for the GMs when the cards are (`whisper`).
 */
export function sideRollShown(view, side, { whisper = false } = {}) {
  if (whisper) return false;
  return !(view?.hidden ?? []).includes(`${side}.strength`);
}

/**
 * An Influence d100 is shown as the side's own dice are: the player view hides a hidden side's
 * roll (it gives its total, and the total the strengths), so its Foundry roll is blind too.
 */
export function influenceRollShown(view, side, { whisper = false } = {}) {
  return sideRollShown(view, side, { whisper });
}

/**
 * The SL of a WFRP4e test result as a whole number. The system writes it as a text with its
 * sign ("+5", "-0") or as a number (a negative SL; src/system/rolls/test-wfrp4e.js
 * computeResult); anything else is refused, never guessed.
 */
export function testSL(value) {
  if (typeof value === "number" && Number.isInteger(value)) return value === 0 ? 0 : value;
  if (typeof value === "string" && /^[+-]?\d{1,3}$/.test(value.trim())) {
    const number = Number(value.trim());
    return number === 0 ? 0 : number;
  }
  throw new Error(`not an SL: ${JSON.stringify(value)}`);
}

/**
 * The leader's command from a rolled WFRP4e test: its SL and whether it passed
 * (`result.outcome` "success" / "failure", test-wfrp4e.js). The core applies the rule (a
 * failure gives no bonus; a passed test needs SL 0 or more) and refuses what breaks it.
 */
export function leaderCommandFromTest(side, result) {
  const outcome = result?.outcome;
  if (outcome !== "success" && outcome !== "failure") {
    throw new Error(`not a test outcome: ${JSON.stringify(outcome)}`);
  }
  return { type: "leader_command", side, sl: testSL(result.SL), success: outcome === "success" };
}

const { min: D100_MIN, max: D100_MAX } = COMMAND_NUMBERS["resolve_round.rolls.allies"];

/** A d100 as Foundry's Roll gives it: a whole number from 1 to 100 (the core's range), else refused. */
export function d100(total) {
  if (!Number.isInteger(total) || total < D100_MIN || total > D100_MAX) {
    throw new Error(`a d100 must be a whole number from ${D100_MIN} to ${D100_MAX}, not ${JSON.stringify(total)}`);
  }
  return total;
}
