"""Which web pages may open the bridge's WebSocket: their origins, checked, given and remembered.

An origin is a scheme (http or https), a host and a port, as a browser sends it in `Origin`:
`http://foundry.local:30000`, never a path. `--origin` (and `BB_ORIGINS`) are read by
`checked_origin`: the address a GM copies from the address bar is reduced to its origin with a
note, anything that is not one is refused in one line. Origins paired by a code (pairing.py)
are remembered in the data folder (`origins.json`, mode 0600) and allowed at every start until
removed (`background-battle-bridge origins --remove URL`).

>>> checked_origin("http://Foundry.local:30000/game")
('http://foundry.local:30000', 'path')
>>> checked_origin("https://mygame.forge-vtt.com:443/")
('https://mygame.forge-vtt.com', None)
>>> checked_origin("foundry.local:30000")
Traceback (most recent call last):
...
background_battle_bridge.origins.BadOrigin: no_scheme
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from .file_modes import private_file, private_folder
from .words import Said

ORIGINS_FILE = "origins.json"
SCHEMES = {"http": 80, "https": 443}
MAX_REMEMBERED = 100


class BadOrigin(ValueError):
    """Not an origin: `code` says why (the words are the shell's, words.py)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def checked_origin(text: str) -> tuple[str, str | None]:
    """The origin `text` names, and a note when more was given ("path": a page's address).

    Raises:
        BadOrigin: "no_scheme" (foundry.local:30000), "scheme" (ftp://x), "no_host",
            "user" (user@host), "port" (not 1..65535), "space".
    """
    typed = text.strip()
    if not typed or any(ch.isspace() or ord(ch) < 32 for ch in typed):
        raise BadOrigin("space")
    if "://" not in typed:
        raise BadOrigin("no_scheme")
    parts = urlsplit(typed)
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        raise BadOrigin("scheme")
    if "@" in parts.netloc:
        raise BadOrigin("user")
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        raise BadOrigin("port") from None
    if not host:
        raise BadOrigin("no_host")
    if port is not None and not 0 < port <= 65535:
        raise BadOrigin("port")
    shown = f"[{host}]" if ":" in host else host
    origin = f"{scheme}://{shown}"
    if port is not None and port != SCHEMES[scheme]:
        origin += f":{port}"
    extra = parts.path not in ("", "/") or parts.query or parts.fragment
    return origin, "path" if extra else None


@dataclass
class Remembered:
    """The origins paired by a code, kept in `origins.json` of the data folder."""

    folder: Path
    origins: dict[str, float] = field(default_factory=dict)  # origin -> when it was paired

    @classmethod
    def load(cls, folder: Path) -> Remembered:
        """What the folder remembers; nothing when there is no file (a damaged one: ValueError)."""
        path = folder / ORIGINS_FILE
        if not path.exists():
            return cls(folder)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            raise ValueError(Said("not_json", path=path)) from None
        kept = data.get("origins") if isinstance(data, dict) else None
        if not isinstance(kept, list):
            raise ValueError(Said("origins_not_list", path=path))
        origins = {}
        for entry in kept:
            if not isinstance(entry, dict) or not isinstance(entry.get("origin"), str):
                raise ValueError(Said("origins_bad_entry", path=path, entry=repr(entry)))
            origin, _ = checked_origin(entry["origin"])
            paired = entry.get("paired")
            origins[origin] = float(paired) if isinstance(paired, int | float) else 0.0
        return cls(folder, origins)

    def add(self, origin: str) -> None:
        """Remember `origin` (written at once; the oldest are forgotten past 100).

        Raises:
            OSError: the file could not be written (`origin` is allowed until the bridge stops).
        """
        self.origins[origin] = time.time()
        while len(self.origins) > MAX_REMEMBERED:
            del self.origins[min(self.origins, key=self.origins.__getitem__)]
        self._save()

    def remove(self, origin: str) -> bool:
        """Forget `origin`; whether it was remembered."""
        if self.origins.pop(origin, None) is None:
            return False
        self._save()
        return True

    def _save(self) -> None:
        private_folder(self.folder)  # made 0700 when missing
        path = self.folder / ORIGINS_FILE
        fresh = path.with_name(path.name + ".new")
        entries = [{"origin": o, "paired": round(t)} for o, t in sorted(self.origins.items())]
        fd = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump({"origins": entries}, out, indent=1)
            out.flush()
            os.fsync(out.fileno())
        private_file(fresh)
        os.replace(fresh, path)


@dataclass
class Allowed:
    """The origins allowed now: the defaults and `--origin` ones, and the remembered ones."""

    given: frozenset[str]
    remembered: Remembered

    def all(self) -> frozenset[str]:
        return self.given | frozenset(self.remembered.origins)

    def remember(self, origin: str) -> bool:
        """Allow `origin` from now on, at every start; False when it was remembered already."""
        if origin in self.remembered.origins:
            return False
        self.remembered.add(origin)
        return True


def listed(origins: Iterable[str]) -> str:
    """Origins for one line, sorted.

    >>> listed(["http://b:1", "http://a:2"])
    'http://a:2, http://b:1'
    """
    return ", ".join(sorted(origins))
