"""Unsure indices taken where a table's evenly spaced indices say a card lies.

The detector misses some indices outright: its three readings' mean
confidence stays under the threshold (`InferenceConfig.fused_conf`), most
often on blurred photos and on designs it reads badly (jokers above all).
Taking every box down to a lower threshold finds many of them but brings
as many false ones (development rounds read no better at the lower
thresholds tried: the thirty-third session's notes in models/README.md).

A meld column on the table is a line of indices one fan step apart. An
unsure box (`InferenceConfig.unsure_conf` and over) is taken as an index
where that line says one lies:

- in a gap: sure indices on both sides, each about one step away along
  one line, the gap two steps long, and a sure index one step further on
  past either side (so the line's step is known);
- past a line's end: a sure index one step away, another one step further
  back along the same line, and none half way between them.

The step must be 0.8 to 4 index sizes (the photo's median sure box), every
"about" within `tolerance` index sizes, and no sure index may lie on the
unsure box already. Hands are not lines of even steps (a fan turns), so the
caller uses this for table photos only.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

import numpy as np

from vision.detection import Detection
from vision.small_jokers import box_side

TOLERANCE = 0.35  # index sizes: how near a box must lie to where the line puts an index
STEP_RANGE = (0.8, 4.0)  # index sizes: the fan steps taken for a column's


def _near(points: np.ndarray, where: np.ndarray, reach: float) -> bool:
    return bool((np.linalg.norm(points - where, axis=1) < reach).any())


def _fills_gap(at: np.ndarray, centres: np.ndarray, index: float, tolerance: float) -> bool:
    middles = (centres[:, None] + centres[None, :]) / 2
    low, high = STEP_RANGE
    for i, j in np.argwhere(np.linalg.norm(middles - at, axis=2) < tolerance * index):
        if i >= j:
            continue
        span = centres[j] - centres[i]
        step = float(np.linalg.norm(span)) / 2
        if not low * index <= step <= high * index:
            continue
        ahead = span / 2  # one step along the line
        if _near(centres, centres[j] + ahead, tolerance * index) or _near(centres, centres[i] - ahead, tolerance * index):
            return True
    return False


def _continues_line(at: np.ndarray, centres: np.ndarray, index: float, tolerance: float) -> bool:
    low, high = STEP_RANGE
    away = np.linalg.norm(centres - at, axis=1)
    for j in np.argsort(away)[:4]:
        if not low * index <= away[j] <= high * index:
            continue
        back = centres[j] + (centres[j] - at)
        halves = (at + centres[j]) / 2, centres[j] + (centres[j] - at) / 2
        if any(_near(centres, half, tolerance * index) for half in halves):
            continue  # an index half way: the line's step is half this
        others = np.delete(centres, j, axis=0)
        if _near(others, back, tolerance * index):
            return True
    return False


def lines_filled(sure: Sequence[Detection], unsure: Sequence[Detection], tolerance: float = TOLERANCE) -> list[Detection]:
    """The `unsure` boxes lying where a line of evenly spaced `sure` indices puts one (see the module's text)."""
    if len(sure) < 3 or not unsure:
        return []
    index = statistics.median(box_side(d) for d in sure)
    if index <= 0:
        return []
    centres = np.array([d.center for d in sure], dtype=float)
    taken = []
    for det in unsure:
        at = np.array(det.center, dtype=float)
        if _near(centres, at, 0.5 * index):
            continue  # a sure index lies there already
        if _fills_gap(at, centres, index, tolerance) or _continues_line(at, centres, index, tolerance):
            taken.append(det)
    return taken
