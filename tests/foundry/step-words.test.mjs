// A step of the battle in words (the panel's result line and the chat cards), in English and
// Russian, from the core's events as the GM and as the players see them. `game` is a small
// stand-in of Foundry's Localization (format fills {name}) and of game.settings.get.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useLanguage } from "./lang-game.mjs";
import { ROUND_1 } from "./core-events.mjs";

useLanguage("en");
const { describeLogStep, describeStep, setUpLine, sideUnits } =
  await import("../../foundry-module/scripts/step-words.mjs");
const { counted } = await import("../../foundry-module/scripts/i18n.mjs");

// copied from a run of background_battle.api (GM view, then the player view of the same round)
const round = ROUND_1;
const seenByPlayers = {
  ...round,
  strength_before: { allies: 30, enemies: null },
  targets: { allies: 35, enemies: null },
  rolls: { allies: 14, enemies: null },
  sl: { allies: 2, enemies: null },
  lost: { allies: null, enemies: null },
  strength: { allies: 30, enemies: null },
};

test("a round: rolls, targets with the leader's bonus, SL, strength before and after, winner", () => {
  useLanguage("en");
  const { title, lines } = describeStep(round);
  assert.equal(title, "Round 1: Allies won");
  assert.equal(
    lines[0],
    "Allies: d100 14 against 35, SL +2; (35 = strength 30 + leader's bonus 5); strength 30 → 30 (lost 0)",
  );
  assert.equal(lines[1], "Enemies: d100 85 against 60, SL −2; strength 60 → 56 (lost 4)");
  assert.equal(lines[2], "the higher SL wins");
});

// Issue 27: 30 vs 35 at strength 30: both SL 0; the allies passed (+0), the enemies failed (−0).
const TIE_ON_SUCCESS = {
  type: "round_resolved",
  round: 1,
  mode: "rolls",
  targets: { allies: 30, enemies: 30 },
  rolls: { allies: 30, enemies: 35 },
  sl: { allies: 0, enemies: 0 },
  success: { allies: true, enemies: false },
  decided_by: "success",
  winner: "allies",
  lost: { allies: 0, enemies: 1 },
  strength: { allies: 30, enemies: 29 },
};

test("a tie on SL 0: +0 and −0 from each side's result, and why the success won", () => {
  useLanguage("en");
  const { title, lines } = describeStep(TIE_ON_SUCCESS);
  assert.equal(title, "Round 1: Allies won");
  assert.match(lines[0], /^Allies: d100 30 against 30, SL \+0;/);
  assert.match(lines[1], /^Enemies: d100 35 against 30, SL −0;/);
  assert.equal(lines[2], "equal SL: a success beats a failure");
  useLanguage("ru");
  const ru = describeStep(TIE_ON_SUCCESS).lines;
  assert.match(ru[1], /SL −0/);
  assert.equal(ru[2], "SL равны: успех бьёт провал");
  // a 97 fails: its SL is moved to 0, and it is −0
  useLanguage("en");
  const ninetySeven = {
    ...TIE_ON_SUCCESS,
    targets: { allies: 30, enemies: 100 },
    rolls: { allies: 30, enemies: 97 },
    strength: { allies: 30, enemies: 99 },
  };
  assert.match(describeStep(ninetySeven).lines[1], /^Enemies: d100 97 against 100, SL −0;/);
  // a round saved before rounds said why: the signs still, no reason line
  const { decided_by: _, ...old } = TIE_ON_SUCCESS;
  assert.equal(describeStep(old).lines.length, 2);
});

test("what the player view hides reads ?", () => {
  useLanguage("en");
  const { lines } = describeStep(seenByPlayers);
  assert.equal(lines[1], "Enemies: d100 ? against ?, SL ?; strength ? → ? (lost ?)");
  assert.doesNotMatch(lines.join(" "), /56|60|85/);
});

test("a hidden side's leader test says neither its result nor its numbers", () => {
  // the player view of {leadership: 47, roll: 73, success: false, sl: -3} with the enemies hidden
  const hidden = {
    type: "leader_commanded",
    side: "enemies",
    leadership: null,
    roll: null,
    success: null,
    sl: null,
    bonus: null,
    strength_for_next_test: null,
    redacted: ["leadership", "roll", "success", "sl", "bonus", "strength_for_next_test"],
  };
  for (const lang of ["en", "ru"]) {
    useLanguage(lang);
    const { lines } = describeStep(hidden);
    assert.equal(lines.length, 1);
    assert.equal(lines[0], lang === "en" ? "The test's result is hidden" : "Результат проверки скрыт");
  }
});

test("an undo names the step it took back; Russian words", () => {
  useLanguage("ru");
  const log = [{ events: [round] }, { events: [{ type: "undone", entry: 0 }] }];
  assert.equal(
    describeLogStep({ type: "undone", entry: 0 }, log[1], log).title,
    "Шаг назад: Раунд 1: победили Союзники",
  );
  assert.deepEqual(
    [1, 3, 5].map((n) => counted("Panel.TokenCount", n)),
    ["1 токен", "3 токена", "5 токенов"],
  );
  useLanguage("en");
  assert.deepEqual(
    [1, 2].map((n) => counted("Panel.TokenCount", n)),
    ["1 token", "2 tokens"],
  );
});

