"""The bridge's care commands: `check`, `backup`, `restore`, `tokens`, `origins`
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
from .columns import show
from .file_modes import private_folder
from .flags import OneLineParser
from .lock import FolderBusy, FolderLock
from .origins_command import show_origins
from .salvage import RepairFailed, kept_aside, salvage
from .sqlite_storage import DB_FILE, SqliteStorage, StorageDamaged, read_only
from .tokens_command import show_tokens
from .unwritable import EXIT_UNWRITABLE, Unwritable, refusal
from .words import Said, Words, chosen_language, said_error, without_lang

COMMANDS = ("check", "backup", "restore", "tokens", "origins")


def parser(words: Words | None = None) -> argparse.ArgumentParser:
    """The care commands' flags, described in the bridge's language (words.py)."""
    words = words or Words("en")
    say = words.say
    top = OneLineParser(
        prog="background-battle-bridge", description=say("care.description"), words=words
    )
    commands = top.add_subparsers(dest="command", required=True, title=say("care.commands"))
    default = places.env_data(dict(os.environ))

    def command(name: str) -> argparse.ArgumentParser:
        made: argparse.ArgumentParser = commands.add_parser(
            name, help=say(f"care.{name}"), description=say(f"care.{name}"), words=words
        )
        made.add_argument(
            "--data", type=Path, default=default, metavar="DIR", help=say("care.data")
        )
        return made

    check, save, load = command("check"), command("backup"), command("restore")
    keys, paired = command("tokens"), command("origins")
    paired.add_argument("--remove", metavar="URL", help=say("care.remove"))
    keys.add_argument("--new", action="store_true", help=say("care.new"))
    check.add_argument("--repair", action="store_true", help=say("care.repair"))
    save.add_argument("--to", type=Path, required=True, metavar="FILE", help=say("care.to"))
    load.add_argument(
        "--from", dest="source", type=Path, required=True, metavar="FILE", help=say("care.from")
    )
    return top


def main(argv: Sequence[str]) -> int:
    words = Words(chosen_language(list(argv), os.environ))
    args = parser(words).parse_args(without_lang(list(argv)))
    tell = Telling(words)
    args.data = places.data_folder(args.data, tell.out)
    try:
        return _command(args, tell)
    except (Unwritable, FolderBusy) as exc:
        tell.err(exc.args[0])
        return EXIT_UNWRITABLE if isinstance(exc, Unwritable) else 2
    except OSError as exc:  # one message, never a traceback
        found = refusal(exc)
        if found is not None:
            tell.err(found.args[0])
            return EXIT_UNWRITABLE
        tell.err(Said("care.could_not_run", command=args.command, why=said_error(exc)))
        return 2


class Telling:
    """The care commands' lines in the GM's language, each fitted into 80 columns."""

    def __init__(self, words: Words) -> None:
        self.words = words

    def out(self, said: str, indent: int = 0) -> None:
        show(self.words.render(said), indent)

    def err(self, said: str) -> None:
        show(self.words.render(said), stream=sys.stderr)

    def report(self, findings: list[Finding], title: Said) -> None:
        self.out(title)
        for line in [finding.line(self.words) for finding in findings] or [Said("care.no_battles")]:
            self.out(line, 2)


def _command(args: argparse.Namespace, tell: Telling) -> int:
    database = args.data / DB_FILE
    if args.data.is_dir():
        for note in private_folder(args.data):
            tell.err(note)
    try:
        if args.command == "tokens":
            return show_tokens(args.data, args.new, tell.words)
        if args.command == "origins":
            return show_origins(args.data, args.remove, tell.words)
        if args.command == "check":
            return _check(args.data, database, args.repair, tell)
        if args.command == "backup":
            tell.report(backup(database, args.to), Said("care.backed_up", path=args.to))
            return 0
        with FolderLock(args.data):
            findings, kept = restore(database, args.source)
        if kept is not None:
            tell.out(Said("care.replaced_kept", path=kept))
        tell.report(findings, Said("care.restored", source=args.source, path=database))
        return 0
    except BackupError as exc:
        tell.err(exc.args[0])
        return 2


def _check(folder: Path, database: Path, mend: bool, tell: Telling) -> int:
    if not database.exists():
        marks = read_marks(marks_path(database))[0]
        if marks:  # the bridge acknowledged changes to battles a file no longer holds
            names = [*map(repr, sorted(marks)[:5]), *(["…"] if len(marks) > 5 else [])]
            tell.out(Said("care.lost_database", path=database, count=len(marks), names=names))
            return 1
        tell.out(Said("care.nothing", path=database))
        return 0
    if not mend:
        try:
            findings = _examine(database, tell)
        except Unwritable as exc:
            return _check_read_only(database, exc, tell)
        if findings is None:
            tell.out(Said("care.run_repair"))
            return 1
        tell.report(findings, Said("care.title", path=database))
        for kept in kept_aside(folder, database.name):
            tell.out(Said("care.kept_aside", path=kept))
        return _verdict(findings, tell)
    short: list[Said] = []
    try:
        with FolderLock(folder):
            findings = _examine(database, tell)
            if findings is None:
                salvaged = salvage(database, read_marks(marks_path(database))[0])
                for line in salvaged.lines:
                    tell.out(line, 2)
                short = salvaged.short
                findings = _examine(database, tell, marked=False)  # what it lacks is said below
                if findings is None:
                    raise RepairFailed(Said("rescue_unreadable"))
            store = SqliteStorage(database)
            try:
                for line in repair(store, findings):
                    tell.out(line, 2)
                findings = examine(store.connection)
                store.mark_what_is_stored()  # what is missing now, only a backup has
            finally:
                store.close()
    except (FolderBusy, Unwritable):
        raise
    except RepairFailed as exc:
        tell.err(Said("care.repair_failed", why=said_error(exc)))
        return 2
    except Exception as exc:  # any failure: one message, never a traceback
        why = f"{type(exc).__name__}: {tell.words.render(said_error(exc))}"
        tell.err(Said("care.repair_crashed", why=why))
        return 2
    tell.report(findings, Said("care.now", path=database))
    verdict = _verdict(findings, tell)
    if short:
        tell.out(Said("care.short", short="; ".join(tell.words.render(s) for s in short)))
        return 1
    return verdict


def _check_read_only(database: Path, unwritable: Unwritable, tell: Telling) -> int:
    """`check` on a file the bridge cannot write: read without writing a byte, reported, then
    the line that says why the bridge would not start; exit 3."""
    marks, _ = read_marks(marks_path(database))
    try:
        with read_only(database) as db:
            findings = examine(db, marks)
    except sqlite3.DatabaseError as exc:
        tell.out(Said("care.read_only_damaged", path=database, why=said_error(exc)))
    else:
        tell.report(findings, Said("care.read_only_title", path=database))
        _verdict(findings, tell)
    tell.out(Said("care.read_only_verdict", unwritable=unwritable.args[0]))
    return EXIT_UNWRITABLE


def _verdict(findings: list[Finding], tell: Telling) -> int:
    """1 while any battle is damaged or in quarantine and not brought back, else 0."""
    unsettled = [f for f in findings if f.needs_repair or f.unsettled]
    if not unsettled:
        return 0
    what = Said("care.mend_them")
    if not any(f.needs_repair for f in unsettled):
        what = Said("care.only_backup")
    tell.out(Said("care.unsettled", count=len(unsettled), what=what))
    return 1


def _examine(database: Path, tell: Telling, marked: bool = True) -> list[Finding] | None:
    """What `examine` finds (against the acknowledged marks when `marked`); None (and a line
    saying why) when the file cannot be read."""
    marks = read_marks(marks_path(database))[0] if marked else {}  # first: marked after commit
    try:
        store = SqliteStorage(database)
    except StorageDamaged as exc:
        tell.out(Said("care.damaged", why=said_error(exc)))
        return None
    try:
        return examine(store.connection, marks)
    except sqlite3.DatabaseError as exc:
        why = Said("unreadable", path=database, why=said_error(exc))
        tell.out(Said("care.damaged", why=why))
        return None
    finally:
        store.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
