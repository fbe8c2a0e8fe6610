"""Median time per photo of the full detection path (detect + join corners into cards) at two sizes.

    python scripts/measure_speed.py PHOTO_DIR [--model models/cards.pt] [--count 20] [--one-reading | --no-turned]
                                    [--role leftover|table]

Each photo is scaled to 640 px on its long side, and to exactly 4000 x 3000
(12 MP); the first photo of each size is a warm-up run and is not timed.
`--one-reading` never reads a photo again enlarged, turned nor at another
scale (as `handfoot watch` reads its frames); `--no-turned` reads it as `score` does but never
turned (half or quarter round) nor at another scale; by default photos are read as `handfoot score` reads them.
The network runs through OpenVINO where it is installed (`vision/fast_backend.py`; HANDFOOT_BACKEND=torch
for PyTorch). Corners are joined as `handfoot score` joins them for a photo of that `--role` (`join_for`, with
the second-look readers of the joining). Prints JSON: {"backend", "640": {"photos", "median_ms", "shape"}, "12mp": {...}}.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cv2
import numpy as np

from vision.detector import InferenceConfig, load_detector
from vision.imageio import load_image
from vision.pipe import LEFTOVER, ROLES, join_for


def resized(image: np.ndarray, label: str) -> np.ndarray:
    h, w = image.shape[:2]
    if label == "12mp":
        return cv2.resize(image, (4000, 3000) if w >= h else (3000, 4000), interpolation=cv2.INTER_CUBIC)
    k = 640 / max(h, w)
    return cv2.resize(image, (round(w * k), round(h * k)), interpolation=cv2.INTER_AREA)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("photos", type=Path)
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--one-reading", action="store_true", help="never read a photo again enlarged, turned nor at another scale (the live path)")
    parser.add_argument("--no-turned", action="store_true", help="never read a photo turned as well (half and quarter round) nor at another scale")
    parser.add_argument("--role", choices=ROLES, default=LEFTOVER, help="join the corners as for a photo of this kind")
    args = parser.parse_args()
    if args.one_reading:
        config = InferenceConfig(index_target=None).once()
    else:
        config = InferenceConfig().once() if args.no_turned else InferenceConfig()
    detector = load_detector(args.model, config)
    files = sorted(p for p in args.photos.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))[: args.count]
    out = {"backend": detector.backend}
    for label in ("640", "12mp"):
        times, shape = [], None
        for k, path in enumerate(files):
            image = resized(load_image(path), label)
            shape = list(image.shape[:2])
            frame = (image.shape[1], image.shape[0])
            if k == 0:
                join_for(args.role, detector.detect(image), frame=frame, image=image)  # warm-up
            start = time.perf_counter()
            join_for(args.role, detector.detect(image), frame=frame, image=image)
            times.append((time.perf_counter() - start) * 1000)
        out[label] = {"photos": len(times), "median_ms": round(float(np.median(times)), 1), "shape": shape}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
