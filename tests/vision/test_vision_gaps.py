"""Unsure indices are taken only where a table's evenly spaced indices say a card lies (`vision/gaps.py`)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from training.eval.rounds import DetectionCache
from vision.detection import Detection, Reading
from vision.gaps import lines_filled
from vision.pipe import LEFTOVER, TABLE, Settings, read

SIZE = 20.0  # index size, px
STEP = 40.0  # fan step down a column, px


def _index(cls: str, x: float, y: float, conf: float = 0.8) -> Detection:
    return Detection(cls, conf, (x - SIZE / 2, y - SIZE / 2, x + SIZE / 2, y + SIZE / 2))


def _column(cls: str, x: float, rows: list[int]) -> list[Detection]:
    """Sure indices of one meld column at the given fan steps (0 at the top)."""
    return [_index(cls, x, 100 + STEP * r) for r in rows]


def test_an_unsure_index_in_a_two_step_gap_of_a_column_is_taken():
    sure = _column("7", 200, [0, 1, 3, 4])  # the card at step 2 was missed
    joker = _index("JOKER", 200, 100 + 2 * STEP, conf=0.12)
    assert lines_filled(sure, [joker]) == [joker]


def test_an_unsure_index_one_step_past_a_column_is_taken_two_steps_past_is_not():
    sure = _column("7", 200, [0, 1, 2])
    next_card = _index("7", 200, 100 + 3 * STEP, conf=0.15)
    too_far = _index("7", 200, 100 + 4 * STEP, conf=0.15)
    assert lines_filled(sure, [next_card, too_far]) == [next_card]


def test_unsure_boxes_off_the_columns_or_on_a_sure_index_are_left_out():
    sure = _column("7", 200, [0, 1, 3, 4]) + _column("9", 400, [0, 1, 2, 3])
    beside = _index("JOKER", 260, 100 + 2 * STEP, conf=0.2)  # in the gap's row, three index sizes across
    on_the_table = _index("K", 700, 500, conf=0.2)
    on_a_sure_one = _index("8", 400, 100 + STEP, conf=0.2)  # the 9 column's second card, read again unsurely
    assert lines_filled(sure, [beside, on_the_table, on_a_sure_one]) == []


def test_a_gap_with_no_third_index_to_give_the_step_is_not_filled():
    # two sure indices two steps apart and one far off: nothing says the line's step is one card
    sure = _column("7", 200, [0, 2]) + [_index("9", 600, 600)]
    assert lines_filled(sure, [_index("7", 200, 100 + STEP, conf=0.2)]) == []
    assert lines_filled(sure[:2], [_index("7", 200, 100 + STEP, conf=0.2)]) == []  # under three sure indices


def _reading() -> Reading:
    sure = _column("7", 200, [0, 1, 3, 4])
    return Reading(sure, [_index("JOKER", 200, 100 + 2 * STEP, conf=0.12), _index("K", 600, 300, conf=0.2)])


def test_a_table_photo_takes_the_unsure_index_its_column_calls_for_and_a_hand_photo_none(tmp_path: Path):
    path = tmp_path / "photo.png"
    cv2.imwrite(str(path), np.full((400, 800, 3), 90, np.uint8))
    table = read(path, TABLE, Settings(detect=lambda image: _reading(), wilds=False, jokers=False))
    hand = read(path, LEFTOVER, Settings(detect=lambda image: _reading(), wilds=False, jokers=False))
    plain = read(path, TABLE, Settings(detect=lambda image: _reading().sure, wilds=False, jokers=False))  # boxes only
    assert sorted(c.cls for c in table.cards) == ["7", "7", "7", "7", "JOKER"]  # the K off the column left out
    assert "JOKER" not in [c.cls for c in plain.cards]
    assert any("1 unsure index taken" in n for n in table.notes) and not plain.notes and not hand.notes
    hand_plain = read(path, LEFTOVER, Settings(detect=lambda image: _reading().sure, wilds=False, jokers=False))
    assert [c.corners for c in hand.cards] == [c.corners for c in hand_plain.cards]  # no unsure box in a hand


def test_the_cache_keeps_unsure_boxes_apart_and_gives_them_back(tmp_path: Path):
    calls = []

    def detect(image):
        calls.append(1)
        return _reading()

    photo = tmp_path / "round-001-side1-table.jpg"
    first = DetectionCache(tmp_path / "cache", "model-a", lambda: detect)
    first.seen(photo)
    got = first.detect(np.zeros((10, 10, 3), np.uint8))
    again = DetectionCache(tmp_path / "cache", "model-a", lambda: detect)
    again.seen(photo)
    back = again.detect(np.zeros((10, 10, 3), np.uint8))
    assert len(calls) == 1 and again.hits == 1
    assert back.sure == got.sure and back.unsure == got.unsure and len(back.unsure) == 2
