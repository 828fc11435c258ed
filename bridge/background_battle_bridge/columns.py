"""Lines for an 80-column terminal: words wrapped, a long value (an address, a token, a path)
never broken but moved to a line of its own.

>>> for line in fit("open as GM: http://192.168.100.200:8765/#token=" + "t" * 32, indent=2):
...     print(line)
  open as GM:
    http://192.168.100.200:8765/#token=tttttttttttttttttttttttttttttttt
"""

from __future__ import annotations

import sys
import textwrap
from typing import TextIO

WIDTH = 80


def fit(text: str, indent: int = 0, width: int = WIDTH) -> list[str]:
    """`text` in lines of at most `width` columns, the first indented by `indent`, the rest by
    two more; a word longer than a line keeps a line of its own (it cannot be split)."""
    return textwrap.wrap(
        text,
        width=width,
        initial_indent=" " * indent,
        subsequent_indent=" " * (indent + 2),
        break_long_words=False,
        break_on_hyphens=False,
    ) or [" " * indent]


def fit_all(texts: list[tuple[str, int]], width: int = WIDTH) -> list[str]:
    """Each (text, indent) fitted, in order."""
    return [line for text, indent in texts for line in fit(text, indent, width)]


def show(text: str, indent: int = 0, stream: TextIO | None = None) -> None:
    """Print one message fitted into 80 columns (to stdout, flushed, unless `stream`)."""
    print("\n".join(fit(text, indent)), file=stream or sys.stdout, flush=True)
