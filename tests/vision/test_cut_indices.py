"""Index boxes cut by the photo's edge are given their neighbours' size past it, so that a card lying across
the edge is joined into one card, not counted twice."""

from cached_photos import miscounted, miscounted_without, photo_file

import vision.pipe as pipe
from vision.cut_indices import restore_cut_indices
from vision.detection import Detection
from vision.pipe import LEFTOVER, join_for

WIDTH, HEIGHT = 1400, 900


def index(cls: str, x0: float, y0: float, x1: float, y1: float) -> Detection:
    return Detection(cls, 0.9, (x0, y0, x1, y1))


def neighbours() -> list[Detection]:
    """Three whole indices, 35 by 58 px."""
    return [index(cls, 900 + 90 * n, 400, 935 + 90 * n, 458) for n, cls in enumerate(["7", "9", "K"])]


def test_an_index_cut_by_the_right_edge_is_stretched_past_it_to_its_neighbours_width():
    cut = index("3B", 1379, 683, 1400, 742)
    restored = restore_cut_indices(neighbours() + [cut], WIDTH, HEIGHT)
    assert restored[:3] == neighbours()
    assert restored[3].box == (1379, 683, 1414, 742)  # the inner side stays; height already whole
    assert restored[3].cls == "3B" and restored[3].conf == 0.9


def test_indices_cut_at_the_left_and_top_edges_grow_outwards():
    left = index("5", 0, 300, 14, 358)
    top = index("8", 500, 0, 535, 20)
    restored = restore_cut_indices(neighbours() + [left, top], WIDTH, HEIGHT)
    assert restored[3].box == (-21, 300, 14, 358)
    assert restored[4].box == (500, -38, 535, 20)


def test_whole_indices_on_the_edge_jokers_and_photos_without_whole_indices_are_left_alone():
    on_edge = index("4", 1366, 200, 1400, 257)  # touches the edge, but as wide as its neighbours
    joker = index("JOKER", 1390, 500, 1400, 540)  # a joker mark's shape says nothing of what is cut
    kept = neighbours() + [on_edge, joker]
    assert restore_cut_indices(kept, WIDTH, HEIGHT) == kept
    lone = [index("3B", 1379, 683, 1400, 742)]
    assert restore_cut_indices(lone, WIDTH, HEIGHT) == lone


def test_a_card_across_the_edge_is_one_card_when_the_photo_frame_is_given():
    whole = index("3B", 1267, 458, 1302, 516)
    cut = index("3B", 1385, 683, 1406, 742)  # the same card's lower index, cut by the photo's right edge
    boxes = [whole, cut, index("7", 1177, 434, 1212, 492)]
    assert sorted(len(c.corners) for c in join_for(LEFTOVER, boxes, jokers=False) if c.cls == "3B") == [1, 1]
    joined = [c for c in join_for(LEFTOVER, boxes, jokers=False, frame=(1406, 937)) if c.cls == "3B"]
    assert len(joined) == 1 and len(joined[0].corners) == 2


def test_held_out_hand_photo_counts_its_two_black_threes(monkeypatch):
    photo = photo_file("cut_index_photo.json")
    assert miscounted(LEFTOVER, photo) == {}
    assert miscounted_without(monkeypatch, pipe, "restore_cut_indices", LEFTOVER, photo, stand_in=lambda dets, width, height: list(dets)) == {"3B": 1}
