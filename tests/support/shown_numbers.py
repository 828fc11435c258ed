"""Every number a player's view shows or hides, named by what it is: (quantity, whose, when).

A player reads one battle in many places: the state, each event, each command of the log, and
the cards drawn from them. The same number (the allies' strength after round 2, the orcs' head
count) turns up in several of them; "when" is the log entry after which it holds, taken back to
the first entry of a run where it did not change (the strength before a round is the strength
after the entry before it). ``facts`` names every number of a player view so; ``contradictions``
finds a number shown in one place and "?" in another, or "?" where the numbers shown give it.
The battles played to make the view (one per entry) say what each number is; the view says only
whether it is shown.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from background_battle import Battle, BattleError, apply, new_battle
from background_battle.battle import HIDEABLE
from background_battle.validate import SIDES, Side

Key = tuple[Any, ...]


@dataclass(frozen=True)
class Fact:
    """One place in the view: the number it names, its value there (None: "?"), and where."""

    key: Key
    value: Any
    where: str


class Timeline:
    """The battle after each log entry (``after[i]``; ``after[-1]`` the battle before any)."""

    def __init__(self, battles: Sequence[Battle]) -> None:
        self.battles = list(battles)

    def at(self, index: int) -> Battle:
        return self.battles[index + 1]

    def _run(self, value: Callable[[Battle], Any], index: int) -> int:
        while index >= 0 and value(self.at(index - 1)) == value(self.at(index)):
            index -= 1
        return index

    def side(self, quantity: str, side: str, index: int) -> Key:
        """A side's ``strength``, ``initial`` or ``pending_bonus`` after entry ``index``."""

        def value(b: Battle) -> Any:
            return getattr(b.side(cast(Side, side)), quantity)

        return (quantity, side, self._run(value, index))

    def unit(self, quantity: str, unit_id: str, index: int) -> Key:
        """A unit's ``fighters``, ``strength`` or ``detached`` after entry ``index``."""

        def value(b: Battle) -> Any:
            unit = b.unit(unit_id)
            return None if unit is None else getattr(unit, quantity)

        return ("unit_" + quantity, unit_id, self._run(value, index))


def facts(view: dict[str, Any], timeline: Timeline, at: int | None = None) -> list[Fact]:
    """Every number the view names, shown or hidden (a player's or a GM's view); ``at``: the
    entry its state stands after (the last one unless told: a bridge's `event` at version v
    stands after entry v − 1)."""
    last = len(timeline.battles) - 2 if at is None else at
    found: list[Fact] = []
    for side in SIDES:
        data = view["sides"][side]
        for quantity in ("strength", "initial", "pending_bonus"):
            found.append(
                Fact(timeline.side(quantity, side, last), data[quantity], f"{side}.{quantity}")
            )
        found.append(
            Fact(
                (
                    "lost_share",
                    side,
                    timeline.side("strength", side, last)[2],
                    timeline.side("initial", side, last)[2],
                ),
                data["lost_share"],
                f"{side}.lost_share",
            )
        )
        found.append(Fact(("modifiers", side, last), data["modifiers"], f"{side}.modifiers"))
        found.append(Fact(("units_strength", side, last), data["units_strength"], f"{side}.units"))
    for unit in view["units"]:
        for quantity in ("fighters", "strength", "detached"):
            key = timeline.unit(quantity, unit["id"], last)
            found.append(Fact(key, unit[quantity], f"units.{unit['id']}.{quantity}"))
        key = ("casualties", unit["id"], last)
        found.append(Fact(key, unit["casualties"], f"units.{unit['id']}.casualties"))
    for index, entry in enumerate(view.get("log") or []):
        found += entry_facts(entry, index, timeline)
    return found


def entry_facts(entry: dict[str, Any], index: int, timeline: Timeline) -> list[Fact]:
    """Every number a log entry (its command and events) names, shown or hidden."""
    found = [fact for event in entry["events"] for fact in _event_facts(event, index, timeline)]
    return found + list(_command_facts(entry, index, timeline))


def _per_side(value: Any, side: str) -> Any:
    return value.get(side) if isinstance(value, dict) else value


