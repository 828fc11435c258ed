/**
 * Chat cards of the module: spoken as "Background Battle". A card is whispered to the GMs when
 * it carries the GM's numbers (or the world setting says so); a public card is built only from
 * the player view (see step-cards.mjs). Cards carry a flag saying what they are about, so that a
 * card can be found again and withdrawn (Undo apply).
 */
import { ID, SETTINGS } from "./constants.mjs";
import { esc, t } from "./i18n.mjs";
import { setting } from "./settings.mjs";

/** Whether cards go to the GMs only (the world setting). */
export function whisperCards() {
  return Boolean(setting(SETTINGS.WHISPER));
}

/** A card's whole content, from its (already escaped) HTML. */
export function cardContent(html) {
  return `<div class="background-battle-card">${html}</div>`;
}

/**
 * Posts a card with the given (already escaped) HTML. `about`: what it is about (a flag,
 * e.g. {battle, unit, kind}); `gmOnly`: whisper it to the GMs whatever the setting; `flags`:
 * more of the module's flags (e.g. the lines of a card that grows).
 */
export function postCard(content, { about = null, gmOnly = whisperCards(), flags = {} } = {}) {
  const data = { content: cardContent(content), speaker: { alias: t("Title") } };
  if (gmOnly) data.whisper = ChatMessage.getWhisperRecipients("GM").map((user) => user.id ?? user);
  if (about || Object.keys(flags).length) data.flags = { [ID]: { ...flags, ...(about ? { about } : {}) } };
  return ChatMessage.create(data);
}

/** The module's cards about something ({battle, unit, kind}), newest last. */
export function cardsAbout(about) {
  const matches = (message) => {
    const flag = message.getFlag?.(ID, "about");
    return flag && Object.entries(about).every(([key, value]) => flag[key] === value);
  };
  return (game.messages?.contents ?? []).filter(matches);
}

/** Replaces earlier cards by a note saying why they were withdrawn (e.g. after Undo apply). */
export async function withdrawCards(about, why) {
  for (const message of cardsAbout(about)) {
    if (message.getFlag(ID, "withdrawn")) continue;
    await message.update({
      content: `<div class="background-battle-card bb-withdrawn"><p class="bb-warning">${esc(why)}</p></div>`,
      [`flags.${ID}.withdrawn`]: true,
    });
  }
}
