// Paint the core's view of a battle. Nothing here computes a rule: every number comes from the view.
import { changed, setHidden, setText } from "./changed.js";
import { formatNumber, t, term } from "./i18n.js";
import { bandRange, pick } from "./influence-table.js";
import { effectsList } from "./fight-effects.js";
import { describeEntry } from "./log-text.js";
import { isTyped } from "./pending.js";

const SIDES = ["allies", "enemies"];

/** What a player sees for a number the GM hides (the view has it as null). */
export const HIDDEN = "?";

/** A number of the view; null is "not yet" (–), or, where the view hides it from players, "?". */
export const fmt = (value, hidden = false) =>
  value === null || value === undefined ? (hidden ? HIDDEN : "–") : String(value);

/**
 * Is a value of the view hidden from this player? The core names each one in its object's
 * `redacted` list (docs/core-api.md); a side's strength is also hidden when it is null although
 * the view says that side's strength is hidden (a core from before the lists).
 */
const hidden = (view, data, key, side) =>
  (data.redacted || []).includes(key) ||
  (key === "strength" && data[key] === null && (view.hidden || []).includes(`${side}.strength`));

/** A stacked bar of killed / wounded / fit with the numbers under it. */
export function casualtyBar({ name, killed, wounded, fit, note = "", digits = 0 }) {
  const item = document.createElement("li");
  item.className = "bar-item";
  const total = (killed ?? 0) + (wounded ?? 0) + (fit ?? 0); // a player's hidden numbers are null
  const show = (n) => (n === null || n === undefined ? HIDDEN : digits ? formatNumber(n, { digits }) : String(n));
  const head = document.createElement("div");
  head.className = "bar-head";
  const title = document.createElement("strong");
  title.className = "bar-name";
  title.textContent = name;
  head.append(title);
  if (note) {
    const small = document.createElement("small");
    small.textContent = ` ${note}`;
    head.append(small);
  }
  const bar = document.createElement("div");
  bar.className = "bar";
  bar.setAttribute("role", "img");
  const counts = document.createElement("p");
  counts.className = "bar-counts";
  const said = [];
  for (const [key, value] of [
    ["killed", killed],
    ["wounded", wounded],
    ["fit", fit],
  ]) {
    const part = document.createElement("span");
    part.className = `seg ${key[0]}`;
    part.style.flexGrow = String(total > 0 ? (value ?? 0) : key === "fit" ? 1 : 0);
    bar.append(part);
    const word = t(`count.${key}`, { count: value }); // 1 готов к бою, 2 готовы к бою
    said.push(`${show(value)} ${word}`);
    const count = document.createElement("span");
    count.className = `count ${key[0]}`;
    count.dataset.bind = key;
    count.dataset.value = show(value);
    const number = document.createElement("b");
    number.textContent = show(value);
    count.append(number, " ", word);
    counts.append(count);
  }
  bar.setAttribute("aria-label", `${name}: ${said.join(", ")}`);
  item.append(head, bar, counts);
  return item;
}

function renderSide(card, side, view) {
  const data = view.sides[side];
  const shown = (key) => fmt(data[key], hidden(view, data, key, side));
  const strength = data.strength ?? data.units_strength;
  setText(card.querySelector('[data-bind="strength"]'), fmt(strength, hidden(view, data, "strength", side)));
  // In set-up S0 is the core's answer to `initial_strength` (paintPlannedInitial), kept until then.
  if (view.status !== "setup") {
    setText(card.querySelector('[data-bind="initial"]'), shown("initial"));
    paintS0Note(card, data.initial);
  }
  setText(card.querySelector('[data-bind="units_strength"]'), shown("units_strength"));
  const mods = data.modifiers || [];
  setText(card.querySelector('[data-bind="modifier-count"]'), mods.length ? `(${mods.length})` : "");
  const pending = card.querySelector('[data-bind="pending"]');
  setHidden(pending, !data.pending_bonus);
  setText(pending, data.pending_bonus ? t("side.pending", { bonus: data.pending_bonus }) : "");
  const list = card.querySelector(".units");
  const units = view.units.filter((u) => u.side === side);
  if (!changed(list, view.status, units)) return;
  list.textContent = "";
  for (const unit of units) {
    const item = document.createElement("li");
    item.className = "unit";
    item.dataset.unit = unit.id;
    const head = document.createElement("div");
    head.className = "unit-head";
    const name = document.createElement("strong");
    name.className = "unit-name";
    name.textContent = unit.name;
    const line = document.createElement("span");
    line.className = "unit-line";
    line.textContent = `${t("unit.line", { count: unit.fighters, strength: unit.strength })} · ${t(`size.${unit.size}`)}`;
    head.append(name, " ", line);
    if (unit.detached) {
      const detached = document.createElement("span");
      detached.className = "unit-line";
      detached.textContent = ` · ${t("unit.detached", { count: unit.detached })}`;
      head.append(detached);
    }
    item.append(head);
    if (view.status === "setup") {
      item.append(iconButton("edit-unit", "✎", unit, "unit.edit"));
      item.append(iconButton("remove-unit", "✕", unit, "unit.remove"));
    }
    list.append(item);
  }
}

