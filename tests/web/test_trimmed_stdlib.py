"""The trimmed, compiled standard library the site ships is enough: in Chromium, Pyodide booted
from the site's own files (web/dist/pyodide, the stdlib named by build-info.js) imports every
module of the core's wheel."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from conftest import BOOT_TIMEOUT_MS, ROOT
from playwright.sync_api import BrowserContext
from static_server import StaticServer

CHECK_PAGE = b"""<!doctype html>
<html><head><meta charset="utf-8"><title>import every core module</title></head>
<body><script type="module">
import { BUILD } from "../build-info.js";
import { loadPyodide } from "../pyodide/pyodide.mjs";
const root = new URL("../", location.href);
const result = { failed: {} };
try {
  const pyodide = await loadPyodide({
    indexURL: new URL("pyodide/", root).href,
    stdLibURL: new URL(BUILD.stdlib, root).href,
  });
  const wheel = await (await fetch(new URL(BUILD.wheel, root))).arrayBuffer();
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  pyodide.unpackArchive(wheel, "wheel", { extractDir: sitePackages });
  for (const name of JSON.parse(decodeURIComponent(location.hash.slice(1)))) {
    try {
      pyodide.pyimport(name);
    } catch (error) {
      result.failed[name] = error.message.split("\\n").slice(-2).join(" ");
    }
  }
  result.stdlib = pyodide.runPython(`import sys
sum(1 for m in sys.modules.values() if "python314.zip" in str(getattr(m, "__file__", "")))`);
  result.compiled = pyodide.runPython(`import sys
sum(1 for m in sys.modules.values() if str(getattr(m, "__file__", "")).endswith(".pyc"))`);
} catch (error) {
  result.boot = error.message;
}
document.body.dataset.result = JSON.stringify(result);
</script></body></html>
"""


def core_modules(site: Path) -> list[str]:
    spec = importlib.util.spec_from_file_location("build", ROOT / "web" / "build.py")
    assert spec and spec.loader
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    (wheel,) = (site / "wheels").glob("*.whl")
    modules: list[str] = build.core_modules(wheel)
    return modules


def test_every_core_module_imports_with_the_shipped_standard_library(
    site: Path, server: StaticServer, context: BrowserContext
) -> None:
    modules = core_modules(site)
    server.extra["/check/imports.html"] = (CHECK_PAGE, "text/html")
    page = context.new_page()
    page.goto(f"{server.url}check/imports.html#{json.dumps(modules)}")
    page.wait_for_selector("body[data-result]", state="attached", timeout=BOOT_TIMEOUT_MS)
    result = json.loads(page.get_attribute("body", "data-result") or "{}")
    assert "boot" not in result, result
    assert result["failed"] == {}
    assert result["stdlib"] > 50  # they came from the shipped zip
    assert result["compiled"] > 50  # from its bytecode, compiled at build time
    assert len(modules) > 20
