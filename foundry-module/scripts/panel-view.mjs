/**
 * The panel's HTML, from plain data: the connection, the battles, the shown battle's view and
 * its Foundry data. The last step's result sits on top, where the GM clicked; sections show by
 * phase (set-up, fighting, ended) and collapse; compact mode keeps one line per side and the
 * round's controls. Controls only for a GM; a player sees the player view, read-only.
 */
import { lastStep } from "../client/battle-story.mjs";
import { button, section } from "./panel-controls.mjs";
import { fightSections, roundControls } from "./panel-fight.mjs";
import { newUnitForm, sceneProposal, unitRow } from "./panel-units.mjs";
import { modifiersForm, modifiersLine, setUpFigures } from "./panel-modifiers.mjs";
import { describeLogStep, shown } from "./step-words.mjs";
import { counted, esc, t } from "./i18n.mjs";

const SIDES = ["allies", "enemies"];

/**
 * The light and its words. `through`: a player's panel that follows through a GM's Foundry
 * ({gm}: the active GM's name, null when no GM is online): until connected it says whom it
 * waits for, not only "Connecting…".
 */
function statusLight(status, through) {
  const state = status.state;
  const color = state === "open" ? "green" : state === "connecting" || state === "closed" ? "amber" : "red";
  const waiting = through && (state === "connecting" || state === "closed");
  const text =
    state === "open"
      ? t("Status.open", { role: t(`Role.${status.role}`) })
      : waiting
        ? through.gm
          ? t("Waiting.ThroughGM", { name: through.gm })
          : t("Waiting.NoGM")
        : state === "closed"
          ? t("Status.closed", { seconds: Math.ceil((status.retryIn ?? 0) / 1000) })
          : status.reason === "no_token"
            ? t(game.user.isGM ? "Notices.no_gm_token" : "Notices.no_player_token")
            : t(`Status.${state}`);
  return (
    `<div class="bb-status" data-state="${esc(state)}"${waiting ? ` data-waiting="${through.gm ? "gm" : "no-gm"}"` : ""}>` +
    `<span class="bb-light bb-${color}" aria-hidden="true"></span>` +
    `<span class="bb-status-text">${esc(text)}</span>` +
    (state !== "open" ? button("reconnect", "Panel.Reconnect") : "") +
    "</div>"
  );
}

/** The battles: a GM sees every battle; a player only the one the GM shows to players. */
function battlePicker(ctx) {
  const listed = ctx.isGM ? ctx.battles : ctx.battles.filter((b) => b.name === ctx.shownToPlayers);
  const options = listed
    .map(
      (b) =>
        `<option value="${esc(b.name)}"${b.name === ctx.battle ? " selected" : ""}>` +
        `${esc(b.name)} (${esc(t(`Phase.${b.status}`))})</option>`,
    )
    .join("");
  const create = ctx.isGM
    ? `<input type="text" name="newBattle" placeholder="${esc(t("Panel.NewBattleName"))}" maxlength="64" data-enter="createBattle" ` +
      `data-tooltip="${esc(t("Tip.newBattle"))}" aria-label="${esc(t("Panel.NewBattleName"))}">` +
      button("createBattle", "Panel.CreateBattle")
    : "";
  return (
    `<div class="bb-row bb-battles"><label class="bb-field"><span>${esc(t("Panel.Battle"))}</span> ` +
    `<select name="battle" data-applied data-tooltip="${esc(t(ctx.isGM ? "Tip.battleGm" : "Tip.battle"))}" aria-label="${esc(t("Panel.Battle"))}">` +
    `<option value="">—</option>${options}</select></label>${create}</div>${playersSee(ctx)}`
  );
}

/** For a GM looking at a battle players do not follow yet (in set-up): what they see meanwhile. */
function playersSee(ctx) {
  if (!ctx.isGM || !ctx.battle || ctx.battle === ctx.shownToPlayers) return "";
  const text = ctx.shownToPlayers ? t("Panel.PlayersSee", { battle: ctx.shownToPlayers }) : t("Panel.PlayersSeeNone");
  return `<p class="bb-players-see">${esc(text)}</p>`;
}

function strengthLabel() {
  return `<abbr title="${esc(t("Panel.StrengthMeaning"))}">${esc(t("Panel.Strength"))}</abbr>`;
}

/**
 * One line per side: strength now / at the start (set-up: S0 as the start will fix it, from the
 * units' sum and the modifiers), the modifiers named, a pending bonus, shown to players.
 */
