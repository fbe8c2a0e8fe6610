"""A Bare Foot wild is named by its ink: the blue foot wild is the 20, the red one the 50 (DESIGN.md)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from ink_photos import LEFT, RIGHT, draw_foot_wild, two_cards, webcam

from vision.detection import Detection
from vision.ink import foot_wild_class
from vision.pipe import TABLE, Settings, name_by_ink, read

BLUE, RED, BLACK = (190, 90, 30), (30, 30, 200), (25, 25, 25)  # BGR inks


def _photo(left_ink=BLUE, right_ink=RED) -> np.ndarray:
    """Two foot wilds on a green table, each corner printed with a W and a foot-like blot."""
    return two_cards(left_ink, right_ink, draw_foot_wild)


def _misread() -> list[Detection]:
    """The model swaps the two wilds' values, and reads an 8 elsewhere."""
    return [Detection("WILD50", 0.8, LEFT), Detection("WILD20", 0.7, RIGHT), Detection("8", 0.9, (20, 20, 40, 50))]


def test_blue_ink_is_the_20_and_red_ink_the_50_in_a_sharp_and_in_a_webcam_photo():
    for img in (_photo(), webcam(_photo())):
        assert foot_wild_class(img, Detection("WILD50", 0.9, LEFT)) == "WILD20"
        assert foot_wild_class(img, Detection("WILD20", 0.9, RIGHT)) == "WILD50"


def test_bare_foot_wilds_the_model_swapped_are_named_by_their_ink():
    found = {d.box[0]: d for d in name_by_ink(webcam(_photo()), _misread(), "barefoot")}
    assert (found[LEFT[0]].cls, found[RIGHT[0]].cls, found[20].cls) == ("WILD20", "WILD50", "8")
    assert found[LEFT[0]].conf == 0.8  # the model's confidence is kept


def test_other_families_keep_the_models_word_for_their_wilds():
    # Remastered wilds come in any ink: the colour says nothing of their value
    assert name_by_ink(_photo(), _misread(), "standard") == _misread()


def test_black_ink_or_a_grey_photo_leaves_the_model_its_word():
    assert foot_wild_class(_photo(left_ink=BLACK), Detection("WILD50", 0.9, LEFT)) is None
    grey = cv2.cvtColor(cv2.cvtColor(_photo(), cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    assert name_by_ink(grey, _misread(), "barefoot") == _misread()


def test_two_boxes_on_one_wild_become_one_card_once_named():
    dets = [Detection("WILD20", 0.6, RIGHT), Detection("WILD50", 0.5, (RIGHT[0] + 1, *RIGHT[1:]))]
    assert [(d.cls, d.conf) for d in name_by_ink(_photo(), dets, "barefoot")] == [("WILD50", 0.6)]


def test_a_bare_foot_photo_read_from_disk_names_its_wilds_by_ink(tmp_path: Path):
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), _photo())
    bare = read(path, TABLE, Settings(detect=lambda image: _misread()[:2], family="barefoot", wilds=False))  # the ink alone
    standard = read(path, TABLE, Settings(detect=lambda image: _misread()[:2], wilds=False))  # ink aside
    assert [c.cls for c in sorted(bare.cards, key=lambda c: c.box[0])] == ["WILD20", "WILD50"]
    assert [c.cls for c in sorted(standard.cards, key=lambda c: c.box[0])] == ["WILD50", "WILD20"]
