"""The benchmarks' harness: a part that fails is reported with its reason and the next one runs;
waits grow with the load; ratios are printed for whatever was measured."""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "bench"))
from harness import Report, ratio, retried, shown, timeout_ms


def test_a_failing_part_is_reported_and_the_next_one_runs(capsys: Any) -> None:
    report = Report("bench-x")
    ran = []

    def broken() -> None:
        raise TimeoutError("Page.wait_for_function: Timeout 180000ms exceeded.\nCall log: ...")

    assert report.part("service worker", broken) is None
    assert report.part("bytes", lambda: ran.append("bytes") or 42) == 42
    assert report.finish() == 0
    out = capsys.readouterr().out
    assert ran == ["bytes"]
    assert "not measured: service worker — TimeoutError: Page.wait_for_function: Timeout" in out
    assert "Call log" not in out
    assert "bench-x: 1 figure(s) not measured:" in out


def test_a_report_with_everything_measured_says_so(capsys: Any) -> None:
    report = Report("bench-y")
    report.part("one", lambda: None)
    assert report.finish() == 0
    assert "bench-y: every figure measured" in capsys.readouterr().out


def test_ratios_are_given_for_what_was_measured() -> None:
    assert ratio(33, 30) == pytest.approx(1.1)
    assert math.isnan(ratio(math.nan, 30)) and math.isnan(ratio(30, 0))
    assert (shown(math.nan), shown(1.234, 2, "x")) == ("n/a", "1.23x")


def test_waits_grow_with_the_load_and_can_be_forced(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BENCH_TIMEOUT_MS", raising=False)
    monkeypatch.delenv("BENCH_TIMEOUT_STEP", raising=False)
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    monkeypatch.setattr("os.getloadavg", lambda: (1.0, 1.0, 1.0))
    assert timeout_ms(base=1000) == 1000
    monkeypatch.setattr("os.getloadavg", lambda: (6.0, 1.0, 1.0))
    assert timeout_ms(base=1000) == 3000
    monkeypatch.setattr("os.getloadavg", lambda: (60.0, 1.0, 1.0))
    assert timeout_ms(base=1000) == 4000
    monkeypatch.setenv("BENCH_TIMEOUT_MS", "1")
    assert timeout_ms("service-worker") == 1
    monkeypatch.setenv("BENCH_TIMEOUT_STEP", "service-worker")
    assert (timeout_ms("service-worker"), timeout_ms("page", base=1000)) == (1, 4000)


def test_a_step_is_retried_once() -> None:
    tries = []

    def flaky() -> str:
        tries.append(1)
        if len(tries) == 1:
            raise TimeoutError("busy")
        return "done"

    assert retried(flaky) == "done" and len(tries) == 2
    with pytest.raises(TimeoutError):
        retried(lambda: (_ for _ in ()).throw(TimeoutError("always")))
