"""The bridge's store: SQLite in WAL mode, a checksum on every row, each battle's head.

Each battle's head (its last record's number and checksum) is kept in a row of its own, written
in the same transaction as the records, so that records lost from the end of a battle are found
like records lost from its middle.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from .acknowledged import Marks, marks_path, missing
from .file_modes import private_file
from .stored import Record, StoredBattle
from .unwritable import Unwritable, writable
from .words import Said, said_error

_SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    battle TEXT NOT NULL,
    seq INTEGER NOT NULL,
    data TEXT NOT NULL,
    checksum TEXT,
    PRIMARY KEY (battle, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS battles (
    battle TEXT PRIMARY KEY,
    seq INTEGER NOT NULL,
    checksum TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS snapshots (
    battle TEXT PRIMARY KEY,
    seq INTEGER NOT NULL,
    data TEXT NOT NULL,
    checksum TEXT
);
CREATE TABLE IF NOT EXISTS quarantine (
    id INTEGER PRIMARY KEY,
    battle TEXT NOT NULL,
    reason TEXT NOT NULL,
    at TEXT NOT NULL,
    restored_upto INTEGER
);
CREATE TABLE IF NOT EXISTS quarantine_records (
    quarantine INTEGER NOT NULL REFERENCES quarantine (id),
    kind TEXT NOT NULL,
    seq INTEGER NOT NULL,
    data TEXT NOT NULL,
    checksum TEXT,
    PRIMARY KEY (quarantine, kind, seq)
) WITHOUT ROWID;
"""
DB_FILE = "battles.sqlite3"  # in the data folder
# PRAGMA user_version: 0 = the first layout (no checksums), 1 = a checksum on every row,
# 2 = each battle's head in `battles`.
LAYOUT = 2
HEADS = (
    "INSERT INTO battles (battle, seq, checksum) VALUES (?, ?, ?) ON CONFLICT (battle)"
    " DO UPDATE SET seq = excluded.seq, checksum = excluded.checksum"
)
INSERT = "INSERT INTO records (battle, seq, data, checksum) VALUES (?, ?, ?, ?)"
RECORDS = "SELECT seq, CAST(data AS BLOB), checksum FROM records"  # with `rows_of`
SYNC_MODES = ("full", "normal")


class StorageDamaged(Exception):
    """The data file as a whole cannot be read (not one battle: the file itself)."""


def checksum(battle: str, seq: int, data: bytes) -> str:
    """The checksum a record or snapshot row carries: its battle, number and text, hashed.

    >>> checksum("ambush", 1, b'{"kind":"created"}') == checksum("ambush", 2, b'{"kind":"created"}')
    False
    """
    row = b"%s\x00%d\x00%s" % (battle.encode(), seq, data)
    return hashlib.blake2b(row, digest_size=16).hexdigest()


def checked_records(
    battle: str,
    after: int,
    rows: Iterable[tuple[int, bytes, str | None]],
    head: tuple[int, str] | None = None,
    headed: bool = False,
) -> tuple[list[tuple[int, Record]], str | None]:
    """Every row from record 1 checked in one pass; the records after `after` (a snapshot's
    number) read, and the first problem, if any.

    Each row must carry its checksum and follow the one before it (a record missing from the
    middle is found here); a record after `after` must be a JSON object with a text `kind`;
    the last one must be the battle's `head` (records missing from the end are found here);
    with `headed`, a battle must have a head.

    >>> good = b'{"kind":"created","id":"a"}'
    >>> checked_records("ambush", 0, [(1, good, checksum("ambush", 1, good))])
    ([(1, {'kind': 'created', 'id': 'a'})], None)
    >>> checked_records("ambush", 0, [(2, good, checksum("ambush", 2, good))])[1]
    'record 1 is missing (the next one is 2)'
    >>> checked_records("ambush", 0, [(1, good, checksum("ambush", 1, good))], (3, "x"))[1][:70]
    'records 2-3 are missing at its end (its head says it reached record 3)'
    """
    records: list[tuple[int, Record]] = []
    expected, last = 1, (0, "")
    for seq, data, stored_sum in rows:
        if seq != expected:
            return records, Said("reason.record_missing", expected=expected, seq=seq)
        summed = checksum(battle, seq, data)
        if stored_sum != summed:
            return records, Said("reason.checksum", seq=seq)
        if seq > after:
            record = _decoded(seq, data)
            if isinstance(record, str):
                return records, record
            records.append((seq, record))
        expected, last = seq + 1, (seq, summed)
    return records, _tail_problem(last, head, headed)


