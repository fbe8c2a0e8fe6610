"""Joker boxes far smaller than the photo's indices are not jokers.

Some designs (`aisleriot-tango`) print a small suit pip at a card's lower
corner; where cards fan, a row of those pips shows, and the detector reads
many of them as joker marks (46 of `dev11`'s 141 joker boxes on no joker).
A joker's marks are as large as an index or larger, so a joker box whose
side (the square root of its area) is under `SMALL_JOKER` times the median
side of the photo's natural indices is dropped before the corners are
joined. On `dev11`'s cached three-reading boxes that ratio (0.45) drops 40
boxes on no joker and 3 of 1,119 on one; 0.4 drops 20 and none.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

from vision.detection import BACK, JOKER, Detection

SMALL_JOKER = 0.45  # a joker box smaller than this times the median natural index side is dropped
MIN_NATURALS = 3  # ... where the photo holds at least this many natural indices to measure
NATURAL_CONF = 0.25  # natural indices counted in the median: those at this confidence or more
NOT_NATURAL = frozenset({JOKER, BACK})


def box_side(det: Detection) -> float:
    """The square root of a box's area, in pixels."""
    x1, y1, x2, y2 = det.box
    return math.sqrt(max(x2 - x1, 0.0) * max(y2 - y1, 0.0))


def index_side(detections: Sequence[Detection]) -> float | None:
    """The median side of a photo's natural indices found at NATURAL_CONF or more; None where fewer than
    MIN_NATURALS are found (too few to say how large the photo's indices are)."""
    sides = [box_side(d) for d in detections if d.cls not in NOT_NATURAL and d.conf >= NATURAL_CONF]
    return statistics.median(sides) if len(sides) >= MIN_NATURALS else None


def drop_small_jokers(detections: Sequence[Detection], ratio: float = SMALL_JOKER) -> list[Detection]:
    """`detections` without the joker boxes whose side is under `ratio` times the median side of the
    natural indices (`index_side`; where too few are found, all kept)."""
    median = index_side(detections)
    if median is None:
        return list(detections)
    return [d for d in detections if d.cls != JOKER or box_side(d) >= ratio * median]