def _event_facts(event: dict[str, Any], i: int, tl: Timeline) -> Iterable[Fact]:
    kind, where = event["type"], f"log[{i}].{event['type']}"
    if kind in ("unit_added", "unit_updated"):
        unit = event["unit"]
        for quantity in ("fighters", "strength", "detached"):
            if quantity in unit:
                yield Fact(tl.unit(quantity, unit["id"], i), unit[quantity], f"{where}.{quantity}")
    elif kind == "modifiers_set":
        yield Fact(("modifiers", event["side"], i), event["modifiers"], f"{where}.modifiers")
    elif kind == "battle_started":
        for side in SIDES:
            value = _per_side(event["initial"], side)
            yield Fact(tl.side("strength", side, i), value, f"{where}.initial.{side}")
            yield Fact(tl.side("initial", side, i), value, f"{where}.initial.{side}")
    elif kind == "round_resolved":
        for side in SIDES:
            yield Fact(
                tl.side("strength", side, i),
                _per_side(event["strength"], side),
                f"{where}.strength.{side}",
            )
            if "strength_before" in event:
                yield Fact(
                    tl.side("strength", side, i - 1),
                    _per_side(event["strength_before"], side),
                    f"{where}.strength_before.{side}",
                )
            yield Fact(("lost", side, i), _per_side(event["lost"], side), f"{where}.lost.{side}")
            yield Fact(
                ("target", side, i), _per_side(event["targets"], side), f"{where}.targets.{side}"
            )
            for quantity in ("rolls", "sl", "success"):
                if quantity in event:
                    yield Fact(
                        (quantity, side, i),
                        _per_side(event[quantity], side),
                        f"{where}.{quantity}.{side}",
                    )
    elif kind == "leader_commanded":
        side = event["side"]
        for quantity in ("leadership", "roll", "success", "sl"):
            if quantity in event:
                yield Fact((quantity, side, i), event[quantity], f"{where}.{quantity}")
        yield Fact(tl.side("pending_bonus", side, i), event["bonus"], f"{where}.bonus")
        yield Fact(
            ("next_target", side, i),
            event["strength_for_next_test"],
            f"{where}.strength_for_next_test",
        )
    elif kind == "strength_set":
        yield Fact(tl.side("strength", event["side"], i), event["strength"], f"{where}.strength")
    elif kind == "fighters_detached":
        side, unit = event["side"], event["unit"]
        yield Fact(tl.side("strength", side, i), event["strength"], f"{where}.strength")
        yield Fact(tl.side("initial", side, i), event["initial"], f"{where}.initial")
        yield Fact(("strength_cost", unit, i), event["strength_cost"], f"{where}.strength_cost")
        yield Fact(("moved", unit, i), event["fighters"], f"{where}.fighters")
    elif kind == "pcs_won":
        yield Fact(
            tl.side("strength", "enemies", i - 1),
            event["enemy_strength"],
            f"{where}.enemy_strength",
        )
        yield Fact(
            tl.side("strength", "enemies", i),
            event["fighting_strength"],
            f"{where}.fighting_strength",
        )
        yield Fact(("damage", i), event["damage"], f"{where}.damage")
        yield Fact(
            tl.side("strength", "allies", i), event["allies_strength"], f"{where}.allies_strength"
        )
    elif kind == "influence_rolled":
        for quantity in ("roll", "modifier", "total", "band"):
            yield Fact(("influence_" + quantity, i), event[quantity], f"{where}.{quantity}")


def _command_facts(entry: dict[str, Any], i: int, tl: Timeline) -> Iterable[Fact]:
    command, where = entry["command"], f"log[{i}].command"
    kind = command.get("type")
    if kind == "resolve_round":
        for quantity, name in (("rolls", "rolls"), ("lost", "lost")):
            if quantity in command:
                for side in SIDES:
                    yield Fact(
                        (name, side, i),
                        _per_side(command[quantity], side),
                        f"{where}.{quantity}.{side}",
                    )
    elif kind == "leader_command":
        for quantity in ("leadership", "roll", "success", "sl"):
            if quantity in command:
                yield Fact((quantity, command["side"], i), command[quantity], f"{where}.{quantity}")
    elif kind == "set_strength":
        yield Fact(
            tl.side("strength", command["side"], i), command["strength"], f"{where}.strength"
        )
    elif kind == "set_modifiers":
        events = entry["events"]
        modifiers = events[0]["modifiers"] if events else command["modifiers"]
        if command["modifiers"] is None or modifiers is None:  # the same list, as typed
            yield Fact(("modifiers", command["side"], i), command["modifiers"], f"{where}")
    elif kind == "roll_influence" and "roll" in command:
        yield Fact(("influence_roll", i), command["roll"], f"{where}.roll")
    elif kind == "detach_fighters":
        yield Fact(("moved", command["unit"], i), command["fighters"], f"{where}.fighters")
    elif kind in ("add_unit", "update_unit"):
        unit = next((e["unit"] for e in entry["events"] if "unit" in e), None)
        if isinstance(unit, dict):
            for quantity in ("fighters", "strength"):
                if quantity in command:
                    yield Fact(
                        tl.unit(quantity, unit["id"], i), command[quantity], f"{where}.{quantity}"
                    )


