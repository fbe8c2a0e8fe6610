"""Detection and card-count metrics, computed from our own predictions.

mAP follows the usual recipe: per class, predictions sorted by confidence are
matched greedily to unmatched ground-truth boxes of that class at an IoU
threshold; AP is the area under the interpolated precision-recall curve
(101-point, as COCO). mAP averages over classes that have ground truth.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

Box = tuple[float, float, float, float]
IOU_THRESHOLDS = tuple(np.round(np.arange(0.5, 0.96, 0.05), 2))


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of every box in a (N x 4 xyxy) with every box in b (M x 4)."""
    if len(a) == 0 or len(b) == 0:
        return np.zeros((len(a), len(b)))
    ix = np.clip(np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0]), 0, None)
    iy = np.clip(np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1]), 0, None)
    inter = ix * iy
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return inter / np.maximum(area_a[:, None] + area_b[None, :] - inter, 1e-9)


@dataclass
class ImageEval:
    """One image's ground truth and predictions: (class, box) and (class, conf, box)."""

    truth: list[tuple[str, Box]]
    preds: list[tuple[str, float, Box]]


@dataclass
class DetectionReport:
    images: int
    map50: float
    map50_95: float
    precision: float
    recall: float
    per_class: dict[str, dict[str, float]] = field(default_factory=dict)
    confusion: dict[str, dict[str, int]] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {
            "images": self.images,
            "map50": round(self.map50, 4),
            "map50_95": round(self.map50_95, 4),
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "per_class": {k: {m: round(v, 4) for m, v in d.items()} for k, d in self.per_class.items()},
        }


def average_precision(tp: np.ndarray, conf: np.ndarray, n_truth: int) -> float:
    """AP from per-prediction true-positive flags and confidences (101-point interpolation)."""
    if n_truth == 0:
        return float("nan")
    if len(tp) == 0:
        return 0.0
    order = np.argsort(-conf, kind="stable")
    tps = np.cumsum(tp[order])
    fps = np.cumsum(1 - tp[order])
    recall = tps / n_truth
    precision = tps / np.maximum(tps + fps, 1e-9)
    envelope = np.maximum.accumulate(precision[::-1])[::-1]
    points = np.linspace(0, 1, 101)
    idx = np.searchsorted(recall, points, side="left")
    values = np.where(idx < len(envelope), envelope[np.minimum(idx, len(envelope) - 1)], 0.0)
    return float(values.mean())


def _match(image: ImageEval, cls: str, thr: float) -> tuple[list[int], list[float]]:
    truth = np.array([b for c, b in image.truth if c == cls], dtype=float).reshape(-1, 4)
    preds = sorted([(p, b) for c, p, b in image.preds if c == cls], key=lambda x: -x[0])
    if not preds:
        return [], []
    boxes = np.array([b for _, b in preds], dtype=float)
    ious = iou_matrix(boxes, truth)
    used = np.zeros(len(truth), dtype=bool)
    flags = []
    for i in range(len(preds)):
        if len(truth):
            cand = np.where(~used, ious[i], -1.0)
            j = int(np.argmax(cand))
            if cand[j] >= thr:
                used[j] = True
                flags.append(1)
                continue
        flags.append(0)
    return flags, [p for p, _ in preds]


def evaluate_detections(images: list[ImageEval], classes: list[str] | None = None) -> DetectionReport:
    """mAP50, mAP50-95, precision and recall (at the predictions' own threshold), per class."""
    present = sorted({c for im in images for c, _ in im.truth})
    classes = classes or present
    per_class: dict[str, dict[str, float]] = {}
    aps50, aps = [], []
    total_tp = total_pred = total_truth = 0
    for cls in classes:
        n_truth = sum(1 for im in images for c, _ in im.truth if c == cls)
        ap_t = []
        for thr in IOU_THRESHOLDS:
            flags, confs = [], []
            for im in images:
                f, c = _match(im, cls, thr)
                flags += f
                confs += c
            ap = average_precision(np.array(flags, dtype=float), np.array(confs, dtype=float), n_truth)
            ap_t.append(ap)
            if thr == 0.5:
                tp50 = int(sum(flags))
                n_pred = len(flags)
        if n_truth == 0:
            continue
        per_class[cls] = {"recall": tp50 / n_truth, "ap50": ap_t[0], "truth": n_truth, "precision": tp50 / n_pred if n_pred else 0.0}
        aps50.append(ap_t[0])
        aps.append(float(np.mean(ap_t)))
        total_tp += tp50
        total_pred += n_pred
        total_truth += n_truth
    return DetectionReport(
        images=len(images),
        map50=float(np.mean(aps50)) if aps50 else 0.0,
        map50_95=float(np.mean(aps)) if aps else 0.0,
        precision=total_tp / total_pred if total_pred else 0.0,
        recall=total_tp / total_truth if total_truth else 0.0,
        per_class=per_class,
        confusion=confusion_table(images),
    )


def confusion_table(images: list[ImageEval], thr: float = 0.5) -> dict[str, dict[str, int]]:
    """For each true class, what the best-overlapping prediction called it ("missed" if none)."""
    table: dict[str, Counter] = {}
    for im in images:
        truth = np.array([b for _, b in im.truth], dtype=float).reshape(-1, 4)
        boxes = np.array([b for _, _, b in im.preds], dtype=float).reshape(-1, 4)
        ious = iou_matrix(truth, boxes)
        for i, (cls, _) in enumerate(im.truth):
            j = int(np.argmax(ious[i])) if ious.shape[1] else -1
            got = im.preds[j][0] if j >= 0 and ious[i, j] >= thr else "missed"
            table.setdefault(cls, Counter())[got] += 1
    return {k: dict(v) for k, v in sorted(table.items())}


@dataclass
class CountReport:
    images: int
    exact_photo_rate: float
    card_precision: float
    card_recall: float
    extra: int = 0  # cards found beyond the truth, over all photos
    missed: int = 0  # true cards not found, over all photos
    wrong: list[dict] = field(default_factory=list)  # {"photo", "extra", "missed"} of each photo not exact

    def to_dict(self) -> dict:
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in self.__dict__.items()}


def _spelled(cards: Counter) -> list[str]:
    return sorted(cards.elements())


def evaluate_counts(pairs: list[tuple[Counter, Counter]], names: list[str] | None = None) -> CountReport:
    """Per photo (true multiset, found multiset) of card classes -> exact rate, precision, recall, extra and
    missed cards; `names` (one a photo) label the photos listed as wrong."""
    exact = sum(1 for truth, found in pairs if truth == found)
    hit = sum(sum((truth & found).values()) for truth, found in pairs)
    n_found = sum(sum(found.values()) for _, found in pairs)
    n_truth = sum(sum(truth.values()) for truth, _ in pairs)
    names = names or [str(i) for i in range(len(pairs))]
    wrong = [
        {"photo": name, "extra": _spelled(found - truth), "missed": _spelled(truth - found)}
        for name, (truth, found) in zip(names, pairs)
        if truth != found
    ]
    return CountReport(
        images=len(pairs),
        exact_photo_rate=exact / len(pairs) if pairs else 0.0,
        card_precision=hit / n_found if n_found else 0.0,
        card_recall=hit / n_truth if n_truth else 0.0,
        extra=n_found - hit,
        missed=n_truth - hit,
        wrong=wrong,
    )
