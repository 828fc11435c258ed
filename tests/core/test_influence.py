"""The Influence table: the house default, and a GM's own table checked before use."""

from __future__ import annotations

from typing import Any

import pytest

from background_battle import BattleError, default_table, table_from_dict

from .builders import dwarves_and_orcs, run


def test_default_table_is_a_marked_house_default_of_8_to_10_bands_in_two_languages() -> None:
    table = default_table()
    assert table.house_default
    assert 8 <= len(table.bands) <= 10
    assert table.bands[0].min is None and table.bands[0].max == 0
    assert table.bands[-1].min == 200 and table.bands[-1].max is None
    for band in table.bands:
        effect = dict(band.effect)
        assert effect["en"] and effect["ru"]


@pytest.mark.parametrize("total", [-500, 0, 1, 25, 26, 100, 101, 199, 200, 10_000])
def test_every_total_falls_in_exactly_one_band(total: int) -> None:
    assert sum(band.contains(total) for band in default_table().bands) == 1


def good() -> dict[str, Any]:
    return {
        "name": {"en": "Mine"},
        "bands": [
            {"min": None, "max": 50, "effect": {"en": "Bad", "ru": "Плохо"}},
            {"min": 51, "max": 120, "effect": "Middling"},
            {"min": 121, "max": None, "effect": {"en": "Good"}},
        ],
    }


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda t: t["bands"][1].update(min=60), "table.bands[1].min"),
        (lambda t: t["bands"][0].update(min=0), "table.bands[0].min"),
        (lambda t: t["bands"][2].update(max=300), "table.bands[2].max"),
        (lambda t: t["bands"][1].update(effect={"de": "Gut"}), "table.bands[1].effect.de"),
        (lambda t: t["bands"][1].update(effect=""), "table.bands[1].effect"),
        (lambda t: t.update(bands=[]), "table.bands"),
        (lambda t: t["bands"][1].update(max=40), "table.bands[1].max"),
    ],
)
def test_a_broken_table_is_refused_naming_the_band(change: Any, field: str) -> None:
    table = good()
    change(table)
    with pytest.raises(BattleError) as caught:
        table_from_dict(table)
    assert caught.value.field == field


def test_the_gms_table_is_used_for_rolls_and_survives_undo_and_json() -> None:
    battle = run(
        dwarves_and_orcs(),
        {"type": "set_influence_table", "table": good()},
        {"type": "roll_influence", "side": "allies", "roll": 100},
    )
    assert battle.log[-1].events[0]["total"] == 100 + 30 - 26
    assert battle.log[-1].events[0]["band"]["effect"] == {"en": "Middling"}
    battle = run(battle, {"type": "set_influence_table", "table": None})
    assert battle.table() == default_table()
