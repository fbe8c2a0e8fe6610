"""The whole-card reader judged on real labelled pairs of corners.

A YOLO set of real photos holds one deck a photo, so two labelled corner boxes
with one rank+suit name are one card's corners and two with different names
are two cards'. Every pair the joining would ask the reader about
(`could_be_one_card`) is read from the labelled boxes and compared with that
truth: how many pairs of one card read ONE, how many of two cards read APART
(at the odds the joining groups at), and the area under the ROC curve, which
does not depend on those odds.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from training.eval.sets import LabelledPhoto
from vision.detection import BACK, JOKER, Detection
from vision.imageio import load_image
from vision.whole_cards import JOIN_ODDS, WholeCardReader, could_be_one_card


@dataclass
class PairReport:
    pairs: int
    one: int  # pairs of one card's corners
    one_read_one: float  # share of them read ONE at `odds` or more
    apart_read_apart: float  # share of pairs of two cards read under `odds`
    auc: float
    odds: float

    def to_dict(self) -> dict:
        return {k: round(v, 4) if isinstance(v, float) else v for k, v in self.__dict__.items()}


def labelled_pairs(photo: LabelledPhoto) -> list[tuple[Detection, Detection, bool]]:
    """(box, box, one card?) for every two labelled corner boxes of a photo that could be one card's."""
    boxes = [(k, d) for d, k in zip(photo.detections(), photo.card_ids) if d.cls not in (JOKER, BACK)]
    return [(a, b, ka == kb) for n, (ka, a) in enumerate(boxes) for kb, b in boxes[n + 1 :] if could_be_one_card(a, b)]


def auc_of(truth: np.ndarray, odds: np.ndarray) -> float:
    """The chance that a pair of one card reads higher odds than a pair of two (ties count half)."""
    pos, neg = odds[truth], odds[~truth]
    if not len(pos) or not len(neg):
        return float("nan")
    higher = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(higher / (len(pos) * len(neg)))


def evaluate_pairs(photos: Iterable[LabelledPhoto], reader: WholeCardReader, odds: float = JOIN_ODDS) -> PairReport:
    """Read every labelled pair of every photo (module doc); photos with no pair are passed over."""
    truth, read = [], []
    for photo in photos:
        pairs = labelled_pairs(photo)
        if pairs:
            read.extend(reader.odds(load_image(photo.path), [(a, b) for a, b, _ in pairs]))
            truth.extend(one for *_, one in pairs)
    t, r = np.array(truth, dtype=bool), np.array(read, dtype=float)
    if not len(t):
        return PairReport(0, 0, float("nan"), float("nan"), float("nan"), odds)
    return PairReport(
        len(t),
        int(t.sum()),
        float((r[t] >= odds).mean()) if t.any() else float("nan"),
        float((r[~t] < odds).mean()) if (~t).any() else float("nan"),
        auc_of(t, r),
        odds,
    )
