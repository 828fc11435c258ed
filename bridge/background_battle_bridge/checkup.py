"""`background-battle-bridge check`: every record of every battle read, checked and replayed.

`examine` reports each battle (and each one in quarantine); `repair` keeps the good part of a
damaged battle (the records before the first bad one) and sets the whole history aside in
quarantine, so that nothing is ever deleted (`salvage.py` rescues what a file SQLite itself
cannot read still holds).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from .acknowledged import missing
from .replay import Damaged, rebuild
from .room import Room
from .sqlite_storage import (
    HEAD_ROWS,
    INSERT,
    RECORDS,
    SqliteStorage,
    checked_records,
    checked_snapshot,
    checksum,
    rows_of,
    set_aside,
    set_heads,
)
from .stored import StoredBattle
from .words import Said, Words

SET_ASIDE = "SELECT seq, CAST(data AS BLOB), checksum FROM quarantine_records"


@dataclass
class Finding:
    """What `check` found about one battle (live, or set aside when `quarantine` is given)."""

    battle: str
    problem: str | None  # the first bad record or snapshot; None when sound
    records: int  # rows stored
    good: int  # records from the first that replay cleanly
    upto: int  # the number of the last good record (0: none)
    version: int | None  # the battle's version after the good records
    quarantine: int | None = None
    restored: int | None = None  # for one in quarantine: brought back up to this record
    only_snapshot: bool = False  # the records are sound, the snapshot is not

    @property
    def unsettled(self) -> bool:
        """Damaged, or in quarantine and not brought back: `check` exits 1 while any is."""
        return self.problem is not None and (self.quarantine is None or self.restored is None)

    @property
    def needs_repair(self) -> bool:
        if self.quarantine is None:
            return self.problem is not None
        return self.restored is None and self.good > 0

    def line(self, words: Words) -> str:
        """What `check` prints about it, in the GM's language (a reason read from the file's
        quarantine too, `Words.stored`)."""
        battle, version, upto = repr(self.battle), self.version, self.upto
        if self.quarantine is not None:
            key = "can_restore" if self.good else "lost"
            key = "restored" if self.restored is not None else key
            return words.say(
                f"finding.{key}",
                battle=battle,
                number=self.quarantine,
                problem=words.stored(self.problem or ""),
                restored=self.restored,
                upto=upto,
                version=version,
            )
        if self.problem is None:
            return words.say("finding.sound", battle=battle, version=version, count=self.records)
        problem = words.render(self.problem)
        key = "finding.damaged" if self.good else "finding.damaged_all"
        return words.say(key, battle=battle, problem=problem, upto=upto, version=version)


def examine(db: sqlite3.Connection, marks: dict[str, int] | None = None) -> list[Finding]:
    """Every battle, live ones first, then those in quarantine; with the acknowledged `marks`
    (read before the file), a battle whose log ends below its mark is damaged too, and one
    marked but not in the file at all is found.

    Raises:
        sqlite3.DatabaseError: the file itself cannot be read.
    """
    (quick,) = db.execute("PRAGMA quick_check").fetchone()
    if quick != "ok":
        raise sqlite3.DatabaseError(Said("quick_check", found=quick))
    findings = []
    heads = {name: (seq, summed) for name, seq, summed in db.execute(HEAD_ROWS)}
    names = db.execute(
        "SELECT battle FROM records UNION SELECT battle FROM snapshots"
        " UNION SELECT battle FROM battles ORDER BY 1"
    )
    marks = marks or {}
    for name in sorted({name for (name,) in names.fetchall()} | marks.keys()):
        finding = judge(name, rows_of(db, RECORDS, name), heads.get(name), headed=True)
        if finding.problem is None:
            finding.problem = missing(marks, name, heads.get(name, (0, ""))[0])
        if finding.problem is None:
            finding.problem = _snapshot_problem(db, name)
            finding.only_snapshot = finding.problem is not None
        findings.append(finding)
    for number, name, reason, restored in db.execute(
        "SELECT id, battle, reason, restored_upto FROM quarantine ORDER BY id"
    ).fetchall():
        rows = rows_of(db, SET_ASIDE, number, where="quarantine = ? AND kind = 'record'")
        finding = judge(name, rows)
        finding.problem, finding.quarantine, finding.restored = reason, number, restored
        findings.append(finding)
    return findings


def judge(
    name: str,
    rows: list[tuple[int, bytes, str | None]],
    head: tuple[int, str] | None = None,
    headed: bool = False,
) -> Finding:
    """One battle's whole history, from its first record to its head, checked and replayed
    (one in quarantine is judged without its head: its records are what can come back)."""
    if not rows and head is None:  # known only by its acknowledged mark
        return Finding(name, None, 0, 0, 0, None)
    records, damage = checked_records(name, 0, rows, head, headed)
    try:
        room = rebuild(name, StoredBattle(records=records, damage=damage))
    except Damaged as exc:
        good = records[: exc.good]
        version = rebuild(name, StoredBattle(records=good)).version if good else None
        upto = good[-1][0] if good else 0
        return Finding(name, exc.reason, len(rows), len(good), upto, version)
    return Finding(name, None, len(rows), len(rows), records[-1][0], room.version)


def _snapshot_problem(db: sqlite3.Connection, name: str) -> str | None:
    row = db.execute(
        "SELECT seq, CAST(data AS BLOB), checksum FROM snapshots WHERE battle = ?", (name,)
    ).fetchone()
    if row is None:
        return None
    snapshot = checked_snapshot(name, *row)
    try:
        if snapshot is not None:
            Room.from_snapshot(name, row[0], snapshot)
            return None
    except Exception:  # a snapshot that passed its checksum but does not load
        pass
    return Said("reason.snapshot_damaged", seq=row[0])


def repair(store: SqliteStorage, findings: list[Finding]) -> list[Said]:
    """Mend what `examine` found; one transaction per battle; returns what was done."""
    live = {f.battle for f in findings if f.quarantine is None}
    done = []
    for finding in findings:
        if finding.needs_repair:
            with store.transaction() as db:
                done.append(_mend(db, finding, live))
    return done


def _mend(db: sqlite3.Connection, finding: Finding, live: set[str]) -> Said:
    kept = {"battle": repr(finding.battle), "upto": finding.upto, "version": finding.version}
    if finding.quarantine is not None:
        name = finding.battle
        if name in live:  # a battle of that name was made since: bring it back beside it
            name = f"{name[:40]} (quarantine {finding.quarantine})"
        live.add(name)
        _bring_back(db, finding.quarantine, name, finding.upto)
        return Said("mend.brought_back", **kept, number=finding.quarantine, name=repr(name))
    if finding.only_snapshot:
        db.execute("DELETE FROM snapshots WHERE battle = ?", (finding.battle,))
        return Said("mend.snapshot", **kept)
    number = set_aside(db, finding.battle, finding.problem or "damaged")
    if not finding.good:
        return Said("mend.nothing", **kept, number=number)
    _bring_back(db, number, finding.battle, finding.upto)
    return Said("mend.kept", **kept, number=number)


def _bring_back(db: sqlite3.Connection, number: int, battle: str, upto: int) -> None:
    """Records 1..upto of a quarantined history back into the live battle `battle` (checked
    already; their checksums made anew, since they name the battle)."""
    rows = rows_of(
        db, SET_ASIDE, number, where=f"quarantine = ? AND kind = 'record' AND seq <= {int(upto)}"
    )
    db.executemany(
        INSERT, [(battle, seq, data.decode(), checksum(battle, seq, data)) for seq, data, _ in rows]
    )
    set_heads(db, battle)
    db.execute("UPDATE quarantine SET restored_upto = ? WHERE id = ?", (upto, number))
