"""`background-battle-bridge tokens [--new]`: the tokens kept in the data folder, or new ones.

The tokens are made on the bridge's first start and kept in `secrets` in the data folder, so the
links and Foundry's settings stay good from one game night to the next; `--new` replaces them
(the bridge stopped: a running bridge would go on with the old ones).
"""

from __future__ import annotations

import sys
from pathlib import Path

from .columns import show
from .guard import SECRETS_FILE, load_or_make_tokens
from .lock import FolderBusy, FolderLock
from .words import Words

ENGLISH = Words("en")


def show_tokens(folder: Path, new: bool, words: Words = ENGLISH) -> int:
    """Print the tokens (made when missing, replaced with `new`); 2 while a bridge runs."""
    secrets = folder / SECRETS_FILE
    try:
        if new or not secrets.exists():
            with FolderLock(folder):
                if new:
                    secrets.unlink(missing_ok=True)
                tokens = load_or_make_tokens(folder, None, None)
        else:
            tokens = load_or_make_tokens(folder, None, None)
    except FolderBusy as busy:
        where = busy.address or f"pid {busy.pid}"
        _error(words.say("tokens_busy", where=where, folder=folder))
        return 2
    except OSError as exc:
        _error(words.say("tokens_unreadable", path=secrets, why=words.oserror(exc)))
        return 2
    except ValueError as exc:
        _error(words.say("tokens_unreadable", path=secrets, why=exc))
        return 2
    # each token on a line of its own whole (a terminal breaks a long line where it will)
    print(words.say("tokens_gm", token=tokens.gm))
    print(words.say("tokens_player", token=tokens.player))
    if new:
        show(words.say("tokens_new"))
    show(words.say("tokens_kept", path=secrets))
    return 0


def _error(line: str) -> None:
    show(line, stream=sys.stderr)
