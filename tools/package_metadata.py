"""The wheel's description and Project-URLs, from the repository's address set once.

`pyproject.toml` names the repository once (`[tool.background-battle] repository`); `setup.py`
reads it here to give the wheel (and so PyPI) absolute links: the README's relative links point
at the files of the release's tag, its `OWNER/REPO` placeholders become the real owner and name,
and the Project-URLs list the repository, its issues, releases and documents.

>>> readme_for_index("[rules](docs/rules.md), [top](#x), https://github.com/OWNER/REPO/x",
...                  "https://github.com/me/bb", "0.1.0")
'[rules](https://github.com/me/bb/blob/v0.1.0/docs/rules.md), [top](#x), https://github.com/me/bb/x'
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

GITHUB = re.compile(
    r"^https://github\.com/([A-Za-z0-9][A-Za-z0-9-]{0,38})/([A-Za-z0-9._-]{1,100})$"
)
# A Markdown link's target: `](target)`; absolute ones (a scheme) and anchors stay as they are.
LINK = re.compile(r"\]\((?![a-z][a-z0-9+.-]*:|#)([^)\s]+)\)")
PLACEHOLDER = "OWNER/REPO"


def repository(pyproject: Path) -> str:
    """The repository's address as `pyproject.toml` sets it.

    Raises:
        ValueError: missing, or not https://github.com/owner/name.
    """
    with pyproject.open("rb") as source:
        data = tomllib.load(source)
    address = data.get("tool", {}).get("background-battle", {}).get("repository", "")
    if not GITHUB.match(address):
        raise ValueError(
            "pyproject.toml: [tool.background-battle] repository must be "
            f"https://github.com/owner/name, not {address!r}"
        )
    return str(address)


def version(pyproject: Path) -> str:
    with pyproject.open("rb") as source:
        return str(tomllib.load(source)["project"]["version"])


def project_urls(repo: str) -> dict[str, str]:
    """The wheel's Project-URLs.

    >>> project_urls("https://github.com/me/bb")["Issues"]
    'https://github.com/me/bb/issues'
    """
    return {
        "Homepage": repo,
        "Source": repo,
        "Issues": f"{repo}/issues",
        "Releases": f"{repo}/releases",
        "Documentation": f"{repo}/tree/main/docs",
        "Foundry manifest": f"{repo}/releases/latest/download/module.json",
    }


def readme_for_index(text: str, repo: str, release: str) -> str:
    """The README as a package index shows it: every link absolute, the placeholders filled."""
    owner_name = repo.removeprefix("https://github.com/")
    text = text.replace(PLACEHOLDER, owner_name)
    return LINK.sub(lambda found: f"]({repo}/blob/v{release}/{found.group(1)})", text)
