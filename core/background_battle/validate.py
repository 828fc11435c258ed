"""Checks at the edge of the core: every bad value becomes a BattleError naming its field."""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from fractions import Fraction
from typing import Any, Final, Literal, cast

from .errors import BattleError

Side = Literal["allies", "enemies"]
SIDES: Final[tuple[Side, Side]] = ("allies", "enemies")
MAX_TEXT: Final = 200


def other_side(side: Side) -> Side:
    """The side that is not ``side``.

    >>> other_side("allies")
    'enemies'
    """
    return "enemies" if side == "allies" else "allies"


def whole(value: Any, field: str, low: int | None = None, high: int | None = None) -> int:
    """A whole number within ``low..high`` (either bound may be open).

    >>> whole(3, "fighters", 1, 10)
    3
    >>> whole(2.5, "fighters", 1, 10)
    Traceback (most recent call last):
    ...
    background_battle.errors.BattleError: fighters must be a whole number from 1 to 10, not 2.5
    """
    if isinstance(value, float) and value.is_integer() and math.isfinite(value):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BattleError(
            "not_integer",
            field,
            f"{field} must be a whole number{_range_text(low, high)}, not {_show(value)}",
            min=low,
            max=high,
        )
    if (low is not None and value < low) or (high is not None and value > high):
        raise BattleError(
            "out_of_range",
            field,
            f"{field} must be{_range_text(low, high)}, not {value}",
            min=low,
            max=high,
        )
    return value


def share(value: Any, field: str) -> Fraction:
    """A share from 0 to 1, as a number (``0.5``) or an exact fraction in text (``"1/2"``).

    >>> share("1/2", "fleeing"), share(0.25, "fleeing"), share("0.5", "fleeing")
    (Fraction(1, 2), Fraction(1, 4), Fraction(1, 2))
    """
    message = f"{field} must be a share from 0 to 1, like 0.5 or 1/2, not {_show(value)}"
    try:
        if isinstance(value, bool) or value is None:
            raise TypeError
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError
        if isinstance(value, Fraction):
            result = value
        elif isinstance(value, float):
            result = Fraction(str(value))
        elif isinstance(value, (int, str)):
            result = Fraction(value.strip() if isinstance(value, str) else value)
        else:
            raise TypeError
    except (TypeError, ValueError, ZeroDivisionError):
        raise BattleError("not_number", field, message, min=0, max=1) from None
    if not 0 <= result <= 1:
        raise BattleError("out_of_range", field, message, min=0, max=1)
    return result


def text(value: Any, field: str, limit: int = MAX_TEXT) -> str:
    """A non-empty line of text, trimmed, at most ``limit`` characters.

    >>> text("  Dwarves ", "name")
    'Dwarves'
    """
    if not isinstance(value, str) or not value.strip():
        raise BattleError(
            "not_text", field, f"{field} must be a non-empty text of at most {limit} characters"
        )
    trimmed = str(value).strip()
    if len(trimmed) > limit:
        raise BattleError(
            "out_of_range",
            field,
            f"{field} must be at most {limit} characters, not {len(trimmed)}",
            max=limit,
        )
    return trimmed


def one_of(value: Any, field: str, accepted: Collection[str], code: str = "out_of_range") -> str:
    """One of a fixed set of names.

    >>> one_of("large", "size", ("small", "large"))
    'large'
    >>> one_of(["x"], "size", ("small", "large"), "unknown_size")
    Traceback (most recent call last):
    ...
    background_battle.errors.BattleError: size must be one of small, large, not ['x']
    """
    if not isinstance(value, str) or value not in accepted:
        raise BattleError(
            code,
            field,
            f"{field} must be one of {', '.join(accepted)}, not {_show(value)}",
            accepted=list(accepted),
        )
    return value


def side(value: Any, field: str = "side") -> Side:
    """``allies`` or ``enemies``.

    >>> side("orcs")
    Traceback (most recent call last):
    ...
    background_battle.errors.BattleError: side must be 'allies' or 'enemies', not 'orcs'
    """
    if value not in SIDES:
        raise BattleError(
            "unknown_side",
            field,
            f"{field} must be 'allies' or 'enemies', not {_show(value)}",
            accepted=list(SIDES),
        )
    return cast(Side, value)


def flag(value: Any, field: str) -> bool:
    """A true/false value."""
    if not isinstance(value, bool):
        raise BattleError(
            "not_boolean", field, f"{field} must be true or false, not {_show(value)}"
        )
    return value


def required(data: Mapping[str, Any], key: str, field: str | None = None) -> Any:
    """The value at ``key``, or a ``required`` error naming the field."""
    if key not in data or data[key] is None:
        name = field or key
        raise BattleError("required", name, f"{name} is required")
    return data[key]


def mapping(value: Any, field: str) -> Mapping[str, Any]:
    """A JSON object."""
    if not isinstance(value, Mapping):
        raise BattleError("not_object", field, f"{field} must be an object, not {_show(value)}")
    return value


def _range_text(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f" from {low} to {high}"
    if low is not None:
        return f" of at least {low}"
    if high is not None:
        return f" of at most {high}"
    return ""


def _show(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."
