"""The application wheel `background-battle` carries the built page (`make dist`).

`pyproject.toml` holds the metadata; this file gives the wheel its README with absolute links
and its Project-URLs (both from the repository's address in `pyproject.toml`,
`tools/package_metadata.py`), and adds one step to `build_py`: the built page, `web/dist/`
(`make site`: index.html, the Pyodide runtime, the core's wheel), is copied into the wheel as
the package data `background_battle_bridge/page/`, which the installed bridge serves
(`static.packaged_page`). An editable install (`make setup`) copies nothing: the bridge of a
source tree serves `web/dist/` itself.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
PAGE = ROOT / "web" / "dist"
PAGE_IN_PACKAGE = Path("background_battle_bridge") / "page"

sys.path.insert(0, str(ROOT / "tools"))
import package_metadata as metadata  # noqa: E402  (tools/ is not a package)

REPOSITORY = metadata.repository(ROOT / "pyproject.toml")
VERSION = metadata.version(ROOT / "pyproject.toml")
README = (ROOT / "README.md").read_text(encoding="utf-8")


class BuildWithPage(build_py):
    """`build_py`, then the built page into the package (a wheel without it is refused)."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        if not (PAGE / "index.html").is_file():
            raise SystemExit(f"{PAGE} is not built: run `make site` first (`make dist` does)")
        target = Path(self.build_lib) / PAGE_IN_PACKAGE
        shutil.rmtree(target, ignore_errors=True)  # nothing left from an earlier build
        shutil.copytree(PAGE, target)


setup(
    cmdclass={"build_py": BuildWithPage},
    long_description=metadata.readme_for_index(README, REPOSITORY, VERSION),
    long_description_content_type="text/markdown",
    project_urls=metadata.project_urls(REPOSITORY),
)
