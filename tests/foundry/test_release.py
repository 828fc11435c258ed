"""The release zip: a manifest with GitHub-release URLs and every file it names."""

from __future__ import annotations

import importlib.util
import json
import posixpath
import re
import zipfile
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parents[2] / "foundry-module"
spec = importlib.util.spec_from_file_location("build_release", HERE / "build_release.py")
assert spec and spec.loader
build_release = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build_release)


def test_the_release_manifest_points_at_the_github_release(tmp_path: Path) -> None:
    archive = build_release.build("someone/background-battle", tmp_path)
    manifest = json.loads((tmp_path / "module.json").read_text(encoding="utf-8"))
    version = manifest["version"]
    assert manifest["manifest"] == (
        "https://github.com/someone/background-battle/releases/latest/download/module.json"
    )
    assert manifest["download"] == (
        f"https://github.com/someone/background-battle/releases/download/v{version}/"
        "background-battle.zip"
    )
    with zipfile.ZipFile(archive) as zipped:
        names = set(zipped.namelist())
        assert json.loads(zipped.read("module.json")) == manifest
    named = [*manifest["esmodules"], *manifest["styles"]]
    named += [language["path"] for language in manifest["languages"]]
    assert set(named) <= names
    assert "scripts/logic/fates.mjs" in names
    # `license` is a path in the package (PackageManifestData.license), and the zip holds it
    assert manifest["license"] == "LICENSE"
    with zipfile.ZipFile(archive) as zipped:
        assert zipped.read("LICENSE").decode().startswith("MIT License")
    assert not any(name.endswith(".py") for name in names)


@pytest.mark.parametrize("repo", ["", "no-slash", "a/b/c", "https://github.com/a/b"])
def test_a_bad_repository_name_is_refused(tmp_path: Path, repo: str) -> None:
    with pytest.raises(ValueError, match="repo: expected owner/name"):
        build_release.build(repo, tmp_path)
    assert not (tmp_path / "module.json").exists()


# A relative ES module import (`from "./x.mjs"`, `import("../client/y.mjs")`, `export … from`).
RELATIVE_IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}/[^"']+)["']""")


def test_every_module_the_zip_holds_imports_only_files_inside_it(tmp_path: Path) -> None:
    # Foundry serves the module from its own folder: the bridge client (client/) must be in the
    # zip, and no script may reach outside it (tests serve the repository, where it would work).
    archive = build_release.build("someone/background-battle", tmp_path)
    with zipfile.ZipFile(archive) as zipped:
        names = set(zipped.namelist())
        scripts = {n: zipped.read(n).decode() for n in names if n.endswith(".mjs")}
    assert "client/bridge-client.mjs" in names
    assert "client/step-words.mjs" in names
    missing = []
    for name, text in scripts.items():
        for target in RELATIVE_IMPORT.findall(text):
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(name), target))
            if resolved not in names:
                missing.append(f"{name} -> {target}")
    assert len(scripts) > 40
    assert missing == []


def test_the_zip_holds_only_the_scripts_the_module_loads(tmp_path: Path) -> None:
    # client/log-lines.mjs is the page's alone (web/log-text.js): a file Foundry never loads
    # is dead weight in every GM's Data folder
    archive = build_release.build("someone/background-battle", tmp_path)
    with zipfile.ZipFile(archive) as zipped:
        scripts = {n for n in zipped.namelist() if n.endswith(".mjs")}
    assert "client/log-lines.mjs" not in scripts
    assert "scripts/main.mjs" in scripts
    assert scripts == set(build_release.loaded_scripts(["scripts/main.mjs"]))


def test_one_commit_gives_the_same_zip_every_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = build_release.build("someone/background-battle", tmp_path / "first")
    (HERE / "module.json").touch()  # a newer file on disk changes nothing
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    second = build_release.build("someone/background-battle", tmp_path / "second")
    assert first.read_bytes() == second.read_bytes()
    with zipfile.ZipFile(first) as zipped:
        entries = zipped.infolist()
    names = [info.filename for info in entries]
    assert names == sorted(names) and "module.json" in names
    assert {oct(info.external_attr >> 16) for info in entries} == {"0o100644"}
    assert len({info.date_time for info in entries}) == 1


def test_the_zip_is_stamped_with_source_date_epoch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 2023-11-14 22:13:20 UTC
    with zipfile.ZipFile(build_release.build("someone/background-battle", tmp_path)) as zipped:
        assert {info.date_time for info in zipped.infolist()} == {(2023, 11, 14, 22, 13, 20)}