def contradictions(found: list[Fact], timeline: Timeline) -> list[str]:
    """Numbers "?" in one place and shown in another, and "?"s the shown numbers give away."""
    shown: dict[Key, list[Fact]] = defaultdict(list)
    hidden: dict[Key, list[Fact]] = defaultdict(list)
    for fact in found:
        (hidden if fact.value is None else shown)[fact.key].append(fact)
    problems = [
        f"{key}: shown as {shown[key][0].value!r} at {shown[key][0].where}, "
        f"'?' at {hidden[key][0].where}"
        for key in hidden
        if key in shown
    ]
    value = {key: facts[0].value for key, facts in shown.items()}
    problems += [
        f"{key}: '?' at {hidden[key][0].where}, yet {why}"
        for key, why in _given_away(found, value, timeline)
        if key in hidden and key not in shown
    ]
    return problems


def _given_away(
    found: list[Fact], value: dict[Key, Any], tl: Timeline
) -> Iterable[tuple[Key, str]]:
    """Numbers the shown ones give: (the number, the shown ones that give it)."""

    def known(*keys: Key) -> bool:
        return all(key in value for key in keys)

    for fact in found:
        key, where = fact.key, fact.where
        kind = where.split(".")[1] if "." in where else ""
        index = key[-1] if isinstance(key[-1], int) else None
        if key[0] == "lost" and where.endswith(f"round_resolved.lost.{key[1]}"):
            side, i = key[1], key[2]
            before, after = tl.side("strength", side, i - 1), tl.side("strength", side, i)
            if known(before, key) and after not in value:
                yield after, f"before {value[before]} and lost {value[key]} are shown"
            if known(before, after) and value[after] > 0:
                yield key, f"before {value[before]} and after {value[after]} are shown"
            if known(after, key) and value[after] > 0:
                yield before, f"after {value[after]} and lost {value[key]} are shown"
        elif key[0] == "next_target":
            side, i = key[1], key[2]
            strength, bonus = tl.side("strength", side, i), tl.side("pending_bonus", side, i)
            for a, b, c in ((strength, bonus, key), (strength, key, bonus), (bonus, key, strength)):
                if known(a, b):
                    yield c, f"{a} and {b} are shown ({where})"
        elif key[0] == "target" and kind == "round_resolved":
            side, i = key[1], key[2]
            strength = tl.side("strength", side, i - 1)
            bonus = tl.side("pending_bonus", side, i - 1)
            for a, b, c in ((strength, bonus, key), (strength, key, bonus), (bonus, key, strength)):
                if known(a, b):
                    yield c, f"{a} and {b} are shown ({where})"
        elif key[0] == "damage" and index is not None:
            before, after = (
                tl.side("strength", "allies", index - 1),
                tl.side("strength", "allies", index),
            )
            if known(before, key):
                yield after, f"allies' {value[before]} and damage {value[key]} are shown"
            if known(before, after) and value[after] > 0:
                yield key, f"allies' strength {value[before]} → {value[after]} is shown"
        elif key[0] == "strength_cost":
            i, side = key[2], fact_side(tl, key[1])
            for quantity in ("strength", "initial"):
                before, after = tl.side(quantity, side, i - 1), tl.side(quantity, side, i)
                if known(before, after) and value[after] > 0:
                    yield key, f"{quantity} {value[before]} → {value[after]} is shown"
                if known(before, key):
                    yield after, f"{quantity} {value[before]} and cost {value[key]} are shown"
        elif key[0] == "influence_total" and index is not None:
            roll, modifier = ("influence_roll", index), ("influence_modifier", index)
            for a, b, c in ((roll, modifier, key), (roll, key, modifier), (modifier, key, roll)):
                if known(a, b):
                    yield c, f"{a} and {b} are shown"
        elif key[0] == "influence_modifier" and index is not None:
            yield from _influence_given_away(key, index, value, tl)
        elif key[0] == "units_strength":
            units = tl.at(key[2]).units_of(cast(Side, key[1]))
            strengths = [tl.unit("strength", unit.id, key[2]) for unit in units]
            # a side of no units is a battle in set-up, which players are not told of
            if strengths and known(*strengths):
                yield key, "the strength of each of its units is shown"
        elif key[0] == "casualties" and tl.at(key[2]).status != "setup":
            unit = tl.at(key[2]).unit(key[1])
            assert unit is not None
            strength, initial = (
                tl.side("strength", unit.side, key[2]),
                tl.side("initial", unit.side, key[2]),
            )
            share = ("lost_share", unit.side, strength[2], initial[2])
            fighters = (tl.unit("fighters", unit.id, key[2]), tl.unit("detached", unit.id, key[2]))
            if known(share, *fighters):
                yield key, "the side's share lost and the unit's fighters are shown"
        elif key[0] == "lost_share":
            side = key[1]
            strength, initial = ("strength", side, key[2]), ("initial", side, key[3])
            if known(strength, initial) and value[initial] >= 1:
                yield key, f"S0 {value[initial]} and strength {value[strength]} are shown"


