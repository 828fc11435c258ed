// Wiring only: forms -> commands -> the core (in a worker) -> the view -> the page.
import { ODDS_RUNS, STORAGE_KEYS } from "./config.js";
import { CoreClient, freshSeed } from "./core-client.js";
import { clearErrors, parseValue, putValues, showError, valueOf } from "./forms.js";
import { currentLang, initialLang, setLang, t, translate } from "./i18n.js";
import { renderOdds } from "./odds.js";
import { setupQuick } from "./quick.js";
import { LiveClient, findBridge, storeToken, storedToken, takeTokenFromUrl } from "./live.js";
import { paintJoinCode } from "./join-code.js";
import { renderView } from "./render.js";
import { wireTabs } from "./tabs.js";
import { decodeShare, download, encodeShare, fileName, loadSaved, save } from "./store.js";

const html = document.documentElement;
const $ = (selector, root = document) => root.querySelector(selector);
const ROLLING = new Set(["resolve_round", "leader_command", "roll_influence"]);
const SIZES = ["tiny", "little", "small", "average", "large", "enormous", "monstrous"];

let battle = null; // the core's JSON form of the local battle; sent with every apply
let view = null; // the view painted: the local battle's, or in live mode the bridge's
let mode = "local"; // "live" while the page follows a battle of the bridge (live.js)
let live = null; // the LiveClient in live mode
let bridge = null; // {ws, protocol} when a bridge serves this page
let liveStatus = { key: "live.state.local", params: {} };
let liveBattles = [];
const urlToken = takeTokenFromUrl(); // before start() reads the fragment
let sizes = SIZES.map((name) => ({ name, multiplier: null }));
let lastOdds = null;
let statusState = { key: "status.runtime", params: {} };
let resolveFirst, resolveFailed;
const haveBattle = new Promise((resolve) => (resolveFirst = resolve));
const bootFailed = new Promise((resolve) => (resolveFailed = resolve));
const recalcTimings = [];

setLang(initialLang(), false);
buildSides();
translate();
fillSizes();
wireTabs();
wireLanguage();
html.dataset.interactive = "true";

const core = new CoreClient(new URL("./worker.js", import.meta.url), {
  onProgress: (step) => setStatus(`status.${step}`),
  onReady: (info) => {
    window.backgroundBattle.boot = info;
    setStatus("status.ready", { seconds: (info.timings.total / 1000).toFixed(1) });
    core.request({ op: "sizes" }).then((reply) => {
      if (reply.ok) {
        sizes = reply.sizes;
        fillSizes();
      }
    });
  },
  onFailed: (failure) => {
    html.dataset.error = "true";
    resolveFailed();
    setStatus("status.failed", { step: t(`status.step.${failure.step}`), message: failure.message });
  },
}, window.backgroundBattleEarly);
// For tools and tests: the same door to the core the page uses, and its timings.
window.backgroundBattle = {
  request: (request, via) => core.request(request, via),
  timings: core.timings,
  workerTimings: core.workerTimings,
  recalcTimings,
};
// Live mode's connection (null in local mode), for tools and tests.
Object.defineProperty(window.backgroundBattle, "live", { get: () => live });
const quick = setupQuick(core);
wireForms();
wireTools();
wireLive();
start();
startLive();

function setStatus(key, params = {}) {
  statusState = { key, params };
  const status = $("#status");
  status.dataset.step = key.split(".")[1];
  status.textContent = t(key, params);
}

function buildSides() {
  const template = $("#side-template");
  for (const card of document.querySelectorAll(".side")) {
    const side = card.dataset.side;
    card.append(template.content.cloneNode(true));
    const title = $(".side-title", card);
    title.id = `${side}-title`;
    $("[data-term]", title).dataset.term = side;
    for (const form of card.querySelectorAll("form")) form.dataset.side = side;
  }
}

function fillSizes() {
  for (const select of document.querySelectorAll('select[name="size"]')) {
    const chosen = select.value || "average";
    select.textContent = "";
    for (const size of sizes) {
      const label = size.multiplier === null ? t(`size.${size.name}`) : `${t(`size.${size.name}`)} ×${size.multiplier}`;
      select.append(new Option(label, size.name));
    }
    select.value = chosen;
  }
}

