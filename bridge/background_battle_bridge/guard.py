"""Who may connect and what they may do: tokens, origins, a per-connection rate limit.

>>> tokens = Tokens(gm="g" * 32, player="p" * 32)
>>> tokens.role_of("p" * 32)
'player'
>>> tokens.role_of("wrong") is None
True
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import os
import secrets
import socket
from dataclasses import dataclass
from pathlib import Path

from background_battle.view import Role

from .words import Said

SECRETS_FILE = "secrets"
DEFAULT_ORIGINS = ("http://localhost:30000", "http://127.0.0.1:30000")


@dataclass(frozen=True)
class Tokens:
    """The GM token and the player token; `open` lets everyone in as GM without a token."""

    gm: str
    player: str
    open: bool = False

    def role_of(self, token: object) -> Role | None:
        """The role a token grants, compared in constant time; None for a wrong token."""
        if self.open:
            return "gm"
        if not isinstance(token, str):
            return None
        given = token.encode()
        # Both comparisons always run, so the time does not tell which one matched.
        is_gm = hmac.compare_digest(given, self.gm.encode())
        is_player = hmac.compare_digest(given, self.player.encode())
        if is_gm:
            return "gm"
        return "player" if is_player else None


def load_or_make_tokens(data_dir: Path, gm: str | None, player: str | None) -> Tokens:
    """Tokens from the flags when given, else from `secrets` in the data folder (made if missing).

    Raises:
        ValueError: a token shorter than 8 characters, or both tokens equal.
    """
    path = data_dir / SECRETS_FILE
    stored: dict[str, str] = {}
    if path.exists():
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            raise ValueError(Said("not_json", path=path)) from None
    if not stored.get("gm_token") or not stored.get("player_token"):
        stored = {"gm_token": secrets.token_urlsafe(24), "player_token": secrets.token_urlsafe(24)}
        data_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(stored, out)
    tokens = Tokens(gm=gm or stored["gm_token"], player=player or stored["player_token"])
    for name, value in (("gm", tokens.gm), ("player", tokens.player)):
        if len(value) < 8:
            raise ValueError(Said(f"token_short.{name}"))
    if tokens.gm == tokens.player:
        raise ValueError(Said("tokens_same"))
    return tokens


def is_loopback(host: str) -> bool:
    """True when every address `host` names is a loopback address.

    >>> is_loopback("127.0.0.1"), is_loopback("0.0.0.0"), is_loopback("::1")
    (True, False, True)
    """
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return False
    return bool(infos) and all(
        ipaddress.ip_address(str(info[4][0]).split("%")[0]).is_loopback for info in infos
    )


def origin_allowed(origin: str | None, host_header: str | None, allowed: frozenset[str]) -> bool:
    """A browser's Origin is allowed when it is the bridge's own (matches Host) or listed.

    No Origin at all means not a browser: allowed here, judged by its token alone.

    >>> origin_allowed("http://192.168.1.5:8765", "192.168.1.5:8765", frozenset())
    True
    >>> origin_allowed("https://evil.example", "127.0.0.1:8765", frozenset())
    False
    """
    if origin is None:
        return True
    if origin.rstrip("/") in allowed:
        return True
    return host_header is not None and origin in (f"http://{host_header}", f"https://{host_header}")


class RateLimit:
    """A token bucket: `rate` messages per second on average, bursts up to `burst`.

    >>> bucket = RateLimit(rate=1, burst=2, now=0.0)
    >>> [bucket.take(0.0), bucket.take(0.0), bucket.take(0.0), bucket.take(1.0)]
    [True, True, False, True]
    """

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.level = burst
        self.stamp = now

    def take(self, now: float) -> bool:
        """Spend one message; False when the bucket is empty."""
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level >= 1:
            self.level -= 1
            return True
        return False

    def wait_time(self) -> float:
        """Seconds until one message is allowed again."""
        return max(0.0, (1 - self.level) / self.rate)
