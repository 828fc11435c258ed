// The working of the numbers shown (the core's `explain`): asked of the local core whenever the
// view changes, kept in the state. A player's page asks for none (its log hides numbers).
import { shownView } from "./state.js";

// The live battle the core keeps for the GM's working (`working` / `extend`, core following.py):
// its number, its name, how many log entries it holds and the last one's text (the bridge's log
// only grows: an undo is an entry too), and the chart's points so far. An event then costs the
// core its new entries alone, never a replay of the log.
let followed = null;

const lastEntryText = (log, count) => (count ? JSON.stringify(log[count - 1]) : "");

/** Whether the core's kept live battle is `log`'s first entries (a new battle or a log that
 * is not its continuation is asked for whole). */
function follows(log, name) {
  return (
    followed !== null &&
    followed.name === name &&
    followed.count <= log.length &&
    followed.last === lastEntryText(log, followed.count)
  );
}

/** The battle as the core should read it: the local JSON form (with the number the core keeps it
 * under, which is named alone while the core keeps it: `ask`), or the GM's live log (with the
 * kept live battle's number while it holds exactly that log). */
export function battleFor(state) {
  const local = state.local;
  if (state.mode !== "live") return local.battle ? { battle: local.battle, kept: local.kept ?? null } : null;
  if (state.live.role !== "gm" || !state.live.view) return null;
  const log = state.live.view.log;
  const kept = follows(log, state.live.battle) && followed.count === log.length ? followed.kept : null;
  return { log, name: state.live.battle, kept };
}

// The working is asked a moment after the view settles, so that quick edits in a row are not
// queued in the worker behind the working of views already replaced.
const SETTLE_MS = 120;

export function followWorking(store, core) {
  let timer = null;
  store.watch(
    (s) => [shownView(s), s.local.battle, s.live.role],
    (state) => {
      clearTimeout(timer);
      const view = shownView(state);
      const which = battleFor(state);
      if (!view || !which) return store.set({ working: null });
      timer = setTimeout(() => {
        // One live request at a time: each names the battle the one before it kept.
        if (which.log) liveQueue = liveQueue.then(() => askLiveWorking(store, core, view, which));
        else askWorking(store, core, view, which);
      }, SETTLE_MS);
    },
  );
}

let liveQueue = Promise.resolve();

/** The GM's live working: the log's new entries sent to the battle the core keeps (`extend`),
 * or the whole log once (`working`, kept), when the core keeps none that this log continues. */
async function askLiveWorking(store, core, view, which) {
  if (shownView(store.get()) !== view) return; // a newer view came meanwhile
  const { log, name } = which;
  let reply = null;
  if (follows(log, name)) {
    if (followed.count === log.length) {
      store.set({ working: { ...followed.working, view } });
      return;
    }
    reply = await core.request({ op: "extend", kept: followed.kept, entries: log.slice(followed.count) });
  }
  if (!reply?.ok) reply = await core.request({ op: "working", log, name, keep: true });
  if (!reply.ok) {
    followed = null;
    if (shownView(store.get()) === view) store.set({ working: null });
    return;
  }
  const points = reply.restart ? reply.points : [...followed.points, ...reply.points];
  const working = { entry: reply.entry, steps: reply.steps, casualties: reply.casualties, series: points };
  followed = { kept: reply.kept, name, count: log.length, last: lastEntryText(log, log.length), points, working };
  if (shownView(store.get()) === view) store.set({ working: { ...working, view } });
}

/**
 * Ask the core about the battle `which` names: by its kept number alone while the core keeps it
 * (the battle, which grows with its log, is not written and read again), else with the battle.
 */
async function ask(core, request, which) {
  if (which.kept !== null && which.kept !== undefined) {
    const reply = await core.request({ ...request, kept: which.kept });
    if (reply.ok || reply.error.field !== "kept") return reply;
  }
  return core.request({ ...request, ...which });
}

async function askWorking(store, core, view, which) {
  if (shownView(store.get()) !== view) return; // a newer view came meanwhile
  const entry = view.log.length ? view.log.length - 1 : null;
  const setUp = view.status === "setup";
  const [reply, series, planned] = await Promise.all([
    ask(core, { op: "explain", entry }, which),
    setUp ? null : ask(core, { op: "series" }, which),
    // In set-up each side's S0 as Start would fix it now: the core's sum, never the page's.
    setUp ? ask(core, { op: "initial_strength" }, which) : null,
  ]);
  if (shownView(store.get()) !== view) return; // a newer view came meanwhile
  if (!reply.ok) return store.set({ working: null });
  const points = series?.ok ? series.points : null;
  const initial = planned?.ok ? planned.initial : null;
  store.set({ working: { view, entry, steps: reply.steps, casualties: reply.casualties, series: points, initial } });
}

/** A "why?" that opens the working: the rule's name and its arithmetic, one line per step. */
export function whyDetails(steps, t, term) {
  const details = document.createElement("details");
  details.className = "why";
  const summary = document.createElement("summary");
  summary.textContent = t("result.why");
  const list = document.createElement("ol");
  list.className = "working";
  list.setAttribute("aria-label", t("result.working"));
  for (const step of steps) {
    const item = document.createElement("li");
    item.dataset.rule = step.rule;
    const name = document.createElement("span");
    name.className = "rule";
    name.textContent = `${step.side ? `${term(step.side)}. ` : ""}${t(`rule.${step.rule}`)}:`;
    const math = document.createElement("code");
    math.textContent = step.text;
    item.append(name, " ", math);
    list.append(item);
  }
  details.append(summary, list);
  // Opened, the working comes into view (below the sticky header: style.css's scroll padding).
  details.addEventListener("toggle", () => {
    if (details.open) requestAnimationFrame(() => details.scrollIntoView({ block: "nearest" }));
  });
  return details;
}

/** A "why?" under each unit's casualty bar: the share lost, killed, wounded, fit. */
export function paintCasualtyWorking(state, t, term) {
  const working = state.working;
  for (const item of document.querySelectorAll("#casualty-bars .bar-item[data-unit]")) {
    item.querySelector("details.why")?.remove();
    const steps = working?.casualties?.[item.dataset.unit];
    if (steps && working.view === shownView(state)) item.append(whyDetails(steps, t, term));
  }
}

/**
 * A "why?" on each entry of the log, whose working the core gives when it is opened (asked of
 * the battle shown then, `latest()`: an entry's working depends only on the log up to it, so an
 * entry kept from an earlier paint keeps its "why?"). None on a player's page.
 */
export function paintLogWorking(state, core, t, term, latest = () => state) {
  const view = shownView(state);
  if (!battleFor(state) || !view) {
    for (const item of document.querySelectorAll("#log > li[data-why]")) {
      item.querySelector(":scope > details.why")?.remove();
      delete item.dataset.why;
    }
    return;
  }
  for (const item of document.querySelectorAll("#log > li[data-entry]:not(.undone):not([data-why])")) {
    const entry = Number(item.dataset.entry);
    if (view.log[entry]?.command.type === "undo") continue;
    item.dataset.why = "";
    const details = whyDetails([], t, term);
    details.addEventListener("toggle", async () => {
      if (!details.open || details.dataset.asked) return;
      const which = battleFor(latest());
      if (!which) return;
      details.dataset.asked = "true";
      const reply = await ask(core, { op: "explain", entry }, which);
      const steps = reply.ok ? reply.steps : [];
      const filled = whyDetails(steps, t, term);
      details.querySelector(".working").replaceWith(filled.querySelector(".working"));
      if (!steps.length) details.querySelector(".working").textContent = t("result.nothing");
    });
    item.append(details);
  }
}
