/**
 * The page's battle log in words: each entry's events (which carry every roll and result) as
 * sentences, one line per event. Free of the page's globals: the page passes in its translator
 * (`t`, keys `ev.*`, `cmd.*`, `winner.*`, `reason.*`, plural forms chosen by `count`) and its
 * rule terms (`term`: the sides' names).
 */

import { decidedBy, signedSL, slText } from "./battle-story.mjs";

/**
 * @param {object} words
 * @param {(key: string, params?: object) => string} words.t  a string of the page's language
 * @param {(key: string) => string} words.term  a rule term ("allies", "enemies")
 * @returns {{describeEntry: (entry: object, view: object) => string[]}}
 */
export function logLines({ t, term }) {
  // A number hidden from players comes as null and reads "?" (t() puts "?" for a null parameter).
  const side = (name) => (name ? term(name) : t("end.winner_none"));
  const pair = (values, fn = (v) => v ?? "?") =>
    values ? `${term("allies")} ${fn(values.allies)} · ${term("enemies")} ${fn(values.enemies)}` : "";

  const EVENT_TEXT = {
    unit_added: (e) =>
      t("ev.unit_added", {
        name: e.unit.name,
        side: side(e.unit.side),
        count: e.unit.fighters,
        strength: e.unit.strength,
      }),
    unit_updated: (e) => t("ev.unit_updated", { name: e.unit.name }),
    unit_removed: (e, view) => t("ev.unit_removed", { name: unitName(view, e.unit) }),
    modifiers_set: (e) =>
      t("ev.modifiers_set", {
        side: side(e.side),
        list: (e.modifiers || []).map((m) => modifierText(m)).join(", ") || "—",
      }),
    battle_started: (e) => t("ev.battle_started", { strength: pair(e.initial) }),
    leader_commanded: (e) =>
      e.success === null // hidden from players: not even whether it worked
        ? t("ev.leader_hidden", { side: side(e.side) })
        : e.success
          ? t("ev.leader_ok", { side: side(e.side), sl: e.sl, bonus: e.bonus, next: e.strength_for_next_test })
          : t(e.sl === undefined ? "ev.leader_failed_no_sl" : "ev.leader_failed", {
              side: side(e.side),
              sl: slText(e.sl, e.success),
            }),
    round_resolved: (e) => {
      const parts = [t("ev.round", { round: e.round })];
      if (e.rolls) {
        const sl = `${term("allies")} ${signedSL(e, "allies")} · ${term("enemies")} ${signedSL(e, "enemies")}`;
        parts.push(t("ev.round_rolls", { rolls: pair(e.rolls), sl }));
        if (decidedBy(e)) parts.push(t(`ev.decided_by.${decidedBy(e)}`));
      }
      parts.push(t("ev.round_lost", { lost: pair(e.lost) }));
      parts.push(t("ev.round_strength", { strength: pair(e.strength) }));
      return parts.join(" ");
    },
    strength_set: (e) => t("ev.strength_set", { side: side(e.side), strength: e.strength }),
    fighters_detached: (e, view) =>
      t("ev.fighters_detached", { count: e.fighters, name: unitName(view, e.unit), cost: e.strength_cost }),
    // A share of 1 is "all flee", never "1 of the enemies flee".
    pcs_won: (e) =>
      t(String(e.fleeing) === "1" ? "ev.pcs_won_all" : "ev.pcs_won", {
        fleeing: e.fleeing,
        fighting: e.fighting_strength,
        damage: e.damage,
        allies: e.allies_strength,
      }),
    battle_ended: (e) =>
      t("ev.battle_ended", { winner: t(`winner.${e.winner || "none"}`), reason: t(`reason.${e.reason}`) }),
    influence_rolled: (e) =>
      t("ev.influence", { side: side(e.side), roll: e.roll, modifier: signed(e.modifier), total: e.total }),
    influence_table_set: () => t("cmd.set_influence_table"),
    hidden_set: () => t("cmd.set_hidden"),
    renamed: (e) => t("cmd.rename", { name: e.name }),
    undone: (e, view) => t("ev.undone", { entry: e.entry + 1, what: firstLine(view, e.entry) }),
  };

  /** +3, −2, or "?" for a number hidden from players. */
  function signed(n) {
    if (n === null || n === undefined) return "?";
    return n >= 0 ? `+${n}` : `−${-n}`;
  }

  function modifierText(m) {
    const bits = [];
    if (m.percent) bits.push(`${signed(m.percent)}%`);
    if (m.flat) bits.push(signed(m.flat));
    return `${m.name} ${bits.join(" ") || "0"}`;
  }

  function unitName(view, id) {
    for (const entry of view.log) {
      for (const event of entry.events) if (event.unit && event.unit.id === id) return event.unit.name;
    }
    return id;
  }

  function firstLine(view, index) {
    const entry = view.log[index];
    return entry ? describeEntry(entry, view)[0] : "";
  }

  /** The lines that tell what one log entry did. */
  function describeEntry(entry, view) {
    const lines = entry.events.map((event) =>
      EVENT_TEXT[event.type] ? EVENT_TEXT[event.type](event, view) : event.type,
    );
    return lines.length ? lines : [t(`cmd.${entry.command.type}`, { ...entry.command, count: entry.command.fighters })];
  }

  return { describeEntry };
}
