"""Zip the Foundry module for a GitHub release.

Writes `<out>/module.json` (the manifest with `url`, `manifest` and `download` in the
GitHub-releases pattern) and `<out>/background-battle.zip` (that manifest, the repository's
LICENSE, the languages and styles, and the scripts the module loads: its `esmodules` and every
file they import, followed import by import; a client file only the page uses stays out).
Upload both to the release tagged `v<version>`; GMs install from
`https://github.com/<owner>/<repo>/releases/latest/download/module.json`.
The zip is the same bytes for the same commit: its entries sorted, stamped with the commit's
time (or ``$SOURCE_DATE_EPOCH``) and mode 0644, ``module.json`` included (``tools/source_date.py``).

    python foundry-module/build_release.py --repo owner/name [--out foundry-module/dist]
"""

from __future__ import annotations

import argparse
import json
import posixpath
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tools"))
from source_date import source_date_epoch, write_zip  # noqa: E402  (the same bytes every time)

# Folders shipped whole; the scripts (scripts/, and client/: the one JavaScript client of the
# bridge, which the page ships too, web/build.py) go in only as far as the module imports them.
CONTENT = ("lang", "styles")
# A relative ES module import: `from "./x.mjs"`, `import("../client/y.mjs")`, `export … from`.
RELATIVE_IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}/[^"']+)["']""")
# The repository's licence, at the module's root in the zip (`license` in module.json).
LICENSE = HERE.parent / "LICENSE"
REPO = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}$")


def release_manifest(manifest: dict[str, object], repo: str) -> dict[str, object]:
    """The manifest with the release URLs of `repo` (owner/name) for its version."""
    if not REPO.match(repo):
        raise ValueError(f"repo: expected owner/name of a GitHub repository, got {repo!r}")
    version = manifest["version"]
    zip_name = f"{manifest['id']}.zip"
    return {
        **manifest,
        "url": f"https://github.com/{repo}",
        "manifest": f"https://github.com/{repo}/releases/latest/download/module.json",
        "download": f"https://github.com/{repo}/releases/download/v{version}/{zip_name}",
    }


def loaded_scripts(entries: list[str]) -> list[str]:
    """The module's scripts that Foundry loads: `entries` and every file they import, in order.

    >>> "scripts/main.mjs" in loaded_scripts(["scripts/main.mjs"])
    True
    >>> "client/log-lines.mjs" in loaded_scripts(["scripts/main.mjs"])  # the page's alone
    False

    Raises:
        ValueError: an import of a file that is not in the module's folder.
    """
    seen: list[str] = []
    waiting = list(entries)
    while waiting:
        name = waiting.pop(0)
        if name in seen:
            continue
        path = HERE / name
        if name.startswith("../") or not path.is_file():
            raise ValueError(f"the module loads {name}, which is not in {HERE.name}/")
        seen.append(name)
        for target in RELATIVE_IMPORT.findall(path.read_text(encoding="utf-8")):
            waiting.append(posixpath.normpath(posixpath.join(posixpath.dirname(name), target)))
    return sorted(seen)


def build(repo: str, out: Path) -> Path:
    """Writes the release manifest and zip into `out`; returns the zip's path."""
    manifest = json.loads((HERE / "module.json").read_text(encoding="utf-8"))
    released = release_manifest(manifest, repo)
    text = json.dumps(released, ensure_ascii=False, indent=2) + "\n"
    out.mkdir(parents=True, exist_ok=True)
    (out / "module.json").write_text(text, encoding="utf-8")
    files = {"module.json": text.encode("utf-8"), str(manifest["license"]): LICENSE.read_bytes()}
    for name in loaded_scripts([str(entry) for entry in manifest["esmodules"]]):
        files[name] = (HERE / name).read_bytes()
    for folder in CONTENT:
        for path in (HERE / folder).rglob("*"):
            if path.is_file():
                files[path.relative_to(HERE).as_posix()] = path.read_bytes()
    archive = out / f"{manifest['id']}.zip"
    write_zip(archive, files, source_date_epoch())
    return archive


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--repo", required=True, help="GitHub owner/name, e.g. me/background-battle"
    )
    parser.add_argument("--out", type=Path, default=HERE / "dist", help="output folder")
    args = parser.parse_args(argv)
    try:
        archive = build(args.repo, args.out)
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    print(f"{archive} and {args.out / 'module.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
