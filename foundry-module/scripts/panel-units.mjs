/**
 * The panel's units: a row per unit (head count, starting strength, tokens, casualties, the
 * buttons that make sense now), the new-unit form, and the proposal of both sides from the scene.
 */
import { button, field, sideSelect } from "./panel-controls.mjs";
import { shown } from "./step-words.mjs";
import { counted, esc, t } from "./i18n.mjs";

const SIZES = ["tiny", "little", "small", "average", "large", "enormous", "monstrous"];

function casualtiesText(c) {
  return (
    `<span class="bb-casualties" data-killed="${esc(shown(c.killed))}" data-wounded="${esc(shown(c.wounded))}" data-fit="${esc(shown(c.fit))}">` +
    `${esc(t("Fate.Killed"))} ${esc(shown(c.killed))} · ${esc(t("Fate.Wounded"))} ${esc(shown(c.wounded))} · ` +
    `${esc(t("Fate.Fit"))} ${esc(shown(c.fit))}</span>`
  );
}

/** The buttons of a unit for a GM: link/unlink always; Detach while fighting; Apply / Undo apply as the tokens stand
 * (while its Apply job is under way: none; interrupted: Finish and Undo). */
function unitButtons(unit, view, ctx, report) {
  const b = (action, label) => button(action, label, { unit: unit.id, disabled: ctx.pending });
  let buttons = b("linkSelected", "Panel.LinkSelected") + b("unlinkSelected", "Panel.UnlinkSelected");
  if (view.status === "fighting") {
    buttons +=
      field(`detach-${unit.id}`, "Panel.DetachCount", {
        tip: "Tip.detachCount",
        enter: "detach",
        bare: true,
        attrs: { "data-unit": unit.id },
      }) + b("detach", "Panel.Detach");
  }
  const job = ctx.jobs?.[unit.id];
  if (view.status === "ended" && job) {
    if (job.kind === "interrupted") {
      buttons +=
        button("finishApply", "Job.Finish", { unit: unit.id, disabled: ctx.pending, tip: "Job.TipFinish" }) +
        button("undoInterrupted", "Job.Undo", { unit: unit.id, disabled: ctx.pending, tip: "Job.TipUndo" });
    }
  } else if (view.status === "ended") {
    // Apply while the tokens do not show the unit's result (none yet, or the battle changed since).
    const c = unit.casualties ?? {};
    const current = report && ["killed", "wounded", "fit"].every((fate) => report[fate] === c[fate]);
    if (!current) buttons += b("applyUnit", "Panel.Apply");
    if (report) buttons += b("undoApply", "Panel.UndoApply");
  }
  return `<div class="bb-unit-buttons">${buttons}</div>`;
}

/** A GM's line of the unit's tokens standing for many, each with its head count ("" if none). */
function crowdLine(crowds) {
  if (!crowds?.length) return "";
  const each = crowds.map(
    (c) =>
      `<span class="bb-crowd" data-fighters="${esc(c.fighters)}">${esc(counted("Panel.CrowdToken", c.fighters, { name: c.name }))}</span>`,
  );
  return `${each.join(" ")} `;
}

/** A unit's row. Players see no token count (their connection has no Foundry data). */
export function unitRow(unit, view, ctx) {
  const tokens = ctx.foundry?.tokens?.[unit.id] ?? [];
  const report = ctx.foundry?.applied?.[unit.id];
  const applied = report
    ? `<span class="bb-applied">${esc(t("Panel.Applied", { killed: report.killed, wounded: report.wounded, fit: report.fit }))}</span>`
    : "";
  const job = ctx.isGM ? ctx.jobs?.[unit.id] : null;
  const jobLine = job ? ` <span class="bb-job" data-kind="${esc(job.kind)}">${esc(job.text)}</span>` : "";
  const tokenCount = ctx.isGM
    ? `<span class="bb-unit-tokens" data-count="${tokens.length}">${esc(counted("Panel.TokenCount", tokens.length))}</span> ` +
      crowdLine(ctx.crowds?.[unit.id])
    : "";
  return (
    `<li class="bb-unit" data-unit="${esc(unit.id)}" data-side="${esc(unit.side)}" data-drop="unit">` +
    `<span class="bb-unit-name">${esc(unit.name)}</span> ` +
    `<span class="bb-unit-figures">${esc(t("Panel.Fighters"))} ${esc(shown(unit.fighters))} · ` +
    `${esc(t("Panel.StartStrength", { strength: shown(unit.strength) }))}` +
    (unit.detached ? ` · ${esc(counted("Panel.Detached", unit.detached))}` : "") +
    "</span> " +
    tokenCount +
    (unit.casualties && view.status !== "setup" ? casualtiesText(unit.casualties) : "") +
    ` ${applied}` +
    jobLine +
    (ctx.isGM ? unitButtons(unit, view, ctx, report) : "") +
    "</li>"
  );
}

