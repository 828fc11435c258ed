"""The site build: what it vendors, what the service worker caches, what it refuses."""

from __future__ import annotations

import importlib.util
import json
import posixpath
import re
import subprocess
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
    # The lock file is given to the worker in build-info.js; the page's modules are bundled into
    # main.js (left in the site, unbundled, for tools and tests that import one).
    lock = "pyodide/pyodide-lock.json"
    not_cached = {"sw.js", "index.html", "bridge.json", "vendor/qrcode.js", lock}
    bundled = {f for f in files if f.endswith((".js", ".mjs")) and f in bundled_modules(site)}
    assert "i18n.js" in bundled and "client/bridge-client.mjs" in bundled
    assert set(precache) == {"./"} | files - not_cached - bundled
    assert json.loads((site / "bridge.json").read_text()) == {"bridge": None}
    shipped = {f"pyodide/{name}" for name in load("build").PYODIDE_FILES} - {lock}
    assert shipped <= set(precache)
    assert not any(name.endswith((".map", ".d.ts", ".html")) for name in files - {"index.html"})


# A relative ES module import (`from "./x.js"`, `import("./client/y.mjs")`, `export … from`).
RELATIVE_IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}/[^"']+)["']""")
# A line that is a comment (the bundle names its sources' imports in some).
LINE_COMMENT = re.compile(r"^\s*//.*$", re.MULTILINE)
# A static one only (`import()` loads its module apart, when needed).
STATIC_IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*)["'](\.{1,2}/[^"']+)["']""")


def bundled_modules(site: Path) -> set[str]:
    """The site's modules that the page's main.js (the source, web/main.js) imports statically,
    directly or through others: what the build bundles into the site's main.js."""
    found: set[str] = set()
    waiting = ["main.js"]
    while waiting:
        name = waiting.pop()
        text = (WEB / name if name == "main.js" else site / name).read_text(encoding="utf-8")
        for target in STATIC_IMPORT.findall(text):
            path = posixpath.normpath(posixpath.join(posixpath.dirname(name), target))
            if path not in found:
                found.add(path)
                waiting.append(path)
    return found


def test_the_page_ships_the_bridge_client_as_the_module_has_it(site: Path) -> None:
    client = ROOT / "foundry-module" / "client"
    names = sorted(p.name for p in client.glob("*.mjs"))
    assert "bridge-client.mjs" in names
    for name in names:
        assert (site / "client" / name).read_bytes() == (client / name).read_bytes()
    # Every script of the page imports only files the site has (the client's included).
    files = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    own = sorted(
        f
        for f in files
        if (f.endswith((".js", ".mjs")) and "/" not in f) or f.startswith("client/")
    )
    missing = []
    for name in own:
        code = LINE_COMMENT.sub("", (site / name).read_text(encoding="utf-8"))
        for target in RELATIVE_IMPORT.findall(code):
            if posixpath.normpath(posixpath.join(posixpath.dirname(name), target)) not in files:
                missing.append(f"{name} -> {target}")
    assert len(own) > 30
    assert missing == []


def test_pyodides_glue_is_minified_and_the_rest_of_the_runtime_is_as_pinned(site: Path) -> None:
    pinned = WEB / "node_modules" / "pyodide"
    glue = (site / "pyodide" / "pyodide.asm.mjs").read_text(encoding="utf-8")
    assert len(glue) < 0.9 * (pinned / "pyodide.asm.mjs").stat().st_size
    assert "_createPyodideModule" in glue and "as default}" in glue  # still the same module
    for name in load("build").VENDORED_AS_IS:
        assert (site / "pyodide" / name).read_bytes() == (pinned / name).read_bytes()


def test_an_esbuild_other_than_the_pinned_one_is_refused(tmp_path: Path) -> None:
    (tmp_path / "esbuild").mkdir()
    (tmp_path / "esbuild" / "package.json").write_text(json.dumps({"version": "0.0.1"}))
    minify = load("minify_runtime")
    pinned = json.loads((WEB / "package.json").read_text())["devDependencies"]["esbuild"]
    with pytest.raises(SystemExit, match=f"esbuild: installed 0.0.1, package.json {pinned}"):
        minify.minify_runtime(tmp_path / "pyodide", tmp_path / "out", WEB / "package.json")


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


def unchecked_hash_pycs(archive: zipfile.ZipFile, names: list[str]) -> set[bytes]:
    """The magic numbers of these .pyc files, after checking each is an unchecked-hash pyc
    (PEP 552: flags 0b01, so Python never reads a source to check it)."""
    magics = set()
    for name in names:
        header = archive.read(name)[:16]
        assert int.from_bytes(header[4:8], "little") == 0b01, name
        magics.add(header[:4])
    return magics


