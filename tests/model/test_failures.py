"""The failure sheet: which boxes count as missed, misread or extra, and the picture of them."""

from __future__ import annotations

import numpy as np

from training.eval.failures import BOXED, MISSED, failure_kind, failure_sheet, find_failures, pick_evenly
from training.eval.metrics import ImageEval

BOX_A = (10.0, 10.0, 30.0, 40.0)
BOX_B = (100.0, 100.0, 120.0, 130.0)
BOX_C = (200.0, 50.0, 220.0, 80.0)


def test_missed_misread_and_extra_boxes_are_failures_and_right_ones_are_not():
    image = ImageEval(
        truth=[("7", BOX_A), ("K", BOX_B), ("Q", BOX_C)],
        preds=[
            ("7", 0.9, BOX_A),
            ("4", 0.8, BOX_B),
            ("9", 0.7, (300.0, 300.0, 320.0, 330.0)),
            ("Q", 0.1, BOX_C),
        ],  # the right Q, but under the product's confidence
    )
    found = find_failures([image], conf=0.3)
    assert sorted((f.truth, f.found) for f in found) == [("", "9"), ("K", "4"), ("Q", MISSED)]
    assert {f.label for f in found} == {"none>9", "K>4", "Q>-"}


def test_an_index_found_and_named_right_in_a_box_fitted_unlike_its_label_is_counted_apart():
    # closeup-phone labels an index with a wide margin; the detector boxes its ink: IoU 0.4
    loose, tight = (300.0, 100.0, 340.0, 160.0), (308.0, 110.0, 332.0, 150.0)
    image = ImageEval(
        truth=[("7", loose), ("K", BOX_B), ("5", BOX_C)],
        preds=[
            ("7", 0.9, tight),
            ("K", 0.9, (101.0, 101.0, 121.0, 131.0)),
            ("5", 0.8, (205.0, 60.0, 210.0, 66.0)),
        ],  # a pip-sized 5 inside the label: not its index's box
    )
    found = find_failures([image], conf=0.3)
    assert sorted((f.label, failure_kind(f)) for f in found) == [("5>-", "missed"), ("7>box", "boxed"), ("none>5", "extra")]
    assert [f.box for f in found if f.found == BOXED] == [loose]
    # a box of another class in the same place is no "boxed" index
    wrong = ImageEval(truth=[("7", loose)], preds=[("1", 0.9, tight)])
    assert [(f.label, failure_kind(f)) for f in find_failures([wrong], conf=0.3)] == [("7>-", "missed")]
    # one detection answers for one label only, and not for one it already matches
    twice = ImageEval(truth=[("7", loose), ("7", (302.0, 102.0, 338.0, 158.0))], preds=[("7", 0.9, tight)])
    assert [failure_kind(f) for f in find_failures([twice], conf=0.3)] == ["boxed", "missed"]
    matched = ImageEval(truth=[("7", loose), ("7", (307.0, 109.0, 333.0, 151.0))], preds=[("7", 0.9, tight)])
    assert [f.label for f in find_failures([matched], conf=0.3)] == ["7>-"]


def test_pick_evenly_spreads_over_all_photos():
    image = ImageEval(truth=[("A", BOX_A)], preds=[])
    found = find_failures([image] * 10, conf=0.3)
    picked = pick_evenly(found, 4)
    assert len(picked) == 4
    assert [f.image for f in picked] == [0, 2, 5, 7]
    assert pick_evenly(found[:3], 4) == found[:3]


def test_sheet_has_one_labelled_crop_per_failure():
    photo = np.full((200, 300, 3), 200, np.uint8)
    photo[10:40, 10:30] = 0  # something dark inside the first box
    image = ImageEval(truth=[("A", BOX_A), ("K", BOX_B)], preds=[])
    found = find_failures([image] * 3, conf=0.3)  # 6 failures
    loads = []
    sheet = failure_sheet(found, lambda k: loads.append(k) or photo, cell=64, columns=4)
    assert sheet.shape == (2 * (64 + 18), 4 * 64, 3)  # 6 crops: two rows of four
    assert loads == [0, 1, 2]  # each photo read once
    first, empty = sheet[:64, :64], sheet[82:146, 128:192]
    assert first.min() == 0 and (empty == 255).all()
