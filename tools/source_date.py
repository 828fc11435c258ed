"""One commit, the same bytes: the time every build stamps into its archives, and their entries.

The time is ``$SOURCE_DATE_EPOCH`` when set (reproducible-builds.org's convention, which
setuptools' wheels follow too; ``mk/reproducible.mk`` exports it for every ``make`` target), else
the commit's own time (``git log -1 --format=%ct``), else 1980-01-01, the earliest a zip can hold.
Zip entries get that time, mode 0644 and are written in sorted order.

    >>> entry("b.txt", 315532800).date_time, oct(entry("b.txt", 315532800).external_attr >> 16)
    ((1980, 1, 1, 0, 0, 0), '0o100644')
"""

from __future__ import annotations

import os
import subprocess
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EARLIEST_ZIP_TIME = 315_532_800  # 1980-01-01T00:00:00Z: a zip cannot say earlier
FILE_MODE = 0o100644  # a regular file, rw-r--r--


def source_date_epoch(root: Path = ROOT) -> int:
    """The build's time in seconds since 1970: ``$SOURCE_DATE_EPOCH``, the commit's, or 1980.

    Raises:
        ValueError: when ``$SOURCE_DATE_EPOCH`` is not a whole number of seconds.
    """
    given = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if given:
        if not given.isdigit():
            raise ValueError(f"SOURCE_DATE_EPOCH: expected whole seconds, got {given!r}")
        return max(int(given), EARLIEST_ZIP_TIME)
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "log", "-1", "--format=%ct"],
            capture_output=True,
            text=True,
            check=False,
            timeout=30,
        )
    except OSError:  # no git: a source tarball
        return EARLIEST_ZIP_TIME
    stamp = done.stdout.strip()
    if done.returncode != 0 or not stamp.isdigit():  # not a git checkout
        return EARLIEST_ZIP_TIME
    return max(int(stamp), EARLIEST_ZIP_TIME)


def entry(name: str, epoch: int) -> zipfile.ZipInfo:
    """A zip entry for a file ``name`` stamped ``epoch`` (UTC), mode 0644, deflated."""
    info = zipfile.ZipInfo(name, time.gmtime(epoch)[:6])
    info.external_attr = FILE_MODE << 16
    info.create_system = 3  # Unix, so that the mode is read as one
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def write_zip(archive: Path, files: dict[str, bytes], epoch: int) -> None:
    """``archive`` holding ``files`` (name -> bytes), sorted by name, each an ``entry``."""
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        for name in sorted(files):
            zipped.writestr(entry(name, epoch), files[name])
