"""Fail unless two wheels hold the same files (the Pages workflow compares Pyodide's build of the
core with the local ``python -m build`` one that the site ships).

Usage: ``python web/same_wheel_files.py A.whl B.whl``
"""

from __future__ import annotations

import sys
import zipfile


def names(path: str) -> set[str]:
    """The file names inside a wheel."""
    with zipfile.ZipFile(path) as wheel:
        return {name for name in wheel.namelist() if not name.endswith("/")}


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    first, second = names(argv[0]), names(argv[1])
    for name in sorted(first - second):
        print(f"only in {argv[0]}: {name}")
    for name in sorted(second - first):
        print(f"only in {argv[1]}: {name}")
    if first != second:
        return 1
    print(f"same {len(first)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
