"""A detected 3 is named by its ink where the ink is clearly red or black (vision/ink.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scoring.classes import CLASS_NAMES
from vision.detection import Detection
from vision.detector import Detector, InferenceConfig
from vision.ink import ink_class, ink_redness, recolour_threes

RED, BLACK = (30, 30, 200), (25, 25, 25)  # BGR inks
LEFT, RIGHT = (100, 60, 140, 130), (300, 60, 340, 130)  # index boxes in the photo


def _photo(left_ink=RED, right_ink=BLACK) -> np.ndarray:
    """Two cards on a green table, each with a 3 and a suit mark printed in its top-left corner."""
    img = np.zeros((300, 480, 3), np.uint8)
    img[:] = (60, 110, 40)
    for (x1, y1, _, _), ink in ((LEFT, left_ink), (RIGHT, right_ink)):
        cv2.rectangle(img, (x1 - 8, y1 - 8), (x1 + 120, y1 + 200), (235, 240, 240), -1)
        cv2.putText(img, "3", (x1 + 4, y1 + 38), cv2.FONT_HERSHEY_SIMPLEX, 1.4, ink, 4, cv2.LINE_AA)
        cv2.circle(img, (x1 + 18, y1 + 56), 9, ink, -1, cv2.LINE_AA)
    return img


def _webcam(img: np.ndarray) -> np.ndarray:
    """Dim, washed out and warm: a cheap webcam under a lamp."""
    f = img.astype(np.float32)
    grey = f.mean(axis=2, keepdims=True)
    f = grey + (f - grey) * 0.5  # half the saturation
    f = (f - 128) * 0.45 + 110  # low contrast, dim
    f *= np.array([0.85, 1.0, 1.12], np.float32)  # warm cast
    return np.clip(cv2.GaussianBlur(f, (0, 0), 1.2), 0, 255).astype(np.uint8)


def _crop(img, box):
    x1, y1, x2, y2 = box
    return img[y1:y2, x1:x2]


class _FixedModel:
    """Reports the same boxes, in the photo's pixels, for every image it is given."""

    names = {i: n for i, n in enumerate(CLASS_NAMES)}

    def __init__(self, rows):
        self.rows = rows

    def predict(self, crops, imgsz, **_):
        import torch

        class _Boxes:
            xyxy = torch.tensor([r[:4] for r in self.rows], dtype=torch.float32).reshape(-1, 4)
            conf = torch.tensor([r[4] for r in self.rows], dtype=torch.float32)
            cls = torch.tensor([CLASS_NAMES.index(r[5]) for r in self.rows], dtype=torch.float32)

        class _Result:
            boxes = _Boxes()

        return [_Result() for _ in crops]


def _detect(photo, rows, **config):
    return Detector(_FixedModel(rows), InferenceConfig(coarse_scale=None, **config)).detect(photo)


def test_red_ink_reads_far_redder_than_black_ink_in_a_sharp_and_in_a_webcam_photo():
    for img in (_photo(), _webcam(_photo())):
        assert ink_class(img, Detection("3R", 0.9, LEFT)) == "3R"
        assert ink_class(img, Detection("3R", 0.9, RIGHT)) == "3B"
    assert ink_redness(_crop(_photo(), LEFT)) > 0.5 > 0.02 > ink_redness(_crop(_photo(), RIGHT))


def test_a_black_three_the_model_calls_red_is_reported_as_black():
    rows = [[*LEFT, 0.8, "3R"], [*RIGHT, 0.7, "3R"], [20, 20, 40, 50, 0.9, "8"]]
    found = {d.box[0]: d for d in _detect(_webcam(_photo()), rows)}
    assert found[LEFT[0]].cls == "3R" and found[RIGHT[0]].cls == "3B"
    assert found[RIGHT[0]].conf == pytest.approx(0.7)  # the model's confidence is kept
    assert found[20].cls == "8"  # only 3s are looked at


def test_a_red_three_the_model_calls_black_is_reported_as_red():
    found = _detect(_photo(), [[*LEFT, 0.6, "3B"]])
    assert [d.cls for d in found] == ["3R"]


def test_in_a_grey_photo_the_model_keeps_its_word():
    grey = cv2.cvtColor(cv2.cvtColor(_photo(), cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    found = _detect(grey, [[*LEFT, 0.8, "3B"], [*RIGHT, 0.7, "3R"]])
    assert sorted((d.box[0], d.cls) for d in found) == [(LEFT[0], "3B"), (RIGHT[0], "3R")]


def test_with_the_ink_check_off_the_model_keeps_its_word():
    found = _detect(_photo(), [[*RIGHT, 0.7, "3R"]], ink_threes=False)
    assert [d.cls for d in found] == ["3R"]


def test_ink_between_red_and_black_leaves_the_model_its_word():
    brown = (40, 55, 95)  # a dull red-brown: redder than black, far from a red suit's ink
    img = _photo(left_ink=brown)
    redness = ink_redness(_crop(img, LEFT))
    assert 0.06 < redness < 0.25
    assert recolour_threes(img, [Detection("3B", 0.5, LEFT)]) == [Detection("3B", 0.5, LEFT)]


def test_two_boxes_on_one_black_three_become_one_black_three():
    # class-aware NMS keeps a 3R and a 3B box on the same index; named by the ink they are one card
    found = _detect(_photo(), [[*RIGHT, 0.6, "3R"], [RIGHT[0] + 1, RIGHT[1], RIGHT[2] + 1, RIGHT[3], 0.5, "3B"]])
    assert [(d.cls, d.conf) for d in found] == [("3B", pytest.approx(0.6))]
