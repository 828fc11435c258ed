/** The module's settings: registered on `init`, read through `setting()`. */
import { DEFAULT_URL, ID, SETTINGS } from "./constants.mjs";
import { setDebug } from "./log.mjs";

/**
 * Registers every setting. `onBridgeChange` is called when the URL or a token changes, so the
 * module reconnects with the new values; `onBattleChange` when the GM shows another battle.
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
  game.settings.register(ID, SETTINGS.GM_TOKEN, {
    name: "BACKGROUND_BATTLE.Settings.GmToken.Name",
    hint: "BACKGROUND_BATTLE.Settings.GmToken.Hint",
    scope: "client",
    config: true,
    restricted: true,
    type: String,
    default: "",
    onChange: reconnect,
  });
  game.settings.register(ID, SETTINGS.BATTLE, {
    scope: "world",
    config: false,
    type: String,
    default: "",
    onChange: () => onBattleChange?.(),
  });
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
  setDebug(game.settings.get(ID, SETTINGS.DEBUG));
}

export function setting(key) {
  return game.settings.get(ID, key);
}

export function setSetting(key, value) {
  return game.settings.set(ID, key, value);
}
