"""Write ``vectors.json``: requests to ``api.handle`` and the replies the core gives today.

The file is golden: tests compare the core against it in CPython (tests/core/test_golden.py)
and inside Pyodide in the browser (tests/web). Regenerate only for an intended change of a rule:

    .venv/bin/python tests/golden/make_vectors.py
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from background_battle.api import handle

HERE = Path(__file__).parent

DWARVES = {"type": "add_unit", "name": "Dwarves", "side": "allies", "fighters": 10, "strength": 30}
ORCS = {"type": "add_unit", "name": "Orcs", "side": "enemies", "fighters": 12, "strength": 26}
SCRIPT: list[tuple[dict[str, Any], int | None]] = [
    (DWARVES, None),
    (
        {
            "type": "add_unit",
            "name": "Rangers",
            "side": "allies",
            "fighters": 6,
            "rating": 2,
            "size": "small",
        },
        None,
    ),
    (ORCS, None),
    (
        {"type": "set_modifiers", "side": "allies", "modifiers": [{"name": "Gate", "percent": 10}]},
        None,
    ),
    ({"type": "start"}, None),
    ({"type": "leader_command", "side": "enemies", "sl": 7}, None),
    ({"type": "resolve_round", "mode": "auto"}, 101),
    ({"type": "resolve_round", "mode": "rolls", "rolls": {"allies": 12, "enemies": 97}}, None),
    ({"type": "leader_command", "side": "allies", "leadership": 50}, 102),
    ({"type": "resolve_round", "mode": "auto"}, 103),
    ({"type": "roll_influence", "side": "enemies"}, 104),
    ({"type": "undo"}, None),
    ({"type": "resolve_round", "mode": "lost", "lost": {"allies": 2, "enemies": 3}}, None),
    ({"type": "detach_fighters", "unit": "u1", "fighters": 2}, None),
    ({"type": "pcs_won", "fleeing": "1/2"}, None),
    ({"type": "roll_influence", "side": "allies"}, 105),
]


def simple_vectors() -> list[tuple[str, dict[str, Any]]]:
    return [
        (
            "seed: dwarves 10 fighters, 12 of 30 lost",
            {
                "op": "casualties",
                "initial": 30,
                "remaining": 18,
                "units": [{"name": "Dwarves", "fighters": 10}],
            },
        ),
        (
            "seed: two units, 40 of 100 left",
            {
                "op": "casualties",
                "initial": 100,
                "remaining": 40,
                "units": [{"name": "First", "fighters": 10}, {"name": "Second", "fighters": 20}],
            },
        ),
        (
            "below a third: all who live are wounded",
            {
                "op": "casualties",
                "initial": 30,
                "remaining": 3,
                "units": [{"name": "A", "fighters": 7}],
            },
        ),
        (
            "strength above S0 loses nothing",
            {
                "op": "casualties",
                "initial": 30,
                "remaining": 40,
                "units": [{"name": "A", "fighters": 7}],
            },
        ),
        ("seed: orc WAAAGH", {"op": "leader_bonus", "strength": 26, "sl": 7}),
        ("seed slip: 60 with 5 SL is 9", {"op": "leader_bonus", "strength": 60, "sl": 5}),
        (
            "seed: orc boss falls",
            {"op": "last_stand", "enemy_strength": 26, "fleeing": "1/2", "allies_strength": 24},
        ),
        ("last stand as a float share", {"op": "last_stand", "enemy_strength": 27, "fleeing": 0.5}),
        ("rated unit, large", {"op": "unit_strength", "fighters": 3, "rating": 5, "size": "large"}),
        (
            "rated unit, small, half rounds down",
            {"op": "unit_strength", "fighters": 5, "rating": 3, "size": "small"},
        ),
        ("sizes", {"op": "sizes"}),
        ("house default influence table", {"op": "influence_table"}),
        ("error: S0 of 0", {"op": "casualties", "initial": 0, "remaining": 0, "units": []}),
        (
            "error: fractional fighters",
            {
                "op": "casualties",
                "initial": 30,
                "remaining": 3,
                "units": [{"name": "A", "fighters": 2.5}],
            },
        ),
        ("error: failed test with SL", {"op": "leader_bonus", "strength": 30, "sl": -2}),
        ("error: unknown op", {"op": "fireball"}),
        ("new battle", {"op": "new_battle", "name": "ambush"}),
    ]


def battle_vectors() -> list[tuple[str, dict[str, Any]]]:
    vectors = []
    battle = handle({"op": "new_battle", "name": "golden"})["battle"]
    for command, seed in SCRIPT:
        request: dict[str, Any] = {"op": "apply", "battle": battle, "command": command}
        if seed is not None:
            request["seed"] = seed
        vectors.append((f"apply {command['type']}", request))
        reply = handle(request)
        assert reply["ok"], reply
        battle = reply["battle"]
    vectors.append(("player view", {"op": "view", "battle": battle, "role": "player"}))
    vectors.append(
        ("odds of the played battle", {"op": "odds", "battle": battle, "runs": 50, "seed": 1})
    )
    started = handle(
        {
            "op": "apply",
            "battle": handle(
                {
                    "op": "apply",
                    "battle": handle(
                        {
                            "op": "apply",
                            "battle": handle({"op": "new_battle", "name": "o"})["battle"],
                            "command": DWARVES,
                        }
                    )["battle"],
                    "command": ORCS,
                }
            )["battle"],
            "command": {"type": "start"},
        }
    )["battle"]
    vectors.append(
        ("odds, dwarves against orcs", {"op": "odds", "battle": started, "runs": 300, "seed": 9})
    )
    vectors.append(
        (
            "error: roll out of range",
            {
                "op": "apply",
                "battle": started,
                "command": {
                    "type": "resolve_round",
                    "mode": "rolls",
                    "rolls": {"allies": 0, "enemies": 50},
                },
            },
        )
    )
    vectors.append(
        (
            "error: rolling without a seed",
            {
                "op": "apply",
                "battle": started,
                "command": {"type": "resolve_round", "mode": "auto"},
            },
        )
    )
    return vectors


def main() -> None:
    vectors = [
        {"name": name, "request": request, "response": handle(request)}
        for name, request in simple_vectors() + battle_vectors()
    ]
    path = HERE / "vectors.json"
    path.write_text(json.dumps(vectors, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(vectors)} vectors to {path}")


if __name__ == "__main__":
    main()
