"""The app's PNG icons, drawn from the same shapes as ``icon.svg`` (standard library only).

Run once when the icon changes (``python web/make_icons.py``); the PNGs are committed and copied
by the build like the other files of the page:

- ``icon-192.png``, ``icon-512.png``: the icon with its rounded corners (``purpose: any``);
- ``icon-maskable-512.png``: full-bleed background, the crossed blades inside the safe circle
  (``purpose: maskable``: Android cuts it to its own shape);
- ``apple-touch-icon.png`` (180 px): full-bleed, no transparency (iOS rounds it itself).
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

WEB = Path(__file__).resolve().parent
BACKGROUND = (0x6B, 0x1D, 0x1D)
# icon.svg, in its 64-unit box: two blades (cream) and their hilts (gold), 6 units wide, round ends.
STROKES = (
    ((14, 50), (40, 14), (0xF6, 0xF1, 0xE7)),
    ((50, 50), (24, 14), (0xF6, 0xF1, 0xE7)),
    ((10, 42), (22, 54), (0xD9, 0xA4, 0x41)),
    ((54, 42), (42, 54), (0xD9, 0xA4, 0x41)),
)
HALF_WIDTH = 3.0
SAMPLES = 3  # per pixel and axis: smooth edges


def _distance(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def _colour(x: float, y: float, rounded: bool) -> tuple[int, int, int, int]:
    """The colour at a point of the 64-unit box (transparent outside the rounded corners)."""
    if rounded:
        cx, cy = min(max(x, 12), 52), min(max(y, 12), 52)
        if math.hypot(x - cx, y - cy) > 12:
            return (0, 0, 0, 0)
    colour = BACKGROUND
    for a, b, ink in STROKES:  # later strokes on top, as in the SVG
        if _distance((x, y), a, b) <= HALF_WIDTH:
            colour = ink
    return (*colour, 255)


def draw(size: int, rounded: bool, scale: float = 1.0) -> bytes:
    """RGBA rows of the icon at ``size`` px; ``scale`` < 1 draws the art smaller, centred."""
    rows = bytearray()
    unit = 64 / size
    for j in range(size):
        rows.append(0)  # PNG filter: none
        for i in range(size):
            total = [0, 0, 0, 0]
            for sj in range(SAMPLES):
                for si in range(SAMPLES):
                    x = (i + (si + 0.5) / SAMPLES) * unit
                    y = (j + (sj + 0.5) / SAMPLES) * unit
                    art = (32 + (x - 32) / scale, 32 + (y - 32) / scale)
                    outside = rounded and _colour(x, y, True)[3] == 0
                    c = (0, 0, 0, 0) if outside else _colour(*art, False)
                    for k in range(4):
                        total[k] += c[k]
            n = SAMPLES * SAMPLES
            rows.extend(round(v / n) for v in total)
    return bytes(rows)


def png(size: int, rgba_rows: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rgba_rows, 9))
        + chunk(b"IEND", b"")
    )


ICONS = {
    "icon-192.png": (192, True, 1.0),
    "icon-512.png": (512, True, 1.0),
    "icon-maskable-512.png": (512, False, 0.8),  # the safe zone: a circle of 80 % of the side
    "apple-touch-icon.png": (180, False, 0.9),
}


def main() -> None:
    for name, (size, rounded, scale) in ICONS.items():
        (WEB / name).write_bytes(png(size, draw(size, rounded, scale)))
        print(f"web/{name}: {size} px")


if __name__ == "__main__":
    main()
