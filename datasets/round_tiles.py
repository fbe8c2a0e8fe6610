"""Training tiles cut from scored-round photos, at the scale the detector reads each photo.

`handfoot dataset rounds` writes photos laid out by the photo conventions, with every
visible corner index labelled (`round-XXX-sideN-*.json`). `dataset build` frames cut at
native scale show indices of every size; the product instead reads a photo at a working
scale chosen from its indices (`vision.detector`: long side at most 1,280 px, then
enlarged or shrunk towards the index height it reads best), and also turned half and a
quarter round and at three quarters of that scale. These tiles show round photos the way
those readings do: each photo is scaled by `scale_of` (its true index sizes in, the
working scale out), times a reading share and a little jitter, turned as one of the
readings is, then cut into tiles as `dataset build` cuts frames.

Photos of rounds whose number is a multiple of `val_every` are kept whole (scaled the
same way, not turned) for validation, the first `val_photos` of them; the rest of
those rounds' photos are left out. Deterministic per seed: photo `i` of the sorted
list draws from the random generator `[seed, i]`.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import cv2
import numpy as np

from datasets.build import data_yaml, write_jpeg
from datasets.scenes.tiles import cut_tiles, yolo_lines
from scoring.detection_classes import CLASS_ID

TILE_QUALITY = 90  # leg 31's tiles were written at 90 (dataset build's at 92)
SHARES = (1.0, 0.75)  # the readings' scales: as read, and the fourth reading's three quarters
SHARE_P = (0.75, 0.25)
TURNS = (0, 180, 90)  # as is, and the two turned readings
TURN_P = (0.5, 0.25, 0.25)
JITTER = 0.1  # each scale also varies by up to this share either way

ScaleOf = Callable[[list[float], int, int], float]  # (index sizes, width, height) -> working scale


def round_photos(folders: Sequence[Path]) -> list[Path]:
    """Every labelled round photo in `folders` (sorted; their `.json` beside them)."""
    photos = []
    for folder in folders:
        photos += sorted(p for p in Path(folder).glob("round-*-side*-*.jpg") if p.with_suffix(".json").is_file())
    return photos


def _round_number(photo: Path) -> int:
    return int(photo.name.split("-")[1])


def _labels(meta: dict) -> list[tuple[str, tuple[float, float, float, float]]]:
    return [(lab["cls"], tuple(float(v) for v in lab["box"])) for lab in meta["labels"]]


def _scaled(image: np.ndarray, labels: list, scale: float) -> tuple[np.ndarray, list]:
    if scale == 1.0:
        return image, labels
    h, w = image.shape[:2]
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    image = cv2.resize(image, size, interpolation=cv2.INTER_AREA if scale < 1.0 else cv2.INTER_CUBIC)
    return image, [(c, tuple(v * scale for v in box)) for c, box in labels]


def turn(image: np.ndarray, labels: list, degrees: int) -> tuple[np.ndarray, list]:
    """The image turned clockwise by 0, 90, 180 or 270 degrees, its boxes moved with it."""
    h, w = image.shape[:2]
    if degrees == 0:
        return image, labels
    if degrees == 180:
        return cv2.rotate(image, cv2.ROTATE_180), [(c, (w - x2, h - y2, w - x1, h - y1)) for c, (x1, y1, x2, y2) in labels]
    if degrees == 90:
        return cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE), [(c, (h - y2, x1, h - y1, x2)) for c, (x1, y1, x2, y2) in labels]
    if degrees == 270:
        return (cv2.rotate(image, cv2.ROTATE_90_COUNTERCLOCKWISE), [(c, (y1, w - x2, y2, w - x1)) for c, (x1, y1, x2, y2) in labels])
    raise ValueError(f"turn by 0, 90, 180 or 270 degrees, not {degrees}")


def _read(photo: Path, scale_of: ScaleOf) -> tuple[np.ndarray, list, float]:
    image = cv2.imread(str(photo))
    if image is None:
        raise ValueError(f"could not read {photo}")
    labels = _labels(json.loads(photo.with_suffix(".json").read_text()))
    h, w = image.shape[:2]
    return image, labels, scale_of([max(x2 - x1, y2 - y1) for _, (x1, y1, x2, y2) in labels], w, h)


def _stem(photo: Path) -> str:
    return f"{photo.parent.name}-{photo.stem}"


def _val_photo(photo: Path, out: Path, scale_of: ScaleOf) -> Counter:
    """The photo whole, at its working scale, as a validation image; its counts."""
    image, labels, scale = _read(photo, scale_of)
    work, work_labels = _scaled(image, labels, scale)
    write_jpeg(out / "val" / "images" / f"{_stem(photo)}.jpg", work, TILE_QUALITY)
    lines = yolo_lines(work_labels, work.shape[1], work.shape[0], CLASS_ID)
    (out / "val" / "labels" / f"{_stem(photo)}.txt").write_text("".join(f"{line}\n" for line in lines))
    return Counter(val_images=1, val_boxes=len(lines))


def _train_tiles(photo: Path, out: Path, scale_of: ScaleOf, rng: np.random.Generator, tile: int, classes: Counter) -> Counter:
    """The photo scaled as one reading of it, turned, and cut into training tiles; their counts."""
    image, labels, scale = _read(photo, scale_of)
    share = SHARES[int(rng.choice(len(SHARES), p=SHARE_P))] * rng.uniform(1 - JITTER, 1 + JITTER)
    work, work_labels = _scaled(image, labels, scale * share)
    work, work_labels = turn(work, work_labels, TURNS[int(rng.choice(len(TURNS), p=TURN_P))])
    counts = Counter(train_photos=1)
    for t, cut in enumerate(cut_tiles(work, work_labels, rng, tile)):
        tstem = f"{_stem(photo)}-t{t:02d}"
        write_jpeg(out / "train" / "images" / f"{tstem}.jpg", cut.image, TILE_QUALITY)
        lines = yolo_lines(cut.labels, tile, tile, CLASS_ID)
        (out / "train" / "labels" / f"{tstem}.txt").write_text("".join(f"{line}\n" for line in lines))
        counts.update(train_tiles=1, train_boxes=len(lines), empty_tiles=0 if lines else 1)
        classes.update(c for c, _ in cut.labels)
    return counts


def build_round_tiles(
    folders: Sequence[Path],
    out: Path,
    scale_of: ScaleOf,
    seed: int = 1,
    tile: int = 320,
    val_every: int = 10,
    val_photos: int = 60,
    max_photos: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """Write a YOLO data set of tiles cut from the round photos in `folders` into `out`; returns counts.

    `scale_of(sizes, width, height)` gives a photo's working scale from its labelled index sizes (longer box
    side, px) and size. `max_photos` reads only that many photos, drawn at random.
    """
    t0 = time.perf_counter()
    out = Path(out)
    for sub in ("train/images", "train/labels", "val/images", "val/labels"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    photos = round_photos(folders)
    if not photos:
        raise ValueError("no labelled round photos (round-XXX-sideN-*.jpg with .json) in " + ", ".join(str(f) for f in folders))
    order = np.random.default_rng([seed, 999]).permutation(len(photos))
    if max_photos is not None:
        order = order[:max_photos]
    counts: Counter = Counter()
    classes: Counter = Counter()
    for done, i in enumerate(sorted(int(k) for k in order), 1):
        photo = photos[i]
        if _round_number(photo) % val_every != 0:
            counts += _train_tiles(photo, out, scale_of, np.random.default_rng([seed, i]), tile, classes)
        elif counts["val_images"] < val_photos:
            counts += _val_photo(photo, out, scale_of)
        if progress:
            progress(done, len(order))
    (out / "data.yaml").write_text(data_yaml(out))
    summary = {
        **counts,
        "classes": dict(classes),
        "seconds": round(time.perf_counter() - t0, 1),
        "sources": [str(f) for f in folders],
        "seed": seed,
        "tile": tile,
    }
    (out / "build.json").write_text(json.dumps(summary, indent=1))
    return summary