function sideLine(view, side, ctx) {
  const s = view.sides?.[side] ?? {};
  const figures =
    (view.status === "setup"
      ? setUpFigures(s, strengthLabel())
      : `${strengthLabel()} <b>${esc(shown(s.strength))}</b> / ${esc(shown(s.initial))}`) + modifiersLine(s);
  const bonus = s.pending_bonus
    ? ` <span class="bb-bonus" data-tooltip="${esc(t("Tip.bonus"))}">+${esc(s.pending_bonus)}</span>`
    : "";
  const hidden = (view.hidden ?? []).filter((h) => h.startsWith(`${side}.`));
  const eye = ctx.isGM
    ? button("toggleShown", hidden.length ? "Panel.HiddenFromPlayers" : "Panel.ShownToPlayers", {
        tip: "Tip.toggleShown",
        disabled: ctx.pending,
        cls: "bb-eye",
        data: { "data-side": side, "data-shown": hidden.length ? "0" : "1" },
      })
    : "";
  return (
    `<div class="bb-side bb-${side}" data-side="${side}"><span class="bb-side-name">${esc(t(`Side.${side}`))}</span> ` +
    `<span class="bb-strength">${figures}</span>${bonus}${eye}</div>`
  );
}

/** The last step's result (a round, a command, the end...), as the core's events say it. */
function resultLine(view, ctx) {
  const step = lastStep(view);
  if (!step) return "";
  const words = describeLogStep(step.event, step.entry, view.log);
  const own = ctx.lastSent && ctx.lastSent.version === step.index + 1 ? ' data-own="1"' : "";
  return (
    `<div class="bb-result" role="status" aria-live="polite" data-step="${esc(step.event.type)}" data-version="${step.index + 1}"${own}>` +
    `<strong>${esc(words.title)}</strong>` +
    words.lines.map((line) => `<div class="bb-result-line">${esc(line)}</div>`).join("") +
    "</div>"
  );
}

function phaseLine(view) {
  const winner = view.winner ? ` — ${esc(t("Panel.WinnerIs", { side: t(`Side.${view.winner}`) }))}` : "";
  const rounds = view.status !== "setup" ? ` · ${esc(counted("Panel.RoundsPlayed", view.round ?? 0))}` : "";
  return `<div class="bb-phase" data-status="${esc(view.status)}" data-round="${esc(view.round ?? 0)}">${esc(t(`Phase.${view.status}`))}${rounds}${winner}</div>`;
}

function undoRow(view, ctx) {
  return `<div class="bb-row bb-undo">${button("undo", "Panel.Undo", { disabled: ctx.pending || !view.can_undo })}</div>`;
}

/** A GM's sections for the battle's phase. */
function gmSections(view, ctx) {
  const closed = ctx.closed;
  const units = `<ul class="bb-units">${(view.units ?? []).map((u) => unitRow(u, view, ctx)).join("")}</ul>`;
  if (view.status === "setup") {
    return (
      section("units", "Panel.Units", units, { closed }) +
      section("scene", "Scene.Title", sceneProposal(ctx.sceneSides, ctx), { closed }) +
      section("newUnit", "Panel.NewUnit", newUnitForm(ctx), { closed }) +
      section("modifiers", "Panel.Modifiers", modifiersForm(view, ctx), { closed }) +
      `<div class="bb-row">${button("start", "Panel.Start", { disabled: ctx.pending, cls: "bb-primary" })}</div>`
    );
  }
  return section("units", "Panel.Units", units, { closed }) + fightSections(view, ctx);
}

/**
 * The whole panel body. `ctx`: {status, relayedThrough, isGM, gmAsPlayer, applierLine, battles,
 * battle, shownToPlayers, view, foundry, tables, tableId, pending, compact, closed, sceneSides,
 * lastSent}.
 */
export function panelHtml(ctx) {
  const compact = Boolean(ctx.compact);
  const top =
    `<div class="bb-top">${statusLight(ctx.status, ctx.relayedThrough)}` +
    button("toggleCompact", compact ? "Panel.Full" : "Panel.Compact", { cls: "bb-compact-toggle" }) +
    "</div>";
  const parts = [top];
  if (!compact) parts.push(battlePicker(ctx));
  if (ctx.gmAsPlayer) parts.push(`<p class="bb-readonly">${esc(t("Panel.GmAsPlayer"))}</p>`);
  else if (!ctx.isGM) parts.push(`<p class="bb-readonly">${esc(t("Panel.ReadOnly"))}</p>`);
  if (ctx.applierLine && !compact) parts.push(`<p class="bb-not-active">${esc(ctx.applierLine)}</p>`);
  const view = ctx.view;
  if (view) {
    parts.push(phaseLine(view), resultLine(view, ctx));
    parts.push(`<div class="bb-sides">${SIDES.map((s) => sideLine(view, s, ctx)).join("")}</div>`);
    if (ctx.isGM) parts.push(roundControls(view, ctx));
    if (!compact) {
      if (ctx.isGM) parts.push(gmSections(view, ctx), undoRow(view, ctx));
      else parts.push(`<ul class="bb-units">${(view.units ?? []).map((u) => unitRow(u, view, ctx)).join("")}</ul>`);
    }
  } else if (ctx.battle) {
    parts.push(`<p class="bb-loading">${esc(t("Panel.Loading"))}</p>`);
  }
  return `<div class="bb-panel${compact ? " bb-compact" : ""}"${ctx.pending ? ' aria-busy="true"' : ""}>${parts.join("")}</div>`;
}
