"""Issue 27, 1: the core reads the shared table of typed numbers (tests/support/typed-numbers.json)
as the page and the Foundry panel do: the same value, or the same refusal naming the field.
Its bounds are the command shapes' own, and the module's copy of them is generated from them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from background_battle import BattleError
from background_battle.shapes import number_fields
from background_battle.shapes_doc import MODULE_FILE, module_numbers
from background_battle.validate import share, typed_whole

ROOT = Path(__file__).resolve().parents[2]
TABLE = json.loads((ROOT / "tests" / "support" / "typed-numbers.json").read_text("utf-8"))["rows"]


def typed(row: dict[str, Any]) -> str:
    """The row's text, a long one written out."""
    char, count = row.get("then", ["", 0])
    return str(row["typed"] + char * count + row.get("end", ""))


def core_reading(field: str, text: str) -> dict[str, Any]:
    """What the core makes of ``text`` typed in ``field``: {read} or {refused} (a blank is left
    out by every shell: the core reads its absence by the shape, a default or `required`)."""
    if not text.strip():
        return {"blank": True}
    bounds = number_fields()[field]
    name = field.split(".", 1)[1]
    try:
        if bounds["kind"] == "share":
            return {"read": str(share(text, name))}
        return {"read": typed_whole(text, name, bounds["min"], bounds["max"])}
    except BattleError as error:
        assert error.field == name
        return {"refused": error.code}


@pytest.mark.parametrize("row", TABLE, ids=lambda row: f"{row['field']}:{typed(row)[:24]!r}")
def test_the_core_reads_every_typed_number_as_the_table_says(row: dict[str, Any]) -> None:
    expected = {key: row[key] for key in ("read", "refused", "blank") if key in row}
    assert core_reading(row["field"], typed(row)) == expected


def test_the_table_holds_both_languages_habits_and_every_kind_of_refusal() -> None:
    texts = {typed(row) for row in TABLE}
    assert {"0,5", "50%", "50 %", "1/2", "", "half", "десять", "−3", "1e30000000"} <= texts
    assert {row.get("refused") for row in TABLE} >= {"not_number", "not_integer", "out_of_range"}


def test_the_modules_number_fields_are_the_cores() -> None:
    written = (ROOT / MODULE_FILE).read_text("utf-8")
    assert written == module_numbers(), (
        f"{MODULE_FILE} differs from the core's command shapes; run: "
        f".venv/bin/python -m background_battle.shapes_doc --write-module {MODULE_FILE}"
    )
