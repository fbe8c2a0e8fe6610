"""In a photo of hands only a box with one side at least twice the other tells how its card is turned."""

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

from vision.corners import HAND_PHOTO, join_corners
from vision.detection import Detection

PHOTO = json.loads((Path(__file__).parent / "turned_hand_photo.json").read_text())
BOXES = [Detection(b["cls"], 1.0, tuple(b["box"])) for b in PHOTO["boxes"]]


def test_a_turned_cards_corners_in_a_hand_join_as_one_card():
    # a black 3 turned about 35 degrees: its index boxes are still half again as tall as wide, but its
    # diagonal runs straight down the photo
    assert Counter(c.cls for c in join_corners(BOXES, HAND_PHOTO)) == Counter(PHOTO["cards"])
    # trusting boxes 1.4 times as tall as wide (the tables' tolerance) split it into two black 3s
    split = join_corners(BOXES, replace(HAND_PHOTO, clear_aspect=1.4))
    assert Counter(c.cls for c in split) - Counter(PHOTO["cards"]) == Counter({"3B": 1})

