"""Assemble the static site ``web/dist/`` from the hand-written files, Pyodide and the core wheel.

Usage: ``python web/build.py --wheel-dir DIR [--out web/dist]``

- the hand-written files of ``web/`` (pages, scripts, styles, translations, icons) are copied;
- the few Pyodide runtime files a page needs are vendored from ``web/node_modules/pyodide``
  (installed by ``npm ci`` from the lock file) after checking their version against the one pin,
  ``web/package.json``'s; of them, ``pyodide.asm.mjs`` is minified by the pinned esbuild
  (``minify_runtime.py``), ``python_stdlib.zip`` is trimmed to what Pyodide's start-up and the
  core need and compiled to bytecode, shipped as ``python_stdlib.pyc.zip`` (``trim_stdlib.mjs``,
  run in Node and checked there; kept in ``node_modules/.trimmed-stdlib/`` for the same inputs)
  and ``pyodide-lock.json`` lists no packages (the page loads none: the worker unpacks the core);
- the core's pure wheel (built by ``python -m build --wheel core``) goes to ``wheels/`` with its
  modules' bytecode added by ``trim_stdlib.mjs`` (its sources kept, for tracebacks);
- the QR code library the live page uses (``qrcode-generator``) goes to ``vendor/``;
- the one JavaScript client of the bridge, ``foundry-module/client/`` (its source lives in the
  module, which Foundry loads from its own folder; docs/client.md), goes to ``client/``;
- ``bridge.json`` says "no bridge" to the page on a static host (the bridge answers it itself);
- ``build-info.js`` tells the worker where the standard library and the wheel are, and
  ``sw.js`` gets the list of files to cache under a version that is a hash of their contents.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # rules_page.py, beside this file
from bundle_page import bundle_page  # the page's modules as one request
from minify_runtime import MINIFIED, minify_runtime  # Pyodide's glue, smaller
from rules_page import write_rules  # the Rules view, its own module

WEB = Path(__file__).resolve().parent
ROOT = WEB.parent
# The standard library as the page ships it: trimmed and compiled (trim_stdlib.mjs), under its own
# name (the worker gives it to Pyodide as `stdLibURL`): not the file npm ships as python_stdlib.zip.
STDLIB = "python_stdlib.pyc.zip"
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    STDLIB,
    "pyodide-lock.json",
)
VENDORED_AS_IS = ("pyodide.mjs", "pyodide.asm.wasm")  # and MINIFIED
TRIM = WEB / "trim_stdlib.mjs"
VECTORS = ROOT / "tests" / "golden" / "vectors.json"
# Kept although nothing imported them in the probe: codecs a text may name at run time.
STDLIB_EXTRA = ("encodings/ascii.py", "encodings/latin_1.py", "encodings/utf_8_sig.py")
SITE_SUFFIXES = {".html", ".js", ".css", ".svg", ".webmanifest", ".png"}
NOT_SITE = {"sw.js", "build.py"}


def pinned_pyodide_version() -> str:
    """The Pyodide version, pinned in one place: ``web/package.json`` (npm keeps its lock file
    in step). The worker learns it from ``build-info.js``; the Pages workflow reads it here too."""
    pinned = json.loads((WEB / "package.json").read_text(encoding="utf-8"))
    version = pinned["dependencies"].get("pyodide", "")
    if not re.fullmatch(r"\d+\.\d+\.\d+", version):
        raise SystemExit(f"web/package.json: pyodide must be pinned exactly, got {version!r}")
    return str(version)


def check_pyodide(node_pyodide: Path, version: str) -> None:
    """Fail unless the installed npm package is exactly the pinned one."""
    package_json = node_pyodide / "package.json"
    if not package_json.is_file():
        raise SystemExit(f"{node_pyodide}: missing; run `npm ci` in web/ (make site does)")
    installed = json.loads(package_json.read_text(encoding="utf-8"))["version"]
    if installed != version:
        raise SystemExit(
            f"pyodide version mismatch: package.json {version}, installed {installed}; "
            "run `npm ci` in web/ (make site does)"
        )


def find_wheel(wheel_dir: Path) -> Path:
    """The single pure core wheel in ``wheel_dir``."""
    wheels = sorted(wheel_dir.glob("background_battle_core-*-py3-none-any.whl"))
    if len(wheels) != 1:
        raise SystemExit(f"{wheel_dir}: expected one pure core wheel, found {len(wheels)}")
    return wheels[0]


def write_lock_without_packages(node_pyodide: Path, site_pyodide: Path) -> dict[str, Any]:
    """``pyodide-lock.json`` with its ``info`` and no packages: the page loads none. The worker
    is given the same lock in ``build-info.js`` (Pyodide's ``lockFileContents``: one request
    fewer); the file is for Node's check of the shipped runtime (``trim_stdlib.mjs``)."""
    lock = json.loads((node_pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))
    trimmed = {"info": lock["info"], "packages": {}}
    (site_pyodide / "pyodide-lock.json").write_text(
        json.dumps(trimmed, sort_keys=True), encoding="utf-8"
    )
    return trimmed