/** The form for a unit from the selected tokens. */
export function newUnitForm(ctx) {
  const sizes = SIZES.map(
    (s) => `<option value="${s}"${s === "average" ? " selected" : ""}>${esc(t(`Size.${s}`))}</option>`,
  ).join("");
  return (
    `<div class="bb-row bb-new-unit">` +
    field("unitName", "Panel.Name", { kind: "text", tip: "Tip.unitName", enter: "newUnit", attrs: { maxlength: 64 } }) +
    sideSelect("unitSide", { tip: "Tip.unitSide" }) +
    field("unitStrength", "Fields.strength", { tip: "Tip.unitStrength", enter: "newUnit" }) +
    field("unitRating", "Panel.Rating", { tip: "Tip.unitRating", enter: "newUnit" }) +
    `<label class="bb-field"><span>${esc(t("Panel.Size"))}</span> <select name="unitSize" data-tooltip="${esc(t("Tip.unitSize"))}" aria-label="${esc(t("Panel.Size"))}">${sizes}</select></label>` +
    field("oneForMany", "Panel.OneForMany", { kind: "checkbox", tip: "Tip.oneForMany", labelFirst: false }) +
    field("headCount", "Panel.HeadCount", { tip: "Tip.headCount", enter: "newUnit" }) +
    button("newUnit", "Panel.NewUnitFromSelected", { disabled: ctx.pending }) +
    "</div>"
  );
}

/**
 * Both sides from the scene, waiting for the GM's confirmation: a row per unit with its head
 * count and a strength to type (required), then Create both sides or Cancel.
 */
export function sceneProposal(proposal, ctx) {
  if (!proposal) {
    return (
      `<div class="bb-row bb-scene">` +
      `<select name="sceneGroupBy" data-tooltip="${esc(t("Tip.sceneGroupBy"))}" aria-label="${esc(t("Scene.GroupBy"))}">` +
      `<option value="actor">${esc(t("Scene.ByActor"))}</option><option value="name">${esc(t("Scene.ByName"))}</option></select>` +
      button("sceneSides", "Scene.FromScene", { disabled: ctx.pending }) +
      "</div>"
    );
  }
  const rows = ["allies", "enemies"]
    .flatMap((side) =>
      proposal[side].map(
        (unit, i) =>
          `<tr class="bb-proposed" data-side="${side}" data-key="${esc(unit.key)}" data-fighters="${unit.fighters}">` +
          `<td>${esc(t(`Side.${side}`))}</td><td>${esc(unit.name)}</td>` +
          `<td>${esc(counted("Panel.TokenCount", unit.fighters))}</td>` +
          `<td><input type="text" class="bb-number" inputmode="numeric" autocomplete="off" name="sceneStrength-${side}-${i}" data-enter="sceneConfirm" ` +
          `data-tooltip="${esc(t("Tip.sceneStrength"))}" aria-label="${esc(t("Scene.Strength", { name: unit.name }))}"></td></tr>`,
      ),
    )
    .join("");
  return (
    `<div class="bb-scene-proposal"><p>${esc(t("Scene.Confirm"))}</p>` +
    `<table><thead><tr><th>${esc(t("Panel.Side"))}</th><th>${esc(t("Panel.Name"))}</th>` +
    `<th>${esc(t("Panel.Fighters"))}</th><th>${esc(t("Fields.strength"))}</th></tr></thead><tbody>${rows}</tbody></table>` +
    `<div class="bb-row">${button("sceneConfirm", "Scene.Create", { disabled: ctx.pending, cls: "bb-primary" })}` +
    `${button("sceneCancel", "Scene.Cancel")}</div></div>`
  );
}
