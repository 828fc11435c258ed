/**
 * A chat card per step of the battle, posted by the active GM's browser: the cards follow the log
 * by version (logic/card-steps.mjs says which card each step gets). The last version carded is
 * kept per battle (card-marks.mjs, a world setting), so a step is carded once, in order, also
 * when a connection was reconnecting at that moment, after a reload, or when another GM becomes
 * the active one: the missing steps come with the state or the `events` a (re)subscribe with
 * `since_version` brings, and are carded then. A card waits until the log holding its version is
 * whole (a long battle's older pages fetched: the client's `states`, never its `loading`).
 *
 * Whispered to the GMs with the GM's numbers when the world setting says so (or without a player
 * token); otherwise public and built only from the players' eye (the player view): a number the
 * player view hides never reaches a public card. Set-up steps are lines on one card for the GMs
 * (players are told nothing of a battle in set-up); the start card lists the units players see.
 */
import { isActiveGM } from "./who.mjs";
import { cardedInChat, cardedVersion, forgetBattlesInSetUp, setCardedVersion } from "./card-marks.mjs";
import { cardContent, cardsAbout, postCard, whisperCards } from "./chat.mjs";
import { ID } from "./constants.mjs";
import { mainEvent, strengthHistory } from "../client/battle-story.mjs";
import { cardKind, entryAt, startVersion } from "./logic/card-steps.mjs";
import { toldToPlayers } from "./logic/shown-battle.mjs";
import { strengthChart } from "./logic/strength-chart.mjs";
import { esc, t } from "./i18n.mjs";
import { postInfluence } from "./influence.mjs";
import { describeLogStep, describeStep, setUpLine, shown, sideUnits } from "./step-words.mjs";
import { log } from "./log.mjs";

/** The card's HTML for a step: its title and lines. */
function stepHtml({ title, lines }) {
  return `<h3>${esc(title)}</h3>` + lines.map((line) => `<p>${esc(line)}</p>`).join("");
}

/** The end card: who won and why, both sides' strength over the rounds, casualties per unit. */
export function endStory(event, entry, view) {
  const step = describeStep(event, entry);
  const chartTitle = esc(t("Card.ChartTitle"));
  const legend = ["allies", "enemies"]
    .map((side) => `<span class="bb-key bb-${side}">${esc(t(`Side.${side}`))}</span>`)
    .join(" ");
  const units = (view?.units ?? [])
    .map((unit) => {
      const c = unit.casualties ?? {};
      return (
        `<li data-side="${esc(unit.side)}"><strong>${esc(unit.name)}</strong>: ` +
        esc(t("Card.UnitCasualties", { killed: shown(c.killed), wounded: shown(c.wounded), fit: shown(c.fit) })) +
        "</li>"
      );
    })
    .join("");
  return (
    stepHtml(step) +
    `<figure class="bb-story">${strengthChart(strengthHistory(view), chartTitle)}<figcaption>${legend}</figcaption></figure>` +
    `<h4>${esc(t("Card.Casualties"))}</h4><ul class="bb-unit-casualties">${units}</ul>`
  );
}

/** The HTML of a card for a log entry, or null when the step gets no card (set-up steps). */
function cardHtml(entry, view) {
  const event = mainEvent(entry);
  if (!event) return null;
  if (event.type === "battle_ended" || event.type === "pcs_won") return endStory(event, entry, view);
  const step = describeLogStep(event, entry, view?.log);
  // The start card says who fights: the units as the card's readers may see them.
  if (event.type === "battle_started") step.lines = [...step.lines, ...sideUnits(view)];
  return stepHtml(step);
}

/**
 * Posts the card of one step. `entry`/`view`: as the card's readers may see them (the GM's own
 * for a whispered card, the player view for a public one); `gmEntry`/`gmView`: the GM's, for
 * an Influence total the player view hides (its reading goes to the GMs only).
 */
export async function postStep({ battle, version, entry, view, gmOnly, gmEntry, gmView }) {
  const event = mainEvent(entry);
  if (!event) return null;
  const about = { battle, version, kind: "step" };
  if (event.type === "influence_rolled") {
    const card = await postInfluence(event, view, { gmOnly, about });
    // A public card whose total the player view hides reads "hidden": the GMs get the reading.
    const gmEvent = (gmEntry?.events ?? []).find((e) => e.type === "influence_rolled");
    if (!gmOnly && gmEvent && (event.total === null || event.total === undefined)) {
      await postInfluence(gmEvent, gmView, { gmOnly: true, about: { ...about, kind: "gm" } });
    }
    return card;
  }
  const html = cardHtml(entry, view);
  return html ? postCard(html, { gmOnly, about }) : null;
}

/** The HTML of a card of several set-up steps (or small changes), one line each. */
function linesHtml(kind, view, lines) {
  const title = t(kind === "setup" ? "SetUp.Title" : "SetUp.Changes", { battle: view?.name ?? "" });
  return stepHtml({ title, lines });
}

/**
 * Posts set-up steps (or small changes) `from`..`to`, held by `seen`, as lines: on the battle's
 * card of such steps when that card holds the step just before, else on a new card. Steps
 * caught up together make one post or one edit.
 */
