"""Training the joker-word reader on the detector's J boxes: which boxes become examples, and the command."""

import numpy as np
import pytest
from round_commands import assert_folders_named, trained_counts

from training.joker_words import JACK_COPIES, JOKER_COPIES, RoundPhoto, true_class_under, word_crops
from vision.detection import Detection, Reading
from vision.errors import VisionError
from vision.wild_reader import READERS, load_wild_reader

JACK_CORNER = [20.0, 20.0, 40.0, 60.0]
WORD_CORNER = [120.0, 20.0, 200.0, 50.0]  # a joker's word across the top
TRUTH = {"family": "traditional", "cards": [{"cls": "J", "corners": [JACK_CORNER]}, {"cls": "JOKER", "corners": [WORD_CORNER]}]}
IMAGE = np.random.default_rng(0).integers(0, 255, (240, 320, 3), dtype=np.uint8)


def test_a_box_on_a_words_first_letter_lies_on_the_joker():
    assert true_class_under((120, 18, 140, 52), TRUTH) == "JOKER"  # the J of "Joker"
    assert true_class_under(tuple(JACK_CORNER), TRUTH) == "J"
    assert true_class_under((250, 150, 270, 190), TRUTH) is None


def test_only_the_detectors_js_on_a_jack_or_a_joker_become_examples():
    dets = [
        Detection("J", 0.6, tuple(JACK_CORNER)),
        Detection("J", 0.3, (120, 18, 140, 52)),
        Detection("J", 0.4, (250, 150, 270, 190)),  # on no card's corner
        Detection("JOKER", 0.5, tuple(WORD_CORNER)),
        Detection("Q", 0.5, tuple(JACK_CORNER)),
    ]
    data = word_crops([RoundPhoto(IMAGE, dets, TRUTH, 3), RoundPhoto(IMAGE, dets, TRUTH, 10)])
    spec = READERS["joker-words"]
    assert data.crops.shape[1:] == (spec.size, spec.size, 3)
    per_photo = {"J": 1 + JACK_COPIES, "JOKER": 1 + JOKER_COPIES}
    assert data.counts() == {cls: 2 * n for cls, n in per_photo.items()}
    assert data.held_out.sum() == sum(per_photo.values())  # round 10 is kept back, round 3 is not


def test_photos_of_bare_foot_decks_or_without_js_give_no_examples():
    foot = dict(TRUTH, family="barefoot")
    with pytest.raises(VisionError, match="no J box"):
        word_crops([RoundPhoto(IMAGE, [Detection("J", 0.6, tuple(JACK_CORNER))], foot, 1)])


class _WordsAsJs:
    """Stands in for the detector with each photo's true boxes, a joker's named J (as the detector names the
    first letter of a joker's word)."""

    def __init__(self) -> None:
        from training.eval.rounds import LabelOracle

        self.oracle = LabelOracle()

    def seen(self, path) -> None:
        self.oracle.seen(path)

    def detect(self, image) -> Reading:
        return Reading([Detection("J" if d.cls == "JOKER" else d.cls, d.conf, d.box) for d in self.oracle.detect(image)])


def test_train_joker_words_writes_a_reader_that_loads(simple_rounds, tmp_path, monkeypatch, capsys):
    from handfoot.cli import main

    out = tmp_path / "words.pt"
    jacks, jokers = trained_counts(monkeypatch, capsys, "train-joker-words", simple_rounds, out, _WordsAsJs(), ("J", "JOKER"))
    assert jacks > 0 and jokers > 0
    reader = load_wild_reader(out, "joker-words")
    assert (reader.size, reader.margin) == (READERS["joker-words"].size, READERS["joker-words"].margin)
    assert_folders_named(main, "train-joker-words", tmp_path, capsys, out)


def test_train_wilds_sends_the_joker_word_reader_to_its_own_command(tmp_path, capsys):
    from handfoot.cli import main

    assert main(["train-wilds", str(tmp_path), "--reader", "joker-words"]) != 0
    assert "train-joker-words" in " ".join(capsys.readouterr().err.split())