/** " → S0 62" after the units' sum, when S0 is known. */
function paintS0Note(card, initial) {
  const known = initial !== null && initial !== undefined;
  setText(card.querySelector('[data-bind="modifiers-text"]'), known ? t("side.modifiers", { initial }) : "");
}

/**
 * In set-up, each side's S0 as Start would fix it (the units and the modifiers saved), from the
 * core's `initial_strength` that came with the working: "56 / 62 S0" before the start, not "56 / –".
 */
export function paintPlannedInitial(state, view) {
  if (!view || view.status !== "setup") return;
  const planned = state.working?.view === view ? state.working.initial : undefined;
  if (planned === undefined) return; // not come yet: what was painted stays a moment longer
  for (const side of SIDES) {
    const card = document.querySelector(`.side[data-side="${side}"]`);
    setText(card.querySelector('[data-bind="initial"]'), fmt(planned?.[side]));
    paintS0Note(card, planned?.[side]);
  }
}

/** Each unit's casualty bar; a bar whose unit has the same figures as last time is kept. */
function renderCasualties(list, view) {
  const painted = new Map([...list.children].map((item) => [item.dataset.unit, item]));
  const items = view.units
    .filter((unit) => unit.casualties)
    .map((unit) => {
      const kept = painted.get(unit.id);
      if (kept && !changed(kept, unit.name, unit.side, unit.casualties)) return kept;
      const item = casualtyBar({ name: unit.name, note: `(${term(unit.side)})`, ...unit.casualties });
      item.dataset.unit = unit.id;
      item.classList.add(unit.side);
      changed(item, unit.name, unit.side, unit.casualties);
      return item;
    });
  if (items.some((item, i) => list.children[i] !== item) || list.children.length !== items.length) {
    list.replaceChildren(...items);
  }
}

// What each log list shows, oldest entry first: the entry as JSON, marked when undone. An entry's
// words depend only on the log up to it and on the language, so the items of the entries that
// have not changed since the last paint are kept, and only the new ones are made.
const paintedLogs = new WeakMap(); // list -> {lang, keys}

function logItem(entry, index, undone, view) {
  const item = document.createElement("li");
  item.value = index + 1;
  item.dataset.entry = String(index);
  if (undone) {
    item.classList.add("undone");
    const mark = document.createElement("span");
    mark.className = "badge";
    mark.textContent = t("log.undone");
    item.append(mark, " ");
  }
  for (const line of describeEntry(entry, view)) {
    const p = document.createElement("span");
    p.className = "log-line";
    p.textContent = line;
    item.append(p);
  }
  return item;
}

// Each log entry's JSON text, written once per entry (an edit's reply adds entries; the log keeps
// the ones it had, never changed).
const entryTexts = new WeakMap();

function entryText(entry) {
  let text = entryTexts.get(entry);
  if (text === undefined) entryTexts.set(entry, (text = JSON.stringify(entry)));
  return text;
}

function renderLog(list, view) {
  const lang = document.documentElement.lang;
  const undone = new Set(view.undone || []);
  const keys = view.log.map((entry, index) => `${undone.has(index) ? "undone " : ""}${entryText(entry)}`);
  const painted = paintedLogs.get(list);
  let kept = 0;
  if (painted?.lang === lang) {
    while (kept < keys.length && keys[kept] === painted.keys[kept]) kept++;
  }
  paintedLogs.set(list, { lang, keys });
  // Newest first: the items not kept are the first ones, above the kept (entries 0 .. kept - 1).
  const isKept = (item) => item.dataset.entry !== undefined && Number(item.dataset.entry) < kept;
  while (list.firstElementChild && !isKept(list.firstElementChild)) list.firstElementChild.remove();
  if (!keys.length) {
    const empty = document.createElement("li");
    empty.className = "empty";
    empty.textContent = t("log.empty");
    list.append(empty);
    return;
  }
  const fresh = document.createDocumentFragment(); // newest first, above the kept ones
  for (let index = keys.length - 1; index >= kept; index--) {
    fresh.append(logItem(view.log[index], index, undone.has(index), view));
  }
  list.prepend(fresh);
}