def test_the_standard_library_is_trimmed_from_the_pinned_one_and_compiled(site: Path) -> None:
    pinned = WEB / "node_modules" / "pyodide"
    stdlib = load("build").STDLIB
    with zipfile.ZipFile(site / "pyodide" / stdlib) as shipped:
        names = set(shipped.namelist())
        (magic,) = unchecked_hash_pycs(shipped, sorted(names))
    with zipfile.ZipFile(pinned / "python_stdlib.zip") as full:
        assert {name[:-1] for name in names} < set(full.namelist())  # x.pyc from x.py
    needed = {
        "json/__init__.pyc",
        "fractions.pyc",
        "random.pyc",
        "dataclasses.pyc",
        "importlib/readers.pyc",
        "pyodide/__init__.pyc",
    }
    assert needed <= names
    assert not {"email/__init__.pyc", "unittest/__init__.pyc", "pydoc.pyc"} & names
    assert not any(name.endswith(".py") for name in names)  # no source, nothing to compile
    assert "os.pyc" not in names and "site.pyc" not in names  # frozen into Python itself
    shipped_size = (site / "pyodide" / stdlib).stat().st_size
    assert shipped_size < (pinned / "python_stdlib.zip").stat().st_size / 2
    assert not (site / "pyodide" / "python_stdlib.zip").exists()
    (wheel,) = (site / "wheels").glob("*.whl")
    with zipfile.ZipFile(wheel) as core:
        files = core.namelist()
        (record,) = (n for n in files if n.endswith(".dist-info/RECORD"))
        listed = {line.split(",")[0] for line in core.read(record).decode().splitlines()}
        pycs = [n for n in files if n.endswith(".pyc")]
        assert unchecked_hash_pycs(core, pycs) == {magic}  # the same Python compiled both
    sources = [n for n in files if n.endswith(".py") and ".dist-info/" not in n]
    assert len(sources) > 20 and len(pycs) == len(sources)  # the sources stay, for tracebacks
    assert "background_battle/__pycache__/api.cpython-314.pyc" in pycs
    assert set(files) == listed


def test_the_lock_file_lists_no_packages(site: Path) -> None:
    pinned = json.loads((WEB / "node_modules" / "pyodide" / "pyodide-lock.json").read_text())
    shipped = json.loads((site / "pyodide" / "pyodide-lock.json").read_text())
    assert shipped == {"info": pinned["info"], "packages": {}}


def test_the_core_modules_to_check_are_every_module_but_main(site: Path) -> None:
    (wheel,) = (site / "wheels").glob("*.whl")
    modules = load("build").core_modules(wheel)
    assert {"background_battle", "background_battle.api", "background_battle.cli"} <= set(modules)
    assert "background_battle.__main__" not in modules
    on_disk = {p.stem for p in (ROOT / "core" / "background_battle").glob("*.py")}
    assert len(modules) == len(on_disk - {"__init__", "__main__"}) + 1


def test_a_wrong_answer_in_the_check_stops_the_trimming(site: Path, tmp_path: Path) -> None:
    """trim_stdlib.mjs checks the golden vectors in Pyodide; a wrong answer stops the build."""
    (wheel,) = (site / "wheels").glob("*.whl")
    vector = {
        "name": "the [1+6+2=8] slip",
        "request": {"op": "leader_bonus", "strength": 60, "sl": 5},
        "response": {"ok": True, "bonus": 8, "strength_for_next_test": 68},
    }
    job = tmp_path / "job.json"
    stdlib = load("build").STDLIB
    job.write_text(
        json.dumps({"modules": ["background_battle.api"], "vectors": [vector], "stdlib": stdlib})
    )
    out = tmp_path / "pyodide"
    out.mkdir()
    done = subprocess.run(
        [
            "node",
            str(WEB / "trim_stdlib.mjs"),
            str(WEB / "node_modules" / "pyodide"),
            str(out),
            str(wheel),
            str(job),
            str(tmp_path / "core.whl"),
        ],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode != 0
    assert "the [1+6+2=8] slip" in done.stderr
    assert not (out / stdlib).exists() and not (tmp_path / "core.whl").exists()


def test_the_pyodide_version_is_written_in_package_json_alone() -> None:
    pinned = json.loads((WEB / "package.json").read_text())["dependencies"]["pyodide"]
    assert load("build").pinned_pyodide_version() == pinned
    sources = [*WEB.glob("*.js"), *WEB.glob("*.py"), *WEB.glob("*.mjs"), *WEB.glob("*.html")]
    sources += [*(ROOT / ".github" / "workflows").glob("*.yml")]
    assert len(sources) > 40
    assert [p.name for p in sources if pinned in p.read_text(encoding="utf-8")] == []
