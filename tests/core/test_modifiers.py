"""modifiers.py: named side modifiers turn the units' sum into S0 (docs/rules.md §3)."""

from __future__ import annotations

from background_battle.modifiers import Modifier, initial_strength


def test_percent_and_flat_modifiers_add_up() -> None:
    both = [Modifier("High ground", percent=10), Modifier("Banner", flat=5)]
    assert initial_strength(50, both) == 60


def test_s0_rounds_halves_down() -> None:
    assert initial_strength(25, [Modifier("Tired", percent=-10)]) == 22  # 22.5 -> 22


def test_s0_never_goes_below_zero() -> None:
    assert initial_strength(10, [Modifier("Routed", flat=-50)]) == 0


def test_no_modifier_leaves_the_sum() -> None:
    assert initial_strength(56) == 56


def test_a_modifier_reads_back_as_its_fields() -> None:
    assert Modifier("High ground", percent=10).to_dict() == {
        "name": "High ground",
        "percent": 10,
        "flat": 0,
    }
