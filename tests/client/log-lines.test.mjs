// The page's log lines with no page around them: a translator and the rule terms passed in.
import { test } from "node:test";
import assert from "node:assert/strict";

import { logLines } from "../../foundry-module/client/log-lines.mjs";

const WORDS = {
  "ev.unit_removed": "{name} removed",
  "ev.round": "Round {round}:",
  "ev.round_rolls": "rolls {rolls}; SL {sl};",
  "ev.round_lost": "lost {lost};",
  "ev.round_strength": "strength now {strength}.",
  "ev.decided_by.success": "(equal SL: a success beats a failure)",
  "ev.undone": "Undone: #{entry} ({what})",
  "cmd.rename": "Renamed to {name}",
};
const t = (key, params = {}) =>
  (WORDS[key] ?? `!${key}`).replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? "?"));
const term = (key) => ({ allies: "Allies", enemies: "Enemies" })[key];
const { describeEntry } = logLines({ t, term });

test("a round in one line; a number hidden from players reads ?; a negative SL with a true minus", () => {
  const round = {
    type: "round_resolved",
    round: 1,
    rolls: { allies: 14, enemies: null },
    sl: { allies: 2, enemies: -2 },
    lost: { allies: 0, enemies: null },
    strength: { allies: 30, enemies: null },
  };
  const view = { log: [{ command: { type: "resolve_round" }, events: [round] }] };
  assert.deepEqual(describeEntry(view.log[0], view), [
    "Round 1: rolls Allies 14 · Enemies ?; SL Allies +2 · Enemies −2; lost Allies 0 · Enemies ?; strength now Allies 30 · Enemies ?.",
  ]);
});

test("a tie on SL 0: +0 and −0 from each side's result, and why it went so", () => {
  const round = {
    type: "round_resolved",
    round: 1,
    mode: "rolls",
    rolls: { allies: 30, enemies: 35 },
    sl: { allies: 0, enemies: 0 },
    success: { allies: true, enemies: false },
    decided_by: "success",
    lost: { allies: 0, enemies: 1 },
    strength: { allies: 30, enemies: 29 },
  };
  const view = { log: [{ command: { type: "resolve_round" }, events: [round] }] };
  assert.deepEqual(describeEntry(view.log[0], view), [
    "Round 1: rolls Allies 30 · Enemies 35; SL Allies +0 · Enemies −0; (equal SL: a success beats a failure) " +
      "lost Allies 0 · Enemies 1; strength now Allies 30 · Enemies 29.",
  ]);
});

test("a removed unit is named from the log, an undo names what it took back, no events: the command", () => {
  const added = {
    command: { type: "add_unit" },
    events: [{ type: "unit_added", unit: { id: "u1", name: "Dwarves" } }],
  };
  const removed = { command: { type: "remove_unit" }, events: [{ type: "unit_removed", unit: "u1" }] };
  const renamed = { command: { type: "rename", name: "raid" }, events: [] };
  const view = { log: [added, removed, renamed] };
  assert.deepEqual(describeEntry(removed, view), ["Dwarves removed"]);
  assert.deepEqual(describeEntry(renamed, view), ["Renamed to raid"]);
  const undo = { command: { type: "undo" }, events: [{ type: "undone", entry: 1 }] };
  assert.deepEqual(describeEntry(undo, view), ["Undone: #2 (Dwarves removed)"]);
});
