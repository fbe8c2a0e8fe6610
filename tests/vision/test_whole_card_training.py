"""Training the whole-card reader on the detector's boxes: which pairs become examples, and the command."""

import numpy as np
import pytest
from round_commands import assert_folders_named, trained_counts

from vision.detection import Detection
from vision.errors import VisionError
from vision.joker_word_training import RoundPhoto
from vision.whole_card_training import ONE_COPIES, pair_crops
from vision.whole_cards import CROP_SIZE, load_whole_card_reader

TOP, BOTTOM, NEXT = (100.0, 100.0, 120.0, 134.0), (180.0, 220.0, 200.0, 254.0), (260.0, 340.0, 280.0, 374.0)
TRUTH = {"kind": "table", "cards": [{"cls": "8", "corners": [list(TOP), list(BOTTOM)]},
                                    {"cls": "K", "corners": [list(NEXT)]}]}
# the detector read the 8's far corner as a 5; the K's corner lies a card's diagonal beyond it
BOXES = [Detection("8", 0.8, TOP), Detection("5", 0.4, BOTTOM), Detection("K", 0.7, NEXT)]
IMAGE = np.random.default_rng(0).integers(0, 255, (400, 400, 3), dtype=np.uint8)


def test_pairs_on_one_card_and_on_two_become_examples_of_each():
    data = pair_crops([RoundPhoto(IMAGE, BOXES, TRUTH, 3), RoundPhoto(IMAGE, BOXES, TRUTH, 10)])
    assert data.crops.shape[1:] == (CROP_SIZE[1], CROP_SIZE[0], 3)
    per_photo = {"APART": 1, "ONE": 1 + ONE_COPIES}  # 8-5 is one card; 5-K two; 8-K spans the 5
    assert data.counts() == {cls: 2 * n for cls, n in per_photo.items()}
    assert data.held_out.sum() == sum(per_photo.values())  # round 10 is kept back, round 3 is not


def test_photos_of_hands_give_no_examples():
    hands = dict(TRUTH, kind="leftover")
    with pytest.raises(VisionError, match="no pair of boxes"):
        pair_crops([RoundPhoto(IMAGE, BOXES, hands, 1)])


def test_train_whole_cards_writes_a_reader_that_loads(simple_rounds, tmp_path, monkeypatch, capsys):
    from handfoot.cli import main
    from handfoot.round_eval import LabelOracle

    out = tmp_path / "whole.pt"
    apart, one = trained_counts(monkeypatch, capsys, "train-whole-cards", simple_rounds, out, LabelOracle(),
                                ("APART", "ONE"))
    assert apart > 0 and one > 0
    assert load_whole_card_reader(out).size == CROP_SIZE
    assert_folders_named(main, "train-whole-cards", tmp_path, capsys, out)


def test_a_file_of_another_reader_is_refused_by_name(tmp_path):
    from vision.errors import ModelError
    from vision.wild_reader import save_wild_reader, wild_net

    other = save_wild_reader(wild_net(2), tmp_path / "other.pt", {}, ("J", "JOKER"))
    with pytest.raises(ModelError, match="whole-card reader"):
        load_whole_card_reader(other)
    with pytest.raises(ModelError, match="train-whole-cards"):
        load_whole_card_reader(tmp_path / "missing.pt")
