// The Rules view: the project's rules document in the page's language (rules/<lang>.js, built
// from docs/rules*.md by web/rules_page.py), loaded when the tab is shown.
import { setLang, t } from "./i18n.js";

const loaded = new Map(); // lang -> HTML

async function fragment(lang) {
  if (!loaded.has(lang)) loaded.set(lang, (await import(`./rules/${lang}.js`)).default);
  return loaded.get(lang);
}

/** Paint the rules of the state's language into the Rules tab, if it is shown. */
export async function paintRules(state) {
  const article = document.querySelector("#rules-text");
  if (document.querySelector("#rules").hidden || (article.lang === state.lang && article.childElementCount)) return;
  article.lang = state.lang;
  try {
    article.innerHTML = await fragment(state.lang); // our own build's HTML, escaped there
  } catch {
    article.textContent = t("rules.missing");
  }
}

/** Links between the two documents switch the page's language. */
export function wireRules(store) {
  document.querySelector("#rules-text").addEventListener("click", (event) => {
    const link = event.target.closest("a[data-lang]");
    if (!link) return;
    event.preventDefault();
    setLang(link.dataset.lang);
    store.set({ lang: link.dataset.lang });
  });
  document.querySelector("#tab-rules").addEventListener("click", () => paintRules(store.get()));
}
