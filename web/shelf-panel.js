// "Battles on this device": the open battle and the kept ones (shelf.js), to open, rename, delete.
import { changed } from "./changed.js";
import { errorMessage, t } from "./i18n.js";
import { reshelve, shelfList, shelved, unshelve } from "./shelf.js";

const $ = (selector) => document.querySelector(selector);
const say = (text) => ($("#shelf-output").textContent = text);
const sayError = (text) => ($("#shelf-error").textContent = text);

/** An element with a class and a text. */
function made(tag, className, text = "") {
  const el = document.createElement(tag);
  el.className = className;
  el.textContent = text;
  return el;
}

function button(kind, item) {
  const el = made("button", `shelf-${kind}${kind === "delete" ? " danger" : ""}`, t(`shelf.${kind}`));
  el.type = "button";
  el.dataset.id = item.id;
  el.setAttribute("aria-label", t(`shelf.${kind}_label`, { name: item.name }));
  return el;
}

function line(item, open) {
  const li = made("li", "shelf-item");
  const when = open ? t("shelf.open_now") : new Date(item.kept).toLocaleString(document.documentElement.lang);
  const about = ` · ${t(`phase.${item.status}`)} · ${t("shelf.version", { count: item.version })} · ${when}`;
  li.append(made("strong", "shelf-name", item.name), made("small", "shelf-about", about));
  if (open) {
    li.classList.add("open");
    li.setAttribute("aria-current", "true");
    return li;
  }
  li.dataset.id = item.id;
  const buttons = made("div", "buttons");
  buttons.append(button("open", item), button("rename", item), button("delete", item));
  li.append(buttons);
  return li;
}

/** The list: the open battle first, then the kept ones, the most recently kept first. */
export function paintShelf(state) {
  const list = $("#shelf");
  const view = state.local.view;
  const open = view && { name: view.name, status: view.status, version: view.version };
  if (changed(list, state.shelf)) {
    list.textContent = "";
    for (const item of state.shelf) list.append(line(item, false));
  }
  // The open battle's line (its version moves with every edit) above the kept ones, as listed.
  const head = list.querySelector(":scope > li.open");
  if (head && !changed(head, open)) return;
  head?.remove();
  if (!open) return;
  const fresh = line(open, true);
  changed(fresh, open);
  list.prepend(fresh);
}

export function wireShelf(store, core, local) {
  const refresh = () => store.set({ shelf: shelfList() });

  async function open(id) {
    const kept = shelved(id);
    const reply = kept ? await core.request({ op: "view", battle: kept.battle }) : null;
    if (!reply?.ok) return sayError(t("shelf.unreadable", { message: reply ? errorMessage(reply.error) : "?" }));
    const left = local.shelveOpen();
    if (left === false) return sayError(t("shelf.full", { name: store.get().local.view.name }));
    unshelve(id);
    store.set({ odds: null, result: null });
    local.adopt(kept.battle, reply.view);
    refresh();
    say(
      left
        ? t("shelf.opened_kept", { name: reply.view.name, kept: left })
        : t("shelf.opened", { name: reply.view.name }),
    );
  }

  async function rename(id) {
    const kept = shelved(id);
    if (!kept) return;
    const name = prompt(t("shelf.rename_prompt"), kept.view.name)?.trim();
    if (!name || name === kept.view.name) return;
    const reply = await core.request({ op: "apply", battle: kept.battle, command: { type: "rename", name } });
    if (!reply.ok) return sayError(errorMessage(reply.error));
    if (!reshelve(id, { battle: reply.battle, view: reply.view })) return sayError(t("shelf.full", { name }));
    refresh();
    say(t("shelf.renamed", { name }));
  }

  function remove(id) {
    const item = shelfList().find((kept) => kept.id === id);
    if (!item || !confirm(t("shelf.confirm_delete", { name: item.name }))) return;
    unshelve(id);
    refresh();
    say(t("shelf.deleted", { name: item.name }));
  }

  $("#shelf").addEventListener("click", (event) => {
    const target = event.target.closest("button[data-id]");
    if (!target) return;
    say("");
    sayError("");
    const id = target.dataset.id;
    if (target.classList.contains("shelf-open")) open(id);
    else if (target.classList.contains("shelf-rename")) rename(id);
    else if (target.classList.contains("shelf-delete")) remove(id);
  });
}
