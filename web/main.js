// Wiring only: one state (state.js), two sources (the local core, the bridge), render functions
// that read the state, forms that call actions.
import { actions } from "./actions.js";
import { wireBattleForms } from "./battle-forms.js";
import { CoreClient } from "./core-client.js";
import { paintChart } from "./chart.js";
import { wireFightBar } from "./fight-bar.js";
import { wireInfluenceTable } from "./influence-table.js";
import { buildSides, paintLanguage, paintSizes, paintStatus, watchTopHeight, wireLanguage } from "./frame.js";
import { currentLang, formatNumber, initialLang, setLang, t, term } from "./i18n.js";
import { takeTokenFromUrl } from "./live.js";
import { paintLiveLine } from "./live-line.js";
import { liveProblems, paintLive, wireLive } from "./live-panel.js";
import { liveSource } from "./live-source.js";
import { localSource } from "./local-source.js";
import { watchOffline } from "./offline.js";
import { paintOdds, wireOdds } from "./odds.js";
import { paintBattle } from "./paint.js";
import { paintPlannedInitial } from "./render.js";
import { rememberRoundMode } from "./remembered.js";
import { paintResult } from "./result.js";
import { paintRules, wireRules } from "./rules-view.js";
import { setupQuick } from "./quick.js";
import { paintShelf, wireShelf } from "./shelf-panel.js";
import { createStore, initialState, shownView } from "./state.js";
import { savesWaiting } from "./store.js";
import { wireTabs } from "./tabs.js";
import { toolsLines, wireTools } from "./tools.js";
import { followWorking, paintCasualtyWorking, paintLogWorking } from "./working.js";

const html = document.documentElement;
const urlToken = takeTokenFromUrl(); // before the local battle reads the fragment
setLang(initialLang(), false);
const store = createStore(initialState(currentLang()));
buildSides();
watchTopHeight();
wireTabs();
wireFightBar();
wireLanguage(store);
html.dataset.interactive = "true";

const core = new CoreClient(
  new URL("./worker.js", import.meta.url),
  {
    onProgress: (step) => store.set({ status: { key: `status.${step}`, params: {} } }),
    onReady: (info) => {
      window.backgroundBattle.boot = info;
      store.set({ status: { key: "status.ready", params: { seconds: formatNumber(info.timings.total / 1000) } } });
      core.request({ op: "sizes" }).then((reply) => reply.ok && store.set({ sizes: reply.sizes }));
    },
    onSnapshot: (info) => (window.backgroundBattle.boot.snapshot = info), // after the ready message
    onFailed: (failure) => {
      local.failed();
      store.set({
        failed: true,
        status: { key: "status.failed", params: { step: t(`status.step.${failure.step}`), message: failure.message } },
      });
    },
  },
  window.backgroundBattleEarly,
);
const local = localSource(core, store);
const live = liveSource(store, liveProblems);
const recalcTimings = [];
const { apply } = actions(store, { local, live }, recalcTimings);
const quick = setupQuick(core);

// Renderers, in this order: the page's fixed wording first, then what depends on the state.
store.watch(
  (s) => [s.lang],
  () => {
    paintLanguage();
    quick.repaint();
  },
);
store.watch(
  (s) => [s.status, s.failed, s.offline, s.lang],
  (s) => paintStatus(s.status, s.failed, s.offline),
);
store.watch(
  (s) => [s.sizes, s.lang],
  (s) => paintSizes(s.sizes),
);
// Live, the GM's ticks of Influence effects are the bridge's marks, shared with Foundry.
const sharedTicks = (s) =>
  s.mode === "live" && s.live.role === "gm" ? { marks: s.live.marks, mark: live.markEffects } : null;
store.watch(
  (s) => [shownView(s), s.mode, s.live.role, s.ready, s.lang, sharedTicks(s)?.marks],
  (s) => paintBattle(shownView(s), s, sharedTicks(s)),
);
store.watch((s) => [s.mode, s.live, s.lang], paintLive);
store.watch((s) => [s.mode, s.live.bridge, s.live.role, s.live.status, s.lang], paintLiveLine);
store.watch(
  (s) => [s.odds, s.lang],
  (s) => paintOdds(s.odds),
);
store.watch((s) => [s.shelf, s.local.view?.name, s.local.view?.version, s.lang], paintShelf);
// After the battle (it may hide the panel the result belongs to).
store.watch((s) => [s.result, s.working, shownView(s), s.mode, s.live.role, s.ready, s.lang], paintResult);
followWorking(store, core);
store.watch(
  (s) => [s.working, shownView(s), s.lang],
  (s) => paintPlannedInitial(s, shownView(s)),
);
store.watch((s) => [s.lang], paintRules);
// A player's chart is drawn from the player's view; the others' from the core's series.
const playerView = (s) => (s.mode === "live" && s.live.role === "player" ? s.live.view : null);
store.watch((s) => [s.working, playerView(s), s.lang], paintChart);
store.watch(
  (s) => [s.working, shownView(s), s.mode, s.live.role, s.ready, s.lang],
  (s) => paintCasualtyWorking(s, t, term),
);
store.watch(
  (s) => [shownView(s), s.mode, s.live.role, s.ready, s.lang],
  (s) => paintLogWorking(s, core, t, term, store.get),
);

// For tools and tests: the same door to the core the page uses, its timings, live mode's connection.
window.backgroundBattle = {
  request: (request, via) => core.request(request, via),
  timings: core.timings,
  workerTimings: core.workerTimings,
  recalcTimings,
  store,
  savesWaiting,
  t, // the page's wording, in its language (the modules are bundled: an import would be another copy)
};
Object.defineProperty(window.backgroundBattle, "live", { get: () => live.client() });

wireBattleForms(store, apply, core);
wireInfluenceTable(store, core);
rememberRoundMode();
wireOdds(store, core, local);
wireTools(store, core, local);
wireLive(live);
wireShelf(store, core, local);
wireRules(store);
local.start(toolsLines);
live.start(urlToken);
// A player link pasted into the address bar of this open tab goes live (battle links: local-source).
addEventListener("hashchange", () => {
  const token = takeTokenFromUrl();
  if (token) live.go(token);
});

local.haveBattle.then(() => {
  watchOffline(store);
  if ("serviceWorker" in navigator && location.protocol.startsWith("http")) {
    navigator.serviceWorker.register("sw.js").catch(() => {});
  }
});