function wireLanguage() {
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.addEventListener("click", () => {
      setLang(button.dataset.lang);
      relabel();
    });
  }
  relabelButtons();
}

function relabelButtons() {
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.setAttribute("aria-pressed", String(button.dataset.lang === currentLang()));
  }
}

function relabel() {
  relabelButtons();
  translate();
  fillSizes();
  setStatus(statusState.key, statusState.params);
  if (view) renderView(view);
  paintLive();
  if (lastOdds) renderOdds($("#odds-result"), lastOdds);
  quick.repaint();
}

/** Take a battle and its view from the core: keep, save, paint. */
function adopt(newBattle, newView) {
  battle = newBattle;
  save({ battle, view: newView });
  resolveFirst();
  if (mode === "live") return; // kept for local mode; the page shows the bridge's battle
  paint(newView);
}

/** Paint a view (the local core's or the bridge's). */
function paint(newView) {
  view = newView;
  renderView(view);
  syncModifierRows();
  html.dataset.version = String(view.version);
  html.dataset.ready = "true";
  if (mode === "live" && html.dataset.liveRole !== "gm") setReadOnly(true); // renderView enables undo
}

async function start() {
  let shared = null;
  try {
    shared = await decodeShare(location.hash);
  } catch (error) {
    $("#tools-error").textContent = t("tools.bad_link", { message: error.message });
  }
  const saved = loadSaved();
  if (saved?.view && mode === "local") {
    view = saved.view; // paint at once what the core said last time; refreshed below
    renderView(view);
    syncModifierRows();
  }
  if (shared) {
    const reply = await core.request({ op: "view", battle: shared });
    if (reply.ok) {
      if (saved?.battle) save(saved, STORAGE_KEYS.previous);
      history.replaceState(null, "", location.pathname + location.search);
      adopt(shared, reply.view);
      $("#share-output").textContent = t("tools.shared_loaded");
      return;
    }
    $("#tools-error").textContent = t("tools.bad_link", { message: showErrorText(reply.error) });
  }
  if (saved?.battle) {
    const reply = await core.request({ op: "view", battle: saved.battle });
    if (reply.ok) return adopt(saved.battle, reply.view);
    if (reply.error.code === "runtime_failed") return;
    save(saved, STORAGE_KEYS.previous);
    $("#tools-error").textContent = showErrorText(reply.error);
  }
  await newBattle();
}

function showErrorText(error) {
  const holder = document.createElement("form");
  holder.innerHTML = '<p class="form-error"></p>';
  return showError(holder, error);
}

async function newBattle() {
  const reply = await core.request({ op: "new_battle", name: t("battle.default_name") });
  if (reply.ok) adopt(reply.battle, reply.view);
  return reply;
}

let chain = Promise.resolve();
/** Apply one command to the battle, one at a time; errors go next to the field at fault. */
function apply(command, form) {
  if (mode === "live") return applyLive(command, form);
  const run = chain.then(async () => {
    await Promise.race([haveBattle, bootFailed]); // after a failed boot the reply says why
    const started = performance.now();
    const request = { op: "apply", battle, command };
    if (ROLLING.has(command.type)) request.seed = freshSeed();
    const reply = await core.request(request);
    clearErrors(form);
    if (!reply.ok) {
      showError(form, reply.error);
      return reply;
    }
    adopt(reply.battle, reply.view);
    recalcTimings.push(performance.now() - started);
    return reply;
  });
  chain = run.catch(() => {});
  return run;
}

const text = (form, name) => {
  const value = form.elements.namedItem(name).value.trim();
  return value === "" ? undefined : value;
};

