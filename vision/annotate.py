"""Draw what was found on a photo: card boxes and names, meld outlines, findings.

Knows nothing of points: the caller hands in the text of every label.
Line widths and text sizes follow the photo's size, so a phone photo and a
small webcam frame are both readable.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.errors import ImageError

Box = tuple[float, float, float, float]
Colour = tuple[int, int, int]  # BGR

GREEN: Colour = (60, 170, 40)
BLUE: Colour = (200, 120, 30)
MAGENTA: Colour = (180, 60, 200)
ORANGE: Colour = (0, 140, 255)
RED: Colour = (40, 40, 220)
YELLOW: Colour = (0, 210, 230)
WHITE: Colour = (255, 255, 255)
BLACK: Colour = (0, 0, 0)


@dataclass(frozen=True)
class CardMark:
    """One card to draw: its corner boxes and a short label ("8 0.93")."""

    boxes: tuple[Box, ...]
    label: str
    colour: Colour = GREEN


@dataclass(frozen=True)
class GroupMark:
    """An outline around several cards (a meld) with its label ("meld 2: 8s, 380")."""

    boxes: tuple[Box, ...]
    label: str
    colour: Colour = YELLOW


def _scale(image: np.ndarray) -> float:
    return max(image.shape[0], image.shape[1]) / 1000.0


def _text(img: np.ndarray, text: str, org: tuple[int, int], size: float, colour: Colour) -> None:
    """Text on a dark band so it reads on any background; ASCII only (Hershey font)."""
    safe = text.encode("ascii", "replace").decode("ascii")
    thick = max(1, int(round(size * 2)))
    (w, h), base = cv2.getTextSize(safe, cv2.FONT_HERSHEY_SIMPLEX, size, thick)
    x, y = org
    x = int(min(max(0, x), max(0, img.shape[1] - w - 2)))
    y = int(min(max(h + 2, y), img.shape[0] - base - 1))
    cv2.rectangle(img, (x - 1, y - h - 2), (x + w + 1, y + base + 1), BLACK, -1)
    cv2.putText(img, safe, (x, y), cv2.FONT_HERSHEY_SIMPLEX, size, colour, thick, cv2.LINE_AA)


def _int_box(box: Box) -> tuple[int, int, int, int]:
    return tuple(int(round(v)) for v in box)  # type: ignore[return-value]


def _overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _free_label_origin(img: np.ndarray, text: str, x: int, y: int, size: float, placed: list[tuple[int, int, int, int]]) -> tuple[int, int]:
    """Move a label up (then below the image top) until it overlaps no earlier label."""
    thick = max(1, int(round(size * 2)))
    (w, h), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, size, thick)
    step = h + base + 4
    for k in range(12):
        yy = y - k * step
        rect = (x, yy - h - 2, x + w, yy + base + 1)
        if yy - h - 2 >= 0 and not any(_overlaps(rect, p) for p in placed):
            placed.append(rect)
            return x, yy
    placed.append((x, y - h - 2, x + w, y + base + 1))
    return x, y


def annotate(
    image: np.ndarray,
    cards: list[CardMark],
    groups: list[GroupMark] = (),  # type: ignore[assignment]
    header: list[str] = (),  # type: ignore[assignment]
    header_colour: Colour = WHITE,
) -> np.ndarray:
    """A copy of the BGR `image` with groups outlined, cards boxed, and the header
    lines written in a dark band added above the photo (the photo is not covered)."""
    out = image.copy()
    s = _scale(out)
    line = max(1, int(round(2 * s)))
    size = max(0.4, 0.55 * s)
    placed: list[tuple[int, int, int, int]] = []
    for g in groups:
        if not g.boxes:
            continue
        pad = 6 * s
        x1 = min(b[0] for b in g.boxes) - pad
        y1 = min(b[1] for b in g.boxes) - pad
        x2 = max(b[2] for b in g.boxes) + pad
        y2 = max(b[3] for b in g.boxes) + pad
        cv2.rectangle(out, (int(x1), int(y1)), (int(x2), int(y2)), g.colour, line + 1)
        ox, oy = _free_label_origin(out, g.label, max(0, int(x1)), int(y1) - line - 2, size, placed)
        _text(out, g.label, (ox, oy), size, g.colour)
    for c in cards:
        for b in c.boxes:
            x1, y1, x2, y2 = _int_box(b)
            cv2.rectangle(out, (x1, y1), (x2, y2), c.colour, line)
        if len(c.boxes) == 2:
            a = tuple(int((c.boxes[0][k] + c.boxes[0][k + 2]) / 2) for k in (0, 1))
            b2 = tuple(int((c.boxes[1][k] + c.boxes[1][k + 2]) / 2) for k in (0, 1))
            cv2.line(out, a, b2, c.colour, max(1, line // 2), cv2.LINE_AA)
        if c.boxes:
            x1, y1, x2, y2 = _int_box(c.boxes[0])
            _text(out, c.label, (x2 + line + 1, y1 + int(12 * s)), size * 0.8, c.colour)
    if not header:
        return out
    row = int(max(18, 26 * s))
    band = np.zeros((row * len(header) + row // 2, out.shape[1], 3), dtype=out.dtype)
    y = row
    for text in header:
        _text(band, text, (int(8 * s), y - row // 4), size, header_colour)
        y += row
    return np.vstack([band, out])


def save_image(path: Path, image: np.ndarray) -> None:
    """Write a BGR image (format by suffix); raises ImageError naming the path."""
    path = Path(path)
    try:
        ok = cv2.imwrite(str(path), image)
    except cv2.error as exc:
        raise ImageError(f"cannot write image {path}: {exc}") from exc
    if not ok:
        raise ImageError(f"cannot write image {path}")
