"""`make bench-web` ends with status 0 and a full report when a browser step times out.

The timeout is forced (``BENCH_TIMEOUT_MS=1``): every browser wait of the real benchmark, against
the real built site in Chromium (and in Firefox ESR and WebKitGTK), fails at once; each part says
what it could not measure and why.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from engines import ENGINES

ROOT = Path(__file__).resolve().parents[2]


def test_a_timed_out_browser_step_leaves_a_full_report_and_status_0(site: Path) -> None:
    env = {
        **os.environ,
        "BENCH_TIMEOUT_MS": "1",
        "BENCH_RUNS": "1",
        "BENCH_EDITS": "1",
        "BENCH_RECALC_ROUNDS": "1",
        "BENCH_PHONE_RUNS": "1",
        "BENCH_ENGINE_RUNS": "1",
    }
    done = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "bench" / "bench_web.py")],
        capture_output=True,
        text=True,
        env=env,
        timeout=240,
        check=False,
    )
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    for line in (
        "first result, cold",
        "first result, warm",
        "inputs usable after navigation",
        "recalculation, the page / untrimmed: n/a",
    ):
        assert line in out, line
    parts = ("bare page, run 1", "page page, run 1", "first-visit bytes")
    parts += tuple(
        f"{engine}: {page} page, run 1" for engine in ENGINES for page in ("bare", "page")
    )
    parts += ("phone: the CPU check", "phone: bare, run 1", "phone: page, run 1")
    for part in (*parts, "recalculation (the page), round 1", "recalculation (untrimmed), round 1"):
        assert f"not measured: {part} — TimeoutError" in out, part
    assert "bench-web: 12 figure(s) not measured:" in out
