"""Turning packaged card art (SVG, SVG sheets, PNG) into RGBA faces of a fixed width."""

from __future__ import annotations

import gzip
import io
import re
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

FACE_WIDTH = 250
SHEET_COLUMNS, SHEET_ROWS = 13, 5  # aisleriot sheets: clubs, diamonds, hearts, spades; jokers and back
SHEET_SUITS = "CDHS"
SHEET_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def _svg_text(path: Path) -> str:
    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    text = data.decode("utf-8", errors="replace")
    # resvg rejects physical units on the root size; keep the viewBox, give pixel sizes instead
    def px(match: re.Match) -> str:
        value, unit = float(match.group(2)), match.group(3)
        scale = {"in": 96.0, "mm": 96 / 25.4, "cm": 96 / 2.54, "pt": 96 / 72, "pc": 16.0}[unit]
        return f'{match.group(1)}="{value * scale:g}"'

    svg_open = re.search(r"<svg\b[^>]*>", text)
    if svg_open is None:
        return text
    tag = re.sub(r'\b(width|height)="([\d.]+)(in|mm|cm|pt|pc)"', px, svg_open.group(0))
    return text[: svg_open.start()] + tag + text[svg_open.end() :]


def render_svg(path: Path, width: int) -> np.ndarray:
    """An SVG (or gzipped .svgz) file rendered to RGBA at the given pixel width."""
    import resvg_py  # noqa: PLC0415

    png = resvg_py.svg_to_bytes(svg_string=_svg_text(path), width=width)
    return np.array(Image.open(io.BytesIO(bytes(png))).convert("RGBA"))


def load_png(path: Path) -> np.ndarray:
    """A PNG file as RGBA."""
    return np.array(Image.open(path).convert("RGBA"))


def to_width(image: np.ndarray, width: int = FACE_WIDTH) -> np.ndarray:
    """Resize keeping the aspect ratio (area filter when shrinking, cubic when enlarging)."""
    h, w = image.shape[:2]
    if w == width:
        return image
    interp = cv2.INTER_AREA if w > width else cv2.INTER_CUBIC
    return cv2.resize(image, (width, max(1, round(h * width / w))), interpolation=interp)


def trim_to_card(image: np.ndarray) -> np.ndarray:
    """Cut away fully transparent margins around the card."""
    ys, xs = np.nonzero(image[..., 3] > 16)
    if len(xs) == 0:
        return image
    return image[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def face(image: np.ndarray, width: int = FACE_WIDTH) -> np.ndarray:
    """Packaged art to a face: transparent margins trimmed, `width` px wide, uint8 RGBA."""
    return np.ascontiguousarray(to_width(trim_to_card(image), width)).astype(np.uint8)


def sheet_cells(sheet: np.ndarray) -> dict[tuple[int, int], np.ndarray]:
    """The 13 x 5 cells of an aisleriot card sheet, keyed by (row, column)."""
    h, w = sheet.shape[:2]
    ch, cw = h / SHEET_ROWS, w / SHEET_COLUMNS
    return {
        (r, c): sheet[round(r * ch) : round((r + 1) * ch), round(c * cw) : round((c + 1) * cw)]
        for r in range(SHEET_ROWS) for c in range(SHEET_COLUMNS)
    }


def is_blank(image: np.ndarray) -> bool:
    """True for an empty cell or a card with almost nothing printed on it."""
    opaque = image[..., 3] > 128
    if opaque.mean() < 0.5:
        return True
    px = image[..., :3][opaque].astype(np.float32)
    return float(px.std(axis=0).mean()) < 12.0


def render_sheet(path: Path, width: int = FACE_WIDTH) -> tuple[dict[str, np.ndarray], list[np.ndarray]]:
    """An aisleriot SVG sheet cut into faces by card code ("AS", "10H", "JOKER-1", ...) and backs."""
    sheet = render_svg(path, width=SHEET_COLUMNS * (width + 8))
    cells = sheet_cells(sheet)
    faces: dict[str, np.ndarray] = {}
    for r, suit in enumerate(SHEET_SUITS):
        for c, rank in enumerate(SHEET_RANKS):
            faces[rank + suit] = face(cells[(r, c)], width)
    for c in (0, 1):
        if not is_blank(cells[(4, c)]):
            faces[f"JOKER-{c + 1}"] = face(cells[(4, c)], width)
    backs = [face(cells[(4, 2)], width)]
    if not is_blank(cells[(4, 3)]):
        backs.append(face(cells[(4, 3)], width))
    return faces, backs
