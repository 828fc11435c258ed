"""A number a player reads on one card is never "?" on another, nor in the view the cards come from.

The cards' words are the shared client's (foundry-module/client: step-words.mjs for the Foundry
chat cards and panel, log-lines.mjs for the page's log), run in Node on player views of many
battles (seeded, with hidden numbers of every kind), through tests/foundry/card_text.mjs, whose
translator marks each string's key and its numbers. Each number on a card is named as the view's
are (tests/support/shown_numbers.py): a strength after a step, a round's loss, a leader's bonus.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from shown_numbers import Fact, Timeline, contradictions, facts, played, seeded

from background_battle import Battle, state_view
from background_battle.validate import SIDES

CARD_TEXT = Path(__file__).with_name("card_text.mjs")


def marks(text: str) -> Iterator[tuple[str, dict[str, Any], str]]:
    """The top-level ⟦[key, params]⟧ marks in a card's text, each with the text before it."""
    depth, start, after = 0, 0, 0
    for index, char in enumerate(text):
        if char == "⟦":
            if depth == 0:
                start = index
            depth += 1
        elif char == "⟧":
            depth -= 1
            if depth == 0:
                key, params = json.loads(text[start + 1 : index])
                yield key, params, text[after:start]
                after = index + 1


def shown(value: Any) -> Any:
    """A card's number as the view has it ("?": None; "+2", "−9" and "30": numbers)."""
    if value in ("?", None):
        return None
    try:
        return int(str(value).replace("−", "-"))
    except ValueError:
        return value


def pair(text: str) -> dict[str, Any]:
    """The page's "allies 30 · enemies ?" as {side: value}."""
    parts = dict(part.strip().split(" ", 1) for part in str(text).split("·"))
    return {side: shown(parts[side]) for side in SIDES}


def card_facts(i: int, entry: dict[str, Any], text: dict[str, Any], tl: Timeline) -> list[Fact]:
    """The numbers of entry ``i``'s card and log line, named."""
    event = next((e for e in entry["events"] if e["type"] not in ("hidden_set",)), {})
    unit = event.get("unit") if isinstance(event.get("unit"), str) else None
    found: list[Fact] = []

    def add(key: tuple[Any, ...], value: Any, where: str) -> None:
        found.append(Fact(key, shown(value), f"card[{i}] {where}"))

    def strength(side: str, at: int) -> tuple[Any, ...]:
        return tl.side("strength", side, at)

    lines = [text["step"]["title"], *text["step"]["lines"]] if text["step"] else []
    leader = event.get("side")
    for line in lines + text["log"]:
        # a round's line per side starts with the side: "allies: ⟦…⟧ ⟦…⟧"
        side = line.split(":", 1)[0] if line.startswith(("allies:", "enemies:")) else leader
        for key, p, _ in marks(line):
            if key == "Step.StartStrength":
                for s in SIDES:
                    add(strength(s, i), p[s], f"{key}.{s}")
            elif key == "Step.RoundRoll":
                add(("rolls", side, i), p["roll"], f"{key}.roll.{side}")
                add(("target", side, i), p["target"], f"{key}.target.{side}")
                add(("sl", side, i), p["sl"], f"{key}.sl.{side}")
            elif key == "Step.BonusWorking":
                add(("target", side, i), p["target"], f"{key}.target.{side}")
                add(strength(side, i - 1), p["strength"], f"{key}.strength.{side}")
                add(tl.side("pending_bonus", side, i - 1), p["bonus"], f"{key}.bonus.{side}")
            elif key == "Step.StrengthChange":
                add(strength(side, i - 1), p["before"], f"{key}.before.{side}")
                add(strength(side, i), p["after"], f"{key}.after.{side}")
                add(("lost", side, i), p["lost"], f"{key}.lost.{side}")
            elif key in ("Step.LeaderBonus", "ev.leader_ok"):
                add(("sl", leader, i), p["sl"], f"{key}.sl")
                add(tl.side("pending_bonus", leader, i), p["bonus"], f"{key}.bonus")
                next_test = p.get("target", p.get("next"))
                add(("next_target", leader, i), next_test, f"{key}.next")
            elif key in ("Step.StrengthSet", "ev.strength_set"):
                add(strength(p["side"], i), p["strength"], f"{key}.strength")
            elif key in ("Step.DetachedCost", "ev.fighters_detached") and unit:
                add(("strength_cost", unit, i), p["cost"], f"{key}.cost")
                if "strength" in p:
                    add(strength(event["side"], i), p["strength"], f"{key}.strength")
            elif key in ("Step.PcsWonWorking", "ev.pcs_won", "ev.pcs_won_all"):
                add(strength("enemies", i), p["fighting"], f"{key}.fighting")
                add(("damage", i), p["damage"], f"{key}.damage")
                add(strength("allies", i), p["allies"], f"{key}.allies")
            elif key in ("Influence.Roll", "ev.influence"):
                for name in ("roll", "modifier", "total"):
                    add(("influence_" + name, i), p[name], f"{key}.{name}")
            elif key in ("ev.battle_started", "ev.round_strength"):
                for s, value in pair(p["strength"]).items():
                    add(strength(s, i), value, f"{key}.{s}")
            elif key == "ev.round_lost":
                for s, value in pair(p["lost"]).items():
                    add(("lost", s, i), value, f"{key}.{s}")
            elif key == "ev.round_rolls":
                for s, value in pair(p["rolls"]).items():
                    add(("rolls", s, i), value, f"{key}.rolls.{s}")
                for s, value in pair(p["sl"]).items():
                    add(("sl", s, i), value, f"{key}.sl.{s}")
    return found


