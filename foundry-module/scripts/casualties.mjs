/**
 * Casualties onto tokens: apply a unit's job the bridge gave this browser (a transaction: its
 * journal stored first), finish or undo one interrupted, undo an Apply (and tell the bridge, so
 * that its record agrees with the tokens), and post a chat card. The numbers always come from the bridge (the core's view); this file
 * only carries them out through logic/fates.mjs.
 */
import { ID } from "./constants.mjs";
import { cardsAbout, postCard, whisperCards, withdrawCards } from "./chat.mjs";
import { isEmptyPlan, planApply, planUndo, planWrites } from "./logic/fates.mjs";
import { liveMoves } from "./logic/moves.mjs";
import { statusId } from "./conditions.mjs";
import { carryOut, carryOutUndo, checkPlan, describeTokens, resolveTokens } from "./tokens.mjs";
import { counted, esc, t } from "./i18n.mjs";
import { log } from "./log.mjs";
import { unset } from "./generation.mjs";
import { BridgeError } from "../client/bridge-client.mjs";

/** A group token's name: its own name and how many of its fighters still stand. */
export function groupName(name, counts) {
  return t("Token.GroupName", { name, fit: counts.fit, fighters: counts.fighters });
}

const OPTIONS = { flagScope: ID, groupName, unset };

/**
 * Whether players may see a unit's head count (the GM's view lists what is hidden): a token
 * standing for many keeps its own name, for everyone, when they may not.
 */
function headCountShown(connections, battle, unit) {
  const view = connections.client?.states.get(battle)?.view;
  const side = (view?.units ?? []).find((u) => u.id === unit)?.side;
  return !side || !(view?.hidden ?? []).includes(`${side}.fighters`);
}

/** The options of the plans for a unit: the group name shown only where players may see it. */
function optionsFor(connections, battle, unit) {
  const options = { ...OPTIONS, statusIds: { dead: statusId("dead"), unconscious: statusId("unconscious") } };
  return headCountShown(connections, battle, unit) ? options : { ...options, groupName: (name) => name };
}

/** A new journal id: 16 random letters and digits, so that two Apply runs never share one
 * (`crypto.getRandomValues` works on a page served over plain http too). */
function newPlanId() {
  const digits = "abcdefghijklmnopqrstuvwxyz0123456789";
  return [...crypto.getRandomValues(new Uint8Array(16))].map((n) => digits[n % digits.length]).join("");
}

/**
 * Applies a unit's job (the claim's `job`: the order, the tokens still in the battle, their
 * head counts) as a transaction: the plan is made and checked, its journal stored by the bridge
 * (`plan`) before the first token write, then carried out (every record carrying the journal's
 * id), the card posted and the report sent (`applied`), which ends the job. A refusal writes
 * nothing and drops the job (`cancel_apply`), so the unit can be sent again. `connections`:
 * this browser's bridge client and players' eye, read live (wiring.mjs).
 */
export async function applyCasualties(connections, job) {
  const { battle, unit } = job;
  const name = job.name ?? unit;
  const result = { killed: job.killed, wounded: job.wounded, fit: job.fit };
  const { docs, missing } = resolveTokens(job.token_ids);
  if (!docs.length) {
    // Nothing to mark: the job is dropped, so it can be sent again once tokens are linked.
    ui.notifications.warn(t("Notices.no_tokens", { name }));
    await cancelJob(connections, job);
    return { plan: null, changes: 0 };
  }
  const target = { battle, unit, plan: newPlanId() };
  const plan = planApply(describeTokens(docs, job.heads ?? {}), result, target, optionsFor(connections, battle, unit));
  if (!(await checked(connections, job, plan, docs))) return { plan: null, changes: 0 };
  // Stored before anything is written: a tab closed from here on leaves the journal, which any
  // GM's panel finishes or takes back exactly.
  await connections.client.request("plan", { battle, unit, version: job.version, plan: plan.journal });
  return carryOutJob(connections, job, plan, docs, missing);
}

/**
 * Finishes an interrupted Apply: the job's stored journal carried out on the tokens not done
 * yet (never a new choice), then the card and the report as after an Apply run whole.
 */
export async function finishApply(connections, job) {
  const { battle, unit } = job;
  const journal = job.plan;
  const { docs, missing } = resolveTokens(journal.tokens);
  const target = { battle, unit, plan: journal.plan };
  const options = optionsFor(connections, battle, unit);
  const plan = { journal, ...planWrites(describeTokens(docs, job.heads ?? {}), journal, target, options) };
  if (!(await checked(connections, job, plan, docs, false))) return { plan: null, changes: 0 };
  const done = await carryOutJob(connections, job, plan, docs, missing, true);
  ui.notifications.info(t("Job.Finished", { name: job.name ?? unit }));
  return done;
}

