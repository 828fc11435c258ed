"""One bridge per data folder: an exclusive lock on `bridge.lock`, held while the process lives.

The operating system drops the lock when the process ends, even on kill -9, so a stale lock
never blocks a restart. Once listening, the bridge writes its address beside it
(`bridge.address`, with its pid), so that a second bridge on the same folder names the running
one's address instead of suggesting another folder (new tokens, no battles).

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> with FolderLock(folder):
...     FolderLock(folder).take()
Traceback (most recent call last):
...
background_battle_bridge.lock.FolderBusy: another bridge (pid ...) is using the data folder ...
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from types import TracebackType

from .file_modes import private_folder
from .unwritable import refusal
from .words import Said

LOCK_FILE = "bridge.lock"
ADDRESS_FILE = "bridge.address"


class FolderBusy(Exception):
    """Another process holds the data folder's lock: its pid ("?" unknown) and, once it
    listens, its address (else "")."""

    def __init__(self, message: Said, pid: str = "?", address: str = "") -> None:
        super().__init__(message)
        self.pid = pid
        self.address = address


class FolderLock:
    """The lock on a data folder (made if missing); `take` or `with`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._fd: int | None = None

    def take(self) -> FolderLock:
        """Raises:
        FolderBusy: another process holds it (its pid in the message when known).
        Unwritable: the folder or the lock file cannot be written (a read-only mount).
        """
        try:
            if not self.folder.exists():
                private_folder(self.folder)  # made 0700
            fd = os.open(self.folder / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            found = refusal(exc)
            if found is None:
                raise
            raise found from None
        try:
            _lock(fd)
        except OSError:
            holder = _holder(fd)
            os.close(fd)
            address = _address(self.folder, holder)
            said = Said("busy", pid=holder, folder=self.folder)
            if address:
                said = Said("busy_at", pid=holder, url=address, folder=self.folder)
            raise FolderBusy(said, holder, address) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        return self

    def tell(self, address: str) -> None:
        """Write where this bridge listens, for a second one to name it (best effort)."""
        path = self.folder / ADDRESS_FILE
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(f"{os.getpid()}\n{address}\n")
        except OSError:
            pass  # the lock alone still keeps a second bridge out

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                (self.folder / ADDRESS_FILE).unlink(missing_ok=True)
            os.close(self._fd)  # closing the file drops the lock
            self._fd = None

    def __enter__(self) -> FolderLock:
        return self.take()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.release()


def _holder(fd: int) -> str:
    """The pid the holder wrote, or "?" (Windows refuses to read a byte another process locked)."""
    try:
        return os.read(fd, 32).decode(errors="replace").strip() or "?"
    except OSError:
        return "?"


def _address(folder: Path, holder: str) -> str:
    """The address the holder wrote once listening ("" before, or when it is another's)."""
    try:
        pid, address = (folder / ADDRESS_FILE).read_text(encoding="utf-8").split("\n")[:2]
    except (OSError, ValueError):
        return ""
    return address.strip() if holder in ("?", pid.strip()) else ""


def _lock(fd: int) -> None:
    """Take an exclusive lock without waiting; OSError when it is held."""
    if sys.platform == "win32":  # run by the Windows workflow (.github/workflows/platforms.yml)
        import msvcrt

        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    else:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
