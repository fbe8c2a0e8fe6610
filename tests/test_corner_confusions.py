"""training/eval/corner_confusions.py: each design's true corners against the cached detections."""

from __future__ import annotations

import json

from training.eval import corner_confusions


def test_a_missed_and_a_misread_corner_are_counted_under_their_design(tmp_path):
    rounds, cache = tmp_path / "dev", tmp_path / "cache"
    rounds.mkdir()
    cache.mkdir()
    cards = [
        {"deck": "aguilar", "cls": "JOKER", "corners": [[0, 0, 10, 10], [90, 90, 100, 100]]},
        {"deck": "plain", "cls": "7", "corners": [[200, 0, 210, 10]]},
    ]
    (rounds / "round-001-side1-table.json").write_text(json.dumps({"cards": cards}))
    dets = [
        {"cls": "JOKER", "conf": 0.9, "box": [0, 0, 10, 10]},
        {"cls": "JOKER", "conf": 0.2, "box": [90, 90, 100, 100]},  # under the threshold: a miss
        {"cls": "2", "conf": 0.8, "box": [201, 0, 211, 10]},
    ]
    (cache / "dev--round-001-side1-table.json").write_text(json.dumps({"key": "k", "detections": dets}))
    wrong, total = corner_confusions.confusions(rounds, cache, 0.3)
    assert wrong == {("aguilar", "JOKER", "MISS"): 1, ("plain", "7", "2"): 1}
    assert total == {("aguilar", "JOKER"): 2, ("plain", "7"): 1}