/**
 * Takes back an interrupted Apply: exactly what it wrote (the tokens carrying this unit's
 * records, each back to its `before`), then the job is dropped. Returns the tokens put back.
 */
export async function undoInterrupted(connections, job) {
  const restored = await undoApply(job.battle, job.unit, job.plan.tokens);
  await cancelJob(connections, job);
  return restored;
}

/** Checks a plan before anything is written; a refusal (notice) drops the job when asked. */
async function checked(connections, job, plan, docs, drop = true) {
  const problems = checkPlan(plan, docs);
  if (!problems.length) return true;
  const p = problems[0];
  ui.notifications.error(
    t(`ApplyCheck.${p.reason}`, { token: p.token, status: p.status ?? "", unit: job.name ?? job.unit }),
  );
  // Applying: nothing was written, the job is dropped. Finishing: the journal stays, for the
  // GM to set the token right and press Finish again, or Undo.
  if (drop) await cancelJob(connections, job);
  else await connections.client.request("unclaim", { battle: job.battle, unit: job.unit, version: job.version });
  return false;
}

/** Drops the unit's job on the bridge (this browser holds it). */
async function cancelJob(connections, job) {
  await connections.client.request("cancel_apply", { battle: job.battle, unit: job.unit, version: job.version });
}

/** The journal's writes, the card and the report (which ends the job). */
async function carryOutJob(connections, job, plan, docs, missing, finishing = false) {
  const { battle, unit } = job;
  const result = { killed: job.killed, wounded: job.wounded, fit: job.fit };
  const shared = plan.summary.groups.filter((g) => g.tokens);
  for (const group of shared) {
    ui.notifications.info(counted("Shared.Notice", group.fighters, { tokens: tokenNames(group.tokens) }));
  }
  const changes = isEmptyPlan(plan) ? 0 : await carryOut(plan, docs);
  const placed = {
    killed: result.killed - plan.unplaced.killed,
    wounded: result.wounded - plan.unplaced.wounded,
    fit: result.fit - plan.unplaced.fit,
  };
  const note = noteFor(plan, missing);
  const pcs = inPcsFight(connections, battle, unit);
  // The card first: once the bridge has the report, every GM's panel shows the unit applied.
  // One card per journal: a Finish after the card was posted posts none again.
  const about = { battle, unit, kind: "casualties", ...(plan.journal?.plan ? { plan: plan.journal.plan } : {}) };
  const carded = plan.journal?.plan && cardsAbout(about).length > 0;
  if ((changes > 0 || finishing) && !carded) {
    const seen = playersSee(connections, battle, unit);
    await postResultCard({
      name: job.name ?? unit,
      result: seen ?? result,
      plan,
      missing,
      pcs,
      about,
      gmOnly: !seen,
    });
  }
  try {
    await connections.client.request("applied", {
      battle,
      unit,
      version: job.version,
      ...placed,
      token_ids: {
        killed: plan.summary.killed,
        wounded: plan.summary.wounded,
        fit: plan.summary.fit,
      },
      ...(note ? { note } : {}),
    });
  } catch (error) {
    // Another GM browser reported first: the tokens are right either way.
    if (error.code !== "already_applied") throw error;
    log.debug("already reported", error.params);
  }
  log.info(`applied ${battle}/${unit}`, result, `${changes} changes`);
  return { plan, changes };
}

/**
 * The unit's tokens in the PCs' fight (moves whose step the battle has not undone): Apply
 * leaves them to that fight, and its card names them.
 */
export function inPcsFight(connections, battle, unit) {
  const state = connections.client?.states.get(battle);
  return liveMoves(state?.foundry?.detached?.[unit], state?.view).flatMap((move) => move.token_ids);
}

function noteFor(plan, missing) {
  const parts = [];
  const u = plan.unplaced;
  if (u.killed || u.wounded) {
    parts.push(`not on tokens: ${u.killed} killed, ${u.wounded} wounded, ${u.fit} fit`);
  }
  if (missing.length) parts.push(`${missing.length} tokens not found`);
  const already = [...(plan.already?.killed ?? []), ...(plan.already?.wounded ?? [])];
  if (already.length) parts.push(`${already.length} down before Apply, left as they were`);
  for (const g of plan.summary.groups) {
    const who = g.tokens ? `${g.tokens.join(" + ")} (one actor)` : g.id;
    parts.push(`${who}: ${g.killed}/${g.wounded}/${g.fit} of ${g.fighters}`);
  }
  return parts.join("; ").slice(0, 500);
}

