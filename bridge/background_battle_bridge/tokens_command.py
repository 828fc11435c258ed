"""`background-battle-bridge tokens [--new]`: the tokens kept in the data folder, or new ones.

The tokens are made on the bridge's first start and kept in `secrets` in the data folder, so the
links and Foundry's settings stay good from one game night to the next; `--new` replaces them
(the bridge stopped: a running bridge would go on with the old ones).
"""

from __future__ import annotations

import sys
from pathlib import Path

from .guard import SECRETS_FILE, load_or_make_tokens
from .lock import FolderBusy, FolderLock


def show_tokens(folder: Path, new: bool) -> int:
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
    except FolderBusy as exc:
        print(f"{exc} (the tokens change only while no bridge uses the folder)", file=sys.stderr)
        return 2
    except (ValueError, OSError) as exc:
        print(f"cannot read the tokens in {secrets}: {exc}", file=sys.stderr)
        return 2
    print(f"GM token:     {tokens.gm}")
    print(f"player token: {tokens.player}")
    if new:
        print(
            "new tokens: enter them again in Foundry (Player token; the GM token under Bridge "
            "connection (GM)); the old links no longer open the bridge"
        )
    print(f"kept in {secrets} for the next start; `tokens --new` replaces them")
    return 0
