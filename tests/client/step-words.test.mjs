// The client's step words with no Foundry and no page around them: a translator passed in (here
// a plain lookup in a small dictionary) is all they use; an Influence reading comes from the shell.
import { test } from "node:test";
import assert from "node:assert/strict";

import { shown, stepWords } from "../../foundry-module/client/step-words.mjs";

const WORDS = {
  "Side.allies": "Allies",
  "Side.enemies": "Enemies",
  "Step.Started": "Started",
  "Step.StartStrength": "{allies} v {enemies}",
  "Step.Influence": "unused",
  "Influence.Title": "Influence ({side})",
  "Influence.Roll": "{roll} {modifier} = {total}",
  "Step.Undone": "Taken back: {step}",
  "Step.Other": "Other: {type}",
  "Card.SideUnits": "{side}: {units}",
  "Card.UnitFighters.one": "{name} ({count} fighter)",
  "Card.UnitFighters.other": "{name} ({count} fighters)",
};
const t = (key, data = {}) => (WORDS[key] ?? `!${key}`).replace(/\{(\w+)\}/g, (_, name) => String(data[name]));
const counted = (key, count, data = {}) => t(`${key}.${Number(count) === 1 ? "one" : "other"}`, { count, ...data });

test("a step reads only the translator it is given; a hidden number reads ?", () => {
  const words = stepWords({ t, counted });
  assert.deepEqual(words.describeStep({ type: "battle_started", initial: { allies: 30, enemies: null } }), {
    title: "Started",
    lines: ["30 v ?"],
  });
  assert.equal(shown(null), "?");
  assert.equal(shown(0), "0");
  assert.equal(words.describeStep({ type: "something_new" }).title, "Other: something_new");
});

test("an undo names the step it took back", () => {
  const { describeLogStep } = stepWords({ t, counted });
  const log = [{ events: [{ type: "battle_started", initial: { allies: 1, enemies: 2 } }] }];
  const undo = { type: "undone", entry: 0 };
  assert.equal(describeLogStep(undo, { events: [undo] }, log).title, "Taken back: Started");
});

test("an Influence roll: the shell's reading of the total, or the roll alone", () => {
  const event = { type: "influence_rolled", side: "allies", roll: 40, modifier: 5, total: 45 };
  const bare = stepWords({ t, counted }).describeStep(event);
  assert.deepEqual(bare, { title: "Influence (Allies)", lines: ["40 5 = 45"] });
  const read = stepWords({ t, counted, influenceBand: (e) => `band of ${e.total}` }).describeStep(event);
  assert.deepEqual(read.lines, ["40 5 = 45", "band of 45"]);
});

test("the units of each side, a hidden head count named only", () => {
  const { sideUnits } = stepWords({ t, counted });
  const view = {
    units: [
      { side: "allies", name: "Dwarves", fighters: 1 },
      { side: "allies", name: "Scouts", fighters: 2 },
      { side: "enemies", name: "Goblins", fighters: null },
    ],
  };
  assert.deepEqual(sideUnits(view), ["Allies: Dwarves (1 fighter), Scouts (2 fighters)", "Enemies: Goblins"]);
  assert.equal(globalThis.game, undefined); // nothing Foundry's was needed
});
