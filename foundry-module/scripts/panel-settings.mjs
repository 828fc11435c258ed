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
    // A side's strength by hand is rare: its section starts closed.
    [PANEL_SETTINGS.CLOSED, Array, ["strength"]],
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
