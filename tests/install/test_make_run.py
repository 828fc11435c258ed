"""`make run` from a clone: its build output in a log, at most five lines before the links."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_make_run_prints_at_most_five_lines_before_the_links(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MAKE", "MFLAGS", "BB_"))}
    args = f"BRIDGE_ARGS=--port 0 --data {tmp_path}"
    process = subprocess.Popen(
        ["make", "--no-print-directory", "run", args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # make and the bridge in a group of their own, stopped together
    )
    lines: list[str] = []
    try:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith("  open as player:") or len(lines) > 40:
                break
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=60)
    before = next(n for n, line in enumerate(lines) if line.startswith("  open as GM:"))
    assert before <= 5, lines
    assert lines[0] == "make run: setting up and building the page (log: build/run.log)"
    assert lines[1].startswith("Background Battle bridge: http://127.0.0.1:")
    assert (ROOT / "build" / "run.log").stat().st_size > 0  # the build's output went there
