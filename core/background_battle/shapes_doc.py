"""The commands' reference in Markdown, written from ``shapes.SHAPES`` (never by hand).

``python -m background_battle.shapes_doc --markdown`` prints it; docs/protocol.md holds it between
``<!-- commands:begin -->`` and ``<!-- commands:end -->`` and a test keeps the two equal.

>>> print(field_rows(SHAPES["set_strength"].fields)[0])
| `side` | choice | yes | `allies`, `enemies` | — | allies or enemies |
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from .shapes import MAX_DEPTH, SHAPES, Field, Shape, number_fields
from .validate import MAX_TEXT, MAX_TYPED

BEGIN = "<!-- commands:begin -->"
END = "<!-- commands:end -->"

INTRO = f"""## Core commands

Generated from the core's own description of its commands
(`python -m background_battle.shapes_doc --markdown`; the same description is the core's
`command_shapes` op, and the core checks every command against it). A command is an object with
`type` and the fields below.

- A field that is not listed is refused: `error unknown_field`, `field` naming it.
- `null` is never read as "not given": a field given as `null` is refused with `error not_null`
  naming it, except a *nullable* field (its "accepts" says "or `null`"), where `null` is a value
  of its own. Leave a field out to not give it. A required field that is missing:
  `error required`.
- text: trimmed, not empty, valid Unicode (a lone surrogate such as `"\\udc00"` is
  `error bad_text`), at most {MAX_TEXT} characters unless stated. A name or an id (a unit's, a
  modifier's, a table's, the battle's) holds no control character and no line break (Unicode's
  C0 and C1 controls, DEL, U+2028, U+2029), as given, before trimming: `error bad_text` with
  `params.character` (e.g. `"U+000A"`); the bridge applies the same rule to `battle` and every
  other text field of a message. A table band's `effect` is a description, and may break lines.
- share: text is read in the forms a GM types in either language (a decimal comma is a decimal
  point; no exponent, no sign), at most {MAX_TYPED} characters; its length and form are checked
  before it is read (`error not_number`); outside 0 to 1: `error out_of_range`.
- integer: a JSON number without a fraction (`3` or `3.0`), finite; `true`/`false` are not numbers
  (`error not_integer`); outside its range: `error out_of_range` with `params.min` / `params.max`.
- Objects and lists nested deeper than {MAX_DEPTH} levels: `error too_deep`.
- The battle's log keeps the command as the core normalised it: known fields only, canonical
  values (`3.0` becomes `3`, a share becomes text like `"1/2"`, texts are trimmed, an Influence
  table is written out in full).
