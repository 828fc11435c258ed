// The page around the battle: the status line, the language buttons, the size lists (tabs.js: the tabs).
import { currentLang, setLang, t, translate } from "./i18n.js";

const html = document.documentElement;

/**
 * The boot's status line (and `<html data-error>` when the core could not load); once the core
 * is ready, "offline" while the page runs without its server (`<html data-offline>`).
 */
export function paintStatus(status, failed, offline = false) {
  const el = document.querySelector("#status");
  const shown = offline && status.key === "status.ready" ? { key: "status.offline", params: {} } : status;
  el.dataset.step = shown.key.split(".")[1];
  el.textContent = t(shown.key, shown.params);
  if (failed) html.dataset.error = "true";
  if (offline) html.dataset.offline = "true";
  else delete html.dataset.offline;
}

/** Every size select, with the multipliers the core gave (kept chosen value). */
export function paintSizes(sizes) {
  for (const select of document.querySelectorAll('select[name="size"]')) {
    const chosen = select.value || "average";
    select.textContent = "";
    for (const size of sizes) {
      const label = size.multiplier === null ? t(`size.${size.name}`) : `${t(`size.${size.name}`)} ×${size.multiplier}`;
      select.append(new Option(label, size.name));
    }
    select.value = chosen;
  }
}

/** The fixed wording of the page in its language, and which language button is pressed. */
export function paintLanguage() {
  translate();
  document.querySelector(".top small.alt").lang = currentLang() === "ru" ? "en" : "ru";
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.setAttribute("aria-pressed", String(button.dataset.lang === currentLang()));
  }
}

export function wireLanguage(store) {
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.addEventListener("click", () => {
      setLang(button.dataset.lang);
      store.set({ lang: currentLang() });
    });
  }
}

/**
 * Keep `--top-height` (style.css) at the sticky header's height: a card scrolled into view stops
 * below it (scroll-padding-top), whatever the header's wrapping at this width and language.
 */
export function watchTopHeight() {
  const top = document.querySelector(".top");
  const bar = document.querySelector("#fight-bar"); // sticky under the header on a phone, fighting
  const keep = () => {
    const header = Math.ceil(top.getBoundingClientRect().height);
    const sticky = getComputedStyle(bar).position === "sticky" ? Math.ceil(bar.getBoundingClientRect().height) : 0;
    html.style.setProperty("--top-height", `${header}px`);
    html.style.setProperty("--sticky-height", `${header + sticky}px`);
  };
  keep();
  if ("ResizeObserver" in window) {
    const watcher = new ResizeObserver(keep);
    watcher.observe(top);
    watcher.observe(bar);
  }
}

/** The two side cards, each from the side template. */
export function buildSides() {
  const template = document.querySelector("#side-template");
  for (const card of document.querySelectorAll(".side")) {
    const side = card.dataset.side;
    card.append(template.content.cloneNode(true));
    const title = card.querySelector(".side-title");
    title.id = `${side}-title`;
    title.querySelector("[data-term]").dataset.term = side;
    for (const form of card.querySelectorAll("form")) form.dataset.side = side;
  }
}
