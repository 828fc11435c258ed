"""The in-memory twin of the store: the `Storage` interface, nothing on disk.

>>> store = MemoryStorage()
>>> store.append("ambush", 1, {"kind": "created"})
>>> store.load()["ambush"].records
[(1, {'kind': 'created'})]
"""

from __future__ import annotations

import json
from typing import Any

from .stored import Record, StoredBattle


class MemoryStorage:
    """The in-memory twin: same behaviour, nothing on disk (for fast tests)."""

    def __init__(self) -> None:
        self._battles: dict[str, StoredBattle] = {}
        self.quarantined: list[tuple[str, str, StoredBattle]] = []

    def load(self) -> dict[str, StoredBattle]:
        return {
            name: StoredBattle(
                stored.snapshot_seq,
                _copy(stored.snapshot),
                [(seq, _copy(rec)) for seq, rec in stored.records if seq > stored.snapshot_seq],
            )
            for name, stored in self._battles.items()
        }

    def append(self, battle: str, seq: int, record: Record) -> None:
        stored = self._battles.setdefault(battle, StoredBattle())
        last = stored.records[-1][0] if stored.records else 0
        if seq != last + 1:
            raise ValueError(f"record {seq} of {battle!r} does not follow {last}")
        stored.records.append((seq, _copy(record)))

    def append_many(self, records: list[tuple[str, int, Record]]) -> None:
        expected: dict[str, int] = {}
        for battle, seq, _ in records:  # check all first: all stored, or none
            stored = self._battles.get(battle)
            last = expected.get(battle, stored.records[-1][0] if stored and stored.records else 0)
            if seq != last + 1:
                raise ValueError(f"record {seq} of {battle!r} does not follow {last}")
            expected[battle] = seq
        for battle, seq, record in records:
            self.append(battle, seq, record)

    def snapshot(self, battle: str, seq: int, data: dict[str, Any] | str) -> None:
        stored = self._battles[battle]
        copied = json.loads(data) if isinstance(data, str) else _copy(data)
        stored.snapshot_seq, stored.snapshot = seq, copied

    def reopened(self) -> MemoryStorage:
        return self

    def quarantine(self, battle: str, reason: str) -> int:
        self.quarantined.append((battle, reason, self._battles.pop(battle)))
        return len(self.quarantined)

    def close(self) -> None:
        pass


def _copy(value: Any) -> Any:
    """A deep copy through JSON, so the twin behaves like a real store (no shared objects)."""
    return None if value is None else json.loads(json.dumps(value))
