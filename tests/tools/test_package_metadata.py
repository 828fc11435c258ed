"""The wheel's metadata as PyPI shows it: absolute links, Project-URLs and the licences.

The metadata is made by setuptools' own PEP 517 hook (what `python -m build` runs before the
wheel) in a copy of the source tree, so the test needs no built page and leaves nothing behind.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from email import message_from_string
from email.message import Message
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("pyproject.toml", "setup.py", "README.md", "LICENSE", "licenses", "tools")
SOURCES += ("core", "bridge")
LINK_TARGET = re.compile(r"\]\(([^)\s]+)\)")


@pytest.fixture(scope="module")
def metadata(tmp_path_factory: pytest.TempPathFactory) -> Message:
    tree = tmp_path_factory.mktemp("source")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "page")
            shutil.copytree(source, tree / name, ignore=ignore)
        else:
            shutil.copy2(source, tree / name)
    out = tree / "metadata-out"
    out.mkdir()
    hook = (
        "import sys, setuptools.build_meta as b; "
        "print(b.prepare_metadata_for_build_wheel(sys.argv[1]))"
    )
    made = subprocess.run(
        [sys.executable, "-c", hook, str(out)],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert made.returncode == 0, made.stderr[-3000:]
    folder = out / made.stdout.strip().splitlines()[-1]
    return message_from_string((folder / "METADATA").read_text(encoding="utf-8"))


def test_every_project_url_is_absolute_and_names_the_repository(metadata: Message) -> None:
    urls = dict(line.split(", ", 1) for line in metadata.get_all("Project-URL") or [])
    assert {"Homepage", "Source", "Issues", "Releases"} <= set(urls)
    repository = urls["Source"]
    assert re.fullmatch(r"https://github\.com/[\w.-]+/[\w.-]+", repository)
    assert all(url.startswith(repository) for url in urls.values()), urls


def test_the_description_has_no_relative_link_and_no_placeholder(metadata: Message) -> None:
    description = metadata.get_payload()
    assert isinstance(description, str) and "Background Battle" in description
    targets = LINK_TARGET.findall(description)
    assert len(targets) > 10
    relative = [t for t in targets if not re.match(r"https?://|#", t)]
    assert relative == []
    assert "OWNER/REPO" not in description
    assert metadata["Description-Content-Type"] == "text/markdown"


def test_the_licences_of_the_project_and_of_what_it_bundles_are_declared(
    metadata: Message,
) -> None:
    assert metadata["License-Expression"] == "MIT AND MPL-2.0 AND Python-2.0"
    files = set(metadata.get_all("License-File") or [])
    assert {"LICENSE", "licenses/MPL-2.0.txt", "licenses/Python-2.0.txt"} <= files
    assert (ROOT / "licenses" / "MPL-2.0.txt").read_text().startswith("Mozilla Public License")


def test_a_release_publishes_only_after_every_test_passed() -> None:
    workflow = (ROOT / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8")
    jobs = workflow.split("\njobs:\n", 1)[1]
    test_job = jobs.split("\n  build:\n", 1)[0]
    assert test_job.startswith("  test:\n") and "run: .ci/run" in test_job
    # the build needs the tests; the GitHub release and PyPI need the build
    assert "\n  build:\n    needs: test\n" in jobs
    assert jobs.count("    needs: build\n") == 2
    # and the tag must be pushed to the repository pyproject.toml names
    assert "package_metadata as m; print(m.repository(" in jobs
