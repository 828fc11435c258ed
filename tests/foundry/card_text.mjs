/**
 * The words a player reads on the cards and in the log, each number kept findable: reads player
 * views (JSON, one array on stdin) and writes, for every log entry of each, the Foundry card's
 * step (client/step-words.mjs) and the page's log lines (client/log-lines.mjs). The translator
 * writes each string as ⟦[key, params]⟧, so the test (test_cards_show_what_the_view_shows.py)
 * reads which number went into which place, "?" included, without a language's wording.
 */
import { mainEvent } from "../../foundry-module/client/battle-story.mjs";
import { logLines } from "../../foundry-module/client/log-lines.mjs";
import { stepWords } from "../../foundry-module/client/step-words.mjs";

const marked = (key, params = {}) => (key.startsWith("Side.") ? key.slice(5) : `⟦${JSON.stringify([key, params])}⟧`);
const counted = (key, count, params = {}) => marked(key, { ...params, count });
const cards = stepWords({ t: marked, counted });
// The page's t() writes "?" for a null parameter (web/i18n.js `shown`); its terms are the sides.
const pageT = (key, params = {}) =>
  marked(key, Object.fromEntries(Object.entries(params).map(([k, v]) => [k, v === null || v === undefined ? "?" : v])));
const { describeEntry } = logLines({ t: pageT, term: (name) => name });

let input = "";
for await (const chunk of process.stdin) input += chunk;
const rendered = JSON.parse(input).map((view) =>
  (view.log ?? []).map((entry) => {
    const event = mainEvent(entry);
    const step = event ? cards.describeLogStep(event, entry, view.log) : null;
    return { step, log: describeEntry(entry, view) };
  }),
);
process.stdout.write(JSON.stringify(rendered));
