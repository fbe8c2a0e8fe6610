"""Painting on a card: the blank card, coloured ink tiles, and where ink lands.

Boxes are pixel-edge coordinates (x1, y1, x2, y2): x2 and y2 are one past the
last inked column and row, so a box's width is x2 - x1.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from datasets.faces import Box

RGB = tuple[int, int, int]
CARD_ASPECT = 3.5 / 2.5  # height / width of a poker-size card


def card_size(width: int) -> tuple[int, int]:
    """(width, height) of a portrait card `width` px wide."""
    return width, round(width * CARD_ASPECT)


def blank_card(width: int, paper: RGB, radius_frac: float = 0.06) -> np.ndarray:
    """An RGBA card of the paper colour with rounded, transparent corners."""
    w, h = card_size(width)
    img = np.zeros((h, w, 4), np.uint8)
    img[..., :3] = paper
    s = 4
    alpha = np.zeros((h * s, w * s), np.uint8)
    r = max(1, round(radius_frac * w * s))
    cv2.rectangle(alpha, (r, 0), (w * s - 1 - r, h * s - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (w * s - 1, h * s - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w * s - 1 - r, r), (r, h * s - 1 - r), (w * s - 1 - r, h * s - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 255, -1, cv2.LINE_AA)
    img[..., 3] = cv2.resize(alpha, (w, h), interpolation=cv2.INTER_AREA)
    return img


def draw_frame(card: np.ndarray, inset: int, thickness: int, color: RGB, radius: int = 0) -> None:
    """A rectangular line frame `inset` px inside the card edge (in place)."""
    h, w = card.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    x1, y1, x2, y2 = inset, inset, w - 1 - inset, h - 1 - inset
    if radius <= 0:
        cv2.rectangle(mask, (x1, y1), (x2, y2), 255, thickness, cv2.LINE_AA)
    else:
        r = radius
        cv2.line(mask, (x1 + r, y1), (x2 - r, y1), 255, thickness, cv2.LINE_AA)
        cv2.line(mask, (x1 + r, y2), (x2 - r, y2), 255, thickness, cv2.LINE_AA)
        cv2.line(mask, (x1, y1 + r), (x1, y2 - r), 255, thickness, cv2.LINE_AA)
        cv2.line(mask, (x2, y1 + r), (x2, y2 - r), 255, thickness, cv2.LINE_AA)
        for (cx, cy), a in (((x1 + r, y1 + r), 180), ((x2 - r, y1 + r), 270), ((x2 - r, y2 - r), 0), ((x1 + r, y2 - r), 90)):
            cv2.ellipse(mask, (cx, cy), (r, r), a, 0, 90, 255, thickness, cv2.LINE_AA)
    ink(card, mask, color, 0, 0)


def fill_rect(card: np.ndarray, box: Box, color: RGB) -> None:
    """Fill a rectangle of the card with a colour (in place; alpha untouched)."""
    x1, y1, x2, y2 = box
    card[y1:y2, x1:x2, :3] = color


def ink(card: np.ndarray, mask: np.ndarray, color: RGB, x: int, y: int) -> Box:
    """Lay `color` through `mask` onto the card with its top-left at (x, y); returns the ink box."""
    h, w = mask.shape
    H, W = card.shape[:2]
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(W, x + w), min(H, y + h)
    if x1 <= x0 or y1 <= y0:
        return (x0, y0, x0, y0)
    m = mask[y0 - y : y1 - y, x0 - x : x1 - x].astype(np.float32)[..., None] / 255.0
    region = card[y0:y1, x0:x1, :3].astype(np.float32)
    card[y0:y1, x0:x1, :3] = (region * (1 - m) + np.array(color, np.float32) * m + 0.5).astype(np.uint8)
    return (x0, y0, x1, y1)


@dataclass
class Tile:
    """A small piece of coloured ink (an index: rank plus mark) with a tight extent."""

    color: np.ndarray  # h x w x 3 uint8
    alpha: np.ndarray  # h x w uint8 ink coverage

    @property
    def size(self) -> tuple[int, int]:
        """(width, height)."""
        return self.alpha.shape[1], self.alpha.shape[0]

    def rotated180(self) -> "Tile":
        """The tile turned upside down (the bottom-right copy of an index)."""
        return Tile(self.color[::-1, ::-1].copy(), self.alpha[::-1, ::-1].copy())


def tile_column(parts: list[tuple[np.ndarray, RGB]], gap: int) -> Tile:
    """Coloured masks stacked top to bottom, centred on one column, `gap` px apart."""
    width = max(m.shape[1] for m, _ in parts)
    height = sum(m.shape[0] for m, _ in parts) + gap * (len(parts) - 1)
    color = np.zeros((height, width, 3), np.uint8)
    alpha = np.zeros((height, width), np.uint8)
    y = 0
    for m, c in parts:
        x = (width - m.shape[1]) // 2
        sl = (slice(y, y + m.shape[0]), slice(x, x + m.shape[1]))
        color[sl][m > 0] = c
        alpha[sl] = np.maximum(alpha[sl], m)
        y += m.shape[0] + gap
    return Tile(color, alpha)


def paste_tile(card: np.ndarray, tile: Tile, x: int, y: int) -> Box:
    """Lay a tile onto the card with its top-left at (x, y); returns its box."""
    h, w = tile.alpha.shape
    m = tile.alpha.astype(np.float32)[..., None] / 255.0
    region = card[y : y + h, x : x + w, :3].astype(np.float32)
    card[y : y + h, x : x + w, :3] = (region * (1 - m) + tile.color.astype(np.float32) * m + 0.5).astype(np.uint8)
    return (x, y, x + w, y + h)


def paste_corner_pair(card: np.ndarray, tile: Tile, mx: int, my: int) -> list[Box]:
    """The index at top-left (margins mx, my) and its 180-degree copy at bottom-right."""
    h, w = card.shape[:2]
    tw, th = tile.size
    top = paste_tile(card, tile, mx, my)
    bottom = paste_tile(card, tile.rotated180(), w - mx - tw, h - my - th)
    return [top, bottom]


def rotate_box_180(box: Box, width: int, height: int) -> Box:
    """Where a box lands when a width x height image turns 180 degrees."""
    x1, y1, x2, y2 = box
    return (width - x2, height - y2, width - x1, height - y1)
