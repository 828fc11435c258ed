"""`background-battle-bridge`: the WebSocket at /ws and the web page, on one port.

Configuration is read once in `main()` (flags, each with an environment-variable default);
`Bridge` holds the running parts; `serve_bridge` starts the `websockets` server.
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import http
import io
import json
import logging
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from . import admin, places, visibility
from . import http_gate as gate
from . import protocol as p
from .answers import Answers
from .audience import Client
from .columns import fit, show
from .connection import Connection
from .file_modes import private_folder
from .flags import FlagError, OneLineParser, described, origins_of
from .flood import FLOOD_SECONDS, verdict
from .greeting import Reach, draws_blocks, greeting
from .guard import DEFAULT_ORIGINS, RateLimit, Tokens, is_loopback, load_or_make_tokens
from .guard import origin_allowed as origin_ok
from .hub import SNAPSHOT_EVERY, Hub
from .lock import FolderBusy, FolderLock
from .messages import PAIR as PAIR_PATH
from .messages import WS as WS_PATH
from .origins import Allowed, BadOrigin, Remembered
from .pair_handler import pair_connection
from .pairing import Pairing
from .protocol import ProtocolError
from .salvage import kept_aside
from .sqlite_storage import DB_FILE, SYNC_MODES, SqliteStorage, StorageDamaged
from .static import Site, packaged_page
from .stopping import on_stop_signals
from .stored import Storage
from .unwritable import EXIT_UNWRITABLE, Unwritable, refusal
from .words import LANGUAGES, Said, Words, chosen_language, said_error
from .wrong_tokens import WrongTokens

ENGLISH = Words("en")

log = logging.getLogger("background_battle_bridge")

HELLO_TIMEOUT = 10.0
CLOSE_TIMEOUT = 5.0  # a close takes at most this long, whatever the peer does (connection.py)
# The web page asks for this file to learn that a bridge serves it (a static host has none).
MARKER_PATH = "/bridge.json"
MARKER = {"bridge": "background-battle", "protocol": p.PROTOCOL_VERSION, "ws": WS_PATH}


def marker_response() -> Response:
    """`/bridge.json`: tells the page it is served by a bridge, never cached."""
    body = json.dumps(MARKER).encode()
    headers = Headers(
        [
            ("Content-Type", "application/json"),
            ("Content-Length", str(len(body))),
            ("Cache-Control", "no-store"),
        ]
    )
    return Response(200, "OK", headers, body)


@dataclass(frozen=True)
class Config:
    """Everything the bridge needs to start; made once by `main()` (or by a test)."""

    host: str = "127.0.0.1"
    port: int = 8765
    data_dir: Path = Path("data")
    web_dir: Path | None = None
    origins: frozenset[str] = frozenset(DEFAULT_ORIGINS)
    rate: float = 30.0
    burst: float = 120.0
    flood_seconds: float = FLOOD_SECONDS
    snapshot_every: int = SNAPSHOT_EVERY
    ping_interval: float | None = 20.0
    allowed_hosts: frozenset[str] = frozenset()
    lang: str = "en"


class Bridge:
    """The running parts: tokens, the hub of battles, the site; one `handler` per connection."""

    def __init__(
        self,
        config: Config,
        tokens: Tokens,
        storage: Storage,
        remembered: Remembered | None = None,
        pairing: Pairing | None = None,
        say: Callable[[str], None] | None = None,
    ) -> None:
        """`remembered`: the paired origins (default: none yet); `pairing`: the rules of joining
        by a code (a test passes its clock); `say`: where the GM reads a Foundry asking to join
        (default: stdout, fitted into 80 columns)."""
        self.config = config
        self.tokens = tokens
        self.hub = Hub(storage, snapshot_every=config.snapshot_every)
        self.site = Site(config.web_dir)
        self.words = Words(config.lang)
        # the Foundry origins paired by a code, allowed at every start (origins.py)
        self.allowed = Allowed(config.origins, remembered or Remembered(config.data_dir))
        self.pairing = pairing or Pairing()
        self.say = say or _say
        self.hosts = self._hosts()
        self.wrong_tokens = WrongTokens()

    def _hosts(self) -> gate.HostList:
        config = self.config
        return gate.HostList.make(config.host, self.allowed.all(), config.allowed_hosts)

    def process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        """HTTP before the WebSocket: checked first (method, headers, Host, path); then the page
        at any path but /ws, and at /ws the origin before the upgrade."""
        try:
            path = gate.check(request, self.hosts)
            if path == WS_PATH:
                return self._upgrade(request)
            if path == PAIR_PATH:  # any origin may ask to pair; nothing is given without the code
                return self._upgrade_pair(request)
            return gate.for_method(request, self._page(request, path))
        except gate.Refusal as refusal:
            log.warning("refused %s %r: %s", request.method[:20], request.path[:200], refusal)
            return refusal.response()

    def _upgrade(self, request: Request) -> Response | None:
        """None lets `websockets` go on with the handshake; a refusal otherwise."""
        if request.method != "GET":
            raise gate.Refusal(
                http.HTTPStatus.METHOD_NOT_ALLOWED, "The WebSocket opens with GET.", Allow="GET"
            )
        origin = request.headers.get("Origin")
        if not origin_ok(origin, request.headers.get("Host"), self.allowed.all()):
            raise gate.Refusal(http.HTTPStatus.FORBIDDEN, f"Origin {origin!r} is not allowed.")
        return None

    def _upgrade_pair(self, request: Request) -> Response | None:
        if request.method != "GET" or request.headers.get("Upgrade", "").lower() != "websocket":
            raise gate.Refusal(
                http.HTTPStatus.BAD_REQUEST, "Pairing is a WebSocket opened with GET.", Allow="GET"
            )
        return None

    async def _pair(self, ws: ServerConnection) -> None:
        def remembered() -> None:
            self.hosts = self._hosts()

        def tell_gms(message: dict[str, Any]) -> None:
            self.hub.audience.tell_everyone(message, players=False)

        await pair_connection(
            ws, self.pairing, self.allowed, self.tokens, self.words, self.say, remembered, tell_gms
        )

    def _page(self, request: Request, path: str) -> Response:
        if request.headers.get("Upgrade", "").lower() == "websocket":
            raise gate.Refusal(http.HTTPStatus.NOT_FOUND, "The WebSocket is at /ws.")
        if path == MARKER_PATH:
            return marker_response()
        return self.site.response(path, request.headers.get("If-None-Match"))

    async def handler(self, ws: ServerConnection) -> None:
        """One connection: `hello` first (within 10 s), then messages until it closes."""
        # the path as process_request read it (decoded): /pair never reaches the hello below
        if ws.request is not None and gate.checked_path(ws.request) == PAIR_PATH:
            await self._pair(ws)
            return
        loop = asyncio.get_running_loop()
        client = Client(ws, role="player", kind="", bucket=self._bucket(loop.time()))
        try:
            async with asyncio.timeout(HELLO_TIMEOUT):
                while not client.kind:
                    if not await self._hello(client, await ws.recv()):
                        return
            answers = Answers(ws, self.hub.audience.flush)
            try:
                async for frame in ws:
                    if not await self._admit(client, frame):
                        continue
                    try:
                        message = p.parse(frame)
                    except ProtocolError as exc:
                        await answers.add(_ready([p.error(exc)]), alone=True)
                        continue
                    work = self._answer(client, message)
                    await answers.add(work, alone=message["type"] != "command")
            finally:
                await answers.close()
        except TimeoutError:
            await ws.close(1008, "no hello within 10 s")
        except ConnectionClosed:
            pass
        finally:
            self.hub.leave(client)

    async def _answer(self, client: Client, message: dict[str, Any]) -> list[dict[str, Any]]:
        """The replies to one message after `hello`; never raises."""
        try:
            return await self.hub.handle(client, message)
        except ProtocolError as exc:
            return [p.error(exc, message)]
        except Exception:  # a bug must not take the connection or the server down
            log.exception("a request failed")
            return [p.internal_error(message)]

    def _bucket(self, now: float) -> RateLimit:
        return RateLimit(self.config.rate, self.config.burst, now)

    async def _hello(self, client: Client, frame: str | bytes) -> bool:
        """Handle a frame before `hello` succeeded; False when the connection must end."""
        if not await self._admit(client, frame):
            return not client.ws.close_code
        message = None
        try:
            message = p.parse(frame)
            if message["type"] != "hello":
                raise ProtocolError(
                    "hello_required", "the first message must be hello", field="type"
                )
            kind = p.field(message, "client")
            if kind not in p.CLIENT_KINDS:
                raise ProtocolError(
                    "unknown_client",
                    f"client must be one of {', '.join(p.CLIENT_KINDS)}",
                    field="client",
                    params={"accepted": list(p.CLIENT_KINDS)},
                )
            refusal = self._too_many_tries(client.ws)
            role = None if refusal else self.tokens.role_of(message.get("token"))
        except ProtocolError as exc:
            await client.ws.send(p.dumps(p.error(exc, message)))
            return True
        if role is None:
            if refusal is None:
                self.wrong_tokens.wrong(_address(client.ws), asyncio.get_running_loop().time())
            error = refusal or ProtocolError("bad_token", "the token is wrong", field="token")
            await client.ws.send(p.dumps(p.error(error, message)))
            await client.ws.close(1008, "too many wrong tokens" if refusal else "wrong token")
            return False
        client.role, client.kind = role, kind
        try:
            # The GM's page shows the player link (a QR code) for the players at the table.
            shown = visibility.is_gm(role) and not self.tokens.open
            replies = await self.hub.join(client, message, self.tokens.player if shown else None)
        except Exception:  # a bug must not take the connection or the server down
            log.exception("a hello failed")
            replies = [p.internal_error(message)]
        self.hub.audience.flush(client.ws)
        for reply in replies:
            await client.ws.send(p.dumps(reply))
        return True

    def _too_many_tries(self, ws: ServerConnection) -> ProtocolError | None:
        """`too_many_tries` while this address must wait before its next token is checked."""
        if self.tokens.open:
            return None
        wait = self.wrong_tokens.wait(_address(ws), asyncio.get_running_loop().time())
        if wait <= 0:
            return None
        return ProtocolError(
            "too_many_tries",
            f"too many wrong tokens from this address: the next one is checked in {wait:.1f} s",
            field="token",
            params={"retry_after": round(wait, 3)},
        )

    async def _admit(self, client: Client, frame: str | bytes) -> bool:
        """The rate limit: False for a message dropped; a flood closes the connection.

        A dropped request that has an `id` is answered with `error rate_limited` and that id;
        one without is answered at most once a second.
        """
        now = asyncio.get_running_loop().time()
        said = verdict(client, now, self.config.flood_seconds)
        if said == "pass":
            return True
        if said == "close":
            log.warning("closing a client that kept flooding")
            await client.ws.close(1008, "flood")
            return False
        request_id = p.request_id(frame)
        if request_id is None and now - client.last_rate_error < 1.0:
            return False
        if request_id is None:
            client.last_rate_error = now
        error = ProtocolError(
            "rate_limited",
            f"too many messages: at most {client.bucket.rate:g} a second "
            f"(bursts of {client.bucket.burst:g}); this one was dropped",
            params={"retry_after": round(client.bucket.wait_time(), 3), "rate": client.bucket.rate},
        )
        self.hub.audience.flush(client.ws)
        await client.ws.send(p.dumps(p.error(error, {"id": request_id})))
        return False


def _address(ws: ServerConnection) -> str:
    """The peer's IP address (the port left out: a new connection has a new port)."""
    peer = ws.remote_address
    return str(peer[0]) if isinstance(peer, tuple) and peer else ""


