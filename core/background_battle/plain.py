"""The JSON-friendly form of a value made of plain fields: one helper for every such `to_dict`."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any


@functools.cache
def _names(kind: type) -> tuple[str, ...]:
    return tuple(field.name for field in dataclasses.fields(kind))


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
