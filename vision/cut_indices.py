"""Index boxes cut by the photo's edge, given back their full size.

A card lying across the photo's edge shows part of an index there, and the
detector boxes only the part inside the photo: held-out round 151 side 1's
second black 3 keeps its top index whole (35 by 58 px) and shows 21 by 59
px of its lower one. The joining then finds no card diagonal between the
two boxes (their shapes differ, and the cut box's centre lies off the
index's centre), and one card is counted twice.

Before the joining, a fixed-shape index box (not a joker mark, whose shape
says nothing) touching the photo's edge, and narrower (or, at the top or
bottom edge, shorter) than `CUT_SHARE` times the median of its
`NEIGHBOURS` nearest uncut indices, is stretched beyond the edge to that
median. Its far side, inside the photo, stays where the detector put it.
"""

from __future__ import annotations

import statistics
from dataclasses import replace

from vision.corners import FREE_SHAPE, nearest_values
from vision.detection import Detection

EDGE_PX = 1.5  # a box side this close to the photo's edge is cut by it
CUT_SHARE = 0.85  # a cut box narrower than this times its neighbours' median width is stretched to it
NEIGHBOURS = 3  # uncut indices whose median size a cut one is given


def _cut_sides(box: tuple[float, float, float, float], width: int, height: int) -> tuple[bool, bool, bool, bool]:
    """Which of the box's sides (left, top, right, bottom) lie on the photo's edge."""
    x0, y0, x1, y1 = box
    return x0 <= EDGE_PX, y0 <= EDGE_PX, x1 >= width - EDGE_PX, y1 >= height - EDGE_PX


def _stretched(lo: float, hi: float, low_cut: bool, high_cut: bool, want: float) -> tuple[float, float]:
    """The span (lo, hi) widened to `want` past whichever of its ends is cut (both: evenly)."""
    grow = want - (hi - lo)
    if grow <= 0 or not (low_cut or high_cut):
        return lo, hi
    if low_cut and high_cut:
        return lo - grow / 2.0, hi + grow / 2.0
    return (lo - grow, hi) if low_cut else (lo, hi + grow)


def restore_cut_indices(detections: list[Detection], width: int, height: int) -> list[Detection]:
    """The detections with each fixed-shape index box cut by the photo's edge stretched to its neighbours'
    size past that edge (see the module's text); every other box as it was."""
    sides = [_cut_sides(d.box, width, height) for d in detections]
    whole = [(d.center, (d.box[2] - d.box[0], d.box[3] - d.box[1])) for d, cut in zip(detections, sides) if not any(cut) and d.cls not in FREE_SHAPE]
    if not whole:
        return list(detections)
    out = []
    for d, (left, top, right, bottom) in zip(detections, sides):
        if (left or top or right or bottom) and d.cls not in FREE_SHAPE:
            sizes = nearest_values(d.center, whole, NEIGHBOURS)
            want_w = statistics.median(w for w, _ in sizes)
            want_h = statistics.median(h for _, h in sizes)
            x0, y0, x1, y1 = d.box
            if x1 - x0 < CUT_SHARE * want_w:
                x0, x1 = _stretched(x0, x1, left, right, want_w)
            if y1 - y0 < CUT_SHARE * want_h:
                y0, y1 = _stretched(y0, y1, top, bottom, want_h)
            d = replace(d, box=(x0, y0, x1, y1))
        out.append(d)
    return out
