/**
 * The panel's own client settings (this browser only): compact mode, the sections the GM
 * closed, and the window's position and size.
 */
import { ID } from "./constants.mjs";

export const PANEL_SETTINGS = Object.freeze({
  COMPACT: "panelCompact",
  CLOSED: "panelClosedSections",
  POSITION: "panelPosition",
});

export function registerPanelSettings() {
  for (const [key, type, fallback] of [
    [PANEL_SETTINGS.COMPACT, Boolean, false],
    [PANEL_SETTINGS.CLOSED, Array, []],
    [PANEL_SETTINGS.POSITION, Object, {}],
  ]) {
    game.settings.register(ID, key, { scope: "client", config: false, type, default: fallback });
  }
}

export function panelSetting(key) {
  return game.settings.get(ID, key);
}

export function setPanelSetting(key, value) {
  return game.settings.set(ID, key, value);
}
