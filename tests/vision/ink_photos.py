"""Small drawn photos for the ink tests: two cards on a green table, each with an index in its corner."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

LEFT, RIGHT = (100, 60, 140, 130), (300, 60, 340, 130)  # index boxes in the photo

Draw = Callable[[np.ndarray, int, int, tuple], None]


def draw_three(img: np.ndarray, x1: int, y1: int, ink: tuple) -> None:
    """A 3 with a suit mark under it."""
    cv2.putText(img, "3", (x1 + 4, y1 + 38), cv2.FONT_HERSHEY_SIMPLEX, 1.4, ink, 4, cv2.LINE_AA)
    cv2.circle(img, (x1 + 18, y1 + 56), 9, ink, -1, cv2.LINE_AA)


def draw_foot_wild(img: np.ndarray, x1: int, y1: int, ink: tuple) -> None:
    """A W with a foot-like blot under it."""
    cv2.putText(img, "W", (x1 + 2, y1 + 34), cv2.FONT_HERSHEY_SIMPLEX, 1.1, ink, 3, cv2.LINE_AA)
    cv2.ellipse(img, (x1 + 18, y1 + 54), (10, 7), 30, 0, 360, ink, -1, cv2.LINE_AA)


def two_cards(left_ink: tuple, right_ink: tuple, draw: Draw) -> np.ndarray:
    """Two cards on a green table, the index at LEFT printed in `left_ink`, the one at RIGHT in `right_ink`."""
    img = np.zeros((300, 480, 3), np.uint8)
    img[:] = (60, 110, 40)
    for (x1, y1, _, _), ink in ((LEFT, left_ink), (RIGHT, right_ink)):
        cv2.rectangle(img, (x1 - 8, y1 - 8), (x1 + 120, y1 + 200), (235, 240, 240), -1)
        draw(img, x1, y1, ink)
    return img


def webcam(img: np.ndarray) -> np.ndarray:
    """Dim, washed out and warm: a cheap webcam under a lamp."""
    f = img.astype(np.float32)
    grey = f.mean(axis=2, keepdims=True)
    f = grey + (f - grey) * 0.5  # half the saturation
    f = (f - 128) * 0.45 + 110  # low contrast, dim
    f *= np.array([0.85, 1.0, 1.12], np.float32)  # warm cast
    return np.clip(cv2.GaussianBlur(f, (0, 0), 1.2), 0, 255).astype(np.uint8)