def core_modules(wheel: Path) -> list[str]:
    """Every module of the core's wheel, by its dotted name (``__main__`` runs the CLI: not it)."""
    with zipfile.ZipFile(wheel) as archive:
        names = [
            n
            for n in archive.namelist()
            if n.endswith(".py") and ".dist-info" not in n and not n.endswith("/__main__.py")
        ]
    modules = [n[: -len(".py")].replace("/", ".") for n in names]
    return sorted(m.removesuffix(".__init__") for m in modules)


def trim_stdlib(node_pyodide: Path, wheel: Path, site_pyodide: Path, site_wheel: Path) -> None:
    """The standard library trimmed to what the page imports and compiled, and the core's wheel
    with its bytecode (``site_wheel``), both made and checked by the pinned Pyodide under Node.

    Raises:
        SystemExit: when Node is missing or the shipped files fail the check.
    """
    job = {
        "modules": core_modules(wheel),
        "vectors": json.loads(VECTORS.read_text(encoding="utf-8")),
        "extra": list(STDLIB_EXTRA),
        "stdlib": STDLIB,
    }
    key = hashlib.sha256()
    for part in (
        (node_pyodide / "python_stdlib.zip").read_bytes(),
        *((site_pyodide / name).read_bytes() for name in MINIFIED),  # the runtime checked with it
        (site_pyodide / "pyodide-lock.json").read_bytes(),
        wheel.read_bytes(),
        TRIM.read_bytes(),
        json.dumps(job, sort_keys=True).encode(),
    ):
        key.update(hashlib.sha256(part).digest())
    kept = node_pyodide.parent / ".trimmed-stdlib" / key.hexdigest()[:32]
    if (kept / STDLIB).is_file() and (kept / "core.whl").is_file():
        shutil.copyfile(kept / STDLIB, site_pyodide / STDLIB)
        shutil.copyfile(kept / "core.whl", site_wheel)
        return
    node = shutil.which("node")
    if node is None:
        raise SystemExit("node is needed to trim the standard library: apt-get install nodejs")
    with tempfile.TemporaryDirectory(prefix="trim-stdlib-") as folder:
        job_file = Path(folder) / "job.json"
        job_file.write_text(json.dumps(job), encoding="utf-8")
        command = [node, str(TRIM), str(node_pyodide), str(site_pyodide), str(wheel)]
        done = subprocess.run(
            [*command, str(job_file), str(site_wheel)], capture_output=True, text=True, check=False
        )
    if done.returncode != 0:
        raise SystemExit(f"trim_stdlib.mjs failed: {done.stderr.strip()[-2000:]}")
    shutil.rmtree(kept.parent, ignore_errors=True)
    kept.mkdir(parents=True)
    shutil.copyfile(site_pyodide / STDLIB, kept / STDLIB)
    shutil.copyfile(site_wheel, kept / "core.whl")


def site_sources() -> list[Path]:
    """The hand-written files that go into the site, relative to ``web/``."""
    found = []
    for path in sorted(WEB.rglob("*")):
        rel = path.relative_to(WEB)
        if rel.parts[0] in {"dist", "node_modules"} or not path.is_file():
            continue
        if path.suffix in SITE_SUFFIXES and rel.as_posix() not in NOT_SITE:
            found.append(rel)
    return found


# npm packages the page imports, vendored from web/node_modules (pinned in package.json and its
# lock file): (package, file in it, where it goes in the site). Never a CDN.
VENDORED = (("qrcode-generator", "dist/qrcode.mjs", "vendor/qrcode.js"),)


def vendor_npm_files(out: Path, node_modules: Path) -> None:
    """Copy the few files of npm packages the page imports into ``out/vendor/``."""
    pinned = json.loads((WEB / "package.json").read_text(encoding="utf-8"))["dependencies"]
    for package, source, target in VENDORED:
        meta = node_modules / package / "package.json"
        if not meta.is_file():
            raise SystemExit(f"{meta.parent}: missing; run `npm ci` in web/ (make site does)")
        installed = json.loads(meta.read_text(encoding="utf-8"))["version"]
        if installed != pinned[package]:
            raise SystemExit(f"{package}: installed {installed}, package.json {pinned[package]}")
        (out / target).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(node_modules / package / source, out / target)


