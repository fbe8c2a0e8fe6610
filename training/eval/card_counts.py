"""Cards counted on labelled real photos, through the product's own reading path.

Each photo is read as one side's leftover photo (`read_photo`, as `handfoot score`
reads it) and the cards found are compared with the cards in it
(`LabelledPhoto.cards`: a YOLO set's distinct rank+suit names, one deck a photo; a
VOC set's whole-card boxes). This is the figure a player sees: is every card there
exactly once?
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

from handfoot.photo_round import read_photo
from training.eval.metrics import CountReport, evaluate_counts
from training.eval.rounds import LabelOracle
from training.eval.sets import LabelledPhoto
from vision.detection import BACK, Detection
from vision.pipe import LEFTOVER


class LabelledBoxes(LabelOracle):
    """Stands in for the detector with each photo's labelled corner boxes (told the photo by `seen`), so the
    cards counted measure what follows detection alone: the naming, the joining, the joker grouping."""

    def __init__(self, photos: Iterable[LabelledPhoto]) -> None:
        super().__init__()
        self.photos = {p.path: p for p in photos}

    def detect(self, image) -> list[Detection]:
        return self.photos[self.path].detections()


def evaluate_cards(photos: Iterable[LabelledPhoto], detect: Callable, seen: Callable | None = None) -> CountReport:
    """Read every photo as a leftover photo with `detect` (told each photo's path first by `seen`, as a
    detection cache needs) and count exact photos, extra and missed cards."""
    pairs, names = [], []
    for photo in photos:
        if seen is not None:
            seen(photo.path)
        read = read_photo(photo.path, LEFTOVER, "photo", detect)
        pairs.append((photo.cards, Counter(c.cls for c in read.cards if c.cls != BACK)))
        names.append(photo.path.name)
    return evaluate_counts(pairs, names)
