"""setup_commands.py: units, side modifiers and the start, each refused in the wrong phase."""

from __future__ import annotations

import pytest

from background_battle import BattleError, new_battle

from .builders import dwarves_and_orcs, run, unit


def test_a_unit_gets_the_next_id_and_its_rated_strength() -> None:
    battle = run(new_battle(), unit("Trolls", "enemies", 3, None, rating=10, size="large"))
    (trolls,) = battle.units
    assert (trolls.id, trolls.strength, trolls.size) == ("u1", 60, "large")


def test_an_updated_unit_keeps_its_id() -> None:
    battle = run(new_battle(), unit("Trolls", "enemies", 3, 30))
    battle = run(battle, {"type": "update_unit", "unit": "u1", "fighters": 4})
    assert [(u.id, u.fighters) for u in battle.units] == [("u1", 4)]


def test_a_removed_unit_is_gone() -> None:
    battle = run(
        new_battle(), unit("Trolls", "enemies", 3, 30), {"type": "remove_unit", "unit": "u1"}
    )
    assert battle.units == ()


def test_modifiers_give_s0_at_the_start() -> None:
    battle = run(
        dwarves_and_orcs(start=False),
        {
            "type": "set_modifiers",
            "side": "allies",
            "modifiers": [{"name": "High ground", "percent": 10}],
        },
        {"type": "start"},
    )
    assert battle.side("allies").initial == 33


def test_units_cannot_be_added_once_the_battle_has_started() -> None:
    with pytest.raises(BattleError):
        run(dwarves_and_orcs(), unit("Late", "allies", 1, 5))


def test_an_unknown_unit_is_refused_by_its_field() -> None:
    with pytest.raises(BattleError) as refused:
        run(new_battle(), {"type": "remove_unit", "unit": "u9"})
    assert refused.value.field == "unit"
