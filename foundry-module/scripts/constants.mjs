/** One place for the module's names: its id, its settings, its flags. */
import { COMMAND_NUMBERS } from "./logic/command-numbers.mjs";

export const ID = "background-battle";

export const SETTINGS = Object.freeze({
  URL: "bridgeUrl",
  GM_TOKEN: "gmToken",
  PLAYER_TOKEN: "playerToken",
  /** World: the battle the GMs show, every player follows it; only ever a started battle. */
  BATTLE: "battle",
  /** Client: a GM's own choice of a battle in set-up, shown to players once it starts. */
  PREPARED: "preparedBattle",
  INFLUENCE_TABLE: "influenceTable",
  WHISPER: "whisperToGm",
  DEBUG: "debug",
  /** World: players connect to the bridge themselves (one local network) instead of the relay. */
  PLAYERS_DIRECT: "playersDirect",
  /** World, hidden: the last version of each battle that has its chat card (card-marks.mjs). */
  CARDED: "cardedSteps",
});

export const FLAGS = Object.freeze({
  /** On a token: {unit}, the id of the unit it fights in (earlier versions: {battle, unit}). */
  UNIT: "unit",
  /**
   * Written by earlier versions on a token: how many fighters it stands for. Every player's
   * Foundry receives a token's flags, so the head count now lives on the bridge (GM-only,
   * `state.foundry.fighters`); old-flags.mjs moves an old one there and removes the flag.
   */
  FIGHTERS: "fighters",
  /** On a token: the record of the last Apply, with nothing players may not see (logic/fates.mjs). */
  APPLIED: "applied",
});

/** The most fighters one token may stand for: the core's (its command shapes'), which the bridge checks. */
export const MAX_HEAD_COUNT = COMMAND_NUMBERS["add_unit.fighters"].max;

export const DEFAULT_URL = "ws://127.0.0.1:8765/ws";
