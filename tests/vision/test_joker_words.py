"""The first letter of a joker's word: an unsure J the joker-word reader sees the rest of a joker around is a joker."""

from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest
from cached_photos import boxes, photo_file

import vision.pipe as pipe
from vision.detection import Detection
from vision.joker_words import READ_CONF, UNSURE_WORD_ODDS, WORD_ODDS, word_jokers
from vision.pipe import TABLE, join_for, name_wilds
from vision.wild_reader import READERS, shipped_reader


def box(cls: str, x: float, y: float, conf: float, side: float = 30.0) -> Detection:
    return Detection(cls, conf, (x, y, x + side, y + side))


class _Reader:
    """A stand-in joker-word reader: the odds of a joker it gives each box, looked up by the box's left edge
    (a box it has no odds for fails the test: it should not have been read)."""

    classes = ("J", "JOKER")

    def __init__(self, odds: dict[float, float]) -> None:
        self.odds = odds

    def view_odds(self, image, dets):
        return np.array([[1 - self.odds[d.box[0]], self.odds[d.box[0]]] for d in dets])


IMAGE = np.full((400, 400, 3), 200, np.uint8)


def test_an_unsure_jack_read_as_a_jokers_first_letter_is_a_joker():
    letter, jack = box("J", 10, 10, READ_CONF - 0.1), box("J", 100, 10, READ_CONF - 0.1)
    reader = _Reader({10: WORD_ODDS, 100: WORD_ODDS - 0.05})
    assert [d.cls for d in word_jokers(IMAGE, [letter, jack], reader)] == ["JOKER", "J"]


def test_a_jack_the_detector_was_sure_of_stays_a_jack():
    sure = box("J", 10, 10, READ_CONF)
    assert word_jokers(IMAGE, [sure], _Reader({})) == [sure]  # not even read


def test_a_box_under_the_threshold_is_a_joker_only_where_read_surely_and_nothing_lies_there():
    kept = box("Q", 200, 200, 0.8)
    unsure = [box("J", 10, 10, 0.15), box("J", 100, 10, 0.15), box("J", 205, 205, 0.15), box("8", 300, 10, 0.15)]
    reader = _Reader({10: UNSURE_WORD_ODDS, 100: UNSURE_WORD_ODDS - 0.05, 205: 0.99})
    out = word_jokers(IMAGE, [kept], reader, unsure)
    assert out == [kept, Detection("JOKER", 0.15, unsure[0].box)]


def test_the_reader_never_makes_a_jack_and_reads_only_jacks():
    joker, queen = box("JOKER", 10, 10, 0.3), box("Q", 100, 10, 0.3)
    assert word_jokers(IMAGE, [joker, queen], _Reader({})) == [joker, queen]
    lone = [box("J", 10, 10, 0.3)]
    assert word_jokers(IMAGE, lone, None) == lone  # no reader shipped: as detected


def test_the_shipped_joker_word_reader_reads_wide_crops():
    reader = shipped_reader("joker-words")
    if reader is None:
        pytest.skip("models/joker-words.pt not present")
    spec = READERS["joker-words"]
    assert (reader.size, reader.margin, reader.classes) == (spec.size, spec.margin, ("J", "JOKER")) and spec.margin >= 3


def test_a_held_out_table_counts_its_three_jokers_seen_only_as_js(monkeypatch):
    """Round 134 side 1 (held-out, `aisleriot-tango-nuevo`): the detector boxed each joker's "Joker" as a J on
    its first letter, once sure (0.28) and twice under its threshold (0.13, 0.22), and found no joker box."""
    if shipped_reader("joker-words") is None:
        pytest.skip("models/joker-words.pt not present")
    photo = photo_file("word_jokers_photo.json")
    image = cv2.imread(str(Path(__file__).parent / "word_jokers_photo.jpg"))
    unsure = boxes({"detections": photo["unsure"]})

    def counted(named):
        found = Counter(c.cls for c in join_for(TABLE, named))
        found.subtract(Counter(photo["cards"]))
        return Counter({cls: n for cls, n in found.items() if n})

    assert counted(name_wilds(image, boxes(photo), "standard", unsure=unsure)) == Counter()
    # the unsure boxes not read: the sure J alone is a joker
    assert counted(name_wilds(image, boxes(photo), "standard")) == Counter({"JOKER": -2})
    # the joker-word reader off (the other readers on): a jack counted and three jokers missed
    monkeypatch.setattr(pipe, "word_jokers", lambda image, dets, reader, unsure: list(dets))
    assert counted(name_wilds(image, boxes(photo), "standard", unsure=unsure)) == Counter({"J": 1, "JOKER": -3})
