/**
 * Background Battle for Foundry VTT v13 and v14 (generation.mjs holds what differs). This file
 * only registers hooks; the work is in the files it imports.
 */
import { ID } from "./constants.mjs";
import { BattleApp } from "./app.mjs";
import { isActiveGM } from "./who.mjs";
import { BattlePanel } from "./panel.mjs";
import { panelFronts, rhythmFront } from "./wiring.mjs";
import { readDebugSetting, registerSettings } from "./settings.mjs";
import { registerPanelSettings } from "./panel-settings.mjs";
import { registerCardMarks } from "./card-marks.mjs";
import { log } from "./log.mjs";
import { startRelay } from "./relay.mjs";
import { registerDiceSetting } from "./foundry-dice.mjs";
import { registerLeaderSetting } from "./leader-test.mjs";
import { fightControls } from "./fight-apply.mjs";
import { marksOf } from "./fight-marks.mjs";
import { combatUpdated, registerRhythmSettings } from "./fight-rounds.mjs";

const app = new BattleApp();

/** Opens the panel, or closes it when it is open. */
function togglePanel() {
  const open = foundry.applications.instances.get(`${ID}-panel`);
  if (open) return open.close();
  return new BattlePanel(panelFronts(app)).render({ force: true });
}

Hooks.once("init", () => {
  registerSettings({
    onBridgeChange: () => game.ready && app.connect(),
    onBattleChange: () => game.ready && app.follow(),
  });
  registerPanelSettings();
  registerCardMarks();
  registerDiceSetting();
  registerLeaderSetting();
  registerRhythmSettings();
});

Hooks.once("setup", () => readDebugSetting());

// The Influence card's "Apply to the fight" and the fight card's Undo (GM only), with the
// effects done on the GM's page (shared through the bridge).
Hooks.on("renderChatMessageHTML", (message, html) => fightControls(message, html, marksOf(app.connections)));
// Fighters due to join the PCs' fight, and the background battle in the combat's rhythm.
Hooks.on("updateCombat", (combat, changed) => combatUpdated(combat, changed, rhythmFront(app)));

Hooks.once("ready", () => {
  const module = game.modules?.get(ID);
  if (module) module.api = { app, togglePanel };
  app.applier.start();
  startRelay(isActiveGM, { eye: () => app.eye, messages: app.messages.players }, () => {
    if (app.relayed && !app.client?.connected) app.connect();
  });
  // A GM who leaves may leave this browser the active GM: it cards what is still missing.
  Hooks.on("userConnected", () => {
    for (const battle of app.watching) app.cards.catchUp(battle);
  });
  log.info("ready; connecting to the bridge");
  app.connect();
});

Hooks.on("getSceneControlButtons", (controls) => {
  const tokens = controls.tokens;
  if (!tokens) return;
  // SceneControl#tools is optional in v14 (api v14 `SceneControl`).
  tokens.tools ??= {};
  tokens.tools[ID] = {
    name: ID,
    title: "BACKGROUND_BATTLE.Panel.Open",
    icon: "fa-solid fa-people-group",
    order: Object.keys(tokens.tools).length,
    button: true,
    visible: true,
    onChange: () => togglePanel(),
  };
});
