"""The real command: kill -9 in a stream of commands loses no acknowledged change; SIGTERM;
what it prints at start-up."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from bridge_helpers import (
    ADDRESS,
    COMMAND,
    CTRL_BREAK,
    DWARVES,
    KILLED,
    ORCS,
    OWN_GROUP,
    TOKENS_ENV,
    WINDOWS,
    Peer,
    run_bridge,
    start_up_lines,
    stop_gently,
)
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed


@contextmanager
def bridge_process(data: Path, *extra: str) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """Start the bridge on a free port; yields the process and its port; never leaves it."""
    args = [*COMMAND, "--port", "0", "--data", str(data), "--rate", "100000", "--burst", "100000"]
    process = subprocess.Popen(
        [*args, *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        creationflags=OWN_GROUP,
        env=TOKENS_ENV,
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        found = ADDRESS.search(first)
        assert found, first + process.stderr.read() if process.stderr else first
        yield process, int(found.group(1))
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()


async def test_kill_9_during_a_stream_of_commands_loses_no_acknowledged_change(
    tmp_path: Path,
) -> None:
    sent = 400
    acked: dict[str, int] = {}
    with bridge_process(tmp_path) as (process, port):
        async with connect(f"ws://127.0.0.1:{port}/ws") as ws:
            gm = Peer(ws)
            await gm.hello()
            await gm.create("ambush")

            async def stream() -> None:
                for n in range(sent):
                    message = {"type": "command", "id": f"k{n}", "battle": "ambush"}
                    command = {"type": "rename", "name": f"name {n}"}
                    await gm.send({**message, "command": command})

            async def read_acks() -> None:
                while True:
                    reply = await gm.recv()
                    if reply["type"] == "ack":
                        acked[reply["id"]] = reply["version"]
                        if len(acked) == sent // 4:
                            process.kill()

            with pytest.raises(ConnectionClosed):
                await asyncio.gather(stream(), read_acks())
        assert process.wait(timeout=30) == KILLED
    assert sent // 4 <= len(acked) < sent

    with bridge_process(tmp_path) as (process, port):
        async with connect(f"ws://127.0.0.1:{port}/ws") as ws:
            gm = Peer(ws)
            await gm.hello()
            state = await gm.ask({"type": "subscribe", "battle": "ambush"})
            assert state["version"] >= max(acked.values())
            log = state["view"]["log"]
            for command_id, version in acked.items():
                n = int(command_id[1:])
                assert log[version - 1]["command"] == {"type": "rename", "name": f"name {n}"}
            for command_id, version in sorted(acked.items())[:50]:
                n = int(command_id[1:])
                same = {"type": "rename", "name": f"name {n}"}
                again = await gm.command("ambush", same, id=command_id)
                assert (again["version"], again.get("duplicate")) == (version, True)
                # the same id for something else is refused, and changes nothing
                other = await gm.command("ambush", {"type": "rename", "name": "x"}, id=command_id)
                assert (other["code"], other["field"]) == ("id_reused", "id")
            # and it carries on from where it stood
            ack = await gm.command("ambush", {"type": "rename", "name": "after the crash"})
            assert ack["version"] == state["version"] + 1


async def test_kill_9_after_an_acknowledged_undo_apply_keeps_the_report_taken_back(
    tmp_path: Path,
) -> None:
    ended = [ORCS, DWARVES, {"type": "start"}, {"type": "end_battle", "winner": "allies"}]
    with bridge_process(tmp_path) as (process, port):
        async with connect(f"ws://127.0.0.1:{port}/ws") as ws:
            gm = Peer(ws)
            await gm.hello(client="foundry")
            await gm.create("ambush")
            for command in ended:
                assert (await gm.command("ambush", command))["type"] == "ack"
            fields = {"battle": "ambush", "unit": "u1"}
            # the same connection asks and receives: the order comes before the ack
            order = await gm.ask({"type": "request_casualties", **fields}, "apply_casualties")
            assert (await gm.recv())["type"] == "ack"
            report = {k: order[k] for k in ("version", "killed", "wounded", "fit")}
            await gm.ask({"type": "applied", **fields, **report}, "ack")
            back = {"type": "unapplied", "id": "u", **fields, "version": order["version"]}
            assert (await gm.ask(back))["type"] == "ack"
            process.kill()
        assert process.wait(timeout=30) == KILLED

    with bridge_process(tmp_path) as (process, port):
        async with connect(f"ws://127.0.0.1:{port}/ws") as ws:
            gm = Peer(ws)
            await gm.hello(client="foundry")
            state = await gm.ask({"type": "subscribe", "battle": "ambush"})
            assert state["foundry"]["applied"] == {}
            again = await gm.ask({"type": "request_casualties", **fields}, "apply_casualties")
            assert again == order


async def test_sigterm_stops_it_cleanly(tmp_path: Path) -> None:
    with bridge_process(tmp_path) as (process, port):
        async with connect(f"ws://127.0.0.1:{port}/ws") as ws:
            gm = Peer(ws)
            await gm.hello()
            await gm.create("ambush")
            stop_gently(process)
            with pytest.raises(ConnectionClosed):
                await gm.recv()
            assert ws.close_code == 1001
        assert process.wait(timeout=30) == 0
        assert process.stdout is not None
        assert "stopped" in process.stdout.read()
    with bridge_process(tmp_path) as (process, port):
        async with connect(f"ws://127.0.0.1:{port}/ws") as ws:
            welcome = await Peer(ws).hello()
            assert [b["name"] for b in welcome["battles"]] == ["ambush"]
        # Ctrl-C (Windows: Ctrl-Break, the one console signal a process group can be sent)
        process.send_signal(CTRL_BREAK if WINDOWS else signal.SIGINT)
        assert process.wait(timeout=30) == 0


def test_no_tokens_is_refused_on_a_non_loopback_address(tmp_path: Path) -> None:
    done = run_bridge("--no-tokens", "--host", "0.0.0.0", "--data", str(tmp_path))
    assert done.returncode == 2
    assert "refusing to listen on 0.0.0.0 without tokens" in done.stderr
    done = run_bridge("--data", str(tmp_path), env={"BB_NO_TOKENS": "1", "BB_HOST": "0.0.0.0"})
    assert done.returncode == 2 and "without tokens" in done.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--port", "70000"], "port must be from 0 to 65535, not 70000"),
        (["--port", "eighty"], "port must be a whole number"),
        (["--rate", "0"], "must be above 0"),
        (["--gm-token", "short"], "the gm token must be at least 8 characters long"),
    ],
)
def test_bad_options_are_named(tmp_path: Path, args: list[str], message: str) -> None:
    done = run_bridge("--data", str(tmp_path), *args)
    assert done.returncode == 2
    assert message in " ".join(done.stderr.split())  # one message, fitted into 80 columns


def test_bad_environment_values_are_named(tmp_path: Path) -> None:
    done = run_bridge("--data", str(tmp_path), env={"BB_PORT": "-1"})
    assert done.returncode == 2 and "port must be from 0 to 65535, not -1" in done.stderr
    done = run_bridge("--data", str(tmp_path), env={"BB_SYNC": "off"})
    assert done.returncode == 2 and "BB_SYNC must be one of full, normal, not 'off'" in done.stderr


async def test_it_prints_the_address_the_foundry_settings_and_the_links(tmp_path: Path) -> None:
    lines = start_up_lines("--port", "0", env={**os.environ, "BB_DATA": str(tmp_path)})
    secrets = json.loads((tmp_path / "secrets").read_text())
    found = ADDRESS.search(lines[0])
    assert found
    port = found.group(1)
    # Two lines before the links: the address, then how Foundry joins (by a code).
    said = " ".join(line.strip() for line in lines[1:3])
    assert said == (
        'Foundry: Bridge connection (GM) -> "Connect to the bridge", then type the code '
        f"shown here (bridge address ws://127.0.0.1:{port}/ws)"
    )
    # Ready-to-open links: the token in the fragment, so it never reaches a server's log.
    gm_link = f"http://127.0.0.1:{port}/#token={secrets['gm_token']}"
    player_link = f"http://127.0.0.1:{port}/#token={secrets['player_token']}"
    assert lines[3].split() == ["open", "as", "GM:", gm_link]
    assert lines[4].split() == ["open", "as", "player:", player_link]
    # No QR code a phone could not open: one line saying how to let phones in.
    assert " ".join(line.strip() for line in lines[5:7]) == (
        "phones cannot open 127.0.0.1 (this computer only): to let them in, "
        "start with --host 0.0.0.0"
    )
    assert lines[7] == "  Foundry allowed at: http://127.0.0.1:30000, http://localhost:30000\n"
    said = " ".join(line.strip() for line in lines[8:])
    assert said.startswith(f"data: 0 battles and the tokens, kept for next time in {tmp_path}")
    assert all(len(line.rstrip("\n")) <= 80 for line in lines)
    assert (tmp_path / "battles.sqlite3").exists()


async def test_it_counts_the_battles_and_keeps_the_tokens_across_restarts(
    tmp_path: Path,
) -> None:
    with bridge_process(tmp_path) as (process, port):
        async with connect(f"ws://127.0.0.1:{port}/ws") as ws:
            gm = Peer(ws)
            await gm.hello()
            await gm.create("ambush")
        stop_gently(process)
        assert process.wait(timeout=30) == 0
    first = json.loads((tmp_path / "secrets").read_text())  # made at the first start
    lines = start_up_lines("--port", "0", "--data", str(tmp_path))
    assert "data: 1 battle and the tokens" in " ".join(lines[-3:])
    # Started again: the same tokens, so the links and Foundry's settings stay good.
    assert lines[3].split()[-1].endswith(f"#token={first['gm_token']}")
    assert lines[4].split()[-1].endswith(f"#token={first['player_token']}")
    done = run_bridge("tokens", "--data", str(tmp_path))
    assert done.returncode == 0
    assert done.stdout.splitlines()[:2] == [
        f"GM token:     {first['gm_token']}",
        f"player token: {first['player_token']}",
    ]
