"""Train the index readers (`vision/wild_reader.py`: models/ranks.pt, wilds.pt, foot-wilds.pt) on generated frames.

Its examples are the corners of the reader's classes in `handfoot dataset
build` frames, or `handfoot dataset rounds` photos, of the deck families it
reads (Remastered wilds; Bare Foot wilds and clothing cards; traditional and
Remastered ranks): each frame's (or photo's) JSON names every card, its deck
family and its corner boxes. Each corner gives one crop on its true box and
`jittered` more on boxes shifted and scaled by up to `JITTER` of the box (as
the detector's boxes sit), and one frame in ten (one round in ten: all its
photos) is kept back to measure the result. Nothing here is a real
photo: the readers never learn from the real sets.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

from training.reader_net import HOLD_OUT_EVERY, WildCrops, jittered_box
from vision.errors import VisionError
from vision.wild_reader import READERS, crop_index


def _frame_number(path: Path) -> int:
    """A build frame's number (img-000123: 123), or a round photo's round (round-012-side1-table: 12)."""
    stem = path.stem.split("-side")[0] if path.stem.startswith("round-") else path.stem
    digits = "".join(ch for ch in stem if ch.isdigit())
    return int(digits) if digits else 0


def example_files(folders: Iterable[Path]) -> list[Path]:
    """The frame JSONs of build folders (frames/img-*.json) and the photo JSONs of round folders
    (round-*-*.json), in order."""
    files = []
    for folder in map(Path, folders):
        frames = folder / "frames"
        files += sorted(frames.glob("img-*.json")) if frames.is_dir() else sorted(folder.glob("round-*-*.json"))
    return files


def wild_crops(builds: Iterable[Path], jittered: int = 2, seed: int = 0,
               progress: Callable[[list[Path]], Iterable[Path]] | None = None,
               reader: str = "wilds") -> WildCrops:
    """Every face-up corner of the `reader`'s classes (a key of READERS) in the builds' frames of the deck
    families it reads, cropped as the reader crops."""
    import cv2  # noqa: PLC0415

    classes, families = READERS[reader].classes, READERS[reader].families
    rng = np.random.default_rng(seed)
    files = example_files(builds)
    if not files:
        raise VisionError("no frames found: give folders made by `handfoot dataset build` or `handfoot dataset rounds`")
    crops, labels, held = [], [], []
    for file in progress(files) if progress else files:
        try:
            frame = json.loads(file.read_text(encoding="utf-8"))
            if frame.get("family") not in families:
                continue
            corners = [(c["cls"], box) for c in frame["cards"] if c["cls"] in classes and not c["face_down"]
                       for box in c["corners"]]
        except (ValueError, KeyError, TypeError) as exc:
            raise VisionError(f"{file}: not a frame JSON that `handfoot dataset build` or `rounds` wrote ({exc})") from exc
        if not corners:
            continue
        image = cv2.imread(str(file.with_suffix(".jpg")))
        if image is None:
            raise VisionError(f"{file.with_suffix('.jpg')}: missing or unreadable frame image")
        back = _frame_number(file) % HOLD_OUT_EVERY == 0
        for cls, box in corners:
            for copy in range(1 + jittered):
                crops.append(crop_index(image, tuple(box) if copy == 0 else jittered_box(box, rng)))
                labels.append(classes.index(cls))
                held.append(back)
    if not crops:
        raise VisionError(f"the frames hold no corners of {', '.join(classes)} in {' or '.join(families)} scenes "
                          f"(build with {' or '.join(families)} scenes)")
    return WildCrops(np.stack(crops), np.array(labels, dtype=np.int64), np.array(held, dtype=bool), classes)
