// The few constants of the page. web/build.py checks PYODIDE_VERSION against package.json.
export const PYODIDE_VERSION = "314.0.7";
export const STORAGE_KEYS = Object.freeze({
  battle: "bb.battle.v1",
  previous: "bb.battle.previous.v1",
  lang: "bb.lang",
  quick: "bb.quick.v1",
  liveToken: "bb.live.token.v1",
  liveBattle: "bb.live.battle.v1",
  roundMode: "bb.round.mode.v1",
});
export const ODDS_RUNS = 2000;
export const SIZES = Object.freeze(["tiny", "little", "small", "average", "large", "enormous", "monstrous"]);
export const DEFAULT_BATTLE_NAME = "battle";
