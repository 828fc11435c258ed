// WFRP4e skill tests for the stand-in, as the system's public source has them (read for facts,
// not copied). Loaded after dice.js (it rolls with the stand-in's Roll):
// - moo-man/WFRP4e-FoundryVTT src/documents/actor.js `setupSkill(skill, context, options)`:
//   a skill name is looked up among the actor's skills (case-insensitive); then
//   `_setupTest(SkillDialog, SkillTest, …, roll = false)`: the dialog, then the test, NOT rolled
//   (the caller does `await test.roll()`, e.g. src/system/config-wfrp4e.js, terror).
// - moo-man/WarhammerLibrary-FVTT src/document/actor.js `_setupTest`: `awaitSubmit` resolves to
//   the submitted data, or to nothing: then no test (undefined); src/apps/roll-dialogV2.js
//   `close()`: the promise is resolved on close **only with `options.resolveClose`** — without
//   it a closed dialog never settles. `_defaultFields`: `rollMode` (core's, "publicroll");
//   `context.fields` preset the dialog's fields (e.g. rollMode, difficulty).
// - WFRP4e src/apps/roll-dialog/roll-dialog.js: fields modifier, slBonus, successBonus,
//   difficulty (default "challenging"); src/system/config-wfrp4e.js difficultyModifiers.
// - WFRP4e src/system/rolls/test-wfrp4e.js: `roll()` rolls 1d100 (`new Roll("1d100")`), computes
//   the result and renders the card (`renderRollCard`: `ChatMessage.applyRollMode(messageData,
//   rollMode)`, then `ChatMessage.create` of type "test" with `system.testData`; the dice go to
//   Dice So Nice by `game.dice3d.showForRoll`, not as the message's rolls); `computeResult`:
//   SL = floor(target/10) − floor(roll/10) + slBonus; failure when roll ≥ 96 (automaticFailure)
//   or (roll > target and roll > 5); success otherwise (roll ≤ 5 gives at least SL 1);
//   `result.SL` is "+N" for a success or a positive failure, "-0" for a zero failure, else a
//   number; `result.outcome` "success" / "failure"; `succeeded`, `failed`.
// - WFRP4e static/lang/en.json: "NAME.Leadership": "Leadership".
import { record, refuse } from "./record.js";
import { WfrpActor } from "./wfrp4e.js";
import { ROLL_MODES, systemRollMode } from "./dice.js";

record.tests = []; // every WFRP4e test rolled: {actor, skill, target, roll, SL, outcome}
record.testDialogs = []; // every test dialog opened: {title, fields}

const DIFFICULTY = { veasy: 60, easy: 40, average: 20, challenging: 0, difficult: -10, hard: -20, vhard: -30 };
const SYSTEM_STRINGS = { "NAME.Leadership": "Leadership" };

if (game.system.id === "wfrp4e") {
  const localize = game.i18n.localize;
  game.i18n.localize = (key) => SYSTEM_STRINGS[key] ?? localize(key);
}

class SkillTest {
  constructor(data) {
    this.data = data;
    this.result = { roll: undefined };
  }
  get actor() {
    return this.data.actor;
  }
  get succeeded() {
    return this.result.outcome === "success";
  }
  get failed() {
    return this.result.outcome === "failure";
  }
  async roll() {
    const roll = await new window.Roll("1d100").evaluate();
    if (game.dice3d) await game.dice3d.showForRoll(roll, game.user, true, null, this.data.rollMode === "blindroll");
    const target = this.data.skill.total + DIFFICULTY[this.data.difficulty] + this.data.modifier;
    let SL = Math.floor(target / 10) - Math.floor(roll.total / 10) + this.data.slBonus;
    let outcome;
    if (roll.total >= 96 || (roll.total > target && roll.total > 5)) {
      outcome = "failure";
      if (roll.total >= 96 && SL > -1) SL = -1;
      if (SL > 0) SL = `+${SL}`;
      else if (SL === 0) SL = "-0";
    } else {
      outcome = "success";
      SL += this.data.successBonus;
      if (roll.total <= 5 && SL < 1) SL = 1;
      if (SL >= 0) SL = `+${SL}`;
    }
    Object.assign(this.result, { roll: roll.total, target, SL, outcome });
    record.tests.push({ actor: this.actor.uuid, skill: this.data.skill.name, target, roll: roll.total, SL, outcome });
    await this.renderRollCard();
    return this;
  }
  async renderRollCard() {
    const messageData = {
      type: "test",
      speaker: { alias: this.actor.name },
      system: { testData: { result: structuredClone(this.result) } },
      content:
        `<div class="wfrp4e chat-card"><h3>${this.data.title}</h3>` +
        `<p>Target ${this.result.target} · Roll ${this.result.roll}</p>` +
        `<p class="wfrp4e-outcome">${this.succeeded ? "Success" : "Failure"} · SL ${this.result.SL}</p></div>`,
    };
    systemRollMode(messageData, this.data.rollMode); // the system's ChatMessage.applyRollMode
    this.message = await window.ChatMessage.create(messageData);
  }
}

