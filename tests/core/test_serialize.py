"""serialize.py: a battle's JSON form, loaded back by replaying every entry."""

from __future__ import annotations

import copy

import pytest

from background_battle import BattleError
from background_battle.serialize import SCHEMA, from_json, to_json

from .builders import dwarves_and_orcs, run


def test_a_battle_comes_back_the_same_from_its_json() -> None:
    battle = run(dwarves_and_orcs(), {"type": "resolve_round", "mode": "auto"}, seed=3)
    again = from_json(to_json(battle))
    assert to_json(again) == to_json(battle)
    assert again.strength("allies") == battle.strength("allies")


def test_a_tampered_roll_is_refused_naming_the_entry() -> None:
    battle = run(dwarves_and_orcs(), {"type": "resolve_round", "mode": "auto"}, seed=3)
    data = copy.deepcopy(to_json(battle))
    data["log"][-1]["events"][0]["strength"]["allies"] += 5
    with pytest.raises(BattleError) as refused:
        from_json(data)
    assert refused.value.code == "bad_battle"
    assert refused.value.field is not None and refused.value.field.startswith("battle.log[")


def test_a_schema_from_the_future_is_refused() -> None:
    with pytest.raises(BattleError) as refused:
        from_json({"schema": SCHEMA + 1, "name": "x", "log": []})
    assert refused.value.code == "schema_too_new"
