"""Median time per photo of the reading pipe (`vision.pipe`: detect, name, join into cards) at two sizes.

    python scripts/measure_speed.py PHOTO_DIR [--model models/cards.pt] [--count 20] [--one-reading | --no-turned]
                                    [--role leftover|table]

Each photo is scaled to 640 px on its long side, and to exactly 4000 x 3000
(12 MP); the first photo is a warm-up run at each size and is not timed (`--count` more are). Each is read
as `handfoot score` reads a photo of that `--role` (every stage up to the table layout).
`--one-reading` never reads a photo again enlarged, turned nor at another
scale (as `handfoot watch` reads its frames); `--no-turned` reads it as `score` does but never
turned (half or quarter round) nor at another scale; by default photos are read as `handfoot score` reads them
(the other ways only where the first reading is unsure of a box: `InferenceConfig.recheck_band`).
The network runs through OpenVINO where it is installed (`vision/fast_backend.py`; HANDFOOT_BACKEND=torch
for PyTorch). Prints JSON: {"backend", "640": {"photos", "median_ms", "shape"}, "12mp": {...}}.
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
from vision.pipe import LEFTOVER, READ_LAST, ROLES, Flow, Settings, run


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
    if not args.photos.is_dir():
        parser.error(f"{args.photos} is not a folder of photos")
    files = sorted(p for p in args.photos.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))[: args.count + 1]
    if len(files) < 2:
        parser.error(f"{args.photos} holds fewer than two photos (.jpg, .jpeg, .png): one is a warm-up, the rest are timed")
    settings = Settings(detect=detector.read)
    out = {"backend": detector.backend}
    for label in ("640", "12mp"):
        times, shape = [], None
        for k, path in enumerate(files):
            image = resized(load_image(path), label)
            shape = list(image.shape[:2])
            if k == 0:  # the warm-up: not timed
                run(Flow.of(image, args.role), settings, stop=READ_LAST)
                continue
            start = time.perf_counter()
            run(Flow.of(image, args.role), settings, stop=READ_LAST)
            times.append((time.perf_counter() - start) * 1000)
        out[label] = {"photos": len(times), "median_ms": round(float(np.median(times)), 1), "shape": shape}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
