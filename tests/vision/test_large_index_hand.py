"""A hand of a deck with very large indices (ornamental): a card's corners 1.5 index sizes apart still join,
down to the joining's `min_ratio`, where no other pair of the photo sets the expected span."""

import json
import math
from collections import Counter
from dataclasses import replace
from pathlib import Path

from vision.corners import HAND_PHOTO, JoinConfig, join_corners
from vision.detection import Detection

PHOTO = json.loads((Path(__file__).parent / "large_index_hand_photo.json").read_text())
BOXES = [Detection(b["cls"], 1.0, tuple(b["box"])) for b in PHOTO["boxes"]]


def test_a_large_index_cards_corners_join_in_a_hand():
    assert Counter(c.cls for c in join_corners(BOXES, HAND_PHOTO)) == Counter(PHOTO["cards"])
    # at the old cost limit (1.0: 1.55 index sizes and up) its king's corners, 1.51 apart, were two kings
    split = join_corners(BOXES, replace(HAND_PHOTO, max_cost=1.0))
    assert Counter(c.cls for c in split) - Counter(PHOTO["cards"]) == Counter({"K": 1})


def test_the_cost_limit_reaches_down_to_the_shortest_span_allowed():
    cfg = JoinConfig()
    assert cfg.diagonal_ratio / math.exp(cfg.max_cost) <= cfg.min_ratio