const BUILDERS = {
  add_unit(form) {
    const editing = form.dataset.editing;
    const command = editing ? { type: "update_unit", unit: editing } : { type: "add_unit", side: form.dataset.side };
    const name = text(form, "name");
    if (name !== undefined) command.name = name;
    const fields = valueOf(form, "how") === "rating" ? ["fighters", "rating", "size"] : ["fighters", "strength"];
    return putValues(command, form, fields);
  },
  set_modifiers(form) {
    const modifiers = [...form.querySelectorAll(".modifier-row")].map((row) => {
      const modifier = { name: $('[data-name="name"]', row).value.trim() };
      for (const key of ["percent", "flat"]) {
        const value = parseValue($(`[data-name="${key}"]`, row).value);
        if (value !== undefined) modifier[key] = value;
      }
      return modifier;
    });
    return { type: "set_modifiers", side: form.dataset.side, modifiers };
  },
  start: () => ({ type: "start" }),
  resolve_round(form) {
    const mode = valueOf(form, "mode");
    const command = { type: "resolve_round", mode };
    if (mode === "auto") return command;
    command[mode] = {};
    for (const side of ["allies", "enemies"]) {
      const value = valueOf(form, `${mode}.${side}`);
      if (value !== undefined) command[mode][side] = value;
    }
    return command;
  },
  leader_command(form) {
    const command = { type: "leader_command", side: valueOf(form, "side") };
    if (valueOf(form, "how") === "test") return putValues(command, form, ["leadership", "roll"]);
    return putValues(command, form, ["sl", "success"]);
  },
  set_influence_table: () => ({ type: "set_influence_table", table: null }),
  set_strength: (form) => putValues({ type: "set_strength" }, form, ["side", "strength"]),
  detach_fighters: (form) => putValues({ type: "detach_fighters" }, form, ["unit", "fighters"]),
  pcs_won(form) {
    const fleeing = text(form, "fleeing");
    const command = { type: "pcs_won" };
    if (fleeing !== undefined) command.fleeing = /^[\d.]+$/.test(fleeing) ? parseValue(fleeing) : fleeing;
    return command;
  },
  end_battle(form) {
    const winner = valueOf(form, "winner");
    const command = { type: "end_battle" };
    if (winner) command.winner = winner === "none" ? null : winner;
    return command;
  },
  roll_influence: (form) => putValues({ type: "roll_influence" }, form, ["side", "roll"]),
  rename(form) {
    const name = text(form, "name");
    return name === undefined ? { type: "rename" } : { type: "rename", name };
  },
  undo: () => ({ type: "undo" }),
};

const AFTER_SUCCESS = {
  add_unit(form) {
    setEditing(form, null);
    for (const name of ["name", "fighters", "strength", "rating"]) form.elements.namedItem(name).value = "";
    $('[data-bind="rated"]', form).textContent = "";
    form.elements.namedItem("name").focus();
  },
  resolve_round(form) {
    for (const input of form.querySelectorAll('input[inputmode="numeric"]')) input.value = "";
  },
  leader_command(form) {
    for (const name of ["sl", "leadership", "roll"]) form.elements.namedItem(name).value = "";
  },
  roll_influence(form) {
    form.elements.namedItem("roll").value = "";
  },
  detach_fighters(form) {
    form.elements.namedItem("fighters").value = "";
  },
};