def _influence_given_away(
    key: Key, i: int, value: dict[Key, Any], tl: Timeline
) -> Iterable[tuple[Key, str]]:
    """An Influence modifier is own − other strength during the fight, 50 + own after it."""
    event = tl.battles[-1].log[i].events[0]
    own = tl.side("strength", event["side"], i - 1)
    other = tl.side("strength", "enemies" if event["side"] == "allies" else "allies", i - 1)
    group = (own, other, key) if event["phase"] == "fighting" else (own, key)
    for missing in group:
        rest = [k for k in group if k != missing]
        if all(k in value for k in rest):
            yield missing, f"{' and '.join(map(str, rest))} are shown (the Influence modifier)"


def fact_side(tl: Timeline, unit_id: str) -> str:
    """The side of a unit (units never change side)."""
    for battle in reversed(tl.battles):
        unit = battle.unit(unit_id)
        if unit is not None:
            return unit.side
    raise KeyError(unit_id)


def set_up(units: list[tuple[str, int, int]], hidden: list[str]) -> list[dict[str, Any]]:
    """The commands that set the battle up and start it: the units, a modifier, what is hidden."""
    commands: list[dict[str, Any]] = [
        {"type": "add_unit", "name": f"U{i}", "side": side, "fighters": n, "strength": s}
        for i, (side, n, s) in enumerate(units)
    ]
    return [
        *commands,
        {"type": "set_modifiers", "side": "enemies", "modifiers": [{"name": "m", "flat": 5}]},
        {"type": "set_hidden", "hidden": hidden},
        {"type": "start"},
    ]


def played(
    units: list[tuple[str, int, int]], hidden: list[str], steps: list[dict[str, Any]], seed: int
) -> tuple[Battle, Timeline]:
    """The battle set up and started, then each step that the core takes; each state kept."""
    rng = random.Random(seed)
    battle = new_battle("fog")
    battles = [battle]
    for command in set_up(units, hidden) + steps:
        try:
            battle, _ = apply(battle, command, rng)
        except BattleError:
            continue
        battles.append(battle)
    assert len(battle.log) == len(battles) - 1
    return battle, Timeline(battles)


Script = tuple[list[tuple[str, int, int]], list[str], list[dict[str, Any]]]


def seeded(seed: int) -> Script:
    """A seeded battle for ``played``: units of both sides, any numbers hidden, then up to 14
    steps of play, every die typed in (so a bridge and ``played`` play the same battle)."""
    rng = random.Random(seed)
    units: list[tuple[str, int, int]] = [
        (rng.choice(SIDES), rng.randint(1, 30), rng.randint(1, 60))
        for _ in range(rng.randint(2, 4))
    ]
    hidden = rng.sample(HIDEABLE, rng.randint(0, 3))
    steps = [step(rng) for _ in range(rng.randint(3, 14))]
    return units, hidden, steps


def step(rng: random.Random) -> dict[str, Any]:
    """One step of play, its dice typed in."""
    side = rng.choice(SIDES)
    return rng.choice(
        [
            {
                "type": "resolve_round",
                "mode": "rolls",
                "rolls": {s: rng.randint(1, 100) for s in SIDES},
            },
            {
                "type": "resolve_round",
                "mode": "rolls",
                "rolls": {s: rng.randint(1, 100) for s in SIDES},
            },
            {
                "type": "resolve_round",
                "mode": "lost",
                "lost": {s: rng.randint(0, 30) for s in SIDES},
            },
            {
                "type": "leader_command",
                "side": side,
                "leadership": rng.randint(20, 70),
                "roll": rng.randint(1, 100),
            },
            {"type": "roll_influence", "side": side, "roll": rng.randint(1, 100)},
            {"type": "set_strength", "side": side, "strength": rng.randint(0, 40)},
            {"type": "detach_fighters", "unit": f"u{rng.randint(1, 3)}", "fighters": 1},
            {"type": "pcs_won", "fleeing": rng.choice(["0", "1/2", "1"])},
            {"type": "undo"},
        ]
    )
