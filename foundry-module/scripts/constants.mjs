/** One place for the module's names: its id, its settings, its flags. */
export const ID = "background-battle";

export const SETTINGS = Object.freeze({
  URL: "bridgeUrl",
  GM_TOKEN: "gmToken",
  PLAYER_TOKEN: "playerToken",
  BATTLE: "battle",
  INFLUENCE_TABLE: "influenceTable",
  WHISPER: "whisperToGm",
  DEBUG: "debug",
  /** World: players connect to the bridge themselves (one local network) instead of the relay. */
  PLAYERS_DIRECT: "playersDirect",
  /** World, hidden: the last version of each battle that has its chat card (card-marks.mjs). */
  CARDED: "cardedSteps",
});

export const FLAGS = Object.freeze({
  /** On a token: {battle, unit}, the unit it fights in. */
  UNIT: "unit",
  /** On a token: how many fighters it stands for (absent or 1: one fighter). */
  FIGHTERS: "fighters",
  /** On a token: the record of the last Apply (see logic/fates.mjs). */
  APPLIED: "applied",
});

export const DEFAULT_URL = "ws://127.0.0.1:8765/ws";
