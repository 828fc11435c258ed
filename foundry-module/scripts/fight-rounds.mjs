/**
 * The PCs' fight's rounds: fighters an Influence card said would join "in 2 rounds" are
 * announced to the GMs on that round of that combat, once. Foundry's `updateCombat` hook fires
 * on every client (api v13/v14 hookEvents.updateDocument) with the changed `round`; only the
 * active GM's browser acts, and what it told is written on the fight card (a flag the server
 * keeps), so a reload or another GM never tells it twice.
 */
import { ID } from "./constants.mjs";
import { cardsAbout, postCard } from "./chat.mjs";
import { esc, t } from "./i18n.mjs";
import { dueOn } from "./logic/fight-effects.mjs";
import { isActiveGM } from "./who.mjs";

/** Announces the reinforcements due on `combat`'s round `round` (once each). */
export async function announceDue(combat, round) {
  if (!isActiveGM()) return;
  for (const card of cardsAbout({ kind: "fight" })) {
    const record = card.getFlag(ID, "fight");
    if (!record || record.undone) continue;
    const told = new Set(record.told ?? []);
    const due = dueOn(record.due, combat.id, round).filter(
      (item) => !told.has(`${item.combat}:${item.due}:${item.side}`),
    );
    if (!due.length) continue;
    for (const item of due) told.add(`${item.combat}:${item.due}:${item.side}`);
    // written first: a second call (another hook, a reload mid-way) finds it told
    await card.update({ [`flags.${ID}.fight.told`]: [...told] });
    const lines = due.map((item) =>
      t("Fight.ReinforcementsDue", {
        round,
        from: item.from,
        side: t(`Side.${item.side}`),
        fighters: item.fighters === "gm_choice" ? t("Fight.GmChoice") : item.fighters,
      }),
    );
    await postCard(lines.map((line) => `<p><strong>${esc(line)}</strong></p>`).join(""), {
      gmOnly: true,
      about: { kind: "reinforcements", combat: combat.id, round },
    });
  }
}

/** Hook `updateCombat(combat, changed)`: a new round of a combat. */
export function combatUpdated(combat, changed) {
  if (changed && "round" in changed) return announceDue(combat, changed.round);
  return null;
}
