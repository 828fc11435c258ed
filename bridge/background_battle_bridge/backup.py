"""Backup and restore of the battles with SQLite's online backup API.

A backup may run while the bridge serves (SQLite copies a consistent state, committed changes
only); it is written beside its target and renamed into place once checked, so a half-written
backup never carries the final name. A restore needs the bridge stopped (it takes the data
folder's lock) and keeps the file it replaces.
"""

from __future__ import annotations

import contextlib
import datetime
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from .acknowledged import Marks, marks_path
from .checkup import Finding, examine
from .file_modes import private_file
from .sqlite_storage import LAYOUT, read_only
from .unwritable import writable
from .words import Said, said_error


class BackupError(Exception):
    """A backup or restore that cannot be done; the message (a `Said`) says why."""


def backup(database: Path, target: Path) -> list[Finding]:
    """Copy `database` to `target` (a single self-contained file); returns what it holds.

    Raises:
        BackupError: no database, the target exists, or the copy does not read back.
    """
    if not database.exists():
        raise BackupError(Said("no_database", path=database))
    if target.exists():
        raise BackupError(Said("target_exists", path=target))
    part = target.with_name(target.name + ".part")
    part.unlink(missing_ok=True)
    try:
        with read_only(database) as source, _open(part, mine=True) as copy:
            source.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")  # one file, no -wal beside it
            findings = examine(copy)
    except sqlite3.DatabaseError as exc:
        part.unlink(missing_ok=True)
        raise BackupError(Said("copy_failed", why=said_error(exc))) from None
    part.replace(target)
    return findings


def restore(database: Path, source: Path) -> tuple[list[Finding], Path | None]:
    """Replace `database` with the backup `source`; the old file is kept beside it.

    Returns what the restored file holds and where the old one was kept (None when there
    was none). The caller holds the data folder's lock.

    Raises:
        BackupError: the source is missing, or is not a readable bridge database.
        Unwritable: the database, its -wal, -shm or marks, or the folder cannot be written.
    """
    if not source.is_file():
        raise BackupError(Said("no_backup", path=source))
    name = database.name
    writable(database.parent, (name, f"{name}-wal", f"{name}-shm", marks_path(database).name))
    try:
        with _open(source) as backup_file:
            if not backup_file.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'records'"
            ).fetchone():
                raise BackupError(Said("not_a_backup", path=source))
            (layout,) = backup_file.execute("PRAGMA user_version").fetchone()
            # a file of the first layout gets its checksums when the bridge opens it
            findings = examine(backup_file) if layout >= LAYOUT else []
    except sqlite3.DatabaseError as exc:
        raise BackupError(Said("unreadable", path=source, why=said_error(exc))) from None
    kept = _keep_current(database)
    with _open(source) as backup_file, _open(database, mine=True) as live:
        backup_file.backup(live)
        try:
            heads = {name: seq for name, seq in live.execute("SELECT battle, seq FROM battles")}
        except sqlite3.Error:  # a backup of a layout before heads: they are made when opened
            heads = {}
    Marks(marks_path(database)).rewrite(heads)  # the older state put back on purpose
    return findings, kept


def _keep_current(database: Path) -> Path | None:
    """Keep the file a restore replaces: copied whole (its -wal included) beside it."""
    if not database.exists():
        return None
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")
    kept = database.with_name(f"{database.name}.before-restore-{stamp}")
    if database.stat().st_size == 0:
        database.rename(kept)
        return kept
    try:
        with _open(database) as current, _open(kept, mine=True) as copy:
            current.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")
    except sqlite3.DatabaseError:  # unreadable: keep the bytes as they are
        kept.unlink(missing_ok=True)
        for suffix in ("", "-wal", "-shm"):
            part = Path(f"{database}{suffix}")
            if part.exists():
                part.rename(f"{kept}{suffix}")
    return kept


@contextlib.contextmanager
def _open(path: Path, mine: bool = False) -> Iterator[sqlite3.Connection]:
    """A connection; for a file the bridge writes (`mine`), made 0600 before it is written."""
    db = sqlite3.connect(path)
    if mine:
        private_file(path)
    try:
        yield db
    finally:
        db.close()
