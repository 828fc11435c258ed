"""What every benchmark of `make bench` shares: parts that cannot crash the report, waits that
grow with the machine's load, retries, and ratios printed for whatever was measured.

A part that fails prints ``not measured: <part> — <reason>`` and the benchmark goes on; the
report ends with the list of what was not measured and the script still exits 0.
``BENCH_TIMEOUT_MS`` sets the browser waits (a tiny one forces the timeout path in tests);
with ``BENCH_TIMEOUT_STEP=<step>`` only that step's waits (e.g. ``service-worker``).
"""

from __future__ import annotations

import math
import os
import statistics
import sys
import traceback
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")
BASE_TIMEOUT_MS = 180_000
MAX_STRETCH = 4  # a wait grows with the load per core, up to 4x its base


def timeout_ms(step: str = "", base: int = BASE_TIMEOUT_MS) -> int:
    """A wait for a browser step: ``BENCH_TIMEOUT_MS`` if set (for ``BENCH_TIMEOUT_STEP`` only,
    when that is set too), else ``base`` stretched by the load per core (a busy machine gets
    longer, never shorter)."""
    forced = os.environ.get("BENCH_TIMEOUT_MS")
    only = os.environ.get("BENCH_TIMEOUT_STEP")
    if forced and (not only or only == step):
        return max(1, int(forced))
    per_core = os.getloadavg()[0] / (os.cpu_count() or 1)
    return int(base * min(MAX_STRETCH, max(1.0, per_core)))


def retried(job: Callable[[], T], attempts: int = 2) -> T:
    """``job()``, tried again when it fails (a timeout on a busy machine); the last error stands."""
    for attempt in range(1, attempts + 1):
        try:
            return job()
        except Exception:
            if attempt == attempts:
                raise
    raise AssertionError("unreachable")


def reason(error: BaseException) -> str:
    """One line: the error's kind and the first line of its message."""
    first = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"{type(error).__name__}: {first}" if first else type(error).__name__


def goal(figure: float, most: float, shown: str, unit: str = "x") -> str:
    """``<figure> (goal <= <most>: met|MISSED)``: the verdict judged on the figure as printed
    (``shown``, a format such as ``".2f"``), printed right beside it, never beside another.

    >>> goal(1.503, 1.5, ".2f"), goal(0.83, 1.5, ".2f")
    ('1.50x (goal <= 1.5x: met)', '0.83x (goal <= 1.5x: met)')
    >>> goal(10.9, 1.5, ".1f")
    '10.9x (goal <= 1.5x: MISSED)'
    """
    printed = format(figure, shown)
    verdict = "met" if float(printed) <= most else "MISSED"
    return f"{printed}{unit} (goal <= {most:g}{unit}: {verdict})"


def median(values: list[float]) -> float:
    """The median, or NaN when nothing was measured."""
    return statistics.median(values) if values else math.nan


def ratio(ours: float, theirs: float) -> float:
    """ours / theirs, or NaN when either is missing (or the baseline is 0).

    >>> ratio(3, 2), math.isnan(ratio(math.nan, 2)), math.isnan(ratio(1, 0))
    (1.5, True, True)
    """
    if math.isnan(ours) or math.isnan(theirs) or theirs == 0:
        return math.nan
    return ours / theirs


def shown(value: float, digits: int = 0, unit: str = "") -> str:
    """A number for the report, or ``n/a`` when it was not measured."""
    return "n/a" if math.isnan(value) else f"{value:.{digits}f}{unit}"


class Report:
    """The parts of one benchmark; each runs even when the one before it failed."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.missing: list[tuple[str, str]] = []

    def part(self, label: str, job: Callable[[], T]) -> T | None:
        """Run one part; on failure print why, remember it, and give None."""
        try:
            return job()
        except Exception as error:  # a benchmark reports and goes on; it never crashes
            self.not_measured(label, reason(error))
            if os.environ.get("BENCH_TRACEBACK"):
                traceback.print_exc()
            return None

    def not_measured(self, label: str, why: str) -> None:
        """Record (and print at once) a figure that could not be measured."""
        self.missing.append((label, why))
        print(f"not measured: {label} — {why}", flush=True)

    def finish(self) -> int:
        """Print what was not measured; the exit status is 0 either way."""
        if self.missing:
            print(f"{self.name}: {len(self.missing)} figure(s) not measured:")
            for label, why in self.missing:
                print(f"  - {label}: {why}")
        else:
            print(f"{self.name}: every figure measured")
        sys.stdout.flush()
        return 0
