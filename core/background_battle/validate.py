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
MAX_TYPED: Final = 400
"""The most characters of a number in text: longer is refused before it is read. Enough for any
share a JSON number gives, written out as the log keeps it (``5e-324`` is ``1/2`` and 323 zeros),
and reading this many digits costs microseconds."""

# A number typed by a person, in the forms both languages use: ASCII digits only (``int`` would
# read other scripts' digits, JavaScript's readers would not), no exponent, no hex, no "_".
_SPACE = "[ \u00a0\u202f]*"
_MINUS = "[+\\-\u2212]?"
_DECIMAL = "(?:[0-9]+(?:[.,][0-9]*)?|[.,][0-9]+)"
_TYPED_WHOLE = re.compile(f"({_MINUS})([0-9]+)")
_TYPED_SHARE = re.compile(
    f"(?:(?P<num>[0-9]+){_SPACE}/{_SPACE}(?P<den>[0-9]+)|(?P<decimal>{_DECIMAL})(?P<percent>{_SPACE}%)?)"
)
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
            f"{field} must be{range_text(low, high)}, not {show(value)}",
            min=low,
            max=high,
        )
    return value


def share(value: Any, field: str) -> Fraction:
    """A share from 0 to 1: a number (``0.5``), or text as a GM types it in either language:
    ``1/2``, ``0.5``, ``0,5`` (a decimal comma is a decimal point), ``50%``, ``50 %``.

    Text is checked for its length (``MAX_TYPED``) and form before it is read, so any text costs
    microseconds: no exponent (``5e-1``), no sign, no spaces inside a number.

    >>> share("1/2", "fleeing"), share(0.25, "fleeing"), share("0,5", "fleeing")
    (Fraction(1, 2), Fraction(1, 4), Fraction(1, 2))
    >>> share("50 %", "fleeing"), share("12,5%", "fleeing"), share(" 2 / 4 ", "fleeing")
    (Fraction(1, 2), Fraction(1, 8), Fraction(1, 2))
    >>> share("1e-5000", "fleeing")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    background_battle.errors.BattleError: fleeing must be a share from 0 to 1, like 1/2, 0.5, ...

    Raises:
        BattleError: ``not_number`` (not a share's form, or longer than ``MAX_TYPED``
            characters), ``out_of_range`` (below 0 or above 1).
    """
    message = f"{field} must be a share from 0 to 1, like 1/2, 0.5, 0,5 or 50%, not {show(value)}"
    try:
        if isinstance(value, bool) or value is None:
            raise TypeError
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError
        if isinstance(value, Fraction):
            result = value
        elif isinstance(value, float):
            result = Fraction(str(value))
        elif isinstance(value, int):
            result = Fraction(value)
        elif isinstance(value, str):
            result = typed_share(value)
        else:
            raise TypeError
    except (TypeError, ValueError, ZeroDivisionError):
        raise BattleError("not_number", field, message, min=0, max=1) from None
    if not 0 <= result <= 1:
        raise BattleError("out_of_range", field, message, min=0, max=1)
    return result


def typed_share(typed: str) -> Fraction:
    """The exact value of a share typed as text (any size: ``share`` bounds it).

    >>> typed_share("33%"), typed_share(".5"), typed_share("3/2")
    (Fraction(33, 100), Fraction(1, 2), Fraction(3, 2))

    Raises:
        ValueError: for text longer than ``MAX_TYPED`` or not in a share's form.
        ZeroDivisionError: for ``n/0``.
    """
    typed = typed.strip()
    if len(typed) > MAX_TYPED:
        raise ValueError(typed[:MAX_TYPED])
    match = _TYPED_SHARE.fullmatch(typed)
    if match is None:
        raise ValueError(typed)
    if match["num"] is not None:
        return Fraction(int(match["num"]), int(match["den"]))
    whole_part, _, part = match["decimal"].replace(",", ".").partition(".")
    scale = 10 ** len(part)
    exact = Fraction(int(whole_part or "0") * scale + int(part or "0"), scale)
    return exact / 100 if match["percent"] is not None else exact


def typed_whole(value: str, field: str, low: int, high: int) -> int:
    """A whole number typed as text (a sign ``+``, ``-`` or ``−``, then digits), in ``low..high``.

    The text's length and form are checked before it is read: more digits than the range's
    bounds have is ``out_of_range`` without reading them, so any text costs microseconds.

    >>> typed_whole(" 42 ", "roll", 1, 100), typed_whole("−3", "sl", -100, 100)
    (42, -3)
    >>> typed_whole("1" * 5000, "roll", 1, 100)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    background_battle.errors.BattleError: roll must be from 1 to 100, not '1111111111...

    Raises:
        BattleError: ``not_integer`` (not a whole number's form), ``out_of_range``.
    """
    typed = value.strip() if isinstance(value, str) else value
    range_ = range_text(low, high)
    if not isinstance(typed, str):
        raise BattleError(
            "not_integer",
            field,
            f"{field} must be a whole number{range_}, not {show(value)}",
            min=low,
            max=high,
        )
    digits = max(len(str(abs(low))), len(str(abs(high))))
    match = _TYPED_WHOLE.fullmatch(typed) if len(typed) <= MAX_TYPED else None
    if match is None and not (len(typed) > MAX_TYPED and _all_digits(typed)):
        raise BattleError(
            "not_integer",
            field,
            f"{field} must be a whole number{range_}, not {show(typed)}",
            min=low,
            max=high,
        )
    if match is None or len(match[2].lstrip("0")) > digits:
        raise BattleError(
            "out_of_range", field, f"{field} must be{range_}, not {show(typed)}", min=low, max=high
        )
    number = int(match[2]) * (-1 if match[1] in ("-", "\u2212") else 1)
    return whole(number, field, low, high)


def _all_digits(typed: str) -> bool:
    """Whether ``typed`` is a sign then ASCII digits (read in linear time, never converted)."""
    body = typed[1:] if typed[:1] in ("+", "-", "\u2212") else typed
    return body.isascii() and body.isdigit()


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
    """A value as an error message quotes it: ``repr`` (broken characters escaped), cut short
    (a long text is cut before it is quoted: quoting costs as much as its length).

    >>> show("x" * 10**6)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."
    """
    shown = repr(value[:40] if isinstance(value, str) else value)
    return shown if len(shown) <= 40 else shown[:37] + "..."
