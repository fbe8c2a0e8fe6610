"""The shipped detector on the real labelled photos in ../shared/real-photos.

Slow (hundreds of photos on the CPU) and skipped when the photos are absent.
The floors sit a little under the figures measured for models/README.md, so a
worse model fails here; the fast smoke path of the same commands runs on the
bundled example photos in test_shipped_model.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from handfoot.cli import main

pytestmark = [pytest.mark.slow, pytest.mark.realphotos]

# Measured figures of the shipped model (models/README.md) minus a margin:
# mAP50 table-webcam 0.876 and closeup-phone 0.712; edje-rank exact-photo
# rate 0.906, card recall 0.994, each photo read as it is, turned half round
# and turned a quarter round (leg 24, 2026-11-28, twenty-fifth session; two
# readings, as it is and half round, 0.873, 0.686 and 0.912; read once 0.848,
# 0.658 and 0.882 with the rank reader, 0.876 without it; leg 22
# gave 0.848, 0.662 and 0.890, leg 20 0.844, 0.677 and 0.873, leg 17 0.855,
# 0.646 and 0.882, leg 8 0.835, 0.653 and 0.868). (Below the targets: the
# model is under-trained.)
FLOORS = {
    "table-webcam": 0.84,
    "closeup-phone": 0.68,
}
EDJE_EXACT_FLOOR = 0.88
EDJE_RECALL_FLOOR = 0.9


def _eval(capsys: pytest.CaptureFixture, *args: str) -> dict:
    status = main(["eval", *map(str, args), "--json"])
    out = capsys.readouterr().out
    assert status == 0
    return json.loads(out)


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_real_yolo_set_map50_stays_above_its_floor(real_photos: Path, shipped_model: Path, capsys, name) -> None:
    report = _eval(capsys, "--data", real_photos / name / "data.yaml")
    assert report["images"] > 30
    assert report["map50"] >= FLOORS[name], report


def test_edje_rank_card_counts_stay_above_their_floor(real_photos: Path, shipped_model: Path, capsys) -> None:
    report = _eval(capsys, "--voc", real_photos / "edje-rank")
    assert report["images"] > 300
    assert report["exact_photo_rate"] >= EDJE_EXACT_FLOOR, report
    assert report["card_recall"] >= EDJE_RECALL_FLOOR, report