- Fields in a nested object are named with dots (`rolls.allies`); items of a list with `[]`.
"""


def markdown() -> str:
    """The whole "Core commands" section, markers included."""
    parts = [BEGIN, INTRO.rstrip("\n")]
    parts += [command_section(shape) for shape in SHAPES.values()]
    parts.append(END)
    return "\n\n".join(parts) + "\n"


def command_section(shape: Shape) -> str:
    """One command: its summary, when it is allowed, a row per field, its notes."""
    lines = [
        f"### `{shape.type}`",
        "",
        f"{_sentence(shape.summary)} When: {', '.join(shape.phases)}.",
    ]
    if shape.fields:
        lines += [
            "",
            "| field | kind | needed | accepts | default | what |",
            "| --- | --- | --- | --- | --- | --- |",
            *field_rows(shape.fields),
        ]
    else:
        lines += ["", "No fields besides `type`."]
    notes = []
    if shape.one_needed:
        notes.append(
            "One of " + " or ".join(f"`{name}`" for name in shape.one_needed) + " is needed."
        )
    if shape.note:
        notes.append(shape.note)
    if notes:
        lines += ["", " ".join(notes)]
    return "\n".join(lines)


def field_rows(fields: Sequence[Field], prefix: str = "") -> list[str]:
    """A table row per field, nested fields after their parent."""
    return list(_rows(fields, prefix))


def _rows(fields: Sequence[Field], prefix: str) -> Iterator[str]:
    for field in fields:
        name = prefix + field.name
        default = "—" if field.default is None else f"`{_json(field.default)}`"
        yield (
            f"| `{name}` | {field.kind} | {_needed(field)} | {_accepts(field)} | {default} "
            f"| {field.summary} |"
        )
        if field.item is not None:
            if field.item.fields:
                yield from _rows(field.item.fields, f"{name}[].")
        else:
            yield from _rows(field.fields, f"{name}.")


def _needed(field: Field) -> str:
    if field.required:
        return "yes"
    if field.required_when is not None:
        other, value = field.required_when
        return f"when `{other}` is `{value}`"
    return "no"


def _accepts(field: Field) -> str:
    if field.kind == "integer":
        accepts = _range(field.min, field.max)
    elif field.kind == "text":
        accepts = f"1 to {field.max or MAX_TEXT} characters"
    elif field.kind in ("choice",):
        accepts = ", ".join(f"`{value}`" for value in field.accepted)
    elif field.kind == "boolean":
        accepts = "`true`, `false`"
    elif field.kind == "share":
        accepts = (
            'a number from 0 to 1, or text as typed: `"1/2"`, `"0.5"`, `"0,5"`, `"50%"`, `"50 %"`'
        )
    elif field.kind == "list":
        assert field.item is not None
        low = f"{field.min} to " if field.min else "at most "
        accepts = f"a list of {low}{field.max}"
        if field.item.kind == "choice":
            accepts += " of " + ", ".join(f"`{value}`" for value in field.item.accepted)
    elif field.accepted:
        accepts = "a text, or an object with " + ", ".join(f"`{value}`" for value in field.accepted)
    else:
        accepts = "an object"
    return accepts + (", or `null`" if field.nullable else "")


def _range(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"{low} to {high}"
    return f"at least {low}" if low is not None else f"at most {high}"


def _sentence(text: str) -> str:
    return text[0].upper() + text[1:] + "."


def _json(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def replaced(document: str) -> str:
    """``document`` with the text between the markers (markers included) made anew.

    Raises:
        ValueError: when the document lacks the markers.
    """
    start, end = document.index(BEGIN), document.index(END) + len(END) + 1
    return document[:start] + markdown() + document[end:]


MODULE_FILE = "foundry-module/scripts/logic/command-numbers.mjs"


def module_numbers() -> str:
    """The Foundry module's copy of every number field's kind and range, as a JavaScript module
    (``MODULE_FILE``, written by ``--write-module``; tests/core/test_shapes.py keeps it equal):
    the module pre-checks what a GM types with the core's bounds, never with its own."""
    lines = [
        "// Generated from the core's command shapes (background_battle.shapes.number_fields):",
        "// do not edit. Rewrite it with",
        "//   .venv/bin/python -m background_battle.shapes_doc --write-module " + MODULE_FILE,
        "// (tests/core/test_shapes.py fails while it differs from the core).",
        "",
        "/** The most characters of a number in text: longer is refused before it is read. */",
        f"export const MAX_TYPED = {MAX_TYPED};",
        "",
        "/** Every number field of every command by its path: {kind, min, max}. */",
        "export const COMMAND_NUMBERS = Object.freeze({",
    ]
    for path, bounds in number_fields().items():
        kind, low, high = bounds["kind"], bounds["min"], bounds["max"]
        lines.append(f'  "{path}": {{ kind: "{kind}", min: {low}, max: {high} }},')
    lines.append("});")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Print the commands' reference (``--markdown``) or rewrite it in a file (``--write``), or
    write the Foundry module's number fields (``--write-module FILE``)."""
    import argparse  # only when run: the page imports this module without argparse

    parser = argparse.ArgumentParser(prog="python -m background_battle.shapes_doc")
    parser.add_argument("--markdown", action="store_true", help="print the Markdown section")
    parser.add_argument("--write", metavar="FILE", help="rewrite the section inside FILE")
    parser.add_argument("--write-module", metavar="FILE", help="write the module's number fields")
    args = parser.parse_args(argv)
    if args.write_module:
        Path(args.write_module).write_text(module_numbers(), encoding="utf-8")
        return 0
    if args.write:
        path = Path(args.write)
        path.write_text(replaced(path.read_text(encoding="utf-8")), encoding="utf-8")
        return 0
    if not args.markdown:
        parser.print_help()
        return 2
    sys.stdout.write(markdown())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
