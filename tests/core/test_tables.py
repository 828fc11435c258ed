"""tables.py: the command line's text, formatted from what the core computed."""

from __future__ import annotations

from background_battle.tables import fates_bar, fates_table, table


def test_a_table_pads_its_columns_and_right_aligns_numbers() -> None:
    assert table(["unit", "n"], [["Dwarves", 10]]).splitlines() == ["unit     n", "Dwarves 10"]


def test_a_fates_bar_draws_each_fate_in_proportion() -> None:
    assert fates_bar(2, 4, 4, 10) == "██▒▒▒▒░░░░"
    assert len(fates_bar(1, 1, 1, 30)) == 30


def test_a_fates_table_has_a_row_per_unit() -> None:
    text = fates_table(
        "unit",
        [
            {"name": "Dwarves", "fighters": 10, "killed": 2, "wounded": 4, "fit": 4},
            {"name": "Rangers", "fighters": 5, "killed": 1, "wounded": 2, "fit": 2},
        ],
    )
    assert "Dwarves" in text and "Rangers" in text