function wireForms() {
  for (const form of document.querySelectorAll("form[data-command]")) {
    const type = form.dataset.command;
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const reply = await apply(BUILDERS[type](form), form);
      if (reply.ok) AFTER_SUCCESS[type]?.(form);
    });
  }
  // Segmented choices that show one group of inputs or another.
  for (const form of document.querySelectorAll("form")) {
    form.addEventListener("change", (event) => {
      const { name, value } = event.target;
      if (event.target.type !== "radio") return;
      for (const group of form.querySelectorAll(`[data-${name}]`)) {
        group.hidden = group.dataset[name] !== value;
      }
    });
  }
  // The strength a rating gives, computed by the core as the GM types.
  for (const form of document.querySelectorAll(".add-unit")) {
    let timer = null;
    form.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(() => previewRated(form), 120);
    });
    form.addEventListener("change", () => previewRated(form));
  }
  document.addEventListener("click", (event) => {
    const edit = event.target.closest(".edit-unit");
    if (edit) editUnit(edit.dataset.unit);
    const cancel = event.target.closest(".cancel-edit");
    if (cancel) AFTER_SUCCESS.add_unit(cancel.closest("form"));
    const remove = event.target.closest(".remove-unit");
    if (remove) {
      const form = $(".add-unit", remove.closest(".side"));
      if (form.dataset.editing === remove.dataset.unit) AFTER_SUCCESS.add_unit(form);
      apply({ type: "remove_unit", unit: remove.dataset.unit }, form);
    }
    const addModifier = event.target.closest(".add-modifier");
    if (addModifier) addModifierRow(addModifier.closest("form")).querySelector("input").focus();
    const removeModifier = event.target.closest(".remove-modifier");
    if (removeModifier) {
      const form = removeModifier.closest("form");
      removeModifier.closest("li").remove();
      renumberModifiers(form);
    }
  });
  $("#table-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    event.target.value = "";
    if (!file) return;
    const form = $("#table-form");
    clearErrors(form);
    let table;
    try {
      table = JSON.parse(await file.text());
    } catch (error) {
      $(".form-error", form).textContent = t("influence.bad_file", { message: error.message });
      return;
    }
    apply({ type: "set_influence_table", table }, form);
  });
  $("#house-table").addEventListener("click", () => apply({ type: "set_influence_table", table: null }, $("#table-form")));
  $("#odds-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    await Promise.race([haveBattle, bootFailed]);
    clearErrors(form);
    $("#odds-result").textContent = t("odds.running");
    // Live, the GM's view holds the whole log: the core in Pyodide replays the battle from it.
    const which = mode === "live" ? { log: view.log, name: live.battle } : { battle };
    const reply = await core.request({ op: "odds", ...which, runs: ODDS_RUNS, seed: freshSeed() });
    $("#odds-result").textContent = "";
    if (!reply.ok) return showError(form, reply.error);
    lastOdds = reply;
    renderOdds($("#odds-result"), reply);
  });
}

/** Put a unit's figures into its side's form, which then saves changes instead of adding. */
function editUnit(id) {
  const unit = view.units.find((u) => u.id === id);
  if (!unit) return;
  const form = $(`.side[data-side="${unit.side}"] form.add-unit`);
  clearErrors(form);
  setEditing(form, unit.id);
  form.elements.namedItem("name").value = unit.name;
  form.elements.namedItem("fighters").value = String(unit.fighters);
  form.elements.namedItem("strength").value = String(unit.strength);
  const typed = form.querySelector('input[name="how"][value="strength"]');
  typed.checked = true;
  typed.dispatchEvent(new Event("change", { bubbles: true }));
  form.elements.namedItem("name").focus();
}

function setEditing(form, id) {
  if (id) form.dataset.editing = id;
  else delete form.dataset.editing;
  const keys = id ? ["unit.edit_title", "unit.save"] : ["unit.add_title", "unit.add"];
  for (const [el, key] of [[$(".add-unit-title", form), keys[0]], [$(".add-unit-submit", form), keys[1]]]) {
    el.dataset.i18n = key;
    el.textContent = t(key);
  }
  $(".cancel-edit", form).hidden = !id;
}

async function previewRated(form) {
  const output = $('[data-bind="rated"]', form);
  if (valueOf(form, "how") !== "rating") return;
  const request = putValues({ op: "unit_strength" }, form, ["fighters", "rating", "size"]);
  const reply = await core.request(request);
  output.textContent = reply.ok ? t("unit.rated_preview", { strength: reply.strength }) : "";
}

function addModifierRow(form, modifier = {}) {
  const row = $("#modifier-template").content.firstElementChild.cloneNode(true);
  $('[data-name="name"]', row).value = modifier.name ?? "";
  $('[data-name="percent"]', row).value = modifier.percent ? String(modifier.percent) : "";
  $('[data-name="flat"]', row).value = modifier.flat ? String(modifier.flat) : "";
  translate(row);
  $(".modifier-rows", form).append(row);
  renumberModifiers(form);
  return row;
}

function renumberModifiers(form) {
  [...form.querySelectorAll(".modifier-row")].forEach((row, i) => {
    for (const input of row.querySelectorAll("[data-name]")) input.name = `modifiers.${i}.${input.dataset.name}`;
  });
}

function syncModifierRows() {
  for (const form of document.querySelectorAll(".modifiers-form")) {
    if (form.contains(document.activeElement)) continue;
    $(".modifier-rows", form).textContent = "";
    for (const modifier of view.sides[form.dataset.side].modifiers || []) addModifierRow(form, modifier);
  }
}

