// The battle's story from the core's log: steps in force, strength over rounds, plural forms,
// sides from the scene and the strength chart.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  bonusUsed,
  effectiveEntries,
  lastStep,
  strengthBefore,
  strengthHistory,
} from "../../foundry-module/client/battle-story.mjs";
import { pluralCategory } from "../../foundry-module/scripts/logic/plural.mjs";
import { sidesFromTokens } from "../../foundry-module/scripts/logic/scene-sides.mjs";
import { strengthChart } from "../../foundry-module/scripts/logic/strength-chart.mjs";
import { ROUND_1 } from "./core-events.mjs";

// A log as the core writes it (events copied from a run of background_battle.api).
const started = {
  command: { type: "start" },
  events: [{ type: "battle_started", initial: { allies: 30, enemies: 60 } }],
};
const leader = {
  command: { type: "leader_command", side: "allies", sl: 3 },
  events: [{ type: "leader_commanded", side: "allies", success: true, sl: 3, bonus: 5, strength_for_next_test: 35 }],
};
const round1 = {
  command: { type: "resolve_round", mode: "auto" },
  events: [ROUND_1],
};
const round2 = {
  command: { type: "resolve_round", mode: "rolls" },
  events: [
    {
      type: "round_resolved",
      round: 2,
      mode: "rolls",
      targets: { allies: 30, enemies: 56 },
      rolls: { allies: 95, enemies: 5 },
      sl: { allies: -6, enemies: 5 },
      winner: "enemies",
      lost: { allies: 11, enemies: 0 },
      strength: { allies: 19, enemies: 56 },
    },
  ],
};
const added = { command: { type: "add_unit" }, events: [{ type: "unit_added" }] };
const undo = (entry) => ({ command: { type: "undo" }, events: [{ type: "undone", entry }] });

test("an undone step and the undo itself are not in force", () => {
  const log = [added, started, round1, undo(2)];
  assert.deepEqual(
    effectiveEntries(log).map((s) => s.index),
    [0, 1],
  );
  // the undo is the last step (it tells what it took back)
  assert.deepEqual(lastStep({ log }).event, { type: "undone", entry: 2 });
  assert.equal(lastStep({ log: [...log, round2] }).event.type, "round_resolved");
});

test("the last step skips set-up entries", () => {
  assert.equal(lastStep({ log: [started, added] }).event.type, "battle_started");
  assert.equal(lastStep({ log: [added] }), null);
});

test("strength over the rounds, without the undone round", () => {
  const view = { log: [added, started, leader, round1, round2, undo(4)] };
  assert.deepEqual(strengthHistory(view), [
    { round: 0, allies: 30, enemies: 60 },
    { round: 1, allies: 30, enemies: 56 },
  ]);
});

test("strength before a round and the leader's bonus used in it", () => {
  const event = round1.events[0];
  assert.equal(strengthBefore(event, "enemies"), 60);
  assert.equal(bonusUsed(event, "allies"), 5);
  assert.equal(bonusUsed(event, "enemies"), 0);
  const hidden = {
    ...event,
    strength_before: { allies: 30, enemies: null },
    strength: { allies: 30, enemies: null },
    lost: { allies: 0, enemies: null },
  };
  assert.equal(strengthBefore(hidden, "enemies"), null);
  assert.equal(bonusUsed(hidden, "enemies"), null);
});

// A side driven to 0 may be dealt more than it had: 5 before, 9 dealt, 0 after. Its strength
// before is the core's (5, not 0 + 9), and a player who saw the 5 reads it beside "lost ?".
test("strength before a round that drove a side to 0: the core's, not after + lost", () => {
  const event = {
    ...ROUND_1,
    strength_before: { allies: 5, enemies: 60 },
    targets: { allies: 5, enemies: 60 },
    lost: { allies: 9, enemies: 0 },
    strength: { allies: 0, enemies: 60 },
  };
  assert.equal(strengthBefore(event, "allies"), 5);
  assert.equal(bonusUsed(event, "allies"), 0);
  const seen = { ...event, lost: { allies: null, enemies: null }, strength_before: { allies: 5, enemies: null } };
  assert.equal(strengthBefore(seen, "allies"), 5);
  // a round saved before the core wrote strength_before: after + lost, as it was
  const { strength_before: _, ...saved } = ROUND_1;
  assert.equal(strengthBefore(saved, "enemies"), 60);
});

test("plural categories in English and Russian", () => {
  assert.deepEqual(
    [1, 2].map((n) => pluralCategory("en", n)),
    ["one", "other"],
  );
  assert.deepEqual(
    [1, 3, 5, 21, 0].map((n) => pluralCategory("ru", n)),
    ["one", "few", "many", "one", "many"],
  );
  assert.equal(pluralCategory("xx-not-a-language!", 2), "other");
});

test("5 friendly and 12 hostile tokens of two actors become two sides; the dead stay out", () => {
  const tokens = [
    ...Array.from({ length: 5 }, (_, i) => ({
      id: `f${i}`,
      name: `Dwarf ${i}`,
      actorId: "dwarf",
      actorName: "Dwarf",
      disposition: 1,
    })),
    ...Array.from({ length: 8 }, (_, i) => ({
      id: `o${i}`,
      name: "Orc",
      actorId: "orc",
      actorName: "Orc",
      disposition: -1,
    })),
    ...Array.from({ length: 4 }, (_, i) => ({
      id: `g${i}`,
      name: "Goblin",
      actorId: "gob",
      actorName: "Goblin",
      disposition: -1,
    })),
    { id: "dead", name: "Orc", actorId: "orc", actorName: "Orc", disposition: -1, dead: true },
    { id: "n", name: "Cow", actorId: "cow", disposition: 0 },
  ];
  const sides = sidesFromTokens(tokens);
  assert.deepEqual(
    sides.allies.map((u) => [u.name, u.fighters]),
    [["Dwarf", 5]],
  );
  assert.deepEqual(
    sides.enemies.map((u) => [u.name, u.fighters]),
    [
      ["Orc", 8],
      ["Goblin", 4],
    ],
  );
  assert.ok(!sides.enemies[0].tokens.includes("dead"));
  const byName = sidesFromTokens(tokens, { by: "name" });
  assert.equal(byName.allies.length, 5);
});

test("the chart draws a row per side it knows, a bar a round, in tags chat HTML keeps", () => {
  const chart = strengthChart(
    [
      { round: 0, allies: 30, enemies: 60 },
      { round: 1, allies: 30, enemies: 56 },
    ],
    "t",
  );
  assert.match(chart, /data-side="allies"/);
  assert.match(chart, /data-side="enemies"/);
  assert.match(chart, /<span class="bb-bar" data-round="1" style="height: 93.3%"><\/span><\/div><\/div>$/);
  // CONST.ALLOWED_HTML_TAGS (v13, v14) has div and span, no svg
  const tags = new Set([...chart.matchAll(/<([a-z][a-z0-9-]*)/g)].map((m) => m[1]));
  assert.deepEqual([...tags].sort(), ["div", "span"]);
  const hidden = strengthChart([{ round: 0, allies: 30, enemies: null }], "t");
  assert.doesNotMatch(hidden, /data-side="enemies"/);
  assert.doesNotMatch(hidden, /NaN/);
  assert.doesNotMatch(strengthChart([], "t"), /NaN|bb-line/);
});
