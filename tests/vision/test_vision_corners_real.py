"""Corner joining on the real labelled photos: the labelled corner boxes stand in
for a perfect detector, and one deck means each rank+suit label is one card."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from scoring.detection_classes import map_dataset_name
from vision.corners import join_corners
from vision.detection import Detection


def _rates(folder: Path) -> tuple[float, int]:
    names = eval(re.search(r"names:\s*(\[.*\])", (folder / "data.yaml").read_text()).group(1))  # noqa: S307
    exact = total = 0
    for label in sorted((folder / "labels").glob("*.txt")):
        images = list((folder / "images").glob(label.stem + ".*"))
        if not images:
            continue
        width, height = Image.open(images[0]).size
        dets, cards = [], set()
        for line in label.read_text().splitlines():
            parts = line.split()
            if len(parts) < 5:
                continue
            raw = names[int(parts[0])]
            cls = map_dataset_name(raw)
            if cls is None:
                continue
            x, y, w, h = (float(v) for v in parts[1:5])
            box = ((x - w / 2) * width, (y - h / 2) * height, (x + w / 2) * width, (y + h / 2) * height)
            dets.append(Detection(cls, 0.9, box))
            cards.add((raw, cls))
        truth = Counter(cls for _, cls in cards)
        got = Counter(c.cls for c in join_corners(dets))
        total += 1
        exact += got == truth
    return exact / max(total, 1), total


@pytest.mark.realphotos
@pytest.mark.parametrize("subset, floor", [("closeup-phone", 0.84), ("table-webcam", 0.5)])
def test_real_corner_labels_join_into_the_right_card_counts(real_photos, subset, floor):
    folder = real_photos / subset
    if not folder.is_dir():
        pytest.skip(f"{folder} missing")
    rate, total = _rates(folder)
    assert total > 0
    # measured 0.870 (381/438) and 0.513 (20/39) on 2026-11-29 (0.590 in an
    # earlier session). Close-ups are taken a hand's width from the card (the
    # two corners differ in shape by perspective); table-webcam photos are
    # stretched to 640x640 and overlap at random, which bends the card
    # geometry the joiner relies on.
    assert rate >= floor