def _decoded(seq: int, data: bytes) -> Record | str:
    """The record a row holds, or what is wrong with it."""
    try:
        record = json.loads(data)
    except (ValueError, RecursionError) as exc:
        return Said("reason.not_json", seq=seq, why=str(exc))
    if not isinstance(record, dict) or not isinstance(record.get("kind"), str):
        return Said("reason.no_kind", seq=seq)
    return record


def _tail_problem(last: tuple[int, str], head: tuple[int, str] | None, headed: bool) -> str | None:
    """What is wrong with a battle's end: its last record against its head."""
    (seq, summed), (head_seq, head_sum) = last, head or last
    if head is None:
        return Said("reason.no_head") if headed and seq else None
    if seq < head_seq:
        if seq + 1 < head_seq:
            return Said("reason.end_missing", first=seq + 1, head=head_seq)
        return Said("reason.end_missing_one", head=head_seq)
    if seq > head_seq:
        return Said("reason.beyond_head", first=head_seq + 1, seq=seq, head=head_seq)
    if summed != head_sum:
        return Said("reason.not_head", seq=seq)
    return None


class SqliteStorage:
    """SQLite in WAL mode; a record is committed when `append` returns.

    `sync="full"` (the default) also waits for the disk (fsync) on every commit: an acknowledged
    change survives a power cut. `sync="normal"` skips that wait: a change survives the bridge
    being killed (the operating system still writes it) but not the machine losing power.
    Every row carries a checksum, checked when it is read; a file of the first layout gets
    them when it is opened.

    Raises:
        StorageDamaged: the file is not a database, is damaged, or is empty (0 bytes) without
            the write-ahead log that would explain it.
        Unwritable: the file, its `-wal` or `-shm`, or its folder cannot be written (SQLite
            would open it read-only and refuse every change).
    """

    def __init__(self, path: Path | str, sync: str = "full") -> None:
        if sync not in SYNC_MODES:
            raise ValueError(f"sync must be one of {', '.join(SYNC_MODES)}, not {sync!r}")
        self.path, self.sync = Path(path), sync
        _refuse_empty_file(self.path)
        name = self.path.name
        writable(self.path.parent, (name, f"{name}-wal", f"{name}-shm", marks_path(self.path).name))
        self.marks = Marks(marks_path(self.path))
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            private_file(self.path)  # before a byte is written; the -wal and -shm follow it
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={sync.upper()}")
            self._db.execute("PRAGMA busy_timeout=5000")
            self._upgrade()
        except sqlite3.DatabaseError as exc:
            if getattr(exc, "sqlite_errorname", "").startswith("SQLITE_READONLY"):
                raise Unwritable(self.path, Said("cause.sqlite", why=str(exc))) from None
            raise StorageDamaged(Said("unreadable", path=self.path, why=said_error(exc))) from None

    def _upgrade(self) -> None:
        """Create the tables; give the rows of a first-layout file their checksums."""
        (layout,) = self._db.execute("PRAGMA user_version").fetchone()
        if layout >= LAYOUT:
            return
        self._db.create_function("bb_checksum", 3, _sql_checksum, deterministic=True)
        with self.transaction():
            old = {row[1] for row in self._db.execute("PRAGMA table_info(records)")}
            if old and "checksum" not in old:
                for table in ("records", "snapshots"):
                    self._db.execute(f"ALTER TABLE {table} ADD COLUMN checksum TEXT")
                    self._db.execute(
                        f"UPDATE {table} SET checksum = "
                        "bb_checksum(battle, seq, CAST(data AS BLOB))"
                    )
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self._db.execute(statement)
            set_heads(self._db)  # once: a file written before heads were kept
            self._db.execute(f"PRAGMA user_version = {LAYOUT}")

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One transaction: committed when the block ends, rolled back when it raises."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def load(self) -> dict[str, StoredBattle]:
        """Every battle's snapshot and the records after it; every record checked.

        Every row of every battle is checked (checksum, place, the battle's head) in one pass;
        only the records after the snapshot are decoded. A battle whose log ends below its
        acknowledged mark is damaged; one with no mark yet (a folder of an older bridge) gets
        one. A battle with a bad record, or records
        missing from its middle or its end, comes back with `damage` naming it and only the
        records before it; a snapshot that fails its checksum is passed over (its battle is
        replayed from the first record).

        Raises:
            StorageDamaged: the file itself cannot be read.
        """
        try:
            return self._load()
        except sqlite3.DatabaseError as exc:
            raise StorageDamaged(Said("unreadable", path=self.path, why=said_error(exc))) from None

    def _load(self) -> dict[str, StoredBattle]:
        battles: dict[str, StoredBattle] = {}
        for name, seq, data, stored_sum in self._db.execute(
            "SELECT battle, seq, CAST(data AS BLOB), checksum FROM snapshots"
        ):
            snapshot = checked_snapshot(name, seq, data, stored_sum)
            if snapshot is None:
                battles[name] = StoredBattle(notes=[f"the snapshot at record {seq} is damaged"])
            else:
                battles[name] = StoredBattle(seq, snapshot)
        heads = {name: (seq, summed) for name, seq, summed in self._db.execute(HEAD_ROWS)}
        names = {name for (name,) in self._db.execute("SELECT battle FROM records GROUP BY 1")}
        marks = self.marks.marks  # read when opened: before the file, never above it
        for name in battles.keys() | names | heads.keys() | marks.keys():
            stored = battles.setdefault(name, StoredBattle())
            stored.records, stored.damage = checked_records(
                name, stored.snapshot_seq, rows_of(self._db, RECORDS, name), heads.get(name), True
            )
            if stored.damage is None:
                stored.damage = missing(marks, name, heads.get(name, (0, ""))[0])
        sound = {name: heads[name][0] for name in heads if battles[name].damage is None}
        if any(marks.get(name, 0) < seq for name, seq in sound.items()):  # an older bridge's
            with contextlib.suppress(OSError):
                self.marks.rewrite({**marks, **sound}, durable=False)
        return battles

    @property
    def connection(self) -> sqlite3.Connection:
        """The SQLite connection, for `check`, `backup` and `restore`."""
        return self._db

    def append(self, battle: str, seq: int, record: Record) -> None:
        self.append_many([(battle, seq, record)])

    def append_many(self, records: list[tuple[str, int, Record]]) -> None:
        """The records and their battles' new heads, in one transaction (one fsync)."""
        rows = [_row(battle, seq, record) for battle, seq, record in records]
        heads = {battle: (battle, seq, summed) for battle, seq, _, summed in rows}
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany(INSERT, rows)
            self._db.executemany(HEADS, heads.values())
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")
            raise
        self.marks.record({battle: seq for battle, seq, _ in heads.values()})

    def snapshot(self, battle: str, seq: int, data: dict[str, Any] | str) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO snapshots (battle, seq, data, checksum) VALUES (?, ?, ?, ?)",
            _row(battle, seq, data),
        )

    def quarantine(self, battle: str, reason: str) -> int:
        """Move a battle's records and snapshot aside, in one transaction; nothing is deleted.

        The battle is no longer served and its name is free; `background-battle-bridge check`
        lists it and `--repair` brings back its good part. Returns the quarantine's number.
        """
        with self.transaction() as db:
            number = set_aside(db, battle, reason)
        self.marks.forget(battle)
        return number

    def reopened(self) -> SqliteStorage:
        return SqliteStorage(self.path, self.sync)

    def close(self) -> None:
        self._db.close()
        self.marks.close()

    def heads(self) -> dict[str, int]:
        """Each live battle's last record, as its head row says."""
        return {name: seq for name, seq, _ in self._db.execute(HEAD_ROWS)}

    def mark_what_is_stored(self) -> None:
        """The acknowledged marks made what the file holds now (after `check --repair` or a
        `restore`: a loss accepted, or an older file put back on purpose).

        Raises:
            OSError: the marks could not be written.
        """
        self.marks.rewrite(self.heads())