test("the end after the PCs' win gives the last stand's working", () => {
  useLanguage("en");
  const entry = {
    events: [
      { type: "pcs_won", fleeing: "1/2", enemy_strength: 44, fighting_strength: 22, damage: 11, allies_strength: 16 },
      { type: "battle_ended", winner: "allies", reason: "pcs_won" },
    ],
  };
  const { title, lines } = describeStep(entry.events[0], entry);
  assert.equal(title, "The battle is over: Allies won");
  assert.deepEqual(lines, [
    "The PCs won their fight.",
    "Enemies fleeing 1/2: their fighting strength 22 deals 11; the allies keep 16",
  ]);
});

// copied from a run of background_battle.api: set-up steps, as the GM and as players see them
const dwarves = { id: "u1", name: "Dwarves", side: "allies", fighters: 1, strength: 3, size: "average", detached: 0 };
const orcs = { id: "u2", name: "Orcs", side: "enemies", fighters: 12, strength: 26, size: "average", detached: 0 };
const setUpLog = [
  { command: { type: "add_unit" }, events: [{ type: "unit_added", unit: dwarves }] },
  { command: { type: "add_unit" }, events: [{ type: "unit_added", unit: orcs }] },
  { command: { type: "update_unit" }, events: [{ type: "unit_updated", unit: { ...orcs, fighters: 22 } }] },
  { command: { type: "remove_unit" }, events: [{ type: "unit_removed", unit: "u2" }] },
  {
    command: { type: "set_modifiers" },
    events: [
      {
        type: "modifiers_set",
        side: "allies",
        modifiers: [
          { name: "Hill", percent: 10, flat: 0 },
          { name: "Walls", percent: 0, flat: -5 },
        ],
      },
    ],
  },
  { command: { type: "set_modifiers" }, events: [{ type: "modifiers_set", side: "enemies", modifiers: [] }] },
  {
    command: { type: "set_hidden" },
    events: [{ type: "hidden_set", hidden: ["enemies.fighters", "enemies.strength"] }],
  },
  { command: { type: "set_hidden" }, events: [{ type: "hidden_set", hidden: [] }] },
  { command: { type: "rename" }, events: [{ type: "renamed", name: "The ford" }] },
  { command: { type: "set_influence_table" }, events: [{ type: "influence_table_set", table: null }] },
  { command: { type: "undo" }, events: [{ type: "undone", entry: 3 }] },
];
const setUpLines = () => setUpLog.map((entry, index) => setUpLine(entry, setUpLog, index));

test("set-up steps in one line each, head counts in plural forms", () => {
  useLanguage("en");
  assert.deepEqual(setUpLines(), [
    "Allies: Dwarves added (1 fighter, strength 3)",
    "Enemies: Orcs added (12 fighters, strength 26)",
    "Enemies: Orcs changed (22 fighters, strength 26)",
    "Enemies: Orcs removed",
    "Allies: modifiers Hill +10%, Walls -5",
    "Enemies: no modifiers",
    "Hidden from players: the enemies' head count, the enemies' strength",
    "Players see every number",
    "The battle is now called The ford",
    "Influence table: the house default",
    "Taken back: Enemies: Orcs removed",
  ]);
  useLanguage("ru");
  assert.deepEqual(setUpLines().slice(0, 4), [
    "Союзники: добавлен отряд «Dwarves» (1 боец, ОС 3)",
    "Враги: добавлен отряд «Orcs» (12 бойцов, ОС 26)",
    "Враги: изменён отряд «Orcs» (22 бойца, ОС 26)",
    "Враги: убран отряд «Orcs»",
  ]);
  assert.equal(setUpLines()[6], "Скрыто от игроков: численность врагов, ОС врагов");
  // an undo of a set-up step in the panel's words too
  assert.equal(
    describeLogStep(setUpLog[10].events[0], setUpLog[10], setUpLog).title,
    "Шаг назад: Враги: убран отряд «Orcs»",
  );
});

test("what the player view hides is not said: no head count, no strength, no modifiers", () => {
  useLanguage("en");
  const hidden = { ...orcs, fighters: null, strength: null, redacted: ["fighters", "strength"] };
  assert.equal(setUpLine({ events: [{ type: "unit_added", unit: hidden }] }), "Enemies: Orcs added");
  assert.equal(setUpLine({ events: [{ type: "unit_updated", unit: hidden }] }), "Enemies: Orcs changed");
  assert.equal(
    setUpLine({ events: [{ type: "modifiers_set", side: "enemies", modifiers: null }] }),
    "Enemies: modifiers changed",
  );
  // the start card's units as players see them
  assert.deepEqual(sideUnits({ units: [dwarves, { ...orcs, id: "u3", name: "Wolves", fighters: 3 }, hidden] }), [
    "Allies: Dwarves (1 fighter)",
    "Enemies: Wolves (3 fighters), Orcs",
  ]);
});

test("a round by strength lost says so, with each side's loss; fighters into the PCs' fight", () => {
  useLanguage("en");
  const lost = {
    type: "round_resolved",
    round: 3,
    mode: "lost",
    targets: { allies: 30, enemies: 60 },
    winner: null,
    lost: { allies: 0, enemies: 9 },
    strength: { allies: 30, enemies: 51 },
  };
  assert.deepEqual(describeStep(lost), {
    title: "Round 3: strength lost typed in",
    lines: ["Allies: strength 30 → 30 (lost 0)", "Enemies: strength 60 → 51 (lost 9)"],
  });
  useLanguage("ru");
  assert.equal(describeStep(lost).title, "Раунд 3: потери введены вручную");
  const detached = { type: "fighters_detached", side: "enemies", fighters: 1, strength_cost: 6, strength: 45 };
  assert.deepEqual(describeStep(detached), {
    title: "Враги: 1 боец уходит в схватку персонажей",
    lines: ["Сторона теряет их ОС: 6 (теперь 45)"],
  });
});