/** The skill dialog: fields the GM may change, Roll (submit) or close. */
function awaitSubmit(data, fields, options) {
  return new Promise((resolve) => {
    record.testDialogs.push({ title: data.title, fields: structuredClone(fields) });
    const dialog = document.createElement("dialog");
    dialog.className = "application wfrp-roll-dialog";
    const modes = Object.keys(ROLL_MODES).map(
      (m) => `<option value="${m}"${m === fields.rollMode ? " selected" : ""}>${m}</option>`,
    );
    const levels = Object.keys(DIFFICULTY).map(
      (d) => `<option value="${d}"${d === fields.difficulty ? " selected" : ""}>${d}</option>`,
    );
    dialog.innerHTML =
      `<header class="window-header"><h1></h1><button type="button" data-action="close" aria-label="Close">×</button></header>` +
      `<form class="window-content"><label>Difficulty <select name="difficulty">${levels.join("")}</select></label>` +
      `<label>Modifier <input name="modifier" type="number" value="${fields.modifier}"></label>` +
      `<label>SL bonus <input name="slBonus" type="number" value="${fields.slBonus}"></label>` +
      `<label>Roll mode <select name="rollMode">${modes.join("")}</select></label>` +
      `<button type="submit" data-action="roll">Roll</button></form>`;
    dialog.querySelector("h1").textContent = data.title;
    const close = () => {
      dialog.remove();
      if (options.resolveClose) resolve(undefined); // else: never settles, as the source
    };
    dialog.querySelector("[data-action=close]").addEventListener("click", close);
    dialog.querySelector("form").addEventListener("submit", (event) => {
      event.preventDefault();
      const form = event.target;
      const number = (name) => Number(form.elements[name].value) || 0;
      dialog.remove();
      resolve({
        ...data,
        difficulty: form.elements.difficulty.value,
        modifier: number("modifier"),
        slBonus: number("slBonus"),
        successBonus: fields.successBonus,
        rollMode: form.elements.rollMode.value,
      });
    });
    document.body.append(dialog);
    dialog.show();
  });
}

Object.defineProperty(WfrpActor.prototype, "itemTags", {
  get() {
    return { skill: this.skills ?? [] };
  },
});

WfrpActor.prototype.setupSkill = async function (skill, context = {}, options = {}) {
  if (typeof skill === "string") {
    const name = skill;
    skill = this.itemTags.skill.find((s) => s.name.toLowerCase() === name.toLowerCase()) ?? {
      name,
      total: 0,
      unknown: true,
    };
  }
  if (skill.unknown) refuse(`stand-in: ${this.name} has no skill ${skill.name} (the stand-in does not look it up)`);
  const fields = {
    modifier: 0,
    slBonus: 0,
    successBonus: 0,
    difficulty: "challenging",
    rollMode: CONST.DICE_ROLL_MODES.PUBLIC,
    ...(context.fields ?? {}),
  };
  const title = `${skill.name} Test${context.appendTitle ?? ""}`;
  const submitted = await awaitSubmit({ actor: this, skill, title }, fields, options);
  if (!submitted) return undefined;
  return new SkillTest(submitted);
};

/** Gives a token's actor a skill with its total (the sheet's advances and characteristic). */
window.StandIn.setSkill = (tokenId, name, total) => {
  const actor = window.StandIn.scene.tokens.get(tokenId).actor;
  actor.skills = [...(actor.skills ?? []).filter((s) => s.name !== name), { name, total }];
};
