// The module's parts get narrow fronts of the app (wiring.mjs), read live; the panel's actions,
// by phase, each run through act() (panel-act.mjs) with their phase's front.
import { test } from "node:test";
import assert from "node:assert/strict";

import { appParts, connectionsOf, panelFronts } from "../../foundry-module/scripts/wiring.mjs";
import { act } from "../../foundry-module/scripts/panel-act.mjs";
import { SET_UP_ACTIONS } from "../../foundry-module/scripts/panel-act-set-up.mjs";
import { FIGHT_ACTIONS } from "../../foundry-module/scripts/panel-act-fight.mjs";
import { APPLY_ACTIONS } from "../../foundry-module/scripts/panel-act-apply.mjs";

test("the connections a part holds are the app's of now, after a reconnect too", () => {
  const app = { client: "first", eye: null, changed() {} };
  const connections = connectionsOf(app);
  app.client = "second";
  app.eye = "eye";
  assert.equal(connections.client, "second");
  assert.equal(connections.eye, "eye");
  assert.deepEqual(Object.keys(connections), ["client", "eye"]);
});

test("the parts get the connections, and the GM's choice reaches the cards only through its front", async () => {
  let changed = 0;
  const app = { client: null, eye: null, changed: () => (changed += 1) };
  const { connections, cards, choice, applier } = appParts(app);
  for (const part of [cards, choice, applier]) {
    assert.equal(part.connections, connections);
    assert.equal(part.app, undefined);
  }
  const asked = [];
  cards.shownFromStart = async (battle) => asked.push(battle);
  await choice.cards.shownFromStart("siege");
  assert.deepEqual(asked, ["siege"]);
  applier.changed();
  assert.equal(changed, 1);
});

/** An app as far as the panel's fronts read it. */
function fakeApp() {
  const sent = [];
  const app = {
    battle: "siege",
    state: { view: { status: "ended" }, foundry: { applied: { u1: { version: 3 } } } },
    applier: { mine: false, user: { name: "Anna" }, line: () => "Anna" },
    client: {
      request: async (type, fields) => {
        sent.push([type, fields]);
        return { type: "ack" };
      },
    },
    send: (makeRequest) => makeRequest(),
    command: async (order) => {
      sent.push(["command", order]);
      return { version: 4 };
    },
  };
  return { app, sent };
}

test("a request of the panel is about the battle shown when it is sent", async () => {
  const { app, sent } = fakeApp();
  const { apply } = panelFronts(app);
  app.battle = "ambush";
  await apply.request("request_casualties", { unit: "u1" });
  await apply.request("request_casualties");
  assert.deepEqual(sent, [
    ["request_casualties", { battle: "ambush", unit: "u1" }],
    ["request_casualties", { battle: "ambush" }],
  ]);
  assert.deepEqual(apply.foundryData(), app.state.foundry);
  assert.equal(apply.applier.mine(), false);
  assert.equal(apply.applier.name(), "Anna");
  app.applier.user = null;
  assert.equal(apply.applier.name(), "?");
  app.state = null;
  assert.equal(apply.foundryData(), null);
});

test("each phase's front holds what its actions use, and no phase reaches the app", () => {
  const { app } = fakeApp();
  const fronts = panelFronts(app);
  assert.deepEqual(Object.keys(fronts).sort(), ["apply", "fight", "panel", "setUp"]);
  assert.deepEqual(Object.keys(fronts.fight).sort(), ["battle", "command", "foundryData", "once", "request", "view"]);
  for (const front of Object.values(fronts)) assert.ok(!Object.values(front).includes(app));
});

test("the phases' actions have one name each", () => {
  const names = [SET_UP_ACTIONS, FIGHT_ACTIONS, APPLY_ACTIONS].flatMap((actions) => Object.keys(actions));
  assert.equal(new Set(names).size, names.length, names.join(", "));
  for (const name of ["createBattle", "newUnit", "sceneConfirm"]) assert.ok(name in SET_UP_ACTIONS, name);
  for (const name of ["start", "roundAuto", "leader", "leaderForget", "undo", "influence"])
    assert.ok(name in FIGHT_ACTIONS, name);
  assert.deepEqual(Object.keys(APPLY_ACTIONS).sort(), [
    "applyAll",
    "applyUnit",
    "finishApply",
    "undoApply",
    "undoInterrupted",
  ]);
});

/** A panel as far as act() uses it: its front's once(), its phases' fronts and its element. */
function fakePanel() {
  const warnings = [];
  globalThis.ui = { notifications: { warn: (text) => warnings.push(text) } };
  let pending = null;
  const panel = {
    element: { form: true },
    acted: null,
    focusNext: null,
    front: {
      once: async (action) => {
        if (pending) return null;
        pending = action;
        try {
          return await action();
        } finally {
          pending = null;
        }
      },
    },
    fronts: { apply: { phase: "apply" }, fight: { phase: "fight" } },
  };
  return { panel, warnings };
}

test("an action gets its phase's front, the form and the control; its next controls get the focus", async () => {
  const { panel } = fakePanel();
  const calls = [];
  const action = act("apply", async (front, form, target) => {
    calls.push([front, form, target.dataset.unit]);
    return ['[data-action="applyAll"]'];
  });
  const target = { dataset: { action: "applyUnit", unit: "u1" } };
  await action.call(panel, { detail: 1 }, target);
  assert.deepEqual(calls, [[panel.fronts.apply, panel.element, "u1"]]);
  assert.deepEqual(panel.acted, { action: "applyUnit", unit: "u1" });
  assert.deepEqual(panel.focusNext, ['[data-action="applyAll"]']);
});

test("a double click, or a click while an action is on its way, runs nothing; a bad entry is a notice", async () => {
  const { panel, warnings } = fakePanel();
  let runs = 0;
  let release;
  const slow = act("fight", () => {
    runs += 1;
    return new Promise((resolve) => (release = resolve));
  });
  assert.equal(slow.call(panel, { detail: 2 }, null), null);
  const first = slow.call(panel, { detail: 1 }, null);
  assert.equal(await slow.call(panel, { detail: 1 }, null), null);
  release();
  await first;
  assert.equal(runs, 1);
  const bad = act("fight", () => {
    throw new Error("Strength: type a whole number");
  });
  await bad.call(panel, { detail: 1 }, null);
  assert.deepEqual(warnings, ["Strength: type a whole number"]);
  assert.equal(panel.focusNext, null);
});
