"""A real set's card truth: in a one-deck YOLO set each distinct rank+suit name is one card."""

from collections import Counter
from pathlib import Path

from training.eval.sets import load_yolo_set


def _one_photo_set(tmp_path: Path, rows: list[str]) -> Path:
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    import cv2
    import numpy as np

    cv2.imwrite(str(tmp_path / "images" / "p.jpg"), np.zeros((40, 60, 3), np.uint8))
    (tmp_path / "labels" / "p.txt").write_text("\n".join(rows) + "\n")
    (tmp_path / "data.yaml").write_text("test: images\nnames: ['8H', '8S', '3D', '3C', 'BACK', 'RED JOKER']\n")
    return tmp_path / "data.yaml"


def test_two_corners_of_one_name_are_one_card_and_suits_of_one_rank_are_two(tmp_path: Path) -> None:
    rows = [
        "0 0.1 0.1 0.05 0.05",
        "0 0.9 0.9 0.05 0.05",  # 8H: both corners, one card
        "1 0.5 0.5 0.05 0.05",  # 8S: a second 8
        "2 0.3 0.3 0.05 0.05",
        "3 0.6 0.3 0.05 0.05",  # 3D red, 3C black
        "4 0.5 0.5 0.4 0.4",  # a card face down: no card to count
        "5 0.2 0.8 0.05 0.05",
        "5 0.8 0.2 0.05 0.05",
    ]  # one joker, two corners
    photo = load_yolo_set(_one_photo_set(tmp_path, rows)).photos[0]
    assert photo.cards == Counter({"8": 2, "3R": 1, "3B": 1, "JOKER": 1})
    assert len(photo.boxes) == 8
