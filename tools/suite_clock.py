"""How long each suite of `make test` took: one line per suite, and the table at the end.

    python tools/suite_clock.py start                 # forget the last run's times
    python tools/suite_clock.py run NAME -- CMD ...   # run CMD, note how long it took under NAME
    python tools/suite_clock.py report                # the suites and their seconds, slowest first

The times live in ``.suite-times.tsv`` at the root (``make dist`` empties ``build/``). ``run``
passes CMD's exit status on, so a failing suite still stops make; its time is noted with
``failed`` beside it. Standard library only.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

TIMES = Path(__file__).resolve().parents[1] / ".suite-times.tsv"


def start() -> int:
    TIMES.write_text("", encoding="utf-8")
    return 0


def run(name: str, command: list[str]) -> int:
    began = time.monotonic()
    status = subprocess.call(command)
    seconds = time.monotonic() - began
    outcome = "ok" if status == 0 else "failed"
    with TIMES.open("a", encoding="utf-8") as times:
        times.write(f"{name}\t{seconds:.1f}\t{outcome}\n")
    print(f"suite {name}: {seconds:.1f} s ({outcome})", flush=True)
    return status


def report() -> int:
    rows = []
    if TIMES.is_file():
        for line in TIMES.read_text(encoding="utf-8").splitlines():
            name, seconds_text, outcome = line.split("\t")
            rows.append((float(seconds_text), name, outcome))
    if not rows:
        print("suite times: none noted (.suite-times.tsv is empty)")
        return 0
    width = max(len(name) for _, name, _ in rows)
    print("suite times, slowest first:")
    for seconds, name, outcome in sorted(rows, reverse=True):
        print(f"  {name:<{width}}  {seconds:7.1f} s  {outcome}")
    print(f"  {'in all':<{width}}  {sum(seconds for seconds, _, _ in rows):7.1f} s")
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["start"]:
        return start()
    if argv[:1] == ["report"]:
        return report()
    if len(argv) >= 4 and argv[0] == "run" and argv[2] == "--":
        return run(argv[1], argv[3:])
    print(__doc__.strip().splitlines()[2], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
