"""What the GM reads when the bridge starts, and the start-up's edges on every system:
a QR code only for an address a phone can reach, a port in use, the tokens kept and replaced,
the data folder's place, the stop signals where `add_signal_handler` is missing (Windows)."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
from pathlib import Path

import pytest
from bridge_helpers import GM, PLAYER, run_bridge, serving
from qr_reader import read_qr

from background_battle_bridge import greeting as g
from background_battle_bridge import places
from background_battle_bridge.guard import Tokens
from background_battle_bridge.join_code import qr_lines
from background_battle_bridge.stopping import STOP_SIGNALS, on_stop_signals

TOKENS = Tokens(GM, PLAYER)


def test_with_every_interface_the_qr_code_is_the_local_network_player_link() -> None:
    reach = g.Reach("127.0.0.1", "192.168.1.5", 8765, everywhere=True)
    lines = g.greeting(reach, TOKENS, Path("data"), 1)
    assert lines[:2] == [
        "Background Battle bridge: http://127.0.0.1:8765/",
        "  on the local network: http://192.168.1.5:8765/",
    ]
    # Foundry runs in the GM's browser on this computer: the loopback address.
    assert lines[2].startswith('  Foundry: Bridge connection (GM) -> "Connect to the bridge"')
    assert lines[3].endswith("(bridge address ws://127.0.0.1:8765/ws)")
    # The GM's page at the same address shows a QR code that phones can open.
    assert lines[4].split() == ["open", "as", "GM:", f"http://192.168.1.5:8765/#token={GM}"]
    player_link = f"http://192.168.1.5:8765/#token={PLAYER}"
    assert lines[5].split() == ["open", "as", "player:", player_link]
    assert lines[6] == "  players, scan to open http://192.168.1.5:8765/ as a player:"
    expected = qr_lines(player_link)
    printed = lines[7 : 7 + len(expected)]
    assert printed == [f"  {line}" for line in expected]
    # A phone reads the link back from the code in the terminal (light modules drawn).
    dark = [[not light for light in row] for row in read_half_blocks(printed)]
    assert read_qr(dark) == [player_link]
    assert lines[7 + len(expected) :] == [
        "  data: 1 battle and the tokens, kept for next time in data",
        "  tokens to paste by hand: background-battle-bridge tokens (new: tokens --new)",
    ]


def test_a_terminal_that_cannot_draw_the_code_is_told_where_it_is() -> None:
    reach = g.Reach("127.0.0.1", "192.168.1.5", 8765, everywhere=True)
    lines = g.greeting(reach, TOKENS, Path("data"), 0, draws=False)
    assert lines[5].split()[-1] == f"http://192.168.1.5:8765/#token={PLAYER}"
    assert lines[6] == "  (this terminal cannot draw the players' QR code: the GM's page shows it)"
    assert len(lines) == 9
    assert all(line.isascii() for line in lines)


def test_a_loopback_address_gets_no_qr_code_but_one_line_on_letting_phones_in() -> None:
    for host in ("127.0.0.1", "localhost", "::1"):
        reach = g.Reach.of(host, 8765)
        assert reach.phones is None
        lines = g.greeting(reach, TOKENS, Path("data"), 0)
        assert not any("scan" in line for line in lines)
        shown = "[::1]" if host == "::1" else host
        assert lines[0] == f"Background Battle bridge: http://{shown}:8765/"
        said = " ".join(line.strip() for line in lines[5:7])
        assert said == (
            f"phones cannot open {host} (this computer only): to let them in, "
            "start with --host 0.0.0.0"
        )


def test_a_given_local_network_address_is_the_phones_and_no_tokens_has_one_link() -> None:
    reach = g.Reach.of("192.168.1.5", 8765)
    assert (reach.here, reach.phones) == ("192.168.1.5", "192.168.1.5")
    lines = g.greeting(reach, TOKENS, Path("data"), 0)
    assert lines[6] == "  players, scan to open http://192.168.1.5:8765/ as a player:"
    assert lines[3].endswith("(bridge address ws://192.168.1.5:8765/ws)")
    lines = g.greeting(g.Reach.of("127.0.0.1", 8765), Tokens("", "", open=True), Path("d"), 0)
    assert lines[3:5] == [
        "  no tokens: everyone who can connect is GM (this computer only)",
        "  open: http://127.0.0.1:8765/",
    ]
    assert not any("token=" in line for line in lines)


def test_every_interface_without_a_network_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(g, "lan_address", lambda: None)
    lines = g.greeting(g.Reach.of("0.0.0.0", 8765), TOKENS, Path("data"), 0)
    assert not any("scan" in line for line in lines)
    assert "no local-network address found for phones" in lines[5]


def test_the_local_network_address_is_found_without_sending_anything() -> None:
    found = g.lan_address()
    # Whatever this machine has, never a loopback or unspecified address.
    assert found is None or g._reachable(found)
    # The probe is UDP: `connect` only picks a route; a private address no one need answer.
    assert g.ROUTE_PROBE[0].startswith("10.")


def test_a_port_in_use_ends_with_one_line_naming_the_port_flag(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_bridge("--port", str(port), "--data", str(tmp_path))
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"port {port} on 127.0.0.1 is in use (a bridge running already?): try --port {port + 1}"
    ]
    assert "Traceback" not in done.stdout + done.stderr


def test_tokens_new_replaces_them_only_while_no_bridge_runs(tmp_path: Path) -> None:
    made = run_bridge("tokens", "--data", str(tmp_path))
    assert made.returncode == 0
    first = json.loads((tmp_path / "secrets").read_text())
    assert made.stdout.splitlines()[0] == f"GM token:     {first['gm_token']}"
    assert run_bridge("tokens", "--data", str(tmp_path)).stdout == made.stdout
    with serving(tmp_path):  # once it has printed its address, it holds the folder
        busy = run_bridge("tokens", "--new", "--data", str(tmp_path))
    assert busy.returncode == 2
    said = " ".join(busy.stderr.split())  # one message, fitted into 80 columns
    assert "another bridge" in said and "no bridge uses the folder" in said
    assert json.loads((tmp_path / "secrets").read_text()) == first
    new = run_bridge("tokens", "--new", "--data", str(tmp_path))
    assert new.returncode == 0
    second = json.loads((tmp_path / "secrets").read_text())
    assert second["gm_token"] != first["gm_token"]
    assert second["player_token"] != first["player_token"]
    assert new.stdout.splitlines()[:2] == [
        f"GM token:     {second['gm_token']}",
        f"player token: {second['player_token']}",
    ]
    assert "the old links no longer open the bridge" in " ".join(new.stdout.split())


def test_the_data_folder_is_the_systems_own(monkeypatch: pytest.MonkeyPatch) -> None:
    import platformdirs

    wanted = platformdirs.user_data_path("background-battle", appauthor=False, roaming=True)
    assert places.default_data_folder() == wanted
    assert places.data_folder(Path("given"), print) == Path("given")
    assert places.env_data({"BB_DATA": ""}) is None
    assert places.env_data({"BB_DATA": "x"}) == Path("x")


def test_an_earlier_data_folder_is_moved_once_or_else_used(tmp_path: Path) -> None:
    said: list[str] = []
    earlier, folder = tmp_path / "Local" / "bb" / "bb", tmp_path / "Roaming" / "bb"
    earlier.mkdir(parents=True)
    (earlier / "secrets").write_text("{}")
    assert places.settled(folder, earlier, said.append) == folder
    assert (folder / "secrets").read_text() == "{}" and not earlier.exists()
    assert said == [f"moved the data folder from {earlier} to {folder}"]
    # Both there: the new one is used, the earlier one left alone.
    earlier.mkdir(parents=True)
    assert places.settled(folder, earlier, said.append) == folder and earlier.exists()
    # It cannot be moved (a file stands where the new folder's parent would be): used where it is.
    blocked = tmp_path / "file"
    blocked.write_text("")
    assert places.settled(blocked / "bb", earlier, said.append) == earlier
    assert said[-1].startswith(f"using the data folder {earlier} (it could not be moved")


async def test_without_add_signal_handler_the_stop_signals_still_stop_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    loop = asyncio.get_running_loop()

    def windows_has_none(*args: object) -> None:
        raise NotImplementedError  # what asyncio's Windows event loops do

    monkeypatch.setattr(loop, "add_signal_handler", windows_has_none)
    before = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}
    stop = asyncio.Event()
    restore = on_stop_signals(loop, stop.set)
    try:
        signal.raise_signal(signal.SIGTERM)
        await asyncio.wait_for(stop.wait(), 10)
    finally:
        restore()
    assert {sig: signal.getsignal(sig) for sig in STOP_SIGNALS} == before


def read_half_blocks(lines: list[str], border: int = 2) -> list[list[bool]]:
    """The modules drawn in the terminal (True where light), without the quiet zone."""
    top = {"█": (True, True), "▀": (True, False), "▄": (False, True), " ": (False, False)}
    rows: list[list[bool]] = []
    for line in lines:
        cells = [top[ch] for ch in line.strip()]
        rows.append([upper for upper, _ in cells])
        rows.append([lower for _, lower in cells])
    size = len(rows[0]) - 2 * border  # a square symbol
    return [row[border:-border] for row in rows[border : border + size]]
