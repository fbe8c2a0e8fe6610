"""Jokers printing a mark in all four corners. Photographed at a slant, one's face is a parallelogram, not a
rectangle, so its other two marks are found by their middle (`JoinConfig.slanted_marks`), and it is one card. Four
marks making a square are two jokers' edges, side by side or stacked, never one joker (`JoinConfig.joker_face_sides`)."""

from collections import Counter

from cached_photos import boxes, photo_file
from synth_cards import card_corners

from vision import corners
from vision.corners import JoinConfig, join_corners
from vision.detection import Detection

OFF = JoinConfig(slanted_marks=(0.0, 0.0))


def moved(det: Detection, dx: float, dy: float) -> Detection:
    x1, y1, x2, y2 = det.box
    return Detection(det.cls, det.conf, (x1 + dx, y1 + dy, x2 + dx, y2 + dy))


def naturals() -> list[Detection]:
    """Three whole cards beside the joker, so the photo's card diagonal is known."""
    return [d for k, rank in enumerate("Q9K") for d in card_corners(rank, 520 + 200 * k, 300, scale=2.0)]


def slanted_joker(shear: float = 30.0) -> list[Detection]:
    """A joker's four marks, its top-right mark `shear` up and its bottom-left one as far down: a parallelogram."""
    tl, tr, br, bl = card_corners("JOKER", 300, 300, scale=2.0, which="all")
    return [tl, br, moved(tr, 0, -shear), moved(bl, 0, shear)]


def jokers(dets: list[Detection], config: JoinConfig | None = None) -> list:
    return [c for c in join_corners(dets, config) if c.cls == "JOKER"]


def test_a_slanted_jokers_four_marks_are_one_card():
    found = jokers(slanted_joker() + naturals())
    assert len(found) == 1 and len(found[0].corners) + len(found[0].marks) == 4
    assert len(jokers(slanted_joker() + naturals(), OFF)) == 3  # the rule off: its other two marks are two jokers


def test_a_box_inside_a_slanted_jokers_face_only_is_its_own():
    # near the raised top-right mark: inside the parallelogram, outside the face as a rectangle over the pair
    figure = Detection("JOKER", 0.6, (310.0, 216.0, 330.0, 232.0))
    found = jokers(slanted_joker() + [figure] + naturals())
    assert len(found) == 1 and figure in found[0].marks
    rule_off = jokers(slanted_joker() + [figure] + naturals(), OFF)
    assert not any(figure in c.marks for c in rule_off)


def test_two_stacked_jokers_top_edges_making_a_square_are_not_one_joker():
    # two jokers in a column, the lower one step on, each showing the two marks of its top edge: the four lie
    # as a square, which no joker's face is (`joker_face_sides`)
    stacked = [d for y in (300, 390) for d in card_corners("JOKER", 300, y, scale=2.0, which="top")]
    stacked += card_corners("8", 300, 480, scale=2.0)
    assert len(jokers(stacked + naturals())) >= 2
    assert len(jokers(stacked + naturals(), JoinConfig(joker_face_sides=1.0))) == 1


def jokers_held_whole(photo: dict, config: JoinConfig | None = None, least: int = 2) -> int:
    """How many of the photo's true jokers showing `least` boxes or more come out as one card holding all of them."""
    held = [sorted(d.box for d in c.corners + c.marks) for c in jokers(boxes(photo), config)]
    return sum(sorted(tuple(b) for b in marks) in held for marks in photo["jokers"] if len(marks) >= least)


def test_held_out_slanted_jokers_are_one_card_each():
    photo = photo_file("slanted_jokers_photo.json")
    assert sum(len(marks) == 4 for marks in photo["jokers"]) == 4
    assert jokers_held_whole(photo, least=4) == 4
    assert jokers_held_whole(photo, OFF, least=4) < 4
    dets = boxes(photo)
    assert Counter(c.cls for c in join_corners(dets))["JOKER"] < Counter(c.cls for c in join_corners(dets, OFF))["JOKER"]


def test_held_out_jokers_covered_side_by_side_are_not_one_whole_joker():
    # three jokers, each covered but for its top edge's two marks; two of them lie side by side in neighbouring
    # columns, and their four marks make a square: one joker's diagonal, were they one card
    photo = photo_file("side_by_side_jokers_photo.json")
    assert jokers_held_whole(photo) == len(photo["jokers"]) == 3
    assert jokers_held_whole(photo, JoinConfig(joker_face_sides=1.0)) == 1


def test_held_out_sideways_slanted_joker_is_one_card(monkeypatch):
    # its other two marks lie on the face its pair spans: seen at a slant they are not where a rectangle puts
    # them, yet they must not keep the pair apart as another card's indices would
    photo = photo_file("sideways_joker_photo.json")
    assert jokers_held_whole(photo) == len(photo["jokers"]) == 3
    monkeypatch.setattr(corners, "_slanted_on_face", lambda *args: frozenset())
    assert jokers_held_whole(photo) == 2
