"""`background-battle-bridge origins [--remove URL]`: the Foundry origins paired by a code.

Listed with the ones always allowed; `--remove` forgets one (the bridge stopped: a running
bridge would go on allowing it). A removed origin can connect again only by a new code.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .columns import show
from .guard import DEFAULT_ORIGINS
from .lock import FolderBusy, FolderLock
from .origins import BadOrigin, Remembered, checked_origin, listed
from .words import Words, said_error


def show_origins(folder: Path, remove: str | None, words: Words) -> int:
    """Print the remembered origins, or forget one; 0 done, 1 not remembered, 2 cannot."""
    try:
        if remove is None:
            return _show(Remembered.load(folder), folder, words)
        try:
            origin, _ = checked_origin(remove)
        except BadOrigin as bad:
            _error(words.say(f"origin.{bad.code}", given=remove).replace("--origin", "--remove"))
            return 2
        with FolderLock(folder):
            remembered = Remembered.load(folder)
            if not remembered.remove(origin):
                _error(words.say("origins_unknown", origin=origin, folder=folder))
                return 1
        _say(words.say("origins_removed", origin=origin))
        return 0
    except FolderBusy as busy:
        where = busy.address or f"pid {busy.pid}"
        _error(words.say("origins_busy", where=where, folder=folder, origin=remove))
        return 2
    except (ValueError, OSError) as exc:
        _error(words.say("remembered_damaged", why=words.render(said_error(exc))))
        return 2


def _show(remembered: Remembered, folder: Path, words: Words) -> int:
    if not remembered.origins:
        _say(words.say("origins_none", folder=folder))
    else:
        _say(words.say("origins_title", folder=folder))
        for origin in sorted(remembered.origins):
            _say(origin, indent=2)
    _say(words.say("origins_always", origins=listed(DEFAULT_ORIGINS)))
    return 0


def _say(line: str, indent: int = 0) -> None:
    show(line, indent)


def _error(line: str) -> None:
    show(line, stream=sys.stderr)
