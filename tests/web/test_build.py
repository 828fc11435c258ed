"""The site build: what it vendors, what the service worker caches, what it refuses."""

from __future__ import annotations

import importlib.util
import json
import re
import zipfile
from pathlib import Path
from types import ModuleType

import pytest
from conftest import ROOT

WEB = ROOT / "web"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, WEB / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_service_worker_caches_every_file_of_the_build_under_one_version(site: Path) -> None:
    sw = (site / "sw.js").read_text()
    version = re.search(r'const VERSION = "([0-9a-f]{16})";', sw)
    assert version
    listed = re.search(r"const PRECACHE = (\[.*?\]);", sw)
    assert listed
    precache = json.loads(listed.group(1))
    files = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    # bridge.json is the "no bridge" answer of a static host: never cached, the bridge answers it;
    # the QR code library is loaded in live mode only (which needs the network anyway).
    not_cached = {"sw.js", "index.html", "bridge.json", "vendor/qrcode.js"}
    assert set(precache) == {"./"} | files - not_cached
    assert json.loads((site / "bridge.json").read_text()) == {"bridge": None}
    assert {f"pyodide/{name}" for name in load("build").PYODIDE_FILES} <= set(precache)
    assert not any(name.endswith((".map", ".d.ts", ".html")) for name in files - {"index.html"})


def test_a_pyodide_other_than_the_pinned_one_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "pyodide"
    fake.mkdir()
    (fake / "package.json").write_text(json.dumps({"version": "0.0.1"}))
    build = load("build")
    with pytest.raises(SystemExit, match="pyodide version mismatch"):
        build.build(tmp_path, tmp_path / "dist", fake)
    assert not (tmp_path / "dist").exists()


def make_wheel(path: Path, names: list[str]) -> Path:
    with zipfile.ZipFile(path, "w") as wheel:
        for name in names:
            wheel.writestr(name, "x")
    return path


def test_wheels_with_other_files_are_told_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    compare = load("same_wheel_files")
    a = make_wheel(tmp_path / "a.whl", ["pkg/__init__.py", "pkg/api.py"])
    b = make_wheel(tmp_path / "b.whl", ["pkg/__init__.py", "pkg/api.py"])
    c = make_wheel(tmp_path / "c.whl", ["pkg/__init__.py"])
    assert compare.main([str(a), str(b)]) == 0
    capsys.readouterr()
    assert compare.main([str(a), str(c)]) == 1
    assert capsys.readouterr().out.strip() == f"only in {a}: pkg/api.py"
