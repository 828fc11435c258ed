/** Chat cards of the module: spoken as "Background Battle", whispered to the GMs if set so. */
import { SETTINGS } from "./constants.mjs";
import { t } from "./i18n.mjs";
import { setting } from "./settings.mjs";

/** Posts a card with the given (already escaped) HTML. */
export function postCard(content) {
  const data = { content: `<div class="background-battle-card">${content}</div>`, speaker: { alias: t("Title") } };
  if (setting(SETTINGS.WHISPER)) data.whisper = ChatMessage.getWhisperRecipients("GM");
  return ChatMessage.create(data);
}
