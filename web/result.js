// The result card by the controls: what the last action did, in large type, announced to screen
// readers (each card is a role="status" region), with its working behind "why?".
import { t, term } from "./i18n.js";
import { describeEntry } from "./log-text.js";
import { shownView } from "./state.js";
import { whyDetails } from "./working.js";
import { decidedBy, signedSL, slText } from "./client/battle-story.mjs";

const SIDES = ["allies", "enemies"];
const shown = (n) => (n === null || n === undefined ? "?" : String(n));

/** What an entry did, in a few words: "Round 3", else its log line. */
function shortly(entry, view) {
  const event = entry.events[0];
  if (event?.type === "round_resolved") return `${term("round")} ${event.round}`;
  if (event?.type === "leader_commanded") return t("cmd.leader_command", { side: term(event.side).toLowerCase() });
  return describeEntry(entry, view)[0];
}

/** "Undone: Round 3 — allies back to 23": what Undo took back and the strengths it gave back. */
function undoneLine(event, before, view) {
  const back = SIDES.filter((s) => before && before.sides[s].strength !== view.sides[s].strength).map((s) =>
    t("result.back_to", { side: term(s).toLowerCase(), strength: shown(view.sides[s].strength) }),
  );
  const what = view.log[event.entry] ? shortly(view.log[event.entry], view) : `#${event.entry + 1}`;
  return [back.length ? t("result.undone_back", { what, back: back.join(", ") }) : t("result.undone", { what })];
}

/** The headline lines of one event (the log's words where the card has nothing better). */
function headlines(event, entry, view, before) {
  if (event.type === "undone") return undoneLine(event, before, view);
  if (event.type === "round_resolved") {
    const lines = [];
    if (event.mode === "lost") lines.push(t("result.round_lost", { round: event.round }));
    else if (event.winner)
      lines.push(t("result.round_won", { round: event.round, side: term(event.winner).toLowerCase() }));
    else lines.push(t("result.round_tie", { round: event.round }));
    // +0 and −0 from each side's result, and why the round went so (as the core decided it)
    if (event.sl) lines.push(`${t("result.sl")}: ${SIDES.map((s) => `${term(s)} ${signedSL(event, s)}`).join(" · ")}`);
    if (decidedBy(event)) lines.push(t(`result.decided_by.${decidedBy(event)}`));
    for (const side of SIDES) {
      if (event.lost?.[side]) lines.push(t("result.loses", { side: term(side), lost: shown(event.lost[side]) }));
    }
    return lines;
  }
  if (event.type === "leader_commanded") {
    const params = {
      side: term(event.side),
      bonus: shown(event.bonus),
      next: shown(event.strength_for_next_test),
      sl: slText(event.sl, event.success),
    };
    // a hidden side's test: not even whether it passed (the player view blanks it)
    if (event.success === null || event.success === undefined) return [t("result.leader_hidden", params)];
    // A failure typed in without its SL has none: "the Leadership test failed, no bonus".
    const failed = event.sl === undefined ? "result.leader_failed_no_sl" : "result.leader_failed";
    return [t(event.success ? "result.leader_ok" : failed, params)];
  }
  if (event.type === "battle_ended") {
    const who = t(`winner.${event.winner || "none"}`);
    return [`${who} (${t(`reason.${event.reason}`)})`];
  }
  return describeEntry({ ...entry, events: [event] }, view);
}

/** "Strength: Allies 30 → 30 · Enemies 26 → 18", when a strength changed. */
function strengthLine(before, view) {
  const pairs = SIDES.map((s) => [s, before?.sides[s].strength, view.sides[s].strength]);
  if (!before || before.status === "setup" || pairs.every(([, a, b]) => a === b)) return null;
  return `${t("result.strength")}: ${pairs.map(([s, a, b]) => `${term(s)} ${shown(a)} → ${shown(b)}`).join(" · ")}`;
}

function cardFor(result, view) {
  // The start's result where the fight goes on: the round's card, under the round's controls.
  if (result.form === "start-form" && view.status === "fighting") return document.getElementById("round-result");
  const form = document.getElementById(result.form);
  return form?.closest("section")?.querySelector(".result-card") ?? null;
}

