"""What the detector got wrong, as pictures: a sheet of crops around each failure.

A true corner box fails when no detection at the product's confidence covers
it (IoU >= 0.5) with the right class: it was missed, or read as another class.
A detection that overlaps no true box (IoU under half that) is an extra.

One failure of that count is the label's, not the detector's: a detection of
the right class boxing the same index, only fitted tighter or looser than the
label (one box lies almost whole inside the other, at an IoU of at least half
the threshold, which also keeps its detection from counting as an extra). It
is counted apart as "boxed unlike its label" (found `BOXED`). Some real sets
label an index with a wide margin around rank and suit where our generator
boxes its ink (models/README.md, "Corner boxes fitted unlike the real
labels").

Each crop shows the box with some of the card around it, labelled
"truth>found".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from training.eval.metrics import Box, ImageEval, iou_matrix
from vision.detection import share_inside

MISSED = "-"  # what a missed box was "read as" in a failure's label
BOXED = "box"  # what a true box was "read as" where the right class boxes its index, fitted unlike the label

# A detection of the right class boxes the same index as a label, fitted unlike it, where this share of the
# smaller box lies inside the other (and their IoU reaches half the matching threshold).
INSIDE = 0.8


@dataclass(frozen=True)
class Failure:
    """One failure: the photo it is in, the box to show and what went wrong."""

    image: int  # index into the evaluated photos
    box: Box
    truth: str  # the true class, "" for an extra detection
    found: str  # the class read there, MISSED when nothing was

    @property
    def label(self) -> str:
        return f"{self.truth or 'none'}>{self.found}"


def find_failures(images: Sequence[ImageEval], conf: float, iou: float = 0.5) -> list[Failure]:
    """Every missed, misread, extra and differently boxed (`BOXED`) box, photo by photo, counting detections at
    `conf` or more."""
    out: list[Failure] = []
    for k, im in enumerate(images):
        preds = [p for p in im.preds if p[1] >= conf]
        truth = np.array([b for _, b in im.truth], dtype=float).reshape(-1, 4)
        boxes = np.array([b for _, _, b in preds], dtype=float).reshape(-1, 4)
        ious = iou_matrix(truth, boxes)
        # a detection matching a label of its class is no other label's index
        taken = {j for i, (cls, _) in enumerate(im.truth) for j in range(len(preds)) if ious[i, j] >= iou and preds[j][0] == cls}
        boxed: set[int] = set()  # detections taken as a label's index, boxed unlike it
        for i, (cls, box) in enumerate(im.truth):
            hits = [j for j in range(len(preds)) if ious[i, j] >= iou]
            if any(preds[j][0] == cls for j in hits):
                continue
            alike = [
                j
                for j in range(len(preds))
                if j not in taken
                and j not in boxed
                and preds[j][0] == cls
                and ious[i, j] >= iou / 2
                and max(share_inside(box, preds[j][2]), share_inside(preds[j][2], box)) >= INSIDE
            ]
            if alike:
                boxed.add(max(alike, key=lambda j: ious[i, j]))
                out.append(Failure(k, box, cls, BOXED))
                continue
            found = preds[max(hits, key=lambda j: ious[i, j])][0] if hits else MISSED
            out.append(Failure(k, box, cls, found))
        for j, (cls, _, box) in enumerate(preds):
            if not len(truth) or ious[:, j].max() < iou / 2:
                out.append(Failure(k, box, "", cls))
    return out


def failure_kind(failure: Failure) -> str:
    """ "missed", "misread", "boxed" (found and named right, boxed unlike its label) or "extra"."""
    if not failure.truth:
        return "extra"
    return {MISSED: "missed", BOXED: "boxed"}.get(failure.found, "misread")


def pick_evenly(failures: Sequence[Failure], limit: int) -> list[Failure]:
    """At most `limit` failures spread over the whole list (not just the first photos)."""
    if len(failures) <= limit:
        return list(failures)
    step = len(failures) / limit
    return [failures[int(i * step)] for i in range(limit)]


def crop_around(image: np.ndarray, box: Box, cell: int, pad: float = 0.8) -> np.ndarray:
    """A cell x cell picture of the box and `pad` box sizes around it, the box outlined."""
    import cv2  # noqa: PLC0415

    h, w = image.shape[:2]
    x1, y1, x2, y2 = box
    side = max(x2 - x1, y2 - y1) * (1.0 + 2.0 * pad)
    cx, cy = (x1 + x2) / 2.0, (y1 + y2) / 2.0
    left, top = int(max(0, cx - side / 2)), int(max(0, cy - side / 2))
    right, bottom = int(min(w, cx + side / 2)), int(min(h, cy + side / 2))
    patch = image[top : max(bottom, top + 1), left : max(right, left + 1)].copy()
    cv2.rectangle(patch, (int(x1 - left), int(y1 - top)), (int(x2 - left), int(y2 - top)), (0, 0, 255), 1)
    scale = cell / max(patch.shape[:2])
    patch = cv2.resize(patch, (max(1, round(patch.shape[1] * scale)), max(1, round(patch.shape[0] * scale))))
    out = np.full((cell, cell, 3), 255, np.uint8)
    out[: patch.shape[0], : patch.shape[1]] = patch
    return out


def failure_sheet(failures: Sequence[Failure], load: Callable[[int], np.ndarray], cell: int = 112, columns: int = 8) -> np.ndarray:
    """A contact sheet: one labelled crop per failure, `columns` to a row."""
    import cv2  # noqa: PLC0415

    label_h = 18
    rows = max(1, -(-len(failures) // columns))
    sheet = np.full((rows * (cell + label_h), columns * cell, 3), 255, np.uint8)
    cache: dict[int, np.ndarray] = {}
    for n, f in enumerate(failures):
        if f.image not in cache:
            cache.clear()  # failures come photo by photo: keep one photo in memory
            cache[f.image] = load(f.image)
        r, c = divmod(n, columns)
        y, x = r * (cell + label_h), c * cell
        sheet[y : y + cell, x : x + cell] = crop_around(cache[f.image], f.box, cell)
        cv2.putText(sheet, f.label, (x + 3, y + cell + 13), cv2.FONT_HERSHEY_SIMPLEX, 0.42, (0, 0, 0), 1, cv2.LINE_AA)
    return sheet
