/**
 * The module's settings: registered on `init`, read through `setting()` (from `setup` on: a
 * setting cannot be read before, hookEvents.setup).
 *
 * What a player sees in Foundry's settings window: the client settings only (world settings are
 * shown to those who may change them). So the GM token, a client setting a player never needs,
 * is not in the window (`config: false`): GMs enter it in the GM-only menu "Bridge connection"
 * (gm-menu.mjs). A player is left with the debug log, which helps when reporting a problem.
 */
import { DEFAULT_URL, ID, SETTINGS } from "./constants.mjs";
import { setDebug } from "./log.mjs";
import { gmTokenMenu } from "./gm-menu.mjs";

/**
 * Registers every setting. `onBridgeChange` is called when the URL, a token or the way players
 * connect changes, so the module reconnects with the new values; `onBattleChange` when the GMs
 * show another battle (a world setting: its onChange runs in every connected browser) or this
 * GM picks a battle in set-up (a client setting: here only).
 *
 * The GM token is a client setting (kept in the GM's own browser): world settings reach every
 * connected client, and a player holding the GM token would get GM rights on the bridge.
 */
export function registerSettings({ onBridgeChange, onBattleChange }) {
  const reconnect = () => onBridgeChange?.();
  game.settings.register(ID, SETTINGS.URL, {
    name: "BACKGROUND_BATTLE.Settings.Url.Name",
    hint: "BACKGROUND_BATTLE.Settings.Url.Hint",
    scope: "world",
    config: true,
    type: String,
    default: DEFAULT_URL,
    onChange: reconnect,
  });
  game.settings.register(ID, SETTINGS.PLAYER_TOKEN, {
    name: "BACKGROUND_BATTLE.Settings.PlayerToken.Name",
    hint: "BACKGROUND_BATTLE.Settings.PlayerToken.Hint",
    scope: "world",
    config: true,
    type: String,
    default: "",
    onChange: reconnect,
  });
  game.settings.register(ID, SETTINGS.PLAYERS_DIRECT, {
    name: "BACKGROUND_BATTLE.Relay.Direct.Name",
    hint: "BACKGROUND_BATTLE.Relay.Direct.Hint",
    scope: "world",
    config: true,
    type: Boolean,
    default: false,
    onChange: reconnect,
  });
  game.settings.register(ID, SETTINGS.GM_TOKEN, {
    name: "BACKGROUND_BATTLE.Settings.GmToken.Name",
    hint: "BACKGROUND_BATTLE.Settings.GmToken.Hint",
    scope: "client",
    config: false,
    type: String,
    default: "",
    onChange: reconnect,
  });
  game.settings.registerMenu(ID, "gmTokenMenu", {
    name: "BACKGROUND_BATTLE.GmMenu.Name",
    label: "BACKGROUND_BATTLE.GmMenu.Label",
    hint: "BACKGROUND_BATTLE.GmMenu.Hint",
    icon: "fa-solid fa-key",
    type: gmTokenMenu(),
    restricted: true,
  });
  // The battle shown: a world setting every client receives, so only a started battle (one
  // players are told of); a GM's choice of a battle in set-up stays in the GM's browser
  // (gm-choice.mjs).
  for (const [key, scope] of [
    [SETTINGS.BATTLE, "world"],
    [SETTINGS.PREPARED, "client"],
  ]) {
    game.settings.register(ID, key, {
      scope,
      config: false,
      type: String,
      default: "",
      onChange: () => onBattleChange?.(),
    });
  }
  game.settings.register(ID, SETTINGS.INFLUENCE_TABLE, {
    name: "BACKGROUND_BATTLE.Settings.InfluenceTable.Name",
    hint: "BACKGROUND_BATTLE.Settings.InfluenceTable.Hint",
    scope: "world",
    config: true,
    type: String,
    default: "",
  });
  game.settings.register(ID, SETTINGS.WHISPER, {
    name: "BACKGROUND_BATTLE.Settings.Whisper.Name",
    hint: "BACKGROUND_BATTLE.Settings.Whisper.Hint",
    scope: "world",
    config: true,
    type: Boolean,
    default: false,
  });
  game.settings.register(ID, SETTINGS.DEBUG, {
    name: "BACKGROUND_BATTLE.Settings.Debug.Name",
    hint: "BACKGROUND_BATTLE.Settings.Debug.Hint",
    scope: "client",
    config: true,
    type: Boolean,
    default: false,
    onChange: (value) => setDebug(value),
  });
}

/** Turns the debug log on or off as set (call from `setup` on). */
export function readDebugSetting() {
  setDebug(game.settings.get(ID, SETTINGS.DEBUG));
}

export function setting(key) {
  return game.settings.get(ID, key);
}

export function setSetting(key, value) {
  return game.settings.set(ID, key, value);
}
