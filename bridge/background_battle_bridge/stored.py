"""What the bridge stores and the interface it stores it through (`Storage`).

A battle's history is a list of records, numbered from 1 within the battle. A record is a
JSON-friendly dict with a `kind` (`created`, `entry`, `archived`, `tokens`, `applied`,
`unapplied`). A snapshot is the whole battle as of one record number, so that start-up replays
only the records after it. Two stores keep to the interface: `memory_storage.py` (the twin the
tests use) and `sqlite_storage.py` (the bridge's).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

Record = dict[str, Any]


@dataclass
class StoredBattle:
    """What start-up needs to rebuild one battle: its latest snapshot and the records after it."""

    snapshot_seq: int = 0
    snapshot: dict[str, Any] | None = None
    records: list[tuple[int, Record]] = field(default_factory=list)
    damage: str | None = None  # the first bad record; `records` holds those before it
    notes: list[str] = field(default_factory=list)  # problems passed over, e.g. a bad snapshot


class Storage(Protocol):
    """The storage interface the bridge uses; `append` is durable when it returns."""

    def load(self) -> dict[str, StoredBattle]: ...

    def append(self, battle: str, seq: int, record: Record) -> None: ...

    def append_many(self, records: list[tuple[str, int, Record]]) -> None:
        """Several records in one transaction (one fsync): all stored, or none."""
        ...

    def snapshot(self, battle: str, seq: int, data: dict[str, Any] | str) -> None:
        """`data` is a dict, or its JSON text already encoded."""
        ...

    def reopened(self) -> Storage:
        """The same store through a connection of its own (for a snapshot thread)."""
        ...

    def quarantine(self, battle: str, reason: str) -> int: ...

    def close(self) -> None: ...
