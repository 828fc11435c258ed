"""The last record the bridge stored, and so acknowledged, in each battle, kept outside the
database: a battle whose stored log ends below it has lost acknowledged changes.

SQLite cannot see that loss: a folder copied without its `-wal` file (or a `-wal` deleted after
a kill -9) is a sound database of an older day. The bridge writes, after each commit and before
the acks go out, one line per battle to `battles.sqlite3.acknowledged` beside the database
(`["ambush", 8624]`, JSON, appended: a write of a few dozen bytes, no fsync, so it survives a
killed bridge; the file is fsynced when the bridge closes it). Reading keeps each battle's last
line and passes over a torn one; the file is rewritten whole (a new file renamed into place)
once it holds many more lines than battles, and, fsynced first, when what is stored changes on
purpose: a battle quarantined, `check --repair`, `restore`. A mark is only ever written after
its records are committed, so it is never above what the file held then: a start
(`sqlite_storage.py`, `load`) or `check` (`checkup.py`) that finds a log ending below its mark
reports the battle damaged, never by mistake.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from pathlib import Path

from .words import Said

log = logging.getLogger("background_battle_bridge")

SUFFIX = ".acknowledged"
REWRITE_AFTER = 1000  # lines more than the battles marked: the file is rewritten whole


def marks_path(database: Path) -> Path:
    """Where the marks of a database file are kept.

    >>> marks_path(Path("data/battles.sqlite3")).name
    'battles.sqlite3.acknowledged'
    """
    return database.with_name(database.name + SUFFIX)


def read_marks(path: Path) -> tuple[dict[str, int], int]:
    """Each battle's mark (its last line wins) and the number of lines read; a torn or foreign
    line is passed over; no file, no marks.

    >>> import tempfile; path = Path(tempfile.mkdtemp()) / "marks"
    >>> _ = path.write_text('["ambush", 3]\\n["siege", 9]\\n5\\n{}\\n["ambush", 4]\\n["amb')
    >>> read_marks(path)
    ({'ambush': 4, 'siege': 9}, 6)
    """
    try:
        text = path.read_bytes().decode("utf-8", errors="replace")
    except FileNotFoundError:
        return {}, 0
    marks: dict[str, int] = {}
    lines = text.split("\n")
    for line in lines:
        with contextlib.suppress(ValueError, TypeError):  # torn, or not a pair
            battle, seq = json.loads(line)
            if isinstance(battle, str) and type(seq) is int and seq >= 0:
                marks[battle] = seq
    return marks, len(lines)


def missing(marks: dict[str, int], battle: str, stored: int) -> str | None:
    """What is wrong with a battle whose log ends at record `stored`: None when it reaches
    its mark.

    >>> print(missing({"ambush": 8624}, "ambush", 8224))  # doctest: +NORMALIZE_WHITESPACE
    400 acknowledged changes are missing (the bridge stored and acknowledged record 8624, the
    file ends at record 8224): was the folder copied without its -wal file? Restore a backup
    (`background-battle-bridge restore --from FILE`), or let `check --repair` keep what is left
    >>> missing({"ambush": 8624}, "ambush", 8624) is None
    True
    """
    mark = marks.get(battle, 0)
    if stored >= mark:
        return None
    lost = Said("changes", count=mark - stored)
    return Said("reason.missing", lost=lost, mark=mark, stored=stored)


class Marks:
    """The marks of one database, appended to as records are committed."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.marks, self._lines = read_marks(path)
        self._fd: int | None = None

    def record(self, heads: dict[str, int]) -> None:
        """The battles' new last records, committed already: appended (never raises: the
        records are stored whatever happens here; a mark not written only notices less)."""
        self.marks.update(heads)
        try:
            if self._lines > len(self.marks) + REWRITE_AFTER:
                self.rewrite(self.marks, durable=False)  # the same marks: no fsync to wait for
                return
            if self._fd is None:
                self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            lines = "".join(_line(battle, seq) for battle, seq in heads.items())
            os.write(self._fd, lines.encode())
            self._lines += len(heads)
        except OSError as exc:
            log.warning("could not write the acknowledged marks to %s: %s", self.path, exc)

    def rewrite(self, marks: dict[str, int], durable: bool = True) -> None:
        """The file made anew with exactly these marks (fsynced when `durable`, then renamed
        into place). A rewrite of the same marks need not wait for the disk: whatever a power
        cut leaves of it (the old file, or less) is never above them.

        Raises:
            OSError: it could not be written (the old file is as it was).
        """
        self.close()
        part = self.path.with_name(self.path.name + ".part")
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, "".join(_line(b, s) for b, s in sorted(marks.items())).encode())
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(part, self.path)
        self.marks, self._lines = dict(marks), len(marks)

    def forget(self, battle: str) -> None:
        """A battle set aside on purpose: its name is free, its mark goes."""
        if battle in self.marks:
            marks = dict(self.marks)
            del marks[battle]
            try:
                self.rewrite(marks)
            except OSError as exc:
                log.warning("could not rewrite the acknowledged marks %s: %s", self.path, exc)

    def close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.fsync(self._fd)
            os.close(self._fd)
            self._fd = None


def _line(battle: str, seq: int) -> str:
    return json.dumps([battle, seq]) + "\n"  # ASCII: any name, any text encoding
