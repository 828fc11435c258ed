"""validate.py: every bad value becomes a BattleError naming its field and its range.

Numbers in text are read by their form and length first, so any text is answered at once with a
reading or a refusal naming the field (issue 26: "1e30000000" took 58 s, "1e-5000" was an
internal error, "0.5e-4299" stored a 4,300-digit fraction).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from background_battle import BattleError, apply, to_json
from background_battle.api import handle
from background_battle.validate import (
    MAX_TYPED,
    one_of,
    other_side,
    share,
    side,
    text,
    typed_whole,
    whole,
)

from .builders import dwarves_and_orcs


def test_a_whole_number_in_range_is_taken_and_a_whole_float_too() -> None:
    assert whole(3, "fighters", 1, 10) == 3
    assert whole(3.0, "fighters", 1, 10) == 3


@pytest.mark.parametrize("value", [0, 11, 2.5, "3", True, None])
def test_anything_else_is_refused_by_field(value: object) -> None:
    with pytest.raises(BattleError) as refused:
        whole(value, "fighters", 1, 10)
    assert refused.value.field == "fighters"


def test_a_share_reads_a_fraction_or_a_decimal() -> None:
    assert share("1/2", "fleeing") == share(0.5, "fleeing") == Fraction(1, 2)


def test_a_share_above_one_is_refused() -> None:
    with pytest.raises(BattleError) as refused:
        share("3/2", "fleeing")
    assert refused.value.field == "fleeing"


def test_sides_and_choices() -> None:
    assert side("allies") == "allies" and other_side("allies") == "enemies"
    with pytest.raises(BattleError):
        side("orcs")
    with pytest.raises(BattleError) as refused:
        one_of("huge", "size", ["small", "large"], "unknown_size")
    assert refused.value.code == "unknown_size"


def test_a_text_is_trimmed_and_bounded() -> None:
    assert text("  Dwarves ", "name") == "Dwarves"
    with pytest.raises(BattleError):
        text("x" * 201, "name")


HALF = Fraction(1, 2)


@pytest.mark.parametrize(
    "typed", ["1/2", "0.5", "0,5", "50%", "50 %", " 2 / 4 ", ".5", ",5", "50\u00a0%", "50,0 %"]
)
def test_a_half_is_read_however_a_gm_types_it(typed: str) -> None:
    assert share(typed, "fleeing") == HALF


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("1e30000000", "not_number"),
        ("1e-5000", "not_number"),
        ("0.5e-4299", "not_number"),
        ("5e-1", "not_number"),
        ("-0.5", "not_number"),
        ("1/0", "not_number"),
        ("0,5,5", "not_number"),
        ("½", "not_number"),
        ("٠.٥", "not_number"),  # Arabic-Indic digits: Python reads them, the shells do not
        ("0x1", "not_number"),
        ("1_0/20", "not_number"),
        ("NaN", "not_number"),
        ("50%%", "not_number"),
        ("0." + "1" * MAX_TYPED, "not_number"),
        ("3/2", "out_of_range"),
        ("150%", "out_of_range"),
        ("1,01", "out_of_range"),
    ],
)
def test_any_other_share_text_is_refused_by_field(typed: str, code: str) -> None:
    with pytest.raises(BattleError) as caught:
        share(typed, "fleeing")
    assert (caught.value.code, caught.value.field) == (code, "fleeing")
    assert len(caught.value.message) < 200


def test_a_share_in_a_command_is_kept_as_its_exact_fraction() -> None:
    battle, _ = apply(dwarves_and_orcs(), {"type": "pcs_won", "fleeing": "50 %"})
    assert battle.log[-1].command["fleeing"] == "1/2"
    assert to_json(battle)["log"][-1]["command"]["fleeing"] == "1/2"


def test_a_share_a_json_number_gives_is_read_back_from_the_log() -> None:
    battle, _ = apply(dwarves_and_orcs(), {"type": "pcs_won", "fleeing": 5e-324})
    kept = battle.log[-1].command["fleeing"]
    assert share(kept, "fleeing") == Fraction("5e-324")


@pytest.mark.parametrize(
    ("typed", "low", "high", "read"),
    [
        (" 42 ", 1, 100, 42),
        ("+7", 1, 100, 7),
        ("\u22123", -100, 100, -3),
        ("-0", -100, 100, 0),
        ("007", 1, 100, 7),
    ],
)
def test_a_whole_number_in_text_is_read_in_its_range(
    typed: str, low: int, high: int, read: int
) -> None:
    assert typed_whole(typed, "roll", low, high) == read


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("4,5", "not_integer"),
        ("4.0", "not_integer"),
        ("1e2", "not_integer"),
        ("0x10", "not_integer"),
        ("4 2", "not_integer"),
        ("", "not_integer"),
        ("½", "not_integer"),
        ("101", "out_of_range"),
        ("0", "out_of_range"),
        ("99999999999999999999", "out_of_range"),
        ("9" * 100_000, "out_of_range"),
        ("-" + "9" * 100_000, "out_of_range"),
        ("9" * 100_000 + "x", "not_integer"),
    ],
)
def test_a_whole_number_in_text_is_refused_by_its_form_or_range(typed: str, code: str) -> None:
    with pytest.raises(BattleError) as caught:
        typed_whole(typed, "roll", 1, 100)
    assert (caught.value.code, caught.value.field) == (code, "roll")
    assert (caught.value.params["min"], caught.value.params["max"]) == (1, 100)


NUMBER_CHARS = st.sampled_from([*"0123456789.,/%eE+-−_ x", "\u00a0", "٥", "½"])
NUMERIC_TEXT = st.one_of(
    st.text(NUMBER_CHARS, max_size=60),
    st.builds(
        lambda head, n, tail: head + "9" * n + tail,
        st.text(NUMBER_CHARS, max_size=5),
        st.integers(0, 200_000),
        st.text(NUMBER_CHARS, max_size=8),
    ),
    st.builds(
        lambda mantissa, exp: f"{mantissa}e{exp}",
        st.sampled_from(["1", "0.5", "5", "-1"]),
        st.integers(-(10**8), 10**8),
    ),
)


@settings(max_examples=300, deadline=None)
@given(NUMERIC_TEXT)
def test_any_numeric_text_is_read_or_refused_by_field_never_internal(typed: str) -> None:
    reply = handle(
        {"op": "last_stand", "enemy_strength": 26, "fleeing": typed, "allies_strength": 24}
    )
    if not reply["ok"]:
        assert (reply["error"]["code"], reply["error"]["field"]) in (
            ("not_number", "fleeing"),
            ("out_of_range", "fleeing"),
        )
    for low, high in ((1, 100), (-100, 100), (0, 1_000_000)):
        try:
            read = typed_whole(typed, "strength", low, high)
        except BattleError as error:
            assert (error.code, error.field) in (
                ("not_integer", "strength"),
                ("out_of_range", "strength"),
            )
        else:
            assert low <= read <= high


@settings(max_examples=100, deadline=None)
@given(NUMERIC_TEXT)
def test_a_refused_share_in_a_command_changes_nothing(typed: Any) -> None:
    battle = dwarves_and_orcs()
    try:
        after, _ = apply(battle, {"type": "pcs_won", "fleeing": typed})
    except BattleError as error:
        assert error.field == "fleeing"
    else:
        assert 0 <= Fraction(after.log[-1].command["fleeing"]) <= 1
