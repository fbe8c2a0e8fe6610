"""Two lone corners of one whole card: which pairs are read, which are joined, and a held-out table whose
misread corner no longer counts a card."""

from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest
from cached_photos import boxes, photo_file

from vision.detection import Card, Detection
from vision.pipe import TABLE, join_for, name_wilds
from vision.whole_cards import (
    CROP_SIZE,
    JOIN_ODDS,
    PART_ODDS,
    WholeCardReader,
    could_be_one_card,
    diagonal_crop,
    second_look,
    shipped_whole_card_reader,
)


def box(cls: str, x: float, y: float, conf: float = 0.8, w: float = 20.0, h: float = 34.0) -> Detection:
    return Detection(cls, conf, (x, y, x + w, y + h))


# a card's two corners: the top-left index and the bottom-right one, 4 index sizes apart
TOP = box("8", 100, 100, 0.81)
BOTTOM = box("5", 180, 220, 0.5)


def lone(*dets: Detection) -> list[Card]:
    return [Card(d.cls, d.conf, (d,)) for d in dets]


def test_two_corners_a_card_apart_could_be_one_card_by_size_and_span_alone():
    assert could_be_one_card(TOP, BOTTOM)
    # what geometry cannot settle (a box between, side by side, a line against the boxes' turn) the reader reads
    assert could_be_one_card(TOP, box("5", 160, 100))  # side by side, a card's width apart
    assert could_be_one_card(box("8", 180, 100), box("5", 100, 220))
    assert could_be_one_card(TOP, box("5", 180, 220, w=30, h=51))  # 1.5 times its size: a real detector's box
    # never a joker or a back, boxes over twice unalike, nor boxes too near or too far
    assert not could_be_one_card(TOP, Detection("JOKER", 0.5, BOTTOM.box))
    assert not could_be_one_card(TOP, box("5", 180, 220, w=45, h=76))
    assert not could_be_one_card(TOP, box("8", 110, 110))  # 0.4 index sizes: closer than 1.4
    assert not could_be_one_card(TOP, box("8", 400, 400))  # 12.3 index sizes: farther than 7
    assert not could_be_one_card(TOP, box("5", 180, 220, w=30, h=51), ratio=1.3)


class _Reader(WholeCardReader):
    """A stand-in reader: the odds of one card for each pair, looked up by the two boxes' left edges."""

    def __init__(self, odds: dict[tuple[float, float], float]) -> None:
        super().__init__(net=None)
        self.table = odds

    def odds(self, image, pairs):
        return np.array([self.table[tuple(sorted((a.box[0], b.box[0])))] for a, b in pairs])


IMAGE = np.zeros((400, 400, 3), dtype=np.uint8)


def test_lone_corners_read_as_one_card_are_joined_under_the_surer_corners_class():
    cards = lone(TOP, BOTTOM) + [Card("K", 0.9, (box("K", 300, 40), box("K", 360, 150)))]
    reader = _Reader({(100, 180): JOIN_ODDS, (300, 360): 0.9})
    joined = second_look(IMAGE, cards, reader)
    assert Counter(c.cls for c in joined) == Counter({"8": 1, "K": 1})
    assert next(c for c in joined if c.cls == "8").corners == (TOP, BOTTOM)
    # read under the threshold, or with no reader, the two stay two cards
    under = _Reader({(100, 180): JOIN_ODDS - 0.05, (300, 360): 0.9})
    assert Counter(c.cls for c in second_look(IMAGE, cards, under)) == Counter({"8": 1, "5": 1, "K": 1})
    assert second_look(IMAGE, cards, None) == cards


