"""docs/rules.md §6: the higher the total, the better for the roller; effects read for it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from background_battle import Battle, BattleError, default_table
from background_battle.influence_words import FORMS, placeholders
from background_battle.validate import SIDES

from .builders import dwarves_and_orcs, run

BANDS = default_table().bands
LANGUAGES = ("en", "ru")


def total_in(index: int) -> int:
    band = BANDS[index]
    return band.max - 10 if band.min is None else band.min if band.max is None else band.max


def effect_of_roll(side: str, total: int, battle: Battle | None = None) -> dict[str, str]:
    """The effect a roll of ``side`` with this total reads, through the core (during the fight)."""
    other = "enemies" if side == "allies" else "allies"
    battle = run(
        battle or dwarves_and_orcs(),
        {"type": "set_strength", "side": side, "strength": 1000 + total - 50},
        {"type": "set_strength", "side": other, "strength": 1000},
        {"type": "roll_influence", "side": side, "roll": 50},
    )
    event = battle.log[-1].events[0]
    assert event["total"] == total
    effect: dict[str, str] = event["band"]["effect"]
    return effect


# Fixed text that names the PCs' own fight (the foreground), not a side of the battle.
FOREGROUND = (
    "the PCs' fight",
    "PC or foe",
    "боя персонажей",
    "бою персонажей",
    "персонажа или врага",
)


def swapped(text: str, language: str) -> str:
    """``text`` with the words for allies and for enemies traded, in one pass."""
    trade = {word: word for word in FOREGROUND}
    for allies, enemies in FORMS[language].values():
        trade |= {allies: enemies, enemies: allies}
        trade |= {
            allies.capitalize(): enemies.capitalize(),
            enemies.capitalize(): allies.capitalize(),
        }
    words = sorted(trade, key=len, reverse=True)
    pattern = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, words)) + r")(?!\w)")
    return pattern.sub(lambda match: trade[match.group(1)], text)


@pytest.mark.parametrize("index", range(len(BANDS)))
def test_an_enemies_roll_and_an_allies_roll_of_the_same_total_read_for_their_own_side(
    index: int,
) -> None:
    total = total_in(index)
    allies, enemies = effect_of_roll("allies", total), effect_of_roll("enemies", total)
    for language in LANGUAGES:
        assert "{" not in allies[language] and "{" not in enemies[language]
        assert swapped(allies[language], language) == enemies[language]
        assert allies[language] == BANDS[index].for_side("allies").to_dict()["effect"][language]


def test_bands_that_name_a_side_read_differently_for_each_side() -> None:
    sided = [band for band in BANDS if "{" in dict(band.effect)["en"]]
    assert len(sided) >= 7
    for band in sided:
        assert band.for_side("allies") != band.for_side("enemies")


def test_an_enemies_roll_of_183_brings_help_to_the_enemies_not_to_the_pcs() -> None:
    enemies = effect_of_roll("enemies", 183)
    assert "an enemy fighter joins" in enemies["en"] and "allied" not in enemies["en"]
    assert "вражеский боец" in enemies["ru"] and "союзный" not in enemies["ru"]
    assert "the PCs lose all Advantage" in enemies["en"]
    allies = effect_of_roll("allies", 183)
    assert "an allied fighter joins" in allies["en"]


def test_the_higher_the_total_the_better_for_the_side_that_rolled_at_both_ends() -> None:
    for side in SIDES:
        worst, best = effect_of_roll(side, -20)["en"], effect_of_roll(side, 250)["en"]
        own = placeholders("en")["rolling_one"][side]
        assert f"Each {own} loses all Advantage" in worst
        assert f"help for {placeholders('en')['rolling'][side]} arrives" in best


def gms_table(effect: Any) -> dict[str, Any]:
    return {
        "bands": [
            {"min": None, "max": 50, "effect": effect},
            {"min": 51, "max": None, "effect": {"en": "Nothing"}},
        ]
    }


def test_a_gms_own_table_may_use_the_placeholders_and_reads_for_the_roller() -> None:
    effect = {"en": "{Other} cheer; {rolling} lose 1 Advantage", "ru": "{Rolling_dat} худо"}
    battle = run(dwarves_and_orcs(), {"type": "set_influence_table", "table": gms_table(effect)})
    assert effect_of_roll("enemies", 10, battle) == {
        "en": "The PCs cheer; the PCs' foes lose 1 Advantage",
        "ru": "Противникам персонажей худо",
    }
    assert battle.table().bands[0].effect == tuple(sorted(effect.items()))  # kept as written


@pytest.mark.parametrize(
    ("effect", "field"),
    [
        ({"en": "{rolling_gen} fall"}, "table.bands[0].effect.en"),
        ({"ru": "{allies} падают"}, "table.bands[0].effect.ru"),
        ({"en": "{}"}, "table.bands[0].effect.en"),
    ],
)
def test_an_unknown_placeholder_in_a_gms_table_is_refused_naming_it(
    effect: dict[str, str], field: str
) -> None:
    with pytest.raises(BattleError) as caught:
        run(dwarves_and_orcs(), {"type": "set_influence_table", "table": gms_table(effect)})
    assert (caught.value.code, caught.value.field) == ("bad_table", field)
    assert "placeholder" in caught.value.message and "{rolling}" in caught.value.message


def test_docs_core_api_names_every_placeholder_form() -> None:
    document = (Path(__file__).parents[2] / "docs" / "core-api.md").read_text(encoding="utf-8")
    for language, forms in FORMS.items():
        row = next(line for line in document.splitlines() if line.startswith(f"| `{language}` |"))
        for form in forms:
            assert (f"`_{form}`" if form else "`{rolling}` / `{other}`") in row, (language, form)
