"""A pair of corners the greedy joining took across two cards gives way to the two cards' own pairs."""

import json
from collections import Counter
from pathlib import Path

import vision.corners as corners
from vision.corners import join_corners
from vision.detection import Detection

PHOTO = json.loads((Path(__file__).parent / "two_for_one_photo.json").read_text())
BOXES = [Detection(b["cls"], 1.0, tuple(b["box"])) for b in PHOTO["boxes"]]


def test_a_held_out_tables_true_corners_join_into_its_cards(monkeypatch):
    assert Counter(c.cls for c in join_corners(BOXES)) == Counter(PHOTO["cards"])
    # without the swap the greedy pass joins one 2's corner with its neighbour's: a 2 too many
    monkeypatch.setattr(corners, "_two_for_one", lambda pairs, chosen, used, dets: chosen)
    assert Counter(c.cls for c in join_corners(BOXES)) - Counter(PHOTO["cards"]) == Counter({"2": 1})


def test_every_corner_is_kept_and_each_card_holds_at_most_two():
    cards = join_corners(BOXES)
    assert sum(len(c.corners) for c in cards) == len(BOXES)
    assert max(len(c.corners) for c in cards) == 2
