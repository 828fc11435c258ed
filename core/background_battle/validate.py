"""Checks at the edge of the core: every bad value becomes a BattleError naming its field."""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping, Sequence
from fractions import Fraction
from typing import Any, Final, Literal, cast

from .errors import BattleError

Side = Literal["allies", "enemies"]
SIDES: Final[tuple[Side, Side]] = ("allies", "enemies")
MAX_TEXT: Final = 200
# Unicode's control characters (C0, DEL, C1: category Cc) and its line and paragraph separators
_CONTROL: Final = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


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
            f"{field} must be a whole number{range_text(low, high)}, not {show(value)}",
            min=low,
            max=high,
        )
    if (low is not None and value < low) or (high is not None and value > high):
        raise BattleError(
            "out_of_range",
            field,
            f"{field} must be{range_text(low, high)}, not {value}",
            min=low,
            max=high,
        )
    return value


def share(value: Any, field: str) -> Fraction:
    """A share from 0 to 1, as a number (``0.5``) or an exact fraction in text (``"1/2"``).

    >>> share("1/2", "fleeing"), share(0.25, "fleeing"), share("0.5", "fleeing")
    (Fraction(1, 2), Fraction(1, 4), Fraction(1, 2))
    """
    message = f"{field} must be a share from 0 to 1, like 0.5 or 1/2, not {show(value)}"
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
    no_control_character(value, field)
    trimmed = str(value).strip()
    if not valid_unicode(trimmed):
        raise BattleError(
            "bad_text",
            field,
            f"{field} must be valid Unicode text; it holds a lone surrogate (a broken character)",
        )
    if len(trimmed) > limit:
        raise BattleError(
            "out_of_range",
            field,
            f"{field} must be at most {limit} characters, not {len(trimmed)}",
            max=limit,
        )
    return trimmed


def control_character(value: str) -> str | None:
    """The first control character or line break in a text (Unicode's C0, DEL and C1 controls,
    the line and paragraph separators), or None: the one rule for every name, in the core and
    in the bridge.

    >>> [control_character(name) for name in ("Orcs of the Red Eye", "Orcs\\x00", "a\\u2028b")]
    [None, '\\x00', '\\u2028']
    """
    found = _CONTROL.search(value)
    return None if found is None else found.group()


def no_control_character(value: str, field: str) -> None:
    """Refuse a name that holds a control character or a line break, as given (nothing is
    trimmed away first).

    >>> try:
    ...     no_control_character("Orcs\\n", "name")
    ... except BattleError as exc:
    ...     print(exc.code, exc.params)
    bad_text {'character': 'U+000A'}

    Raises:
        BattleError: `bad_text`, with `params.character` (e.g. "U+000A").
    """
    found = control_character(value)
    if found is not None:
        character = f"U+{ord(found):04X}"
        raise BattleError(
            "bad_text",
            field,
            f"{field} must not hold a control character or a line break (it holds {character})",
            character=character,
        )


def valid_unicode(value: str) -> bool:
    """Whether ``value`` can be written as UTF-8 (no lone surrogates such as ``"\\udc00"``).

    >>> valid_unicode("Orc"), valid_unicode("Orc\\udc00")
    (True, False)
    """
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def safe_name(key: Any) -> str:
    """A key as a field name in an error: itself, or escaped when it is not valid Unicode.

    >>> safe_name("extra"), safe_name("x\\udc00")
    ('extra', "'x\\\\udc00'")
    """
    return key if isinstance(key, str) and valid_unicode(key) else ascii(key)


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
            f"{field} must be one of {', '.join(accepted)}, not {show(value)}",
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
            f"{field} must be 'allies' or 'enemies', not {show(value)}",
            accepted=list(SIDES),
        )
    return cast(Side, value)


def flag(value: Any, field: str) -> bool:
    """A true/false value."""
    if not isinstance(value, bool):
        raise BattleError("not_boolean", field, f"{field} must be true or false, not {show(value)}")
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
        raise BattleError("not_object", field, f"{field} must be an object, not {show(value)}")
    return value


def only_known(data: Mapping[str, Any], known: Sequence[str], prefix: str, owner: str) -> None:
    """Refuse a field that is not in ``known``, naming it (``prefix`` + its name).

    >>> only_known({"name": "x", "extra": 1}, ["name"], "table.", "table")
    Traceback (most recent call last):
    ...
    background_battle.errors.BattleError: table has no field 'extra'; its fields: name
    """
    for key in data:
        if key not in known:
            raise BattleError(
                "unknown_field",
                prefix + safe_name(key),
                f"{owner} has no field {show(key)}; its fields: {', '.join(known)}",
                accepted=list(known),
            )


def range_text(low: int | None, high: int | None) -> str:
    """The accepted range as a message says it.

    >>> range_text(1, 100), range_text(0, None), range_text(None, None)
    (' from 1 to 100', ' of at least 0', '')
    """
    if low is not None and high is not None:
        return f" from {low} to {high}"
    if low is not None:
        return f" of at least {low}"
    if high is not None:
        return f" of at most {high}"
    return ""


def show(value: Any) -> str:
    """A value as an error message quotes it: ``repr`` (broken characters escaped), cut short."""
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."
