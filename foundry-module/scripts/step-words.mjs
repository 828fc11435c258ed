/**
 * The bridge client's step words (client/step-words.mjs) in the module's language, the Influence
 * roll read by the GM's chosen RollTable or the core's own bands.
 */
import { shown, stepWords } from "../client/step-words.mjs";
import { counted, t } from "./i18n.mjs";
import { chosenTable, coreBandText, tableReading } from "./influence.mjs";

function influenceBand(event) {
  const table = chosenTable();
  return table ? tableReading(table, event.total, event.side) : coreBandText(event, null);
}

export { shown };
export const { describeStep, describeLogStep, setUpLine, sideUnits } = stepWords({ t, counted, influenceBand });
