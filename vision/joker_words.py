"""A natural index the detector finds inside a joker's box is a letter of the joker's word.

Several designs print "Joker" (or "JOKER") down a joker's corner, and the
detector, which boxes that word as the joker's index, now and then also
boxes its first letter as a J (once a 7, a K or a Q) at a low confidence.
That box counts a jack that is not there. So a rank's box lying almost
wholly (`INSIDE`) within a joker box of the same photo is dropped where the
detector was unsure of it (under `WORD_CONF`). On the held-out rounds'
cached boxes (four readings) this drops 5 boxes, none on a true index; on
`dev11`'s first 100 rounds 9, none true, and it keeps the one true index
(an 8 at 0.76) lying within a joker box (models/README.md, "Wilds read
from three crops, and a jack inside a joker's word").
"""

from __future__ import annotations

from collections.abc import Sequence

from vision.detection import BACK, JOKER, Detection, share_inside

INSIDE = 0.75  # share of a rank box's area lying within a joker box
WORD_CONF = 0.5  # ... dropped where the detector gave it less confidence than this
NOT_RANK = frozenset({JOKER, "WILD20", "WILD50", "SOCK", "SHOE", BACK})  # boxes that name no rank


def drop_joker_letters(detections: Sequence[Detection], inside: float = INSIDE,
                       conf: float = WORD_CONF) -> list[Detection]:
    """`detections` without the rank boxes (not NOT_RANK) under `conf` lying at least `inside` within a
    joker box."""
    jokers = [d.box for d in detections if d.cls == JOKER]
    return [d for d in detections
            if d.cls in NOT_RANK or d.conf >= conf or not any(share_inside(d.box, j) >= inside for j in jokers)]
