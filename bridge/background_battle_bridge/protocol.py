"""The edge: turn a frame into a checked message, and bridge answers into frames.

Every check names the field and the accepted range; see docs/protocol.md.

>>> parse('{"type": "ping"}')
{'type': 'ping'}
>>> parse('[1, 2]')
Traceback (most recent call last):
...
background_battle_bridge.protocol.ProtocolError: a message must be a JSON object with a "type"
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any, Literal, overload

from background_battle.validate import control_character

from .messages import (
    BATTLES_PAGE,
    CLIENT_KINDS,
    CLIENT_TYPES,
    IN,
    LOG_PAGE,
    MAX_DEPTH,
    MAX_FRAME,
    MAX_ID,
    MAX_MESSAGE,
    MAX_NAME,
    PROTOCOL_VERSION,
    outgoing,
)

# The limits and the known types are the declaration's (messages.py); read here by their names.
__all__ = [
    "BATTLES_PAGE",
    "CLIENT_KINDS",
    "CLIENT_TYPES",
    "LOG_PAGE",
    "MAX_DEPTH",
    "MAX_FRAME",
    "MAX_ID",
    "MAX_MESSAGE",
    "MAX_NAME",
    "PROTOCOL_VERSION",
    "ProtocolError",
    "dumps",
    "error",
    "field",
    "parse",
]


class ProtocolError(Exception):
    """A message the bridge refuses: a stable `code`, the `field` at fault, a readable message."""

    def __init__(
        self,
        code: str,
        message: str,
        field: str | None = None,
        params: dict[str, Any] | None = None,
        version: int | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.field = field
        self.message = message
        self.params = params or {}
        self.version = version
        self.request: dict[str, Any] | None = None  # the message refused, when it was parsed


def dumps(message: dict[str, Any]) -> str:
    """One frame of compact JSON."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def parse(frame: str | bytes) -> dict[str, Any]:
    """Decode one frame into a message with a known `type`.

    Raises:
        ProtocolError: `bad_frame`, `bad_json`, `bad_message` or `unknown_type`.
    """
    if not isinstance(frame, str):
        raise ProtocolError("bad_frame", "only text frames of JSON are accepted")
    try:
        message = loads(frame)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError("bad_json", f"the frame is not valid JSON ({exc})") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError(
            "bad_message", 'a message must be a JSON object with a "type"', field="type"
        )
    for key, item in message.items():
        _check_values(key, "", 1, message)
        inside = "" if (message["type"], key) in BODIES else None
        _check_values(item, key, 2, message, inside)
    if message["type"] not in CLIENT_TYPES:
        raise ProtocolError(
            "unknown_type",
            f"unknown message type {message['type'][:40]!r}; "
            f"accepted: {', '.join(sorted(CLIENT_TYPES))}",
            field="type",
            params={"accepted": sorted(CLIENT_TYPES)},
        )
    _no_null(message)
    return message


# the fields where the protocol gives `null` a meaning (declared nullable): ping's data is any
# JSON, echoed; a hello's token is ignored with --no-tokens (and is a bad token otherwise)
NULL_MEANS = frozenset(
    (kind, declared.name)
    for kind, shape in IN.items()
    for declared in shape.fields
    if declared.nullable
)
# the fields holding a core command: what is inside is named as the core names it
BODIES = frozenset(
    (kind, declared.name)
    for kind, shape in IN.items()
    for declared in shape.fields
    if declared.body
)


def _no_null(message: dict[str, Any]) -> None:
    """`null` is never read as absent: a field given as `null` is refused, naming it (what a
    client sends when its own parsing failed, such as `JSON.stringify(NaN)`).

    Raises:
        ProtocolError: `not_null`.
    """
    for key, value in message.items():
        if value is None and (message["type"], key) not in NULL_MEANS:
            error = ProtocolError(
                "not_null",
                f"{key} is null; give a value, or leave the field out",
                field=key,
            )
            error.request = message
            raise error


_SURROGATE = re.compile("[\ud800-\udfff]")


def loads(frame: str) -> Any:
    """JSON, with every number one a double can hold: `NaN`, `Infinity`, `1e400` and an
    integer of more than 309 digits are refused (JSON.parse would read the last two as
    `Infinity`, and an answer that echoed them would not be JSON).

    >>> loads('{"data": [1, -2.5e300, 0.1]}')
    {'data': [1, -2.5e+300, 0.1]}
    >>> loads('{"data": 1e400}')
    Traceback (most recent call last):
    ...
    ValueError: 1e400 is not a number JSON can carry (beyond 1.8e308)

    Raises:
        ValueError: not JSON, or a number beyond a double's range.
        RecursionError: nested too deep for the decoder.
    """
    # A Python hook for every number costs up to 20x the decoding of a frame of small ones: only
    # a frame where a number could be out of range (a digit before an exponent, a run of 310
    # digits; in a string, maybe) takes that road.
    if _OUT_OF_RANGE.search(frame) is None:
        return json.loads(frame, parse_constant=_no_constant)
    return json.loads(frame, parse_constant=_no_constant, parse_float=_finite, parse_int=_whole)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if value in (_INFINITY, -_INFINITY):
        raise ValueError(f"{text[:20]} is not a number JSON can carry (beyond 1.8e308)")
    return value


