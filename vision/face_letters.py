"""An index far larger than the photo's others is a letter printed on a card's face.

Some designs print a court card's letter large across its face (`simple-2`'s
jack shows a big J), and the detector now and then boxes that letter as an
index, at a low confidence: a second jack counted in a hand of one. An index
of a photo is as large as the others, give or take the photo's depth, so a
rank's box whose side (the square root of its area) is at least `LARGE`
times the median side of the photo's sure natural indices is dropped where
the detector was unsure of it (under `FACE_CONF`). Boxes that name no rank
are never dropped here: a joker's mark may be a whole word, a Bare Foot
sock's or shoe's index is a picture, and a card back is a whole card.

On the held-out rounds' cached boxes (four readings) it drops 6 boxes, none
on a true index, and on `dev11`'s first 100 rounds 2 (one a Bare Foot
sock's index read as a 10). Of the real sets' sure boxes it drops one
`edje-rank` box, on no label. At 2 index sizes it read one side fewer on
each round set; at 1.5 it dropped a true jack's index on `dev11`
(models/README.md, "Wilds read at three turns, and letters across a court
card's face").
"""

from __future__ import annotations

from collections.abc import Sequence

from vision.detection import Detection
from vision.joker_words import NOT_RANK
from vision.small_jokers import box_side, index_side

LARGE = 1.7  # a box this many times the median natural index side, or more, ...
FACE_CONF = 0.5  # ... is dropped where the detector gave it less confidence than this


def drop_face_letters(detections: Sequence[Detection], large: float = LARGE, conf: float = FACE_CONF) -> list[Detection]:
    """`detections` without the rank boxes (not NOT_RANK) under `conf` whose side is at least `large` times
    the median side of the natural indices (`index_side`; where too few are found, all kept)."""
    median = index_side(detections)
    if median is None:
        return list(detections)
    return [d for d in detections if d.cls in NOT_RANK or d.conf >= conf or box_side(d) < large * median]
