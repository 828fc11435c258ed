"""A command is accepted only in its known shape, and the log keeps it as the core normalised it."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from background_battle import BattleError, apply, from_json, to_json
from background_battle.api import handle
from background_battle.log import RULES
from background_battle.shapes import MAX_DEPTH, SHAPES, normalise
from background_battle.shapes_doc import BEGIN, END, markdown

from .builders import dwarves_and_orcs, run, unit

ROOT = Path(__file__).parents[2]

# One valid command of each type, for a battle in the phase it needs.
SETUP = {
    "add_unit": unit("Elves", "allies", 5, 20),
    "update_unit": {"type": "update_unit", "unit": "u1", "name": "Longbeards"},
    "remove_unit": {"type": "remove_unit", "unit": "u1"},
    "set_modifiers": {"type": "set_modifiers", "side": "allies", "modifiers": [{"name": "Gate"}]},
    "start": {"type": "start"},
}
FIGHTING = {
    "leader_command": {"type": "leader_command", "side": "allies", "sl": 3},
    "resolve_round": {
        "type": "resolve_round",
        "mode": "rolls",
        "rolls": {"allies": 5, "enemies": 50},
    },
    "set_strength": {"type": "set_strength", "side": "allies", "strength": 20},
    "detach_fighters": {"type": "detach_fighters", "unit": "u1", "fighters": 1},
    "pcs_won": {"type": "pcs_won", "fleeing": 0.5},
    "end_battle": {"type": "end_battle", "winner": None},
    "roll_influence": {"type": "roll_influence", "side": "allies", "roll": 40},
    "set_influence_table": {"type": "set_influence_table", "table": None},
    "set_hidden": {"type": "set_hidden", "hidden": ["enemies.strength"]},
    "rename": {"type": "rename", "name": "Gate"},
}
EXAMPLES = {**SETUP, **FIGHTING}


def battle_for(kind: str) -> Any:
    return dwarves_and_orcs(start=kind not in SETUP)


def refused(battle: Any, command: Any) -> BattleError:
    before = to_json(battle)
    with pytest.raises(BattleError) as caught:
        apply(battle, command)
    assert to_json(battle) == before
    return caught.value


def test_every_command_has_a_shape_and_a_rule_and_an_example() -> None:
    assert set(SHAPES) == set(RULES) == {*EXAMPLES, "undo"}


@pytest.mark.parametrize("kind", sorted(EXAMPLES))
def test_each_example_is_accepted_and_stored_as_normalised(kind: str) -> None:
    battle, _ = apply(battle_for(kind), EXAMPLES[kind])
    assert battle.log[-1].command == normalise(EXAMPLES[kind])


@pytest.mark.parametrize("kind", sorted(EXAMPLES))
def test_an_unknown_field_is_refused_naming_it(kind: str) -> None:
    error = refused(battle_for(kind), {**EXAMPLES[kind], "extra": math.nan})
    assert (error.code, error.field) == ("unknown_field", "extra")
    assert "extra" in error.message and "type" in error.params["accepted"]


@pytest.mark.parametrize(
    ("command", "field"),
    [
        ({**FIGHTING["resolve_round"], "rolls": {"allies": 5, "enemies": 50, "x": 1}}, "rolls.x"),
        (
            {"type": "set_modifiers", "side": "allies", "modifiers": [{"name": "a", "b": 1}]},
            "modifiers[0].b",
        ),
        (
            {"type": "set_influence_table", "table": {"bands": [], "colour": "red"}},
            "table.colour",
        ),
        (
            {
                "type": "set_influence_table",
                "table": {"bands": [{"min": None, "max": 0, "effect": "x", "weight": 2}, {}]},
            },
            "table.bands[0].weight",
        ),
    ],
)
def test_an_unknown_field_inside_a_field_is_refused_by_its_path(
    command: dict[str, Any], field: str
) -> None:
    battle = dwarves_and_orcs(start=command["type"] != "set_modifiers")
    error = refused(battle, command)
    assert (error.code, error.field) == ("unknown_field", field)


def test_a_lone_surrogate_in_a_name_is_refused_and_nothing_is_stored() -> None:
    error = refused(dwarves_and_orcs(start=False), unit("Orc\udc00", "enemies", 3, 9))
    assert (error.code, error.field) == ("bad_text", "name")
    error.message.encode("utf-8")  # the message itself can be sent


CONTROLS = ["\x00", "\n", "\r", "\t", "\x1b", "\x7f", "\x85", "\u2028", "\u2029"]


@pytest.mark.parametrize("character", CONTROLS)
@pytest.mark.parametrize(
    ("command", "field"),
    [
        (lambda name: unit(name, "enemies", 3, 9), "name"),
        (lambda name: {"type": "update_unit", "unit": "u1", "name": name}, "name"),
        (lambda name: {**unit("Orcs", "enemies", 3, 9), "id": name}, "id"),
        (
            lambda name: {
                "type": "set_modifiers",
                "side": "allies",
                "modifiers": [{"name": name, "percent": 5}],
            },
            "modifiers[0].name",
        ),
        (lambda name: {"type": "rename", "name": name}, "name"),
    ],
)
def test_a_control_character_or_line_break_in_any_name_is_refused(
    character: str, command: Any, field: str
) -> None:
    """One rule for every name (battle names in the bridge too): as given, nothing trimmed
    away first, the character named."""
    for name in (f"Orc{character}s", f"Orcs{character}", f"{character}Orcs"):
        error = refused(dwarves_and_orcs(start=False), command(name))
        assert (error.code, error.field) == ("bad_text", field), (name, error)
        assert error.params["character"] == f"U+{ord(character):04X}"


def test_a_control_character_in_a_table_name_is_refused_but_an_effect_may_break_lines() -> None:
    bands = [{"min": None, "max": 0, "effect": "a"}, {"min": 1, "max": None, "effect": "b\nc"}]
    named = {"bands": bands, "name": {"en": "House\x00rules"}}
    error = refused(dwarves_and_orcs(), {"type": "set_influence_table", "table": named})
    assert (error.code, error.field) == ("bad_text", "table.name.en")
    battle = run(dwarves_and_orcs(), {"type": "set_influence_table", "table": {"bands": bands}})
    stored = to_json(battle)["log"][-1]["events"][0]["table"]["bands"][1]["effect"]
    assert stored == {"en": "b\nc"}


def test_a_lone_surrogate_in_a_field_name_is_named_escaped() -> None:
    error = refused(dwarves_and_orcs(), {"type": "undo", "x\ud800": 1})
    assert error.code == "unknown_field"
    json.dumps(error.to_dict(), ensure_ascii=False).encode("utf-8")


def test_a_lone_surrogate_in_a_table_effect_is_refused() -> None:
    table = {
        "bands": [
            {"min": None, "max": 0, "effect": "a"},
            {"min": 1, "max": None, "effect": "\udc00"},
        ]
    }
    error = refused(dwarves_and_orcs(), {"type": "set_influence_table", "table": table})
    assert (error.code, error.field) == ("bad_table", "table.bands[1].effect.en")


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, True, "18", [18], {"n": 18}])
def test_numbers_are_whole_finite_and_not_booleans(value: Any) -> None:
    error = refused(
        dwarves_and_orcs(), {"type": "set_strength", "side": "allies", "strength": value}
    )
    assert (error.code, error.field) == ("not_integer", "strength")


@pytest.mark.parametrize("depth", [MAX_DEPTH, 900, 100_000])
def test_data_nested_too_deep_is_refused_without_recursion(depth: int) -> None:
    nested: Any = 1
    for _ in range(depth):
        nested = [nested]
    error = refused(dwarves_and_orcs(), {"type": "rename", "name": nested})
    assert (error.code, error.field, error.params["max"]) == ("too_deep", "command", MAX_DEPTH)


def test_a_text_over_its_length_cap_is_refused() -> None:
    error = refused(dwarves_and_orcs(), {"type": "rename", "name": "x" * 201})
    assert (error.code, error.field, error.params["max"]) == ("out_of_range", "name", 200)


def test_the_log_keeps_canonical_values() -> None:
    battle = run(
        dwarves_and_orcs(start=False),
        {
            "type": "add_unit",
            "name": "  Elves ",
            "side": "allies",
            "fighters": 5.0,
            "strength": 20,
        },
        {"type": "start"},
        {"type": "pcs_won", "fleeing": 0.5},
    )
    assert battle.log[2].command == {
        "type": "add_unit",
        "name": "Elves",
        "side": "allies",
        "fighters": 5,
        "strength": 20,
    }
    assert battle.log[-1].command == {"type": "pcs_won", "fleeing": "1/2"}


def test_null_is_never_read_as_not_given() -> None:
    for command, field in [
        ({"type": "pcs_won", "fleeing": None}, "fleeing"),
        ({"type": "leader_command", "side": "allies", "sl": 2, "roll": None}, "roll"),
        ({"type": "set_strength", "side": "allies", "strength": None}, "strength"),
    ]:
        with pytest.raises(BattleError) as refused:
            apply(dwarves_and_orcs(), command)
        assert (refused.value.code, refused.value.field) == ("not_null", field)


def test_null_is_a_value_where_a_field_is_nullable() -> None:
    battle, events = apply(dwarves_and_orcs(), {"type": "end_battle", "winner": None})
    assert battle.log[-1].command == {"type": "end_battle", "winner": None}
    assert events[0]["winner"] is None


def test_a_field_needed_by_another_fields_value_is_required() -> None:
    error = refused(dwarves_and_orcs(), {"type": "resolve_round", "mode": "lost"})
    assert (error.code, error.field) == ("required", "lost")
    error = refused(dwarves_and_orcs(), {"type": "leader_command", "side": "allies"})
    assert (error.code, error.params["accepted"]) == ("required", ["sl", "leadership", "success"])


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=5)
    | st.sampled_from(["\udc00", "Orc\ud800x", "allies", "u1"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=10,
)


@given(kind=st.sampled_from(sorted(EXAMPLES)), field=st.text(max_size=8), value=JSON)
def test_any_change_to_a_command_is_either_refused_or_stored_normalised(
    kind: str, field: str, value: Any
) -> None:
    battle = battle_for(kind)
    command = {**EXAMPLES[kind], field: value}
    try:
        after, _ = apply(battle, command)
    except BattleError as error:
        json.dumps(error.to_dict())
        return
    stored = after.log[-1].command
    assert set(stored) <= {"type", *(f.name for f in SHAPES[kind].fields)}
    assert normalise(stored) == stored
    assert from_json(json.loads(json.dumps(to_json(after)))) == after


def test_the_boundary_describes_every_command() -> None:
    reply = handle({"op": "command_shapes"})
    assert reply["ok"] is True
    assert [c["type"] for c in reply["commands"]] == list(SHAPES)
    assert reply["limits"] == {"max_depth": MAX_DEPTH, "max_text": 200, "max_typed": 400}
    json.dumps(reply)


def test_docs_protocol_holds_exactly_the_generated_commands_section() -> None:
    document = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    start, end = document.index(BEGIN), document.index(END) + len(END) + 1
    assert document[start:end] == markdown(), (
        "run: .venv/bin/python -m background_battle.shapes_doc --write docs/protocol.md"
    )


def test_the_generated_section_lists_every_field_of_every_command() -> None:
    text = markdown()
    for shape in SHAPES.values():
        assert f"### `{shape.type}`" in text
        for field in shape.fields:
            assert f"| `{field.name}` |" in text


def known_fields(kind: str) -> list[str]:
    return [field.name for field in SHAPES[kind].fields]


@given(kind=st.sampled_from(sorted(k for k in EXAMPLES if SHAPES[k].fields)), data=st.data())
def test_any_values_in_the_known_fields_are_either_refused_or_accepted_never_a_crash(
    kind: str, data: st.DataObject
) -> None:
    names = known_fields(kind)
    fields = data.draw(st.dictionaries(st.sampled_from(names), JSON, max_size=len(names)))
    command = {**EXAMPLES[kind], **fields}
    try:
        after, _ = apply(battle_for(kind), command)
    except BattleError as error:
        assert error.code and error.message
        return
    assert after.log[-1].command == normalise(command)