_INFINITY = float("inf")
_MAX_DIGITS = len(str(int(sys.float_info.max)))  # 309
_OUT_OF_RANGE = re.compile(f"[0-9][eE]|[0-9]{{{_MAX_DIGITS + 1}}}")


def _whole(text: str) -> int:
    """An integer within a double's range, never converted when it has too many digits."""
    if len(text.lstrip("-")) > _MAX_DIGITS or abs(value := int(text)) > sys.float_info.max:
        raise ValueError(f"{text[:20]}... is not a number JSON can carry (beyond 1.8e308)")
    return value


def _check_values(
    value: Any, where: str, depth: int, message: dict[str, Any], inside: str | None = None
) -> None:
    """Every text valid Unicode (no lone surrogate from a `\\udXXX` escape), nesting bounded.
    What is in `value` is named `where.key`, or `inside + key` when given (a core command's
    fields, named as the core names them).

    Raises:
        ProtocolError: `bad_text` naming the field, or `too_deep`.
    """
    if depth > MAX_DEPTH:
        error = ProtocolError(
            "too_deep",
            f"{where} is nested more than {MAX_DEPTH} levels deep",
            field=where,
            params={"max": MAX_DEPTH},
        )
        error.request = message
        raise error
    if isinstance(value, str):
        found = _SURROGATE.search(value)
        if found:
            bad = f"\\u{ord(found.group()):04x}"
            error = ProtocolError(
                "bad_text",
                f"{where or 'a key'} holds a lone UTF-16 surrogate ({bad}): "
                "text must be valid Unicode",
                field=where or None,
            )
            error.request = message
            raise error
    elif isinstance(value, dict):
        for key, item in value.items():
            inner = f"{inside}{key}" if inside is not None else f"{where}.{key}" if where else key
            _check_values(key, where, depth, message)
            _check_values(item, inner, depth + 1, message)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_values(item, f"{where}[{index}]", depth + 1, message)


@overload
def text(
    message: dict[str, Any], name: str, *, max_len: int, optional: Literal[False] = False
) -> str: ...
@overload
def text(
    message: dict[str, Any], name: str, *, max_len: int, optional: Literal[True]
) -> str | None: ...
def text(message: dict[str, Any], name: str, *, max_len: int, optional: bool = False) -> str | None:
    """A text field of 1..max_len characters (None when optional and absent).

    >>> text({"battle": "ambush"}, "battle", max_len=64)
    'ambush'
    """
    value = message.get(name)
    if value is None:
        if optional:
            return None
        raise ProtocolError("required", f"{name} is required", field=name)
    if not isinstance(value, str):
        raise ProtocolError("not_text", f"{name} must be text", field=name)
    if not 1 <= len(value) <= max_len or not value.strip():
        raise ProtocolError(
            "out_of_range",
            f"{name} must be 1 to {max_len} characters, not blank",
            field=name,
            params={"min": 1, "max": max_len},
        )
    _no_control(value, name)
    return value


def _no_control(value: str, name: str) -> None:
    """The core's rule for every name (`validate.control_character`): `error bad_text`."""
    found = control_character(value)
    if found is not None:
        character = f"U+{ord(found):04X}"
        raise ProtocolError(
            "bad_text",
            f"{name} must not hold a control character or a line break (it holds {character})",
            field=name,
            params={"character": character},
        )


