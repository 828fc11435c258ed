/**
 * The panel's controls of a running battle: the round (always on top, also in compact mode),
 * a round by the strength lost, the leader's command, a side's strength by hand, the end, and
 * Influence.
 */
import { button, field, section, sideSelect } from "./panel-controls.mjs";
import { esc, t } from "./i18n.mjs";
import { leaderLine } from "./leader-test.mjs";

/**
 * By *Apply casualties to every unit*: each unit on tokens (the bridge's reports, for the GMs),
 * so that with many units no result lands below the fold ("" before any is applied).
 */
function appliedByUnit(view, ctx) {
  const applied = ctx.foundry?.applied ?? {};
  const rows = (view.units ?? [])
    .filter((unit) => applied[unit.id])
    .map((unit) => {
      const r = applied[unit.id];
      const words = t("Panel.Applied", { killed: r.killed, wounded: r.wounded, fit: r.fit });
      return `<li data-unit="${esc(unit.id)}"><b>${esc(unit.name)}</b> ${esc(words)}</li>`;
    });
  return rows.length ? `<ul class="bb-applied-all">${rows.join("")}</ul>` : "";
}

/** Roll the round, or type both d100 rolls: the controls of compact mode too. */
export function roundControls(view, ctx) {
  if (view.status !== "fighting") return "";
  return (
    `<div class="bb-row bb-round" data-next-round="${esc((view.round ?? 0) + 1)}">` +
    button("roundAuto", "Panel.RoundAuto", { disabled: ctx.pending, cls: "bb-primary" }) +
    field("rollAllies", "Fields.rolls.allies", { tip: "Tip.rollAllies", enter: "roundRolls" }) +
    field("rollEnemies", "Fields.rolls.enemies", { tip: "Tip.rollEnemies", enter: "roundRolls" }) +
    button("roundRolls", "Panel.RoundRolls", { disabled: ctx.pending }) +
    "</div>"
  );
}

/** A round fought out at the table: the strength each side lost (a blank reads 0), as on the page. */
function lostRound(ctx) {
  return (
    `<div class="bb-row bb-lost">` +
    field("lostAllies", "LostRound.Allies", { tip: "LostRound.TipAllies", enter: "roundLost" }) +
    field("lostEnemies", "LostRound.Enemies", { tip: "LostRound.TipEnemies", enter: "roundLost" }) +
    button("roundLost", "LostRound.Play", { tip: "LostRound.TipPlay", disabled: ctx.pending }) +
    "</div>"
  );
}

function leader(ctx) {
  return (
    `<div class="bb-row bb-leader">` +
    sideSelect("leaderSide", { tip: "Tip.leaderSide" }) +
    field("leaderSl", "Panel.SL", { tip: "Tip.leaderSl", enter: "leader", signed: true }) +
    field("leaderSuccess", "Panel.Success", {
      kind: "checkbox",
      tip: "Tip.leaderSuccess",
      attrs: { checked: true },
      labelFirst: false,
    }) +
    button("leader", "Panel.LeaderCommand", { disabled: ctx.pending }) +
    "</div>" +
    leaderLine(ctx)
  );
}

function setStrength(ctx) {
  return (
    `<div class="bb-row bb-set-strength">` +
    sideSelect("strengthSide", { tip: "Tip.strengthSide" }) +
    field("strengthValue", "Panel.NewStrength", { tip: "Tip.strengthValue", enter: "setStrength" }) +
    button("setStrength", "Panel.Set", { disabled: ctx.pending }) +
    "</div>"
  );
}

function end(ctx) {
  return (
    `<div class="bb-row bb-end">` +
    field("fleeing", "Panel.Fleeing", {
      kind: "text",
      tip: "Tip.fleeing",
      enter: "pcsWon",
      attrs: { placeholder: t("Typed.SharePlaceholder"), autocomplete: "off" },
    }) +
    button("pcsWon", "Panel.PcsWon", { disabled: ctx.pending }) +
    `<label class="bb-field"><span>${esc(t("Panel.Winner"))}</span> ${sideSelect("winner", { tip: "Tip.winner", auto: "Panel.WinnerAuto" })}</label>` +
    button("endBattle", "Panel.EndBattle", { disabled: ctx.pending }) +
    "</div>"
  );
}

function influence(view, ctx) {
  const tables = ctx.tables
    .map((tb) => `<option value="${esc(tb.id)}"${tb.id === ctx.tableId ? " selected" : ""}>${esc(tb.name)}</option>`)
    .join("");
  // The winner's side by default once the battle has one (after the battle only the winner rolls).
  return (
    `<div class="bb-row bb-influence">` +
    sideSelect("influenceSide", { tip: "Tip.influenceSide", selected: view.winner ?? "allies" }) +
    field("influenceRoll", "Panel.Roll", { tip: "Tip.influenceRoll", enter: "influence" }) +
    button("influence", "Panel.RollInfluence", { disabled: ctx.pending }) +
    `<label class="bb-field"><span>${esc(t("Panel.Table"))}</span> ` +
    `<select name="influenceTable" data-applied data-tooltip="${esc(t("Tip.influenceTable"))}" aria-label="${esc(t("Panel.Table"))}">` +
    `<option value="">${esc(t("Influence.DefaultTable"))}</option>${tables}</select></label>` +
    button("importTable", "Panel.ImportTable") +
    "</div>"
  );
}

/** The sections of a running or ended battle, for a GM. */
export function fightSections(view, ctx) {
  const closed = ctx.closed;
  if (view.status === "fighting") {
    return (
      section("lost", "LostRound.Section", lostRound(ctx), { closed }) +
      section("leader", "Panel.Leader", leader(ctx), { closed }) +
      section("end", "Panel.End", end(ctx), { closed }) +
      section("strength", "Panel.SetStrength", setStrength(ctx), { closed }) +
      section("influence", "Panel.Influence", influence(view, ctx), { closed })
    );
  }
  if (view.status === "ended") {
    return (
      `<div class="bb-row">${button("applyAll", "Panel.ApplyAll", { disabled: ctx.pending })}</div>` +
      appliedByUnit(view, ctx) +
      section("influence", "Panel.Influence", influence(view, ctx), { closed }) +
      section("strength", "Panel.SetStrength", setStrength(ctx), { closed })
    );
  }
  return "";
}