def test_a_joined_pair_read_as_two_cards_is_parted_and_its_corners_joined_again():
    # the joining took TOP with a 5 a diagonal off; the reader sees TOP and BOTTOM as one card, TOP and the 5 not
    off = box("5", 20, 220)
    cards = [Card("8", 0.81, (TOP, off))] + lone(BOTTOM)
    reader = _Reader({(20, 100): PART_ODDS - 0.01, (100, 180): 0.9, (20, 180): 0.0})
    assert sorted((c.cls, len(c.corners)) for c in second_look(IMAGE, cards, reader)) == [("5", 1), ("8", 2)]
    # a pair read at PART_ODDS or more stays as the joining made it
    kept = _Reader({(20, 100): PART_ODDS, (100, 180): 0.9, (20, 180): 0.0})
    looked = second_look(IMAGE, cards, kept)
    assert [c.corners for c in looked if c.cls == "8"] == [(TOP, off)] and len(looked) == 2


def test_each_corner_joins_once_surest_pair_first():
    other = box("8", 260, 340, 0.4)  # a card's diagonal beyond BOTTOM
    cards = lone(TOP, BOTTOM, other)
    joined = second_look(IMAGE, cards, _Reader({(100, 180): 0.95, (180, 260): 0.99, (100, 260): 0.0}))
    assert sorted((c.cls, len(c.corners)) for c in joined) == [("5", 2), ("8", 1)]


def test_two_different_wilds_are_never_one_card():
    cards = lone(box("WILD20", 100, 100), box("WILD50", 180, 220))
    assert second_look(IMAGE, cards, _Reader({})) == cards  # never read: the stand-in knows no pair


def test_four_indices_are_one_card_only_where_every_pair_reads_one():
    corners = lone(box("Q", 100, 100), box("Q", 180, 100), box("Q", 100, 220), box("Q", 180, 220))
    edges = {(100, 180): 0.97, (100, 100): 0.96, (180, 180): 0.96}  # looked up by the two boxes' left edges
    assert [len(c.corners) for c in second_look(IMAGE, corners, _Reader(edges))] == [4]
    # a chain is not a card: a corner that reads apart from one of the card's other corners is left out of it
    split = _Reader({**edges, (100, 100): 0.1})
    assert sorted(len(c.corners) for c in second_look(IMAGE, corners, split)) == [1, 3]


def test_the_crop_runs_from_the_first_box_to_the_second():
    image = np.zeros((300, 300, 3), dtype=np.uint8)
    image[:150, :150] = (0, 0, 255)  # red round the first box
    image[150:, 150:] = (255, 0, 0)  # blue round the second
    crop = diagonal_crop(image, (40, 40, 60, 70), (240, 230, 260, 260))
    assert crop.shape == (CROP_SIZE[1], CROP_SIZE[0], 3)
    middle = CROP_SIZE[1] // 2
    assert crop[middle, 2, 2] > 200 and crop[middle, -3, 0] > 200  # red at its left end, blue at its right
    flipped = diagonal_crop(image, (240, 230, 260, 260), (40, 40, 60, 70))
    assert flipped[middle, 2, 0] > 200 and flipped[middle, -3, 2] > 200


@pytest.mark.skipif(shipped_whole_card_reader() is None, reason="models/whole-cards.pt is not in this checkout")
def test_a_held_out_table_counts_a_card_with_a_misread_corner_once():
    photo = photo_file("whole_card_photo.json")
    image = cv2.imread(str(Path(__file__).parent / "whole_card_photo.jpg"))
    cards = join_for(TABLE, name_wilds(image, boxes(photo), photo["family"]))

    def miscounted(found):
        counted = Counter(c.cls for c in found)
        counted.subtract(Counter(photo["cards"]))
        return Counter({cls: n for cls, n in counted.items() if n})

    # a WILD20 and a 6 whose far corners were read as a 10 and a 5 count twice each, as four cards ...
    assert miscounted(cards) == Counter({"10": 1, "5": 1, "2": 1, "1": -1})
    # ... and once each with the reader; a 1 read as a 2 (both corners) stays
    assert miscounted(second_look(image, cards, shipped_whole_card_reader())) == Counter({"2": 1, "1": -1})
