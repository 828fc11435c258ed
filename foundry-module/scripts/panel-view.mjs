/**
 * The panel's HTML, from plain data: the connection, the battles, the shown battle's view and
 * its Foundry data. Controls only for a GM; a player sees the player view, read-only.
 */
import { esc, t } from "./i18n.mjs";

const SIDES = ["allies", "enemies"];
const SIZES = ["tiny", "little", "small", "average", "large", "enormous", "monstrous"];

function num(value) {
  return value === null || value === undefined ? "?" : esc(value);
}

function statusLight(status) {
  const state = status.state;
  const color = state === "open" ? "green" : state === "connecting" || state === "closed" ? "amber" : "red";
  const text =
    state === "open"
      ? t("Status.open", { role: t(`Role.${status.role}`) })
      : state === "closed"
        ? t("Status.closed", { seconds: Math.ceil((status.retryIn ?? 0) / 1000) })
        : status.reason === "no_token"
          ? t(game.user.isGM ? "Notices.no_gm_token" : "Notices.no_player_token")
          : t(`Status.${state}`);
  return (
    `<div class="bb-status" data-state="${esc(state)}">` +
    `<span class="bb-light bb-${color}" aria-hidden="true"></span>` +
    `<span class="bb-status-text">${esc(text)}</span>` +
    (state !== "open" ? `<button type="button" data-action="reconnect">${esc(t("Panel.Reconnect"))}</button>` : "") +
    "</div>"
  );
}

function battlePicker(ctx) {
  const options = ctx.battles
    .map(
      (b) =>
        `<option value="${esc(b.name)}"${b.name === ctx.battle ? " selected" : ""}>` +
        `${esc(b.name)} (${esc(t(`Phase.${b.status}`))})</option>`,
    )
    .join("");
  const create = ctx.isGM
    ? `<input type="text" name="newBattle" placeholder="${esc(t("Panel.NewBattleName"))}" maxlength="64">` +
      `<button type="button" data-action="createBattle">${esc(t("Panel.CreateBattle"))}</button>`
    : "";
  return (
    `<div class="bb-row bb-battles"><label>${esc(t("Panel.Battle"))} ` +
    `<select name="battle" data-action-change="selectBattle">` +
    `<option value="">—</option>${options}</select></label>${create}</div>`
  );
}

function sideSummary(view, side) {
  const s = view.sides?.[side] ?? {};
  const bonus = s.pending_bonus ? ` <span class="bb-bonus">+${num(s.pending_bonus)}</span>` : "";
  return (
    `<div class="bb-side bb-${side}" data-side="${side}"><h4>${esc(t(`Side.${side}`))}</h4>` +
    `<span class="bb-strength">${esc(t("Panel.Strength"))}: <b>${num(s.strength)}</b> / ${num(s.initial)}</span>${bonus}</div>`
  );
}

function unitRow(unit, ctx) {
  const tokens = ctx.foundry?.tokens?.[unit.id] ?? [];
  const report = ctx.foundry?.applied?.[unit.id];
  const c = unit.casualties;
  const casualties = c
    ? `<span class="bb-casualties" data-killed="${num(c.killed)}" data-wounded="${num(c.wounded)}" data-fit="${num(c.fit)}">` +
      `${esc(t("Fate.Killed"))} ${num(c.killed)} · ${esc(t("Fate.Wounded"))} ${num(c.wounded)} · ${esc(t("Fate.Fit"))} ${num(c.fit)}</span>`
    : "";
  const applied = report
    ? `<span class="bb-applied">${esc(t("Panel.Applied", { killed: report.killed, wounded: report.wounded, fit: report.fit }))}</span>`
    : "";
  let buttons = "";
  if (ctx.isGM) {
    const b = (action, label, extra = "") =>
      `<button type="button" data-action="${action}" data-unit="${esc(unit.id)}"${extra}>${esc(t(label))}</button>`;
    buttons =
      `<div class="bb-unit-buttons">` +
      b("linkSelected", "Panel.LinkSelected") +
      b("unlinkSelected", "Panel.UnlinkSelected") +
      (ctx.view.status === "fighting"
        ? `<input type="number" name="detach-${esc(unit.id)}" min="1" step="1" aria-label="${esc(t("Panel.DetachCount"))}">` +
          b("detach", "Panel.Detach")
        : "") +
      (ctx.view.status === "ended" ? b("applyUnit", "Panel.Apply") + b("undoApply", "Panel.UndoApply") : "") +
      "</div>";
  }
  return (
    `<li class="bb-unit" data-unit="${esc(unit.id)}" data-side="${esc(unit.side)}">` +
    `<span class="bb-unit-name">${esc(unit.name)}</span> ` +
    `<span class="bb-unit-figures">${esc(t("Panel.Fighters"))} ${num(unit.fighters)} · ${esc(t("Panel.Strength"))} ${num(unit.strength)}` +
    (unit.detached ? ` · ${esc(t("Panel.Detached", { count: unit.detached }))}` : "") +
    "</span> " +
    `<span class="bb-unit-tokens" data-count="${tokens.length}">${esc(t("Panel.Tokens", { count: tokens.length }))}</span> ` +
    `${casualties} ${applied}${buttons}</li>`
  );
}

