"""tools/suite_clock.py: each suite's time noted, a failing suite's status passed on, one table."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import suite_clock


@pytest.fixture
def times(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "times.tsv"
    monkeypatch.setattr(suite_clock, "TIMES", path)
    return path


def test_a_suites_status_is_passed_on_and_its_time_noted(
    times: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite_clock.start()
    assert suite_clock.main(["run", "good", "--", sys.executable, "-c", "pass"]) == 0
    assert suite_clock.main(["run", "bad", "--", sys.executable, "-c", "raise SystemExit(3)"]) == 3
    rows = [line.split("\t") for line in times.read_text(encoding="utf-8").splitlines()]
    assert [(name, outcome) for name, _, outcome in rows] == [("good", "ok"), ("bad", "failed")]
    assert "suite bad:" in capsys.readouterr().out


def test_the_report_lists_every_suite_and_the_sum(
    times: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    times.write_text("core\t9.5\tok\nweb\t120.0\tok\n", encoding="utf-8")
    suite_clock.report()
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[0] == "web"  # the slowest first
    assert lines[-1].split()[-2] == "129.5"


def test_a_wrong_call_says_how_to_call_it() -> None:
    assert suite_clock.main(["run", "x"]) == 2
