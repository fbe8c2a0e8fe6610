"""Train the whole-card reader (`vision/whole_cards.py`) on the detector's own boxes on generated table photos.

Its examples are every pair of the detector's sure boxes (after the joining's
overlap filter, `vision.corners.deduped`) on a generated round's table photo
(`handfoot dataset rounds`, JSON `kind` "table") that `could_be_one_card`,
named ONE where both lie on one true card's corners and APART otherwise,
and cropped as the reader crops (`diagonal_crop`). The pairs the product
meets are lone corners after the joining; here every pair is taken, joined
or not, since a true one-card pair looks the same either way and there are
far more of them. Each ONE pair gives its crop plus `ONE_COPIES` copies on
jittered boxes (half of them turned half round); one round in ten is kept
back to measure the result. Both deck families are used.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from vision.corners import JoinConfig, deduped
from vision.errors import VisionError
from vision.joker_word_training import RoundPhoto, true_card_under
from vision.whole_cards import CLASSES, could_be_one_card, diagonal_crop
from vision.wild_training import HOLD_OUT_EVERY, WildCrops, jittered_box

ONE_COPIES = 3  # jittered copies of each pair on one card (pairs of two cards are far more common)
JITTER = 0.12  # share of a box: how far a copy's centre and size may stray


def pair_crops(photos: Iterable[RoundPhoto], seed: int = 0) -> WildCrops:
    """Crops of every pair of sure boxes on generated table photos that could be one card, labelled ONE or APART."""
    cfg = JoinConfig()
    rng = np.random.default_rng(seed)
    crops, labels, held = [], [], []
    for photo in photos:
        if photo.truth.get("kind") != "table":
            continue
        boxes = deduped(photo.boxes, cfg)
        owners = [true_card_under(d.box, photo.truth) for d in boxes]
        back = photo.round_number % HOLD_OUT_EVERY == 0
        for i, a in enumerate(boxes):
            for j in range(i + 1, len(boxes)):
                b = boxes[j]
                if not could_be_one_card(a, b, boxes):
                    continue
                one = owners[i] is not None and owners[i] == owners[j]
                for copy in range(1 + (ONE_COPIES if one else 0)):
                    ba, bb = (a.box, b.box) if copy == 0 else (jittered_box(a.box, rng, JITTER), jittered_box(b.box, rng, JITTER))
                    crop = diagonal_crop(photo.image, ba, bb)
                    crops.append(crop[::-1, ::-1] if copy and rng.random() < 0.5 else crop)
                    labels.append(CLASSES.index("ONE" if one else "APART"))
                    held.append(back)
    if not crops:
        raise VisionError("the photos hold no pair of boxes that could be one card: give table photos of "
                          "generated rounds (`handfoot dataset rounds`)")
    return WildCrops(np.ascontiguousarray(np.stack(crops)), np.array(labels, dtype=np.int64), np.array(held, dtype=bool),
                     CLASSES)