function newUnitForm() {
  const sides = SIDES.map((s) => `<option value="${s}">${esc(t(`Side.${s}`))}</option>`).join("");
  const sizes = SIZES.map(
    (s) => `<option value="${s}"${s === "average" ? " selected" : ""}>${esc(t(`Size.${s}`))}</option>`,
  ).join("");
  return (
    `<fieldset class="bb-new-unit"><legend>${esc(t("Panel.NewUnit"))}</legend>` +
    `<label>${esc(t("Panel.Name"))} <input type="text" name="unitName" maxlength="64"></label>` +
    `<label>${esc(t("Panel.Side"))} <select name="unitSide">${sides}</select></label>` +
    `<label>${esc(t("Panel.Strength"))} <input type="number" name="unitStrength" min="0" step="1"></label>` +
    `<label>${esc(t("Panel.Rating"))} <input type="number" name="unitRating" min="0" step="1"></label>` +
    `<label>${esc(t("Panel.Size"))} <select name="unitSize">${sizes}</select></label>` +
    `<label><input type="checkbox" name="oneForMany"> ${esc(t("Panel.OneForMany"))}</label>` +
    `<label>${esc(t("Panel.HeadCount"))} <input type="number" name="headCount" min="1" step="1"></label>` +
    `<button type="button" data-action="newUnit">${esc(t("Panel.NewUnitFromSelected"))}</button>` +
    "</fieldset>"
  );
}

function sideSelect(name, withAuto = false) {
  const auto = withAuto ? `<option value="">${esc(t("Panel.WinnerAuto"))}</option>` : "";
  return (
    `<select name="${name}">${auto}` +
    SIDES.map((s) => `<option value="${s}">${esc(t(`Side.${s}`))}</option>`).join("") +
    "</select>"
  );
}

function fightControls(view) {
  if (view.status === "setup") {
    return `<div class="bb-row"><button type="button" data-action="start">${esc(t("Panel.Start"))}</button></div>`;
  }
  if (view.status !== "fighting") return "";
  return (
    `<fieldset class="bb-round"><legend>${esc(t("Panel.Round", { round: view.round ?? 0 }))}</legend>` +
    `<button type="button" data-action="roundAuto">${esc(t("Panel.RoundAuto"))}</button>` +
    `<label>${esc(t("Side.allies"))} <input type="number" name="rollAllies" min="1" max="100"></label>` +
    `<label>${esc(t("Side.enemies"))} <input type="number" name="rollEnemies" min="1" max="100"></label>` +
    `<button type="button" data-action="roundRolls">${esc(t("Panel.RoundRolls"))}</button>` +
    "</fieldset>" +
    `<fieldset class="bb-leader"><legend>${esc(t("Panel.Leader"))}</legend>` +
    `${sideSelect("leaderSide")}` +
    `<label>${esc(t("Panel.SL"))} <input type="number" name="leaderSl" step="1"></label>` +
    `<label><input type="checkbox" name="leaderSuccess" checked> ${esc(t("Panel.Success"))}</label>` +
    `<button type="button" data-action="leader">${esc(t("Panel.LeaderCommand"))}</button>` +
    "</fieldset>" +
    `<fieldset class="bb-set-strength"><legend>${esc(t("Panel.SetStrength"))}</legend>` +
    `${sideSelect("strengthSide")}` +
    `<input type="number" name="strengthValue" min="0" step="1" aria-label="${esc(t("Panel.Strength"))}">` +
    `<button type="button" data-action="setStrength">${esc(t("Panel.Set"))}</button>` +
    "</fieldset>" +
    `<fieldset class="bb-end"><legend>${esc(t("Panel.End"))}</legend>` +
    `<label>${esc(t("Panel.Fleeing"))} <input type="text" name="fleeing" placeholder="0, 1/2, 0.25"></label>` +
    `<button type="button" data-action="pcsWon">${esc(t("Panel.PcsWon"))}</button>` +
    `<label>${esc(t("Panel.Winner"))} ${sideSelect("winner", true)}</label>` +
    `<button type="button" data-action="endBattle">${esc(t("Panel.EndBattle"))}</button>` +
    "</fieldset>"
  );
}

