"""Decks whose indices mislead the pair rules: a two-digit index printed side by side on a card laid on its long
side (a box a little taller than wide, read as an upright card's) and large indices set well inside the card (its
two corners under 1.5 index sizes apart) still make one card of a whole card's two corners."""

from collections import Counter

import pytest
from cached_photos import boxes, photo_file
from synth_cards import card_corners

from vision.corners import JoinConfig, join_corners
from vision.detection import Detection
from vision.pipe import TABLE, join_for

SIDEWAYS = "sideways_two_digit_photo.json"
CLOSE = "close_corners_photo.json"


def _counts(cards) -> Counter:
    return Counter(c.cls for c in cards)


@pytest.mark.parametrize("rank", ["10", "11", "12"])
def test_a_two_digit_card_laid_sideways_is_one_card(rank):
    # held-out round 51 side 1: a Bare Foot 11 on its long side, corners 23 x 33 px (taller than wide, as an
    # upright card's would be) with the card's diagonal running from top right to bottom left
    cards = join_corners([Detection(rank, 0.9, (971, 466, 994, 499)), Detection(rank, 0.9, (792, 592, 815, 625))])
    assert _counts(cards) == Counter({rank: 1})
    assert len(cards[0].corners) == 2


def test_a_ten_printed_over_its_suit_still_tells_how_its_card_is_turned():
    # boxes twice as tall as wide are an upright card's: a line from top right to bottom left is no such card's
    # diagonal, so the two 10s stay two cards
    cards = join_corners([Detection("10", 0.9, (967, 455, 997, 515)), Detection("10", 0.9, (788, 581, 818, 641))])
    assert _counts(cards) == Counter({"10": 2})


def test_held_out_photo_of_sideways_elevens_counts_its_cards():
    photo = photo_file(SIDEWAYS)
    found = _counts(join_for(TABLE, boxes(photo), jokers=False))
    assert found == Counter(photo["cards"])


def _close_card(cls: str, x: float, span: float) -> list[Detection]:
    """A whole card of a deck printing a large index (30 x 60 px) well inside it: the two index centres `span`
    index sizes apart along the card's diagonal."""
    dx, dy = 0.5 * span * 60, 0.866 * span * 60
    return [Detection(cls, 0.9, (x, 100, x + 30, 160)), Detection(cls, 0.9, (x + dx, 100 + dy, x + dx + 30, 160 + dy))]


def test_a_large_index_card_whose_corners_lie_under_one_and_a_half_index_sizes_apart_is_one_card():
    # two whole cards of the deck give the photo's diagonal (1.6 index sizes); the third's lies at 1.45
    dets = _close_card("K", 0, 1.6) + _close_card("Q", 300, 1.6) + _close_card("10", 600, 1.45)
    assert _counts(join_corners(dets)) == Counter({"K": 1, "Q": 1, "10": 1})
    assert _counts(join_corners(dets, JoinConfig(min_ratio=1.5)))["10"] == 2  # the floor before


def test_held_out_photo_of_close_corners_counts_its_tens():
    photo = photo_file(CLOSE)
    found = _counts(join_for(TABLE, boxes(photo), jokers=False))
    assert found["10"] == photo["cards"]["10"]
    assert found == Counter(photo["cards"])


@pytest.mark.parametrize("step", [28.0, 29.0, 30.0])
def test_neighbouring_cards_of_an_upright_column_are_not_taken_for_close_corners(step):
    # a meld fanned downwards: neighbouring indices (20 px) 1.4-1.5 index sizes apart stay separate cards
    dets = [d for k in range(6) for d in card_corners("9", 200, 100 + step * k, which="tl" if k < 5 else "both")]
    assert _counts(join_corners(dets)) == Counter({"9": 6})
