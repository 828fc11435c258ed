/**
 * The Influence roll: the core rolls d100 and adds its modifier (through the bridge); the
 * total is then read on the Foundry RollTable the GM picked, or on the core's own table.
 */
import { ID, SETTINGS } from "./constants.mjs";
import { postCard } from "./chat.mjs";
import { esc, t } from "./i18n.mjs";
import { fill } from "./logic/influence-words.mjs";
import { setting } from "./settings.mjs";
import { fightHtml } from "./fight-apply.mjs";
import { readEffects } from "./logic/fight-effects.mjs";

/** The language tables are read in: the user's, when the core has words for it. */
function language() {
  return game.i18n.lang === "ru" ? "ru" : "en";
}

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

/** A text without its HTML tags, spaces squeezed (to compare a row's name and description). */
function plain(html) {
  return String(html ?? "")
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * A row's name read for the side that rolled (its placeholders filled, as the core reads its
 * own table: the imported default table holds the core's texts as written).
 */
export function rowText(result, side) {
  return fill(result.name ?? "", language(), side);
}

/** The reading of a total on a RollTable for the side that rolled, as text ("" when no row). */
export function tableReading(table, total, side) {
  if (total === null || total === undefined) return "";
  return rowsFor(table, total)
    .map((row) => rowText(row, side) || plain(fill(row.description, language(), side)))
    .filter(Boolean)
    .join(" · ");
}

/**
 * A row as HTML for a roll by `side`: its name (text, escaped) and its description (HTML,
 * enriched as Foundry shows it: links, inline rolls), both with the placeholders filled; a
 * description that only repeats the name (the imported default table's rows) is shown once.
 */
async function rowHtml(result, side) {
  const TextEditor = foundry.applications.ux.TextEditor.implementation;
  const filled = result.description ? fill(result.description, language(), side, esc) : "";
  const description = filled ? await TextEditor.enrichHTML(filled, { secrets: false }) : "";
  const text = rowText(result, side);
  const name = text && plain(filled) !== plain(esc(text)) ? `<p><strong>${esc(text)}</strong></p>` : "";
  return name + (description ? `<div class="bb-description">${description}</div>` : "");
}

/** The text of the core's own band for a total (the core's event carries it; else by range). */
export function coreBandText(event, table) {
  const lang = language();
  const pick = (text) => (typeof text === "string" ? text : (text?.[lang] ?? text?.en ?? ""));
  if (event.band) return pick(event.band.effect ?? event.band.text);
  const total = event.total;
  const row = (table?.bands ?? []).find((r) => (r.min ?? -Infinity) <= total && total <= (r.max ?? Infinity));
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
  // The effects as data (null: the row is text only, applied by hand): the core's band, or the
  // RollTable rows' own (an imported default table keeps them in the rows' flags).
  let effects = null;
  let fight = "";
  if (total === null || total === undefined) {
    // The player view hides the total (it would give a strength away): so is its reading.
    meaning = `<p><em>${esc(t("Influence.Hidden"))}</em></p>`;
  } else if (table) {
    const rows = rowsFor(table, total);
    meaning = (await Promise.all(rows.map((row) => rowHtml(row, event.side)))).join("");
    const written = rows.map((row) => row.getFlag?.(ID, "effects") ?? row.flags?.[ID]?.effects);
    if (rows.length && written.every(Array.isArray)) effects = readEffects(written.flat(), event.side);
    fight = fightHtml(effects);
  } else {
    const text = coreBandText(event, view?.influence_table);
    meaning = text ? `<p><strong>${esc(text)}</strong></p>` : "";
    effects = Array.isArray(event.band?.effects) ? event.band.effects : null;
    if (event.band) fight = fightHtml(effects);
  }
  const side = t(`Side.${event.side}`);
  const number = (value) => (value === null || value === undefined ? "?" : value);
  return postCard(
    `<h3>${esc(t("Influence.Title", { side }))}</h3>` +
      `<p>${esc(t("Influence.Roll", { roll: number(shown.roll), modifier: number(shown.modifier), total: number(shown.total) }))}</p>` +
      (meaning || `<p><strong>${esc(t("Influence.NoRow"))}</strong></p>`) +
      `<p class="bb-source">${esc(source)}</p>` +
      fight,
    { gmOnly, about, flags: effects ? { influence: { side: event.side, total, effects } } : {} },
  );
}

/**
 * Imports the core's default Influence table as a Foundry RollTable (totals below the first band
 * and above the last fall into the open-ended first and last rows).
 */
export async function importDefaultTable(coreTable) {
  const lang = language();
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
      // The row's effects as data, as written (relative to the side that rolled).
      ...(Array.isArray(row.effects) ? { flags: { [ID]: { effects: row.effects } } } : {}),
    };
  });
  return RollTable.create({
    name: pick(coreTable.name) || t("Influence.TableName"),
    formula: "1d100",
    results,
  });
}
