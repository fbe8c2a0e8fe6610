"""`handfoot dataset round-tiles`: round photos cut into training tiles at the scale the detector reads them."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.round_tiles import build_round_tiles, turn
from handfoot.cli import main
from scoring.detection_classes import CLASS_NAMES
from vision.detector import InferenceConfig, working_scale


@pytest.fixture(scope="module")
def rounds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from datasets.decks import simple_deck
    from datasets.scenes.rounds import build_rounds

    folder = tmp_path_factory.mktemp("rounds")
    build_rounds(folder, 2, seed=4, decks=[simple_deck()])
    return folder


def _boxes(label_file: Path, width: int, height: int) -> list[tuple[str, float, float]]:
    """(class name, box width, box height) in px of each YOLO label line."""
    out = []
    for line in label_file.read_text().splitlines():
        cls, _, _, bw, bh = line.split()
        out.append((CLASS_NAMES[int(cls)], float(bw) * width, float(bh) * height))
    return out


@pytest.mark.parametrize("degrees", [0, 90, 180, 270])
def test_a_turned_photo_keeps_each_box_on_its_pixels(degrees):
    image = np.zeros((60, 100, 3), np.uint8)
    image[10:20, 30:45] = 255  # a white patch where the box is
    turned, [(cls, (x1, y1, x2, y2))] = turn(image, [("K", (30.0, 10.0, 45.0, 20.0))], degrees)
    assert cls == "K"
    assert turned.shape[:2] == ((60, 100) if degrees in (0, 180) else (100, 60))
    inside = turned[round(y1) : round(y2), round(x1) : round(x2)]
    assert inside.size == 10 * 15 * 3 and inside.min() == 255
    assert turned.sum() == image.sum()  # and nothing white outside it


def test_a_photo_is_read_at_the_scale_its_indices_ask_for():
    config = InferenceConfig()  # long side to 1,280 px, indices towards 48 px (36-64 left alone), zoom at most 2
    assert working_scale([50.0] * 9, 1000, 800, config) == 1.0
    assert working_scale([20.0] * 9, 2560, 1440, config) == pytest.approx(1.0)  # halved to 10 px, then doubled
    assert working_scale([30.0] * 9, 1280, 720, config) == pytest.approx(48 / 30)
    assert working_scale([100.0] * 9, 1000, 800, config) == pytest.approx(0.48)


def test_round_tiles_command_writes_tiles_ultralytics_reads_and_whole_validation_photos(rounds, tmp_path):
    out = tmp_path / "tiles"
    assert main(["dataset", "round-tiles", str(rounds), "--out", str(out), "--seed", "3", "--val-every", "2"]) == 0
    from vision.offline import prepare

    prepare()
    from ultralytics.data.utils import check_det_dataset

    data = check_det_dataset(str(out / "data.yaml"), autodownload=False)
    assert [data["names"][i] for i in range(len(CLASS_NAMES))] == list(CLASS_NAMES)
    tiles = sorted((out / "train" / "images").glob("*.jpg"))
    assert tiles and all(t.name.startswith(f"{rounds.name}-round-001-") for t in tiles)
    boxes = [b for t in tiles for b in _boxes(out / "train" / "labels" / f"{t.stem}.txt", 320, 320)]
    assert boxes and all(cv2.imread(str(t)).shape == (320, 320, 3) for t in tiles[:10])
    val = sorted((out / "val" / "images").glob("*.jpg"))
    assert val and all(v.name.startswith(f"{rounds.name}-round-002-") for v in val)
    for v in val:  # whole photos at their working scale: indices near 48 px unless the zoom limit stopped them
        photo = rounds / v.name.removeprefix(f"{rounds.name}-")
        height, width = cv2.imread(str(v)).shape[:2]
        original = cv2.imread(str(photo)).shape[:2]
        sizes = [max(w, h) for _, w, h in _boxes(out / "val" / "labels" / f"{v.stem}.txt", width, height)]
        scale = width / original[1]
        assert max(height, width) <= 1280 * 2 + 1
        assert 36 <= np.median(sizes) <= 64 or scale == pytest.approx(2.0 * min(1.0, 1280 / max(original)), rel=0.01)
    summary = json.loads((out / "build.json").read_text())
    assert summary["train_tiles"] == len(tiles) and summary["val_images"] == len(val)
    assert summary["train_boxes"] == len(boxes)


def test_round_tiles_are_the_same_for_the_same_seed(rounds, tmp_path):
    def scale(sizes, width, height):
        return working_scale(sizes, width, height, InferenceConfig())

    a = build_round_tiles([rounds], tmp_path / "a", scale, seed=5, val_every=2)
    b = build_round_tiles([rounds], tmp_path / "b", scale, seed=5, val_every=2)
    build_round_tiles([rounds], tmp_path / "c", scale, seed=6, val_every=2)
    assert a["train_tiles"] == b["train_tiles"]
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*.jpg"))
    assert all((tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes() for f in files)
    other = [f for f in files if (tmp_path / "c" / f).is_file()]
    assert any((tmp_path / "a" / f).read_bytes() != (tmp_path / "c" / f).read_bytes() for f in other) or len(other) < len(files)


def test_round_tiles_command_says_what_is_wrong_with_its_folders(tmp_path, capsys):
    assert main(["dataset", "round-tiles", str(tmp_path / "nowhere"), "--out", str(tmp_path / "o")]) == 2
    assert "is not a folder" in " ".join(capsys.readouterr().err.split())
    (tmp_path / "empty").mkdir()
    assert main(["dataset", "round-tiles", str(tmp_path / "empty"), "--out", str(tmp_path / "o")]) == 2
    assert "no labelled round photos" in " ".join(capsys.readouterr().err.split())
