"""Where the battles live between restarts: a tiny interface, an in-memory twin, SQLite.

A battle's history is a list of records, numbered from 1 within the battle. A record is a
JSON-friendly dict with a `kind` (`created`, `entry`, `archived`, `tokens`, `applied`,
`unapplied`). A snapshot is the whole battle as of one record number, so that start-up reads the
snapshot and only the records after it.

>>> store = MemoryStorage()
>>> store.append("ambush", 1, {"kind": "created"})
>>> store.load()["ambush"].records
[(1, {'kind': 'created'})]
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

Record = dict[str, Any]


@dataclass
class StoredBattle:
    """What start-up needs to rebuild one battle: its latest snapshot and the records after it."""

    snapshot_seq: int = 0
    snapshot: dict[str, Any] | None = None
    records: list[tuple[int, Record]] = field(default_factory=list)


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

    def close(self) -> None: ...


class MemoryStorage:
    """The in-memory twin: same behaviour, nothing on disk (for fast tests)."""

    def __init__(self) -> None:
        self._battles: dict[str, StoredBattle] = {}

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

    def close(self) -> None:
        pass


_SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    battle TEXT NOT NULL,
    seq INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (battle, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS snapshots (
    battle TEXT PRIMARY KEY,
    seq INTEGER NOT NULL,
    data TEXT NOT NULL
);
"""


SYNC_MODES = ("full", "normal")


class SqliteStorage:
    """SQLite in WAL mode; a record is committed when `append` returns.

    `sync="full"` (the default) also waits for the disk (fsync) on every commit: an acknowledged
    change survives a power cut. `sync="normal"` skips that wait: a change survives the bridge
    being killed (the operating system still writes it) but not the machine losing power.
    """

    def __init__(self, path: Path | str, sync: str = "full") -> None:
        if sync not in SYNC_MODES:
            raise ValueError(f"sync must be one of {', '.join(SYNC_MODES)}, not {sync!r}")
        self.path, self.sync = path, sync
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={sync.upper()}")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.executescript(_SCHEMA)

    def load(self) -> dict[str, StoredBattle]:
        battles: dict[str, StoredBattle] = {}
        for name, seq, data in self._db.execute("SELECT battle, seq, data FROM snapshots"):
            battles[name] = StoredBattle(seq, json.loads(data))
        rows = self._db.execute(
            "SELECT r.battle, r.seq, r.data FROM records r"
            " LEFT JOIN snapshots s ON s.battle = r.battle"
            " WHERE r.seq > COALESCE(s.seq, 0) ORDER BY r.battle, r.seq"
        )
        for name, seq, data in rows:
            battles.setdefault(name, StoredBattle()).records.append((seq, json.loads(data)))
        return battles

    def append(self, battle: str, seq: int, record: Record) -> None:
        # One implicit transaction per statement (autocommit): committed, hence durable, on return.
        self._db.execute(
            "INSERT INTO records (battle, seq, data) VALUES (?, ?, ?)",
            (battle, seq, json.dumps(record, separators=(",", ":"))),
        )

    def append_many(self, records: list[tuple[str, int, Record]]) -> None:
        rows = [(b, seq, json.dumps(rec, separators=(",", ":"))) for b, seq, rec in records]
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany("INSERT INTO records (battle, seq, data) VALUES (?, ?, ?)", rows)
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")
            raise

    def snapshot(self, battle: str, seq: int, data: dict[str, Any] | str) -> None:
        text = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))
        self._db.execute(
            "INSERT OR REPLACE INTO snapshots (battle, seq, data) VALUES (?, ?, ?)",
            (battle, seq, text),
        )

    def reopened(self) -> SqliteStorage:
        return SqliteStorage(self.path, self.sync)

    def close(self) -> None:
        self._db.close()


def _copy(value: Any) -> Any:
    """A deep copy through JSON, so the twin behaves like a real store (no shared objects)."""
    return None if value is None else json.loads(json.dumps(value))
