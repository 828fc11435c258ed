// The page's one state, fed by two sources (the local core, the bridge): actions change it,
// render functions only read it. (store.js keeps a battle in the browser; this is what is shown.)
import { SIZES } from "./config.js";

/** A tiny store: `get`, `set(patch | state => patch)`, `watch(select, render)`. */
export function createStore(initial) {
  let state = initial;
  const watchers = [];
  return {
    get: () => state,
    set(change) {
      const patch = typeof change === "function" ? change(state) : change;
      state = { ...state, ...patch };
      for (const watcher of watchers) watcher(state);
    },
    /** render(state) now and each time one of the values `select` picks changes (by identity). */
    watch(select, render) {
      let last = null;
      const watcher = (current) => {
        const picked = select(current);
        if (last && picked.every((value, i) => Object.is(value, last[i]))) return;
        last = picked;
        render(current);
      };
      watchers.push(watcher);
      watcher(state);
    },
  };
}

/** What the page holds before anything has happened. */
export function initialState(lang) {
  return {
    lang,
    status: { key: "status.runtime", params: {} }, // the boot's status line
    failed: false, // the core could not load
    offline: false, // the page runs from this device's copy, its server out of reach (offline.js)
    ready: false, // the core (or the bridge) has given a battle
    sizes: SIZES.map((name) => ({ name, multiplier: null })),
    mode: "local", // "live" while the page follows a battle of the bridge
    local: { battle: null, view: null }, // the browser's own battle, run by the local core
    shelf: [], // the other battles kept on this device (shelf.js)
    live: {
      bridge: false, // a bridge serves this page
      status: { key: "live.state.local", params: {} },
      role: null, // "gm" | "player" once welcomed
      playerToken: null, // the GM's only: the player link's QR code (join-code.js)
      pairing: null, // the GM's only: a page asking to join by a code, {origin, code} or {origin, outcome}
      battles: [], // the bridge's list
      battle: null, // the name followed
      view: null, // its view, log included
      marks: {}, // the GM's only: which Influence effects are done, {roll version: {effect: mark}}
    },
    odds: null, // null | "running" | the core's odds reply
    result: null, // the last action's result: {command, form, entry, before, redone?, saved?} (result.js)
    influenceSide: "allies", // the side "Roll for" names, and the table is read for (influence-table.js)
    placeholders: null, // the words of an Influence table's placeholders, per language and side (the core's)
    redo: null, // what Redo can bring back: {key, commands} (redo.js)
    working: null, // the core's working for the view shown: {view, entry, steps, casualties, series, initial}
  };
}

/** The view painted: the bridge's battle in live mode (once it has come), else the local one. */
export const shownView = (state) => (state.mode === "live" && state.live.view) || state.local.view;

/** The patch that changes some of the live part of the state. */
export const livePatch = (patch) => (state) => ({ live: { ...state.live, ...patch } });
