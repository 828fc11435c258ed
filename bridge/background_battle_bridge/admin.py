"""The bridge's care commands: `check`, `backup`, `restore`, `tokens`
(`background-battle-bridge check …`).

Exit codes: 0 all is well (after repairing, with `--repair`); 1 damage found and left as it is;
2 the command could not run (a bad option, the folder in use by a running bridge, no file);
3 a data file or the folder cannot be written (`check` still reads and reports it, read-only).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

from . import places
from .acknowledged import marks_path, read_marks
from .backup import BackupError, backup, restore
from .checkup import Finding, examine, repair
from .file_modes import private_folder
from .lock import FolderBusy, FolderLock
from .salvage import RepairFailed, kept_aside, salvage
from .sqlite_storage import DB_FILE, SqliteStorage, StorageDamaged, read_only
from .tokens_command import show_tokens
from .unwritable import EXIT_UNWRITABLE, Unwritable, refusal

COMMANDS = ("check", "backup", "restore", "tokens")


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="background-battle-bridge",
        description="Look after the bridge's battles (run without a command to serve).",
    )
    commands = top.add_subparsers(dest="command", required=True)
    default = places.env_data(dict(os.environ))
    check = commands.add_parser(
        "check", help="read, check and replay every record of every battle; --repair mends"
    )
    save = commands.add_parser("backup", help="copy the battles into one file, even while serving")
    load = commands.add_parser("restore", help="put a backup back (stop the bridge first)")
    keys = commands.add_parser(
        "tokens", help="show the GM and player tokens; --new replaces them (bridge stopped)"
    )
    for sub in (check, save, load, keys):
        sub.add_argument("--data", type=Path, default=default, help="data folder (BB_DATA)")
    keys.add_argument(
        "--new",
        action="store_true",
        help="make new tokens: the old ones and their links stop working",
    )
    check.add_argument(
        "--repair",
        action="store_true",
        help="keep the good part of each damaged battle (its whole history goes to quarantine), "
        "bring back the good part of battles in quarantine, set an unreadable file aside",
    )
    save.add_argument("--to", type=Path, required=True, help="the backup file to write (new)")
    load.add_argument("--from", dest="source", type=Path, required=True, help="a backup file")
    return top


def main(argv: Sequence[str]) -> int:
    args = parser().parse_args(argv)
    args.data = places.data_folder(args.data, print)
    try:
        return _command(args)
    except Unwritable as exc:
        print(exc, file=sys.stderr)
        return EXIT_UNWRITABLE
    except OSError as exc:  # one line, never a traceback
        found = refusal(exc)
        print(found or f"{args.command} could not run: {exc}", file=sys.stderr)
        return 2 if found is None else EXIT_UNWRITABLE


def _command(args: argparse.Namespace) -> int:
    database = args.data / DB_FILE
    if args.data.is_dir():
        for note in private_folder(args.data):
            print(note, file=sys.stderr)
    try:
        if args.command == "tokens":
            return show_tokens(args.data, args.new)
        if args.command == "check":
            return _check(args.data, database, args.repair)
        if args.command == "backup":
            _report(backup(database, args.to), f"backed up to {args.to}:")
            return 0
        with FolderLock(args.data):
            findings, kept = restore(database, args.source)
        if kept is not None:
            print(f"the file it replaced was kept as {kept}")
        _report(findings, f"restored {args.source} into {database}:")
        return 0
    except (BackupError, FolderBusy) as exc:
        print(exc, file=sys.stderr)
        return 2


def _check(folder: Path, database: Path, mend: bool) -> int:
    if not database.exists():
        marks = read_marks(marks_path(database))[0]
        if marks:  # the bridge acknowledged changes to battles a file no longer holds
            names = ", ".join(map(repr, sorted(marks)[:5])) + (", …" if len(marks) > 5 else "")
            print(
                f"there is no database at {database}, but the bridge acknowledged changes to "
                f"{len(marks)} battle{'s' if len(marks) > 1 else ''} there ({names}): restore a "
                "backup (`restore --from FILE`), or move the whole folder aside to start afresh"
            )
            return 1
        print(f"there is no database at {database}: nothing to check")
        return 0
    if not mend:
        try:
            findings = _examine(database)
        except Unwritable as exc:
            return _check_read_only(database, exc)
        if findings is None:
            print("run `check --repair` to set it aside and keep what can be read")
            return 1
        _report(findings, f"{database}:")
        for kept in kept_aside(folder, database.name):
            print(f"a damaged file `check --repair` took what it could from is kept aside: {kept}")
        return _verdict(findings)
    short: list[str] = []
    try:
        with FolderLock(folder):
            findings = _examine(database)
            if findings is None:
                salvaged = salvage(database, read_marks(marks_path(database))[0])
                _report_lines(salvaged.lines)
                short = salvaged.short
                findings = _examine(database, marked=False)  # what it lacks is said below
                if findings is None:
                    raise RepairFailed("the rescued file cannot be read either")
            store = SqliteStorage(database)
            try:
                _report_lines(repair(store, findings))
                findings = examine(store.connection)
                store.mark_what_is_stored()  # what is missing now, only a backup has
            finally:
                store.close()
    except (FolderBusy, Unwritable):
        raise
    except RepairFailed as exc:
        print(f"check --repair could not finish: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # any failure: one line, never a traceback
        print(
            f"check --repair could not finish ({type(exc).__name__}: {exc}); "
            "what was not repaired is as it was",
            file=sys.stderr,
        )
        return 2
    _report(findings, f"{database} now:")
    verdict = _verdict(findings)
    if short:
        print(
            "the rescue could not read every record the damaged file's heads and the "
            f"bridge's acknowledged marks name: {'; '.join(short)}. Only a backup holds the "
            "rest (`restore --from FILE`); the damaged file is kept aside"
        )
        return 1
    return verdict


def _check_read_only(database: Path, unwritable: Unwritable) -> int:
    """`check` on a file the bridge cannot write: read without writing a byte, reported, then
    the line that says why the bridge would not start; exit 3."""
    marks, _ = read_marks(marks_path(database))
    try:
        with read_only(database) as db:
            findings = examine(db, marks)
    except sqlite3.DatabaseError as exc:
        print(f"the file is damaged or cannot be read read-only: {database}: {exc}")
    else:
        _report(findings, f"{database} (read only):")
        _verdict(findings)
    print(f"{unwritable}: the bridge does not start, and `--repair` cannot run, until it can be")
    return EXIT_UNWRITABLE


def _verdict(findings: list[Finding]) -> int:
    """1 while any battle is damaged or in quarantine and not brought back, else 0."""
    unsettled = [f for f in findings if f.needs_repair or f.unsettled]
    if not unsettled:
        return 0
    what = "run `check --repair` to mend them"
    if not any(f.needs_repair for f in unsettled):
        what = "what is left in quarantine only a backup can bring back (`restore`)"
    print(f"{len(unsettled)} battles are damaged or in quarantine: {what}")
    return 1


def _examine(database: Path, marked: bool = True) -> list[Finding] | None:
    """What `examine` finds (against the acknowledged marks when `marked`); None (and a line
    saying why) when the file cannot be read."""
    marks = read_marks(marks_path(database))[0] if marked else {}  # first: marked after commit
    try:
        store = SqliteStorage(database)
    except StorageDamaged as exc:
        print(f"the file is damaged: {exc}")
        return None
    try:
        return examine(store.connection, marks)
    except sqlite3.DatabaseError as exc:
        print(f"the file is damaged: {database} cannot be read: {exc}")
        return None
    finally:
        store.close()


def _report(findings: list[Finding], title: str) -> None:
    print(title)
    _report_lines([finding.line() for finding in findings] or ["no battles"])


def _report_lines(lines: list[str]) -> None:
    for line in lines:
        print(f"  {line}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
