/**
 * A step of the battle in words: the Foundry panel's result line and the chat cards say the same.
 * Reads only the core's events (a hidden number, null, reads "?"); computes no rule. Free of
 * Foundry globals: the shell passes in its translator and its reading of an Influence roll.
 */
import { bonusUsed, decidedBy, mainEvent, signedSL, strengthBefore } from "./battle-story.mjs";

/** A number as shown: "?" when the view hides it. */
export function shown(value) {
  return value === null || value === undefined ? "?" : String(value);
}

/**
 * The words of the battle's steps, in the shell's language.
 *
 * @param {object} words
 * @param {(key: string, data?: object) => string} words.t  a string of the language by its key
 *   (`Step.Started`, `SetUp.UnitAdded`…; the module's lang/*.json), `{name}`s filled from `data`
 * @param {(key: string, count: number | string, data?: object) => string} words.counted  the
 *   plural form of `key` for `count`
 * @param {(event: object) => string | null} [words.influenceBand]  what an `influence_rolled`
 *   total means (none: the roll alone)
 * @returns {{describeStep: Function, describeLogStep: Function, setUpLine: Function, sideUnits: Function}}
 */
export function stepWords({ t, counted, influenceBand = () => null }) {
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
      parts.push(t("Step.RoundRoll", { roll: shown(event.rolls[name]), target, sl: signedSL(event, name) }));
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
  function describeStep(event, entry = { events: [event] }) {
    switch (event.type) {
      case "battle_started":
        return {
          title: t("Step.Started"),
          lines: [
            t("Step.StartStrength", { allies: shown(event.initial?.allies), enemies: shown(event.initial?.enemies) }),
          ],
        };
      case "round_resolved": {
        const winner = event.winner ? t("Step.RoundWinner", { side: side(event.winner) }) : t("Step.RoundNoWinner");
        // A round by the strength lost has no test, so no winner: it says how it was decided.
        const title =
          event.mode === "lost"
            ? t("LostRound.Title", { round: event.round })
            : `${t("Step.RoundPlayed", { round: event.round })}: ${winner}`;
        // why it went so, as the core decided it: "a success beats a failure" for +0 against −0
        const reason = decidedBy(event);
        return {
          title,
          lines: [
            ...["allies", "enemies"].map((name) => roundSide(event, name)),
            ...(reason ? [t(`Step.DecidedBy.${reason}`)] : []),
          ],
        };
      }
      case "leader_commanded":
        return {
          title: t("Step.Leader", { side: side(event.side) }),
          lines: [
            // a hidden side's test: not even whether it passed (the player view blanks it)
            event.success === null || event.success === undefined
              ? t("Step.LeaderHidden")
              : event.success
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
          title: counted("Step.Detached", shown(event.fighters), { side: side(event.side) }),
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
        // The reading for the side that rolled, as the shell reads it (the module: the core's own,
        // or the GM's RollTable's row).
        const band = influenceBand(event);
        return {
          title: t("Influence.Title", { side: side(event.side) }),
          lines: [
            t("Influence.Roll", {
              roll: shown(event.roll),
              modifier: shown(event.modifier),
              total: shown(event.total),
            }),
            ...(band ? [band] : []),
          ],
        };
      }
      default:
        return { title: t("Step.Other", { type: event.type }), lines: [] };
    }
  }

  /** A step of the log in words, an undo included ("Taken back: Round 2…"); `log`: the view's. */
  function describeLogStep(event, entry, log = []) {
    if (event.type !== "undone") return describeStep(event, entry);
    const target = log[event.entry];
    const undone = mainEvent(target);
    const step = undone
      ? describeStep(undone, target).title
      : target
        ? setUpLine(target, log, event.entry)
        : t("Step.SetUpStep");
    return { title: t("Step.Undone", { step }), lines: [] };
  }

  /** The unit `id` as the log entries before `index` last described it, or null. */
  function unitBefore(log, index, id) {
    for (let i = Math.min(index, log.length) - 1; i >= 0; i--) {
      const found = (log[i]?.events ?? []).find(
        (e) => (e.type === "unit_added" || e.type === "unit_updated") && e.unit?.id === id,
      );
      if (found) return found.unit;
    }
    return null;
  }

  /** A unit added or changed: its side, name, head count and strength (a hidden head count: neither). */
  function unitLine(key, unit) {
    const data = { side: side(unit?.side), name: unit?.name ?? "?" };
    if (unit?.fighters === null || unit?.fighters === undefined) return t(`${key}Hidden`, data);
    return counted(key, unit.fighters, { ...data, strength: shown(unit.strength) });
  }

  /** A side's modifiers: "Fog -10%, Walls +5" (null: the player view hides them). */
  function modifiersLine(event) {
    const data = { side: side(event.side) };
    if (!Array.isArray(event.modifiers)) return t("SetUp.ModifiersHidden", data);
    if (!event.modifiers.length) return t("SetUp.ModifiersNone", data);
    const each = (m) =>
      [m.name, m.percent ? `${signed(m.percent)}%` : "", m.flat ? signed(m.flat) : ""].filter(Boolean).join(" ");
    return t("SetUp.Modifiers", { ...data, list: event.modifiers.map(each).join(", ") });
  }

  /** What players may not see, in words. */
  function hiddenLine(hidden = []) {
    if (!hidden.length) return t("SetUp.HiddenNone");
    return t("SetUp.Hidden", { list: hidden.map((h) => t(`SetUp.Hideable.${h}`)).join(", ") });
  }

  /**
   * A set-up step or a small change in one line (a card of set-up steps has one per step):
   * `entry` at `index` of `log` (a removed unit is named from the entries before it).
   */
  function setUpLine(entry, log = [], index = log.length) {
    const event = entry?.events?.[0];
    switch (event?.type) {
      case "unit_added":
        return unitLine("SetUp.UnitAdded", event.unit);
      case "unit_updated":
        return unitLine("SetUp.UnitChanged", event.unit);
      case "unit_removed": {
        const unit = unitBefore(log, index, event.unit);
        return t("SetUp.UnitRemoved", { side: side(unit?.side), name: unit?.name ?? event.unit });
      }
      case "modifiers_set":
        return modifiersLine(event);
      case "hidden_set":
        return hiddenLine(event.hidden);
      case "renamed":
        return t("SetUp.Renamed", { name: event.name });
      case "influence_table_set":
        return t("SetUp.InfluenceTable", { name: event.table?.name ?? t("SetUp.HouseTable") });
      case undefined:
        return t("Step.SetUpStep");
      default: {
        const main = mainEvent(entry) ?? event;
        return describeLogStep(main, entry, log).title;
      }
    }
  }

  /** The units of each side as players may see them: "Allies: Dwarves (3 fighters), Scouts (2 fighters)". */
  function sideUnits(view) {
    return ["allies", "enemies"].map((name) => {
      const units = (view?.units ?? [])
        .filter((unit) => unit.side === name)
        .map((unit) =>
          unit.fighters === null || unit.fighters === undefined
            ? unit.name
            : counted("Card.UnitFighters", unit.fighters, { name: unit.name }),
        );
      return t("Card.SideUnits", { side: side(name), units: units.join(", ") || "—" });
    });
  }

  return { describeStep, describeLogStep, setUpLine, sideUnits };
}
