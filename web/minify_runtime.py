"""Pyodide's JavaScript glue, minified by the pinned esbuild (``web/package.json``) for the site.

``pyodide.asm.mjs`` comes from npm with its whitespace already gone but every name of
Emscripten's glue spelled out; esbuild's ``--minify`` shortens the names it can prove are local
and the syntax, which cuts about 0.2 MB of a first visit. Names in scopes that hold a direct
``eval`` (Emscripten's ``EM_ASM``/``EM_JS`` code is evaluated there and refers to them) are kept
by esbuild. The result is checked like the rest of the shipped runtime: ``trim_stdlib.mjs`` boots
Pyodide from the site's files, imports every core module and answers every golden vector.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

MINIFIED = ("pyodide.asm.mjs",)


def esbuild_command(node_modules: Path, package_json: Path) -> Path:
    """esbuild's command in ``node_modules``, after checking it is the pinned version (a Node
    launcher, or esbuild's own binary where npm ran its install script: run either directly)."""
    meta = node_modules / "esbuild" / "package.json"
    if not meta.is_file():
        raise SystemExit(f"{meta.parent}: missing; run `npm ci` in web/ (make site does)")
    installed = json.loads(meta.read_text(encoding="utf-8"))["version"]
    pinned = json.loads(package_json.read_text(encoding="utf-8"))["devDependencies"]["esbuild"]
    if installed != pinned:
        raise SystemExit(f"esbuild: installed {installed}, package.json {pinned}")
    return node_modules / ".bin" / "esbuild"


def minify_runtime(node_pyodide: Path, site_pyodide: Path, package_json: Path) -> None:
    """Write each of ``MINIFIED`` from the pinned Pyodide into ``site_pyodide``, minified.

    Raises:
        SystemExit: when Node or esbuild is missing, or esbuild fails.
    """
    esbuild = esbuild_command(node_pyodide.parent, package_json)
    if shutil.which("node") is None:
        raise SystemExit("node is needed to minify Pyodide's glue: apt-get install nodejs")
    for name in MINIFIED:
        done = subprocess.run(
            [
                str(esbuild),
                str(node_pyodide / name),
                "--minify",
                "--format=esm",
                "--log-level=error",  # not the warnings about the direct evals it keeps intact
                f"--outfile={site_pyodide / name}",
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise SystemExit(f"esbuild {name} failed: {done.stderr.strip()[-2000:]}")
