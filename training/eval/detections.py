"""Run the detector over a labelled photo set, exactly as the scoring path does."""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from training.eval.metrics import CountReport, DetectionReport, ImageEval, evaluate_counts, evaluate_detections
from training.eval.sets import PhotoSet
from vision.detection import BACK, Card, Detection

Progress = Callable[[Iterable], Iterable]


@dataclass
class Timed:
    """Detections of each photo and the milliseconds each took."""

    detections: list[list[Detection]]
    ms: list[float]

    @property
    def median_ms(self) -> float:
        return statistics.median(self.ms) if self.ms else 0.0


def run_detector(detector, photo_set: PhotoSet, progress: Progress = iter) -> Timed:
    """Detect on every photo of the set (loaded as `handfoot score` loads photos)."""
    from vision.imageio import load_image  # noqa: PLC0415

    dets, ms = [], []
    for photo in progress(photo_set.photos):
        image = load_image(photo.path)
        start = time.perf_counter()
        dets.append(detector.detect(image))
        ms.append((time.perf_counter() - start) * 1000.0)
    return Timed(dets, ms)


def eval_images(photo_set: PhotoSet, timed: Timed) -> list[ImageEval]:
    """Each photo's labels beside its detections."""
    return [ImageEval(truth=list(p.boxes), preds=[(d.cls, d.conf, d.box) for d in dets]) for p, dets in zip(photo_set.photos, timed.detections)]


def detection_report(photo_set: PhotoSet, timed: Timed) -> DetectionReport:
    """Corner-box metrics of detections against the set's labels."""
    return evaluate_detections(eval_images(photo_set, timed))


def count_report(photo_set: PhotoSet, timed: Timed, join: Callable[[list[Detection]], list[Card]]) -> CountReport:
    """Per-photo card multisets (corners joined into cards) against whole-card labels."""
    pairs = []
    for photo, dets in zip(photo_set.photos, timed.detections):
        truth = Counter(cls for cls, _ in photo.boxes)
        found = Counter(card.cls for card in join(dets) if card.cls != BACK)
        pairs.append((truth, found))
    return evaluate_counts(pairs, [photo.path.name for photo in photo_set.photos])
