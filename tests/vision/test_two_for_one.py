"""Pairs of corners the greedy joining took across cards give way to the cards' own pairs: one pair across two
cards (`_two_for_one`), or two pairs across a row of three (`_three_for_two`)."""

import json
from collections import Counter
from pathlib import Path

import pytest

import vision.corners as corners
from vision.corners import JoinConfig, join_corners
from vision.detection import Detection

HERE = Path(__file__).parent


def _photo(name: str) -> tuple[list[Detection], Counter]:
    photo = json.loads((HERE / name).read_text())
    return [Detection(b["cls"], 1.0, tuple(b["box"])) for b in photo["boxes"]], Counter(photo["cards"])


def test_a_held_out_tables_true_corners_join_into_its_cards(monkeypatch):
    boxes, cards = _photo("two_for_one_photo.json")
    assert Counter(c.cls for c in join_corners(boxes)) == cards
    # without the swap the greedy pass joins one 2's corner with its neighbour's: a 2 too many (unless the
    # pair is refused for crossing its column the wrong way, `JoinConfig.handed`, as it does here)
    monkeypatch.setattr(corners, "_two_for_one", lambda free, chosen, used, dets: chosen)
    assert Counter(c.cls for c in join_corners(boxes)) == cards
    assert Counter(c.cls for c in join_corners(boxes, JoinConfig(handed=0))) - cards == Counter({"2": 1})


def test_a_row_of_three_overlapping_red_threes_joins_as_three_cards(monkeypatch):
    boxes, cards = _photo("three_for_two_photo.json")  # three red 3s laid overlapping, each showing two corners
    assert Counter(c.cls for c in join_corners(boxes)) == cards
    # without it the greedy pass joins each 3's corner with the next 3's, leaving the row's two ends alone:
    # a red 3 too many
    monkeypatch.setattr(corners, "_three_for_two", lambda free, chosen, used, dets: chosen)
    assert Counter(c.cls for c in join_corners(boxes)) - cards == Counter({"3R": 1})


@pytest.mark.parametrize("name", ["two_for_one_photo.json", "three_for_two_photo.json"])
def test_every_corner_is_kept_and_each_card_holds_at_most_two(name):
    boxes, _ = _photo(name)
    joined = join_corners(boxes)
    assert sum(len(c.corners) for c in joined) == len(boxes)
    assert max(len(c.corners) for c in joined) == 2
