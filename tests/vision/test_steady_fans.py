"""The local fan direction is read where most of the fan steps nearby agree (`JoinConfig.steady_share`), so that a
joker of the next column lying one step beyond a card's corner does not make the card's two corners fan steps."""

import math

from cached_photos import boxes, miscounted, miscounted_without, photo_file

import vision.corners as corners
from vision.corners import JoinConfig, join_corners
from vision.pipe import TABLE

PHOTO = "slanted_column_photo.json"


def test_a_column_is_steady_though_one_step_nearby_runs_across_it():
    # doubled-angle unit vectors of five fan steps: four down a column (90 degrees -> 180) and one across (0 -> 0)
    steps = [(-1.0, 0.0)] * 4 + [(1.0, 0.0)]
    axes = (sum(c for c, _ in steps), sum(s for _, s in steps), len(steps))
    assert corners._steady_axis(axes, 0.8) is None
    axis = corners._steady_axis(axes, JoinConfig().steady_share)
    assert axis is not None and abs(abs(axis) - math.pi / 2) < 1e-6  # the column's direction
    assert corners._steady_axis((-1.0, 0.0, 3), JoinConfig().steady_share) is None  # 2 down, 1 across: no fan


def test_the_last_jack_of_a_slanted_column_is_one_card():
    jacks = [c for c in join_corners(boxes(photo_file(PHOTO))) if c.cls == "J"]
    assert len(jacks) == 8 and max(len(c.corners) for c in jacks) == 2


def test_held_out_slanted_table_counts_its_cards(monkeypatch):
    photo = photo_file(PHOTO)
    assert miscounted(TABLE, photo) == {}
    assert miscounted_without(monkeypatch, corners, "JoinConfig", TABLE, photo, stand_in=lambda **kw: JoinConfig(**{**kw, "steady_share": 0.8})) == {
        "J": 1
    }