let inSight = { result: null, why: false }; // the result last brought into sight, and how whole

/** Keep a new result (and its "why?" when it comes) where the GM looks, scrolling as little as possible. */
function bringIntoSight(card, result, why) {
  if (inSight.result === result && (inSight.why || !why)) return;
  const again = inSight.result === result; // its "why?" came: only if the GM still looks at it
  inSight = { result, why };
  // After every part of this update is painted (the chart above may have grown meanwhile).
  requestAnimationFrame(() => {
    const box = card.getBoundingClientRect();
    if (again && (box.bottom <= 0 || box.top >= innerHeight)) return; // the GM went elsewhere
    card.scrollIntoView({ block: "nearest" });
  });
}

/**
 * A panel shown out of its phases only for its result ("Round 3" after the round that ended the
 * battle) folds away again once its card is emptied: no card is left saying nothing.
 */
function foldAway(panel, card, view) {
  const phases = panel?.dataset.phaseOnly?.split(" ");
  if (!phases || !view || phases.includes(view.status) || panel.contains(card)) return;
  panel.hidden = true;
}

/** A player's card: the last entry of the player's view, shown in the summary's card. */
function playerResult(view) {
  if (!view || !view.log.length) return null;
  return { command: view.log.at(-1).command, form: "undo-form", entry: view.log.length - 1, before: null };
}

let cardPainted = null; // the card last painted: {card, result, lang, steps}

/** Paint the last action's result into the card by its form (and empty the other cards). */
export function paintResult(state) {
  const view = shownView(state);
  const { working } = state;
  // A player's page acts on nothing: its card is the battle's last step, as the player sees it.
  const player = state.mode === "live" && state.live.role === "player";
  const result = player ? playerResult(view) : state.result;
  const card = result && view ? cardFor(result, view) : null;
  for (const other of document.querySelectorAll(".result-card")) {
    if (other === card || (other.hidden && !other.firstChild)) continue;
    other.textContent = "";
    other.hidden = true;
    if (cardPainted?.card === other) cardPainted = null;
    foldAway(other.closest("section"), card, view);
  }
  if (!card) return;
  const entry = view.log[result.entry];
  if (!entry) return;
  const panel = card.closest("section");
  panel.hidden = false; // a round that ends the battle still shows its result where it was asked
  card.hidden = false;
  const why = working?.view === view && working.entry === result.entry && working.steps.length > 0;
  const lang = document.documentElement.lang;
  // The card tells what its action did: a newer view (the next edit's, a moment before its own
  // result comes; another GM's, live) leaves it as it was painted, unless its working comes.
  const same = cardPainted?.card === card && cardPainted.result === result && cardPainted.lang === lang;
  if (!same || (why && cardPainted.steps !== working.steps)) {
    paintCard(card, cardLines(result, entry, view), strengthLine(result.before, view), why ? working.steps : null);
    cardPainted = { card, result, lang, steps: why ? working.steps : null };
  }
  if (!player) bringIntoSight(card, result, why);
}

/** The headlines of a result's entry, and what Start saved first. */
function cardLines(result, entry, view) {
  const lines = entry.events.flatMap((event) => headlines(event, entry, view, result.before));
  if (result.redone && lines.length) lines[0] = t("result.redone", { what: lines[0] });
  // Start saved what was typed into the set-up's forms first: said under the start's line.
  for (const index of result.saved || []) {
    if (view.log[index]) lines.push(t("result.saved_first", { what: describeEntry(view.log[index], view)[0] }));
  }
  return lines;
}

/** A result card's lines, its strength line and its "why?" (when its working has come). */
function paintCard(card, lines, strength, steps) {
  card.textContent = "";
  for (const line of lines) {
    const p = document.createElement("p");
    p.className = "result-line";
    p.textContent = line;
    card.append(p);
  }
  if (strength) {
    const p = document.createElement("p");
    p.className = "result-line strength";
    p.dataset.bind = "strength-change";
    p.textContent = strength;
    card.append(p);
  }
  if (steps) card.append(whyDetails(steps, t, term));
}
