"""Small builders for battles in tests."""

from __future__ import annotations

import random
from typing import Any

from background_battle import Battle, apply, new_battle


def unit(name: str, side: str, fighters: int, strength: int | None, **extra: Any) -> dict[str, Any]:
    """An ``add_unit`` command (``strength`` None: left out, for a unit rated instead)."""
    command = {"type": "add_unit", "name": name, "side": side, "fighters": fighters, **extra}
    if strength is not None:
        command["strength"] = strength
    return command


def run(battle: Battle, *commands: dict[str, Any], seed: int | None = 1) -> Battle:
    """Apply commands in order (one generator for all rolls)."""
    rng = random.Random(seed) if seed is not None else None
    for command in commands:
        battle, _ = apply(battle, command, rng)
    return battle


def dwarves_and_orcs(start: bool = True) -> Battle:
    """The seed's dwarves (10 fighters, 30) against the orcs (12 fighters, 26)."""
    battle = run(
        new_battle("gate"),
        unit("Dwarves", "allies", 10, 30),
        unit("Orcs", "enemies", 12, 26),
    )
    return run(battle, {"type": "start"}) if start else battle


def two_unit_allies() -> Battle:
    """The seed's side of two units (10 fighters at 20, 20 at 60), S0 100 after modifiers."""
    return run(
        new_battle("two units"),
        unit("First", "allies", 10, 20),
        unit("Second", "allies", 20, 60),
        {"type": "set_modifiers", "side": "allies", "modifiers": [{"name": "Banner", "flat": 20}]},
        unit("Foes", "enemies", 30, 90),
        {"type": "start"},
    )


def casualties_of(battle: Battle) -> dict[str, tuple[int, int, int]]:
    """Each unit's (killed, wounded, fit), by name."""
    from background_battle import state_view

    return {
        u["name"]: (u["casualties"]["killed"], u["casualties"]["wounded"], u["casualties"]["fit"])
        for u in state_view(battle)["units"]
    }
