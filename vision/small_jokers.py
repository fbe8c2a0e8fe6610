"""Joker boxes far smaller than the photo's indices are not jokers.

Some designs (`aisleriot-tango`) print a small suit pip at a card's lower
corner; where cards fan, a row of those pips shows, and the detector reads
many of them as joker marks (46 of `dev11`'s 141 joker boxes on no joker).
A joker's marks are as large as an index or larger, so a joker box whose
side (the square root of its area) is under `SMALL_JOKER` times the median
side of the photo's natural indices is dropped before the corners are
joined. On `dev11`'s cached three-reading boxes that ratio (0.45) drops 40
boxes on no joker and 3 of 1,119 on one; 0.4 drops 20 and none.

A photo's jokers are of one design, and a design's joker marks are of one
size, so a joker box is also dropped where its side is under
`SMALL_AMONG_JOKERS` times the median side of the photo's sure joker boxes
(at least `MIN_JOKERS` of them): a suit pip or a letter read as a joker mark
beside jokers whose marks the detector did find. The true joker corners of
the three round sets (3,224 in photos with two or more) all measure at least
0.44 of their photo's median, 4 under 0.6; on the cached four readings' sure
boxes in photos with three joker boxes or more, 0.6 drops 23 held-out boxes,
13 of `dev11`'s and 4 of `r50`'s, none on a joker (models/README.md, "Joker
boxes small beside the photo's other jokers").
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence

from vision.detection import BACK, JOKER, Detection

SMALL_JOKER = 0.45  # a joker box smaller than this times the median natural index side is dropped
MIN_NATURALS = 3  # ... where the photo holds at least this many natural indices to measure
NATURAL_CONF = 0.25  # natural indices counted in the median: those at this confidence or more
NOT_NATURAL = frozenset({JOKER, BACK})
SMALL_AMONG_JOKERS = 0.6  # a joker box smaller than this times the median side of the photo's sure joker boxes is dropped
MIN_JOKERS = 3  # ... where the photo holds at least this many sure joker boxes (NATURAL_CONF or more)


def box_side(det: Detection) -> float:
    """The square root of a box's area, in pixels."""
    x1, y1, x2, y2 = det.box
    return math.sqrt(max(x2 - x1, 0.0) * max(y2 - y1, 0.0))


def _median_side(detections: Sequence[Detection], wanted: Callable[[str], bool], least: int) -> float | None:
    """The median side of the `wanted` classes' boxes found at NATURAL_CONF or more; None where fewer than
    `least` are found (too few to say how large they are)."""
    sides = [box_side(d) for d in detections if wanted(d.cls) and d.conf >= NATURAL_CONF]
    return statistics.median(sides) if len(sides) >= least else None


def index_side(detections: Sequence[Detection]) -> float | None:
    """The median side of a photo's natural indices found at NATURAL_CONF or more; None where fewer than
    MIN_NATURALS are found (too few to say how large the photo's indices are)."""
    return _median_side(detections, lambda cls: cls not in NOT_NATURAL, MIN_NATURALS)


def joker_side(detections: Sequence[Detection]) -> float | None:
    """The median side of a photo's joker boxes found at NATURAL_CONF or more; None where fewer than
    MIN_JOKERS are found."""
    return _median_side(detections, lambda cls: cls == JOKER, MIN_JOKERS)


def drop_small_jokers(detections: Sequence[Detection], ratio: float = SMALL_JOKER, among_jokers: float = SMALL_AMONG_JOKERS) -> list[Detection]:
    """`detections` without the joker boxes whose side is under `ratio` times the median side of the
    natural indices (`index_side`) or under `among_jokers` times the median side of the photo's sure joker
    boxes (`joker_side`); a measure that too few boxes give drops nothing."""
    floors = [share * median for share, median in ((ratio, index_side(detections)), (among_jokers, joker_side(detections))) if median is not None]
    floor = max(floors, default=0.0)
    return [d for d in detections if d.cls != JOKER or box_side(d) >= floor]
