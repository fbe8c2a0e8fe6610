"""Held-out photos' cached boxes kept beside the tests (`*_photo.json`), and the cards the photo path joins from them.

Each file holds one photo's sure boxes (`detections`) as the product read them and its true cards (`cards`, a
count per class), so a test can say what a rule of the joining mends by comparing the two with the rule on
and off.
"""

import json
from collections import Counter
from pathlib import Path

from vision.detection import Detection
from vision.pipe import join_for

HERE = Path(__file__).parent


def photo_file(name: str) -> dict:
    """The JSON of a photo file beside the tests."""
    return json.loads((HERE / name).read_text())


def boxes(photo: dict) -> list[Detection]:
    """A photo's cached sure boxes."""
    return [Detection(d["cls"], d["conf"], tuple(d["box"])) for d in photo["detections"]]


def miscounted(role: str, photo: dict) -> Counter:
    """Cards the photo path joins from a photo's boxes that it does not hold (negative: cards missed), by class."""
    found = Counter(c.cls for c in join_for(role, boxes(photo)))
    found.subtract(Counter(photo["cards"]))
    return Counter({cls: n for cls, n in found.items() if n})


def miscounted_without(monkeypatch, module, rule: str, role: str, photo: dict, stand_in=list) -> Counter:
    """`miscounted` with `module.rule` turned off (replaced by `stand_in`, by default one that passes the boxes on)."""
    monkeypatch.setattr(module, rule, stand_in)
    return miscounted(role, photo)
