"""Issue 20, 1: for any sequence of commands the bridge accepts, no frame it sends exceeds the
limit it announced in `welcome`.

Hypothesis draws the sequences: units with names of 1 to 200 characters that take 1 to 4 bytes
each (and quotes and backslashes, which JSON escapes), modifiers, names, Influence tables,
tokens, undo, the fight, more battles, archives. The bridge runs with its limit and bounds
scaled down together (`max_message` 48 KiB and the bounds of `budget.py` in the same relation
as the real ones), so that a few commands reach every bound; the real limits are those of
`test_frame_limits.py`. Every frame is received by a real `websockets` client whose `max_size` is
the announced limit: a larger frame would close it and fail the example.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from bridge_helpers import GM, PLAYER, make_config
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from test_frame_limits import Meter
from websockets.asyncio.client import connect

from background_battle_bridge import budget
from background_battle_bridge import protocol as p
from background_battle_bridge.guard import Tokens
from background_battle_bridge.server import Bridge, serve_bridge
from background_battle_bridge.storage import MemoryStorage

LIMIT = 48 * 1024
SCALED = {"VIEW_MAX": 16 * 1024, "ENTRY_MAX": 12 * 1024, "FOUNDRY_MAX": 8 * 1024}

chars = st.sampled_from('aШ🐉"\\')
names = st.one_of(  # any name, and long ones (up to the 200 characters a name may have)
    st.text(alphabet=chars, min_size=1, max_size=200),
    st.builds(lambda char, count: "n" + char * count, chars, st.integers(100, 199)),
)
sides = st.sampled_from(["allies", "enemies"])
units = st.integers(1, 6).map(lambda n: f"u{n}")


def modifiers(draw: Any) -> list[dict[str, Any]]:
    return [
        {"name": draw(names), "percent": draw(st.integers(-100, 1000))}
        for _ in range(draw(st.integers(0, 50)))
    ]


@st.composite
def table(draw: st.DrawFn) -> dict[str, Any]:
    count = draw(st.integers(2, 50))
    effect = draw(chars) * draw(st.integers(1, 1000))
    bands = [{"min": i * 10, "max": i * 10 + 9, "effect": {"en": effect}} for i in range(count)]
    bands[0]["min"], bands[-1]["max"] = None, None
    return {"name": "GM's", "bands": bands}


@st.composite
def step(draw: st.DrawFn) -> dict[str, Any]:
    """One message the GM or the Foundry module sends (accepted or refused: both are fine)."""
    kind = draw(
        st.sampled_from(
            ["add_unit"] * 12
            + ["update_unit", "remove_unit", "set_modifiers", "rename", "set_influence_table"]
            + ["set_hidden", "start", "resolve_round", "pcs_won", "end_battle", "undo", "undo"]
            + ["tokens", "tokens", "applied", "another", "archive", "horde", "horde"]
        )
    )
    if kind == "add_unit":
        fighters = draw(st.integers(1, 100_000))
        body = {"type": kind, "name": draw(names), "side": draw(sides), "fighters": fighters}
        return {**body, "strength": draw(st.integers(0, 1_000_000))}
    if kind == "horde":  # many units at once, to reach the bound of the view
        name = draw(names)
        return {"horde": draw(st.integers(5, 30)), "name": name, "side": draw(sides)}
    if kind == "update_unit":
        return {"type": kind, "unit": draw(units), "name": draw(names)}
    if kind == "remove_unit":
        return {"type": kind, "unit": draw(units)}
    if kind == "set_modifiers":
        return {"type": kind, "side": draw(sides), "modifiers": modifiers(draw)}
    if kind == "rename":
        return {"type": kind, "name": draw(names)}
    if kind == "set_influence_table":
        return {"type": kind, "table": draw(table())}
    if kind == "set_hidden":
        return {"type": kind, "hidden": draw(st.sampled_from([[], ["enemies.fighters"]]))}
    if kind == "pcs_won":
        return {"type": kind, "fleeing": "1/2"}
    if kind == "tokens":
        length = draw(st.integers(1, 128))
        ids = [f"{n:0{length}d}"[-length:] for n in range(draw(st.integers(0, 1000)))]
        return {"message": "tokens", "unit": draw(units), "token_ids": ids[: 60_000 // length]}
    if kind == "applied":
        return {"message": "applied", "unit": draw(units), "note": draw(names)}
    if kind in ("another", "archive"):
        return {"message": kind, "name": draw(st.text("ab", min_size=1, max_size=64))}
    return {"type": kind}


def message(index: int, step: dict[str, Any]) -> dict[str, Any]:
    """The frame a step sends."""
    base: dict[str, Any] = {"id": f"m{index}", "battle": "ambush"}
    kind = step.get("message")
    if kind == "tokens":
        return {**base, "type": "tokens", "unit": step["unit"], "token_ids": step["token_ids"]}
    if kind == "applied":
        report = {"unit": step["unit"], "version": 0, "killed": 1, "wounded": 0, "fit": 0}
        return {**base, "type": "applied", **report, "note": step["note"][:500]}
    if kind == "another":
        return {
            **base,
            "type": "command",
            "battle": step["name"],
            "command": {"type": "create_battle"},
        }
    if kind == "archive":
        return {
            **base,
            "type": "command",
            "battle": step["name"],
            "command": {"type": "archive_battle"},
        }
    return {**base, "type": "command", "command": step}


async def play(steps: list[dict[str, Any]]) -> list[Meter]:
    with tempfile.TemporaryDirectory() as folder:
        config = make_config(Path(folder), rate=1_000_000.0, burst=1_000_000.0)
        bridge = Bridge(config, Tokens(gm=GM, player=PLAYER), MemoryStorage())
        bridge.hub.restore()
        try:
            async with serve_bridge(bridge) as server:
                url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}/ws"
                return await watch(url, steps)
        finally:
            await bridge.hub.close()


async def watch(url: str, steps: list[dict[str, Any]]) -> list[Meter]:
    async with (
        connect(url, max_size=LIMIT) as gm_ws,
        connect(url, max_size=LIMIT) as player_ws,
        connect(url, max_size=LIMIT) as foundry_ws,
    ):
        gm, player, foundry = Meter(gm_ws), Meter(player_ws), Meter(foundry_ws)
        for peer, token, kind in (
            (gm, GM, "cli"),
            (player, PLAYER, "web"),
            (foundry, GM, "foundry"),
        ):
            welcome = await peer.hello(token, kind)
            assert welcome["limits"]["max_message"] == LIMIT
        await gm.request(
            {"type": "command", "id": "c", "battle": "ambush", "command": {"type": "create_battle"}}
        )
        await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
        for index, each in enumerate(steps):
            for number in range(each.get("horde", 0)):
                unit = {"type": "add_unit", "name": each["name"], "side": each["side"]}
                body = {**unit, "fighters": 100_000 - number, "strength": 1_000_000}
                reply = await gm.request(
                    message(index * 100 + number, body) | {"id": f"h{index}-{number}"}
                )
                if reply["type"] == "error":
                    event(f"refused: {reply['code']} {reply['field']}")
            if "horde" in each:
                continue
            sent = message(index, each)
            if len(json.dumps(sent)) > p.MAX_FRAME:  # as Peer.send encodes it: no more is sent
                continue
            sender = foundry if sent["type"] in ("tokens", "applied") else gm
            reply = await sender.request(sent)
            if reply["type"] == "error":
                event(f"refused: {reply['code']} {reply['field']}")
            if index % 5 == 4:  # a player may watch once the battle is started
                await player.send({"type": "subscribe", "battle": "ambush"})
        for peer in (gm, player):
            await peer.send({"type": "subscribe", "battle": "ambush", "since_version": 0})
            await peer.send({"type": "log_page", "battle": "ambush", "since_version": 0})
            await peer.send({"type": "list_battles", "archived": True})
        for peer in (gm, player, foundry):
            await peer.drain()
        return [gm, player, foundry]


@pytest.fixture
def scaled(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bridge's limit and bounds, scaled down together."""
    monkeypatch.setattr(p, "MAX_MESSAGE", LIMIT)
    for name, value in SCALED.items():
        monkeypatch.setattr(budget, name, value)
    assert sum(SCALED.values()) + 2 * budget.SLACK <= LIMIT


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(step(), min_size=1, max_size=40))
def test_no_frame_exceeds_the_announced_limit(scaled: None, steps: list[dict[str, Any]]) -> None:
    meters = asyncio.run(play(steps))
    assert all(meter.largest <= LIMIT for meter in meters)
    assert meters[0].frames > len(steps)
