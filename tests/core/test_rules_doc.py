"""Every worked example of the rules documents, parsed from them and run through the command line.

An example is a fenced ``console`` block: ``$ background-battle ...`` lines, each followed by the
output it prints (JSON, compared as data) or by ``error: ...`` (exit status 2 and that message).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = (ROOT / "docs" / "rules.md", ROOT / "docs" / "rules.ru.md")
BLOCK = re.compile(r"^```console\n(.*?)^```", re.MULTILINE | re.DOTALL)
PROGRAM = "background-battle"


@dataclass(frozen=True)
class Example:
    document: str
    line: int
    args: tuple[str, ...]
    expected: str


def examples(path: Path) -> list[Example]:
    """The ``$ background-battle`` commands of a document's console blocks, with their outputs."""
    text = path.read_text(encoding="utf-8")
    found: list[Example] = []
    for block in BLOCK.finditer(text):
        first_line = text.count("\n", 0, block.start(1)) + 1
        command: tuple[str, ...] | None = None
        output: list[str] = []
        start = first_line
        for offset, line in enumerate([*block.group(1).splitlines(), "$"]):
            if line.startswith("$"):
                if command is not None:
                    found.append(Example(path.name, start, command, "\n".join(output)))
                words = shlex.split(line[1:])
                assert not words or words[0] == PROGRAM, f"{path.name}:{first_line + offset}"
                command, output, start = tuple(words[1:]), [], first_line + offset
            else:
                output.append(line)
    return found


ALL = [example for path in DOCUMENTS for example in examples(path)]


def run(args: tuple[str, ...]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "core")}
    return subprocess.run(
        [sys.executable, "-m", "background_battle", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


@pytest.mark.parametrize("example", ALL, ids=[f"{e.document}:{e.line}" for e in ALL])
def test_the_worked_example_gives_the_stated_numbers(example: Example) -> None:
    done = run(example.args)
    if example.expected.startswith("error: "):
        assert done.returncode == 2 and done.stdout == ""
        said = " ".join(done.stderr.split())  # one message, wrapped into 80 columns
        assert said.endswith(example.expected), done.stderr
    else:
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == json.loads(example.expected)


def test_both_documents_hold_the_same_examples() -> None:
    english, russian = (examples(path) for path in DOCUMENTS)
    assert len(english) >= 14
    assert [(e.args, e.expected) for e in english] == [(e.args, e.expected) for e in russian]


def test_every_example_of_the_source_is_there() -> None:
    commands = {" ".join(e.args) for e in examples(DOCUMENTS[0])}
    for seed_case in (
        "leader-bonus --strength 26 --sl 7",  # the orcs' WAAAGH!
        "leader-bonus --strength 60 --sl 5",  # the [1+6+2=8] slip
        "last-stand --enemy-strength 26 --fleeing 1/2 --allies-strength 24",
        "casualties --initial 30 --remaining 18 --unit Dwarves=10",
        "casualties --initial 100 --remaining 40 --unit First=10 --unit Second=20",
    ):
        assert any(c.startswith(seed_case) for c in commands), seed_case


def test_a_broken_example_would_be_caught(tmp_path: Path) -> None:
    page = tmp_path / "rules.md"
    page.write_text(
        "```console\n$ background-battle leader-bonus --strength 60 --sl 5 --json\n"
        '{"bonus": 8, "strength_for_next_test": 68}\n```\n',
        encoding="utf-8",
    )
    (example,) = examples(page)
    assert json.loads(run(example.args).stdout) != json.loads(example.expected)


def test_the_readme_links_the_rules_and_nothing_outside_the_repository() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(docs/rules.md)" in readme
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)]+)\)", path.read_text(encoding="utf-8")):
            if target.startswith(("http://", "https://", "#", "mailto:")):
                continue
            assert (path.parent / target.split("#")[0]).resolve().is_relative_to(ROOT), target
            assert (path.parent / target.split("#")[0]).exists(), f"{path.name}: {target}"
