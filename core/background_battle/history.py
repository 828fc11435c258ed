"""The battle's log as a value that grows in constant time.

A battle is a frozen value, so adding an entry makes a new log. Copying a tuple costs as much
as the log is long; a `History` shares one growing list between the logs made from each other
and copies only when an older log is extended a second way (undo's replay, a page's what-if).

>>> first = History().appended("a")
>>> second = first.appended("b")
>>> other = first.appended("c")
>>> list(first), list(second), list(other)
(['a'], ['a', 'b'], ['a', 'c'])
>>> second == ("a", "b"), len(second), second[-1]
(True, 2, 'b')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")


class History(Sequence[T], Generic[T]):
    """An immutable sequence; `appended` returns a longer one without copying the shared part."""

    __slots__ = ("_items", "_length")

    def __init__(self, items: Iterable[T] = ()) -> None:
        self._items: list[T] = list(items)
        self._length = len(self._items)

    @classmethod
    def _sharing(cls, items: list[T], length: int) -> History[T]:
        history: History[T] = cls.__new__(cls)
        history._items, history._length = items, length
        return history

    def appended(self, item: T) -> History[T]:
        """This log with one more entry (this one is unchanged)."""
        items = self._items
        if len(items) != self._length:  # someone already grew the shared list past this log
            items = items[: self._length]
        items.append(item)
        return History._sharing(items, self._length + 1)

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[T]: ...

    def __getitem__(self, index: int | slice) -> T | Sequence[T]:
        if isinstance(index, slice):
            return tuple(self._items[: self._length][index])
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("log index out of range")
        return self._items[index]

    def __iter__(self) -> Iterator[T]:
        items = self._items
        for index in range(self._length):
            yield items[index]

    def __reversed__(self) -> Iterator[T]:
        items = self._items
        for index in range(self._length - 1, -1, -1):
            yield items[index]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, History | tuple | list):
            return NotImplemented
        if len(self) != len(other):
            return False
        return all(a == b for a, b in zip(self, other, strict=True))

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"History({list(self)!r})"

    def __reduce__(self) -> Any:
        return (History, (list(self),))
