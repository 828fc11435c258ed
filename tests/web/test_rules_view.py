"""The Rules view: the project's rules document in both languages, built from docs/ by make site."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from conftest import ROOT
from playwright.sync_api import Page, expect

sys.path.insert(0, str(ROOT / "web"))
from rules_page import render, write_rules


def test_the_build_writes_the_rules_of_each_language_from_docs(tmp_path: Path) -> None:
    written = write_rules(tmp_path)

    assert sorted(p.name for p in written) == ["en.js", "ru.js"]
    english = json.loads(
        (tmp_path / "rules" / "en.js")
        .read_text(encoding="utf-8")
        .split("export default ")[1]
        .rstrip(";\n")
    )
    assert "<h2>The rules of the background battle</h2>" in english
    assert "1 + floor(S / 10) + floor(SL / 2)" in english
    assert 'href="#rules" data-lang="ru"' in english
    russian = (tmp_path / "rules" / "ru.js").read_text(encoding="utf-8")
    assert "Фоновый бой" in russian and "\\u04" not in russian  # letters as they are: 2 bytes


def test_the_rules_markdown_is_escaped_before_it_becomes_html() -> None:
    assert render("a <script> & `<b>`") == "<p>a &lt;script&gt; &amp; <code>&lt;b&gt;</code></p>"


def test_the_rules_tab_shows_the_document_and_follows_the_language(page: Page) -> None:
    page.get_by_role("tab", name="Rules").click()

    rules = page.locator("#rules-text")
    expect(rules.locator("h2").first).to_have_text("The rules of the background battle")
    expect(rules).to_contain_text("1 + floor(S / 10) + floor(SL / 2)")
    page.get_by_role("button", name="RU").click()
    expect(rules).to_have_attribute("lang", "ru")
    expect(rules.locator("h2").first).not_to_have_text("The rules of the background battle")
