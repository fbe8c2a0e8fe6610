"""Cutting full frames into fixed-size training tiles at native scale (no resizing)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from datasets.scenes.model import BoxF

KEEP_MIN = 0.6  # a box is kept in a tile when this share of it lies inside


@dataclass
class Tile:
    """A square crop of a frame and the labels that fall inside it (tile pixels)."""

    image: np.ndarray
    labels: list[tuple[str, BoxF]]
    origin: tuple[int, int]  # top-left corner in the frame


def clip_labels(labels: list[tuple[str, BoxF]], x0: int, y0: int, size: int) -> list[tuple[str, BoxF]]:
    """Labels moved into a tile at (x0, y0); a box less than KEEP_MIN inside is dropped, others clipped."""
    out = []
    for cls, (x1, y1, x2, y2) in labels:
        area = max(x2 - x1, 0.0) * max(y2 - y1, 0.0)
        if area <= 0:
            continue
        cx1, cy1 = max(x1, x0), max(y1, y0)
        cx2, cy2 = min(x2, x0 + size), min(y2, y0 + size)
        inter = max(cx2 - cx1, 0.0) * max(cy2 - cy1, 0.0)
        if inter >= KEEP_MIN * area:
            out.append((cls, (cx1 - x0, cy1 - y0, cx2 - x0, cy2 - y0)))
    return out


def _starts(length: int, size: int, phase: int) -> list[int]:
    if length <= size:
        return [0]
    starts = list(range(-phase, length - size + 1, size))
    starts = [max(s, 0) for s in starts]
    if starts[-1] + size < length:
        starts.append(length - size)
    return sorted(set(starts))


def cut_tiles(image: np.ndarray, labels: list[tuple[str, BoxF]], rng: np.random.Generator, tile: int = 320, empty_p: float = 0.04) -> list[Tile]:
    """Tiles covering the frame on a randomly shifted grid.

    Tiles holding at least one label are kept; empty ones are kept with chance `empty_p`.
    Frames smaller than a tile are padded with their edge pixels.
    """
    h, w = image.shape[:2]
    if h < tile or w < tile:
        image = cv2.copyMakeBorder(image, 0, max(0, tile - h), 0, max(0, tile - w), cv2.BORDER_REPLICATE)
        h, w = image.shape[:2]
    out = []
    for y0 in _starts(h, tile, int(rng.integers(0, tile))):
        for x0 in _starts(w, tile, int(rng.integers(0, tile))):
            kept = clip_labels(labels, x0, y0, tile)
            if not kept and rng.random() >= empty_p:
                continue
            out.append(Tile(image[y0 : y0 + tile, x0 : x0 + tile].copy(), kept, (x0, y0)))
    return out


def yolo_lines(labels: list[tuple[str, BoxF]], width: int, height: int, class_id: dict[str, int]) -> list[str]:
    """YOLO txt lines (class cx cy w h, normalised) for labels in an image of that size."""
    lines = []
    for cls, (x1, y1, x2, y2) in labels:
        bw, bh = x2 - x1, y2 - y1
        if bw <= 0.5 or bh <= 0.5:
            continue
        lines.append(f"{class_id[cls]} {(x1 + x2) / 2 / width:.6f} {(y1 + y2) / 2 / height:.6f} {bw / width:.6f} {bh / height:.6f}")
    return lines
