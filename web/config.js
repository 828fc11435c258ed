// The few constants of the page. The Pyodide version is pinned in package.json alone (build.py
// checks the installed runtime against it and writes it into build-info.js).
export const STORAGE_KEYS = Object.freeze({
  battle: "bb.battle.v1",
  previous: "bb.battle.previous.v1", // earlier versions' one kept battle; moved to the shelf
  shelf: "bb.shelf.v1", // the other battles on this device (shelf.js)
  lang: "bb.lang",
  quick: "bb.quick.v1",
  liveToken: "bb.live.token.v1",
  liveBattle: "bb.live.battle.v1",
  roundMode: "bb.round.mode.v1",
});
export const ODDS_RUNS = 2000;
export const SIZES = Object.freeze(["tiny", "little", "small", "average", "large", "enormous", "monstrous"]);