async def _ready(replies: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return replies


def serve_bridge(bridge: Bridge) -> Server:
    """The `websockets` server for a bridge (use as `async with`)."""
    return serve(
        bridge.handler,
        bridge.config.host,
        bridge.config.port,
        process_request=bridge.process_request,
        max_size=p.MAX_FRAME,
        compression=None,
        ping_interval=bridge.config.ping_interval,
        ping_timeout=bridge.config.ping_interval,
        close_timeout=CLOSE_TIMEOUT,
        create_connection=Connection,
    )


def parse_config(argv: Sequence[str] | None, env: dict[str, str]) -> tuple[Config, Any]:
    """Flags with environment defaults; returns the config and the parsed flags.

    A mistake (a bad flag or value, an `--origin` that is not an origin) ends the program with
    one line on stderr and exit code 2.
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    lang = chosen_language(argv, env)
    words = Words(lang)
    parser = OneLineParser(
        prog="background-battle-bridge",
        description=described(words.say("help.description")),
        epilog=words.say("help.epilog"),
        words=words,
    )
    add = parser.add_argument
    add("--host", default=env.get("BB_HOST", "127.0.0.1"), help=words.say("help.host"))
    add("--port", type=_port, default=env.get("BB_PORT", "8765"), help=words.say("help.port"))
    folder = places.default_data_folder()
    add(
        "--data",
        type=Path,
        default=places.env_data(env),
        metavar="DIR",
        help=words.say("help.data", folder=folder),
    )
    add("--web", type=Path, default=env.get("BB_WEB"), metavar="DIR", help=words.say("help.web"))
    add(
        "--gm-token",
        default=env.get("BB_GM_TOKEN"),
        metavar="TOKEN",
        help=words.say("help.gm_token"),
    )
    add(
        "--player-token",
        default=env.get("BB_PLAYER_TOKEN"),
        metavar="TOKEN",
        help=words.say("help.player_token"),
    )
    add(
        "--no-tokens",
        action="store_true",
        default=env.get("BB_NO_TOKENS", "") not in ("", "0"),
        help=words.say("help.no_tokens"),
    )
    add(
        "--origin",
        action="append",
        metavar="URL",
        default=[o for o in env.get("BB_ORIGINS", "").split(",") if o.strip()],
        help=words.say("help.origin"),
    )
    add(
        "--allow-host",
        action="append",
        metavar="NAME",
        default=[h for h in env.get("BB_ALLOW_HOSTS", "").split(",") if h.strip()],
        help=words.say("help.allow_host"),
    )
    add(
        "--sync",
        choices=SYNC_MODES,
        default=env.get("BB_SYNC", "full"),
        help=words.say("help.sync"),
    )
    add(
        "--rate",
        type=_positive,
        default=env.get("BB_RATE", "30"),
        metavar="N",
        help=words.say("help.rate"),
    )
    add(
        "--burst",
        type=_positive,
        default=env.get("BB_BURST", "120"),
        metavar="N",
        help=words.say("help.burst"),
    )
    add("--lang", choices=LANGUAGES, default=lang, help=words.say("help.lang", lang=lang))
    args = parser.parse_args(argv)
    if args.sync not in SYNC_MODES:
        parser.error(Said("flag.sync", modes=", ".join(SYNC_MODES), value=repr(args.sync)))
    try:
        if isinstance(args.port, str):
            args.port = _port(args.port)
        for name in ("rate", "burst"):
            if isinstance(getattr(args, name), str):
                setattr(args, name, _positive(getattr(args, name)))
        origins, notes = origins_of(args.origin, words)
    except (argparse.ArgumentTypeError, FlagError) as exc:
        parser.exit(2, "\n".join(fit(words.render(exc.args[0]))) + "\n")
    for note in notes:
        _say_error(note)
    config = Config(
        host=args.host,
        port=args.port,
        data_dir=places.data_folder(args.data, lambda said: _say(words.render(said))),
        web_dir=Path(args.web) if args.web else _default_web_dir(),
        origins=frozenset([*DEFAULT_ORIGINS, *origins]),
        rate=args.rate,
        burst=args.burst,
        allowed_hosts=frozenset(h.strip() for h in args.allow_host),
        lang=lang,
    )
    return config, args


def _port(value: str) -> int:
    try:
        port = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(Said("flag.port_whole", value=repr(value))) from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(Said("flag.port_range", value=port))
    return port


def _positive(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(Said("flag.number", value=repr(value))) from None
    if not 0 < number <= 1_000_000:
        raise argparse.ArgumentTypeError(Said("flag.positive", value=value))
    return number


def _default_web_dir() -> Path:
    """The page built into the installed package (a wheel), else `web/dist` of the source tree
    this package runs from, else of the current folder."""
    packaged = packaged_page()
    if packaged is not None:
        return packaged
    here = Path(__file__).resolve().parents[2] / "web" / "dist"
    return here if here.is_dir() else Path("web/dist")


async def run(
    config: Config, tokens: Tokens, storage: Storage, lock: FolderLock | None = None
) -> None:
    """Serve until SIGINT or SIGTERM, then close every connection and the store; `lock` (the
    data folder's) is told the address, for a second bridge to name it."""
    words = Words(config.lang)
    bridge = Bridge(config, tokens, storage, remembered=_remembered(config, words))
    bridge.hub.restore()
    stop = asyncio.Event()
    restore_signals = on_stop_signals(asyncio.get_running_loop(), stop.set)
    try:
        async with serve_bridge(bridge) as server:
            bridge.hub.start()
            port = server.sockets[0].getsockname()[1]
            if lock is not None:  # this computer's address: where a second bridge's GM is
                lock.tell(f"http://{_shown_host(config.host)}:{port}/")
            print("\n".join(started_lines(bridge, port)), flush=True)
            await stop.wait()
            print(words.say("stopping"), flush=True)
    finally:
        restore_signals()
        await bridge.hub.close()
        storage.close()
    print(words.say("stopped"), flush=True)


def _shown_host(host: str) -> str:
    """The host in a URL for this computer: 127.0.0.1 for every interface, [::1] bracketed.

    >>> _shown_host("0.0.0.0"), _shown_host("::1"), _shown_host("gm-laptop.local")
    ('127.0.0.1', '[::1]', 'gm-laptop.local')
    """
    if host in ("0.0.0.0", "::", ""):
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host


def _remembered(config: Config, words: Words) -> Remembered:
    """The origins paired before; none (and a line saying why) when the file cannot be read."""
    try:
        return Remembered.load(config.data_dir)
    except (ValueError, BadOrigin, OSError) as exc:
        _say_error(words.say("remembered_damaged", why=words.render(said_error(exc))))
        return Remembered(config.data_dir)


def started_lines(bridge: Bridge, port: int) -> list[str]:
    """What the GM reads at start-up, then what is amiss (a page not built, a damaged battle);
    every line within 80 columns, in the bridge's language."""
    config, words = bridge.config, bridge.words
    reach, battles = Reach.of(config.host, port), len(bridge.hub.rooms)
    lines = greeting(
        reach,
        bridge.tokens,
        config.data_dir,
        battles,
        draws_blocks(sys.stdout),
        words,
        bridge.allowed.all(),
    )
    if bridge.site.root is None:
        lines += fit(words.say("not_built", folder=config.web_dir), 2)
    for kept in kept_aside(config.data_dir, DB_FILE):
        lines += fit(words.say("kept_aside_start", name=kept.name), 2)
    for name, reason in bridge.hub.quarantined.items():
        said = words.say("quarantined", name=name, reason=reason, folder=config.data_dir)
        lines += fit(said, 2)
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """The console script `background-battle-bridge` (and its care commands, `tokens`)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    for stream in (sys.stdout, sys.stderr):  # a path its code page lacks is shown, never fatal
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    if argv and argv[0] in admin.COMMANDS:
        return admin.main(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("websockets").setLevel(logging.WARNING)
    config, args = parse_config(argv, dict(os.environ))
    words = Words(config.lang)
    for warning in tokens_in_argv(argv, words):
        _say_error(warning)
    if args.no_tokens and not is_loopback(config.host):
        _say_error(words.say("no_tokens_refused", host=config.host))
        return 2
    try:
        for note in private_folder(config.data_dir):
            _say_error(words.render(note))
        lock = FolderLock(config.data_dir).take()
        try:
            return _serve(config, args, lock)
        finally:
            lock.release()
    except Unwritable as exc:
        _say_error(cannot_write(exc, words))
        return EXIT_UNWRITABLE
    except FolderBusy as busy:
        _say_error(_busy_line(busy, config.data_dir, words))
        return 2
    except OSError as exc:
        found = refusal(exc)
        if found is not None:
            _say_error(cannot_write(found, words))
            return EXIT_UNWRITABLE
        why = words.oserror(exc)
        _say_error(words.say("folder_unusable", folder=config.data_dir, why=why))
        return 2


def cannot_write(exc: Unwritable, words: Words = ENGLISH) -> str:
    """One message: the file, the cause, and why the bridge will not serve without it."""
    return words.say("cannot_store", why=exc.args[0])


def _busy_line(busy: FolderBusy, folder: Path, words: Words) -> str:
    """The running bridge named by its address (what a GM wants), else by its pid."""
    if busy.address:
        return words.say("folder_busy", folder=folder, url=busy.address, pid=busy.pid)
    return words.say("folder_busy_no_url", folder=folder, pid=busy.pid)


def _say_error(line: str) -> None:
    """One message on stderr, fitted into 80 columns."""
    show(line, stream=sys.stderr)


def _say(line: str) -> None:
    """One message for the GM on stdout (a Foundry asking to join), fitted into 80 columns."""
    show(line)


def tokens_in_argv(argv: Sequence[str], words: Words = ENGLISH) -> list[str]:
    """A warning for each token given on the command line, where `ps` shows it to every user.

    >>> tokens_in_argv(["--gm-token=abcdefgh", "--port", "0"])[0][:54]
    'warning: --gm-token on the command line is shown by ps'
    """
    warnings = []
    for flag, variable in (("--gm-token", "BB_GM_TOKEN"), ("--player-token", "BB_PLAYER_TOKEN")):
        if any(arg == flag or arg.startswith(flag + "=") for arg in argv):
            warnings.append(words.say("token_in_argv", flag=flag, variable=variable))
    return warnings


def _serve(config: Config, args: Any, lock: FolderLock | None = None) -> int:
    """Tokens, storage, then serve until stopped; the data folder is locked by the caller.

    Raises:
        Unwritable: a data file or the folder cannot be written.
    """
    words = Words(config.lang)
    if args.no_tokens:
        tokens = Tokens(gm="", player="", open=True)
    else:
        try:
            tokens = load_or_make_tokens(config.data_dir, args.gm_token, args.player_token)
        except OSError as exc:
            found = refusal(exc)
            if found is not None:
                raise found from None
            _say_error(words.say("cannot_set_up_tokens", why=words.oserror(exc)))
            return 2
        except ValueError as exc:
            _say_error(words.say("cannot_set_up_tokens", why=words.render(said_error(exc))))
            return 2
    try:
        storage = SqliteStorage(config.data_dir / DB_FILE, sync=args.sync)
    except StorageDamaged as exc:
        _say_error(damaged_line(config, exc, words))
        return 2
    try:
        asyncio.run(run(config, tokens, storage, lock))
    except StorageDamaged as exc:
        _say_error(damaged_line(config, exc, words))
        return 2
    except OSError as exc:
        _say_error(_cannot_listen(config, exc, words))
        return 1
    return 0


def damaged_line(config: Config, exc: StorageDamaged, words: Words = ENGLISH) -> str:
    return words.say("cannot_load", why=said_error(exc), folder=config.data_dir)


def _cannot_listen(config: Config, exc: OSError, words: Words = ENGLISH) -> str:
    """One line; for a port in use, the flag that picks another."""
    if exc.errno in (errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", errno.EADDRINUSE)):
        other = config.port + 1 if config.port < 65535 else 0
        return words.say("port_in_use", port=config.port, host=config.host, other=other)
    return words.say("cannot_listen", host=config.host, port=config.port, why=words.oserror(exc))


if __name__ == "__main__":
    sys.exit(main())