async function postLines({ battle, from, to, kind, seen, gmOnly }) {
  const view = seen.view;
  const lines = [];
  for (let version = from; version <= to; version++) {
    const entry = entryAt(seen, version);
    if (entry) lines.push(setUpLine(entry, view?.log ?? [], version - 1));
  }
  if (!lines.length) return null;
  const last = cardsAbout({ battle, kind }).at(-1);
  const about = last?.getFlag(ID, "about");
  if (last && about.version === from - 1 && Boolean(last.whisper?.length) === gmOnly) {
    const all = [...(last.getFlag(ID, "lines") ?? []), ...lines];
    return last.update({
      content: cardContent(linesHtml(kind, view, all)),
      [`flags.${ID}.about`]: { ...about, version: to },
      [`flags.${ID}.lines`]: all,
    });
  }
  return postCard(linesHtml(kind, view, lines), {
    gmOnly,
    about: { battle, kind, from, version: to },
    flags: { lines },
  });
}

/**
 * Cards the steps of the battles shown, once each and in order, from the active GM's browser:
 * every state, event or missed events of the GM's connection or of the players' eye may complete
 * a version (wiring.mjs calls `catchUp`).
 */
export class StepCards {
  /** `connections`: this browser's bridge client and players' eye, read live (wiring.mjs). */
  constructor(connections) {
    this.connections = connections;
    this.marks = new Map(); // battle → the last version this browser carded
    this.due = new Set(); // battles to look at again
    this.running = null;
  }

  /** A connection's list of battles (`welcome`, `battles`): the active GM's browser forgets the
   * card record of those back in set-up. */
  told(battles) {
    if (!isActiveGM()) return;
    forgetBattlesInSetUp(battles)?.catch((error) => log.error("card record not cleaned", error));
  }

  /** Cards what is missing for a battle; one battle after another, never two at once. */
  catchUp(battle) {
    this.due.add(battle);
    if (this.running) return this.running;
    this.running = (async () => {
      while (this.due.size) {
        const [next] = this.due;
        this.due.delete(next);
        try {
          await this.cardSteps(next);
        } catch (error) {
          log.error("card failed", error);
        }
      }
      this.running = null;
    })();
    return this.running;
  }

  /**
   * The last version carded: this browser's (after a reload: the chat's cards) or the world's,
   * whichever is later; null: never.
   */
  mark(battle) {
    const own = this.marks.get(battle) ?? cardedInChat(battle);
    const known = Math.max(own ?? -1, cardedVersion(battle) ?? -1);
    return known < 0 ? null : known;
  }

  /**
   * Keeps the last version carded; in the world's record only for a battle players were told of
   * (started): world settings reach the players (card-marks.mjs).
   */
  async remember(battle, version) {
    this.marks.set(battle, version);
    const told = toldToPlayers(this.connections.client?.states.get(battle)?.view?.status);
    if (told && cardedVersion(battle) !== version) await setCardedVersion(battle, version);
  }

  async cardSteps(battle) {
    if (!isActiveGM()) return;
    const gm = this.connections.client?.states.get(battle);
    if (!gm) return;
    const mark = this.mark(battle);
    // A battle never carded gets cards from now on.
    if (mark === null) {
      await this.remember(battle, gm.version);
      return;
    }
    if (mark > gm.version) {
      // Behind the world's record: this browser has not caught up yet (cards wait, never twice),
      // or, when it is in step with the bridge, the battle is not the one carded (the bridge lost
      // data, or a battle of that name was made anew): its cards go on from where it is.
      const client = this.connections.client;
      if (client.connected && !gm.resyncing && !client.loading.has(battle)) await this.remember(battle, gm.version);
      return;
    }
    // Public cards need the players' eye; a refused player token leaves the cards to the GMs.
    const eye = !whisperCards() && this.connections.eye?.client.status.state !== "failed" ? this.connections.eye : null;
    let version = mark + 1;
    while (version <= gm.version) {
      const kind = cardKind(gm, version);
      const gmOnly = kind === "setup" || !eye;
      const seen = gmOnly ? gm : eye.state(battle);
      // Not held whole yet: the players' connection's next state or events bring it.
      if (!seen || seen.version < version) return;
      let to = version;
      if (kind === "step") await this.stepCard({ battle, version, seen, gm, gmOnly });
      else {
        // the lines that follow, held the same way, go on the card together
        while (to < seen.version && to < gm.version && cardKind(gm, to + 1) === kind) to += 1;
        await postLines({ battle, from: version, to, kind, seen, gmOnly });
      }
      await this.remember(battle, to);
      version = to + 1;
    }
  }

  /**
   * A GM's own battle that started is shown to the players from its start: when this world has
   * no record of it (another GM's browser carded its set-up, or none), its cards begin with the
   * start, whichever GM's browser posts them. Called before the world's battle is written.
   */
  async shownFromStart(battle) {
    if (this.marks.has(battle) || cardedVersion(battle) !== null) return;
    const start = startVersion(this.connections.client?.states.get(battle));
    if (start !== null) await setCardedVersion(battle, start - 1);
  }

  /** Posts the card of one step; a version the log does not hold (a hole) gets none. */
  stepCard({ battle, version, seen, gm, gmOnly }) {
    const entry = entryAt(seen, version);
    if (!entry) return null;
    return postStep({
      battle,
      version,
      entry,
      view: seen.view,
      gmOnly,
      gmEntry: entryAt(gm, version),
      gmView: gm.view,
    });
  }
}
