"""Where the battles live between restarts, in three small modules, all named here.

- `stored.py`: what is stored (`Record`, `StoredBattle`) and the `Storage` interface;
- `memory_storage.py`: the in-memory twin (same behaviour, nothing on disk: for fast tests);
- `sqlite_storage.py`: SQLite, with checksums, the checks at load, quarantine.

The bridge's own modules import from those three; this one keeps `from
background_battle_bridge.storage import …` working for everyone else.
"""

from .memory_storage import MemoryStorage
from .sqlite_storage import (
    DB_FILE,
    HEAD_ROWS,
    HEADS,
    INSERT,
    LAYOUT,
    RECORDS,
    SYNC_MODES,
    SqliteStorage,
    StorageDamaged,
    checked_records,
    checked_snapshot,
    checksum,
    rows_of,
    set_aside,
    set_heads,
)
from .stored import Record, Storage, StoredBattle

__all__ = [
    "DB_FILE",
    "HEADS",
    "HEAD_ROWS",
    "INSERT",
    "LAYOUT",
    "RECORDS",
    "SYNC_MODES",
    "MemoryStorage",
    "Record",
    "SqliteStorage",
    "Storage",
    "StorageDamaged",
    "StoredBattle",
    "checked_records",
    "checked_snapshot",
    "checksum",
    "rows_of",
    "set_aside",
    "set_heads",
]
