"""A card's two indices lie at its top-left and bottom-right corners, so on a table the line between them crosses
the card's column one way only (`JoinConfig.handed`); two corners lying the other way are two cards."""

import math
from collections import Counter

from cached_photos import boxes, miscounted, photo_file
from synth_cards import card_corners

from vision.corners import JoinConfig, _wrong_handed, join_corners
from vision.pipe import TABLE

PHOTO = "two_columns_wilds_photo.json"


def test_two_wilds_of_two_columns_are_two_cards():
    # tango62 round 1 side 2: a large-index deck (no index at its cards' far corners), so nothing tells the
    # photo's diagonal; a 2 in a column of aces and a 2 in a column of 10s lie the prior's diagonal apart, but
    # upper right to lower left of each other seen along the columns
    photo = photo_file(PHOTO)
    assert miscounted(TABLE, photo) == {}
    assert Counter(c.cls for c in join_corners(boxes(photo)))["2"] == 3
    assert Counter(c.cls for c in join_corners(boxes(photo), JoinConfig(handed=0)))["2"] == 2  # the rule off


def fan_axes(degrees: float) -> tuple[float, float, int]:
    """Five fan steps running `degrees` from level (90: down the photo), as the joining sums them."""
    twice = math.radians(2 * degrees)
    return (5 * math.cos(twice), 5 * math.sin(twice), 5)


def corner_pairs(cls: str, angle: float):
    """A card's two diagonals' index boxes, turned `angle` degrees: (top-left, bottom-right), (top-right,
    bottom-left)."""

    def at(which):
        return card_corners(cls, 300, 300, angle=angle, which=which)

    return at("both"), at("tr") + at("bl")


def test_a_card_square_to_the_photo_keeps_its_diagonal_and_refuses_the_other():
    for quarter in range(4):
        for tilt in (-20, 0, 20):
            angle = 90 * quarter + tilt
            (tl, br), (tr, bl) = corner_pairs("7", angle)
            axes = fan_axes(angle + 90)  # a column down the card's long side
            assert not _wrong_handed(tl, br, axes, JoinConfig()) and not _wrong_handed(br, tl, axes, JoinConfig())
            assert _wrong_handed(tr, bl, axes, JoinConfig()) and _wrong_handed(bl, tr, axes, JoinConfig()), angle
            assert not _wrong_handed(tr, bl, axes, JoinConfig(handed=0))


def test_cards_fanned_along_their_short_side_or_seen_at_a_slant_are_not_judged():
    (_, _), (tr, bl) = corner_pairs("7", 0)
    assert not _wrong_handed(tr, bl, fan_axes(0), JoinConfig())  # upright cards stepped sideways
    (_, _), (tr, bl) = corner_pairs("7", 45)
    assert not _wrong_handed(tr, bl, fan_axes(135), JoinConfig())  # square boxes: which side is long is unknown


def test_jokers_threes_and_lone_cards_are_not_judged():
    axes = fan_axes(90)
    for cls in ("JOKER", "3R", "3B"):
        assert not _wrong_handed(*corner_pairs(cls, 0)[1], axes, JoinConfig())
    assert not _wrong_handed(*corner_pairs("7", 0)[1], (0.0, 0.0, 0), JoinConfig())  # no fan near
