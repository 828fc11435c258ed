// The live panel: the bridge's status, the role, the battles to follow; its forms call live actions.
import { clearErrors, showError } from "./forms.js";
import { t } from "./i18n.js";
import { paintJoinCode } from "./join-code.js";

const $ = (selector) => document.querySelector(selector);
const html = document.documentElement;

let foldedFor = null; // the battle a player's panel was folded for (the player may open it again)

/** A player following a battle sees the connection as one line; the rest a tap away. */
function fold(mode, live) {
  const following = mode === "live" && live.role === "player" && live.view ? live.battle : null;
  if (following === foldedFor) return;
  foldedFor = following;
  $("#live-more").open = !following;
}

/** Paint the live part of the state (and `<html data-live data-mode data-live-role data-live-battle>`). */
export function paintLive(state) {
  const { mode, live } = state;
  $("#live-panel").hidden = !live.bridge;
  if (!live.bridge) return; // a static host: no live mode, no `data-live`
  const el = $("#live-status");
  el.dataset.state = live.status.key.split(".").pop();
  el.textContent = t(live.status.key, live.status.params);
  html.dataset.live = el.dataset.state;
  setData("mode", mode === "live" ? "live" : null);
  setData("liveRole", mode === "live" ? live.role : null);
  setData("liveBattle", mode === "live" && live.view ? live.battle : null);
  $("#live-token-form").hidden = Boolean(live.role);
  const note = $("#live-role");
  note.hidden = mode !== "live" || !live.role;
  if (live.role) note.textContent = t(live.role === "gm" ? "live.role_gm" : "live.role_player");
  if (live.role && !live.battle) note.textContent += ` ${t("live.pick_first")}`;
  const select = $("#live-pick-form select");
  const chosen = live.battle || select.value;
  select.textContent = "";
  for (const item of live.battles) select.append(new Option(battleLine(item, live), item.name));
  if (!live.battles.length) select.append(new Option(t("live.no_battles"), ""));
  if (chosen && live.battles.some((b) => b.name === chosen)) select.value = chosen;
  $("#live-battles").hidden = mode !== "live" || !live.role;
  $("#live-local").hidden = mode !== "live";
  paintJoinCode($("#live-join"), mode === "live" && live.role === "gm" ? live.playerToken : null);
  paintPairing($("#live-pairing"), mode === "live" && live.role === "gm" ? live.pairing : null);
  fold(mode, live);
}

/**
 * A page asking to join by a code (Foundry's Connect to the bridge): who asks and the code to
 * type there, then how it ended. The bridge's terminal shows the same.
 */
function paintPairing(el, pairing) {
  el.hidden = !pairing;
  if (!pairing) return;
  const { origin, code, outcome } = pairing;
  el.dataset.outcome = outcome ?? "asked";
  el.textContent = outcome
    ? t(`live.pairing_over.${outcome in PAIRING_OUTCOMES ? outcome : "gone"}`, { origin })
    : t("live.pairing", { origin, code });
}

const PAIRING_OUTCOMES = { paired: 1, too_many_tries: 1, expired: 1, bad_message: 1, gone: 1 };

/**
 * A battle in the list: the one followed with its phase and version as now on screen; the
 * others by name (the bridge lists them when they are created, not at every change).
 */
function battleLine(item, live) {
  if (item.name !== live.battle || !live.view) return item.name;
  return t("live.battle_line", { name: item.name, version: live.view.version, status: t(`phase.${live.view.status}`) });
}

function setData(key, value) {
  if (value) html.dataset[key] = value;
  else delete html.dataset[key];
}

/** The live panel's forms: a token, a battle to follow, a battle to create, back to local. */
export function wireLive(live) {
  $("#live-token-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    clearErrors(form);
    const token = form.elements.namedItem("token").value.trim();
    if (!token)
      return showError(form, { code: "required", field: "token", message: t("live.token_required"), params: {} });
    form.elements.namedItem("token").value = "";
    live.go(token);
  });
  $("#live-pick-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    clearErrors(form);
    const name = form.elements.namedItem("battle").value;
    if (!name) return showError(form, { code: "required", field: "battle", message: t("live.pick_one"), params: {} });
    live.follow(name);
  });
  $("#live-create-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    clearErrors(form);
    const name = form.elements.namedItem("name").value.trim();
    if (!name) return showError(form, { code: "required", field: "name", message: "", params: {} });
    const reply = await live.create(name);
    if (reply.type === "error") {
      showError(form, { ...reply, field: reply.field === "battle" ? "name" : reply.field });
      return;
    }
    form.elements.namedItem("name").value = "";
    live.follow(name);
  });
  $("#live-local").addEventListener("click", () => live.leave());
}

/** What the bridge says that belongs to no command: a wrong token, a battle that cannot be followed. */
export const liveProblems = {
  badToken(error) {
    showError($("#live-token-form"), { ...error, field: "token", message: t("live.bad_token") });
  },
  problem(error) {
    showError($("#live-pick-form"), error);
  },
};
