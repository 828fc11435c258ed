"""Rescue what a database file SQLite cannot read still holds, and never leave less.

The damaged file is only read, through copies made in a work folder beside it: the file as it
is (with its write-ahead log), and the file cut to whole pages with the header's page count
(the "in-header database size" at offset 28) set to the pages that are there, once as cut and
once with a torn last page filled out with zeros. SQLite trusts the header's count: a file cut
by a page still claims the page, and every reading that reaches past the end fails; with the
count corrected every intact page reads again. In each copy every battle's records are read
key by key (a seek past each bad page to the next good one), the tables scanned from both
ends, and only rows whose checksum matches their battle, number and text are taken: a torn
page's rows of NULLs or garbage never are. Then every leaf page is read directly (`read_pages`),
without SQLite, for the rows on intact pages the B-tree can no longer reach (below a lost
interior page).

The header is not needed: when its first 100 bytes are torn (the page size unreadable, or the
constants every SQLite file holds at 21-23 gone), each page size SQLite allows is tried, with a
header made anew for it (and page 1's page type restored when that went too), both for SQLite's
reading and for the pages read directly; only rows whose checksum matches are ever taken, so a
wrong guess yields nothing, never garbage.

A rescue that finds fewer records than the damaged file's heads, or the bridge's acknowledged
marks (`acknowledged.py`), say its battles reached, or none at all in a file of many pages,
still puts in place everything it found, and says how much is missing (`Salvaged.short`):
`check --repair` then exits 1.

A new file is written with every record found (and the heads and quarantine rows that could be
read) in the work folder, read back and checked to hold every one of them, and only then put
in the damaged file's place (which is kept as `battles.sqlite3.damaged-<time>`). Any failure
before that leaves the damaged file where it was, untouched.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .file_modes import private_file
from .sqlite_storage import INSERT, SqliteStorage, checksum, set_heads
from .words import Said, said_error

PAGE_SIZE_AT = 16  # header: the page size, big-endian u16 (1 means 65536)
PAGE_COUNT_AT = 28  # header: the in-header database size in pages, big-endian u32
HEADER = b"SQLite format 3\x00"
Key = tuple[str, int]


class RepairFailed(Exception):
    """The rescue could not finish; the damaged file is where it was."""


@dataclass
class Rescued:
    """What the damaged file still yields, every record checked against its checksum."""

    records: dict[Key, tuple[bytes, str]] = field(default_factory=dict)
    heads: dict[str, tuple[int, str]] = field(default_factory=dict)
    quarantine: set[tuple[object, ...]] = field(default_factory=set)
    quarantined: set[tuple[object, ...]] = field(default_factory=set)
    readings: list[Said] = field(default_factory=list)  # how many records each reading gave

    @property
    def battles(self) -> list[str]:
        return sorted({name for name, _ in self.records} | set(self.heads))


@dataclass
class Salvaged:
    """What a rescue did: the lines it reports, and what it could not get back."""

    lines: list[Said]
    short: list[Said]  # one line per battle (or for the file) with records it could not read


def kept_aside(folder: Path, name: str) -> list[Path]:
    """The damaged files a rescue set aside in `folder` (not their -wal, -shm)."""
    return sorted(
        path
        for path in folder.glob(f"{name}.damaged-*")
        if not path.name.endswith(("-wal", "-shm"))
    )


def salvage(path: Path, marks: dict[str, int] | None = None) -> Salvaged:
    """Put a new file holding everything the damaged one yields in its place; `marks`, the
    last record acknowledged in each battle, say what it should have held.

    Raises:
        RepairFailed: nothing was changed (the damaged file is where it was).
    """
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    try:
        with tempfile.TemporaryDirectory(dir=path.parent, prefix=".repair-") as folder:
            work = Path(folder)
            rescued = rescue(path, work)
            pages = path.stat().st_size // (page_size(path.read_bytes()[:100]) or 4096)  # about
            fresh = work / path.name
            write(fresh, rescued)
            _holds_all(fresh, rescued)
            _swap(path, fresh, aside)
    except RepairFailed:
        raise
    except (OSError, sqlite3.Error) as exc:
        raise RepairFailed(Said("rescue_failed", path=path, why=said_error(exc))) from None
    battles = rescued.battles
    found = Said(
        "rescue_found",
        records=len(rescued.records),
        battles=len(battles),
        readings=rescued.readings,
        names=list(map(repr, battles)),
    )
    lines = [Said("rescue_moved", path=aside), found if battles else Said("rescue_none")]
    return Salvaged(lines, shortfall(rescued, marks or {}, pages))


def shortfall(rescued: Rescued, marks: dict[str, int], pages: int) -> list[Said]:
    """The battles whose records 1..N (N: their head read, or their acknowledged mark) were
    not all found; for a file of many pages that gave no record at all, that.

    >>> rescued = Rescued(records={("ambush", 1): (b"", ""), ("ambush", 3): (b"", "")})
    >>> shortfall(rescued, {"ambush": 4, "lost": 2}, 9)
    ["'ambush': 2 of its 4 records were read", "'lost': 0 of its 2 records were read"]
    """
    reached = {name: seq for name, (seq, _) in rescued.heads.items()}
    for name, seq in marks.items():
        reached[name] = max(reached.get(name, 0), seq)
    short = []
    for name, last in sorted(reached.items()):
        have = sum(1 for seq in range(1, last + 1) if (name, seq) in rescued.records)
        if have < last:
            short.append(Said("rescue_short", battle=repr(name), have=have, last=last))
    if not short and not rescued.records and pages > 8:
        short.append(Said("rescue_short_file", pages=pages))
    return short


def rescue(path: Path, work: Path) -> Rescued:
    """Every record the damaged file yields, read through each of its copies."""
    rescued = Rescued()
    if path.stat().st_size == 0:
        return rescued
    for (key, values), copy in _copies(path, work):
        before = len(rescued.records)
        with contextlib.suppress(sqlite3.Error), contextlib.closing(sqlite3.connect(copy)) as db:
            _read(db, rescued)
        copy.unlink()  # the next copy may be as large
        if len(rescued.records) > before:
            rescued.readings.append(Said(key, **values, count=len(rescued.records) - before))
    added = sum(read_pages(data, rescued) for _, data in headed(path.read_bytes()))
    if added:
        rescued.readings.append(Said("reading.pages", count=added))
    return rescued


def header_sound(data: bytes) -> bool:
    """Whether the header gives a page size and holds the constants every SQLite file has."""
    return page_size(data) is not None and data[21:24] == b"\x40\x20\x20"


def headed(data: bytes) -> Iterator[tuple[int, bytes]]:
    """The file's bytes with a header SQLite can read, one at a time: as they are when the
    header is sound, else with one made anew for each page size that could be the file's
    (page 1's type too).

    >>> [size for size, _ in headed(HEADER + bytes([16, 0, 2, 2, 0, 64, 32, 32]) + bytes(8184))]
    [4096]
    >>> [size for size, _ in headed(HEADER + bytes(4096 * 2 - 16))][:3]
    [512, 1024, 2048]
    """
    size = page_size(data)
    if size is not None and header_sound(data):
        yield size, data
        return
    for power in range(9, 17):
        size = 1 << power
        if len(data) >= 2 * size:
            yield size, _with_header(data, size)


def _with_header(data: bytes, size: int) -> bytes:
    """`data` with the 100 bytes of a header for pages of `size` (UTF-8, no free list: its
    pages are unknown, and only read), page 1's page type a table leaf when it is no type."""
    header = bytearray(100)
    header[:16] = HEADER
    header[16:18] = (1 if size == 65536 else size).to_bytes(2, "big")
    header[18:24] = bytes([1, 1, 0, 64, 32, 32])  # no WAL, no reserved bytes, the constants
    header[24:28] = (1).to_bytes(4, "big")  # change counter
    header[PAGE_COUNT_AT : PAGE_COUNT_AT + 4] = (len(data) // size).to_bytes(4, "big")
    header[40:48] = bytes([0, 0, 0, 1, 0, 0, 0, 4])  # schema cookie 1, schema format 4
    header[56:60] = (1).to_bytes(4, "big")  # UTF-8
    header[92:96] = (1).to_bytes(4, "big")  # valid for change 1
    header[96:100] = (3045001).to_bytes(4, "big")
    page_type = data[100] if data[100] in (0x05, 0x0D) else 0x0D
    return bytes(header) + bytes([page_type]) + data[101:]


def page_size(data: bytes) -> int | None:
    """The page size a database file's header gives; None when it is not a database's.

    >>> page_size(HEADER + bytes([16, 0]) + bytes(82)), page_size(b"battles?" * 20)
    (4096, None)
    """
    if not data.startswith(HEADER) or len(data) < 100:
        return None
    size = int.from_bytes(data[PAGE_SIZE_AT : PAGE_SIZE_AT + 2], "big")
    size = 65536 if size == 1 else size
    return None if size < 512 or size & (size - 1) else size


def _copies(path: Path, work: Path) -> Iterator[tuple[tuple[str, dict[str, int]], Path]]:
    """The file as it is, then cut to whole pages with the header's page count corrected,
    then with a torn last page filled with zeros; each with the words of its reading."""
    whole = work / "as-is.sqlite3"
    shutil.copyfile(path, whole)
    wal = Path(f"{path}-wal")
    if wal.exists():
        shutil.copyfile(wal, f"{whole}-wal")
    yield ("reading.as_is", {}), whole
    original = path.read_bytes()
    guessed = "_guessed" if not header_sound(original) else ""
    for size, data in headed(original):
        pages, torn = divmod(len(data), size)
        for label, body in (
            ("whole", data[: pages * size]),
            ("torn", data + bytes(size - torn) if torn else b""),
        ):
            if not body:
                continue
            count = len(body) // size
            body = body[:PAGE_COUNT_AT] + count.to_bytes(4, "big") + body[PAGE_COUNT_AT + 4 :]
            copy = work / f"{label}-{size}.sqlite3"
            copy.write_bytes(body)
            yield (f"reading.{label}{guessed}", {"pages": count, "size": size}), copy


def _read(db: sqlite3.Connection, rescued: Rescued) -> None:
    names: set[str] = set()
    for way in ("ASC", "DESC"):
        heads = f"SELECT battle, seq, checksum FROM battles ORDER BY battle {way}"
        for battle, seq, summed in _rows(db, heads):
            if isinstance(battle, str) and isinstance(seq, int) and isinstance(summed, str):
                rescued.heads.setdefault(battle, (seq, summed))
                names.add(battle)
        for (battle,) in _rows(db, "SELECT battle FROM snapshots"):
            if isinstance(battle, str):
                names.add(battle)
        for row in _rows(
            db,
            "SELECT battle, seq, CAST(data AS BLOB), checksum FROM records"
            f" ORDER BY battle {way}, seq {way}",
        ):
            if _take(rescued, row):
                names.add(str(row[0]))
        names |= _names(db, way)
        rescued.quarantine |= set(_rows(db, f"SELECT * FROM quarantine ORDER BY id {way}"))
        rescued.quarantined |= set(
            _rows(db, f"SELECT * FROM quarantine_records ORDER BY quarantine {way}")
        )
    for name in sorted(names):
        _walk(db, name, rescued)


def _rows(db: sqlite3.Connection, sql: str) -> list[tuple[object, ...]]:
    """The rows a query yields up to the first page it cannot read."""
    rows: list[tuple[object, ...]] = []
    with contextlib.suppress(sqlite3.Error):
        for row in db.execute(sql):
            rows.append(tuple(row))
    return rows


def _take(rescued: Rescued, row: tuple[object, ...]) -> bool:
    """Take a record row whose checksum matches; a row of NULLs or garbage is never taken."""
    battle, seq, data, summed = row
    if not (isinstance(battle, str) and isinstance(seq, int) and isinstance(data, bytes)):
        return False
    if not isinstance(summed, str) or checksum(battle, seq, data) != summed:
        return False
    rescued.records[(battle, seq)] = (data, summed)
    return True


def _names(db: sqlite3.Connection, way: str) -> set[str]:
    """Battle names found by seeking from one name to the next, from either end."""
    names: set[str] = set()
    compare, name = (">", "") if way == "ASC" else ("<", "\U0010ffff")
    while True:
        try:
            row = db.execute(
                f"SELECT battle FROM records WHERE battle {compare} ? ORDER BY battle {way}"
                " LIMIT 1",
                (name,),
            ).fetchone()
        except sqlite3.Error:
            return names
        if row is None or not isinstance(row[0], str):
            return names
        name = row[0]
        names.add(name)


NEXT = (
    "SELECT battle, seq, CAST(data AS BLOB), checksum FROM records"
    " WHERE battle = ? AND seq > ? ORDER BY seq LIMIT 1"
)
AT = "SELECT battle, seq, CAST(data AS BLOB), checksum FROM records WHERE battle = ? AND seq = ?"


def _walk(db: sqlite3.Connection, name: str, rescued: Rescued) -> None:
    """One battle's records in order, each by its key; past a page that cannot be read, on to
    the next one that can (every number between looked up on its own)."""
    after = 0
    while True:
        try:
            row = db.execute(NEXT, (name, after)).fetchone()
        except sqlite3.Error:
            row = _past_bad_page(db, name, after, rescued)
        if row is None:
            return
        _take(rescued, tuple(row))
        after = int(row[1])


def _past_bad_page(
    db: sqlite3.Connection, name: str, after: int, rescued: Rescued
) -> tuple[object, ...] | None:
    """The first readable record after a bad page: seeks ever further, then every number
    between the last seek that failed and the one that worked, one by one."""
    step = 1
    while step < 2**31:
        try:
            row = db.execute(NEXT, (name, after + step)).fetchone()
        except sqlite3.Error:
            step *= 2
            continue
        for seq in range(after + step // 2 + 1, after + step + 1):
            with contextlib.suppress(sqlite3.Error):
                found = db.execute(AT, (name, seq)).fetchone()
                if found is not None:
                    _take(rescued, tuple(found))
        return None if row is None else tuple(row)
    return None


def write(fresh: Path, rescued: Rescued) -> None:
    """A new file holding every record rescued, the heads and quarantine rows read."""
    store = SqliteStorage(fresh)
    try:
        with store.transaction() as db:
            db.executemany(
                INSERT,
                [
                    (battle, seq, data.decode(), summed)
                    for (battle, seq), (data, summed) in sorted(rescued.records.items())
                ],
            )
            db.executemany(
                "INSERT INTO battles (battle, seq, checksum) VALUES (?, ?, ?)",
                [(battle, seq, summed) for battle, (seq, summed) in rescued.heads.items()],
            )
            for battle in {name for name, _ in rescued.records} - set(rescued.heads):
                set_heads(db, battle)  # its head was lost: its last record read
            _insert_all(db, "quarantine", rescued.quarantine)
            _insert_all(db, "quarantine_records", rescued.quarantined)
    finally:
        store.close()
    private_file(fresh)


def _insert_all(db: sqlite3.Connection, table: str, rows: set[tuple[object, ...]]) -> None:
    for row in sorted(rows, key=repr):
        with contextlib.suppress(sqlite3.Error):  # a row of garbage from a torn page
            marks = ", ".join("?" * len(row))
            db.execute(f"INSERT OR IGNORE INTO {table} VALUES ({marks})", row)


def _holds_all(fresh: Path, rescued: Rescued) -> None:
    """The new file, read back, holds every record rescued, each intact.

    Raises:
        RepairFailed: it does not.
    """
    with contextlib.closing(sqlite3.connect(fresh)) as db:
        (quick,) = db.execute("PRAGMA quick_check").fetchone()
        stored = {
            (battle, seq): (bytes(data), summed)
            for battle, seq, data, summed in db.execute(
                "SELECT battle, seq, CAST(data AS BLOB), checksum FROM records"
            )
        }
    if quick != "ok" or any(stored.get(key) != value for key, value in rescued.records.items()):
        raise RepairFailed(Said("rescue_short_of_records"))


def _swap(path: Path, fresh: Path, aside: Path) -> None:
    """The damaged file (and its -wal, -shm) set aside, the new one put in its place; if that
    fails, the damaged file goes back."""
    moved: list[tuple[Path, Path]] = []
    try:
        for suffix in ("", "-wal", "-shm"):
            part = Path(f"{path}{suffix}")
            if part.exists():
                part.rename(f"{aside}{suffix}")
                moved.append((part, Path(f"{aside}{suffix}")))
        os.replace(fresh, path)
    except OSError:
        for part, kept in reversed(moved):
            with contextlib.suppress(OSError):
                kept.rename(part)
        raise


# -- reading pages directly ------------------------------------------------------------------

INDEX_LEAF = 0x0A  # a page of a WITHOUT ROWID table's rows (`records` is one)
INDEX_INTERIOR = 0x02  # its inner pages hold rows too, each after its child's page number


def read_pages(data: bytes, rescued: Rescued) -> int:
    """Every record on an intact page of the file, read without SQLite: a page the
    B-tree can no longer reach (under a lost interior page) still gives its rows. Only rows
    SQLite did not give are added, and none of a battle that was ever in quarantine (its
    records were moved out; their old pages must not bring them back); free pages are passed
    over. Returns how many records it added."""
    aside = {row[1] for row in rescued.quarantine if len(row) > 1}
    added = 0
    for key, value in sorted(records_on_pages(data).items()):
        if key not in rescued.records and key[0] not in aside:
            rescued.records[key] = value
            added += 1
    return added


def records_on_pages(data: bytes) -> dict[Key, tuple[bytes, str]]:
    """Every `records` row, checksum checked, on the pages of a file's bytes."""
    found = Rescued()
    _scan(data, found)
    return found.records


def _scan(data: bytes, rescued: Rescued) -> None:
    size = page_size(data)
    if size is None:
        return
    usable = size - data[20]
    free = _free_pages(data, size)
    for number in range(1, len(data) // size + 1):
        if number in free:
            continue
        page = data[(number - 1) * size : number * size]
        start = 100 if number == 1 else 0
        if page[start] not in (INDEX_LEAF, INDEX_INTERIOR):
            continue
        inner = page[start] == INDEX_INTERIOR
        cells = int.from_bytes(page[start + 3 : start + 5], "big")
        for index in range(cells):
            at = start + (12 if inner else 8) + 2 * index
            cell = int.from_bytes(page[at : at + 2], "big") + (4 if inner else 0)
            with contextlib.suppress(IndexError, ValueError, UnicodeDecodeError):
                row = _row(data, size, usable, page, cell)
                if row is not None:
                    _take(rescued, row)


def _free_pages(data: bytes, size: int) -> set[int]:
    """The numbers of the file's free pages (its freelist's trunk and leaf pages)."""
    free: set[int] = set()
    trunk = int.from_bytes(data[32:36], "big")
    while trunk and trunk not in free and trunk * size <= len(data):
        free.add(trunk)
        page = data[(trunk - 1) * size : trunk * size]
        count = int.from_bytes(page[4:8], "big")
        for index in range(min(count, size // 4 - 2)):
            free.add(int.from_bytes(page[8 + 4 * index : 12 + 4 * index], "big"))
        trunk = int.from_bytes(page[0:4], "big")
    return free


def _row(data: bytes, size: int, usable: int, page: bytes, at: int) -> tuple[object, ...] | None:
    """The (battle, seq, data, checksum) of one index-leaf cell, its overflow pages followed;
    None for a row of another shape."""
    length, at = _varint(page, at)
    most = (usable - 12) * 64 // 255 - 23
    least = (usable - 12) * 32 // 255 - 23
    local = length
    if length > most:
        local = least + (length - least) % (usable - 4)
        local = local if local <= most else least
    payload = page[at : at + local]
    following = int.from_bytes(page[at + local : at + local + 4], "big") if local < length else 0
    seen: set[int] = set()
    while len(payload) < length:
        if not following or following in seen or following * size > len(data):
            return None  # the rest of it was on a lost page
        seen.add(following)
        overflow = data[(following - 1) * size : following * size]
        following = int.from_bytes(overflow[:4], "big")
        payload += overflow[4:usable][: length - len(payload)]
    return _values(payload)


def _values(payload: bytes) -> tuple[object, ...] | None:
    """A record of four columns: text, integer, text, text (a `records` row); else None."""
    header, at = _varint(payload, 0)
    types = []
    while at < header:
        kind, at = _varint(payload, at)
        types.append(kind)
    if len(types) != 4:
        return None
    values: list[object] = []
    at = header
    for kind in types:
        if kind >= 13 and kind % 2:  # text
            width = (kind - 13) // 2
            values.append(payload[at : at + width])
        elif 1 <= kind <= 6:  # integer
            width = (1, 2, 3, 4, 6, 8)[kind - 1]
            values.append(int.from_bytes(payload[at : at + width], "big", signed=True))
        elif kind in (8, 9):
            width = 0
            values.append(kind - 8)
        else:
            return None
        at += width
    battle, seq, text, summed = values
    if not all(isinstance(value, bytes) for value in (battle, text, summed)):
        return None
    assert isinstance(battle, bytes) and isinstance(summed, bytes)
    return battle.decode(), seq, text, summed.decode()


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """SQLite's variable-length integer at `at`, and where the next thing starts."""
    value = 0
    for index in range(9):
        byte = data[at + index]
        if index == 8:
            return (value << 8) | byte, at + 9
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, at + index + 1
    raise ValueError("a varint longer than 9 bytes")
