// The Influence table as the side that rolls reads it: a table's effects are written with
// placeholders ({rolling_one}, {other}…) whose words the core gives per language and side
// (`influence_table`'s `placeholders`, asked once); the side is the one chosen in "Roll for",
// which starts at the winner once the battle has one.
import { changed } from "./changed.js";
import { t, term } from "./i18n.js";
import { shownView } from "./state.js";

const PLACEHOLDER = /\{([^{}]*)\}/g;

export const pick = (texts) =>
  texts ? (texts[document.documentElement.lang] ?? texts.en ?? Object.values(texts)[0]) : "";
export const bandRange = (band) =>
  band.min === null ? `≤ ${band.max}` : band.max === null ? `≥ ${band.min}` : `${band.min}–${band.max}`;

/** A table's text with its placeholders in words for a roll by `side` ({Rolling}: capitalised). */
export function fillFor(text, words, side) {
  return text.replace(PLACEHOLDER, (whole, name) => {
    const filled = words?.[name.charAt(0).toLowerCase() + name.slice(1)]?.[side];
    if (!filled) return whole;
    const capital = name.charAt(0) !== name.charAt(0).toLowerCase();
    return capital ? filled.charAt(0).toUpperCase() + filled.slice(1) : filled;
  });
}

function paintTable(state) {
  const wrap = document.querySelector("#influence-table .table-wrap");
  const table = shownView(state)?.influence_table;
  const side = state.influenceSide;
  const words = state.placeholders?.[document.documentElement.lang];
  if (!changed(wrap, table, side, Boolean(words))) return; // a reply with the same table: kept
  wrap.textContent = "";
  if (!table) return;
  const el = document.createElement("table");
  const caption = document.createElement("caption");
  caption.textContent = `${pick(table.name)} — ${t("influence.table_for", { side: term(side).toLowerCase() })}`;
  el.append(caption);
  for (const band of table.bands) {
    const row = el.insertRow();
    row.insertCell().textContent = bandRange(band);
    row.insertCell().textContent = fillFor(pick(band.effect), words, side);
  }
  wrap.append(el);
}

/** "Roll for" and the table follow each other; both start at the winner of an ended battle. */
export function wireInfluenceTable(store, core) {
  const form = document.querySelector("#influence-form");
  const radios = [...form.querySelectorAll('input[name="side"]')];
  form.addEventListener("change", (event) => {
    if (event.target.name !== "side") return;
    form.dataset.chosen = "true"; // the GM's choice: kept
    store.set({ influenceSide: event.target.value });
  });
  store.watch(
    (s) => [shownView(s)?.status, shownView(s)?.winner],
    (s) => {
      const view = shownView(s);
      if (!view || form.dataset.chosen) return;
      const side = view.status === "ended" && view.winner ? view.winner : "allies";
      for (const radio of radios) radio.checked = radio.value === side;
      if (s.influenceSide !== side) store.set({ influenceSide: side });
    },
  );
  store.watch((s) => [shownView(s)?.influence_table, s.influenceSide, s.placeholders, s.lang], paintTable);
  store.watch(
    (s) => [s.ready],
    async (s) => {
      if (!s.ready || s.placeholders) return;
      const reply = await core.request({ op: "influence_table" });
      if (reply.ok) store.set({ placeholders: reply.placeholders });
    },
  );
}