def set_aside(db: sqlite3.Connection, battle: str, reason: str) -> int:
    """Inside a transaction: move a battle's rows (its head too) to quarantine; returns the
    quarantine's number."""
    at = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    moved = db.execute(
        "INSERT INTO quarantine (battle, reason, at) VALUES (?, ?, ?)", (battle, reason, at)
    ).lastrowid
    for table, kind, data in (
        ("records", "record", "data"),
        ("snapshots", "snapshot", "data"),
        ("battles", "head", "''"),
    ):
        db.execute(
            "INSERT INTO quarantine_records (quarantine, kind, seq, data, checksum)"
            f" SELECT ?, ?, seq, {data}, checksum FROM {table} WHERE battle = ?",
            (moved, kind, battle),
        )
        db.execute(f"DELETE FROM {table} WHERE battle = ?", (battle,))
    return int(moved or 0)


HEAD_ROWS = "SELECT battle, seq, checksum FROM battles"


def set_heads(db: sqlite3.Connection, battle: str | None = None) -> None:
    """Inside a transaction: each battle's head made from its last record (every battle's, or
    one's): for a file written before heads were kept, a salvaged file, a repaired battle."""
    where = "" if battle is None else " WHERE battle = ?"
    db.execute(
        # SQLite takes the other columns of an aggregate's query from the row MAX() chose
        "INSERT OR REPLACE INTO battles (battle, seq, checksum)"
        f" SELECT battle, MAX(seq), checksum FROM records{where} GROUP BY battle",
        () if battle is None else (battle,),
    )


