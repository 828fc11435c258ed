// The battles kept on this device besides the open one: an index of what they are (name, phase,
// version, when kept) and each battle in its own localStorage key, so that saving the open battle
// after every command never rewrites the others.
import { STORAGE_KEYS } from "./config.js";
import { loadSaved, save } from "./store.js";

const itemKey = (id) => `${STORAGE_KEYS.shelf}.${id}`;

/** The kept battles, the most recently kept first: [{id, name, status, round, version, kept}]. */
export function shelfList() {
  const list = loadSaved(STORAGE_KEYS.shelf);
  return Array.isArray(list) ? list : [];
}

function writeList(list) {
  return save(list, STORAGE_KEYS.shelf);
}

const entry = (id, view) => ({
  id,
  name: view.name,
  status: view.status,
  round: view.round,
  version: view.version,
  kept: Date.now(),
});

/** The id of a kept battle with exactly this battle's log and name, if one is kept. */
function keptAlready(battle) {
  const text = JSON.stringify(battle);
  return shelfList().find((item) => JSON.stringify(shelved(item.id)?.battle) === text)?.id ?? null;
}

/**
 * Keep a battle ({battle, view}) on the shelf, once (the same battle kept again is only moved to
 * the top); its id, or null when the browser's storage is full.
 */
export function shelve(kept) {
  const already = keptAlready(kept.battle);
  if (already) {
    const list = shelfList();
    const item = list.find((it) => it.id === already);
    writeList([{ ...item, kept: Date.now() }, ...list.filter((it) => it.id !== already)]);
    return already;
  }
  const id = `${Date.now().toString(36)}-${crypto.getRandomValues(new Uint32Array(1))[0].toString(36)}`;
  if (!save(kept, itemKey(id))) return null;
  if (writeList([entry(id, kept.view), ...shelfList()])) return id;
  localStorage.removeItem(itemKey(id));
  return null;
}

/** A kept battle ({battle, view}), or null. */
export const shelved = (id) => loadSaved(itemKey(id));

/** Forget the kept copy of a battle now open (a shared battle listed earlier): listed once. */
export function unshelveSame(battle) {
  const id = keptAlready(battle);
  if (id) unshelve(id);
}

/** Forget a kept battle. */
export function unshelve(id) {
  writeList(shelfList().filter((item) => item.id !== id));
  try {
    localStorage.removeItem(itemKey(id));
  } catch {
    /* private mode: nothing was kept */
  }
}

/** Put a changed battle (a new name) back in its place; false when storage is full. */
export function reshelve(id, kept) {
  if (!save(kept, itemKey(id))) return false;
  return writeList(shelfList().map((item) => (item.id === id ? { ...entry(id, kept.view), kept: item.kept } : item)));
}

/** The "previous battle" of earlier versions of the page goes on the shelf (once). */
export function shelvePrevious() {
  const previous = loadSaved(STORAGE_KEYS.previous);
  if (!previous?.battle || !previous.view) return;
  if (shelve(previous)) localStorage.removeItem(STORAGE_KEYS.previous);
}
