"""A data folder or file the bridge cannot write: found before serving, said in one line.

An immutable file (`chattr +i`), a read-only mount, a file of another user or of mode 444: the
bridge could read its battles but refuse every change, so it does not start. `Unwritable` names
the file and the cause; the bridge and its care commands exit with `EXIT_UNWRITABLE` (3).
`writable` asks the system itself (a file opened for writing, nothing written), so it sees what
the modes alone do not show (an immutable file, a read-only mount, even for root).
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from .words import Said

EXIT_UNWRITABLE = 3
REFUSALS = {errno.EROFS: "cause.EROFS", errno.EPERM: "cause.EPERM", errno.EACCES: "cause.EACCES"}


class Unwritable(Exception):
    """A data file or folder that cannot be written; the message (a `Said`) names it and
    says why."""

    def __init__(self, path: Path | str, cause: str) -> None:
        super().__init__(Said("unwritable", path=path, cause=cause))
        self.path, self.cause = Path(path), cause


def refusal(exc: OSError, path: Path | str | None = None) -> Unwritable | None:
    """The `Unwritable` an operating system's refusal to write means; None for other errors.

    >>> print(refusal(OSError(errno.EROFS, "Read-only file system"), "/data/battles.sqlite3"))
    /data/battles.sqlite3 cannot be written: it is on a read-only disk or mount
    >>> refusal(OSError(errno.ENOSPC, "No space left on device"), "/data") is None
    True
    """
    cause = REFUSALS.get(exc.errno or 0)
    if cause is None:
        return None
    return Unwritable(path or exc.filename or Said("unnamed_folder"), Said(cause))


def writable(folder: Path, names: tuple[str, ...]) -> None:
    """Each file of `names` in `folder` that exists opened for writing (nothing written), and
    the folder able to take new files (SQLite makes its `-wal` and `-shm` there).

    Raises:
        Unwritable: one of them cannot be written.
    """
    for name in names:
        path = folder / name
        try:
            fd = os.open(path, os.O_RDWR)
        except FileNotFoundError:
            continue
        except OSError as exc:
            found = refusal(exc, path)
            if found is None:
                raise
            raise found from None
        os.close(fd)
    if os.name == "posix" and not os.access(folder, os.W_OK | os.X_OK):
        try:
            read_only = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
        except OSError:
            read_only = False
        raise Unwritable(folder, Said("cause.EROFS" if read_only else "cause.no_new_file"))
