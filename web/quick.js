// "Casualties only": initial and remaining strength of a side and its units, counted by the core.
import { STORAGE_KEYS } from "./config.js";
import { clearErrors, parseValue, showError } from "./forms.js";
import { formatNumber, t, translate } from "./i18n.js";
import { casualtyBar } from "./render.js";
import { loadSaved, save } from "./store.js";

export function setupQuick(core) {
  const form = document.querySelector("#quick-form");
  const rows = document.querySelector("#quick-units");
  const template = document.querySelector("#quick-unit-template");
  const bars = document.querySelector("#quick-bars");
  const shareLine = document.querySelector("#quick-share");
  let lastReply = null;

  function addRow(name = "", fighters = "") {
    const row = template.content.firstElementChild.cloneNode(true);
    row.querySelector('[data-name="name"]').value = name;
    row.querySelector('[data-name="fighters"]').value = fighters;
    translate(row);
    rows.append(row);
    renumber();
    return row;
  }

  function renumber() {
    [...rows.children].forEach((row, i) => {
      for (const input of row.querySelectorAll("[data-name]")) input.name = `units.${i}.${input.dataset.name}`;
    });
  }

  function request() {
    const units = [...rows.children].map((row) => {
      const unit = {};
      for (const input of row.querySelectorAll("[data-name]")) {
        const value = input.dataset.name === "name" ? input.value : parseValue(input.value);
        if (value !== undefined) unit[input.dataset.name] = value;
      }
      return unit;
    });
    const req = { op: "casualties", units };
    for (const name of ["initial", "remaining"]) {
      const value = parseValue(form.elements.namedItem(name).value);
      if (value !== undefined) req[name] = value;
    }
    return req;
  }

  function paint() {
    bars.textContent = "";
    shareLine.textContent = "";
    if (!lastReply) return;
    shareLine.textContent = t("quick.lost_share", { percent: formatNumber(lastReply.lost_share, { percent: true }) });
    for (const unit of lastReply.units) bars.append(casualtyBar(unit));
  }

  async function count() {
    const req = request();
    save(
      {
        initial: form.elements.namedItem("initial").value,
        remaining: form.elements.namedItem("remaining").value,
        units: [...rows.children].map((row) => [
          row.querySelector('[data-name="name"]').value,
          row.querySelector('[data-name="fighters"]').value,
        ]),
      },
      STORAGE_KEYS.quick,
    );
    const reply = await core.request(req);
    clearErrors(form);
    if (!reply.ok) {
      // Every bad field marked (the core finds them all in one check), the first focused; the
      // last count's result goes: it was not for what the form now holds.
      for (const error of [...(reply.error.others || [])].reverse()) showError(form, error);
      showError(form, reply.error);
      lastReply = null;
      paint();
      return;
    }
    lastReply = reply;
    paint();
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    count();
  });
  document.querySelector("#quick-add").addEventListener("click", () => addRow().querySelector("input").focus());
  rows.addEventListener("click", (event) => {
    const button = event.target.closest(".remove-quick-unit");
    if (!button) return;
    button.closest("li").remove();
    renumber();
  });

  const saved = loadSaved(STORAGE_KEYS.quick);
  if (saved) {
    form.elements.namedItem("initial").value = saved.initial ?? "";
    form.elements.namedItem("remaining").value = saved.remaining ?? "";
    for (const [name, fighters] of saved.units || []) addRow(name, fighters);
  }
  if (!rows.children.length) addRow();
  return { repaint: paint };
}
