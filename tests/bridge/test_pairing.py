"""Foundry joins by a code, over real WebSockets: /pair gives the tokens only for the code the
GM was shown, remembers the origin, and ends an attempt after three wrong codes or two minutes
(the clock is the test's: no test waits two minutes)."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest
from bridge_helpers import GM, PLAYER, make_config
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from background_battle_bridge.guard import Tokens
from background_battle_bridge.origins import ORIGINS_FILE, Remembered
from background_battle_bridge.pairing import Pairing
from background_battle_bridge.server import Bridge, serve_bridge
from background_battle_bridge.storage import MemoryStorage

FOUNDRY = "http://foundry.local:30000"
CODE = re.compile(r"Code: (\d{3} \d{3})")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Paired:
    """A bridge with the test's clock; `said` holds what its terminal showed."""

    def __init__(self, bridge: Bridge, port: int, clock: Clock, said: list[str]) -> None:
        self.bridge, self.port, self.clock, self.said = bridge, port, clock, said

    def code(self) -> str:
        found = CODE.search(self.said[-1])
        assert found, self.said
        return found.group(1)

    async def ask(self, stack: AsyncExitStack, origin: str = FOUNDRY) -> ClientConnection:
        ws = await stack.enter_async_context(
            connect(f"ws://127.0.0.1:{self.port}/pair", origin=origin)  # type: ignore[arg-type]
        )
        await ws.send(json.dumps({"type": "pair", "client": "foundry"}))
        return ws


@pytest.fixture
async def paired(tmp_path: Path) -> AsyncIterator[Paired]:
    clock, said = Clock(), []
    bridge = Bridge(
        make_config(tmp_path),
        Tokens(GM, PLAYER),
        MemoryStorage(),
        remembered=Remembered(tmp_path),
        pairing=Pairing(clock=clock),
        say=said.append,
    )
    bridge.hub.restore()
    bridge.hub.start()
    try:
        async with serve_bridge(bridge) as server:
            yield Paired(bridge, server.sockets[0].getsockname()[1], clock, said)
    finally:
        await bridge.hub.close()


async def reply(ws: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await ws.recv())
    return message


async def test_the_right_code_gives_the_tokens_and_the_origin_is_remembered(
    paired: Paired, tmp_path: Path
) -> None:
    async with AsyncExitStack() as stack:
        with pytest.raises(InvalidStatus):  # before: Foundry's origin is refused at /ws
            await stack.enter_async_context(
                connect(f"ws://127.0.0.1:{paired.port}/ws", origin=FOUNDRY)  # type: ignore[arg-type]
            )
        ws = await paired.ask(stack)
        asked = await reply(ws)
        assert asked == {"type": "pair_asked", "origin": FOUNDRY, "expires_in": 120, "tries": 3}
        assert "gm_token" not in json.dumps(asked)
        assert FOUNDRY in paired.said[-1]
        await ws.send(json.dumps({"type": "pair_code", "code": paired.code()}))
        assert await reply(ws) == {
            "type": "paired",
            "origin": FOUNDRY,
            "gm_token": GM,
            "player_token": PLAYER,
        }
        assert "connected as GM" in paired.said[-1]
        # now Foundry's page may open /ws, and the data folder remembers it for the next start
        gm = await stack.enter_async_context(
            connect(f"ws://127.0.0.1:{paired.port}/ws", origin=FOUNDRY)  # type: ignore[arg-type]
        )
        await gm.send(json.dumps({"type": "hello", "client": "foundry", "token": GM}))
        assert (await reply(gm))["role"] == "gm"
    assert Remembered.load(tmp_path).origins.keys() == {FOUNDRY}
    assert (tmp_path / ORIGINS_FILE).stat().st_mode & 0o077 == 0


