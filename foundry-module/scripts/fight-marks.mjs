/**
 * Which effects of an Influence roll are done, shared with the GM's page through the bridge
 * (`mark_effects` / `effects_marked`, docs/protocol.md "Influence effects done"): *Apply to the
 * fight* leaves out what is marked done already and marks what it applied (with the dice it
 * rolled and whom they hit), its Undo takes its marks back, and the Influence card lists, for
 * the GMs, what was done (on the page or by Foundry). A card knows its roll by its `about`
 * flag: the battle and the log entry's version (step-cards.mjs); a card without one (posted by
 * hand) shares nothing.
 */
import { ID } from "./constants.mjs";
import { cardsAbout } from "./chat.mjs";
import { esc, t } from "./i18n.mjs";

/** The Influence roll a card is about: {battle, version}, or null. */
export function rollOf(message) {
  const about = message?.getFlag?.(ID, "about");
  if (!about?.battle || !Number.isInteger(about.version)) return null;
  return { battle: about.battle, version: about.version };
}

/**
 * The marks' front of this browser's bridge connection (wiring.mjs connectionsOf):
 * `of(roll)`: {effect index: {by, result?}} as the bridge told; `send(roll, marks)`: the
 * bridge's ack (a refusal rejects with its BridgeError).
 */
export function marksOf(connections) {
  return {
    of: (roll) => (roll ? (connections.client?.states.get(roll.battle)?.foundry?.marks?.[roll.version] ?? {}) : {}),
    send: (roll, marks) => {
      const client = connections.client;
      if (!client) return Promise.reject(new Error(t("Notices.not_connected")));
      return client.request("mark_effects", { battle: roll.battle, version: roll.version, marks });
    },
  };
}

/** The GMs' list on an Influence card of the effects done (by Foundry, on the page). */
export function marksHtml(marks, effects) {
  const done = Object.entries(marks ?? {}).filter(([index]) => effects?.[Number(index)]);
  if (!done.length) return "";
  const items = done.map(([index, mark]) => {
    const what = t(`Fight.Kind.${effects[Number(index)].kind}`);
    const key = mark.by === "foundry" ? "Fight.DoneInFoundry" : "Fight.DoneOnPage";
    const result = mark.result ? `: ${mark.result}` : "";
    return `<li data-effect="${esc(index)}" data-by="${esc(mark.by)}">${esc(t(key, { what }))}${esc(result)}</li>`;
  });
  return `<ul class="bb-fight-marks">${items.join("")}</ul>`;
}

/** The roll's cards drawn again (ChatLog#updateMessage, api v13/v14) after its marks changed. */
export function marksChanged({ battle, version }) {
  for (const message of cardsAbout({ battle, version })) {
    if (message.getFlag(ID, "influence")) ui.chat?.updateMessage?.(message);
  }
}
