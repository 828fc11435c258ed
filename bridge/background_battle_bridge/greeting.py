"""What the bridge prints when it starts: what the GM does next, in a few lines.

The address, the values for Foundry's settings, the GM's and the players' links; then a QR code
of the player link only when it is an address a phone can reach, else one line saying how to let
phones in. Nothing here is sent anywhere: finding the local-network address sends no packet.

>>> from .guard import Tokens
>>> lines = greeting(Reach("127.0.0.1", None, 8765), Tokens("g" * 8, "p" * 8), Path("d"), 0)
>>> print("\\n".join(lines))
Background Battle bridge: http://127.0.0.1:8765/
  Foundry: Bridge connection (GM) -> "Connect to the bridge", then type the code
    shown here (bridge address ws://127.0.0.1:8765/ws)
  open as GM:     http://127.0.0.1:8765/#token=gggggggg
  open as player: http://127.0.0.1:8765/#token=pppppppp
  phones cannot open 127.0.0.1 (this computer only): to let them in, start with
    --host 0.0.0.0
  data: 0 battles and the tokens, kept for next time in d
  tokens to paste by hand: background-battle-bridge tokens (new: tokens --new)
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from .columns import fit, fit_all
from .guard import Tokens, is_loopback
from .join_code import qr_lines
from .origins import listed
from .words import Words

ENGLISH = Words("en")

EVERY_INTERFACE = ("0.0.0.0", "::", "")
# A private address that nothing needs to answer: a UDP socket "connected" to it only asks the
# system which of its own addresses would be used (no packet leaves the machine).
ROUTE_PROBE = ("10.255.255.255", 1)


@dataclass(frozen=True)
class Reach:
    """Where the bridge can be opened: from this computer, from a phone (None: not at all)."""

    here: str
    phones: str | None
    port: int
    everywhere: bool = False

    @classmethod
    def of(cls, host: str, port: int) -> Reach:
        """The addresses for a bridge listening on `host` (the `--host` flag) and `port`."""
        if host in EVERY_INTERFACE:
            return cls("127.0.0.1", lan_address(), port, everywhere=True)
        return cls(host, None if is_loopback(host) else host, port)

    def url(self, host: str) -> str:
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{self.port}/"


def lan_address() -> str | None:
    """This machine's address on the local network, or None; sends nothing.

    The route a UDP socket would take to a private address names the address used; when there
    is none (no network), the addresses of the machine's own name are tried.
    """
    found: list[str] = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(ROUTE_PROBE)
        found.append(str(probe.getsockname()[0]))
    with contextlib.suppress(OSError):
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        found.extend(str(info[4][0]) for info in infos)
    return next((address for address in found if _reachable(address)), None)


def _reachable(address: str) -> bool:
    """An address another device may reach: not loopback, not 0.0.0.0, not link-local.

    >>> [_reachable(a) for a in ("192.168.1.5", "127.0.1.1", "0.0.0.0", "169.254.3.4")]
    [True, False, False, False]
    """
    ip = ipaddress.ip_address(address)
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local)


def greeting(
    reach: Reach,
    tokens: Tokens,
    data_dir: Path,
    battles: int,
    draws: bool = True,
    words: Words = ENGLISH,
    origins: Iterable[str] = (),
) -> list[str]:
    """The lines printed at start-up, each within 80 columns (at most four before the links);
    `draws`: the terminal can show the QR code's block characters (a Windows pipe's code page
    cannot); `origins`: the Foundry origins allowed besides the bridge's own."""
    here = reach.url(reach.here)
    said: list[tuple[str, int]] = [(words.say("address", url=here), 0)]
    if reach.phones:
        said.append((words.say("local_network", url=reach.url(reach.phones)), 2))
    said.append((words.say("foundry", ws=f"ws://{here.removeprefix('http://')}ws"), 2))
    players = reach.url(reach.phones) if reach.phones else here
    if tokens.open:
        said.append((words.say("no_tokens"), 2))
        said.append((words.say("open", url=here), 2))
    else:
        # At the phones' address when there is one: the GM's page then shows a QR code that
        # phones can open too.
        said.append((words.say("open_gm", url=f"{players}#token={quote(tokens.gm, safe='')}"), 2))
        said.append((words.say("open_player", url=player_link(players, tokens)), 2))
    lines = fit_all(said)
    if reach.phones and not draws:
        lines += fit(words.say("no_qr"), 2)
    elif reach.phones:
        lines += fit(words.say("scan", url=players), 2)
        lines.extend(f"  {line}" for line in qr_lines(player_link(players, tokens)))
    elif reach.everywhere:
        lines += fit(words.say("no_lan"), 2)
    else:
        lines += fit(words.say("loopback", host=reach.here), 2)
    if origins:
        lines += fit(words.say("origins", origins=listed(origins)), 2)
    battles_said = words.battles(battles)
    lines += fit(words.say("data", folder=data_dir, battles=battles_said), 2)
    lines += fit(words.say("paste"), 2)
    return lines


def draws_blocks(stream: object) -> bool:
    """Whether `stream`'s encoding has the QR code's characters.

    >>> import io
    >>> draws_blocks(io.TextIOWrapper(io.BytesIO(), "utf-8")), draws_blocks(
    ...     io.TextIOWrapper(io.BytesIO(), "cp1252"))
    (True, False)
    """
    try:
        "█▀▄".encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def player_link(base: str, tokens: Tokens) -> str:
    """The link a player opens (the page alone when there are no tokens)."""
    return base if tokens.open else f"{base}#token={quote(tokens.player, safe='')}"