async def test_three_wrong_codes_end_the_attempt_and_the_right_one_is_then_refused(
    paired: Paired, tmp_path: Path
) -> None:
    async with AsyncExitStack() as stack:
        ws = await paired.ask(stack)
        await reply(ws)
        right = paired.code()
        wrong = "000 000" if right != "000 000" else "111 111"
        answers = []
        for _ in range(3):
            await ws.send(json.dumps({"type": "pair_code", "code": wrong}))
            answers.append(await reply(ws))
        assert [a["tries_left"] for a in answers] == [2, 1, 0]
        assert answers[-1]["reason"] == "too_many_tries"
        with pytest.raises(ConnectionClosed):
            await ws.send(json.dumps({"type": "pair_code", "code": right}))
            await ws.recv()
    assert not (tmp_path / ORIGINS_FILE).exists()
    assert "refused: a wrong code three times" in paired.said[-1]


async def test_an_expired_code_is_refused(paired: Paired, tmp_path: Path) -> None:
    async with AsyncExitStack() as stack:
        ws = await paired.ask(stack)
        await reply(ws)
        paired.clock.now += 120.0
        await ws.send(json.dumps({"type": "pair_code", "code": paired.code()}))
        answer = await reply(ws)
        assert answer["reason"] == "expired" and "gm_token" not in answer
    assert not (tmp_path / ORIGINS_FILE).exists()


async def test_at_most_five_attempts_a_minute(paired: Paired) -> None:
    async with AsyncExitStack() as stack:
        for _ in range(5):
            assert (await reply(await paired.ask(stack)))["type"] == "pair_asked"
        sixth = await reply(await paired.ask(stack))
        assert sixth["reason"] == "busy"
        paired.clock.now += 60.0
        assert (await reply(await paired.ask(stack)))["type"] == "pair_asked"


async def test_anything_but_pair_and_a_code_ends_the_attempt(paired: Paired) -> None:
    async with AsyncExitStack() as stack:
        ws = await stack.enter_async_context(
            connect(f"ws://127.0.0.1:{paired.port}/pair", origin=FOUNDRY)  # type: ignore[arg-type]
        )
        await ws.send(json.dumps({"type": "hello", "client": "foundry", "token": GM}))
        assert (await reply(ws))["reason"] == "bad_message"
        # a script (no Origin) uses the tokens it has: it has nothing to pair
        bare = await stack.enter_async_context(connect(f"ws://127.0.0.1:{paired.port}/pair"))
        await bare.send(json.dumps({"type": "pair"}))
        assert (await reply(bare))["reason"] == "no_origin"
    assert paired.said == []


async def test_a_percent_encoded_pair_path_never_reaches_the_hello(paired: Paired) -> None:
    # /p%61ir is /pair once decoded: it pairs, it never lets an unknown origin say hello
    async with AsyncExitStack() as stack:
        ws = await stack.enter_async_context(
            connect(f"ws://127.0.0.1:{paired.port}/p%61ir", origin=FOUNDRY)  # type: ignore[arg-type]
        )
        await ws.send(json.dumps({"type": "hello", "client": "foundry", "token": GM}))
        assert (await reply(ws))["reason"] == "bad_message"


async def test_the_gms_page_is_shown_the_origin_and_the_code_and_players_are_not(
    paired: Paired,
) -> None:
    async with AsyncExitStack() as stack:
        pages = {}
        for role, token in (("gm", GM), ("player", PLAYER)):
            ws = await stack.enter_async_context(connect(f"ws://127.0.0.1:{paired.port}/ws"))
            await ws.send(json.dumps({"type": "hello", "client": "web", "token": token}))
            assert (await reply(ws))["role"] == role
            pages[role] = ws
        asking = await paired.ask(stack)
        await reply(asking)
        shown = await reply(pages["gm"])
        assert shown == {
            "type": "pairing",
            "origin": FOUNDRY,
            "code": paired.code(),
            "expires_in": 120,
        }
        await asking.send(json.dumps({"type": "pair_code", "code": paired.code()}))
        assert (await reply(asking))["type"] == "paired"
        over = await reply(pages["gm"])
        assert over == {"type": "pairing_over", "origin": FOUNDRY, "outcome": "paired"}
        await pages["player"].send(json.dumps({"type": "ping", "data": 1}))
        assert await reply(pages["player"]) == {"type": "pong", "data": 1}  # nothing before it
