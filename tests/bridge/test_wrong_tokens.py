"""Wrong tokens slowed down per address, one try per connection (`wrong_tokens.py`)."""

from __future__ import annotations

import asyncio

import pytest
from bridge_helpers import GM, Running
from websockets.exceptions import ConnectionClosed

from background_battle_bridge import wrong_tokens
from background_battle_bridge.wrong_tokens import WrongTokens


async def hello(running: Running, token: str) -> dict[str, object]:
    peer = await running.peer()
    return await peer.hello(token)


async def test_after_a_few_wrong_tokens_the_address_waits_and_its_tokens_are_not_checked(
    running: Running,
) -> None:
    for _ in range(wrong_tokens.FREE):
        assert (await hello(running, "guess-guess"))["code"] == "bad_token"

    refused = await hello(running, "guess-guess")
    assert (refused["code"], refused["field"]) == ("too_many_tries", "token")
    assert 0 < refused["params"]["retry_after"] <= wrong_tokens.EVERY  # type: ignore[index]
    # the right token is not checked either: a refusal tells a guesser nothing
    assert (await hello(running, GM))["code"] == "too_many_tries"

    await asyncio.sleep(refused["params"]["retry_after"])  # type: ignore[arg-type,index]
    assert (await hello(running, GM))["type"] == "welcome"  # a right token spends no try
    assert (await hello(running, "guess-again"))["code"] == "bad_token"  # one try came back
    assert (await hello(running, GM))["code"] == "too_many_tries"


async def test_a_connection_has_one_try(running: Running) -> None:
    peer = await running.peer()
    assert (await peer.hello("guess-guess"))["code"] == "bad_token"
    with pytest.raises(ConnectionClosed):
        await peer.hello(GM)
    assert peer.ws.close_code == 1008


async def test_the_slowing_is_per_address(running: Running) -> None:
    tries = running.bridge.wrong_tokens
    now = asyncio.get_running_loop().time()
    for _ in range(wrong_tokens.FREE):
        tries.wrong("192.0.2.1", now)  # another machine used up its tries
    assert tries.wait("192.0.2.1", now) > 0
    assert (await hello(running, GM))["type"] == "welcome"  # 127.0.0.1 was not slowed


def test_the_bookkeeping_is_bounded_forgetting_the_oldest_address() -> None:
    tries = WrongTokens(free=1, every=60.0, addresses=100)
    for n in range(10_000):
        tries.wrong(f"10.0.{n // 256}.{n % 256}", 0.0)
    assert len(tries) == 100
    assert tries.wait("10.0.0.0", 1.0) == 0.0  # forgotten
    assert tries.wait("10.0.39.15", 1.0) == pytest.approx(59.0)  # the last one, remembered
