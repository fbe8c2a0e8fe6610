"""Tiling and merging of large photos, without a model."""

from vision.detection import Detection
from vision.detection import box_iou
from vision.detector import nms_merge, tile_origins


def test_tiles_cover_the_whole_length_with_overlap():
    origins = tile_origins(1500, 640, 128)
    assert origins[0] == 0 and origins[-1] == 1500 - 640
    assert all(b - a <= 640 - 128 for a, b in zip(origins, origins[1:]))


def test_small_image_is_one_tile():
    assert tile_origins(500, 640, 128) == [0]


def test_merge_keeps_the_surer_of_two_overlapping_boxes_of_one_class():
    a = Detection("7", 0.9, (100, 100, 130, 150))
    b = Detection("7", 0.6, (102, 101, 131, 151))
    c = Detection("8", 0.5, (102, 101, 131, 151))  # another class at the same place stays
    assert nms_merge([b, a, c], 0.5) == [a, c]


def test_box_iou_of_disjoint_boxes_is_zero():
    assert box_iou((0, 0, 1, 1), (2, 2, 3, 3)) == 0.0
