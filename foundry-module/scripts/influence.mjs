/**
 * The Influence roll: the core rolls d100 and adds its modifier (through the bridge); the
 * total is then read on the Foundry RollTable the GM picked, or on the core's own table.
 */
import { SETTINGS } from "./constants.mjs";
import { postCard } from "./chat.mjs";
import { esc, t } from "./i18n.mjs";
import { setting } from "./settings.mjs";

/** The last `influence_rolled` event in a battle view's log, or null. */
export function lastInfluence(view) {
  const log = view?.log ?? [];
  for (let i = log.length - 1; i >= 0; i--) {
    const event = (log[i].events ?? []).find((e) => e.type === "influence_rolled");
    if (event) return event;
  }
  return null;
}

/** The GM's RollTable for influence, if one is set and still exists. */
export function chosenTable() {
  const id = setting(SETTINGS.INFLUENCE_TABLE);
  return id ? (game.tables?.get(id) ?? null) : null;
}

/**
 * The rows of a RollTable for a total, drawn before or not: `RollTable#getResultsForRoll`
 * skips results already drawn (a table without replacement), but the Influence total names
 * its row every time.
 */
export function rowsFor(table, total) {
  return table.results.filter((r) => r.range[0] <= total && total <= r.range[1]);
}

/** A row as HTML: its name (text, escaped) and its description (HTML, enriched as Foundry
 * shows it: links, inline rolls). */
async function rowHtml(result) {
  const TextEditor = foundry.applications.ux.TextEditor.implementation;
  const description = result.description
    ? await TextEditor.enrichHTML(result.description, { secrets: false })
    : "";
  const name = result.name ? `<p><strong>${esc(result.name)}</strong></p>` : "";
  return name + (description ? `<div class="bb-description">${description}</div>` : "");
}

/** The text of the core's own band for a total (the core's event carries it; else by range). */
export function coreBandText(event, table) {
  const lang = game.i18n.lang === "ru" ? "ru" : "en";
  const pick = (text) => (typeof text === "string" ? text : (text?.[lang] ?? text?.en ?? ""));
  if (event.band) return pick(event.band.effect ?? event.band.text);
  const total = event.total;
  const row = (table?.bands ?? []).find(
    (r) => (r.min ?? -Infinity) <= total && total <= (r.max ?? Infinity),
  );
  return row ? pick(row.effect ?? row.text) : "";
}

/**
 * Posts the influence card: roll, modifier, total and what it means on the chosen table.
 * `event` is read on the table; `shown` gives the numbers the card's readers may see (the player
 * view's event for a public card, where a hidden total reads "?").
 */
export async function postInfluence(event, view, { shown = event, gmOnly, about } = {}) {
  const total = event.total;
  const table = chosenTable();
  let meaning;
  let source = table?.name ?? t("Influence.DefaultTable");
  if (total === null || total === undefined) {
    // The player view hides the total (it would give a strength away): so is its reading.
    meaning = `<p><em>${esc(t("Influence.Hidden"))}</em></p>`;
  } else if (table) {
    meaning = (await Promise.all(rowsFor(table, total).map(rowHtml))).join("");
  } else {
    const text = coreBandText(event, view?.influence_table);
    meaning = text ? `<p><strong>${esc(text)}</strong></p>` : "";
  }
  const side = t(`Side.${event.side}`);
  const number = (value) => (value === null || value === undefined ? "?" : value);
  return postCard(
    `<h3>${esc(t("Influence.Title", { side }))}</h3>` +
      `<p>${esc(t("Influence.Roll", { roll: number(shown.roll), modifier: number(shown.modifier), total: number(shown.total) }))}</p>` +
      (meaning || `<p><strong>${esc(t("Influence.NoRow"))}</strong></p>`) +
      `<p class="bb-source">${esc(source)}</p>`,
    { gmOnly, about },
  );
}

/**
 * Imports the core's default Influence table as a Foundry RollTable (totals below the first band
 * and above the last fall into the open-ended first and last rows).
 */
export async function importDefaultTable(coreTable) {
  const lang = game.i18n.lang === "ru" ? "ru" : "en";
  const pick = (text) => (typeof text === "string" ? text : (text?.[lang] ?? text?.en ?? ""));
  const rows = coreTable?.bands ?? [];
  if (!rows.length) throw new Error(t("Influence.NoTable"));
  const results = rows.map((row) => {
    const text = pick(row.effect ?? row.text);
    return {
      type: "text",
      name: text,
      description: `<p>${esc(text)}</p>`,
      range: [row.min ?? -1000, row.max ?? 1000],
      weight: 1,
    };
  });
  return RollTable.create({
    name: pick(coreTable.name) || t("Influence.TableName"),
    formula: "1d100",
    results,
  });
}
