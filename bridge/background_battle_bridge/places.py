"""Where the bridge keeps its battles and tokens: the user's data folder, as each system has it.

Linux `$XDG_DATA_HOME/background-battle` (`~/.local/share/background-battle`), macOS
`~/Library/Application Support/background-battle`, Windows `%APPDATA%\\background-battle`
(`platformdirs`); `--data` / `BB_DATA` name another. Before, the Windows default was
`%LOCALAPPDATA%\\background-battle\\background-battle`: a folder found there is moved to the new
place once (or, when it cannot be moved, used where it is), with a line saying so.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import platformdirs

from .words import Said, said_error

APP = "background-battle"


def default_data_folder() -> Path:
    """The user's data folder for the bridge on this system."""
    return platformdirs.user_data_path(APP, appauthor=False, roaming=True)


def earlier_default() -> Path:
    """The default of the bridge's first releases (on Linux and macOS the same folder)."""
    return platformdirs.user_data_path(APP)


def data_folder(given: Path | None, say: Callable[[str], None]) -> Path:
    """`given` (the `--data` flag or `BB_DATA`), else the default, an earlier one moved in."""
    if given is not None:
        return given
    return settled(default_data_folder(), earlier_default(), say)


def settled(folder: Path, earlier: Path, say: Callable[[str], None]) -> Path:
    """`folder`, with `earlier` moved to it when only `earlier` exists (else `earlier` kept).

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> (root / "old" / "app").mkdir(parents=True)
    >>> _ = (root / "old" / "app" / "secrets").write_text("{}")
    >>> new = root / "new" / "app"
    >>> settled(new, root / "old" / "app", print) == new  # doctest: +ELLIPSIS
    moved the data folder from ... to ...
    True
    >>> (root / "new" / "app" / "secrets").exists(), (root / "old" / "app").exists()
    (True, False)
    >>> import shutil; shutil.rmtree(root)
    """
    if folder == earlier or folder.exists() or not earlier.is_dir():
        return folder
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        os.replace(earlier, folder)
    except OSError as exc:
        say(Said("old_folder", old=earlier, new=folder, why=said_error(exc)))
        return earlier
    say(Said("moved_folder", old=earlier, new=folder))
    return folder


def env_data(env: dict[str, str]) -> Path | None:
    """`BB_DATA` when set (and not empty)."""
    return Path(env["BB_DATA"]) if env.get("BB_DATA") else None
