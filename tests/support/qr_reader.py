"""Read a QR code back as a phone would: zxing-cpp (pinned in requirements-dev.txt) decodes it."""

from __future__ import annotations

import zxingcpp

QUIET = 4  # light modules around the symbol
SCALE = 4  # pixels a module


def read_qr(dark: list[list[bool]]) -> list[str]:
    """The texts zxing-cpp finds in a grid of modules (True = dark), drawn black on white."""
    size = (len(dark) + 2 * QUIET) * SCALE
    pixels = bytearray([255]) * (size * size)
    for row, cells in enumerate(dark):
        for col, is_dark in enumerate(cells):
            if not is_dark:
                continue
            for dy in range(SCALE):
                start = ((row + QUIET) * SCALE + dy) * size + (col + QUIET) * SCALE
                pixels[start : start + SCALE] = bytes(SCALE)
    image = memoryview(pixels).cast("B", shape=[size, size])
    return [found.text for found in zxingcpp.read_barcodes(image)]
