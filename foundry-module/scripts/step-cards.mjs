/**
 * A chat card per step of the battle (a round, a leader's command, the end, Influence...), posted
 * once by the active GM. Whispered to the GMs with the GM's numbers when the world setting says
 * so; otherwise public and built only from the players' eye (the player view): a number the
 * player view hides never reaches a public card.
 */
import { isActiveGM } from "./app.mjs";
import { postCard, whisperCards } from "./chat.mjs";
import { mainEvent, strengthHistory } from "./logic/battle-story.mjs";
import { strengthChart } from "./logic/strength-chart.mjs";
import { esc, t } from "./i18n.mjs";
import { postInfluence } from "./influence.mjs";
import { describeLogStep, describeStep, shown } from "./step-words.mjs";
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
  return stepHtml(describeLogStep(event, entry, view?.log));
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

/**
 * Wires the cards: the GM's connection posts whispered cards, the players' eye public ones. Only
 * the active GM posts, each version once.
 */
export class StepCards {
  constructor(app) {
    this.app = app;
    this.posted = new Set();
  }

  /** A message of the GM's own connection. */
  fromGm(message) {
    if (message.type !== "event" || (!whisperCards() && this.app.eye)) return;
    const view = this.app.client?.states.get(message.battle)?.view;
    this.post(message, view, true);
  }

  /** A message of the players' eye. */
  fromPlayers(message) {
    if (message.type !== "event" || whisperCards()) return;
    const view = this.app.eye?.view(message.battle);
    const gmState = this.app.client?.states.get(message.battle);
    const gmView = gmState?.view;
    // The log's last entry is the state's version (a long battle's log may start later).
    const gmLog = gmView?.log ?? [];
    const gmEntry = gmLog[gmLog.length - 1 - ((gmState?.version ?? 0) - message.version)];
    this.post(message, view, false, gmEntry, gmView);
  }

  post(message, view, gmOnly, gmEntry, gmView) {
    if (!isActiveGM()) return;
    const key = `${message.battle}/${message.version}`;
    if (this.posted.has(key)) return;
    this.posted.add(key);
    const entry = { command: message.command, events: message.events };
    postStep({ battle: message.battle, version: message.version, entry, view, gmOnly, gmEntry, gmView }).catch(
      (error) => log.error("card failed", error),
    );
  }
}
