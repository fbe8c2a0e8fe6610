"""`handfoot eval-rounds --cache`: detections kept per photo and reused only for the same model."""

from __future__ import annotations

from pathlib import Path

import pytest

from handfoot.roundfile import load_round
from training.eval.rounds import DetectionCache, evaluate_rounds
from vision.detection import Detection


@pytest.fixture(scope="module")
def rounds(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    from datasets.decks import simple_deck
    from datasets.scenes.rounds import build_rounds

    folder = tmp_path_factory.mktemp("rounds")
    build_rounds(folder, 1, seed=4, decks=[simple_deck()])
    return sorted(folder.glob("round-*.toml"))


class CountingDetector:
    """A stand-in detector: one 7 in the photo's top-left corner; counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def factory(self):
        return self.detect

    def detect(self, image) -> list[Detection]:
        self.calls += 1
        h, w = image.shape[:2]
        return [Detection("7", 0.9, (0.0, 0.0, w / 20, h / 10))]


def _photos(files: list[Path]) -> int:
    return sum(len(s.table_photos) + len(s.leftover_photos) for f in files for s in load_round(f).sides)


def test_a_second_run_with_the_same_model_reads_detections_from_the_cache(rounds, tmp_path: Path) -> None:
    det = CountingDetector()
    first = evaluate_rounds(rounds, det.factory, cache=DetectionCache(tmp_path, "model-a", det.factory))
    photos = _photos(rounds)
    assert det.calls == photos and len(list(tmp_path.glob("*.json"))) == photos
    again = DetectionCache(tmp_path, "model-a", det.factory)
    second = evaluate_rounds(rounds, det.factory, cache=again)
    assert det.calls == photos and again.hits == photos
    assert second.to_dict() == first.to_dict()


def test_other_weights_or_a_damaged_file_are_detected_again(rounds, tmp_path: Path) -> None:
    det = CountingDetector()
    evaluate_rounds(rounds, det.factory, cache=DetectionCache(tmp_path, "model-a", det.factory))
    photos = _photos(rounds)
    evaluate_rounds(rounds, det.factory, cache=DetectionCache(tmp_path, "model-b", det.factory))
    assert det.calls == 2 * photos
    damaged = sorted(tmp_path.glob("*.json"))[0]
    damaged.write_text("{not json")
    cache = DetectionCache(tmp_path, "model-b", det.factory)
    evaluate_rounds(rounds, det.factory, cache=cache)
    assert (cache.misses, cache.hits) == (1, photos - 1)
    assert "model-b" in damaged.read_text()


def test_sides_whose_photos_are_blurred_are_counted(rounds, tmp_path: Path) -> None:
    """A round photographed out of focus: every side is marked as drawing the blurred-photo warning."""
    import shutil

    import cv2

    folder = tmp_path / "soft"
    shutil.copytree(rounds[0].parent, folder)
    for photo in folder.glob("*.jpg"):
        image = cv2.imread(str(photo))
        cv2.imwrite(str(photo), cv2.GaussianBlur(image, (0, 0), 5.0))
    report = evaluate_rounds(sorted(folder.glob("round-*.toml")), lambda: None, oracle=True)
    out = report.to_dict()
    assert all(s.blurred for s in report.sides)
    assert out["blurred_sides"]["wrong"] + out["blurred_sides"]["right"] == out["sides"] > 0
