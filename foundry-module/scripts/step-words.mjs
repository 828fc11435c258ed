/**
 * A step of the battle in the user's language: the panel's result line and the chat cards say
 * the same. Reads only the core's events (a hidden number, null, reads "?"); computes no rule.
 */
import { bonusUsed, mainEvent, strengthBefore } from "./logic/battle-story.mjs";
import { pluralCategory } from "./logic/plural.mjs";
import { t } from "./i18n.mjs";
import { chosenTable, coreBandText } from "./influence.mjs";

/** A number as shown: "?" when the view hides it. */
export function shown(value) {
  return value === null || value === undefined ? "?" : String(value);
}

/** A counted string: `<key>.one|few|many|other` chosen by Intl.PluralRules for the language. */
export function counted(key, count, data = {}) {
  const lang = game.i18n.lang ?? "en";
  return t(`${key}.${pluralCategory(lang, count)}`, { count, ...data });
}

function side(name) {
  return name ? t(`Side.${name}`) : "—";
}

function signed(value) {
  if (value === null || value === undefined) return "?";
  return value > 0 ? `+${value}` : String(value);
}

/** One side's part of a round: roll, target (with the leader's bonus), SL, strength before → after. */
function roundSide(event, name) {
  const parts = [];
  if (event.rolls) {
    const bonus = bonusUsed(event, name);
    const target = shown(event.targets?.[name]);
    parts.push(
      t("Step.RoundRoll", { roll: shown(event.rolls[name]), target, sl: signed(event.sl?.[name]) }),
    );
    if (bonus) {
      parts.push(t("Step.BonusWorking", { target, strength: shown(strengthBefore(event, name)), bonus }));
    }
  }
  parts.push(
    t("Step.StrengthChange", {
      before: shown(strengthBefore(event, name)),
      after: shown(event.strength?.[name]),
      lost: shown(event.lost?.[name]),
    }),
  );
  return `${side(name)}: ${parts.join(" ")}`;
}

/**
 * A step in words: {title, lines}. `event` is the step's main event (battle-story's mainEvent);
 * `entry` the whole log entry (the PCs' win carries two events).
 */
export function describeStep(event, entry = { events: [event] }) {
  switch (event.type) {
    case "battle_started":
      return {
        title: t("Step.Started"),
        lines: [t("Step.StartStrength", { allies: shown(event.initial?.allies), enemies: shown(event.initial?.enemies) })],
      };
    case "round_resolved": {
      const winner = event.winner ? t("Step.RoundWinner", { side: side(event.winner) }) : t("Step.RoundNoWinner");
      return {
        title: `${t("Step.RoundPlayed", { round: event.round })}: ${winner}`,
        lines: ["allies", "enemies"].map((name) => roundSide(event, name)),
      };
    }
    case "leader_commanded":
      return {
        title: t("Step.Leader", { side: side(event.side) }),
        lines: [
          event.success
            ? t("Step.LeaderBonus", {
                sl: signed(event.sl),
                bonus: shown(event.bonus),
                target: shown(event.strength_for_next_test),
              })
            : t("Step.LeaderFailed"),
        ],
      };
    case "strength_set":
      return { title: t("Step.StrengthSet", { side: side(event.side), strength: shown(event.strength) }), lines: [] };
    case "fighters_detached":
      return {
        title: t("Step.Detached", { side: side(event.side), fighters: shown(event.fighters) }),
        lines: [t("Step.DetachedCost", { cost: shown(event.strength_cost), strength: shown(event.strength) })],
      };
    case "pcs_won":
    case "battle_ended": {
      const ended = (entry.events ?? []).find((e) => e.type === "battle_ended") ?? event;
      const pcs = (entry.events ?? []).find((e) => e.type === "pcs_won");
      const lines = [t(`Step.Reason.${ended.reason ?? "declared"}`)];
      if (pcs) {
        lines.push(
          t("Step.PcsWonWorking", {
            fleeing: shown(pcs.fleeing),
            fighting: shown(pcs.fighting_strength),
            damage: shown(pcs.damage),
            allies: shown(pcs.allies_strength),
          }),
        );
      }
      return {
        title: ended.winner ? t("Step.Ended", { side: side(ended.winner) }) : t("Step.EndedNoWinner"),
        lines,
      };
    }
    case "influence_rolled": {
      // The core's own reading (for the side that rolled); a GM's RollTable is read on the card.
      const band = chosenTable() ? "" : coreBandText(event, null);
      return {
        title: t("Influence.Title", { side: side(event.side) }),
        lines: [
          t("Influence.Roll", { roll: shown(event.roll), modifier: shown(event.modifier), total: shown(event.total) }),
          ...(band ? [band] : []),
        ],
      };
    }
    default:
      return { title: t("Step.Other", { type: event.type }), lines: [] };
  }
}

/** A step of the log in words, an undo included ("Taken back: Round 2…"); `log`: the view's. */
export function describeLogStep(event, entry, log = []) {
  if (event.type !== "undone") return describeStep(event, entry);
  const target = log[event.entry];
  const undone = mainEvent(target);
  return { title: t("Step.Undone", { step: undone ? describeStep(undone, target).title : t("Step.SetUpStep") }), lines: [] };
}
