"""The JSON-friendly form of a value made of plain fields: one helper for every such `to_dict`."""

from __future__ import annotations

import dataclasses
from typing import Any

_NAMES: dict[type, tuple[str, ...]] = {}  # each dataclass's field names, read once


def _names(kind: type) -> tuple[str, ...]:
    names = _NAMES.get(kind)
    if names is None:
        names = _NAMES[kind] = tuple(field.name for field in dataclasses.fields(kind))
    return names


def plain(value: Any) -> dict[str, Any]:
    """A dataclass whose fields are plain JSON values, as a dict, its fields in their order
    (no copy, no recursion: a field holding another dataclass stays as it is).

    >>> @dataclasses.dataclass(frozen=True)
    ... class Fates:
    ...     killed: int
    ...     fit: int
    >>> plain(Fates(2, 5))
    {'killed': 2, 'fit': 5}
    """
    return {name: getattr(value, name) for name in _names(type(value))}
