"""The page's Rules view, built from the project's rules document (one source, two languages).

``docs/rules.md`` and ``docs/rules.ru.md`` are turned into HTML at build time, each shipped as a
small ES module of the site (``rules/en.js``, ``rules/ru.js``: ``export default "<h2>…"``); the
page imports the one of its language. Only the
Markdown those documents use is understood: headings, paragraphs, lists, tables, code blocks
(fenced and indented), ``code``, **bold**, *italic* and links. Everything is escaped first.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent / "docs"
SOURCES = {"en": "rules.md", "ru": "rules.ru.md"}

_INLINE = (
    (re.compile(r"\*\*(.+?)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])"), r"<em>\1</em>"),
    (re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)"), r'<a href="\2">\1</a>'),
)


def inline(text: str) -> str:
    """Escape, then code spans (left as they are), bold, italic and links.

    >>> inline("a **b** *c* `x*y*` [d](e.md)")
    'a <strong>b</strong> <em>c</em> <code>x*y*</code> <a href="e.md">d</a>'
    """
    parts = re.split(r"(`[^`]+`)", text)
    out = []
    for part in parts:
        if part.startswith("`") and part.endswith("`") and len(part) > 1:
            out.append(f"<code>{html.escape(part[1:-1], quote=False)}</code>")
            continue
        escaped = html.escape(part, quote=False)
        for pattern, replacement in _INLINE:
            escaped = pattern.sub(replacement, escaped)
        out.append(escaped)
    return "".join(out)


def _table(rows: list[str]) -> str:
    cells = [[c.strip() for c in row.strip().strip("|").split("|")] for row in rows]
    head, body = cells[0], [r for r in cells[2:]]
    out = ['<div class="table-wrap"><table>', "<thead><tr>"]
    out += [f"<th>{inline(c)}</th>" for c in head]
    out.append("</tr></thead><tbody>")
    for row in body:
        out.append("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in row) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def render(markdown: str) -> str:
    """HTML for the subset of Markdown the rules documents use.

    >>> render("# Title\\n\\nSome *text*.\\n\\n- one\\n- two\\n\\n    code < 1\\n").split("\\n")
    ['<h2>Title</h2>', '<p>Some <em>text</em>.</p>', '<ul><li>one</li><li>two</li></ul>', \
'<pre><code>code &lt; 1</code></pre>']
    """
    lines = markdown.splitlines()
    blocks: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
        elif line.startswith("```"):
            end = i + 1
            while end < len(lines) and not lines[end].startswith("```"):
                end += 1
            code = "\n".join(lines[i + 1 : end])
            blocks.append(f"<pre><code>{html.escape(code, quote=False)}</code></pre>")
            i = end + 1
        elif line.startswith("    "):
            end = i
            while end < len(lines) and (lines[end].startswith("    ") or not lines[end].strip()):
                end += 1
            code = "\n".join(x[4:] for x in lines[i:end]).rstrip("\n")
            blocks.append(f"<pre><code>{html.escape(code, quote=False)}</code></pre>")
            i = end
        elif match := re.match(r"(#{1,6})\s+(.*)", line):
            level = min(6, len(match.group(1)) + 1)  # the page's own h1 stays the page's
            blocks.append(f"<h{level}>{inline(match.group(2))}</h{level}>")
            i += 1
        elif line.startswith("|"):
            end = i
            while end < len(lines) and lines[end].startswith("|"):
                end += 1
            blocks.append(_table(lines[i:end]))
            i = end
        elif re.match(r"\s*(?:[-*]|\d+\.)\s", line):
            ordered = bool(re.match(r"\s*\d+\.", line))
            items: list[str] = []
            while i < len(lines) and lines[i].strip():
                item = re.match(r"\s*(?:[-*]|\d+\.)\s+(.*)", lines[i])
                if item:
                    items.append(item.group(1))
                else:
                    items[-1] += " " + lines[i].strip()
                i += 1
            tag = "ol" if ordered else "ul"
            blocks.append(
                f"<{tag}>" + "".join(f"<li>{inline(x)}</li>" for x in items) + f"</{tag}>"
            )
        else:
            end = i
            while end < len(lines) and lines[end].strip() and not _starts_block(lines[end]):
                end += 1
            end = max(end, i + 1)
            blocks.append(f"<p>{inline(' '.join(x.strip() for x in lines[i:end]))}</p>")
            i = end
    return "\n".join(blocks)


def _starts_block(line: str) -> bool:
    return bool(re.match(r"(```|#{1,6}\s|\||\s*(?:[-*]|\d+\.)\s)", line))


# A run of Latin words (an English term, a name: "Warhammer Fantasy Roleplay") in a text of
# another language; never part of an entity (&lt;) or a tag.
_LATIN_WORD = r"[0-9]*[A-Za-z][A-Za-z0-9'’]*"  # "Warhammer", "4th"
_LATIN_RUN = re.compile(rf"(?<![&#\w]){_LATIN_WORD}(?:[ \-]{_LATIN_WORD})*")
# What a reader of either language reads as it is: the rule's abbreviations, dice, one letter.
_AS_IS = re.compile(r"(SL|S0|d\d+|[A-Za-z])")


def mark_latin(fragment: str) -> str:
    """Mark the English in a Russian fragment with ``lang="en"`` (screen readers, hyphenation);
    tags, code and the terms either language reads as they are stay as they are.

    >>> mark_latin('<p>Бой (<em>background battle</em>), SL и <code>floor</code></p>')
    '<p>Бой (<em><span lang="en">background battle</span></em>), SL и <code>floor</code></p>'
    >>> mark_latin("в WFRP 4th для 4-й редакции &lt; 5")
    'в <span lang="en">WFRP 4th</span> для 4-й редакции &lt; 5'
    """
    parts = re.split(r"(<code>.*?</code>|<[^>]+>)", fragment, flags=re.S)
    for i, part in enumerate(parts):
        if i % 2 == 0:
            parts[i] = _LATIN_RUN.sub(
                lambda m: (
                    m.group(0)
                    if _AS_IS.fullmatch(m.group(0))
                    else f'<span lang="en">{m.group(0)}</span>'
                ),
                part,
            )
    return "".join(parts)


def write_rules(out: Path, docs: Path = DOCS) -> list[Path]:
    """Write ``rules/<lang>.js`` into the site for each rules document there is.

    A missing document is skipped (the page then says the rules are not in this build).
    """
    written = []
    (out / "rules").mkdir(parents=True, exist_ok=True)
    for lang, name in SOURCES.items():
        source = docs / name
        if not source.is_file():
            continue
        text = source.read_text(encoding="utf-8")
        # Links between the two documents become the page's own language switch.
        fragment = render(text).replace('href="rules.ru.md"', 'href="#rules" data-lang="ru"')
        fragment = fragment.replace('href="rules.md"', 'href="#rules" data-lang="en"')
        if lang != "en":
            fragment = mark_latin(fragment)
        target = out / "rules" / f"{lang}.js"
        head = f"// Built by web/rules_page.py from docs/{name}.\n"
        # Letters as they are (modules are read as UTF-8): a Cyrillic letter is 2 bytes, not 6.
        module = f"{head}export default {json.dumps(fragment, ensure_ascii=False)};\n"
        target.write_text(module, encoding="utf-8")
        written.append(target)
    return written
