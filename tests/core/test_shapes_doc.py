"""shapes_doc.py: the commands' reference is written from the shapes, never by hand."""

from __future__ import annotations

import pytest

from background_battle.shapes import SHAPES
from background_battle.shapes_doc import BEGIN, END, markdown, replaced


def test_every_command_has_its_section() -> None:
    text = markdown()
    assert text.startswith(BEGIN) and text.rstrip().endswith(END)
    for name in SHAPES:
        assert f"### `{name}`" in text


def test_the_section_is_replaced_between_its_markers_only() -> None:
    document = f"before\n{BEGIN}\nold\n{END}\nafter\n"
    assert replaced(document) == f"before\n{markdown()}after\n"


def test_a_document_without_markers_is_refused() -> None:
    with pytest.raises(ValueError):
        replaced("no markers here")