function wireTools() {
  $("#share-button").addEventListener("click", async () => {
    await haveBattle;
    const url = `${location.origin}${location.pathname}#${await encodeShare(battle)}`;
    const out = $("#share-output");
    out.textContent = "";
    const link = document.createElement("a");
    link.href = url;
    link.id = "share-link";
    link.textContent = url.length > 80 ? `${url.slice(0, 77)}…` : url;
    let copied = false;
    try {
      await navigator.clipboard.writeText(url);
      copied = true;
    } catch {
      copied = false;
    }
    out.append(copied ? t("tools.copied") : t("tools.link"), " ", link);
  });
  $("#export-button").addEventListener("click", async () => {
    await haveBattle;
    download(fileName(view.name), JSON.stringify(battle, null, 2));
  });
  $("#import-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    event.target.value = "";
    if (!file) return;
    const errorLine = $("#tools-error");
    errorLine.textContent = "";
    let data;
    try {
      data = JSON.parse(await file.text());
    } catch (error) {
      errorLine.textContent = t("tools.bad_file", { message: error.message });
      return;
    }
    const reply = await core.request({ op: "view", battle: data });
    if (!reply.ok) {
      errorLine.textContent = t("tools.bad_file", { message: showErrorText(reply.error) });
      return;
    }
    if (battle) save({ battle, view }, STORAGE_KEYS.previous);
    adopt(data, reply.view);
    $("#share-output").textContent = t("tools.imported");
  });
  $("#new-button").addEventListener("click", async () => {
    if (!confirm(t("tools.confirm_new"))) return;
    if (battle) save({ battle, view }, STORAGE_KEYS.previous);
    lastOdds = null;
    $("#odds-result").textContent = "";
    await newBattle();
  });
}

haveBattle.then(() => {
  if ("serviceWorker" in navigator && location.protocol.startsWith("http")) {
    navigator.serviceWorker.register("sw.js").catch(() => {});
  }
});

// ---- Live mode: the bridge's battle (live.js; docs/web.md "Live mode") ----

let liveChain = Promise.resolve();
/** A change in live mode: a bridge command (never a local apply); errors as in local mode. */
function applyLive(command, form) {
  const run = liveChain.then(async () => {
    if (!live?.battle || !view) {
      const error = { code: "required", field: null, message: t("live.pick_first"), params: {} };
      showError(form, error);
      return { ok: false, error };
    }
    const started = performance.now();
    const reply = await live.command(command);
    clearErrors(form);
    if (reply.type === "error") {
      const error = { ...reply, field: reply.field?.startsWith("command.") ? reply.field.slice(8) : reply.field };
      showError(form, error);
      return { ok: false, error };
    }
    // The event (sent before the ack) has been painted already.
    recalcTimings.push(performance.now() - started);
    return { ok: true };
  });
  liveChain = run.catch(() => {});
  return run;
}

function setLiveStatus(key, params = {}) {
  liveStatus = { key, params };
  const el = $("#live-status");
  el.dataset.state = key.split(".").pop();
  el.textContent = t(key, params);
  html.dataset.live = el.dataset.state;
}

function paintLive() {
  setLiveStatus(liveStatus.key, liveStatus.params);
  const role = html.dataset.liveRole;
  const note = $("#live-role");
  note.hidden = mode !== "live" || !role;
  if (role) note.textContent = t(role === "gm" ? "live.role_gm" : "live.role_player");
  if (role && !live?.battle) note.textContent += ` ${t("live.pick_first")}`;
  const select = $("#live-pick-form select");
  const chosen = live?.battle || select.value;
  select.textContent = "";
  for (const item of liveBattles) select.append(new Option(battleLine(item), item.name));
  if (!liveBattles.length) select.append(new Option(t("live.no_battles"), ""));
  if (chosen && liveBattles.some((b) => b.name === chosen)) select.value = chosen;
  $("#live-battles").hidden = mode !== "live" || !html.dataset.liveRole;
  paintJoinCode($("#live-join"), mode === "live" && live?.role === "gm" ? live.playerToken : null);
  $("#live-local").hidden = mode !== "live";
}

/**
 * A battle in the list: the one followed with its phase and version as now on screen; the
 * others by name (the bridge lists them when they are created, not at every change).
 */