# The one JavaScript client of the bridge (docs/client.md): the Foundry module ships it from its
# own folder, so its source is there; the page ships the same files, as they are.
CLIENT = ROOT / "foundry-module" / "client"


def copy_client(out: Path) -> None:
    """Copy the bridge client's modules into ``out/client/``."""
    (out / "client").mkdir()
    for path in sorted(CLIENT.glob("*.mjs")):
        shutil.copyfile(path, out / "client" / path.name)


# The page asks for this file to learn whether a bridge serves it; the bridge answers it itself
# (before any file), so this copy only keeps a static host from answering 404. Never precached:
# a cached "no bridge" would hide the bridge on the next visit.
NO_BRIDGE = "bridge.json"


# Files the service worker does not precache: the "no bridge" answer (see above), the lock file
# (the worker has it from build-info.js), and what only live mode loads (it needs the bridge, so
# the network, anyway): a first visit stays lighter. Nor the modules bundled into main.js.
NOT_PRECACHED = frozenset(
    {NO_BRIDGE, "pyodide/pyodide-lock.json", *(target for _, _, target in VENDORED)}
)


def write_no_bridge_marker(out: Path) -> None:
    """``bridge.json`` for static hosts: ``{"bridge": null}`` (the page stays local)."""
    (out / NO_BRIDGE).write_text(json.dumps({"bridge": None}) + "\n", encoding="utf-8")


def build(wheel_dir: Path, out: Path, node_pyodide: Path) -> dict[str, int]:
    """Write the site into ``out`` (replaced whole); return its files and their sizes."""
    version = pinned_pyodide_version()
    check_pyodide(node_pyodide, version)
    wheel = find_wheel(wheel_dir)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for rel in site_sources():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(WEB / rel, out / rel)
    (out / "pyodide").mkdir()
    for name in VENDORED_AS_IS:
        shutil.copyfile(node_pyodide / name, out / "pyodide" / name)
    minify_runtime(node_pyodide, out / "pyodide", WEB / "package.json")
    lock = write_lock_without_packages(node_pyodide, out / "pyodide")
    (out / "wheels").mkdir()
    trim_stdlib(node_pyodide, wheel, out / "pyodide", out / "wheels" / wheel.name)
    write_rules(out)  # the Rules view, from docs/rules*.md
    shipped = (out / "wheels" / wheel.name).read_bytes()
    snapshot = hashlib.sha256(version.encode() + b"\0" + shipped).hexdigest()[:16]
    info = {
        "pyodide": version,
        "stdlib": f"pyodide/{STDLIB}",
        "wheel": f"wheels/{wheel.name}",
        "snapshot": snapshot,
        "lock": lock,
    }
    (out / "build-info.js").write_text(
        "// Written by web/build.py: what this build of the site contains.\n"
        f"export const BUILD = {json.dumps(info)};\n",
        encoding="utf-8",
    )
    vendor_npm_files(out, node_pyodide.parent)
    copy_client(out)
    bundled = bundle_page(out, node_pyodide.parent, WEB / "package.json")
    write_no_bridge_marker(out)
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    digest = hashlib.sha256()
    for rel in files:
        digest.update(rel.encode() + b"\0" + (out / rel).read_bytes())
    site_version = digest.hexdigest()[:16]
    # "./" is the page (index.html would be the same bytes again); navigations fall back to it.
    not_precached = NOT_PRECACHED | bundled
    precache = ["./", *(rel for rel in files if rel != "index.html" and rel not in not_precached)]
    sw = (WEB / "sw.js").read_text(encoding="utf-8")
    sw = sw.replace('"__VERSION__"', json.dumps(site_version))
    sw = sw.replace("/* __PRECACHE__ */ []", json.dumps(precache))
    (out / "sw.js").write_text(sw, encoding="utf-8")
    return {rel: (out / rel).stat().st_size for rel in [*files, "sw.js"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel-dir", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=WEB / "dist")
    parser.add_argument("--pyodide", type=Path, default=WEB / "node_modules" / "pyodide")
    args = parser.parse_args(argv)
    sizes = build(args.wheel_dir, args.out, args.pyodide)
    total = sum(sizes.values())
    print(f"site: {args.out} ({len(sizes)} files, {total / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