/** The names of tokens given by UUID, joined for a sentence. */
function tokenNames(uuids) {
  return uuids.map((uuid) => foundry.utils.fromUuidSync(uuid)?.name ?? uuid).join(", ");
}

/**
 * Puts a unit's tokens back as they were before Apply: every condition Apply changed on their
 * actors (the system's own additions too) and their names. `tokenIds`: every UUID that may
 * carry the record (the unit's list and the report's). A condition changed again since Apply
 * is left as it is, and the GM is told. Returns how many tokens were put back.
 */
export async function undoApply(battle, unit, tokenIds) {
  const { docs } = resolveTokens([...new Set(tokenIds)]);
  const plan = planUndo(describeTokens(docs), { battle, unit }, OPTIONS);
  if (isEmptyPlan(plan)) return 0;
  const { kept, left } = await carryOutUndo(plan, docs);
  for (const { token, status } of kept) ui.notifications.warn(t("Undo.Kept", { token, status }));
  for (const { token, status } of left) ui.notifications.warn(t("Undo.Left", { token, status }));
  await withdrawCards({ battle, unit, kind: "casualties" }, t("Card.Withdrawn"));
  return plan.restored.length;
}

/**
 * Tells the bridge that the unit's report is taken back (after `undoApply`): the bridge forgets
 * it and tells every GM, and the unit can be applied again without `force`. `report` is the
 * bridge's stored report as this browser knows it (none: nothing to take back).
 *
 * Throws the BridgeError of a refusal, except `not_applied` on the unit: the bridge has no
 * report of it (taken back already), so it and the tokens agree.
 */
export async function reportUndone(connections, battle, unit, report) {
  if (!report) return;
  if (!connections.client) throw new BridgeError({ code: "disconnected", message: "not connected" });
  try {
    await connections.client.request("unapplied", { battle, unit, version: report.version });
  } catch (error) {
    if (error.code !== "not_applied" || error.field !== "unit") throw error;
    log.debug("no report to take back", battle, unit);
  }
}

/**
 * The casualties of a unit as a public card may show them: the players' eye's view of the unit
 * when its numbers are not hidden; null when the card must go to the GMs only (the setting says
 * so, no players' eye, or the player view hides the unit's casualties).
 */
function playersSee(connections, battle, unit) {
  if (whisperCards() || !connections.eye) return null;
  const seen = (connections.eye.view(battle)?.units ?? []).find((u) => u.id === unit)?.casualties;
  return seen && [seen.killed, seen.wounded, seen.fit].every((n) => typeof n === "number") ? seen : null;
}

/** The chat card that sums up an Apply (public only with numbers the players may see). */
async function postResultCard({ name, result, plan, missing, pcs = [], about, gmOnly }) {
  const names = (uuids) =>
    uuids
      .map((uuid) => foundry.utils.fromUuidSync(uuid)?.name)
      .filter(Boolean)
      .map(esc)
      .join(", ");
  const rows = [
    ["Killed", result.killed, names(plan.summary.killed)],
    ["Wounded", result.wounded, names(plan.summary.wounded)],
    ["Fit", result.fit, names(plan.summary.fit)],
  ]
    .map(
      ([key, count, who]) =>
        `<li class="bb-${key.toLowerCase()}"><strong>${esc(t(`Fate.${key}`))}: ${count}</strong>` +
        (who ? ` — ${who}` : "") +
        "</li>",
    )
    .join("");
  const groups = plan.summary.groups
    .map((g) =>
      g.tokens
        ? `<li class="bb-shared">${esc(t("Shared.Chat", { ...g, tokens: tokenNames(g.tokens) }))}</li>`
        : `<li>${esc(foundry.utils.fromUuidSync(g.id)?.name ?? g.id)}</li>`,
    )
    .join("");
  const u = plan.unplaced;
  const warnings = [];
  const already = [...(plan.already?.killed ?? []), ...(plan.already?.wounded ?? [])];
  if (already.length) warnings.push(t("Chat.Already", { names: tokenNames(already) }));
  if (pcs.length) warnings.push(t("Chat.InPcsFight", { names: tokenNames(pcs) }));
  if (u.killed || u.wounded) warnings.push(t("Chat.Unplaced", u));
  if (missing.length) warnings.push(counted("Chat.Missing", missing.length));
  return postCard(
    `<h3>${esc(t("Chat.Title", { name }))}</h3><ul>${rows}${groups}</ul>` +
      warnings.map((w) => `<p class="bb-warning">${esc(w)}</p>`).join(""),
    { about, gmOnly },
  );
}
