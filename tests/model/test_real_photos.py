"""The shipped detector on the real labelled photos in ../shared/real-photos.

Slow (hundreds of photos on the CPU) and skipped when the photos are absent.
The floors sit a little under the figures measured for models/README.md, so a
worse model fails here; the fast smoke path of the same commands runs on the
bundled example photos in test_shipped_model.py.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from handfoot.cli import main
from training.eval.sets import load_yolo_set
from vision.imageio import load_image
from vision.ink import recolour_threes

pytestmark = [pytest.mark.slow, pytest.mark.realphotos]

# Measured figures of the shipped model (models/README.md) minus a margin.
# table-webcam (39 photos) is read as `handfoot score` reads: as it is,
# turned half round, turned a quarter round and at three quarters of its
# scale (mAP50 0.880 through OpenVINO, thirty-sixth session; 0.882 with the
# first three). The two large sets are read once, as
# they are (`--no-turned`), so that the whole suite stays well inside CI's
# 15 minutes: three readings of them took 8 of its 15 minutes on this 2-core
# CPU (thirty-first session). Read once, leg 24 through OpenVINO gives
# closeup-phone mAP50 0.658 and edje-rank an exact-photo rate of 0.882,
# card recall 0.993 (thirty-first session; four readings, thirty-sixth
# session: 0.713, 0.923, 0.993; edje-rank 0.906 with three on the
# thirty-fifth session's CPU). (Below the targets: the model is under-trained.)
FLOORS = {
    "table-webcam": 0.85,
    "closeup-phone": 0.63,
}
# The share of labelled corners missed or misread at the product's threshold: a detection of the right
# class boxed tighter than its label counts as found (training/eval/failures.py). Measured in the forty-third
# session: table-webcam 31 of 515 (0.060, four readings), closeup-phone 81 of 926 (0.087, read once;
# 66, 0.071, with four readings), where mAP50 counts 116 more right detections as misses.
WRONG_CEILINGS = {
    "table-webcam": 0.08,
    "closeup-phone": 0.11,
}
ONE_READING = {"closeup-phone"}
EDJE_EXACT_FLOOR = 0.85
EDJE_RECALL_FLOOR = 0.9


def _eval(capsys: pytest.CaptureFixture, *args: str) -> dict:
    status = main(["eval", *map(str, args), "--json"])
    out = capsys.readouterr().out
    assert status == 0
    return json.loads(out)


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_real_yolo_set_map50_and_found_corners_stay_above_their_floors(real_photos: Path, shipped_model: Path, capsys, name) -> None:
    once = ["--no-turned"] if name in ONE_READING else []
    report = _eval(capsys, "--data", real_photos / name / "data.yaml", *once)
    assert report["images"] > 30
    assert report["map50"] >= FLOORS[name], report
    wrong = report["failures"]
    assert (wrong["missed"] + wrong["misread"]) / wrong["corners"] <= WRONG_CEILINGS[name], wrong


def test_edje_rank_card_counts_stay_above_their_floor(real_photos: Path, shipped_model: Path, capsys) -> None:
    report = _eval(capsys, "--voc", real_photos / "edje-rank", "--no-turned")
    assert report["images"] > 300
    assert report["exact_photo_rate"] >= EDJE_EXACT_FLOOR, report
    assert report["card_recall"] >= EDJE_RECALL_FLOOR, report


# Exact photos through the product's own path (`eval --cards`: every photo read as a leftover photo, four
# readings, its cards against the distinct rank+suit names labelled in it): floors a little under the figures
# of models/README.md, "Cards and round totals": table-webcam 26 of 39 (0.667), and 89 of the first 100
# closeup-phone photos (0.89; all 438 take CI too long).
CARDS_FLOORS = {"table-webcam": (0.64, 0), "closeup-phone": (0.85, 100)}


@pytest.mark.parametrize("name", sorted(CARDS_FLOORS))
def test_real_photos_count_each_card_once_above_their_floor(real_photos: Path, shipped_model: Path, capsys, name) -> None:
    floor, limit = CARDS_FLOORS[name]
    report = _eval(capsys, "--data", real_photos / name / "data.yaml", "--cards", "--limit", limit)
    assert report["images"] == (limit or 39)
    assert report["exact_photo_rate"] >= floor, report


# The joining alone (`eval --cards --oracle`: the labelled corner boxes stand in for the detector, then the
# product's naming, joining and joker grouping): floors a little under models/README.md's closeup-phone 424 of
# 438 (0.968) and table-webcam 25 of 39 (0.641).
ORACLE_FLOORS = {"closeup-phone": 0.95, "table-webcam": 0.6}


@pytest.mark.parametrize("name", sorted(ORACLE_FLOORS))
def test_joining_the_labelled_corners_stays_above_its_floor(real_photos: Path, capsys, name) -> None:
    report = _eval(capsys, "--data", real_photos / name / "data.yaml", "--cards", "--oracle")
    assert report["images"] in (438, 39)
    assert report["exact_photo_rate"] >= ORACLE_FLOORS[name], report


# The whole-card reader on every two labelled corners that could be one card (`eval --pairs`): floors a little
# under models/README.md's ROC areas (closeup-phone 0.987, table-webcam 0.988) and shares read right.
PAIRS_FLOORS = {"closeup-phone": (0.98, 0.88, 0.98), "table-webcam": (0.98, 0.9, 0.94)}


@pytest.mark.parametrize("name", sorted(PAIRS_FLOORS))
def test_whole_card_reader_on_real_pairs_stays_above_its_floor(real_photos: Path, capsys, name) -> None:
    auc, one, apart = PAIRS_FLOORS[name]
    report = _eval(capsys, "--data", real_photos / name / "data.yaml", "--pairs")
    assert report["pairs"] > 500 and report["one"] > 200
    assert report["auc"] >= auc and report["one_read_one"] >= one and report["apart_read_apart"] >= apart, report


def test_webcam_threes_take_their_labelled_colour_from_the_photos_own_inks(real_photos: Path) -> None:
    """Every labelled 3 of table-webcam, handed over in the wrong colour: its ink names it back (a dim webcam's
    red reads 0.09-0.26, under the fixed threshold, so most are put right by the photo's own split, `ink_split`).
    Of the 34, 27 are named right on this code and none is lost (merged away or renamed to another class); the rest keep the colour given."""
    flip = {"3R": "3B", "3B": "3R"}
    right = lost = 0
    for photo in load_yolo_set(real_photos / "table-webcam" / "data.yaml").photos:
        truth = photo.detections()
        if not any(d.cls in flip for d in truth):
            continue
        given = [replace(d, cls=flip.get(d.cls, d.cls)) for d in truth]
        named = {d.box: d.cls for d in recolour_threes(load_image(photo.path), given, own_inks=True)}
        right += sum(named.get(d.box) == d.cls for d in truth if d.cls in flip)
        lost += sum(named.get(d.box) not in (d.cls, flip[d.cls]) for d in truth if d.cls in flip)
    assert right >= 25 and lost == 0, (right, lost)
