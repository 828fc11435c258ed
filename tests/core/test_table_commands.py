"""table_commands.py: the battle's name, what players see, the Influence table and undo."""

from __future__ import annotations

import pytest

from background_battle import BattleError, default_table, new_battle

from .builders import dwarves_and_orcs, run


def test_rename_changes_the_name_not_the_name_it_was_created_as() -> None:
    battle = run(new_battle("ambush"), {"type": "rename", "name": "The ford"})
    assert (battle.name, battle.created_as) == ("The ford", "ambush")


def test_the_hidden_numbers_are_the_gms_choice() -> None:
    battle = run(new_battle(), {"type": "set_hidden", "hidden": []})
    assert battle.hidden == frozenset()


def test_a_gms_table_replaces_the_default_and_null_brings_it_back() -> None:
    own = default_table().to_dict()
    own["bands"][0]["effect"] = {"en": "Nothing at all.", "ru": "Ничего."}
    battle = run(new_battle(), {"type": "set_influence_table", "table": own})
    assert dict(battle.table().bands[0].effect)["en"] == "Nothing at all."
    battle = run(battle, {"type": "set_influence_table", "table": None})
    assert battle.table() == default_table()


def test_undo_takes_back_the_latest_entry_that_counts() -> None:
    battle = run(dwarves_and_orcs(), {"type": "undo"})
    assert battle.status == "setup"


def test_nothing_to_undo_is_refused() -> None:
    with pytest.raises(BattleError) as refused:
        run(new_battle(), {"type": "undo"})
    assert refused.value.code == "nothing_to_undo"