def rows_of(
    db: sqlite3.Connection, select: str, key: str | int, where: str = "battle = ?"
) -> list[tuple[int, bytes, str | None]]:
    """`(seq, data, checksum)` rows of one battle in order; `select` names the three columns."""
    return list(db.execute(f"{select} WHERE {where} ORDER BY seq", (key,)))


def _row(battle: str, seq: int, data: dict[str, Any] | str) -> tuple[str, int, str, str]:
    text = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))
    return battle, seq, text, checksum(battle, seq, text.encode())


def _sql_checksum(battle: str, seq: int, data: bytes) -> str:
    return checksum(battle, seq, bytes(data))


def checked_snapshot(
    battle: str, seq: int, data: bytes, stored_sum: str | None
) -> dict[str, Any] | None:
    if stored_sum != checksum(battle, seq, data):
        return None
    try:
        snapshot = json.loads(data)
    except (ValueError, RecursionError):
        return None
    return snapshot if isinstance(snapshot, dict) else None


@contextlib.contextmanager
def read_only(database: Path) -> Iterator[sqlite3.Connection]:
    """A connection that writes nothing (for `check` and `backup` of a folder the bridge
    cannot write): read-only, or, where SQLite cannot even make the `-shm` it reads a `-wal`
    through (a read-only mount), the file alone when no `-wal` holds changes it lacks.

    Raises:
        sqlite3.DatabaseError: neither can read it.
    """
    db = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)
    try:
        db.execute("SELECT 1 FROM sqlite_master").fetchall()
    except sqlite3.OperationalError:
        db.close()
        wal = Path(f"{database}-wal")
        if wal.exists() and wal.stat().st_size:
            raise sqlite3.DatabaseError(Said("wal_needs_shm")) from None
        db = sqlite3.connect(f"{database.resolve().as_uri()}?immutable=1", uri=True)
    try:
        yield db
    finally:
        db.close()


def _refuse_empty_file(path: Path) -> None:
    """A database file of 0 bytes with no write-ahead log has lost everything it held."""
    wal = path.with_name(path.name + "-wal")
    if path.exists() and path.stat().st_size == 0 and not (wal.exists() and wal.stat().st_size):
        raise StorageDamaged(Said("empty_file", path=path))
