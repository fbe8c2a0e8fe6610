"""Train the joker-word reader (`vision/joker_words.py`, `word_jokers`) on the detector's own J boxes.

The box it has to judge is one the detector draws: on a jack's index, or on
the first letter of a joker's word ("Joker" across `aisleriot-tango-nuevo`'s
top, down `aisleriot-tango`'s corner), which a true-label crop never shows.
So its examples are the detector's sure J boxes on generated round photos
(`handfoot dataset rounds`) of the standard family, each named by the true
corner it lies on (a jack's or a joker's; a box on neither is left out), and
cropped as the reader crops (`READERS["joker-words"]`: three times the box).
Each box gives its own crop and jittered, turned copies, more of them for the
rare jokers; one round in ten is kept back to measure the result.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np

from training.progress import Progress, Say, silent, unshown
from training.reader_net import HOLD_OUT_EVERY, WildCrops, jittered_box
from training.round_photos import DetectSource, RoundPhoto, reader_trained
from vision.detection import JOKER, box_iou, share_inside
from vision.errors import VisionError
from vision.wild_reader import READERS, crop_index, save_wild_reader

KIND = "joker-words"
JITTER = 0.15  # share of the box: how far a copy's centre and size may stray
JOKER_COPIES = 11  # jittered, turned copies of each box on a joker ...
JACK_COPIES = 3  # ... and of each box on a jack
ON_CORNER_IOU = 0.3  # a box lies on a true corner it overlaps this much ...
ON_CORNER_INSIDE = 0.6  # ... or lies this much within (a letter of a joker's word)


def true_card_under(box: tuple[float, float, float, float], truth: dict) -> int | None:
    """The index (in the JSON's `cards`) of the true card whose corner the box lies on (the last such corner in
    the JSON), or None."""
    hit = None
    for n, card in enumerate(truth.get("cards", [])):
        for corner in card.get("corners", []):
            if box_iou(box, tuple(corner)) > ON_CORNER_IOU or share_inside(box, tuple(corner)) > ON_CORNER_INSIDE:
                hit = n
    return hit


def true_class_under(box: tuple[float, float, float, float], truth: dict) -> str | None:
    """The class of the true card whose corner the box lies on (`true_card_under`), or None."""
    hit = true_card_under(box, truth)
    return None if hit is None else truth["cards"][hit]["cls"]


def _copy(box: tuple[float, float, float, float], rng: np.random.Generator) -> tuple[tuple[float, ...], float]:
    """A jittered copy of `box` and the angle (any) its crop is turned by."""
    return jittered_box(box, rng, JITTER), float(rng.uniform(-180, 180))


def word_crops(photos: Iterable[RoundPhoto], seed: int = 0) -> WildCrops:
    """Crops of every sure J box lying on a true jack or joker corner in photos of the reader's families (Remastered
    too: its jacks are jacks, and the fiftieth session's J-or-joker reader, never shown them, called them jokers),
    labelled J or JOKER."""
    spec = READERS[KIND]
    rng = np.random.default_rng(seed)
    crops, labels, held = [], [], []
    for photo in photos:
        if photo.truth.get("family") not in spec.families:
            continue
        back = photo.round_number % HOLD_OUT_EVERY == 0
        for det in photo.boxes:
            cls = true_class_under(det.box, photo.truth) if det.cls == "J" else None
            if cls not in spec.classes:
                continue
            views = [(det.box, 0.0)] + [_copy(det.box, rng) for _ in range(JOKER_COPIES if cls == JOKER else JACK_COPIES)]
            for box, angle in views:
                crops.append(crop_index(photo.image, box, spec.size, spec.margin, angle))
                labels.append(spec.classes.index(cls))
                held.append(back)
    if not crops:
        raise VisionError(
            "the photos hold no J box of the detector's on a jack or a joker: give round photos (`handfoot dataset rounds`) of traditional decks"
        )
    return WildCrops(np.stack(crops), np.array(labels, dtype=np.int64), np.array(held, dtype=bool), spec.classes)


def rebuild(
    folders: list[Path],
    detection: DetectSource,
    out: Path | None = None,
    epochs: int = 15,
    seed: int = 0,
    progress: Progress = unshown,
    say: Say = silent,
) -> Path:
    """Train the joker-word reader (`handfoot train-joker-words`) on the detector's J boxes in the round photos of
    `folders` (never the held-out rounds) and write it to `out` (default: models/joker-words.pt)."""
    spec = READERS[KIND]
    net, data, facts = reader_trained(folders, detection, epochs, seed, "detecting J boxes", word_crops, width=spec.width, progress=progress, say=say)
    path = save_wild_reader(net, out if out is not None else spec.weights, {"reader": KIND, **facts}, data.classes, spec.size, spec.margin)
    say(f"wrote {path} (held-out accuracy {facts['held_out_accuracy'][-1]:.4f})")
    return path
