"""The README's example picture: a table photo beside what handfoot read from it.

    python scripts/example_picture.py PHOTO ANNOTATED OUT [--height 700]

ANNOTATED is the `*.annotated.jpg` that `handfoot score ... --out DIR` wrote
for PHOTO. Both are scaled to the same height and put side by side.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from vision.annotate import save_image
from vision.imageio import load_image


def side_by_side(left: np.ndarray, right: np.ndarray, height: int, gap: int = 8) -> np.ndarray:
    def scaled(image: np.ndarray) -> np.ndarray:
        k = height / image.shape[0]
        return cv2.resize(image, (round(image.shape[1] * k), height), interpolation=cv2.INTER_AREA)

    a, b = scaled(left), scaled(right)
    return np.hstack([a, np.full((height, gap, 3), 255, np.uint8), b])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("photo", type=Path)
    parser.add_argument("annotated", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--height", type=int, default=700)
    args = parser.parse_args()
    save_image(args.out, side_by_side(load_image(args.photo), load_image(args.annotated), args.height))


if __name__ == "__main__":
    main()
