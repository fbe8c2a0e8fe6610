"""A meld's column laid by hand steps unevenly: a short pair of neighbouring indices of its rank (under
`column_wild_share` of the photo's card diagonal), with one more of them a step on that is up to a third longer or
shorter than the pair's own span, is two steps of the column (`JoinConfig.uneven_step`), not one card's two corners.
A whole card's pair, with another card's index a little over a diagonal on in its line (cards laid in a square),
is still one card."""

from collections import Counter
from dataclasses import replace

import pytest
from cached_photos import boxes, miscounted, photo_file
from synth_cards import card_corners, shrunk

from vision.corners import JoinConfig, join_corners
from vision.detection import Detection
from vision.pipe import TABLE

PHOTO = "uneven_column_photo.json"
NARROW = JoinConfig(uneven_step=(0.8, 1.25), covered_chain_degrees=15.0)  # steps as even as a column's
# before the fifty-eighth session (and a covered wild's column as straight as before the fifty-ninth)


def uneven_column(cls: str, n: int, x: float, steps: tuple[float, ...], share: float = 0.6) -> list[Detection]:
    """A meld fanned downwards at steps taken in turn from `steps`, its last card whole, its indices `share` of
    the usual size (a deck printing a small index: a column's steps are as many index sizes long as a card's
    diagonal usually is, though well short of this deck's, which the whole cards show)."""
    dets: list[Detection] = []
    y = 100.0
    for k in range(n):
        which = "both" if k == n - 1 else "tl"
        dets += [shrunk(d, share) for d in card_corners(cls, x + 6.0 * k, y, which=which)]
        y += steps[k % len(steps)]
    return dets


@pytest.mark.parametrize("steps", [(22.0, 29.0), (26.0, 34.0), (31.0, 24.0)])
def test_a_column_of_uneven_steps_keeps_every_card(steps):
    dets = uneven_column("7", 8, 100, steps) + uneven_column("8", 6, 200, steps[::-1])
    truth = Counter({"7": 8, "8": 6})
    assert Counter(c.cls for c in join_corners(dets)) == truth
    assert Counter(c.cls for c in join_corners(dets, NARROW)) != truth  # steps 1.3 apart: neighbours joined


def test_held_out_photo_of_uneven_columns_counts_its_cards():
    photo = photo_file(PHOTO)
    assert miscounted(TABLE, photo) == {}
    found = Counter(c.cls for c in join_corners(boxes(photo), replace(NARROW, handed=0)))
    assert found["8"] == photo["cards"]["8"] - 1  # two 8s of the top column, a step apart, taken for one card
    # (the pair also crosses the column the wrong way, `JoinConfig.handed`, which refuses it on its own)
    assert Counter(c.cls for c in join_corners(boxes(photo), NARROW))["8"] == photo["cards"]["8"]


def _whole_card(x: float, y: float, cls: str = "K") -> list[Detection]:
    """A card 155 x 200 px whose two indices (20 x 50 px) lie in its top-left and bottom-right corners."""
    return [Detection(cls, 0.8, (x, y, x + 20, y + 50)), Detection(cls, 0.8, (x + 135, y + 150, x + 155, y + 200))]


@pytest.mark.parametrize(("across", "down"), [(165.0, 205.0), (160.0, 200.0)])
def test_four_whole_cards_in_a_square_stay_four(across, down):
    # the top-left card's top index lies 1.3 diagonals on from the bottom-right card's pair, in its line: a step
    # that uneven counts only beyond a pair far shorter than a card's diagonal
    dets = [d for x in (0.0, across) for y in (0.0, down) for d in _whole_card(x, y)]
    assert Counter(c.cls for c in join_corners(dets)) == Counter({"K": 4})
    assert Counter(c.cls for c in join_corners(dets, JoinConfig(column_step=(0.7, 1.35)))) != Counter({"K": 4})