function influenceControls(ctx) {
  const tables = ctx.tables
    .map((tb) => `<option value="${esc(tb.id)}"${tb.id === ctx.tableId ? " selected" : ""}>${esc(tb.name)}</option>`)
    .join("");
  return (
    `<fieldset class="bb-influence"><legend>${esc(t("Panel.Influence"))}</legend>` +
    `${sideSelect("influenceSide")}` +
    `<label>${esc(t("Panel.Roll"))} <input type="number" name="influenceRoll" min="1" max="100"></label>` +
    `<button type="button" data-action="influence">${esc(t("Panel.RollInfluence"))}</button>` +
    `<label>${esc(t("Panel.Table"))} <select name="influenceTable" data-action-change="chooseTable">` +
    `<option value="">${esc(t("Influence.DefaultTable"))}</option>${tables}</select></label>` +
    `<button type="button" data-action="importTable">${esc(t("Panel.ImportTable"))}</button>` +
    "</fieldset>"
  );
}

/** The whole panel body. `ctx`: {status, isGM, gmAsPlayer, isActiveGM, activeGMName, battles, battle, view, foundry, tables, tableId}. */
export function panelHtml(ctx) {
  const parts = [statusLight(ctx.status), battlePicker(ctx)];
  if (ctx.gmAsPlayer) parts.push(`<p class="bb-readonly">${esc(t("Panel.GmAsPlayer"))}</p>`);
  else if (!ctx.isGM) parts.push(`<p class="bb-readonly">${esc(t("Panel.ReadOnly"))}</p>`);
  else if (!ctx.isActiveGM) {
    parts.push(`<p class="bb-not-active">${esc(t("Panel.NotActiveGM", { name: ctx.activeGMName ?? "?" }))}</p>`);
  }
  const view = ctx.view;
  if (view) {
    const winner = view.winner ? ` — ${esc(t("Panel.WinnerIs", { side: t(`Side.${view.winner}`) }))}` : "";
    parts.push(
      `<div class="bb-phase" data-status="${esc(view.status)}">${esc(t(`Phase.${view.status}`))}` +
        (view.status !== "setup" ? ` · ${esc(t("Panel.Round", { round: view.round ?? 0 }))}` : "") +
        `${winner}</div>`,
      `<div class="bb-sides">${SIDES.map((s) => sideSummary(view, s)).join("")}</div>`,
      `<ul class="bb-units">${(view.units ?? []).map((u) => unitRow(u, { ...ctx, view })).join("")}</ul>`,
    );
    if (ctx.isGM) {
      if (view.status === "setup") parts.push(newUnitForm());
      parts.push(fightControls(view));
      if (view.status === "ended") {
        parts.push(
          `<div class="bb-row"><button type="button" data-action="applyAll">${esc(t("Panel.ApplyAll"))}</button></div>`,
        );
      }
      if (view.status !== "setup") parts.push(influenceControls(ctx));
      parts.push(
        `<div class="bb-row"><button type="button" data-action="undo"${view.can_undo ? "" : " disabled"}>${esc(t("Panel.Undo"))}</button></div>`,
      );
    }
  } else if (ctx.battle) {
    parts.push(`<p class="bb-loading">${esc(t("Panel.Loading"))}</p>`);
  }
  return `<div class="bb-panel">${parts.join("")}</div>`;
}
