"""The WebSocket at /pair: a page asks to join by a code, and gets the tokens only for it.

Any origin may open /pair (the one place it may: /ws stays closed to origins not allowed), and
nothing it can send there gives it anything without the code the bridge showed the GM:

    page -> {"type": "pair", "client": "foundry"}
    page <- {"type": "pair_asked", "origin": "http://foundry.local:30000", "expires_in": 120,
             "tries": 3}                    (the terminal shows the origin and the code)
    page -> {"type": "pair_code", "code": "123 456"}
    page <- {"type": "pair_refused", "reason": "wrong_code", "tries_left": 2}
    page <- {"type": "paired", "origin": ..., "gm_token": ..., "player_token": ...}

The GM's pages connected at /ws (the GM's role) are told too: `pairing` (the origin and the code,
for the GM to read on the page) when an attempt starts, `pairing_over` (its `outcome`) when it
ends.

`pair_refused` with `too_many_tries`, `expired`, `busy` (five attempts in the last minute),
`no_origin` (only a browser page pairs: a script uses the tokens) or `bad_message` ends the
attempt and the connection. After `paired` the origin is allowed at /ws and remembered in the
data folder (origins.py).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from .guard import Tokens
from .messages import outgoing
from .origins import Allowed
from .pairing import CODE_SECONDS, TRIES, Attempt, Pairing, shown
from .words import Words

log = logging.getLogger("background_battle_bridge")

ASK_TIMEOUT = 10.0
MAX_PAIR_FRAME = 1024


async def pair_connection(
    ws: ServerConnection,
    pairing: Pairing,
    allowed: Allowed,
    tokens: Tokens,
    words: Words,
    say: Callable[[str], None],
    remembered: Callable[[], None],
    tell_gms: Callable[[dict[str, Any]], None] = lambda message: None,
) -> None:
    """One page's attempt, from its `pair` to `paired` or a refusal; the connection then ends.
    `tell_gms` sends a message to the GM's connections at /ws."""
    origin = ws.request.headers.get("Origin") if ws.request else None
    try:
        async with asyncio.timeout(ASK_TIMEOUT):
            first = _message(await ws.recv())
        if first is None or first.get("type") != "pair":
            await _refuse(ws, "bad_message")
            return
        if not origin:
            await _refuse(ws, "no_origin")
            return
        attempt = pairing.ask(origin)
        if attempt is None:
            say(words.say("pair_failed", origin=origin, why=words.say("why.busy")))
            await _refuse(ws, "busy")
            return
        say(words.say("pair_asked", origin=origin, code=shown(attempt.code), minutes=2))
        tell_gms(
            outgoing(
                "pairing", origin=origin, code=shown(attempt.code), expires_in=int(CODE_SECONDS)
            )
        )
        await ws.send(
            json.dumps(
                outgoing("pair_asked", origin=origin, expires_in=int(CODE_SECONDS), tries=TRIES)
            )
        )
        outcome = "gone"
        try:
            outcome = await _tries(ws, attempt, pairing, allowed, tokens, words, say, remembered)
        finally:
            tell_gms(outgoing("pairing_over", origin=origin, outcome=outcome))
    except (TimeoutError, ConnectionClosed):
        return


async def _tries(
    ws: ServerConnection,
    attempt: Attempt,
    pairing: Pairing,
    allowed: Allowed,
    tokens: Tokens,
    words: Words,
    say: Callable[[str], None],
    remembered: Callable[[], None],
) -> str:
    """The tries until the attempt ends; its outcome ("paired", "too_many_tries", "expired",
    "bad_message")."""
    origin = attempt.origin
    while True:
        try:
            async with asyncio.timeout(pairing.seconds_left(attempt) + 1.0):
                message = _message(await ws.recv())
            code = message.get("code") if message else None
            if message is None or message.get("type") != "pair_code" or not isinstance(code, str):
                await _refuse(ws, "bad_message")
                return "bad_message"
        except TimeoutError:
            code = ""  # answered below as expired
            attempt.expires = min(attempt.expires, pairing.clock())
        verdict = pairing.answer(attempt, code)
        if verdict == "paired":
            try:
                allowed.remember(origin)
            except OSError as exc:  # allowed until the bridge stops, not at the next start
                say(words.say("pair_not_kept", origin=origin, why=words.oserror(exc)))
            remembered()
            say(words.say("pair_done", origin=origin))
            log.info("paired %s", origin)
            reply = outgoing(
                "paired", origin=origin, gm_token=tokens.gm, player_token=tokens.player
            )
            await ws.send(json.dumps(reply))
            await ws.close(1000, "paired")
            return "paired"
        if verdict == "wrong":
            say(words.say("pair_wrong", origin=origin, left=attempt.tries_left))
            await ws.send(
                json.dumps(
                    outgoing("pair_refused", reason="wrong_code", tries_left=attempt.tries_left)
                )
            )
            continue
        reason = verdict if verdict in ("too_many_tries", "expired") else "expired"
        say(words.say("pair_failed", origin=origin, why=words.say(f"why.{reason}")))
        await _refuse(ws, reason)
        return reason


def _message(frame: str | bytes) -> dict[str, Any] | None:
    """A small JSON object, or None."""
    if isinstance(frame, bytes) or len(frame) > MAX_PAIR_FRAME:
        return None
    try:
        message = json.loads(frame)
    except ValueError:
        return None
    return message if isinstance(message, dict) else None


async def _refuse(ws: ServerConnection, reason: str) -> None:
    await ws.send(json.dumps(outgoing("pair_refused", reason=reason, tries_left=0)))
    await ws.close(1008, reason)
