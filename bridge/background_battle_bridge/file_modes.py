"""Files only the GM can read: the data folder 0700, every file in it 0600.

The battles hold the numbers players must not see and `secrets` the tokens, so nothing in the
data folder is readable by another local user. `private_folder` is called wherever the folder
is made or used (it makes a missing folder 0700, and tightens a folder and files left open by
an older bridge, saying so); `private_file` makes a file 0600 as soon as it exists, before
anything is written to it (SQLite creates a database file when it is opened, and gives its
`-wal` and `-shm` the database's own mode). On Windows the modes mean
nothing and are left alone (the user's profile folder is private there).

A mode already right is left as it is (an immutable or read-only file of mode 600 is not
touched); one that cannot be changed is a note for the folder (`check` still reads it) and
`Unwritable` for a file the bridge is about to write.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from .unwritable import refusal
from .words import Said, said_error

FOLDER_MODE = 0o700
FILE_MODE = 0o600
POSIX = os.name == "posix"


def private_folder(folder: Path) -> list[Said]:
    """Make the folder (0700) if missing; tighten it and every file in it; what was tightened
    (each a `Said`, in the GM's language by `Words.render`).

    >>> import tempfile; folder = Path(tempfile.mkdtemp()) / "data"
    >>> private_folder(folder), oct(folder.stat().st_mode & 0o777) if POSIX else "0o700"
    ([], '0o700')
    """
    if not folder.exists():
        folder.mkdir(parents=True, mode=FOLDER_MODE)
        if POSIX:
            os.chmod(folder, FOLDER_MODE)  # whatever the umask
        return []
    if not POSIX:
        return []
    notes = []
    mode = stat.S_IMODE(folder.stat().st_mode)
    if mode & 0o077:
        try:
            os.chmod(folder, FOLDER_MODE)
        except OSError as exc:
            found = refusal(exc, folder)
            why = found.cause if found else said_error(exc)
            notes.append(Said("folder_open", folder=folder, mode=f"{mode:o}", why=why))
        else:
            notes.append(Said("folder_tightened", folder=folder, mode=f"{mode:o}"))
    opened = [path.name for path in sorted(folder.iterdir()) if _tightened(path)]
    if opened:
        names = opened[:5] + (["…"] if len(opened) > 5 else [])
        notes.append(Said("files_tightened", count=len(opened), folder=folder, names=names))
    return notes


def private_file(path: Path) -> None:
    """Make `path` readable and writable by its owner only (left alone when it is).

    Raises:
        Unwritable: its mode cannot be changed (immutable, on a read-only mount, another's).
    """
    if not POSIX or not path.exists() or stat.S_IMODE(path.stat().st_mode) == FILE_MODE:
        return
    try:
        os.chmod(path, FILE_MODE)
    except OSError as exc:
        found = refusal(exc, path)
        if found is None:
            raise
        raise found from None


def _tightened(path: Path) -> bool:
    """Tighten one file of the folder (not a folder, not a link); whether it was open."""
    with contextlib.suppress(OSError):
        info = path.lstat()
        if stat.S_ISREG(info.st_mode) and stat.S_IMODE(info.st_mode) & 0o077:
            os.chmod(path, FILE_MODE)
            return True
    return False