def integer(
    message: dict[str, Any], name: str, *, low: int, high: int, optional: bool = False
) -> Any:
    """An integer field in low..high (None when optional and absent); booleans are not integers.

    >>> integer({"version": 3}, "version", low=0, high=10)
    3
    """
    value = message.get(name)
    if value is None:
        if optional:
            return None
        raise ProtocolError("required", f"{name} is required", field=name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ProtocolError("not_integer", f"{name} must be a whole number", field=name)
    if not low <= value <= high:
        raise ProtocolError(
            "out_of_range",
            f"{name} must be from {low} to {high}",
            field=name,
            params={"min": low, "max": high},
        )
    return value


def field(message: dict[str, Any], name: str, *, high: int | None = None) -> Any:
    """Field `name` of a request, read as `messages.IN` declares it for the request's type (a
    bound known only from the battle, such as its version, given as `high`); None when an
    optional field is absent.

    >>> field({"type": "unsubscribe", "battle": "ambush"}, "battle")
    'ambush'
    >>> field({"type": "log_page", "battle": "ambush", "since_version": 9}, "since_version", high=4)
    Traceback (most recent call last):
    ...
    background_battle_bridge.protocol.ProtocolError: since_version must be from 0 to 4

    Raises:
        ProtocolError: the value is not of the declared kind or outside its bounds.
    """
    declared = IN[message["type"]].field(name)
    optional = not declared.required
    if declared.kind in ("text", "choice"):  # a choice is judged by its handler (its own code)
        longest = MAX_CHOICE if declared.kind == "choice" else declared.max or MAX_TEXT_FIELD
        if optional:
            return text(message, name, max_len=longest, optional=True)
        return text(message, name, max_len=longest)
    if declared.kind == "integer":
        top = declared.max if declared.max is not None else high
        return integer(
            message,
            name,
            low=declared.min or 0,
            high=MAX_INTEGER if top is None else top,
            optional=optional,
        )
    if declared.kind == "boolean":
        return boolean(message, name, default=bool(declared.default))
    if declared.kind == "object":
        return obj(message, name)
    if declared.kind == "list" and declared.max is not None and declared.item_max is not None:
        return text_list(message, name, max_items=declared.max, max_len=declared.item_max)
    return message.get(name)


MAX_CHOICE = 16  # a choice is read as a text this long at most, then judged by its handler
MAX_TEXT_FIELD = 1024  # a declared text without a bound of its own (a pairing code)
MAX_INTEGER = 2**53  # a declared integer without a bound of its own


def boolean(message: dict[str, Any], name: str, *, default: bool) -> bool:
    """A true/false field with a default."""
    value = message.get(name, default)
    if not isinstance(value, bool):
        raise ProtocolError("not_bool", f"{name} must be true or false", field=name)
    return value


def obj(message: dict[str, Any], name: str) -> dict[str, Any]:
    """A required JSON object field."""
    value = message.get(name)
    if value is None:
        raise ProtocolError("required", f"{name} is required", field=name)
    if not isinstance(value, dict):
        raise ProtocolError("not_object", f"{name} must be a JSON object", field=name)
    return value


def text_list(
    message: dict[str, Any], name: str, *, max_items: int, max_len: int, prefix: str = ""
) -> list[str]:
    """A list of at most max_items texts of 1..max_len characters."""
    value = message.get(name)
    where = prefix + name
    if value is None:
        raise ProtocolError("required", f"{where} is required", field=where)
    if not isinstance(value, list):
        raise ProtocolError("not_list", f"{where} must be a list", field=where)
    if len(value) > max_items:
        raise ProtocolError(
            "out_of_range",
            f"{where} may hold at most {max_items} items",
            field=where,
            params={"min": 0, "max": max_items},
        )
    for item in value:
        if not isinstance(item, str):
            raise ProtocolError("not_text", f"every item of {where} must be text", field=where)
        if not 1 <= len(item) <= max_len:
            raise ProtocolError(
                "out_of_range",
                f"every item of {where} must be 1 to {max_len} characters",
                field=where,
                params={"min": 1, "max": max_len},
            )
        _no_control(item, where)
    return list(value)


def error(
    exc: ProtocolError,
    request: dict[str, Any] | None = None,
    others: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The `error` message for a refused request, echoing its `id` and `battle` when it had them
    (`others`: the other fields found at fault in the same check)."""
    request = request if request is not None else exc.request
    echoed: dict[str, Any] = {}
    if request is not None:
        for key in ("id", "battle"):
            value = request.get(key)
            if isinstance(value, str) and len(value) <= MAX_NAME and is_clean(value):
                echoed[key] = value
    return outgoing(
        "error",
        code=exc.code,
        field=exc.field,
        message=exc.message,
        params=exc.params,
        **echoed,
        version=exc.version,
        others=others,
    )


def is_clean(value: str) -> bool:
    """True when a text can be sent as UTF-8 (no lone surrogate)."""
    return _SURROGATE.search(value) is None


def request_id(frame: str | bytes) -> str | None:
    """The `id` of a frame not otherwise read (one dropped by the rate limit), when it has one.

    >>> request_id('{"id": "c-1", "battle": "x"}'), request_id("nonsense")
    ('c-1', None)
    """
    if not isinstance(frame, str) or '"id"' not in frame:
        return None
    try:
        value = loads(frame).get("id")
    except (ValueError, RecursionError, AttributeError):
        return None
    ok = isinstance(value, str) and 0 < len(value) <= MAX_ID and is_clean(value)
    return value if ok else None


def internal_error(request: dict[str, Any] | None = None) -> dict[str, Any]:
    """`error internal`: a bug, logged; echoes the request's `id` when it had one."""
    return error(ProtocolError("internal", "the bridge failed; see its log"), request)
