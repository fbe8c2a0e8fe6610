"""A jack's J or a joker word's J: the joker-word reader (models/joker-words.pt) tells them apart.

Several designs print "Joker" (or "JOKER") down a joker's corner, and the detector boxes its first letter as
a J now and then, unsure. `word_jokers` names such a box a joker where the reader sees the rest of a joker's
word or face around it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from vision.detection import BACK, JOKER, Detection, box_iou, renamed
from vision.wild_reader import MERGE_IOU

# The joker-word reader renames a J box the detector gave under READ_CONF a joker where it reads one at
# WORD_ODDS or more; an unsure J box (under the detector's threshold, never counted otherwise) becomes a joker at
# UNSURE_WORD_ODDS, where it overlaps no box counted already (above TAKEN_IOU). On the held-out rounds' cached
# boxes the J boxes on a joker's word the detector was sure of lay at 0.26-0.53, and the jacks it reads as jokers
# at 0.7 or more at 0.69-0.79 (on `dev11` and `dev13` none under 0.7); read at 0.7 it took 15 of the 17 J boxes
# lying on a joker, and at 0.9 12 of the 19 unsure ones, with no jack renamed (models/README.md, "Jokers whose
# word begins with a J").
READ_CONF = 0.6
WORD_ODDS = 0.7
UNSURE_WORD_ODDS = 0.9
TAKEN_IOU = 0.3
NOT_RANK = frozenset({JOKER, "WILD20", "WILD50", "SOCK", "SHOE", BACK})  # boxes that name no rank


def word_jokers(
    image,
    detections: Sequence[Detection],
    reader,
    unsure: Sequence[Detection] = (),
    conf: float = READ_CONF,
    odds: float = WORD_ODDS,
    unsure_odds: float = UNSURE_WORD_ODDS,
) -> list[Detection]:
    """`detections` with each J box under `conf` (READ_CONF) that the joker-word `reader` (a `WildReader` of J and JOKER)
    reads as a joker at `odds` or more named JOKER, and with each `unsure` J box it reads as one at
    `unsure_odds` added as a JOKER, where no box kept overlaps it. Nothing else is renamed: a JOKER box is never
    read as a J."""
    if reader is None or image is None or getattr(image, "ndim", 0) != 3:
        return list(detections)
    doubtful = [d for d in detections if d.cls == "J" and d.conf < conf]
    hidden = [d for d in unsure if d.cls == "J"]
    joker = reader.classes.index(JOKER)
    read = reader.view_odds(image, doubtful + hidden)[:, joker] if doubtful or hidden else []
    named = {id(d) for d, p in zip(doubtful, read) if p >= odds}
    out = renamed(detections, lambda d: JOKER if id(d) in named else None, MERGE_IOU)
    for d, p in zip(hidden, read[len(doubtful) :]):
        if p >= unsure_odds and not any(box_iou(d.box, k.box) > TAKEN_IOU for k in out):
            out.append(replace(d, cls=JOKER))
    return out