function renderInfluence(panel, view, shared) {
  const result = panel.querySelector("#influence-result");
  const undone = new Set(view.undone || []);
  let last = null;
  view.log.forEach((entry, index) => {
    if (undone.has(index)) return;
    for (const event of entry.events) if (event.type === "influence_rolled") last = event;
  });
  const index = lastIndex(view, undone);
  // Live, the GM's ticks are the bridge's marks of the roll (its log entry's version: index + 1).
  const marks = shared ? (shared.marks?.[index + 1] ?? {}) : null;
  const ticks = shared && { marks, mark: (list) => shared.mark(index + 1, list) };
  if (changed(result, last, marks)) paintInfluenceResult(result, last, `${view.name}#${index}`, ticks);
}

/** The log index of the last Influence roll that counts (its ticks are kept by it). */
function lastIndex(view, undone) {
  for (let index = view.log.length - 1; index >= 0; index--) {
    if (!undone.has(index) && view.log[index].events.some((e) => e.type === "influence_rolled")) return index;
  }
  return -1;
}

function paintInfluenceResult(result, last, key, shared) {
  result.textContent = "";
  if (last) {
    const line = document.createElement("p");
    line.className = "big-line";
    const sign = last.modifier === null ? "?" : last.modifier >= 0 ? `+ ${last.modifier}` : `− ${-last.modifier}`;
    line.textContent = t("influence.result", {
      side: term(last.side),
      roll: last.roll,
      modifier: sign,
      total: last.total,
    });
    const effect = document.createElement("p");
    effect.className = "effect";
    effect.dataset.bind = "effect";
    effect.textContent = last.band ? bandEffect(last.band) : HIDDEN; // hidden from players
    result.append(line, effect);
    if (last.band) result.append(effectsList(last.band, key, shared)); // what to do, ticked off at the table
  }
}

const bandEffect = (band) => `${bandRange(band)}: ${pick(band.effect)}`;

function renderWinner(el, view) {
  el.hidden = view.status !== "ended";
  if (view.status !== "ended") return;
  const who = t(`winner.${view.winner || "none"}`);
  el.textContent = view.end_reason ? `${who} (${t(`reason.${view.end_reason}`)})` : who;
}

/** Paint the whole battle from its view (`shared`: the GM's live ticks, see paintBattle). */
export function renderView(view, root = document, shared = null) {
  setText(root.querySelector("#battle-name"), view.name);
  const phase = root.querySelector("#battle-phase");
  for (const el of [phase, root.documentElement]) if (el.dataset.phase !== view.status) el.dataset.phase = view.status;
  if (phase.dataset.i18n !== `phase.${view.status}`) phase.dataset.i18n = `phase.${view.status}`;
  setText(phase, t(`phase.${view.status}`));
  const roundLabel = root.querySelector("#battle-round");
  setHidden(roundLabel, view.status === "setup");
  // One round number everywhere: while fighting the round being fought, after it the last one.
  const round = view.status === "fighting" ? view.round + 1 : view.round;
  setText(roundLabel, `· ${term("round")} ${round}`);
  setText(root.querySelector("#round-number"), String(round));
  renderWinner(root.querySelector("#battle-winner"), view);
  for (const el of root.querySelectorAll("[data-phase-only]")) {
    setHidden(el, !el.dataset.phaseOnly.split(" ").includes(view.status));
  }
  for (const side of SIDES) renderSide(root.querySelector(`.side[data-side="${side}"]`), side, view);
  renderCasualties(root.querySelector("#casualty-bars"), view);
  renderLog(root.querySelector("#log"), view);
  renderInfluence(root.querySelector("#influence-panel"), view, shared);
  for (const undo of root.querySelectorAll("#undo-button, #bar-undo")) undo.disabled = !view.can_undo;
  const detachUnit = root.querySelector('#detach-form select[name="unit"]');
  const choices = view.units.map((unit) => [unit.id, `${unit.name} (${term(unit.side)})`]);
  if (changed(detachUnit, choices)) {
    const chosen = detachUnit.value;
    detachUnit.replaceChildren(...choices.map(([id, label]) => new Option(label, id)));
    if (chosen) detachUnit.value = chosen;
  }
  const rename = root.querySelector('#rename-form input[name="name"]');
  if (document.activeElement !== rename && !isTyped(rename.form) && rename.value !== view.name)
    rename.value = view.name;
}

/** A small button on a unit's row (edit, remove), labelled for screen readers. */
function iconButton(kind, symbol, unit, label) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = `icon ${kind}`;
  button.dataset.unit = unit.id;
  button.textContent = symbol;
  button.setAttribute("aria-label", t(label, { name: unit.name }));
  return button;
}