def battles(count: int) -> list[tuple[Battle, Timeline]]:
    """The seeded battles of ``seeded``, played."""
    return [played(*seeded(seed), seed) for seed in range(count)]


def rendered(views: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    done = subprocess.run(
        ["node", str(CARD_TEXT)],
        input=json.dumps(views),
        capture_output=True,
        text=True,
        check=True,
    )
    result: list[list[dict[str, Any]]] = json.loads(done.stdout)
    return result


def problems(played_battles: list[tuple[Battle, Timeline]]) -> list[list[str]]:
    views = [state_view(battle, "player") for battle, _ in played_battles]
    found = []
    for (_, tl), view, texts in zip(played_battles, views, rendered(views), strict=True):
        named = facts(view, tl)
        for i, (entry, text) in enumerate(zip(view["log"], texts, strict=True)):
            named += card_facts(i, entry, text, tl)
        found.append(contradictions(named, tl))
    return found


def test_no_card_shows_a_question_mark_for_a_number_shown_elsewhere() -> None:
    played_battles = battles(300)
    found = problems(played_battles)
    bad = [(seed, p) for seed, p in enumerate(found) if p]
    assert bad == [], f"{len(bad)} of {len(found)} battles, the first: {bad[0]}"


def test_the_check_reads_the_cards_numbers() -> None:
    """The check itself: a card's numbers are found and named (GM's cards: none is "?")."""
    battle, tl = played(
        [("allies", 10, 30), ("enemies", 12, 26)],
        [],
        [
            {"type": "leader_command", "side": "allies", "leadership": 40, "roll": 20},
            {"type": "resolve_round", "mode": "rolls", "rolls": {"allies": 20, "enemies": 50}},
        ],
        1,
    )
    view = state_view(battle, "gm")
    texts = rendered([view])[0]
    named = [
        fact for i, entry in enumerate(view["log"]) for fact in card_facts(i, entry, texts[i], tl)
    ]
    assert len(named) > 20 and all(fact.value is not None for fact in named)
    assert contradictions(named + facts(view, tl), tl) == []


@pytest.mark.parametrize("hidden", [["enemies.strength"], ["allies.strength"]])
def test_a_side_driven_to_0_shows_its_strength_before_the_round(hidden: list[str]) -> None:
    shown_side = "allies" if hidden == ["enemies.strength"] else "enemies"
    rolls = {shown_side: 95, ("enemies" if shown_side == "allies" else "allies"): 5}
    battle, tl = played(
        [("allies", 10, 30), ("enemies", 12, 26)],
        hidden,
        [
            {"type": "set_strength", "side": shown_side, "strength": 3},
            {"type": "resolve_round", "mode": "rolls", "rolls": rolls},
        ],
        1,
    )
    assert problems([(battle, tl)]) == [[]]
