"""The real bridge as a subprocess on 127.0.0.1: a free port, its own data, fixed tokens."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO

ADDRESS = re.compile(r"Background Battle bridge: http://127\.0\.0\.1:(\d+)/")


def bridge_command() -> list[str]:
    """The installed console script, else the module."""
    script = Path(sys.executable).parent / "background-battle-bridge"
    if script.exists():
        return [str(script)]
    found = shutil.which("background-battle-bridge")
    return [found] if found else [sys.executable, "-m", "background_battle_bridge.server"]


class BridgeProcess:
    """`start()` waits for the address line; `stop()` then `start()` keeps port and data."""

    def __init__(self, data: Path, gm_token: str, player_token: str, *extra: str) -> None:
        self.data = data
        self.gm_token = gm_token
        self.player_token = player_token
        self.extra = extra
        self.port = 0
        self.output: list[str] = []
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> None:
        command = [
            *bridge_command(),
            *("--host", "127.0.0.1", "--port", str(self.port), "--data", str(self.data)),
            *("--gm-token", self.gm_token, "--player-token", self.player_token),
            *self.extra,
        ]
        # no BB_* setting of the machine's, but the language the tests read (tests/conftest.py)
        env = {k: v for k, v in os.environ.items() if not k.startswith("BB_") or k == "BB_LANG"}
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
        )
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line)
            found = ADDRESS.search(line)
            if found:
                self.port = int(found.group(1))
                break
        else:
            raise RuntimeError("the bridge did not start:\n" + "".join(self.output))
        # Keep reading its output so that the pipe never fills up.
        threading.Thread(target=self._drain, args=(self.process.stdout,), daemon=True).start()

    def _drain(self, stream: IO[str]) -> None:
        for line in stream:
            self.output.append(line)

    def stop(self) -> None:
        # Shown by pytest only when the test failed: what the bridge logged meanwhile.
        print("the bridge's output:\n" + "".join(self.output), end="")
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
