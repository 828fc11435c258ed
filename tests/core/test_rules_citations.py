"""Every comment cites the rules the repository carries: ``docs/rules.md §N``, a section it has."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("core", "bridge", "web", "foundry-module", "tests", "docs", "README.md")
SKIPPED = {"node_modules", "dist", ".wheels", "build", "__pycache__"}
SUFFIXES = {".py", ".js", ".mjs", ".md", ".css", ".html"}
CITATION = re.compile(r"docs/rules\.md ((?:§\d+(?:–§\d+)?(?:, )?)+)")
OUTSIDE = re.compile(r"RULES(?:\.md| \d)")


def files() -> list[Path]:
    found: list[Path] = []
    for name in SOURCES:
        top = ROOT / name
        if top.is_file():
            found.append(top)
            continue
        for path in top.rglob("*"):
            if path.suffix in SUFFIXES and not SKIPPED & set(path.relative_to(ROOT).parts):
                found.append(path)
    return found


def sections(document: Path) -> set[int]:
    text = document.read_text(encoding="utf-8")
    return {int(n) for n in re.findall(r"^## §(\d+)\. ", text, re.MULTILINE)}


def test_both_rules_documents_number_the_same_sections() -> None:
    english, russian = sections(ROOT / "docs/rules.md"), sections(ROOT / "docs/rules.ru.md")
    assert english == russian == set(range(1, len(english) + 1))
    assert len(english) >= 10


def test_no_comment_points_at_a_rules_document_outside_the_repository() -> None:
    here = Path(__file__).resolve()
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in files()
        if path != here
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert offenders == []


def test_every_citation_names_a_section_that_exists() -> None:
    known = sections(ROOT / "docs/rules.md")
    cited: list[tuple[str, int]] = []
    for path in files():
        for match in CITATION.finditer(path.read_text(encoding="utf-8")):
            for start, end in re.findall(r"§(\d+)(?:–§(\d+))?", match.group(1)):
                cited += [(str(path.relative_to(ROOT)), int(start))]
                if end:
                    cited += [(str(path.relative_to(ROOT)), int(end))]
    assert len(cited) >= 20
    assert [c for c in cited if c[1] not in known] == []
