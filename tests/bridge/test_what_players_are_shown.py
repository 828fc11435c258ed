"""Every frame a player gets shows each number one way: what one frame shows, no other (nor the
same frame elsewhere) shows as "?" (null), and none is "?" where the numbers shown give it.

Seeded battles with hidden numbers of every kind (tests/support/shown_numbers.py) are played
through a real bridge by a GM while a player watches: the player's `state`, every `event` (its
entry and its view), the `events` of a player catching up and a `log_page` of the whole log are
named number by number and checked together. That no frame holds a hidden number is
test_hidden_dice.py's and the core's tests' business; this is the other half of it.
"""

from __future__ import annotations

from typing import Any

from bridge_helpers import Running
from shown_numbers import Fact, contradictions, entry_facts, facts, played, seeded, set_up

from background_battle import state_view

BATTLES = 8


async def test_what_a_player_is_shown_is_one_answer_in_every_frame(running: Running) -> None:
    started = [seed for seed in range(3 * BATTLES) if played(*seeded(seed), seed)[0].round]
    for seed in started[:BATTLES]:  # battles that got to a round
        units, hidden, steps = seeded(seed)
        battle, timeline = played(units, hidden, steps, seed)
        name = f"fog-{seed}"
        gm = await running.gm()
        await gm.create(name)
        commands = set_up(units, hidden)
        for command in commands:  # the set-up: players are told of a started battle only
            reply = await gm.command(name, command)
            assert reply["type"] == "ack", (command, reply)
        watcher = await running.player(battle=name)
        frames = [await watcher.until("state")]
        for command in steps:
            if (await gm.command(name, command))["type"] == "ack":
                frames.append(await watcher.until("event"))
        late = await running.player(battle=name, since_version=len(commands) - 1)
        frames.append(await late.until("events"))
        frames.append(
            await late.ask(
                {"type": "log_page", "id": "all", "battle": name, "since_version": 0}, "log_page"
            )
        )
        state = await late.ask({"type": "subscribe", "battle": name}, "state")
        expected = {**state_view(battle, "player"), "name": name}
        assert state["view"] == expected, "the core's view, as it is"
        named: list[Fact] = facts(state["view"], timeline)
        for frame in frames:
            named += frame_facts(frame, timeline)
        assert contradictions(named, timeline) == [], (seed, hidden)
        assert len(named) > 100
        for peer in (gm, watcher, late):
            await peer.ws.close()


def frame_facts(frame: dict[str, Any], timeline: Any) -> list[Fact]:
    """The numbers of one frame: its view (at its version) and its entries."""
    version = frame["version"]
    found = facts(frame["view"], timeline, at=version - 1) if "view" in frame else []
    if frame["type"] == "event":
        entry = {"command": frame["command"], "events": frame["events"]}
        found += entry_facts(entry, version - 1, timeline)
    for i, entry in enumerate(frame.get("entries") or []):
        found += entry_facts(entry, frame_start(frame) + i, timeline)
    return found


def frame_start(frame: dict[str, Any]) -> int:
    """The log index of a frame's first entry (`events` and `log_page` from `since_version`)."""
    return int(frame.get("since_version", frame.get("from_version", 0)))
