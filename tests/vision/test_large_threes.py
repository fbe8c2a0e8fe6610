"""A row of red 3s of a deck printing large indices beside another deck's melds: the threes' own short span is
expected too (`JoinConfig.short_threes`), so each 3 is one card, not two."""

from dataclasses import replace

from cached_photos import boxes, miscounted, photo_file
from synth_cards import card_corners, column, shrunk

from vision.corners import HAND_PHOTO, JoinConfig, join_corners
from vision.pipe import TABLE

PHOTO = "large_threes_photo.json"


def corners_per_three(dets, config: JoinConfig | None = None) -> list[int]:
    return sorted(len(c.corners) for c in join_corners(dets, config) if c.cls == "3R")


def test_held_out_threes_of_a_large_index_deck_are_one_card_each():
    photo = photo_file(PHOTO)
    assert miscounted(TABLE, photo) == {}
    assert corners_per_three(boxes(photo)) == [2, 2, 2]
    assert corners_per_three(boxes(photo), JoinConfig(short_threes=1.0)) == [1] * 6  # the rule off: split


def large_threes_table() -> list:
    """Three whole red 3s in a row, their indices 2.2 times as large as the rest's (diagonal 1.8 index sizes
    against 3.9), above five columns of naturals whose last cards are whole."""
    threes = [shrunk(d, 2.2) for k in range(3) for d in card_corners("3R", 100 + 75 * k, 60)]
    melds = [d for k, rank in enumerate("8564K") for d in column([rank] * 3, 100 + 75 * k, 200)]
    return threes + melds


def test_a_row_of_large_threes_on_a_table_is_one_card_each():
    dets = large_threes_table()
    assert corners_per_three(dets) == [2, 2, 2]
    assert corners_per_three(dets, JoinConfig(short_threes=1.0)) == [1] * 6


def test_threes_in_a_hand_expect_no_shorter_span():
    # a hand fans its threes: their short pairs there may be fan steps, so hands keep the photo's one ratio
    dets = large_threes_table()
    assert corners_per_three(dets, HAND_PHOTO) == corners_per_three(dets, replace(HAND_PHOTO, short_threes=1.0))