function battleLine(item) {
  if (item.name !== live?.battle || !live.view) return item.name;
  return t("live.battle_line", { name: item.name, version: live.view.version, status: t(`phase.${live.view.status}`) });
}

/** Player pages show, never change: every form of the battle is disabled too (not only hidden). */
function setReadOnly(readOnly) {
  for (const form of document.querySelectorAll("#battle form[data-command], #odds-form")) {
    for (const control of form.elements) control.disabled = readOnly;
  }
}

async function startLive() {
  bridge = await findBridge();
  if (!bridge) return; // a static host: local mode only, as always
  $("#live-panel").hidden = false;
  const token = urlToken || storedToken();
  if (urlToken) storeToken(urlToken);
  if (token) goLive(token);
  else paintLive();
}

function goLive(token) {
  live?.stop();
  mode = "live";
  html.dataset.mode = "live";
  liveBattles = [];
  live = new LiveClient(bridge.ws, token, {
    onStatus(state, detail) {
      if (state === "offline") setLiveStatus("live.state.offline", { seconds: Math.round(detail / 1000) || 1 });
      else setLiveStatus(`live.state.${state}`);
    },
    onWelcome(welcome) {
      html.dataset.liveRole = welcome.role;
      setReadOnly(welcome.role !== "gm");
      $("#live-token-form").hidden = true;
      paintLive();
    },
    onBattles(list) {
      liveBattles = list;
      // The battle followed last time, else the only one there is: followed without a click.
      const wanted = loadLiveBattle();
      if (!live.battle && list.some((b) => b.name === wanted)) follow(wanted);
      else if (!live.battle && list.length === 1) follow(list[0].name);
      else paintLive();
    },
    onView(liveView) {
      paint(liveView);
      html.dataset.liveBattle = live.battle;
      paintLive();
    },
    onProblem(error) {
      if (error.code === "bad_token") {
        storeToken(null);
        leaveLive();
        setLiveStatus("live.state.bad_token");
        $("#live-token-form").hidden = false;
        showError($("#live-token-form"), { ...error, field: "token", message: t("live.bad_token") });
        return;
      }
      showError($("#live-pick-form"), error);
    },
  });
  paintLive();
}

function loadLiveBattle() {
  try {
    return localStorage.getItem(STORAGE_KEYS.liveBattle);
  } catch {
    return null;
  }
}

function follow(name) {
  live.follow(name);
  try {
    localStorage.setItem(STORAGE_KEYS.liveBattle, name);
  } catch {
    /* private mode */
  }
  lastOdds = null;
  $("#odds-result").textContent = "";
  paintLive();
}

/** Back to the battle in this browser, run by the local core. */
function leaveLive() {
  live?.stop();
  live = null;
  mode = "local";
  delete html.dataset.mode;
  delete html.dataset.liveRole;
  delete html.dataset.liveBattle;
  setReadOnly(false);
  $("#live-token-form").hidden = false;
  setLiveStatus("live.state.local");
  lastOdds = null;
  $("#odds-result").textContent = "";
  paintLive();
  const saved = loadSaved();
  if (saved?.view) paint(saved.view);
}

function wireLive() {
  $("#live-token-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    clearErrors(form);
    const token = form.elements.namedItem("token").value.trim();
    if (!token) return showError(form, { code: "required", field: "token", message: t("live.token_required"), params: {} });
    form.elements.namedItem("token").value = "";
    storeToken(token);
    goLive(token);
  });
  $("#live-pick-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    clearErrors(form);
    const name = form.elements.namedItem("battle").value;
    if (!name) return showError(form, { code: "required", field: "battle", message: t("live.pick_one"), params: {} });
    follow(name);
  });
  $("#live-create-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    clearErrors(form);
    const name = form.elements.namedItem("name").value.trim();
    if (!name) return showError(form, { code: "required", field: "name", message: "", params: {} });
    const reply = await live.command({ type: "create_battle" }, name);
    if (reply.type === "error") {
      showError(form, { ...reply, field: reply.field === "battle" ? "name" : reply.field });
      return;
    }
    form.elements.namedItem("name").value = "";
    follow(name);
  });
  $("#live-local").addEventListener("click", leaveLive);
}
